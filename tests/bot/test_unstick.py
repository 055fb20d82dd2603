"""The safety net for a game waiting on nothing: when a table in memory has a bot or a
deadline due and no timer armed (a change lost by some bug), `Tables.unstick` reads it
again and arranges its next turn, once two looks in a row found it so; a table that
waits for a reason, or whose change is still being shown, is left alone."""

import asyncio
import dataclasses
from typing import Any

import pytest

from bot.stuck import STUCK_CHECK_SECONDS
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, Harness


async def _version(harness: Harness, table_id: int) -> int:
    assert harness.repo is not None
    row = await harness.repo.get_table(table_id)
    assert row is not None
    return row.version


async def _game(harness: Harness, *options: str) -> int:
    tables = harness.tables
    assert tables is not None
    table_id = (await tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
    assert table_id is not None
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.join(CAROL, CHANNEL)).ok
    if options:
        assert (await tables.set_options(ALICE, CHANNEL, list(options))).ok
    assert (await tables.start_game(ALICE, CHANNEL)).ok
    await tables.settle()
    return table_id


def _to_act(harness: Harness, table_id: int) -> int:
    assert harness.tables is not None
    live = harness.tables.table(table_id).live
    assert live.state is not None
    return live.game.to_act(live.state)[0]


async def test_a_bot_whose_move_was_never_scheduled_plays_after_the_check(
        harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    table_id = await _game(harness)
    leaver = {0: ALICE, 1: BOB, 2: CAROL}[_to_act(harness, table_id)]
    assert (await tables.leave(leaver, CHANNEL)).ok  # a bot has the seat, and the turn
    tables.scheduler.drop(table_id)  # its move's timer lost, as by a bug
    before = await _version(harness, table_id)
    await harness.advance(STUCK_CHECK_SECONDS / 2)
    assert await tables.unstick() == 0, "touched too recently to count as stuck"
    assert await _version(harness, table_id) == before
    await harness.advance(STUCK_CHECK_SECONDS)
    assert await tables.unstick() == 0, "one look is not enough"
    await harness.advance(STUCK_CHECK_SECONDS)
    assert await _version(harness, table_id) == before
    assert await tables.unstick() == 1
    await harness.advance(1)
    assert await _version(harness, table_id) > before, "the bot never played"


async def test_a_persons_turn_whose_deadline_timer_was_lost_times_out_again(
        harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    table_id = await _game(harness)
    tables.scheduler.drop(table_id)
    before = await _version(harness, table_id)
    await harness.advance(harness.settings.turn_deadline + 1)
    assert await _version(harness, table_id) == before  # nothing armed: it waits
    assert await tables.unstick() == 0
    await harness.advance(STUCK_CHECK_SECONDS)
    assert await tables.unstick() == 1
    await harness.advance(1)  # the stored deadline is long past: the AFK move comes now
    assert await _version(harness, table_id) > before


async def test_tables_that_wait_for_a_reason_are_left_alone(harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    armed = await _game(harness)
    before = await _version(harness, armed)
    await harness.advance(STUCK_CHECK_SECONDS + 1)  # its deadline still minutes away
    assert await tables.unstick() == 0
    await harness.advance(STUCK_CHECK_SECONDS)
    assert await tables.unstick() == 0
    assert await _version(harness, armed) == before
    assert tables.scheduler.has_jobs(armed)


async def test_a_persons_turn_without_a_deadline_is_no_stuck_table(harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    table_id = await _game(harness, "deadline=0")
    assert not tables.scheduler.has_jobs(table_id)  # no deadline: the person takes their time
    before = await _version(harness, table_id)
    for _ in range(3):
        await harness.advance(10 * STUCK_CHECK_SECONDS)
        assert await tables.unstick() == 0
    assert await _version(harness, table_id) == before


async def test_a_start_still_being_shown_is_not_taken_for_stuck(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine slow enough, a change can be stored and its showing (after which the
    next turn is arranged) come seconds later; the net must not arrange that turn a second
    time, or the player hears "your turn" twice."""
    tables, repo = harness.tables, harness.repo
    assert tables is not None and repo is not None
    table_id = (await tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
    assert table_id is not None
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.join(CAROL, CHANNEL)).ok
    started, go_on = asyncio.Event(), asyncio.Event()
    table = tables.table(table_id)
    store, lang = repo.update_table, table.host.channel_lang

    async def storing(*args: Any, **kwargs: Any) -> Any:
        row = await store(*args, **kwargs)
        if kwargs.get("status") == "playing":
            started.set()
        return row

    async def slow_lang(channel: str) -> str:
        if started.is_set() and not go_on.is_set():
            go_on.set()  # the start's showing alone waits, once
            await held.wait()
        return await lang(channel)

    held = asyncio.Event()
    monkeypatch.setattr(repo, "update_table", storing)
    monkeypatch.setattr(table, "host", dataclasses.replace(table.host, channel_lang=slow_lang))
    start = asyncio.create_task(tables.start_game(ALICE, CHANNEL))
    await go_on.wait()  # stored, its showing (and arranging) held up
    assert not tables.scheduler.has_jobs(table_id)
    harness.clock.advance(STUCK_CHECK_SECONDS + 1)
    assert await tables.unstick() == 0
    held.set()
    assert (await start).ok
    await tables.settle()
    assert tables.scheduler.has_jobs(table_id), "the start arranged the first turn"
    calls = [a for a in harness.sink.announcements if "it's your turn" in a.text]
    assert len(calls) == 1, [a.text for a in calls]
    await harness.advance(STUCK_CHECK_SECONDS + 1)
    assert await tables.unstick() == 0


async def test_a_bot_move_under_way_is_not_taken_for_stuck(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A job taken from the scheduler's queue may wait a while before it holds the table
    (a busy loop, a slow disk): it is under way, and the net must not arrange the turn a
    second time."""
    tables = harness.tables
    assert tables is not None
    table_id = await _game(harness, "deadline=off")
    leaver = {0: ALICE, 1: BOB, 2: CAROL}[_to_act(harness, table_id)]
    release, taken = asyncio.Event(), asyncio.Event()
    run = tables.scheduler._run

    async def slow_start(job: Any) -> None:
        if job.table_id == table_id and job.kind == "bot":
            taken.set()
            await release.wait()
        await run(job)

    monkeypatch.setattr(tables.scheduler, "_run", slow_start)
    before = await _version(harness, table_id)
    assert (await tables.leave(leaver, CHANNEL)).ok  # a bot has the seat, and the turn
    settling = asyncio.create_task(tables.settle())
    await taken.wait()
    assert not tables.scheduler.jobs_of(table_id)  # the bot's move was the only timer
    for _ in range(3):
        harness.clock.advance(STUCK_CHECK_SECONDS + 1)
        assert await tables.unstick() == 0
    release.set()
    await settling
    assert await _version(harness, table_id) > before, "the bot played"
