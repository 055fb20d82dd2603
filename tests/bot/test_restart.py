"""Closing the repository mid-game and reopening it loses nothing and changes nothing."""

import asyncio
import random

import pytest

from db.repository import FINISHED
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE
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


async def _three_moves_in(harness):
    """Alice, Bob and Carol three moves into a game of Ochs & Esel: (table id, snapshot)."""
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    live = await tables.live_table(table_id)
    await _play_to(harness, live, 3)
    return table_id, live.row.snapshot


async def test_a_snapshot_that_disagrees_with_the_move_log_is_repaired_from_the_log(harness):
    table_id, good = await _three_moves_in(harness)
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


async def test_a_table_idle_before_the_restart_is_checked_against_its_log_before_its_next_move(
        harness):
    """Resuming thousands of tables does not replay every log up front: a table nobody
    touched for a while comes back from its snapshot, and its log is replayed before the
    next move is applied, so a snapshot that disagrees is still repaired, move intact."""
    import sqlite3

    table_id, good = await _three_moves_in(harness)
    assert (await harness.tables.new_game(DAVE, "elsewhere", "michigan")).ok  # changed later
    await harness.close()
    with sqlite3.connect(harness.path) as conn:
        conn.execute("UPDATE tables SET snapshot = ?, updated_at = updated_at - 3600"
                     " WHERE id = ?", (good.replace('"round":1', '"round":2', 1), table_id))
    tables = await harness.open()
    assert harness.repaired == []  # not replayed at start-up
    live = await tables.live_table(table_id)
    seat = live.game.to_act(live.state)[0]
    move = bot_move(live.game, live.game.load(good), seat, random.Random(0))
    actor = {a.user_id: a for a in (ALICE, BOB, CAROL)}[live.seats[seat].user_id]
    assert (await tables.play(actor, CHANNEL, str(move))).ok
    assert harness.repaired == [table_id]
    expected, _ = live.game.apply(live.game.load(good), seat, move)
    assert live.row.version == 4 and live.row.snapshot == live.game.dump(expected)
    assert [m.seq for m in await harness.repo.moves(table_id)] == [1, 2, 3, 4]


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
    tables.let_go(table_id)  # as after eviction: the next readers load it from storage
    copies = await asyncio.gather(*(tables.live_table(table_id) for _ in range(5)))
    assert all(copy is copies[0] for copy in copies)
    assert not tables.table(table_id).busy()


async def test_after_a_restart_every_screen_is_redrawn_as_stored_with_its_last_moves(harness):
    """What a killed process had not delivered reaches the players from the new one."""
    from tests.bot.conftest import RecordingSink

    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    live = await tables.live_table(table_id)
    await _play_to(harness, live, 4)
    before = harness.sink.tables[table_id].rendering
    assert before.version == 4 and "Last moves:" in before.lines

    harness.sink = RecordingSink()  # the new process starts with nothing delivered
    await harness.restart()

    after = harness.sink.tables[table_id].rendering
    assert after.version == 4
    assert after.lines == before.lines  # "last moves" included, rebuilt from the move log
    assert {user for (tid, user) in harness.sink.hands if tid == table_id} == {
        ALICE.user_id, BOB.user_id, CAROL.user_id}
    assert all(hand.rendering.version == 4 for hand in harness.sink.hands.values())
    # The hand's edit notifies nobody: the player to act is called again, once.
    to_act = live.game.to_act(live.state)[0]
    calls = [a for a in harness.sink.announcements if a.kind == "turn"]
    assert [a.mentions for a in calls] == [[live.seats[to_act].user_id]]


async def test_after_a_restart_a_lobby_is_redrawn_with_its_seats(harness):
    from tests.bot.conftest import RecordingSink

    tables = harness.tables
    table_id = (await tables.new_game(ALICE, CHANNEL, "ochs-esel", [])).table_id
    await tables.join(BOB, CHANNEL)
    harness.sink = RecordingSink()  # Bob's seat never reached the lobby message
    await harness.restart()
    shown = harness.sink.tables[table_id].rendering
    assert any("Bob" in line for line in shown.lines), shown.lines


async def test_a_game_finished_just_before_a_restart_shows_its_end_after_it(harness):
    from tests.bot.conftest import RecordingSink

    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "nix-fur-ungut", ["rounds=1", "deadline=off"])
    await tables.join(BOB, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    live = await tables.live_table(table_id)
    await _play_to(harness, live, None)
    assert live.row.status == FINISHED
    final = harness.sink.tables[table_id].rendering

    harness.sink = RecordingSink()  # the last move's deliveries died with the process
    await harness.restart()

    shown = harness.sink.tables[table_id].rendering
    assert shown.version == final.version and shown.lines == final.lines
    assert [b.action for row in shown.buttons for b in row] == ["rematch"]
    assert {user for (tid, user) in harness.sink.hands if tid == table_id} == {
        ALICE.user_id, BOB.user_id}
    assert harness.sink.announcements == []  # the final ranking is not sent twice


async def test_after_a_restart_only_tables_changed_shortly_before_the_stop_are_redrawn(
        tmp_path, settings):
    """An idle table's screens were delivered long ago: a redraw would only spend requests."""
    from bot.clock import FakeClock
    from bot.tables import Tables
    from db.sqlite import SqliteRepository
    from tests.bot.conftest import RecordingSink

    stored_at = [1_700_000_000.0]

    async def run(sink: RecordingSink) -> tuple[Tables, SqliteRepository]:
        repo = SqliteRepository(str(tmp_path / "t.db"), clock=lambda: stored_at[0])
        await repo.open()
        tables = Tables(repo, sink, platform="test", settings=settings, clock=FakeClock())
        await tables.start(run_scheduler=False)
        await tables.settle()
        return tables, repo

    tables, repo = await run(RecordingSink())
    idle = {}
    for channel in ("idle-game", "idle-lobby", "busy"):
        idle[channel] = (await tables.new_game(ALICE, channel, "ochs-esel", [])).table_id
        await tables.join(BOB, channel)
        await tables.join(CAROL, channel)
    await tables.start_game(ALICE, "idle-game")
    stored_at[0] += 3600  # an hour later, one table still plays
    await tables.start_game(ALICE, "busy")
    await tables.settle()
    await tables.close()
    await repo.close()

    sink = RecordingSink()
    tables, repo = await run(sink)
    try:
        assert set(sink.tables) == {idle["busy"]}
        assert {tid for tid, _ in sink.hands} == {idle["busy"]}
        # The idle game still resumes (deadline, bots); only its screens are left alone.
        assert (await tables.live_table(idle["idle-game"])).row.status == "playing"
    finally:
        await tables.close()
        await repo.close()


async def test_a_game_cancelled_just_before_a_restart_shows_as_cancelled_after_it(harness):
    from tests.bot.conftest import RecordingSink

    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    assert (await tables.cancel(ALICE, CHANNEL)).ok
    harness.sink = RecordingSink()  # the cancelled table's edit died with the process
    await harness.restart()

    shown = harness.sink.tables[table_id].rendering
    assert any("cancelled" in line for line in shown.lines), shown.lines
    assert shown.buttons == []
    # The hands' edits died too: they are closed now, no move button left on them.
    for person in (ALICE, BOB, CAROL):
        hand = harness.sink.hands[(table_id, person.user_id)].rendering
        assert "This table was cancelled." in hand.lines and hand.buttons == [], hand


async def test_tables_leave_memory_when_idle_not_because_many_are_in_play(harness):
    """Every table in play stays in memory however many there are (no reload per move);
    one nobody touched for `cache_idle_seconds` leaves, and comes back when needed."""
    tables = harness.tables
    ids = []
    for n in range(12):
        reply = await tables.new_game(ALICE, f"room-{n}", "the-game", ["deadline=off"])
        ids.append(reply.table_id)
    assert all(tables.in_memory(i) for i in ids)
    await harness.advance(harness.settings.cache_idle_seconds - 10)
    await tables.table_for_channel("room-0")  # still in use
    await harness.advance(20)
    assert (await tables.new_game(ALICE, "room-new", "the-game")).ok  # a load: a sweep
    assert tables.in_memory(ids[0]) and not any(tables.in_memory(i) for i in ids[1:])
    live = await tables.live_table(ids[5])  # needed again: reloaded as stored
    assert live is not None and live.row.id == ids[5] and tables.in_memory(ids[5])
