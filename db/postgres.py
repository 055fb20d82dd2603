"""PostgreSQL storage behind `Repository`: the scale-out path, through an asyncpg pool.

Same behaviour as db/sqlite.py, method for method; the differences are PostgreSQL's:

- Concurrency is the server's. Writes of several statements run in one transaction on
  one pooled connection (READ COMMITTED); the guarded UPDATEs (`version = expected`)
  wait for a concurrent writer's row lock, then re-check their WHERE against the
  committed row, so of two presses on one seq exactly one matches. `lock_timeout`
  bounds that wait the way SQLite's busy_timeout does.
- `commit_move`, the hot path, is one statement (data-modifying CTEs): one round trip,
  atomic on its own, no BEGIN/COMMIT.
- A statement that fails aborts the whole transaction, so where SQLite looks up the
  cause of a constraint failure after the fact, this code either asks first
  (ON CONFLICT) or fences the statement in a savepoint.
- Migrations are recorded in `schema_migrations` and applied under a transaction-level
  advisory lock, so two processes starting together apply each one exactly once.

Every driver or server error leaves as StorageError (or a subclass), with the
transaction rolled back; the pool replaces a broken connection on the next call.
"""

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, cast

import asyncpg

from db.migrate import POSTGRES_MIGRATIONS, Migration, load_migrations
from db.repository import (
    FINISHED,
    PLAYING,
    Census,
    Cluster,
    Deadline,
    ResultRow,
    Shards,
    StorageError,
    TableNotFound,
    TableRow,
    Unreachable,
    Unstorable,
    VersionConflict,
)
from db.rows import (
    IS_OPEN,
    RESULT_COLUMNS,
    TABLE_COLUMNS,
    table_row,
)
from db.statements import Body, Clash, Op
from db.store import TRANSACTION, WIPE, Mode, Store

T = TypeVar("T")
# What the pool lends is a proxy of a connection; `migrate` is also handed a plain one.
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

MIGRATIONS_DIR = POSTGRES_MIGRATIONS

# pg_advisory_xact_lock key for migrations: "tapis" in ASCII. Database-wide, so two
# deployments in different schemas of one database merely take turns migrating.
MIGRATION_LOCK = 0x7461706973
# pg_advisory_lock(DRIVER_LOCK_SPACE, lock_key): held by each live worker (see Cluster).
DRIVER_LOCK_SPACE = 0x74617073  # "taps"

log = logging.getLogger(__name__)

# Everything asyncpg or the network can raise: server errors, client-side errors (bad
# parameter types, a closed pool or connection, values out of int32/int64 range) and
# socket failures, TimeoutError included (an OSError since Python 3.11).
_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                  OSError)
# Seconds a worker's own connection may take to be made: a poll that rejoins during a
# network cut tries again at the next poll rather than hang.
JOIN_TIMEOUT = 5.0

# The hot path in one statement. Only a playing table at version seq - 1 takes the move;
# the move row and the results are inserted from the UPDATE's output, so they exist
# exactly when it matched. A duplicate seat in the results fails the whole statement.
_COMMIT_MOVE = f"""
WITH moved AS (
    UPDATE tables SET version = $2, snapshot = $3, status = $4, updated_at = $5
    WHERE id = $1 AND version = $2 - 1 AND status = 'playing'
      AND ($19::double precision IS NULL OR updated_at = $19)
    RETURNING {TABLE_COLUMNS}
), logged AS (
    INSERT INTO moves (table_id, seq, seat, move, actor, created_at)
    SELECT id, $2, $6, $7, $8, $5 FROM moved
), ranked AS (
    INSERT INTO results (table_id, {RESULT_COLUMNS})
    SELECT moved.id, r.* FROM moved,
        unnest($9::integer[], $10::text[], $11::text[], $12::boolean[], $13::bigint[],
               $14::integer[]) AS r
), timed AS (
    INSERT INTO deadlines (table_id, seat, version, due_at, remind_at, reminded)
    SELECT moved.id, $15::integer, moved.version, $16::double precision,
           $17::double precision, false FROM moved
    WHERE $15::integer IS NOT NULL
    ON CONFLICT (table_id) DO UPDATE SET seat = excluded.seat, version = excluded.version,
        due_at = excluded.due_at, remind_at = excluded.remind_at, reminded = false
), untimed AS (
    DELETE FROM deadlines WHERE $18::boolean AND table_id = (SELECT id FROM moved)
)
SELECT {TABLE_COLUMNS} FROM moved
"""


def _result_columns(results: Sequence[ResultRow]) -> list[list[Any]]:
    return [
        [r.seat for r in results], [r.user_id for r in results], [r.name for r in results],
        [bool(r.is_bot) for r in results], [r.score for r in results],
        [r.rank for r in results],
    ]


def _storage_error(error: BaseException) -> StorageError:
    if isinstance(error, asyncpg.UniqueViolationError) and (
        error.constraint_name == "moves_pkey"
    ):
        # Only reachable if the log and the version disagree; either way that seq is taken.
        return VersionConflict(f"move already recorded: {error}")
    name = type(error).__name__
    if _cut_off(error):
        return Unreachable(f"{name}: {error}" if str(error) else name)
    if isinstance(error, asyncpg.DataError):
        # A value PostgreSQL can never hold (past 64 bits, NUL or unencodable text):
        # retrying cannot help, unlike a lost connection or a lock timeout.
        return Unstorable(f"{name}: {error}")
    return StorageError(f"{name}: {error}" if str(error) else name)


def _cut_off(error: BaseException) -> bool:
    """The connection is gone or none can be made: the server restarts or the network is
    cut, not a refusal of the statement."""
    return isinstance(error, OSError | asyncpg.ConnectionDoesNotExistError
                      | asyncpg.CannotConnectNowError | asyncpg.AdminShutdownError
                      | asyncpg.CrashShutdownError) or (
        isinstance(error, asyncpg.InterfaceError) and "connection is closed" in str(error))


async def _refusal(db: Connection, table_id: int, what: str) -> StorageError:
    """Why a guarded UPDATE matched no row; only read on that failure path."""
    row = await db.fetchrow("SELECT version, status FROM tables WHERE id = $1", table_id)
    if row is None:
        return TableNotFound(table_id)
    version, status = row
    return VersionConflict(f"table {table_id} is at version {version} ({status}); {what} refused")


async def _drive(db: Connection, body: Callable[..., Body[T]], args: tuple[Any, ...]) -> T:
    """Run a body (`db.store`) to its end on this connection, awaiting each statement it
    yields and sending back its answer."""
    steps = body(*args)
    try:
        op = next(steps)
        while True:
            try:
                answer = await _answer(db, op)
            except asyncpg.IntegrityConstraintViolationError as error:
                try:
                    op = steps.throw(Clash(str(error), foreign_key=isinstance(
                        error, asyncpg.ForeignKeyViolationError)))
                except Clash:
                    raise error from None
                continue
            op = steps.send(answer)
    except StopIteration as stop:
        return cast(T, stop.value)


async def _answer(db: Connection, op: Op) -> Any:
    if op.kind == "many":
        text, rows = op.bind_many("postgres")
        await db.executemany(text, rows)
        return len(rows)
    text, values = op.bind("postgres")
    if op.fenced and db.is_in_transaction():
        async with db.transaction():
            return await _answer(db, dataclasses.replace(op, fenced=False))
    if op.kind == "all":
        return await db.fetch(text, *values)
    if op.kind == "one":
        return await db.fetchrow(text, *values)
    # The command tag ends with the count: "UPDATE 3", "INSERT 0 1".
    status = await db.execute(text, *values)
    return int(status.rpartition(" ")[2] or 0)


# ---------------------------------------------------------------------------- migrations


async def _take_migration_lock(db: Connection) -> None:
    # The repository's lock_timeout is for moves; a process starting while another one
    # migrates must wait for it however long that takes, not fail after a few seconds.
    await db.execute("SET LOCAL lock_timeout = 0")
    await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)


async def migrate(db: Connection, migrations: Sequence[Migration]) -> None:
    """Apply the pending migrations, each with its schema_migrations row in one transaction.

    Each transaction first takes the advisory lock and reads the applied numbers again,
    so a second process starting at the same moment waits, then finds the work done.
    """
    latest = migrations[-1].number if migrations else 0
    async with db.transaction():
        await _take_migration_lock(db)
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " number INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        current = await db.fetchval("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
    if current > latest:
        raise StorageError(
            f"database schema version {current} is newer than this code knows ({latest})"
        )
    for migration in migrations:
        if migration.number <= current:
            continue
        async with db.transaction():
            await _take_migration_lock(db)
            current = await db.fetchval(
                "SELECT COALESCE(MAX(number), 0) FROM schema_migrations"
            )
            if current < migration.number:
                # No arguments: the simple query protocol, which runs several statements.
                await db.execute(migration.sql)
                await db.execute(
                    "INSERT INTO schema_migrations (number, name) VALUES ($1, $2)",
                    migration.number, migration.name,
                )
        current = max(current, migration.number)


# ---------------------------------------------------------------------------- repository


class PostgresRepository(Store):
    """`dsn` is a postgresql:// or postgres:// URL (asyncpg's syntax, ?sslmode=… included).

    `lock_timeout` (seconds) is how long a write waits for another session's row lock
    before it fails with StorageError. `server_settings` go to every pooled connection,
    e.g. {"search_path": "tapis"} to keep the tables in their own schema.
    """

    def __init__(
        self, dsn: str, *, min_size: int = 1, max_size: int = 10, lock_timeout: float = 5.0,
        server_settings: dict[str, str] | None = None,
        clock: Callable[[], float] = time.time, close_timeout: float = 10.0,
    ) -> None:
        self._dsn = dsn  # not in repr or messages: it usually carries a password
        self.min_size = min_size
        self.max_size = max_size
        self.close_timeout = close_timeout
        self.server_settings = {
            "application_name": "tapis",
            "lock_timeout": str(max(1, round(lock_timeout * 1000))),
            **(server_settings or {}),
        }
        self._clock = clock
        self._pool: asyncpg.Pool | None = None
        self._lock = asyncio.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<dsn hidden>, max_size={self.max_size})"

    def cluster(self) -> "PostgresCluster":
        return PostgresCluster(self)

    # ------------------------------------------------------------------ plumbing

    async def _call(self, fn: Callable[[Connection], Awaitable[T]], *,
                    transaction: bool) -> T:
        pool = self._pool
        if pool is None:
            raise StorageError("the repository is not open")
        try:
            async with pool.acquire() as db:
                if not transaction:
                    return await fn(db)
                async with db.transaction():
                    return await fn(db)
        except StorageError:
            raise
        except _DRIVER_ERRORS as error:
            raise _storage_error(error) from error

    async def _run(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """One statement, or reads: each statement is atomic on its own."""
        return await self._call(fn, transaction=False)

    async def _write(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """Several statements that commit together or not at all."""
        return await self._call(fn, transaction=True)

    def _now(self) -> float:
        return self._clock()

    async def _do(self, mode: Mode, body: Callable[..., Body[T]], *args: Any) -> T:
        return await self._call(lambda db: _drive(db, body, args),
                                transaction=mode in (TRANSACTION, WIPE))

    # ---------------------------------------------------------------- lifecycle

    async def open(self) -> None:
        async with self._lock:
            if self._pool is not None:
                return
            migrations = load_migrations(MIGRATIONS_DIR)
            try:
                pool = await asyncpg.create_pool(
                    self._dsn, min_size=self.min_size, max_size=self.max_size,
                    server_settings=self.server_settings,
                )
            except _DRIVER_ERRORS as error:
                raise StorageError(f"cannot connect to PostgreSQL: {error}") from error
            try:
                async with pool.acquire() as db:
                    await migrate(db, migrations)
            except BaseException as error:
                pool.terminate()
                if isinstance(error, _DRIVER_ERRORS):
                    raise StorageError(f"migrating PostgreSQL failed: {error}") from error
                raise
            self._pool = pool

    async def close(self) -> None:
        async with self._lock:
            pool, self._pool = self._pool, None
            if pool is None:
                return
            try:
                # Waits for calls still running; a hung one must not hang the shutdown.
                await asyncio.wait_for(pool.close(), self.close_timeout)
            except TimeoutError:
                pool.terminate()
            except _DRIVER_ERRORS as error:
                pool.terminate()
                raise StorageError(f"closing PostgreSQL pool failed: {error}") from error

    # -------------------------------------------------------------------- moves

    async def commit_move(
        self, table_id: int, *, seq: int, seat: int, move: str, actor: str, snapshot: str,
        status: str = PLAYING, results: list[ResultRow] | None = None,
        deadline: Deadline | None = None, clear_deadline: bool = False,
        expected_updated_at: float | None = None,
    ) -> TableRow:
        timed = (None, None, None) if deadline is None else (
            deadline.seat, deadline.due_at, deadline.remind_at)
        params = (table_id, seq, snapshot, FINISHED if results is not None else status,
                  self._clock(), seat, move, actor, *_result_columns(results or []), *timed,
                  deadline is None and clear_deadline, expected_updated_at)

        async def body(db: Connection) -> TableRow:
            try:
                row = await db.fetchrow(_COMMIT_MOVE, *params)
            except asyncpg.IntegrityConstraintViolationError as error:
                if getattr(error, "constraint_name", None) == "moves_pkey":
                    raise
                # The version guard rules out a race: a row the schema refuses (a rank
                # below 1, a seat twice in the results) is refused whenever it is tried.
                raise Unstorable(f"{type(error).__name__}: {error}") from error
            if row is None:
                raise await _refusal(db, table_id, f"move {seq}")
            return table_row(row)

        try:
            return await self._run(body)
        except (VersionConflict, Unstorable):
            raise  # the server answered: nothing was stored
        except StorageError as failure:
            # The connection may have dropped after the COMMIT, the answer with it: what
            # was stored is read back, so that a move stored is never reported lost.
            try:
                stored = await self._stored_move(params)
            except StorageError:
                raise failure from None
            if stored is None:
                raise
            return stored

    async def _stored_move(self, params: tuple[Any, ...]) -> TableRow | None:
        """What `commit_move` with `params` returned, if it was committed after all: None
        when that very move is not stored (same seq, seat, notation, actor, timestamp)."""
        table_id, seq, snapshot, status, now, seat, move, actor = params[:8]

        async def body(db: Connection) -> TableRow | None:
            # FOR SHARE waits for the lost session's transaction, if it still runs, to end.
            stored = await db.fetchrow(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = $1 FOR SHARE", table_id)
            found = await db.fetchval(
                "SELECT 1 FROM moves WHERE table_id = $1 AND seq = $2 AND seat = $3"
                " AND move = $4 AND actor = $5 AND created_at = $6",
                table_id, seq, seat, move, actor, now)
            if stored is None or found is None:
                return None
            row = table_row(stored)
            return row if row.version == seq else dataclasses.replace(
                row, version=seq, snapshot=snapshot, status=status, updated_at=now)

        return await self._write(body)


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

    def __init__(self, repo: PostgresRepository) -> None:
        self._repo = repo
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
            link = await asyncpg.connect(self._repo._dsn, timeout=JOIN_TIMEOUT,
                                         server_settings=self._repo.server_settings)
        except _DRIVER_ERRORS as error:
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
                    key, name, self._repo._clock(), platform,
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
            if isinstance(error, _DRIVER_ERRORS):
                raise _storage_error(error) from error
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
        except (*_DRIVER_ERRORS, TimeoutError):
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
            return await self._repo._run(fn)
        async with self._link_busy:
            try:
                return await fn(link)
            except _DRIVER_ERRORS as error:
                raise _storage_error(error) from error

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

        return await self._repo._write(body)

    async def release(self, table_ids: list[int]) -> None:
        async def body(db: Connection) -> None:
            await db.execute("UPDATE tables SET driver = NULL WHERE driver = $1"
                             " AND id = ANY($2::bigint[])", self.worker, table_ids)

        await self._repo._write(body)

    async def tell_driver(self, table_id: int, notice: str) -> bool:
        async def body(db: Connection) -> bool:
            return bool(await db.fetchval(
                "SELECT pg_notify('tapis_' || w.lock_key, $2) IS NOT NULL"
                " FROM tables t JOIN workers w ON w.id = t.driver WHERE t.id = $1",
                table_id, notice))

        return await self._repo._run(body)

    async def tell_workers(self, platform: str, notice: str) -> int:
        async def body(db: Connection) -> int:
            told = await db.fetch(
                f"WITH live AS ({_LIVE_WORKERS}) SELECT pg_notify('tapis_' || w.lock_key, $3)"
                "::text FROM workers w WHERE w.id IN (SELECT id FROM live)"
                " AND w.platform = $1 AND w.id <> $2", platform, self.worker, notice)
            return len(told)

        return await self._repo._run(body)

    async def tell_worker(self, worker: int, notice: str) -> bool:
        async def body(db: Connection) -> bool:
            return bool(await db.fetchval(
                "SELECT pg_notify('tapis_' || lock_key, $2) IS NOT NULL FROM workers"
                " WHERE id = $1", worker, notice))

        return await self._repo._run(body)

    async def note_home(self, platform: str, channel: str, home: int) -> None:
        async def body(db: Connection) -> None:
            await db.execute("INSERT INTO channel_homes (platform, channel, home)"
                             " VALUES ($1, $2, $3) ON CONFLICT (platform, channel)"
                             " DO UPDATE SET home = EXCLUDED.home", platform, channel, home)

        await self._repo._write(body)
