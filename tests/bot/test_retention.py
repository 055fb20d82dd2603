"""The daily sweep: with RETENTION_DAYS it deletes finished and cancelled tables once that
old; always, a table paused for its lost channel that a newer one there rules out."""

import asyncio
import time

import pytest

from bot import retention
from db.repository import CANCELLED, CLOSED, FINISHED, PLAYING, ResultRow, SeatRow
from db.sqlite import SqliteRepository
from tests.bot.conftest import BOB, CHANNEL, DAVE
from tests.bot.test_play import _lose_the_channel_mid_game

DAY = 86400.0


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def table(repo, channel, status):
    row = await repo.create_table(platform="telegram", channel=channel, game="the-game",
                                  options={}, settings={}, seed=1, host="u1",
                                  seats=[SeatRow(0, "u1", "Ann")])
    if status == CANCELLED:
        return await repo.update_table(row.id, expected_version=0, status=CANCELLED)
    row = await repo.update_table(row.id, expected_version=0, status=PLAYING,
                                  reset_moves=True, snapshot="s")
    if status == FINISHED:
        row = await repo.commit_move(row.id, seq=1, seat=0, move="end", actor="player",
                                     snapshot="e", status=FINISHED,
                                     results=[ResultRow(0, "u1", "Ann", False, 3, 1)])
    return row


async def test_the_job_deletes_old_finished_and_cancelled_tables_at_start_and_keeps_the_rest(
        tmp_path):
    now = time.time()
    clock = Clock(now - 40 * DAY)
    async with SqliteRepository(tmp_path / "t.db", clock=clock) as repo:
        old_done = await table(repo, "a", FINISHED)
        old_cancelled = await table(repo, "b", CANCELLED)
        old_playing = await table(repo, "c", PLAYING)
        clock.now = now - 20 * DAY
        recent_done = await table(repo, "d", FINISHED)

        job = asyncio.create_task(retention.daily(repo, 30))
        for _ in range(100):
            if await repo.get_table(old_done.id) is None:
                break
            await asyncio.sleep(0.01)
        job.cancel()

        assert await repo.get_table(old_done.id) is None
        assert await repo.get_table(old_cancelled.id) is None
        assert await repo.get_table(old_playing.id) is not None
        assert await repo.get_table(recent_done.id) is not None
        assert await repo.stats("telegram", "u1") != []  # the recent game still counts
        # Ten days on, the recent one is old enough too.
        assert await retention.sweep(repo, 30, now=now + 10 * DAY + 60) == 1
        assert await repo.get_table(recent_done.id) is None


async def test_a_failing_database_skips_a_sweep_without_stopping_the_job(tmp_path):
    repo = SqliteRepository(tmp_path / "t.db")  # never opened: every call fails
    assert await retention.sweep(repo, 30) == 0


@pytest.mark.parametrize("days", [None, 30])
async def test_a_game_paused_for_its_lost_channel_is_swept_once_a_newer_one_was_opened_there(
        harness, days):
    table_id, _ = await _lose_the_channel_mid_game(harness)
    harness.sink.gone_channels.discard(CHANNEL)
    assert (await harness.tables.new_game(DAVE, CHANNEL, "michigan")).ok
    assert (await harness.tables.cancel(DAVE, CHANNEL)).ok

    # A year on: with RETENTION_DAYS the newer game is swept too, and the paused one must
    # not become the channel's newest again.
    await retention.sweep(harness.repo, days, now=time.time() + 365 * DAY)

    assert await harness.repo.get_table(table_id) is None
    harness.sink.gone_channels.add(CHANNEL)  # the bot loses the channel and gets it back
    harness.sink.gone_channels.discard(CHANNEL)
    assert await harness.tables.channel_back(CHANNEL) == []
    assert not (await harness.tables.show(BOB, CHANNEL)).ok  # "no table here"


async def test_a_game_paused_alone_in_its_channel_is_kept_and_comes_back(harness):
    table_id, _ = await _lose_the_channel_mid_game(harness)
    await retention.sweep(harness.repo, None)
    await retention.sweep(harness.repo, 30)
    assert (await harness.repo.get_table(table_id)).status == CLOSED

    harness.sink.gone_channels.discard(CHANNEL)
    assert await harness.tables.channel_back(CHANNEL) == [table_id]
