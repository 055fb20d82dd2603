"""A table taken over while another process stores a move on it: the new driver read the
table at one version and its deadline at the next, so no timer was armed for the turn and
the game waited for good (seen once in many runs of the cluster test, under load). Reads
around the table's deadline must come out with the game going on whatever lands between
them."""

import pytest

from bot.live import Actor, Live
from bot.tables import Tables
from db.sqlite import SqliteRepository
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, RecordingSink


async def _started(harness: Harness) -> tuple[Tables, int]:
    """A game of three people under way."""
    tables = harness.tables
    assert tables is not None and harness.repo is not None
    table_id = (await tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.join(CAROL, CHANNEL)).ok
    assert (await tables.start_game(ALICE, CHANNEL)).ok
    await tables.settle()
    return tables, table_id


async def _times_out(harness: Harness, table_id: int) -> None:
    """Nobody plays on: past the turn's deadline the bot plays the idle seat's turn."""
    assert harness.repo is not None
    row = await harness.repo.get_table(table_id)
    assert row is not None
    moved_on = row.version
    await harness.advance(harness.settings.turn_deadline + 61)
    row = await harness.repo.get_table(table_id)
    assert row is not None and row.version > moved_on, "the game waits for good"


async def _bot_plays_at_once(harness: Harness, table_id: int) -> None:
    """The bot now in the seat to act plays within a second (its delay is 0), long
    before the turn's deadline (minutes) could move the game on instead."""
    assert harness.repo is not None
    row = await harness.repo.get_table(table_id)
    assert row is not None
    await harness.advance(1)
    moved = await harness.repo.get_table(table_id)
    assert moved is not None and moved.version > row.version, \
        "the bot in the left seat never played"


async def _to_act(tables: Tables, table_id: int) -> tuple[Live, int, Actor]:
    """The table as this process holds it, the seat to act and the person in it."""
    live = await tables.table(table_id).load()
    assert live is not None and live.state is not None
    seat = live.game.to_act(live.state)[0]
    return live, seat, {0: ALICE, 1: BOB, 2: CAROL}[seat]


async def _leaves_elsewhere(harness: Harness, actor: Actor) -> None:
    """`actor` leaves through another process on the same database: a bot takes their
    seat there (the version stays), and its timers and notice stay there, unrun."""
    other_repo = SqliteRepository(str(harness.path))
    await other_repo.open()
    other = Tables(other_repo, RecordingSink(), platform="test", settings=harness.settings,
                   clock=harness.clock)
    try:
        assert (await other.leave(actor, CHANNEL)).ok
    finally:
        await other.close()
        await other_repo.close()


async def test_a_table_taken_over_while_a_move_lands_elsewhere_still_times_out(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    tables, table_id = await _started(harness)
    # Another process on the same database, where a player's move arrives.
    other_repo = SqliteRepository(str(harness.path))
    await other_repo.open()
    other = Tables(other_repo, RecordingSink(), platform="test", settings=harness.settings,
                   clock=harness.clock)
    try:
        real = harness.repo.deadlines

        async def deadlines(*table_ids: int):  # type: ignore[no-untyped-def]
            if table_ids:  # the take-over's read of this table's deadline
                live = await other.live_table(table_id)
                assert live is not None and live.state is not None
                seat = live.game.to_act(live.state)[0]
                actor = {0: ALICE, 1: BOB, 2: CAROL}[seat]
                move = live.game.legal_moves(live.state, seat)[0]
                assert (await other.play(actor, CHANNEL, str(move))).ok
            return await real(*table_ids)

        monkeypatch.setattr(harness.repo, "deadlines", deadlines)
        await tables.take_over(table_id)
        await tables.settle()
        await _times_out(harness, table_id)
    finally:
        await other.close()
        await other_repo.close()


async def test_a_turn_timer_from_a_replaced_copy_of_the_table_still_fires(
        harness: Harness) -> None:
    """A take-over replaces the table's object in memory; a press already holding the old
    object commits on it and arms the turn's expiry for the new version. The expiry then
    runs on the new object, whose copy is a move behind: it must read the table again, not
    drop the timer as stale (seen in the cluster test: a game stuck on a human's turn)."""
    tables, table_id = await _started(harness)
    old = tables.table(table_id)
    live = await old.load()
    assert live is not None and live.state is not None
    tables.drop(table_id)  # as `take_over` lets the old object go
    new = tables.table(table_id)
    assert new is not old and await new.load() is not None
    seat = live.game.to_act(live.state)[0]
    move = live.game.legal_moves(live.state, seat)[0]
    async with old.lock:
        events = await old.commit(seat, move, "player")
    await old.after_change(events, mover=seat)
    await tables.settle()
    await _times_out(harness, table_id)


async def test_a_player_leaving_while_the_table_is_taken_over_gets_a_bot_that_plays(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The player to act leaves; while their /leave waits for their language, this process
    takes the table over and something loads it. The leave then stores the seat as a bot's
    (same version: seats do not move it) on the table it began with. Every copy here must
    see that bot, or the bot's move finds a person in the seat, and the game waits for
    good (seen as a stuck table of bots in the cluster test)."""
    tables, table_id = await _started(harness)
    _live, _seat, actor = await _to_act(tables, table_id)
    real = tables.lang_of
    taken = False

    async def lang_of(user_id: str, channel: str | None = None) -> str:
        nonlocal taken
        if not taken:
            taken = True
            await tables.take_over(table_id)
            assert await tables.table(table_id).load() is not None  # its resume, a press
        return await real(user_id, channel)

    monkeypatch.setattr(tables, "lang_of", lang_of)
    assert (await tables.leave(actor, CHANNEL)).ok
    assert taken
    await _bot_plays_at_once(harness, table_id)


async def test_a_press_refused_as_out_of_date_after_a_leave_elsewhere_lets_the_bot_play(
        harness: Harness) -> None:
    """The player to act leaves through another process (a bot takes the seat, the version
    stays) and, before its notice arrives here, presses a move on this process's older
    copy: refused as out of date, the copy read again. That read takes the change in, so
    the notice's catch-up finds nothing new: the bot now in the seat must be arranged by
    the read itself, or it never plays."""
    tables, table_id = await _started(harness)
    assert harness.repo is not None
    live, seat, actor = await _to_act(tables, table_id)
    move = live.game.legal_moves(live.state, seat)[0]
    await _leaves_elsewhere(harness, actor)
    refused = await tables.play(actor, CHANNEL, str(move))
    assert not refused.ok
    await _bot_plays_at_once(harness, table_id)


async def test_a_leave_elsewhere_taken_in_by_a_reminder_after_a_take_over_lets_the_bot_play(
        harness: Harness) -> None:
    """This process took the table over (its copy is to be read again); the player to act
    leaves through another process (a bot takes the seat, the version stays); before that
    leave's notice arrives here, the turn's reminder runs and its load reads the table
    again, bot seat and all, then finds no person to remind. The notice's catch-up then
    found the copy current, and the bot never played (seen in the cluster test: a table
    of bots stuck at its first move until the safety net)."""
    tables, table_id = await _started(harness)
    assert harness.repo is not None
    _live, _seat, actor = await _to_act(tables, table_id)
    tables.read_again(table_id)  # as a take-over leaves it
    await _leaves_elsewhere(harness, actor)
    reminder = [job for job in tables.scheduler.jobs_of(table_id) if job.kind == "remind"]
    assert reminder, "the turn's reminder is armed"
    await tables.table(table_id).turns.run(reminder[0])
    await tables.catch_up(table_id)  # the leave's notice, arriving after
    await _bot_plays_at_once(harness, table_id)
