"""Closing the repository mid-game and reopening it loses nothing and changes nothing."""

import asyncio
import random

import pytest

from db.repository import FINISHED
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.botplay import bot_move


async def _play_to(harness, live, stop_at_version: int | None) -> None:
    """Humans play the bot's choice (seeded by version), so two runs make the same moves."""
    actors = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    for _ in range(5000):
        await harness.tables.settle()
        if live.row.status == FINISHED:
            return
        if stop_at_version is not None and live.row.version >= stop_at_version:
            return
        seat = live.game.to_act(live.state)[0]
        move = bot_move(live.game, live.state, seat, random.Random(live.row.version))
        reply = await harness.tables.play(actors[live.seats[seat].user_id], CHANNEL, str(move))
        assert reply.ok, reply.text


@pytest.mark.parametrize("game", ["ochs-esel", "nix-fur-ungut"])
async def test_restart_mid_game_ends_like_an_uninterrupted_game(harness, tmp_path, game):
    from tests.bot.conftest import Harness

    async def run(h, restart_at):
        tables = h.tables
        await tables.new_game(ALICE, CHANNEL, game, ["rounds=1", "deadline=off"])
        await tables.join(BOB, CHANNEL)
        await tables.join(CAROL, CHANNEL)
        table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
        live = await tables.live_table(table_id)
        if restart_at is not None:
            await _play_to(h, live, restart_at)
            tables = await h.restart()
            live = await tables.live_table(table_id)
            assert live.row.version == restart_at
        await _play_to(h, live, None)
        return live

    other = Harness(tmp_path / "other.db", harness.settings)
    await other.open()
    try:
        straight = await run(other, None)
    finally:
        await other.close()
    resumed = await run(harness, 12)
    assert resumed.row.status == FINISHED
    assert resumed.row.snapshot == straight.row.snapshot
    assert resumed.game.outcome(resumed.state) == straight.game.outcome(straight.state)


async def test_a_snapshot_that_disagrees_with_the_move_log_is_repaired_from_the_log(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    live = await tables.live_table(table_id)
    await _play_to(harness, live, 3)
    good = live.row.snapshot
    await harness.close()
    import sqlite3

    bad = good.replace('"round":1', '"round":2', 1)
    assert bad != good
    with sqlite3.connect(harness.path) as conn:  # someone edits the cache by hand
        changed = conn.execute("UPDATE tables SET snapshot = ? WHERE id = ?", (bad, table_id))
        assert changed.rowcount == 1
    tables = await harness.open()
    assert harness.repaired == [table_id]
    live = await tables.live_table(table_id)
    assert live.row.snapshot == good
    assert live.game.dump(live.state) == good


async def test_bot_turns_resume_after_a_restart(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1", "deadline=off"])
    for _ in range(2):
        await tables.add_bot(ALICE, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    await tables.leave(ALICE, CHANNEL)
    # Stop before the scheduler ran anything: the bots' next move is only in the database.
    await harness.close()
    tables = await harness.open()
    live = await tables.live_table(table_id)
    for _ in range(3000):
        await tables.settle()
        if live.row.status == FINISHED:
            break
    assert live.row.status == FINISHED


async def test_a_table_loaded_by_several_callers_at_once_is_one_copy(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])
    for friend in (BOB, CAROL):
        await tables.join(friend, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    await tables.settle()
    tables = await harness.restart()
    tables._live.clear()  # as after eviction: the next readers load it from storage
    copies = await asyncio.gather(*(tables.live_table(table_id) for _ in range(5)))
    assert all(copy is copies[0] for copy in copies)
    assert tables._loading == {}
