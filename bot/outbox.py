"""Carrying deliveries to an adapter: coalesced, ordered, retried, never dropped silently.

Edits of one message (the table, a player's hand) are coalesced: while one is in flight,
newer renderings replace older pending ones, so a burst of bot moves costs one edit.
Announcements keep their order per channel. Message ids are stored, so after a restart the
same messages are edited instead of new ones posted.
"""

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot import logs
from bot.deliveries import (
    Announcement,
    ChannelGone,
    Delivery,
    HandMessage,
    MessageGone,
    Notice,
    TableMessage,
    UserUnreachable,
)
from bot.live import TOLD_MOVES
from db.repository import MessageRef, Repository, StorageError, Unreachable

log = logging.getLogger(__name__)

# Longest wait between two tries of a delivery held up by an unreachable database.
UNREACHABLE_WAIT = 2.0
# Seconds a stopping process still delivers what is queued: then it ends whatever is
# left (its tables' next driver, or its restart, draws their screens again).
CLOSE_WITHIN = 4.0


class Sink(Protocol):
    """What an adapter implements. `show_*` return the reference of the message now showing."""

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef: ...

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef: ...

    async def announce(self, msg: Announcement) -> None: ...

    async def notify(self, msg: Notice) -> None: ...

    # Optional: `async def turn(self, delivery) -> None`, awaited before a delivery is taken
    # from its queue, for a platform that paces its messages (Telegram's flood limits).


Key = tuple[object, ...]


class Outbox:
    def __init__(
        self, sink: Sink, repo: Repository, *,
        on_channel_gone: Callable[[int], Awaitable[None]],
        on_unreachable: Callable[[int, str], Awaitable[None]],
        attempts: int = 5, backoff: float = 0.5,
        drives: Callable[[int], bool] | None = None,
        elsewhere: Callable[[Delivery], None] | None = None,
        queued: Callable[[Delivery], None] | None = None,
    ) -> None:
        self._sink = sink
        self._repo = repo
        self._on_channel_gone = on_channel_gone
        self._on_unreachable = on_unreachable
        self._attempts = attempts
        self._backoff = backoff
        # Several processes: deliveries of a table another process drives go to `elsewhere`
        # (which tells that driver), so each message is edited by one process only.
        self._drives = drives
        self._elsewhere = elsewhere
        # What bot/ adds to a delivery queued here, for its sink (`Announcement.called`).
        self._queued = queued
        self._queues: dict[Key, deque[Delivery]] = {}
        self._workers: dict[Key, asyncio.Task[None]] = {}
        self._refs: dict[int, dict[str, MessageRef]] = {}
        self._gone: set[int] = set()
        self.coalesced = 0
        # Who hears of a delivery when it is queued (the web pages of its table): before
        # any platform's pacing, so a page is not held up by a chat's flood limits.
        self._observers: list[Callable[[Delivery], None]] = []

    def observe(self, observer: Callable[[Delivery], None]) -> None:
        """Call `observer` with every delivery put here, as it is put. It must be quick and
        must not raise: it runs on the path of the move that made the delivery."""
        self._observers.append(observer)

    def put(self, delivery: Delivery) -> None:
        if delivery.table_id is not None and delivery.table_id in self._gone:
            return
        for observer in self._observers:
            try:
                observer(delivery)
            except Exception:  # a watcher's fault is no delivery's
                log.exception("an observer of the outbox failed")
        if (self._drives is not None and delivery.table_id is not None
                and not self._drives(delivery.table_id)):
            if self._elsewhere is not None:
                self._elsewhere(delivery)
            return
        if self._queued is not None:
            self._queued(delivery)
        key = _key(delivery)
        queue = self._queues.setdefault(key, deque())
        if isinstance(delivery, TableMessage | HandMessage) and queue:
            dropped = [n for d in queue if isinstance(d, TableMessage) for n in d.news or []]
            if isinstance(delivery, TableMessage) and dropped:  # the news is kept
                # As much as a table keeps to narrate: a channel waiting its turn for
                # tens of seconds behind a platform's limits (hundreds of tables moving)
                # piled up every move's news, copied again at each move.
                delivery.news = (dropped + (delivery.news or []))[-TOLD_MOVES:]
            queue.clear()  # a newer rendering makes the pending one pointless
            self.coalesced += 1
        queue.append(delivery)
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(self._drain(key))

    def depth(self) -> int:
        """Deliveries not yet made: those queued, and one in flight per busy worker."""
        return sum(len(queue) for queue in self._queues.values()) + len(self._workers)

    def busy(self, table_id: int) -> bool:
        """Something of the table is queued or in flight."""
        return any(key[1] == table_id for key in self._workers) or any(
            key[1] == table_id and queue for key, queue in self._queues.items())

    def revive(self, table_id: int) -> None:
        """A table whose channel was gone is back: deliver to it again."""
        self._gone.discard(table_id)

    def forget(self, table_id: int) -> None:
        """A finished or closed table's message ids need not stay in memory."""
        self._refs.pop(table_id, None)

    async def flush(self) -> None:
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def close(self, within: float = CLOSE_WITHIN) -> None:
        """Deliver what is queued, for `within` seconds at most: a stop (SIGTERM) must not
        wait on the platform's flood limits or a database that is down."""
        loop = asyncio.get_running_loop()
        until = loop.time() + within
        while self._workers and (remaining := until - loop.time()) > 0:
            await asyncio.wait(list(self._workers.values()), timeout=remaining)
        if self._workers:
            left = self.depth()
            kinds = sorted({str(key[0]) for key in self._workers})
            for queue in self._queues.values():
                queue.clear()  # or a worker's end would start another for its queue
            for task in list(self._workers.values()):
                task.cancel()
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)
            log.warning("stopping: %d deliveries not made (%s); the screens are drawn"
                        " again when their tables are next driven", left, ", ".join(kinds))

    async def _drain(self, key: Key) -> None:
        queue = self._queues[key]
        try:
            while queue:
                turn = getattr(self._sink, "turn", None)
                if turn is not None:
                    # Wait for the platform's flood limits first, then take the newest
                    # pending rendering: renderings that arrive meanwhile replace it.
                    with contextlib.suppress(Exception):
                        await turn(queue[0])
                    if not queue:
                        break
                delivery = queue.popleft()
                await self._deliver(delivery)
        finally:
            self._workers.pop(key, None)
            if not queue:
                self._queues.pop(key, None)
            else:  # something arrived while we were finishing up
                self._workers[key] = asyncio.create_task(self._drain(key))

    async def _deliver(self, delivery: Delivery) -> None:
        logs.bind(table_id=delivery.table_id, channel=getattr(delivery, "channel", None))
        attempt = waits = 0
        while attempt < self._attempts:
            try:
                await self._send(delivery)
                if waits:
                    log.info("delivered once the database was back: %r", delivery)
                return
            except Unreachable:
                # The database is down (a restart, a network cut): not this delivery's
                # fault, and not a reason to give it up; it waits, however long the
                # outage. A table another process drives meanwhile is drawn again by it.
                table_id = delivery.table_id
                if (table_id is not None and self._drives is not None
                        and not self._drives(table_id)):
                    log.info("table %s no longer driven here: its driver draws it", table_id)
                    return
                if not waits:
                    log.warning("delivery waits for the database: %r", delivery,
                                exc_info=True)
                waits += 1
                await asyncio.sleep(min(self._backoff * waits, UNREACHABLE_WAIT))
                continue
            except ChannelGone:
                table_id = delivery.table_id
                if table_id is not None and table_id not in self._gone:
                    self._gone.add(table_id)
                    for key in [k for k in self._queues if k[1] == table_id]:
                        self._queues[key].clear()
                    await self._on_channel_gone(table_id)
                return
            except UserUnreachable:
                if isinstance(delivery, HandMessage):
                    await self._on_unreachable(delivery.table_id, delivery.user_id)
                else:
                    log.info("user unreachable for %s", type(delivery).__name__)
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                attempt += 1
                log.exception("delivery failed (attempt %d/%d): %r", attempt, self._attempts,
                              delivery)
                if attempt < self._attempts:
                    await asyncio.sleep(self._backoff * attempt)
        log.error("delivery given up after %d attempts: %r", self._attempts, delivery)

    async def _send(self, delivery: Delivery) -> None:
        if isinstance(delivery, Announcement):
            await self._sink.announce(delivery)
        elif isinstance(delivery, Notice):
            await self._sink.notify(delivery)
        elif isinstance(delivery, TableMessage):
            await self._show(delivery.table_id, "table", delivery, None)
        else:
            await self._show(delivery.table_id, f"hand:{delivery.seat}", delivery,
                             delivery.user_id)

    async def _show(self, table_id: int, key: str, delivery: TableMessage | HandMessage,
                    owner: str | None) -> None:
        refs = await self._refs_of(table_id)
        ref = refs.get(key)
        if ref is not None and owner is not None and ref.extra.get("user") != owner:
            ref = None  # the seat changed hands: the old message is somebody else's
        try:
            new = await self._call_show(delivery, ref)
        except MessageGone:
            new = await self._call_show(delivery, None)
        if owner is not None:
            new.extra = {**new.extra, "user": owner}
        new.key = key
        if ref is None or (new.chat, new.message_id, new.extra) != (ref.chat, ref.message_id,
                                                                     ref.extra):
            refs[key] = new
            with contextlib.suppress(StorageError):
                await self._repo.set_message(table_id, new)

    async def _call_show(self, delivery: TableMessage | HandMessage,
                         ref: MessageRef | None) -> MessageRef:
        if isinstance(delivery, TableMessage):
            return await self._sink.show_table(delivery, ref)
        return await self._sink.show_hand(delivery, ref)

    async def _refs_of(self, table_id: int) -> dict[str, MessageRef]:
        if table_id not in self._refs:
            self._refs[table_id] = dict(await self._repo.messages(table_id))
        return self._refs[table_id]

    def ref(self, table_id: int, key: str) -> MessageRef | None:
        return self._refs.get(table_id, {}).get(key)


def _key(delivery: Delivery) -> Key:
    if isinstance(delivery, TableMessage):
        return ("table", delivery.table_id)
    if isinstance(delivery, HandMessage):
        return ("hand", delivery.table_id, delivery.seat)
    if isinstance(delivery, Announcement):
        return ("announce", delivery.table_id, delivery.channel)
    return ("notice", delivery.table_id, delivery.user_id)
