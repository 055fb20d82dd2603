"""Several processes on one database: which of them drives which table.

A table's *driver* is the one process that runs its timers (turn deadlines, reminders,
bot moves) and makes its deliveries (table message, hands, announcements), so its
messages are edited by one process at a time and nothing happens twice. A press or a
command may reach any process: it is applied there, under the table's version like
every change, and answered there; the driver is then told (`Cluster.tell_driver`) and
shows the change, as if it had made it: it plays the new moves of the log on its own
copy, which gives it the same events to narrate.

Every `cluster_poll` seconds each process takes its share of the tables whose driver
died or that have none (the database says which processes are alive), and hands
tables it has beyond its share to the others, so processes started one after the other
end up with even shares. SQLite has no cluster: its one process drives everything and
none of this runs.

A sharded Discord process is *home* for the tables of the guilds on its shards: Discord
sends their presses to it alone, so it drives them while it lives (no notice to another
process per press). It claims them whatever its share, and another process that drove
one (its home was down, or it made the table) hands it back once it is idle. Tables no
live process is home for (Telegram's, a dead shard's) are shared evenly, so a dead
shard's tables still play on: REST calls work from any process.
"""

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import socket
from contextvars import ContextVar
from dataclasses import asdict
from typing import Any, Protocol

from bot.deliveries import Announcement, Delivery, Notice
from bot.outbox import Outbox
from bot.render import Button
from bot.settings import Settings
from db.repository import ASTRAY, SHARED, Cluster, Shards, StorageError

log = logging.getLogger(__name__)

# Set while a process shows a change it made (`Table.after_change`): what it would
# deliver then, the driver works out again from the change itself, so it is not sent on.
SHOWING_CHANGE: ContextVar[bool] = ContextVar("tapis_showing_change", default=False)
# Tables beyond its share a process keeps, so that shares do not flap around the mean.
SLACK = 1
# Tables taken over at once (each a few queries): bounded by the connection pool's size.
TAKEOVER_BATCH = 8
# Home tables claimed in one look (one statement): a restarted process gets its share back
# over a few looks rather than in one long transaction.
HOME_BATCH = 1_000
# PostgreSQL's NOTIFY carries at most 8,000 bytes.
NOTICE_LIMIT = 7_900
# How long a /forgetme waits for every other process to drop the person from its copies.
FORGET_WAIT = 15.0


class Driven(Protocol):
    """What driving asks of the process whose tables it shares out (`bot.tables.Tables`):
    whether a table can be handed on, taking one over or letting it go, showing a change
    made elsewhere, forgetting a person forgotten elsewhere."""

    @property
    def platform(self) -> str: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def outbox(self) -> Outbox: ...

    def idle(self, table_id: int) -> bool: ...

    def let_go(self, table_id: int) -> None: ...

    async def take_over(self, table_id: int) -> None: ...

    async def catch_up(self, table_id: int) -> None: ...

    async def forgotten_here(self, user_id: str) -> None: ...


class Driving:
    def __init__(self, tables: Driven, cluster: Cluster) -> None:
        self._tables = tables
        self._cluster = cluster
        self.driven: set[int] = set()
        self._incoming: asyncio.Queue[str] = asyncio.Queue()
        self._outgoing: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
        self._changed: set[int] = set()  # tables to tell their driver about, once
        self._tasks: list[asyncio.Task[None]] = []
        self._taking: set[int] = set()  # tables whose take-over is under way
        self._takeovers: set[asyncio.Task[None]] = set()
        self._lost = False
        self._homes: set[str] = set()  # channels whose guild the database was told
        self._answers: dict[str, _Answers] = {}  # forgets waiting for the others to be done
        self.shards = _shards(tables)

    def drives(self, table_id: int) -> bool:
        # Before joining (a service used without `start`, as some tools do), it is alone.
        return self._cluster.worker is None or table_id in self.driven

    # --- life cycle -----------------------------------------------------------------------

    async def join(self) -> None:
        """Join as a worker and take a first share of the tables: before resuming them."""
        await self._join()
        await self.balance(resume=False)

    async def _join(self) -> None:
        name = f"{socket.gethostname()}:{os.getpid()}:{self._tables.platform}"
        await self._cluster.join(name, self._incoming.put_nowait, self._on_lost,
                                 platform=self._tables.platform, shards=self.shards)

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._poll()), asyncio.create_task(self._listen()),
                       asyncio.create_task(self._tell())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        for task in list(self._takeovers):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._queue_changed()
        while not self._outgoing.empty():
            await self._send(*self._outgoing.get_nowait())
        with contextlib.suppress(StorageError):
            await self._cluster.leave()

    def _on_lost(self) -> None:
        # Others may claim this worker's tables from now on: stop driving them at once.
        self._lost = True
        for table_id in list(self.driven):
            self._let_go(table_id)

    # --- shares ---------------------------------------------------------------------------

    async def balance(self, *, resume: bool = True) -> None:
        """Take its home tables and the tables of dead drivers (up to a fair share), give
        back the excess and the tables whose home process is alive again."""
        if self._lost:
            # Cleared only once joined again: a poll during the outage fails here, and the
            # next one tries again, until the database is back.
            await self._join()
            self._lost = False
            log.warning("cluster: joined again as worker %s", self._cluster.worker)
        platform = self._tables.platform
        census = await self._cluster.census(platform)
        for table_id in self.driven - census.mine.keys():  # claimed by another: this one
            self._let_go(table_id)                          # seemed dead for a while
        taken = sorted(census.mine.keys() - self.driven)
        if self.shards is not None:
            taken += [table_id for table_id, _ in
                      await self._cluster.claim(platform, HOME_BATCH, home=True)]
        shared = sum(1 for kind in census.mine.values() if kind == SHARED)
        share = math.ceil(census.shared / max(census.workers, 1))
        if shared < share:
            claimed = await self._cluster.claim(platform, share - shared)
            taken += [table_id for table_id, _ in claimed]
            shared += len(claimed)
        self.driven.update(taken)
        if resume:
            self._take_over([t for t in taken if t not in self._taking])
        fresh = set(taken)
        given = [t for t, kind in sorted(census.mine.items()) if kind == ASTRAY
                 and t in self.driven and t not in fresh and t not in self._taking
                 and self._tables.idle(t)]
        if shared > share + max(SLACK, share // 5):
            # Only well past its share (a process joined): tables do not go back and forth
            # while games end and the count of open tables changes.
            given += [t for t in sorted(self.driven) if census.mine.get(t) == SHARED
                      and t not in self._taking and self._tables.idle(t)][:shared - share]
        for table_id in given:
            self._let_go(table_id)
        if given:
            await self._cluster.release(given)

    def _take_over(self, tables: list[int]) -> None:
        """Take the claimed tables over beside the polls, not inside one: a dead process's
        hundreds of tables take a while (a few queries each, behind its players' commands
        on the pool), and a poll that waited for them would leave the tables a first claim
        did not get without a driver until they were all done."""
        if not tables:
            return
        self._taking.update(tables)
        task = asyncio.create_task(self._taking_over(tables))
        self._takeovers.add(task)
        task.add_done_callback(self._takeovers.discard)

    async def _taking_over(self, tables: list[int]) -> None:
        # Redrawn even when handed over in order: a change made elsewhere while it had no
        # driver was told to nobody. Several at once: each is a few queries away from
        # playing on.
        try:
            for start in range(0, len(tables), TAKEOVER_BATCH):
                batch = tables[start:start + TAKEOVER_BATCH]
                results = await asyncio.gather(
                    *(self._tables.take_over(table_id) for table_id in batch),
                    return_exceptions=True)
                for table_id, result in zip(batch, results, strict=True):
                    if isinstance(result, Exception):
                        # Still ours in the database: the next poll finds it claimed but
                        # not driven here, and takes it over again.
                        log.warning("table %s: not taken over this time", table_id,
                                    exc_info=result)
                        self._let_go(table_id)
        finally:
            self._taking.difference_update(tables)

    async def note_home(self, channel: str, guild_id: int) -> None:
        """The guild a channel belongs to, told once per channel: its tables' home."""
        if channel in self._homes or self._cluster.worker is None:
            return
        try:
            await self._cluster.note_home(self._tables.platform, channel, guild_id)
        except StorageError:
            log.warning("channel %s: its guild not stored", channel, exc_info=True)
            return
        self._homes.add(channel)

    async def adopt(self, table_id: int) -> None:
        """A table this process just made: it drives it unless a live process does."""
        if self._cluster.worker is None:
            return
        with contextlib.suppress(StorageError):
            if await self._cluster.adopt(table_id):
                self.driven.add(table_id)

    def _let_go(self, table_id: int) -> None:
        log.info("table %s: no longer driven here", table_id)
        self.driven.discard(table_id)
        self._tables.let_go(table_id)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self._tables.settings.cluster_poll)
            try:
                await self.balance()
            except StorageError:
                log.warning("cluster: tables not balanced this time", exc_info=True)
            except Exception:
                log.exception("cluster: balancing failed")

    # --- telling the driver ---------------------------------------------------------------

    def elsewhere(self, delivery: Delivery) -> None:
        """A delivery for a table another process drives: tell that driver instead."""
        table_id = delivery.table_id
        if table_id is None:
            return
        if not SHOWING_CHANGE.get() and isinstance(delivery, Announcement | Notice):
            kind = "a" if isinstance(delivery, Announcement) else "n"
            notice = json.dumps({"t": table_id, kind: asdict(delivery)})
            if len(notice.encode()) <= NOTICE_LIMIT:
                self._outgoing.put_nowait((table_id, notice))
            else:
                log.warning("table %s: a message too long to hand to its driver", table_id)
        if not self._changed:
            asyncio.get_running_loop().call_soon(self._queue_changed)
        self._changed.add(table_id)

    def _queue_changed(self) -> None:
        for table_id in sorted(self._changed):
            self._outgoing.put_nowait((table_id, json.dumps({"t": table_id})))
        self._changed.clear()

    async def _tell(self) -> None:
        while True:
            table_id, notice = await self._outgoing.get()
            await self._send(table_id, notice)

    async def _send(self, table_id: int, notice: str) -> None:
        try:
            if not await self._cluster.tell_driver(table_id, notice):
                log.info("table %s has no live driver: the next to claim it redraws it",
                         table_id)
        except StorageError:
            log.warning("table %s: its driver could not be told", table_id, exc_info=True)

    # --- forgetting a person everywhere ---------------------------------------------------

    async def forget_everywhere(self, user_id: str) -> bool:
        """Tell every other process of this platform that the person was forgotten, and
        wait until each says it holds them no more: a process that drives one of their
        tables would otherwise write their id back from its copy (at the game's end, into
        the results). False when one did not answer within FORGET_WAIT.

        The notice is sent to every live process, not only to the drivers: any of them may
        hold a copy. It names the person only in flight: nothing keeps it."""
        if self._cluster.worker is None:
            return True
        token = secrets.token_hex(8)
        answers = self._answers[token] = _Answers()
        try:
            notice = json.dumps({"forget": user_id, "r": self._cluster.worker, "k": token})
            reached = await self._cluster.tell_workers(self._tables.platform, notice)
            async with asyncio.timeout(FORGET_WAIT):
                while answers.count < reached:
                    answers.more.clear()
                    await answers.more.wait()
        except StorageError:
            log.warning("a forget could not be sent to the other processes", exc_info=True)
            return False
        except TimeoutError:
            log.warning("a forget: %d of %d processes answered in time", answers.count,
                        reached)
            return False
        finally:
            del self._answers[token]
        return True

    async def _forget_here(self, notice: dict[str, Any]) -> None:
        await self._tables.forgotten_here(str(notice["forget"]))
        await self._cluster.tell_worker(int(notice["r"]), json.dumps({"done": notice["k"]}))

    def _answered(self, token: str) -> None:
        answers = self._answers.get(token)
        if answers is not None:  # else given up already
            answers.count += 1
            answers.more.set()

    async def _listen(self) -> None:
        while True:
            payload = await self._incoming.get()
            try:
                await self._heard(json.loads(payload))
            except Exception:
                log.exception("cluster: a notice could not be handled: %.200s", payload)

    async def _heard(self, notice: dict[str, Any]) -> None:
        if "forget" in notice:
            await self._forget_here(notice)
            return
        if "done" in notice:
            self._answered(str(notice["done"]))
            return
        table_id = int(notice["t"])
        if not self.drives(table_id):
            return  # no longer ours: the new driver redraws it when it takes it
        if "a" in notice:
            fields = notice["a"]
            fields["buttons"] = [[Button(**button) for button in row]
                                 for row in fields.get("buttons", [])]
            await self._tables.catch_up(table_id)
            self._tables.outbox.put(Announcement(**fields))
        elif "n" in notice:
            self._tables.outbox.put(Notice(**notice["n"]))
        else:
            await self._tables.catch_up(table_id)


class _Answers:
    """The processes that said they forgot a person, for the forget waiting on them."""

    def __init__(self) -> None:
        self.count = 0
        self.more = asyncio.Event()


def _shards(tables: Driven) -> Shards | None:
    """The shards this process holds Discord's gateway for, when it is sharded."""
    settings = tables.settings
    if tables.platform != "discord" or settings.discord_shard_count is None:
        return None
    count = settings.discord_shard_count
    return Shards(count, tuple(settings.discord_shard_ids or range(count)))


__all__ = ["SHOWING_CHANGE", "Driving"]
