"""Timed work (bot moves, deadline reminders and expiries) on one loop and one clock."""

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.clock import Clock

log = logging.getLogger(__name__)
BATCH = 4  # jobs run together; bounded so one busy moment cannot flood the loop


@dataclass(order=True, frozen=True)
class Job:
    due: float
    order: int
    kind: str = field(compare=False)  # "bot", "remind", "expire"
    table_id: int = field(compare=False)
    version: int = field(compare=False)


class Scheduler:
    def __init__(self, clock: Clock, run: Callable[[Job], Awaitable[None]]) -> None:
        self._clock = clock
        self._run = run
        self._heap: list[Job] = []
        self._count = itertools.count()
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def at(self, due: float, kind: str, table_id: int, version: int) -> None:
        heapq.heappush(self._heap, Job(due, next(self._count), kind, table_id, version))
        self._wake.set()

    def drop(self, table_id: int) -> None:
        """Forget a table's jobs: a table that closed and comes back keeps its version, so
        its old reminders and expiries would otherwise look current again."""
        kept = [job for job in self._heap if job.table_id != table_id]
        if len(kept) != len(self._heap):
            heapq.heapify(kept)
            self._heap = kept

    def pending(self) -> int:
        return len(self._heap)

    def next_due(self) -> float | None:
        return self._heap[0].due if self._heap else None

    async def run_due(self) -> int:
        """Run every job due by now, including ones that running jobs make due; count them.

        Jobs of different tables run together (their storage writes can then share one
        commit); a table's own jobs keep their order, one batch at a time.
        """
        ran = 0
        async with self._lock:
            while self._heap and self._heap[0].due <= self._clock.now():
                batch: list[Job] = []
                tables: set[int] = set()
                while (self._heap and self._heap[0].due <= self._clock.now()
                       and self._heap[0].table_id not in tables and len(batch) < BATCH):
                    job = heapq.heappop(self._heap)
                    batch.append(job)
                    tables.add(job.table_id)
                await asyncio.gather(*(self._run_one(job) for job in batch))
                ran += len(batch)
        return ran

    async def _run_one(self, job: Job) -> None:
        try:
            await self._run(job)
        except asyncio.CancelledError:
            raise
        except Exception:
            # One table's failure must not stop every other table's clock.
            log.exception("scheduled %s for table %s failed", job.kind, job.table_id)

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
