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
import functools
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, cast

import asyncpg

from db.migrate import POSTGRES_MIGRATIONS, load_migrations, migrate_postgres
from db.pg_cluster import DRIVER_LOCK_SPACE as DRIVER_LOCK_SPACE
from db.pg_cluster import PostgresCluster
from db.pg_errors import DRIVER_ERRORS, Connection, storage_error
from db.pg_ratings import RATE_END_CALL, RATED_END_INPUTS, InHand, Plan, people_of
from db.ratings import RatedGame
from db.repository import (
    FINISHED,
    PLAYING,
    Deadline,
    ResultRow,
    SeatRow,
    StorageError,
    TableRow,
    Unstorable,
    VersionConflict,
)
from db.rows import (
    RESULT_COLUMNS,
    TABLE_COLUMNS,
    table_row,
)
from db.statements import Body, Clash, Op
from db.store import TRANSACTION, WIPE, Mode, Store, refusal, stored_move
from db.store_ratings import rate_game

T = TypeVar("T")

MIGRATIONS_DIR = POSTGRES_MIGRATIONS


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


# A rated end the short way (`db.pg_ratings`): the same statement, which also writes the
# ratings computed beforehand, if nothing they came from moved; else it fails whole.
_RATED_END = _COMMIT_MOVE.replace(
    f"SELECT {TABLE_COLUMNS} FROM moved\n",
    f"SELECT {TABLE_COLUMNS}, entry FROM moved, {RATE_END_CALL} AS entry\n")


def _result_columns(results: Sequence[ResultRow]) -> list[list[Any]]:
    return [
        [r.seat for r in results], [r.user_id for r in results], [r.name for r in results],
        [bool(r.is_bot) for r in results], [r.score for r in results],
        [r.rank for r in results],
    ]


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
        self._in_hand = InHand()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<dsn hidden>, max_size={self.max_size})"

    def cluster(self) -> PostgresCluster:
        return PostgresCluster(self._dsn, self.server_settings, self._clock, self._call)

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
        except DRIVER_ERRORS as error:
            raise storage_error(error) from error

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
            except DRIVER_ERRORS as error:
                raise StorageError(f"cannot connect to PostgreSQL: {error}") from error
            try:
                async with pool.acquire() as db:
                    await migrate_postgres(db, migrations)
            except BaseException as error:
                pool.terminate()
                if isinstance(error, DRIVER_ERRORS):
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
            except DRIVER_ERRORS as error:
                pool.terminate()
                raise StorageError(f"closing PostgreSQL pool failed: {error}") from error

    # -------------------------------------------------------------------- tables

    async def create_table(
        self, *, platform: str, channel: str, game: str, options: dict[str, Any],
        settings: dict[str, Any], seed: int, host: str, seats: list[SeatRow],
        community: str | None = None,
    ) -> TableRow:
        table = await super().create_table(
            platform=platform, channel=channel, game=game, options=options,
            settings=settings, seed=seed, host=host, seats=seats, community=community)
        self._in_hand.table(table.id, community)  # its end needs not read it back
        return table

    # -------------------------------------------------------------------- moves

    async def commit_move(
        self, table_id: int, *, seq: int, seat: int, move: str, actor: str, snapshot: str,
        status: str = PLAYING, results: list[ResultRow] | None = None,
        deadline: Deadline | None = None, clear_deadline: bool = False,
        expected_updated_at: float | None = None, rating: RatedGame | None = None,
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
                raise await _drive(db, refusal, (table_id, f"move {seq}"))
            if rated is not None:
                await _drive(db, rate_game, (table_id, params[4], rated))
            return table_row(row)

        # A game's end with its rating: the short way when it can, else one transaction
        # of several statements.
        rated = rating if results is not None else None
        try:
            if rated is not None:
                shortly = await self._call(functools.partial(
                    self._rated_end, params=params, rated=rated), transaction=False)
                if shortly is not None:
                    return shortly
            return await self._call(body, transaction=rated is not None)
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

    async def _rated_end(self, db: Connection, *, params: tuple[Any, ...], rated: RatedGame
                         ) -> TableRow | None:
        """A rated end the short way (`db.pg_ratings`): from memory, then from a fresh
        read; None, with nothing stored, when it must go the long way, or when its move
        was refused (the long way says why)."""
        table_id, now = params[0], params[4]
        plan = self._in_hand.plan(table_id, now, rated)
        for attempt in ("remembered", "read"):
            if attempt == "read":
                row = await db.fetchrow(RATED_END_INPUTS, table_id, rated.game,
                                        people_of(rated))
                plan = None if row is None else self._in_hand.learn(table_id, now, rated,
                                                                    tuple(row))
            if plan is None:
                continue
            stored = await self._write_plan(db, params, plan)
            if stored is not False:
                if stored is not None:
                    self._in_hand.stored(plan, stored[-1], now, rated.game)
                return None if stored is None else table_row(stored)
        return None

    async def _write_plan(self, db: Connection, params: tuple[Any, ...], plan: Plan) -> Any:
        """The move and its ratings in one statement: its row; None when the move was
        refused; False when an input moved (nothing stored either way)."""
        try:
            return await db.fetchrow(_RATED_END, *params, *plan.arguments)
        except (asyncpg.SerializationError, asyncpg.IntegrityConstraintViolationError):
            self._in_hand.forget(plan.community)
            return False

    async def _stored_move(self, params: tuple[Any, ...]) -> TableRow | None:
        """What `commit_move` with `params` returned, if it was committed after all
        (`db.store.stored_move`)."""
        table_id, seq, snapshot, status, now, seat, move, actor = params[:8]
        return await self._do(TRANSACTION, stored_move, table_id, seq, seat, move, actor, now,
                              snapshot, status)
