"""The catalogue as Fluent files: every language complete, plurals from CLDR, numbers as
players always read them, German option and move words, and files an install ships."""

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from bot import i18n, options
from bot.i18n_import import parse_dir
from engine import games
from tests.english import english_sentences

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in i18n.LANGS if lang != "en"]


def test_the_catalogue_has_english_french_and_german():
    assert i18n.LANGS[0] == "en" and {"fr", "de"} <= set(i18n.LANGS)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_exists_in_every_language(lang):
    """After a merge, this lists what is left to translate (`de` above all)."""
    english = set(i18n.message_keys("en"))
    missing = sorted(english - set(i18n.message_keys(lang)))
    extra = sorted(set(i18n.message_keys(lang)) - english)
    assert not missing, f"keys missing from {lang} ({len(missing)}): {', '.join(missing)}"
    assert not extra, f"keys only in {lang}: {', '.join(extra)}"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_sentence_reads_the_same_variables_as_the_english_one(lang):
    wrong = [(key, i18n.message_variables("en", key), i18n.message_variables(lang, key))
             for key in i18n.message_keys("en")
             if key in i18n.message_keys(lang)
             and i18n.message_variables("en", key) != i18n.message_variables(lang, key)]
    assert wrong == []


def test_sentences_added_by_code_are_in_every_language_too():
    """register() still works for old code; its keys must reach the files all the same."""
    for game_id in games.ids():
        from bot.renderers import for_game
        for_game(game_id)
    registered = {lang: set(keys) for lang, keys in i18n._REGISTERED.items()}
    assert all(not keys for keys in registered.values()), (
        f"port these with python -m bot.i18n_import: {registered}")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_file_parses_without_junk(lang):
    assert parse_dir(i18n.LOCALES / lang)  # raises on a line Fluent cannot read


PLURALS = {
    "en": ["0 cards", "1 card", "2 cards", "5 cards", "21 cards"],
    "fr": ["0 carte", "1 carte", "2 cartes", "5 cartes", "21 cartes"],
    "de": ["0 Karten", "1 Karte", "2 Karten", "5 Karten", "21 Karten"],
}


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_plural_forms_for_0_1_2_5_and_21(lang):
    assert [i18n.count(lang, "card", n) for n in (0, 1, 2, 5, 21)] == PLURALS[lang]


def test_every_counted_unit_has_its_plural_forms_in_every_language():
    units = [k[2:] for k in i18n.message_keys("en") if k.startswith("n.")]
    singular = {"en": {1}, "fr": {0, 1}, "de": {1}}
    for lang in i18n.LANGS:
        for unit in units:
            texts = {n: i18n.count(lang, unit, n) for n in (0, 1, 2, 5, 21)}
            assert all(text.startswith(f"{n} ") for n, text in texts.items()), texts
            ones = {n for n in texts if texts[n][len(str(n)):] == texts[1][1:]}
            assert ones == singular.get(lang, {1}), (lang, unit, texts)


def test_numbers_read_as_the_locale_writes_them_with_a_true_minus_and_no_isolation_marks():
    assert i18n.count("en", "chip", 1000) == "1,000 chips"
    assert i18n.count("de", "chip", 1000) == "1.000 Chips"
    assert i18n.count("fr", "chip", 12345) == "12\u202f345 jetons"
    assert i18n.count("de", "chip", -1) == "−1 Chip"
    assert i18n.count("en", "chip", -14) == "−14 chips"
    assert i18n.t("fr", "table_full", max=1000) == (
        "La table est complète (1\u202f000 joueurs au plus).")
    text = i18n.t("de", "your_turn", name="Ada", game="The Game")
    assert text == "Ada, du bist dran (The Game)." and "\u2068" not in text


def test_a_decimal_shows_the_locale_decimal_sign_in_every_sentence():
    for lang, rank in (("en", "3.0"), ("de", "3,0"), ("fr", "3,0")):
        text = i18n.t(lang, "stats_line", game="X", played=4, wins=1, rank=3.0)
        assert text.endswith(f" {rank}"), text
    assert i18n.t("de", "option.too_high", key="chips", high=2.5).endswith("2,5.")
    assert i18n.number(-2.25, lang="fr") == "−2,25"
    assert i18n.number(1234567, lang="de") == "1.234.567"


def test_a_missing_parameter_shows_a_question_mark_in_every_language():
    for lang in i18n.LANGS:
        assert "?" in i18n.t(lang, "refusal.too_low"), lang
        assert "$" not in i18n.t(lang, "refusal.too_low"), lang


def test_catalogues_still_offer_str_format_templates_with_plural_singulars():
    assert i18n.CATALOGUES["de"]["n.card.one"] == "{n} Karte"
    assert i18n.CATALOGUES["de"]["n.card"] == "{n} Karten"
    board = i18n.CATALOGUES["en"]["optdesc.board"].format()
    assert board == 'other cell values, e.g. board={"pair": [5, 3, 1]}'


def test_german_help_rules_and_refusals_read_german():
    for text in [i18n.t("de", "help", games="…"), i18n.t("de", "rules.ochs-esel"),
                 i18n.t("de", "refusal.too_low", needed="8 8"), i18n.t("de", "newgame_usage")]:
        assert english_sentences(text) == [], text
    assert "Ochs und Esel" in i18n.t("de", "rules.ochs-esel")
    assert "rounds=3 ox=ja" in i18n.t("de", "newgame_usage")


def test_the_english_detector_finds_an_english_sentence():
    assert english_sentences("Runde 1\nAlice, it's your turn (The Game).")[0][0] == "your_turn"
    assert english_sentences("Alice: passt") == []


def test_german_option_words_are_read_like_the_french_ones():
    game, table = options.parse(["runden=3", "ochs=ja", "frist=aus", "botpause=2"])
    assert game == {"rounds": 3, "ox": True} and table == {"deadline": 0, "bot_delay": 2}
    game, _ = options.parse(["first=zufällig", "hand_minus_one=nein", "ochs"])
    assert game == {"first": None, "hand_minus_one": False, "ox": True}


@pytest.mark.parametrize(("game_id", "text", "expected"), [
    ("ochs-esel", "passen", "pass"),
    ("ochs-esel", "spiele E", "D"),
    ("the-game", "ende", "end"),
    ("the-game", "lege 23 A1", "23 A1"),
    ("nix-fur-ungut", "nichts", "none"),
    ("nix-fur-ungut", "reihe3 2 3 4", "run3 2 3 4"),
    ("nix-fur-ungut", "paar 5 J super", "pair 5 J super"),
    ("michigan", "ausspielen herz", "lead H"),
    ("michigan", "spiele kreuz", "lead C"),
    ("michigan", "tauschen", "swap"),
    ("michigan", "behalten", "keep"),
    ("michigan", "versteigern", "auction"),
    ("michigan", "bieten 5", "bid 5"),
    ("michigan", "passen", "pass"),
])
def test_german_move_words_read_as_the_engines_moves(game_id, text, expected):
    game = games.get(game_id)
    state = game.new_game(max(game.SEATS.start, 3), seed=3)
    assert game.parse_move(state, 0, text) == game.parse_move(state, 0, expected)


def test_the_locale_files_are_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["bot"]
    files = [p.relative_to(ROOT / "bot").as_posix() for p in (ROOT / "bot").rglob("*.ftl")]
    assert files and all(any(fnmatch(f, g) for g in globs) for f in files)
    assert "fluent.runtime" in " ".join(config["project"]["dependencies"])


def test_a_game_is_named_as_its_players_know_it():
    assert i18n.t("de", "started", game="Ochs & Esel").startswith("Ochs und Esel hat begonnen")
    assert i18n.t("en", "started", game="Ochs & Esel").startswith("Ochs & Esel has started")
    assert i18n.t("de", "started", game="Nix für Ungut").startswith("Nix für Ungut hat")
    assert i18n.t("de", "joined", game="Ochs") == "Du sitzt jetzt am Tisch für Ochs."  # not a game
