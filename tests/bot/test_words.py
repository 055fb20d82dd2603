"""The words players read (issue #36): every refusal, narration line, table and hand in
every language, written as a player of that language reads them."""

import random
import re
import unicodedata
from typing import Any

import pytest

from bot import i18n, options, present
from bot.live import Live
from bot.options import TABLE_SETTINGS
from db.repository import PLAYING, SeatRow, TableRow
from engine import IllegalMove, bots, games
from tests.bot.test_playtest import ochs_following_nines, refusal_text
from tests.bot.test_renderers import apply_all, hand_text

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("ochs-esel", 4, {"rounds": 1}),
    ("ochs-esel", 3, {"rounds": 1, "ox": True}),
    ("the-game", 3, {}),
    ("nix-fur-ungut", 3, {"rounds": 1, "personne": True}),
    ("michigan", 4, {"chips": 20, "hands_per_player": 1}),
]
# Moves typed at every seat of every position reached: most of them refused, for every
# reason each game has.
TRIES: dict[str, list[str]] = {
    "ochs-esel": ["pass", "D", "O", "J", "D 5", "13 13 13 13", "1", "2 2", "1 2", "J J J J J",
                  "zz", "play", "5 5 5", "7", "12 12", "3 3 3 3 3 3 3 3 3"],
    "the-game": ["1 A1", "100 D1", "50 X9", "zz A1", "end", "signal A1 stop",
                 "signal A1 off", "signal A1 zz", "A1 23", "23 A1, 23 A1", "99 A1", "2 D2"],
    "nix-fur-ungut": ["quad 6 6 6 6", "pair 5 J", "pair J J", "zz 1", "none", "single 1 super",
                      "run3 1 2 4", "pair 1 2", "single J", "triple 1 1 1 super", "pair 1 1",
                      "single 1", "run2 J 5", "single 7 super"],
    "michigan": ["lead H", "lead S", "lead D", "lead C", "swap", "keep", "auction", "bid 0",
                 "bid 999", "bid 1", "pass", "lead X", "zz"],
}


def _tries(game_id: str, game: Any, state: Any, seat: int) -> list[str]:
    """`TRIES`, and moves made of the seat's own cards (a card on a pile it does not fit,
    a super chip on a joker combination)."""
    hand = [str(c) for c in game.view(state, seat).get("hand", [])]
    if game_id == "the-game":
        return TRIES[game_id] + [f"{c} {p}" for c in hand for p in ("A1", "A2", "D1", "D2")]
    if game_id == "nix-fur-ungut":
        return TRIES[game_id] + [f"{m} {c} J{s}" for c in hand for m in ("pair", "run2")
                                 for s in ("", " super")] + [f"single {c} super" for c in hand]
    return TRIES[game_id]


# A word written with a count glued to it ("eine× 8"): a count is a number or a word, then
# a space, then what is counted.
BROKEN_TIMES = re.compile(r"\w×|×\w")


def _live(game_id: str, seats: int, opts: dict[str, Any], state: Any) -> Live:
    row = TableRow(id=1, platform="console", channel="c", game=game_id, options=opts,
                   settings={}, seed=5, status=PLAYING, host="u0", version=0, snapshot=None,
                   created_at=0.0, updated_at=0.0)
    people = [SeatRow(seat=s, user_id=f"u{s}", name=f"P{s}") for s in range(seats)]
    return Live(row=row, seats=people, game=games.get(game_id), state=state)


def _played_through() -> dict[str, list[tuple[str, str]]]:
    """(lang, text) of what players read, per game: the table, every hand, the narration
    and a refusal for every move in `TRIES` at every seat, through bot-played games."""
    read: dict[str, list[tuple[str, str]]] = {}
    codes: set[str] = set()
    for game_id, seats, opts in TABLES:
        game = games.get(game_id)
        out = read.setdefault(game_id, [])
        for seed in range(2):
            state = game.new_game(seats, opts, seed=seed)
            rng = random.Random(seed)
            for step in range(300):
                over = game.outcome(state) is not None
                live = _live(game_id, seats, opts, state)
                refusals = []
                if step % 4 == 0 or over:
                    for seat in range(seats):
                        for text in _tries(game_id, game, state, seat):
                            try:
                                game.apply(state, seat, game.parse_move(state, seat, text))
                            except IllegalMove as exc:
                                refusals.append(exc)
                                codes.add(exc.code)
                for lang in i18n.LANGS:
                    if step % 4 == 0 or over:
                        out.extend((lang, line) for line in present.table(live, lang).lines)
                        out.extend((lang, present.refusal(live, exc, lang)) for exc in refusals)
                    for seat in range(seats):
                        out.extend((lang, line) for line in present.hand(live, seat, lang).lines)
                if over:
                    break
                seat = game.to_act(state)[0]
                state, events = game.apply(state, seat, bots.move_for(game, state, seat, rng))
                for lang in i18n.LANGS:
                    out.extend((lang, line) for line in present._narrate(
                        game_id, events, tuple(live.names()), lang))
    # Two refusals need a position the bots seldom leave: a signal already given, a joker
    # in a combination on the last turn.
    the_game = games.get("the-game").new_game(2, {}, seed=1)
    signalled, _ = apply_all("the-game", the_game, (1, "signal A1 stop"))
    nix = games.get("nix-fur-ungut").new_game(2, {}, seed=1, setup={
        "hands": [["1", "2", "3", "4", "5", "J"], ["6", "7", "1", "2", "3"]], "first": 0})
    last_turn, _ = apply_all("nix-fur-ungut", nix, *[
        (seat, f"single {card}") for pair in zip("1234", "6712", strict=True)
        for seat, card in enumerate(pair)])
    for game_id, state, seat, text in (("the-game", signalled, 1, "signal A1 stop"),
                                       ("nix-fur-ungut", last_turn, 0, "pair 5 J")):
        live = _live(game_id, 2, {}, state)
        game = games.get(game_id)
        try:
            game.apply(state, seat, game.parse_move(state, seat, text))
        except IllegalMove as exc:
            codes.add(exc.code)
            read[game_id].extend((lang, present.refusal(live, exc, lang)) for lang in i18n.LANGS)
    read["codes"] = [("", code) for code in sorted(codes)]
    return read


@pytest.fixture(scope="module")
def played() -> dict[str, list[tuple[str, str]]]:
    return _played_through()


def _faults(text: str) -> list[str]:
    faults = []
    if "  " in text.lstrip(" "):  # indentation at the start is the table's layout
        faults.append("double space")
    if BROKEN_TIMES.search(text):
        faults.append("× glued to a word")
    if "{" in text or "$" in text or text.endswith(" ?") or " ? " in text:
        faults.append("a blank left unfilled")
    # A character this Python's Unicode tables do not know is one many fonts and
    # terminals draw as nothing yet: the donkey emoji read "Trick 12 ·  donkey trick".
    if any(unicodedata.category(c) == "Cn" for c in text):
        faults.append("a character too new to be drawn")
    return faults


@pytest.mark.parametrize("game_id", sorted({t[0] for t in TABLES}))
def test_what_a_game_shows_has_no_double_space_no_glued_count_and_no_blank(played, game_id):
    bad = sorted({(lang, text, *_faults(text)) for lang, text in played[game_id]
                  if _faults(text)})
    assert bad == [], bad[:10]
    assert {lang for lang, _ in played[game_id]} == set(i18n.LANGS)


def test_the_refusals_played_through_cover_every_code_of_the_games(played):
    codes = {code for _, code in played["codes"]}
    expected = {key.split(".")[1] for key in i18n.message_keys("en")
                if key.startswith("refusal.") and key.count(".") == 1} - {"generic"}
    assert expected <= codes, expected - codes


def _sample(lang: str, key: str) -> dict[str, Any]:
    return {name: 2 for name in i18n.message_variables(lang, key)}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_sentence_of_any_catalogue_has_a_double_space_or_a_glued_count(lang):
    bad = []
    for key in i18n.message_keys(lang):
        for params in (_sample(lang, key), {**_sample(lang, key), "n": 1, "count": 1}):
            text = i18n.t(lang, key, **params)
            for line in text.split("\n"):
                faults = [f for f in _faults(line) if f != "a blank left unfilled"]
                if faults:
                    bad.append((key, line, faults))
    import adapters.console.texts  # noqa: F401  (the console's own wording, registered)

    for name, wordings in i18n.DIALECTS.items():
        for key, template in wordings.get(lang, {}).items():
            faults = [f for f in _faults(template) if f != "a blank left unfilled"]
            if faults:
                bad.append((f"{name}:{key}", template, faults))
    assert bad == []


# --- counts said in words ----------------------------------------------------------------------

def test_holding_too_few_of_a_card_reads_as_a_count_in_every_language():
    state = ochs_following_nines()
    assert refusal_text("ochs-esel", state, 0, "13 13", "de") == (
        "Du hast nur eine 13: Für 13 13 brauchst du zwei.")
    assert refusal_text("ochs-esel", state, 0, "3 3", "de") == (
        "Du hast nur eine 3: Für 3 3 brauchst du zwei (und um den Tisch zu schlagen, "
        "bräuchtest du mindestens 10).")
    # A set of Ochs & Esel has up to twelve cards (eight of a number, four jokers): every
    # count of it is a word, not a word here and a digit there.
    for lang in i18n.LANGS:
        assert all(i18n.has(lang, f"word.{n}") for n in range(1, 13)), lang
    nines = ["9"] * 8 + ["J", "J"]
    state = games.get("ochs-esel").new_game(3, {}, seed=1, setup={
        "hands": [["3", "5"], nines, ["4", "4", "1"]], "first": 0})
    assert refusal_text("ochs-esel", state, 0, "3 3 3 3 3 3 3 3 3", "de") == (
        "Du hast nur eine 3: Für 3 3 3 3 3 3 3 3 3 brauchst du neun.")


def nix_with_three_sixes() -> Any:
    game = games.get("nix-fur-ungut")
    return game.new_game(2, {}, seed=1, setup={
        "hands": [["6", "6", "6", "2", "3"], ["1", "4", "5", "7", "7"]], "first": 0})


def test_nix_says_you_hold_only_three_when_a_quad_needs_four():
    state = nix_with_three_sixes()
    assert refusal_text("nix-fur-ungut", state, 0, "quad 6 6 6 6") == (
        "You hold only three 6: 6 6 6 6 needs four.")
    assert refusal_text("nix-fur-ungut", state, 0, "quad 6 6 6 6", "de") == (
        "Du hast nur drei 6: Für 6 6 6 6 brauchst du vier.")
    assert refusal_text("nix-fur-ungut", state, 0, "quad 6 6 6 6", "fr") == (
        "Pas assez de 6 : vous en avez trois, 6 6 6 6 en demande quatre.")
    # A card not held at all keeps its own sentence.
    assert refusal_text("nix-fur-ungut", state, 0, "pair 5 5") == (
        "You don't have 5 5 in your hand.")


# --- suits, jokers --------------------------------------------------------------------------

def test_a_michigan_refusal_names_the_suit_as_the_table_does():
    game = games.get("michigan")
    state = game.new_game(3, {}, seed=1, setup={
        "hands": [["2H", "3H", "9H", "5C", "8S"], ["6C", "KD"], ["7C", "QD"], ["4H"]],
        "dealer": 2})
    state, _ = apply_all("michigan", state, (2, "keep"), (0, "lead H"))
    assert refusal_text("michigan", state, 0, "lead H") == (
        "Lead a different suit than ♥ hearts: you hold another one.")
    assert refusal_text("michigan", state, 0, "lead H", "de") == (
        "Spiel eine andere Farbe als ♥ Herz aus: Du hast noch eine andere.")
    assert refusal_text("michigan", state, 0, "lead H", "fr").startswith(
        "Changez de couleur par rapport à ♥ cœur")
    assert refusal_text("michigan", state, 0, "lead D") == (
        "You hold no card of that suit (♦ diamonds).")


def test_a_lone_joker_asks_only_for_a_pass_in_the_hand():
    game = games.get("ochs-esel")
    state = game.new_game(3, {}, seed=1, setup={
        "hands": [["J", "5"], ["9", "9", "2"], ["4", "4", "1"]], "first": 0})
    state, _ = apply_all("ochs-esel", state, (0, "J"))
    english = hand_text("ochs-esel", state, 1, "en")
    assert "To beat: J — nothing beats jokers alone: you can only pass." in english
    assert "higher value" not in english
    assert "Joker allein kommt nichts an" in hand_text("ochs-esel", state, 1, "de")
    assert "rien ne bat des jokers seuls" in hand_text("ochs-esel", state, 1, "fr")
    assert [str(m) for m in game.legal_moves(state, 1)] == ["pass"]


# --- /rules and the option list ---------------------------------------------------------------

def _option_words(text: str) -> list[tuple[str, str]]:
    return re.findall(r"(?<![\w{\"])([a-z_]+)=([^\s,.;:)`<]+)", text)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_sentences_name_options_as_the_option_list_shows_them(lang):
    """`ox=ja` in the rules, as `· ox=nein` in the list under them: the list's names,
    the reader's yes and no."""
    shown_values = {i18n.t(lang, k).split()[0]  # "au hasard": its first word
                    for k in ("opt_yes", "opt_no", "opt_off", "opt_random")}
    for game_id in games.ids():
        game = games.get(game_id)
        listed = {*game.Options.model_fields, *TABLE_SETTINGS}
        rules = present.rules_text(game_id, lang)
        option_list = "\n".join(present.option_help(game, lang))
        texts = [rules, present.games_overview(lang), i18n.t(lang, f"hint.{game_id}"),
                 *(i18n.t(lang, k) for k in i18n.message_keys(lang)
                   if k.startswith(("discord.cmd.", "console_", "bad_option_word")))]
        for text in texts:
            for name, value in _option_words(text):
                if name == "board" or name not in {*listed, *options._KEY_ALIASES}:
                    continue
                assert name in listed, (lang, name, text)
                assert f"· {name}=" in option_list or name in TABLE_SETTINGS, (lang, name)
                if not value.isdigit():
                    assert value in shown_values, (lang, name, value, text)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_rules_name_the_donkey_as_the_table_shows_it(lang):
    for text in (i18n.t(lang, "rules.ochs-esel"), i18n.t(lang, "hint.ochs-esel")):
        assert re.search(r"(?<![\w`])`?D`?(?![\w`])", text), text
        assert not re.search(r"(?<!\w)`?E`?(?!\w)", text), text
