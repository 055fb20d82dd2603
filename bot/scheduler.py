"""Timed work (bot moves, deadline reminders and expiries) on one loop and one clock."""

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from bot.clock import Clock

log = logging.getLogger(__name__)
# Jobs in flight at once: enough that the next ones think while the last ones' commit is
# on disk (their storage writes share one group commit), bounded so that one busy moment
# cannot flood the loop. Twice the moves a SQLite group commit takes (`db.sqlite`
# GROUP_MOST): one group plays while the other commits in the writer process.
IN_FLIGHT = 16


class Job(NamedTuple):
    """Ordered by due time, then by `order` (unique: later fields are never compared).
    A tuple, so the heap compares jobs in C: a generated `__lt__` was called a dozen
    times a bot move."""

    due: float
    order: int
    kind: str  # "bot", "remind", "expire"
    table_id: int
    version: int


class Scheduler:
    """A heap of jobs, indexed by table.

    Every job names the table version it was made for, and a table that moves on makes
    its older jobs pointless (a reminder for a turn already played). They are dropped
    when the table moves (`moved`), not left to wake up and load the table for nothing:
    a busy bot keeps only its table's current jobs, and asking for one table's jobs
    looks at that table's alone.
    """

    def __init__(self, clock: Clock, run: Callable[[Job], Awaitable[None]], *,
                 accepts: Callable[[int], bool] | None = None) -> None:
        self._clock = clock
        self._run = run
        # Several processes: only the table's driver keeps its timers (bot/driving.py).
        self._accepts = accepts
        self._heap: list[Job] = []
        self._by_table: dict[int, set[Job]] = {}
        # Jobs under way, by table: taken from the heap, maybe not yet holding their table.
        self._running: dict[int, asyncio.Task[None]] = {}
        self._dropped = 0  # jobs still in the heap that will not run
        self._gone: set[int] = set()  # their `order`s
        self._count = itertools.count()
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def at(self, due: float, kind: str, table_id: int, version: int) -> None:
        if self._accepts is not None and not self._accepts(table_id):
            return
        job = Job(due, next(self._count), kind, table_id, version)
        heapq.heappush(self._heap, job)
        self._by_table.setdefault(table_id, set()).add(job)
        self._wake.set()

    def drop(self, table_id: int) -> None:
        """Forget a table's jobs: a table that closed and comes back keeps its version, so
        its old reminders and expiries would otherwise look current again."""
        self._forget(self._by_table.pop(table_id, set()))

    def moved(self, table_id: int, version: int) -> None:
        """The table is now at `version`: its jobs for any other version will not run."""
        jobs = self._by_table.get(table_id)
        if jobs:
            stale = {job for job in jobs if job.version != version}
            if stale:
                jobs -= stale
                self._forget(stale)
                if not jobs:
                    del self._by_table[table_id]

    def has_jobs(self, table_id: int) -> bool:
        """A job of the table waits or is under way: a job taken from the heap may wait a
        while (a busy loop, a slow disk) before it holds its table, and it still arranges
        the turn."""
        return bool(self._by_table.get(table_id)) or table_id in self._running

    def jobs_of(self, table_id: int) -> list[Job]:
        """The table's jobs still to run, soonest first."""
        return sorted(self._by_table.get(table_id, ()))

    def _forget(self, jobs: set[Job]) -> None:
        if not jobs:
            return
        self._dropped += len(jobs)
        self._gone.update(job.order for job in jobs)
        if self._dropped > 1024 and self._dropped * 2 > len(self._heap):
            # Mostly dropped jobs: rebuild rather than carry them until they come due.
            self._heap = [job for job in self._heap if job.order not in self._gone]
            heapq.heapify(self._heap)
            self._gone.clear()
            self._dropped = 0

    def _pop(self) -> Job:
        job = heapq.heappop(self._heap)
        jobs = self._by_table.get(job.table_id)
        if jobs is not None:
            jobs.discard(job)
            if not jobs:
                del self._by_table[job.table_id]
        return job

    def _skip_dropped(self) -> None:
        while self._heap and self._heap[0].order in self._gone:
            self._gone.discard(heapq.heappop(self._heap).order)
            self._dropped -= 1

    def pending(self) -> int:
        return len(self._heap) - self._dropped

    def next_due(self) -> float | None:
        self._skip_dropped()
        return self._heap[0].due if self._heap else None

    async def run_due(self) -> int:
        """Run every job due by now, including ones that running jobs make due; count them.

        Jobs of different tables overlap, up to `IN_FLIGHT`: while some wait for their
        commit, the next ones decide, and the moves waiting together share one commit. A
        table's own jobs keep their order: its next job starts once its last one ended.
        """
        ran = 0
        async with self._lock:
            running = self._running
            # Tables whose job ended, told by the job itself as its last step: a done
            # callback would cost the loop one more turn per job, and `asyncio.wait` hangs
            # a callback on every job in flight and takes them all off again at every end.
            ended: list[int] = []
            wake: asyncio.Future[None] | None = None

            async def run(job: Job) -> None:
                try:
                    await self._run(job)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    # One table's failure must not stop every other table's clock.
                    log.exception("scheduled %s for table %s failed", job.kind, job.table_id)
                finally:
                    ended.append(job.table_id)
                    if wake is not None and not wake.done():
                        wake.set_result(None)

            try:
                while True:
                    now = self._clock.now()
                    held: list[Job] = []  # due, but their table's last job is still running
                    while (len(running) < IN_FLIGHT and (due := self.next_due()) is not None
                           and due <= now):
                        if self._heap[0].table_id in running:
                            held.append(heapq.heappop(self._heap))
                            continue
                        job = self._pop()
                        running[job.table_id] = asyncio.create_task(run(job))
                    for job in held:  # back before anything else can touch the heap
                        heapq.heappush(self._heap, job)
                    if not running:
                        return ran
                    if not ended:
                        wake = asyncio.get_running_loop().create_future()
                        await wake
                        wake = None
                    for table_id in ended:
                        del running[table_id]
                        ran += 1
                    ended.clear()
            finally:
                for task in running.values():
                    task.cancel()
                if running:
                    await asyncio.gather(*running.values(), return_exceptions=True)
                running.clear()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            await self.run_due()
            self._wake.clear()
            due = self.next_due()
            waiters: list[asyncio.Future[Any]] = [asyncio.ensure_future(self._wake.wait())]
            if due is not None:
                waiters.append(asyncio.ensure_future(self._clock.sleep(due - self._clock.now())))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waiters:
                    waiter.cancel()
