"""Every sentence exists in both languages, and every engine refusal has one."""

import ast
import re
import string
from pathlib import Path

import pytest

from bot import i18n, present
from bot.renderers import for_game
from engine import games
from engine.core.errors import OPTION_PROBLEMS

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def engine_codes() -> set[str]:
    codes = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                codes.add(node.args[0].value)
    return codes


def test_english_and_french_have_the_same_keys():
    for game_id in games.ids():
        for_game(game_id).describe  # noqa: B018 - importing a renderer registers its sentences
    assert set(i18n.CATALOGUES["en"]) == set(i18n.CATALOGUES["fr"])


@pytest.mark.parametrize("code", sorted(engine_codes()))
def test_every_refusal_code_reads_as_a_sentence_in_both_languages(code):
    for lang in i18n.LANGS:
        assert i18n.has(lang, f"refusal.{code}"), (lang, code)


@pytest.mark.parametrize("game_id", games.ids())
def test_rules_explain_every_option_of_the_game_in_both_languages(game_id):
    for lang in i18n.LANGS:
        for name in games.get(game_id).Options.model_fields:
            assert i18n.has(lang, f"optdesc.{name}"), (lang, name)
        text = present.rules_text(game_id, lang)
        for name in [*games.get(game_id).Options.model_fields, "deadline", "bot_delay"]:
            assert f"· {name}" in text, (lang, name)
    assert "· rounds=5 — number of rounds, 1 to 20" in present.rules_text("ochs", "en")
    assert "· first=au hasard — le siège" in present.rules_text("the-game", "fr")


@pytest.mark.parametrize("kind", OPTION_PROBLEMS)
def test_every_kind_of_refused_option_reads_as_a_sentence_in_both_languages(kind):
    for lang in i18n.LANGS:
        assert i18n.has(lang, f"option.{kind}"), (lang, kind)


def test_both_languages_use_the_same_placeholders():
    names = lambda s: {f[1] for f in string.Formatter().parse(s) if f[1]}  # noqa: E731
    for key, english in i18n.CATALOGUES["en"].items():
        assert names(english) == names(i18n.CATALOGUES["fr"][key]), key


def test_a_missing_parameter_never_breaks_a_sentence():
    assert "?" in i18n.t("en", "refusal.too_low")
    assert i18n.t("fr", "no_such_key_anywhere") == "no_such_key_anywhere"
    assert re.search(r"\d", i18n.t("fr", "table_full", max=12))


def test_a_count_takes_the_singular_for_one_and_in_french_for_zero():
    assert [i18n.count("en", "card", n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [i18n.count("fr", "chip", n) for n in (0, 1, 2)] == ["0 jeton", "1 jeton", "2 jetons"]
