"""RETENTION_DAYS: the daily job deletes finished and cancelled tables once that old."""

import asyncio
import time

from bot import retention
from db.repository import CANCELLED, FINISHED, PLAYING, ResultRow, SeatRow
from db.sqlite import SqliteRepository

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
