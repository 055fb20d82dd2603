"""A move's lines are put into words when the table is drawn (`bot/live.Told`): the table
shows the same last moves as if each had been narrated at once, with the names its
players had then, and moves that scrolled off before the drawing are never narrated."""

import random
from typing import Any

from bot import present, renderers
from bot.live import NARRATION_LINES, TOLD_MOVES, Live, Told
from db.repository import PLAYING, SeatRow, TableRow
from engine import bots, games
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.botplay import bot_move


def _live(game_id: str, seats: int, options: dict[str, Any]) -> Live:
    game = games.get(game_id)
    row = TableRow(id=1, platform="console", channel="c", game=game_id, options=options,
                   settings={}, seed=5, status=PLAYING, host="u0", version=0, snapshot=None,
                   created_at=0.0, updated_at=0.0)
    people = [SeatRow(seat=s, user_id=f"u{s}", name=f"Player{s}") for s in range(seats)]
    return Live(row=row, seats=people, game=game, state=game.new_game(seats, options, 5))


def _play(live: Live, moves: int) -> list[list[dict[str, Any]]]:
    """`moves` easy-bot moves on the table, each kept as a `Told`; their events returned."""
    game, rng, played = live.game, random.Random(3), []
    for _ in range(moves):
        seat = game.to_act(live.state)[0]
        move = bots.get(live.row.game, "easy").choose(game.view(live.state, seat), rng)
        live.state, events = game.apply(live.state, seat, move)
        live.told.append(present.told(live, events, "en"))
        played.append(events)
    return played


def test_the_table_shows_the_last_lines_of_its_moves_newest_last() -> None:
    live = _live("ochs-esel", 4, {"rounds": 1})
    played = _play(live, 20)
    # Narrated one move at a time, as each was made: the lines the table must show.
    every = [line for events in played for line in present.told(live, events, "en").lines]
    newest = next(len(lines) for events in reversed(played)
                  if (lines := present.told(live, events, "en").lines))
    shown, marked = live.last_lines()
    assert shown == every[-NARRATION_LINES:]
    assert marked == min(newest, len(shown))
    text = present.table(live, "en").text
    for line in shown:
        assert f"· {line}" in text


def test_a_move_is_told_with_the_names_its_players_had_then() -> None:
    live = _live("ochs-esel", 4, {"rounds": 1})
    _play(live, 1)
    live.seats = [SeatRow(seat=s.seat, user_id=s.user_id, name=f"Renamed{s.seat}")
                  for s in live.seats]
    shown, _ = live.last_lines()
    assert shown and any("Player" in line for line in shown)
    assert not any("Renamed" in line for line in shown)


def test_moves_that_scrolled_off_before_the_drawing_are_never_narrated() -> None:
    said: list[int] = []

    def told(move: int, lines: int) -> Told:
        def say() -> list[str]:
            said.append(move)
            return [f"move {move} line {k}" for k in range(lines)]
        return Told(say)

    live = _live("ochs-esel", 4, {"rounds": 1})
    live.told.extend(told(move, 1) for move in range(20))
    live.told.append(told(20, 0))  # the newest move said nothing
    shown, newest = live.last_lines()
    assert shown == [f"move {m} line 0" for m in range(14, 20)]
    assert newest == 1  # the newest move that said anything: move 19
    assert sorted(said) == list(range(14, 21))  # moves 0-13 never put into words
    live.last_lines()
    assert sorted(said) == list(range(14, 21))  # said once, however often drawn


def test_a_narration_that_fails_costs_its_lines_not_the_table() -> None:
    def broken() -> list[str]:
        raise KeyError("a renderer bug")

    live = _live("ochs-esel", 4, {"rounds": 1})
    _play(live, 2)
    live.told.append(Told(broken))
    shown, _ = live.last_lines()
    assert shown  # the earlier moves' lines are still there
    assert "Ochs" in present.table(live, "en").title



async def test_changes_without_a_move_leave_the_last_moves_lines_in_place(harness) -> None:
    """Seats taken and redraws go through the same path as moves, with no events: a table
    whose seats change many times still shows its last moves."""
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1", "deadline=off"])).ok
    for person in (BOB, CAROL):
        assert (await tables.join(person, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    assert reply.ok, reply.text
    live = await tables.live_table(reply.table_id)
    assert live is not None
    rng = random.Random(1)
    for _ in range(5):
        seat = live.game.to_act(live.state)[0]
        actor = (ALICE, BOB, CAROL)[seat]
        move = bot_move(live.game, live.state, seat, rng)
        assert (await harness.press(actor, live.id, live.row.version,
                                    f"m:{move}")).ok
    before = live.last_lines()
    assert before[0]
    for _ in range(3 * TOLD_MOVES):
        await tables.table(live.id).after_change([])
    assert live.last_lines() == before


def test_every_game_narrates_kept_moves_as_it_narrates_them_at_once() -> None:
    """Kept moves wait packed (`present.told`); unpacked, they say what the events they
    were made from say, in every game."""
    for game_id, seats, options in [("ochs-esel", 4, {"rounds": 1}), ("the-game", 3, {}),
                                    ("nix-fur-ungut", 4, {"rounds": 1}), ("michigan", 4, {})]:
        live = _live(game_id, seats, options)
        played = _play(live, 15)
        describe = renderers.for_game(game_id).describe_events
        said = [list(describe(game_id, events, present.names(live, "fr"), "fr"))
                for events in played]
        assert [present.told(live, events, "fr").lines for events in played] == said
        assert any(said), game_id


def test_events_marshal_cannot_pack_are_kept_as_they_are() -> None:
    live = _live("ochs-esel", 4, {"rounds": 1})

    class Odd(str):  # a str subclass: not something marshal writes
        pass

    told = present.told(live, [{"type": "pass", "seat": 0, "note": Odd("x")}], "en")
    assert told.args[1][0]["note"] == "x"  # the events themselves, not bytes
    assert isinstance(told.lines, list)
