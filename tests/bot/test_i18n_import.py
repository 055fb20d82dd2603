"""python -m bot.i18n_import: the lead ports other branches' `EN`/`FR` blocks with it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fluent.runtime import FluentBundle, FluentResource

from bot import i18n
from bot.i18n_import import main, templates_of

ROOT = Path(__file__).resolve().parents[2]

BRANCH_FILE = '''
"""A branch's bot/i18n.py, with its own block at the end of each dict."""
LANGS = ("en", "fr")

EN: dict[str, str] = {
    "n.card": "{n} cards", "n.card.one": "{n} card",
    "move_done": "Done.",
    # --- tournaments ---
    # a count of tournaments
    "n.cup": "{n} cups", "n.cup.one": "{n} cup",
    "cup_title": "Cup {name}: {count} rounds",
    "cup_json": "Write board={{\\"pair\\": 1}} here",
    "cup_sep": " · {round}",
    "cup_lines": "First line\\n[not a variant] second {x}\\n*third",
    "cup_empty": "",
    "move_done.cup": "Cup move done.",
}

FR: dict[str, str] = {
    "n.card": "{n} cartes", "n.card.one": "{n} carte",
    "move_done": "C'est fait !",
    # --- tournaments ---
    "n.cup": "{n} coupes", "n.cup.one": "{n} coupe",
    "cup_title": "Coupe {name} : {count} manches",
    "cup_json": "Écrivez board={{\\"pair\\": 1}} ici",
    "cup_sep": " · {round}",
    "cup_lines": "Première ligne\\n[pas une variante] deuxième {x}\\n*troisième",
    "cup_empty": "",
    "move_done.cup": "Coup de coupe fait.",
}

CATALOGUES = {"en": EN, "fr": FR}
'''


@pytest.fixture
def locales(tmp_path):
    copy = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, copy)
    return copy


def bundle(locales: Path, lang: str) -> FluentBundle:
    out = FluentBundle([lang], use_isolating=False)
    for path in sorted((locales / lang).glob("*.ftl")):
        out.add_resource(FluentResource(path.read_text()))
    return out


def say(b: FluentBundle, key: str, **args) -> str:
    text, errors = b.format_pattern(b.get_message(key.replace(".", "--")).value, args)
    assert errors == []
    return text


def test_a_branch_file_adds_only_its_new_keys_with_plurals_and_odd_characters(
        tmp_path, locales, capsys):
    source = tmp_path / "i18n.py"
    source.write_text(BRANCH_FILE)
    assert main([str(source), "--locales", str(locales)]) == 0
    out = capsys.readouterr().out
    assert "en: 7 added: n.cup, cup_title, cup_json, cup_sep, cup_lines, cup_empty, " \
           "move_done.cup" in out
    assert "fr: 1 differs (kept the file's): move_done" in out  # a changed sentence is named

    en, fr = bundle(locales, "en"), bundle(locales, "fr")
    assert [say(en, "n.cup", n=n) for n in (0, 1, 2)] == ["0 cups", "1 cup", "2 cups"]
    assert [say(fr, "n.cup", n=n) for n in (0, 1, 2)] == ["0 coupe", "1 coupe", "2 coupes"]
    assert say(en, "cup_title", name="A", count=3) == "Cup A: 3 rounds"
    assert say(en, "cup_json") == 'Write board={"pair": 1} here'
    assert say(fr, "cup_sep", round="2") == " · 2"
    assert say(en, "cup_lines", x="X") == "First line\n[not a variant] second X\n*third"
    assert say(en, "cup_empty") == ""
    assert say(fr, "move_done") == "C'est fait."  # kept: the file's sentence wins
    assert "# a count of tournaments" in (locales / "en" / "tapis.ftl").read_text()
    # Read back as templates, each sentence is the branch's own.
    templates = templates_of(locales / "fr")
    assert templates["cup_json"] == 'Écrivez board={{"pair": 1}} ici'
    assert templates["n.cup.one"] == "{n} coupe"

    # A second run adds nothing: the lead may run it on every branch, in any order.
    assert main([str(source), "--locales", str(locales)]) == 0
    assert "added" not in capsys.readouterr().out.replace("differs", "")


def test_replace_overwrites_a_changed_sentence_and_dry_run_writes_nothing(
        tmp_path, locales, capsys):
    source = tmp_path / "i18n.py"
    source.write_text(BRANCH_FILE)
    before = {p: p.read_text() for p in locales.rglob("*.ftl")}
    assert main([str(source), "--locales", str(locales), "--dry-run"]) == 0
    assert {p: p.read_text() for p in locales.rglob("*.ftl")} == before
    assert main([str(source), "--locales", str(locales), "--replace"]) == 0
    assert say(bundle(locales, "fr"), "move_done") == "C'est fait !"
    assert "fr: 1 changed: move_done" in capsys.readouterr().out


def test_a_renderer_register_call_and_a_bare_block_are_read_too(tmp_path, locales):
    renderer = tmp_path / "cup.py"
    renderer.write_text('from bot.i18n import register\nregister({\n'
                        '    "en": {"cup.won": "{seat} wins the cup"},\n'
                        '    "fr": {"cup.won": "{seat} gagne la coupe"},\n})\n')
    assert main([str(renderer), "--locales", str(locales), "--file", "cup.ftl"]) == 0
    assert "cup--won = { $seat } gagne la coupe" in (locales / "fr" / "cup.ftl").read_text()
    block = tmp_path / "block.txt"
    block.write_text('    # --- tournaments ---\n    "cup.lost": "{seat} loses",\n')
    assert main([str(block), "--lang", "en", "--locales", str(locales)]) == 0
    assert say(bundle(locales, "en"), "cup.lost", seat="Bo") == "Bo loses"


def test_code_built_sentences_and_files_without_dicts_are_refused(tmp_path, locales, capsys):
    source = tmp_path / "bad.py"
    source.write_text('EN = {"x": f"{1 + 1}"}\n')
    assert main([str(source), "--locales", str(locales)]) == 2
    assert "plain string" in capsys.readouterr().err
    source.write_text("x = 1\n")
    assert main([str(source), "--locales", str(locales)]) == 2


def test_the_module_runs_from_the_command_line(tmp_path, locales):
    source = tmp_path / "i18n.py"
    source.write_text(BRANCH_FILE)
    result = subprocess.run([sys.executable, "-m", "bot.i18n_import", str(source),
                             "--locales", str(locales)], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "cup_title" in result.stdout


def test_porting_this_branchs_own_catalogue_again_adds_nothing(tmp_path, locales, capsys):
    """The files are the old dicts converted: every old key is there, with its sentence."""
    for lang in ("en", "fr"):
        block = tmp_path / f"{lang}.txt"
        entries = {k: v for k, v in i18n.CATALOGUES[lang].items()}
        block.write_text("".join(f"{k!r}: {v!r},\n" for k, v in entries.items()))
        assert main([str(block), "--lang", lang, "--locales", str(locales)]) == 0
        out = capsys.readouterr().out
        assert "added" not in out and "differs" not in out, out


def test_with_base_only_the_branchs_own_changes_are_ported(tmp_path, locales, capsys):
    """A branch started from the old dicts: sentences it left alone never count, even when
    the files have moved on since (here: the help names German)."""
    base = tmp_path / "base.py"
    base.write_text('EN = {"help": "Commands: /lang <en|fr>", "move_done": "Done.",\n'
                    '      "n.card": "{n} cards", "n.card.one": "{n} card"}\n')
    branch = tmp_path / "branch.py"
    branch.write_text('EN = {"help": "Commands: /lang <en|fr>", "move_done": "Done!",\n'
                      '      "n.card": "{n} cards", "n.card.one": "one card",\n'
                      '      "cup_started": "The cup has started."}\n')
    assert main([str(branch), "--base", str(base), "--locales", str(locales),
                 "--replace"]) == 0
    out = capsys.readouterr().out
    assert "en: 1 added: cup_started" in out
    assert "en: 2 changed: move_done, n.card" in out and "help" not in out
    en = bundle(locales, "en")
    assert say(en, "move_done") == "Done!" and say(en, "n.card", n=1) == "one card"
    assert "/lang <de|en|fr>" in say(en, "help", games="…")
