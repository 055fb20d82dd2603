"""The scheduler: jobs run in time order, a table's stale jobs are dropped when it moves."""

from bot.clock import FakeClock
from bot.scheduler import Job, Scheduler


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
