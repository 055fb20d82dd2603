"""PostgreSQL's cluster: several processes sharing the tables, each driving some of them.

Workers are rows of `workers`; one is alive while its own connection (not a pooled one)
holds its advisory lock, and listens there for what other workers tell it (LISTEN/NOTIFY).
"""

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg

from db.pg_errors import DRIVER_ERRORS, Calls, Connection, storage_error
from db.repository import Census, Cluster, Shards, StorageError, Unreachable
from db.rows import IS_OPEN

T = TypeVar("T")

# The logger it had when it lived in db/postgres.py: operators' filters keep working.
log = logging.getLogger("db.postgres")

# pg_advisory_lock(DRIVER_LOCK_SPACE, lock_key): held by each live worker (see Cluster).
DRIVER_LOCK_SPACE = 0x74617073  # "taps"
# Seconds a worker's own connection may take to be made: a poll that rejoins during a
# network cut tries again at the next poll rather than hang.
JOIN_TIMEOUT = 5.0

# Workers alive now: their advisory lock is held. pg_locks shows every database's locks.
_LIVE_WORKERS = f"""
SELECT w.id FROM workers w JOIN pg_locks l
  ON l.locktype = 'advisory' AND l.classid = {DRIVER_LOCK_SPACE} AND l.objsubid = 2
 AND l.objid = w.lock_key::oid AND l.granted
 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""
_LIVE_HOMES = f"""
SELECT w.id, w.platform, w.shard_count, w.shard_ids FROM workers w JOIN pg_locks l
  ON l.locktype = 'advisory' AND l.classid = {DRIVER_LOCK_SPACE} AND l.objsubid = 2
 AND l.objid = w.lock_key::oid AND l.granted
 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""
# A table `t` (joined to its channel's home `h`) has a live worker home for it.
_HOMED = """(h.home IS NOT NULL AND EXISTS (SELECT 1 FROM live l WHERE l.platform = t.platform
  AND l.shard_count IS NOT NULL AND ((h.home >> 22) % l.shard_count)::int = ANY(l.shard_ids)))"""
_WITH_HOME = ("tables t LEFT JOIN channel_homes h"
              " ON h.platform = t.platform AND h.channel = t.channel")
_T_OPEN = f"t.{IS_OPEN}"


def _mine(count: str, ids: str) -> str:
    """The table's home is on this worker's shards (given as query parameters)."""
    return (f"(h.home IS NOT NULL AND {count}::int IS NOT NULL"
            f" AND ((h.home >> 22) % {count}::int)::int = ANY({ids}::int[]))")


_CLAIM = f"""
WITH live AS ({_LIVE_HOMES}), free AS (
    SELECT t.id, t.driver FROM {_WITH_HOME}
    WHERE t.platform = $2 AND {_T_OPEN}
      AND (t.driver IS NULL OR t.driver NOT IN (SELECT id FROM live))
      AND CASE WHEN $4 THEN {_mine("$5", "$6")} ELSE NOT {_HOMED} END
    ORDER BY t.id LIMIT $3 FOR UPDATE OF t SKIP LOCKED
)
UPDATE tables t SET driver = $1 FROM free WHERE t.id = free.id
RETURNING t.id, free.driver IS NOT NULL
"""
_CENSUS = f"""
WITH live AS ({_LIVE_HOMES})
SELECT (SELECT COUNT(*) FROM {_WITH_HOME} WHERE t.platform = $1 AND {_T_OPEN}
        AND NOT {_HOMED}),
       (SELECT COUNT(*) FROM live WHERE platform = $1),
       ARRAY(SELECT t.id FROM {_WITH_HOME} WHERE t.platform = $1 AND t.driver = $2
             AND {_T_OPEN} ORDER BY t.id),
       ARRAY(SELECT CASE WHEN {_mine("$3", "$4")} THEN 'home' WHEN {_HOMED} THEN 'astray'
                         ELSE 'shared' END
             FROM {_WITH_HOME} WHERE t.platform = $1 AND t.driver = $2 AND {_T_OPEN}
             ORDER BY t.id)
"""


class PostgresCluster(Cluster):
    """Workers are rows of `workers`; one is alive while its own connection (not a pooled
    one) holds its advisory lock, and listens there for what other workers tell it."""

    def __init__(self, dsn: str, server_settings: dict[str, str], clock: Callable[[], float],
                 call: Calls) -> None:
        self._dsn = dsn  # not in repr or messages: it usually carries a password
        self._server_settings = server_settings
        self._clock = clock
        self._call = call
        self.worker: int | None = None
        self._lock_key = 0
        self._link: asyncpg.Connection | None = None
        self._link_busy = asyncio.Lock()  # one statement at a time on a connection
        self._on_lost: Callable[[], None] = lambda: None
        self._shards: Shards | None = None
        self._cut = False  # its link was lost and it has not joined again

    @property
    def channel(self) -> str:
        return f"tapis_{self._lock_key}"

    async def join(self, name: str, on_notice: Callable[[str], None],
                   on_lost: Callable[[], None], *, platform: str | None = None,
                   shards: Shards | None = None) -> int:
        self._on_lost = on_lost
        self._shards = shards
        try:
            link = await asyncpg.connect(self._dsn, timeout=JOIN_TIMEOUT,
                                         server_settings=self._server_settings)
        except DRIVER_ERRORS as error:
            raise Unreachable(f"cannot connect to PostgreSQL: {error}") from error
        try:
            # The lock before the row: a row whose lock is not held is a dead worker's, and
            # another process joining at the same moment would delete it as such.
            for _ in range(5):
                key = secrets.randbelow(2**31 - 2) + 1
                if not await link.fetchval("SELECT pg_try_advisory_lock($1, $2)",
                                           DRIVER_LOCK_SPACE, key):
                    continue
                worker = await link.fetchval(
                    "INSERT INTO workers (lock_key, name, started_at, platform, shard_count,"
                    " shard_ids) VALUES ($1, $2, $3, $4, $5, $6)"
                    " ON CONFLICT (lock_key) DO NOTHING RETURNING id",
                    key, name, self._clock(), platform,
                    shards.count if shards else None, list(shards.ids) if shards else None)
                if worker is not None:
                    break
                await link.execute("SELECT pg_advisory_unlock($1, $2)", DRIVER_LOCK_SPACE, key)
            else:
                raise StorageError("no free worker lock key")
            self._lock_key = key
            # Workers that died and drive nothing any more: every restart adds a row.
            await link.execute(
                f"WITH live AS ({_LIVE_WORKERS}) DELETE FROM workers w"
                " WHERE w.id NOT IN (SELECT id FROM live) AND NOT EXISTS"
                f" (SELECT 1 FROM tables t WHERE t.driver = w.id AND t.{IS_OPEN})")
            await link.add_listener(self.channel,
                                    lambda _c, _pid, _channel, payload: on_notice(payload))
        except BaseException as error:
            link.terminate()
            if isinstance(error, DRIVER_ERRORS):
                raise storage_error(error) from error
            raise
        link.add_termination_listener(self._lost)
        self._link, self.worker = link, int(worker)
        if self._cut:
            self._cut = False
            log.warning("worker %s joined again after its database connection was lost",
                        self.worker)
        return self.worker

    def _lost(self, link: "asyncpg.Connection | asyncpg.pool.PoolConnectionProxy[Any]"
              ) -> None:
        # Only the current link: one that ended before a rejoin says nothing of the new one.
        if link is self._link:
            self._link = None
            self._cut = True
            log.error("worker %s lost its database connection: it stops driving until it"
                      " joins again", self.worker)
            self._on_lost()

    def _joined(self) -> None:
        """Shares and claims are made under a live worker only: with its connection gone,
        its lock is free and its id is a dead worker's, whose tables others take over."""
        if self._cut:
            raise Unreachable(f"worker {self.worker} lost its database connection: not"
                              " joined again yet")

    async def leave(self) -> None:
        link, self._link = self._link, None
        if link is None:
            return
        async with self._link_busy:  # a census or claim still under way ends first
            await self._leave(link)

    async def _leave(self, link: asyncpg.Connection) -> None:
        try:
            await link.execute("UPDATE tables SET driver = NULL WHERE driver = $1", self.worker)
            await link.execute("DELETE FROM workers WHERE id = $1", self.worker)
            await asyncio.wait_for(link.close(), 5)
        except (*DRIVER_ERRORS, TimeoutError):
            link.terminate()

    async def census(self, platform: str) -> Census:
        self._joined()
        count, ids = self._shard_params()

        async def body(db: Connection) -> Census:
            row = await db.fetchrow(_CENSUS, platform, self.worker, count, ids)
            assert row is not None  # a SELECT without FROM has its one row
            return Census(int(row[0]), int(row[1]), dict(zip(row[2], row[3], strict=True)))

        return await self._on_link(body)

    async def _on_link(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """One statement on the worker's own connection (the pool's while it has none).

        Shares and claims are how a dead process's tables get a new driver within
        seconds: they must not queue for the pool behind every player's request, which is
        exactly when they are needed (a process died, its players' commands come here)."""
        link = self._link
        if link is None:
            return await self._call(fn, transaction=False)
        async with self._link_busy:
            try:
                return await fn(link)
            except DRIVER_ERRORS as error:
                raise storage_error(error) from error

    def _shard_params(self) -> tuple[int | None, list[int]]:
        shards = self._shards
        return (shards.count, list(shards.ids)) if shards is not None else (None, [])

    async def claim(self, platform: str, limit: int, *, home: bool = False
                    ) -> list[tuple[int, bool]]:
        self._joined()
        count, ids = self._shard_params()
        if limit <= 0 or (home and count is None):
            return []

        async def body(db: Connection) -> list[tuple[int, bool]]:
            rows = await db.fetch(_CLAIM, self.worker, platform, limit, home, count, ids)
            return [(int(r[0]), bool(r[1])) for r in rows]

        return await self._on_link(body)  # one statement: atomic on its own

    async def adopt(self, table_id: int) -> bool:
        self._joined()

        async def body(db: Connection) -> bool:
            return bool(await db.fetchval(
                f"WITH live AS ({_LIVE_WORKERS}) UPDATE tables SET driver = $1 WHERE id = $2"
                " AND (driver IS NULL OR driver = $1 OR driver NOT IN (SELECT id FROM live))"
                " RETURNING true", self.worker, table_id))

        return await self._call(body, transaction=True)

    async def release(self, table_ids: list[int]) -> None:
        async def body(db: Connection) -> None:
            await db.execute("UPDATE tables SET driver = NULL WHERE driver = $1"
                             " AND id = ANY($2::bigint[])", self.worker, table_ids)

        await self._call(body, transaction=True)

    async def tell_driver(self, table_id: int, notice: str) -> bool:
        async def body(db: Connection) -> bool:
            return bool(await db.fetchval(
                "SELECT pg_notify('tapis_' || w.lock_key, $2) IS NOT NULL"
                " FROM tables t JOIN workers w ON w.id = t.driver WHERE t.id = $1",
                table_id, notice))

        return await self._call(body, transaction=False)

    async def tell_workers(self, platform: str, notice: str) -> int:
        async def body(db: Connection) -> int:
            told = await db.fetch(
                f"WITH live AS ({_LIVE_WORKERS}) SELECT pg_notify('tapis_' || w.lock_key, $3)"
                "::text FROM workers w WHERE w.id IN (SELECT id FROM live)"
                " AND w.platform = $1 AND w.id <> $2", platform, self.worker, notice)
            return len(told)

        return await self._call(body, transaction=False)

    async def tell_worker(self, worker: int, notice: str) -> bool:
        async def body(db: Connection) -> bool:
            return bool(await db.fetchval(
                "SELECT pg_notify('tapis_' || lock_key, $2) IS NOT NULL FROM workers"
                " WHERE id = $1", worker, notice))

        return await self._call(body, transaction=False)

    async def note_home(self, platform: str, channel: str, home: int) -> None:
        async def body(db: Connection) -> None:
            await db.execute("INSERT INTO channel_homes (platform, channel, home)"
                             " VALUES ($1, $2, $3) ON CONFLICT (platform, channel)"
                             " DO UPDATE SET home = EXCLUDED.home", platform, channel, home)

        await self._call(body, transaction=True)
