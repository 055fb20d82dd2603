"""A Nix für Ungut table keeps the board it was opened with when the default board changes
(issue #36): the board is stored in the table's options at open, and a table stored
before that, with no board in its options, was opened under the first default board."""

import json
import random
import sqlite3

from db.repository import FINISHED
from engine import nix_fur_ungut as nix
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.botplay import bot_move

ACTORS = {a.user_id: a for a in (ALICE, BOB, CAROL)}
OTHER_BOARD = {**nix.DEFAULT_BOARD, "none": [1, 1, 1], "quad": [40, 30, 20]}


async def _play(harness, live, moves: int | None) -> None:
    """People play the baseline's choice (seeded by the version), `moves` of them or to the
    end."""
    for _ in range(500 if moves is None else moves):
        await harness.tables.settle()
        if live.row.status == FINISHED:
            return
        seat = live.game.to_act(live.state)[0]
        move = bot_move(live.game, live.state, seat, random.Random(live.row.version))
        reply = await harness.tables.play(ACTORS[live.seats[seat].user_id], CHANNEL, str(move))
        assert reply.ok, reply.text


async def _nix_started(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "nix", ["rounds=2", "deadline=off"])).ok
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    return await tables.live_table(table_id)


async def _resumed_and_played_on(harness, table_id: int, snapshot: str):
    """After a restart, one more move: the move log is replayed (with the stored options)
    before it is applied, and a replay that disagrees with the snapshot would be
    'repaired' from the log."""
    tables = await harness.restart()
    live = await tables.live_table(table_id)
    seat = live.game.to_act(live.state)[0]
    move = bot_move(live.game, live.game.load(snapshot), seat, random.Random(0))
    assert (await tables.play(ACTORS[live.seats[seat].user_id], CHANNEL, str(move))).ok
    expected, _ = live.game.apply(live.game.load(snapshot), seat, move)
    return live, expected


async def test_a_table_opened_now_stores_its_board_and_keeps_it_when_the_default_changes(
        harness, monkeypatch):
    live = await _nix_started(harness)
    opened_with = {row: list(v) for row, v in nix.DEFAULT_BOARD.items()}
    assert live.row.options["board"] == opened_with
    await _play(harness, live, 7)
    snapshot = live.row.snapshot
    monkeypatch.setattr(nix, "DEFAULT_BOARD", OTHER_BOARD)  # a later release's defaults

    live, expected = await _resumed_and_played_on(harness, live.id, snapshot)

    assert harness.repaired == []
    assert live.row.snapshot == live.game.dump(expected)
    assert live.game.view(live.state)["board_values"] == opened_with
    await _play(harness, live, None)
    assert live.row.status == FINISHED
    assert live.game.view(live.state)["board_values"] == opened_with


async def test_an_unfinished_table_stored_without_a_board_replays_with_the_first_board(
        harness, monkeypatch):
    """Stored by the code before issue #36: the first default board, no board in the
    options. It replays to the same state under today's defaults and plays on with its
    board."""
    assert nix.DEFAULT_BOARD != nix.FIRST_BOARD  # the change of defaults this guards
    with monkeypatch.context() as before:
        before.setattr(nix, "DEFAULT_BOARD", nix.FIRST_BOARD)
        live = await _nix_started(harness)
        await _play(harness, live, 7)
    table_id, snapshot = live.id, live.row.snapshot
    await harness.close()
    with sqlite3.connect(harness.path) as conn:  # the options as the old code stored them
        changed = conn.execute("UPDATE tables SET options = ? WHERE id = ?",
                               (json.dumps({"rounds": 2}), table_id))
        assert changed.rowcount == 1
    await harness.open()

    live, expected = await _resumed_and_played_on(harness, table_id, snapshot)

    assert harness.repaired == []
    assert live.row.snapshot == live.game.dump(expected)
    assert live.game.view(live.state)["board_values"] == nix.FIRST_BOARD
    reply = await harness.tables.set_options(ALICE, CHANNEL, [])
    assert "board=custom" in reply.text  # not today's default board
    await _play(harness, live, None)
    assert live.row.status == FINISHED


async def test_a_lobby_stored_without_a_board_starts_with_the_first_board(harness):
    tables = harness.tables
    opened = await tables.new_game(ALICE, CHANNEL, "nix", ["deadline=off"])
    await tables.join(BOB, CHANNEL)
    await harness.close()
    with sqlite3.connect(harness.path) as conn:  # opened by the code before issue #36
        conn.execute("UPDATE tables SET options = '{}' WHERE id = ?", (opened.table_id,))
    tables = await harness.open()
    # The host changes another option in the lobby: the board stays the one it opened with.
    assert (await tables.set_options(ALICE, CHANNEL, ["rounds=1"])).ok
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    live = await tables.live_table(table_id)
    assert live.row.options["board"] == nix.FIRST_BOARD
    assert live.game.view(live.state)["board_values"] == nix.FIRST_BOARD


async def test_a_new_table_shows_the_default_board_as_default(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "nix", ["deadline=off"])).ok
    assert "board=default" in (await tables.set_options(ALICE, CHANNEL, [])).text
    assert (await tables.set_options(ALICE, CHANNEL, ['board={"pair": [9, 3, 1]}'])).ok
    assert "board=custom" in (await tables.set_options(ALICE, CHANNEL, [])).text


async def test_a_bad_board_in_the_lobby_is_refused_and_changes_nothing(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "nix", ["deadline=off"])).ok
    before = (await tables.set_options(ALICE, CHANNEL, [])).text
    for bad in ('board={"pear": [1, 2, 3]}', 'board={"pair": 5}', "board=random",
                'board={"pair": [1, -2, 3]}'):
        reply = await tables.set_options(ALICE, CHANNEL, [bad])
        assert not reply.ok and "board" in reply.text, bad
    assert (await tables.set_options(ALICE, CHANNEL, [])).text == before
