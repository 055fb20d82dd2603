"""What a playtest of all four games found (issue #17), each point as the player met it.

The rules as Tapis plays them are in docs/games/; these tests hold the texts to them.
"""

from types import SimpleNamespace
from typing import Any

from bot import present
from bot.i18n import t
from db.repository import FINISHED
from engine import IllegalMove, Outcome, games
from tests.bot.conftest import ALICE, CHANNEL
from tests.bot.test_play import _bots_play_until, _start
from tests.bot.test_renderers import apply_all, narrate


def fake_live(game_id: str, names: list[str]) -> Any:
    """Just what `present`'s sentences read from a table: its game and seat names."""
    return SimpleNamespace(row=SimpleNamespace(game=game_id), game=games.get(game_id),
                           state=None, seats=[SimpleNamespace(name=n) for n in names],
                           names=lambda: list(names))


def refusal_text(game_id: str, state: Any, seat: int, text: str, lang: str = "en") -> str:
    game = games.get(game_id)
    try:
        game.apply(state, seat, game.parse_move(state, seat, text))
    except IllegalMove as exc:
        return present.refusal(fake_live(game_id, ["Alice", "Bob", "Carol"]), exc, lang)
    raise AssertionError(f"{text!r} was accepted")


# --- The Game ---------------------------------------------------------------------------------

async def test_a_lost_game_of_the_game_counts_as_lost_for_the_team_in_stats(harness):
    live = await _start(harness, "the-game", [ALICE], 2)
    await _bots_play_until(harness, lambda: live.row.status == FINISHED)
    assert live.row.status == FINISHED
    left = live.game.outcome(live.state).scores[0]
    won = left == 0
    stats = (await harness.tables.stats(ALICE, CHANNEL)).text
    assert f"The Game: 1 played, {int(won)} won, {int(not won)} lost (as a team)" in stats
    assert "average place" not in stats
    rows = await harness.repo.results(live.id)
    assert {r.rank for r in rows} == {1 if won else 2}


# --- Ochs & Esel ------------------------------------------------------------------------------

def ochs_following_nines() -> Any:
    """Bob led 9 9; Carol passed; Alice (one 13, one 3) is to beat it."""
    game = games.get("ochs-esel")
    state = game.new_game(3, {}, seed=1, setup={
        "hands": [["13", "3", "5", "11", "11"], ["9", "9", "2"], ["4", "4", "1"]], "first": 1})
    state, _ = apply_all("ochs-esel", state, (1, "9 9"), (2, "pass"))
    return state


def test_playing_two_of_a_card_you_hold_once_says_you_hold_only_one():
    state = ochs_following_nines()
    assert refusal_text("ochs-esel", state, 0, "13 13") == (
        "You hold only one 13: 13 13 needs two.")
    assert refusal_text("ochs-esel", state, 0, "3 3") == (
        "You hold only one 3: 3 3 needs two (and it would take at least 10 to beat the table).")
    assert refusal_text("ochs-esel", state, 0, "13 13", "fr") == (
        "Pas assez de 13 : vous en avez un, 13 13 en demande deux.")
    # Cards not held at all, and a set merely too low, keep their own sentences.
    assert refusal_text("ochs-esel", state, 0, "12 12") == "You don't have 12 12 in your hand."
    assert refusal_text("ochs-esel", state, 0, "5 5").startswith("You hold only one 5")


def ochs_with_the_ox(hands: list[list[str]] | None = None) -> Any:
    game = games.get("ochs-esel")
    return game.new_game(3, {"ox": True}, seed=3, setup={
        "hands": hands or [["5", "6", "7"], ["8", "9", "10"], ["2", "3", "4"]], "first": 0})


def test_both_animals_in_the_middle_are_named_once():
    from tests.bot.test_renderers import table_text

    state = ochs_with_the_ox()
    english = table_text("ochs-esel", state, "en")
    assert "In the middle: the donkey and the ox" in english
    assert english.count("In the middle") == 1
    assert "Au centre : l'âne et le bœuf" in table_text("ochs-esel", state, "fr")


def test_the_ox_pile_says_cards_and_points_and_the_ox_explains_its_15_points():
    from tests.bot.test_renderers import hand_text, table_text

    state = ochs_with_the_ox(hands=[["5", "6", "7", "11", "12"], ["8", "9", "10", "2", "3"],
                                    ["2", "3", "4", "13", "13"]])
    # Bob wins trick 1 and takes the ox; Alice the donkey in trick 2; Bob wins trick 3.
    state, _ = apply_all("ochs-esel", state, (0, "5"), (1, "8"), (2, "pass"), (1, "2"),
                         (2, "3"), (0, "6"), (0, "7"), (1, "10"), (2, "pass"))
    assert "You hold the ox: 15 penalty points if it is still in your hand when the round " \
           "ends (in an ox pile it counts 0)." in hand_text("ochs-esel", state, 1, "en")
    state, events = apply_all("ochs-esel", state, (1, "O"), (2, "13"), (0, "11"))
    assert narrate("ochs-esel", events, "en")[-1] == (
        "Carol takes the ox trick face down: 24 penalty points (numbers at face value, "
        "jokers 1, the ox 0; an ox still in hand at the round's end costs 15)")
    assert "Carol: 3 cards · 0 penalty pts · ox pile: 3 cards, face down" in table_text(
        "ochs-esel", state, "en")
    assert "Your ox pile: 11 13 O — 24 penalty points at the round's end" in hand_text(
        "ochs-esel", state, 2, "en")
    assert "pli de bœuf : 3 cartes, face cachée" in table_text("ochs-esel", state, "fr")


# --- Michigan ---------------------------------------------------------------------------------

def michigan_two_runs() -> tuple[Any, list[dict[str, Any]]]:
    """Hearts run 5♥–7♥ (8♥ is dead), then Carol, holding only hearts, runs 3♥–4♥ into
    the 5♥ played earlier."""
    game = games.get("michigan")
    state = game.new_game(3, {}, seed=1, setup={
        "hands": [["5H", "9C"], ["6H", "4H", "KD"], ["7H", "3H", "QH"], ["8H", "2S"]],
        "dealer": 2})
    return apply_all("michigan", state, (2, "keep"), (0, "lead H"))


def test_a_suit_stopped_by_a_card_already_played_says_so():
    _, events = michigan_two_runs()
    stops = [e for e in events if e["type"] == "sequence_stopped"]
    assert [e["reason"] for e in stops] == ["no_next_card", "already_played"]
    lines = " / ".join(narrate("michigan", events, "en"))
    assert "8♥ is not in play" in lines
    assert "5♥ was played earlier this deal" in lines and "5♥ is not in play" not in lines


def test_the_deal_summary_says_its_totals_come_before_the_next_antes():
    game = games.get("michigan")
    state = game.new_game(3, {}, seed=1, setup={
        "hands": [["5H"], ["6H", "KD"], ["7H", "3H"], ["8H", "2S"]], "dealer": 2})
    state, events = apply_all("michigan", state, (2, "keep"))  # the rest is forced
    over = next(e for e in events if e["type"] == "deal_over")
    live = fake_live("michigan", ["Alice", "Bob", "Carol"])
    summary = present.round_summary(live, over, "en")
    assert summary[0].endswith("totals are before the next deal's antes:")
    assert f"(total {over['chips'][0]})" in summary[1]
    # The table shows the chips after the next deal's antes: lower, and the summary said so.
    assert game.view(state)["chips"][0] < over["chips"][0]


def test_chips_left_on_the_pay_cards_at_the_end_are_told():
    import random

    game = games.get("michigan")
    state, events = game.new_game(3, {}, seed=5), []
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        state, new = game.apply(state, seat, game.choose(state, seat, random.Random(seat)))
        events += new
    end = next(e for e in events if e["type"] == "game_over")
    left = sum(n for _, n in game.view(state)["pay_cards"])
    assert sum(end["pay_cards"]) == left
    assert left > 0  # this seed ends with chips on A♥
    lines = narrate("michigan", events, "en")
    assert any(f"The game is over with {left} chips still on the pay cards" in line
               and "count for nobody" in line for line in lines)


# --- Nix für Ungut ----------------------------------------------------------------------------

def test_monsieur_personne_ahead_of_everyone_says_who_won_among_the_people():
    live = fake_live("nix-fur-ungut", ["Alice", "Bob"])
    result = Outcome.from_scores([20, 31, 40], lower_wins=False)  # Personne scores last
    lines = present.final_ranking(live, result, "en")
    assert lines[1] == "1. Monsieur Personne — 40 points"
    assert lines[-1] == "Monsieur Personne is not a player: among the people, Bob won."
    behind = present.final_ranking(live, Outcome.from_scores([50, 31, 40], lower_wins=False),
                                   "en")
    assert not any("not a player" in line for line in behind)


async def test_a_bad_board_option_says_what_is_wrong(harness):
    tables = harness.tables
    cases = {
        'board={"pear": [1, 2, 3]}': "“board”: “pear” is not one of 'quad', 'run4', "
                                     "'triple', 'run3', 'pair', 'run2', 'single' or 'none'.",
        'board={"pair": [1, 2]}': "“board”: pair takes exactly 3 values.",
        'board={"pair": [1, -2, 3]}': "“board”: the values for pair must be at least 0.",
        "board=junk": "“board” is written like board={\"pair\": [5, 3, 1]}.",
    }
    for option, sentence in cases.items():
        reply = await tables.new_game(ALICE, CHANNEL, "nix", [option])
        assert not reply.ok and sentence in reply.text, (option, reply.text)
        assert await tables.table_for_channel(CHANNEL) is None


# --- every game -------------------------------------------------------------------------------

async def test_a_rematch_keeps_the_same_bot_seats_and_names(harness):
    live = await _start(harness, "ochs-esel", [ALICE], 2, ["rounds=1"])
    bots = [(s.seat, s.name) for s in live.seats if s.is_bot]
    await harness.tables.leave(ALICE, CHANNEL)
    await harness.tables.join(ALICE, CHANNEL)  # back at once, before the game ends
    for _ in range(2000):
        await harness.tables.settle()
        if live.row.status == FINISHED:
            break
        seat = live.game.to_act(live.state)[0]
        if not live.seats[seat].is_bot:
            import random

            move = live.game.choose(live.state, seat, random.Random(live.row.version))
            await harness.tables.play(ALICE, CHANNEL, str(move))
    assert live.row.status == FINISHED
    reply = await harness.press(ALICE, live.id, live.row.version, "rematch")
    assert reply.ok, reply.text
    new = await harness.tables.live_table((await harness.tables.table_for_channel(CHANNEL)).id)
    assert new.id != live.id
    assert [(s.seat, s.name) for s in new.seats if s.is_bot] == bots


async def test_starting_alone_says_one_player_in_the_singular(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "nix", [])).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    assert reply.text == "1 player can't play this: it needs 2 to 5."
    assert t("en", "player_count", count=3, low=4, high=5).startswith("3 players")
