"""The scheduler: jobs run in time order, a table's stale jobs are dropped when it moves."""

import asyncio
import contextlib

from bot.clock import FakeClock
from bot.scheduler import IN_FLIGHT, Job, Scheduler


def _scheduler() -> tuple[Scheduler, FakeClock, list[Job]]:
    clock = FakeClock()
    ran: list[Job] = []

    async def run(job: Job) -> None:
        ran.append(job)

    return Scheduler(clock, run), clock, ran


async def test_jobs_run_when_due_in_time_order_and_not_before():
    scheduler, clock, ran = _scheduler()
    now = clock.now()
    scheduler.at(now + 30, "expire", 1, 5)
    scheduler.at(now + 10, "remind", 1, 5)
    scheduler.at(now, "bot", 2, 0)
    assert await scheduler.run_due() == 1 and [j.kind for j in ran] == ["bot"]
    clock.advance(30)
    assert await scheduler.run_due() == 2
    assert [j.kind for j in ran] == ["bot", "remind", "expire"]
    assert scheduler.pending() == 0 and scheduler.next_due() is None


async def test_a_table_that_moves_on_loses_its_old_jobs_and_keeps_its_new_ones():
    scheduler, clock, ran = _scheduler()
    now = clock.now()
    scheduler.at(now + 240, "remind", 7, 3)
    scheduler.at(now + 300, "expire", 7, 3)
    scheduler.at(now + 20, "ping", 7, 3)
    scheduler.at(now + 300, "expire", 8, 3)  # another table at the same version
    scheduler.moved(7, 4)  # a move was played at table 7
    scheduler.at(now + 5, "bot", 7, 4)
    assert [(j.kind, j.version) for j in scheduler.jobs_of(7)] == [("bot", 4)]
    assert scheduler.pending() == 2
    clock.advance(400)
    await scheduler.run_due()
    assert sorted((j.table_id, j.kind) for j in ran) == [(7, "bot"), (8, "expire")]


async def test_dropping_a_table_forgets_all_its_jobs():
    scheduler, clock, ran = _scheduler()
    for n in range(3):
        scheduler.at(clock.now() + n, "remind", 1, n)
    scheduler.at(clock.now(), "bot", 2, 0)
    scheduler.drop(1)
    assert scheduler.jobs_of(1) == [] and scheduler.pending() == 1
    clock.advance(10)
    await scheduler.run_due()
    assert [j.table_id for j in ran] == [2]


async def test_many_dropped_jobs_do_not_stay_in_the_heap():
    scheduler, clock, ran = _scheduler()
    for table in range(5000):
        scheduler.at(clock.now() + 300, "expire", table, 1)
    for table in range(5000):
        scheduler.moved(table, 2)
        scheduler.at(clock.now() + 1, "bot", table, 2)
    assert scheduler.pending() == 5000
    assert len(scheduler._heap) < 7000  # rebuilt once most of it was dropped
    clock.advance(1)
    assert await scheduler.run_due() == 5000
    assert {j.kind for j in ran} == {"bot"} and scheduler.next_due() is None


async def test_a_slow_job_does_not_hold_up_other_tables_and_a_table_keeps_its_order():
    """While one table's job waits (for its commit, say), other tables' jobs run; the
    waiting table's next job starts only after its last one ended."""
    clock = FakeClock()
    release = asyncio.Event()
    log: list[str] = []

    async def run(job: Job) -> None:
        log.append(f"start {job.table_id}.{job.version}")
        if job.table_id == 1 and job.version == 0:
            await release.wait()
        if job.table_id == 2 and job.version == 0:
            scheduler.at(clock.now(), "bot", 2, 1)  # a job made due by a running one
        log.append(f"end {job.table_id}.{job.version}")

    scheduler = Scheduler(clock, run)
    scheduler.at(clock.now(), "bot", 1, 0)
    scheduler.at(clock.now(), "bot", 1, 1)
    for table in range(2, 2 + IN_FLIGHT):
        scheduler.at(clock.now(), "bot", table, 0)
    running = asyncio.create_task(scheduler.run_due())
    for _ in range(50):
        await asyncio.sleep(0)
    # Table 1's first job waits; the others ran, including the job table 2 made due.
    assert "end 2.1" in log and "start 1.1" not in log
    assert all(f"end {table}.0" in log for table in range(2, 2 + IN_FLIGHT))
    release.set()
    assert await running == IN_FLIGHT + 3
    assert log.index("start 1.1") > log.index("end 1.0")


async def test_stopping_the_scheduler_cancels_the_jobs_in_flight():
    clock = FakeClock()
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def run(job: Job) -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    scheduler = Scheduler(clock, run)
    scheduler.at(clock.now(), "bot", 1, 0)
    running = asyncio.create_task(scheduler.run_due())
    await started.wait()
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await running
    assert cancelled.is_set()
