"""SQLite storage behind `Repository`: the embedded default, through aiosqlite.

Every public method is one job on aiosqlite's connection thread, except the group commit
of moves, which runs in a writer process of its own (`db.sqlite_writer`; ":memory:" keeps
it on the thread): the whole transaction, `BEGIN IMMEDIATE` … `COMMIT` (or `ROLLBACK` on
any error), runs there in one go. So two transactions can never interleave, a read never
sees half a write, a cancelled caller never leaves a transaction open, and `commit_move`
costs one hand-off instead of four (measured on the thread: about twice the commit rate).
An asyncio.Lock around each job (the writer's batches included) keeps callers first-come
first-served, keeps the two connections from waiting on each other's write lock, and
guards the reconnect after a read-only fault.

Durability: WAL journal with `synchronous=FULL`, so a commit that returned survives a
power cut, not only a crash of the bot.
"""

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import aiosqlite

import db.statements as S
from db.migrate import load_migrations, migrate_sqlite
from db.ratings import RatedGame
from db.repository import (
    FINISHED,
    PLAYING,
    Deadline,
    ResultRow,
    StorageError,
    TableRow,
    Unstorable,
)
from db.rows import (
    deadline_params,
    table_row,
)
from db.sqlite_writer import Item, WriterFailed, WriterProcess
from db.statements import Body
from db.store import READ, WIPE, Mode, Store, change, refusal, stored_move
from db.store_ratings import rate_game
from db.transactions import (
    bound,
    configure,
    drive,
    each_in_savepoint,
    transaction,
    wiping_transaction,
)

T = TypeVar("T")
# The most moves a group commit takes: with twice as many jobs in flight
# (`bot.scheduler.IN_FLIGHT`), one group's moves are played while the last group commits.
# Unbounded, every move in flight joined one commit and the loop waited on it idle.
GROUP_MOST = 8
Connection = sqlite3.Connection

def _positional(sql: S.Sql, *names: str) -> str:
    """SQLite's text of `sql`, for the group commit's hot path, which binds tuples: its
    placeholders must take the values in the order `names`."""
    text, order = sql.render("sqlite")
    if order != names:
        raise AssertionError(f"{order} != {names}")
    return text


# The hot path binds tuples rather than building a statement's values by name.
COMMIT_MOVE = _positional(S.COMMIT_MOVE, "seq", "snapshot", "status", "now", "table_id",
                          "previous", "expected_updated_at", "expected_updated_at")
INSERT_MOVE = _positional(S.INSERT_MOVE, "table_id", "seq", "seat", "move", "actor", "now")
_INSERT_RESULT = _positional(S.INSERT_RESULT, "table_id", "seat", "user_id", "name",
                             "is_bot", "score", "rank")
_SET_DEADLINE = _positional(S.SET_DEADLINE, "table_id", "seat", "version", "due_at",
                            "remind_at", "reminded")
_CLEAR_DEADLINE = _positional(S.CLEAR_DEADLINE, "table_id")


def _commit_move(db: Connection, update: tuple[Any, ...], insert: tuple[Any, ...],
                 result_rows: list[tuple[Any, ...]], deadline_row: tuple[Any, ...] | None,
                 clear_deadline: bool, rating: RatedGame | None = None) -> TableRow:
    rows = db.execute(COMMIT_MOVE, update).fetchall()
    if not rows:
        table_id, seq = insert[0], insert[1]
        raise drive(db, refusal, table_id, f"move {seq}")
    db.execute(INSERT_MOVE, insert)
    if result_rows:
        db.executemany(_INSERT_RESULT, result_rows)
        if rating is not None:
            drive(db, rate_game, insert[0], insert[5], rating)
    if deadline_row is not None:
        db.execute(_SET_DEADLINE, deadline_row)
    elif clear_deadline:
        db.execute(_CLEAR_DEADLINE, (insert[0],))
    return table_row(rows[0])


def _stored_move(db: Connection, update: tuple[Any, ...], insert: tuple[Any, ...]
                 ) -> TableRow | None:
    """What `_commit_move(db, update, insert, …)` returned, if it was committed after all
    (`db.store.stored_move`)."""
    snapshot, status = update[1:3]
    return drive(db, stored_move, *insert, snapshot, status)


def _stored_moves(db: Connection, items: list[Item]) -> list[TableRow | None]:
    return [_stored_move(db, *args[:2]) if function is _commit_move else None
            for function, args in items]


# ---------------------------------------------------------------------------- repository


class SqliteRepository(Store):
    """`path` is a file name or ":memory:"; `busy_timeout` (seconds) is how long a write
    waits for another process's lock before it fails with StorageError.
    `writer_process=False` keeps a file's group commits on the connection's thread (they
    then compete with the event loop for the GIL: `db.sqlite_writer`)."""

    def __init__(
        self, path: str | os.PathLike[str], *, busy_timeout: float = 5.0,
        clock: Callable[[], float] = time.time, writer_process: bool = True,
    ) -> None:
        self.path = os.fspath(path)
        self.busy_timeout = busy_timeout
        self._clock = clock
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._reconnect = False
        self._moves: list[tuple[Item, asyncio.Future[Any]]] = []
        # A file's group commits run in a process of their own (`db.sqlite_writer`).
        self._writer = (WriterProcess(self.path, busy_timeout)
                        if writer_process and self.path != ":memory:" else None)
        self._flusher: asyncio.Task[None] | None = None
        # How well writes group: transactions committed by the group commit, and the
        # writes they carried (a benchmark's baseline groups its writes the same way).
        self.group_commits = 0
        self.grouped_writes = 0

    # ------------------------------------------------------------------ plumbing

    @staticmethod
    async def _job(db: aiosqlite.Connection, fn: Callable[..., T], *args: Any) -> T:
        # aiosqlite has no public "run this callable on the connection thread"; its
        # `_execute` is what every one of its own methods uses, unchanged since 0.17.
        return await db._execute(fn, db._conn, *args)

    async def _connect(self) -> aiosqlite.Connection:
        connection = aiosqlite.connect(self.path, timeout=self.busy_timeout,
                                       isolation_level=None)
        try:
            db = await connection
        except sqlite3.Error as error:
            # aiosqlite stops its worker thread on a failed connect without waiting for it;
            # a thread still finishing after the event loop closed prints "Event loop is
            # closed" tracebacks under our one-line error, so wait for it here.
            await asyncio.to_thread(connection._thread.join, 5)
            raise StorageError(f"cannot open {self.path}: {error}") from error
        try:
            await self._job(db, configure)
        except BaseException as error:
            await db.close()
            if isinstance(error, sqlite3.Error):
                raise StorageError(f"cannot open {self.path}: {error}") from error
            raise
        return db

    def _check_open(self) -> None:
        if self._db is None and not self._reconnect:
            raise StorageError("the repository is not open")

    async def _run(self, fn: Callable[..., T], *args: Any, write: bool = False,
                   wipe: bool = False) -> T:
        async with self._lock:
            return await self._run_locked(fn, *args, write=write, wipe=wipe)

    async def _run_locked(self, fn: Callable[..., T], *args: Any, write: bool = False,
                          wipe: bool = False) -> T:
        """The body of `_run`, for callers that already hold `self._lock`. A write with
        `wipe` leaves nothing it removed in the WAL (`wiping_transaction`)."""
        self._check_open()
        try:
            if self._db is None or (write and self._reconnect):
                await self._reopen()
            assert self._db is not None
            if not write:
                return await self._job(self._db, fn, *args)
            result = await self._job(self._db, wiping_transaction if wipe else transaction,
                                     fn, *args)
            self._reconnect = False
            return result
        except sqlite3.Error as error:
            code = getattr(error, "sqlite_errorcode", None) or 0
            # A connection opened while the file was read-only stays read-only
            # after the file is fixed: writes try a fresh one until one succeeds.
            # (Reads keep the old one; read-only is no obstacle to them.)
            if code & 0xFF == sqlite3.SQLITE_READONLY and self.path != ":memory:":
                self._reconnect = True
            raise StorageError(str(error)) from error
        except (OverflowError, ValueError, TypeError) as error:
            # An int beyond SQLite's 64 bits (seed, score), text it cannot encode (a lone
            # surrogate): this write can never succeed, whenever it is tried.
            raise Unstorable(f"{type(error).__name__}: {error}") from error

    async def _reopen(self) -> None:
        # Close the faulty connection first: SQLite shares per-file state (POSIX locks,
        # the -shm mapping) between the connections of one process, and nothing of the
        # read-only one should carry over. Should the fresh open fail, `_db` stays None
        # and the next call tries again.
        stale, self._db = self._db, None
        if stale is not None:
            with contextlib.suppress(sqlite3.Error):
                await stale.close()
        self._db = await self._connect()

    async def _write(self, body: Callable[..., T], *args: Any) -> T:
        return await self._run(body, *args, write=True)

    def _now(self) -> float:
        return self._clock()

    async def _do(self, mode: Mode, body: Callable[..., Body[T]], *args: Any) -> T:
        # The whole body is one job on the connection's thread: no hop per statement.
        return await self._run(drive, body, *args, write=mode != READ, wipe=mode == WIPE)

    # ---------------------------------------------------------------- lifecycle

    async def open(self) -> None:
        async with self._lock:
            if self._db is not None:
                return
            migrations = load_migrations()
            db = await self._connect()
            try:
                await self._job(db, migrate_sqlite, migrations)
            except BaseException as error:
                await db.close()
                if isinstance(error, sqlite3.Error):
                    raise StorageError(f"migrating {self.path} failed: {error}") from error
                raise
            self._db = db
            self._reconnect = False

    async def close(self) -> None:
        async with self._lock:
            db, self._db = self._db, None
            self._reconnect = False
            if self._writer is not None:
                await self._writer.stop()
            if db is not None:
                try:
                    await db.close()
                except sqlite3.Error as error:
                    raise StorageError(f"closing {self.path} failed: {error}") from error

    # -------------------------------------------------------------------- moves

    async def commit_move(
        self, table_id: int, *, seq: int, seat: int, move: str, actor: str, snapshot: str,
        status: str = PLAYING, results: list[ResultRow] | None = None,
        deadline: Deadline | None = None, clear_deadline: bool = False,
        expected_updated_at: float | None = None, rating: RatedGame | None = None,
    ) -> TableRow:
        now = self._clock()
        update = (seq, snapshot, FINISHED if results is not None else status, now, table_id,
                  seq - 1, expected_updated_at, expected_updated_at)
        insert = (table_id, seq, seat, move, actor, now)
        result_rows = [(table_id, r.seat, r.user_id, r.name, r.is_bot, r.score, r.rank)
                       for r in results or ()]
        deadline_row = deadline_params(deadline) if deadline is not None else None
        return cast(TableRow, await self._grouped(
            _commit_move, update, insert, result_rows, deadline_row, clear_deadline,
            rating if results is not None else None))

    async def _grouped(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run `function(db, *args)` in the next group commit (see `_flush_moves`).

        A module-level function and plain arguments, not a closure: the batch may be
        pickled for the writer process."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._moves.append(((function, args), future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_moves())
        return await future

    async def _flush_moves(self) -> None:
        """Group commit: the moves waiting when the connection frees up share one transaction.

        Each move runs inside its own savepoint, so a refused move (another press won)
        leaves the others in; the one COMMIT (one fsync) makes them all durable before any
        caller hears back. Moves of many tables then cost little more than one. A file's
        group commits run in the writer process (`db.sqlite_writer`: why), ":memory:"'s
        on the connection's thread (a second connection would see another database).
        """
        while self._moves:
            async with self._lock:
                batch, self._moves = self._moves[:GROUP_MOST], self._moves[GROUP_MOST:]
                self.group_commits += 1
                self.grouped_writes += len(batch)
                items = [item for item, _ in batch]
                try:
                    if self._writer is not None:
                        outcomes = await self._run_in_writer(items)
                    else:
                        outcomes = await self._run_locked(
                            each_in_savepoint, [bound(*item) for item in items], write=True)
                except BaseException as error:
                    failure = error if isinstance(error, StorageError) else StorageError(
                        str(error))
                    if not isinstance(error, Exception):
                        for _, future in batch:
                            if not future.done():
                                future.set_exception(failure)
                        raise
                    # A writer that died after its COMMIT took the answer with it: what
                    # was stored is read back, so that a move stored is never reported
                    # lost (its player told to try again, the table left behind).
                    try:
                        outcomes = [failure if row is None else row for row in
                                    await self._run_locked(_stored_moves, items)]
                    except StorageError:
                        outcomes = [failure] * len(batch)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    async def _run_in_writer(self, items: list[Item]) -> list[Any]:
        """`_run_locked` for a batch sent to the writer process, with the same errors."""
        assert self._writer is not None
        self._check_open()
        try:
            return await self._writer.run(items)
        except WriterFailed as error:
            # Whatever failed the whole transaction (read-only, full, I/O, a stopped
            # child), the next batch starts a fresh child with a fresh connection, as
            # `_run_locked` reopens after a read-only fault.
            await self._writer.stop()
            raise StorageError(str(error)) from error

    # ---------------------------------------------------------------- deadlines

    async def mark_reminded(self, table_id: int, version: int) -> None:
        """Only the deadline set for `version`: a reminder for a stale turn changes nothing."""
        # In the group commit: after a restart hundreds of reminders go out at once.
        await self._grouped(drive, change, S.MARK_REMINDED,
                            {"table_id": table_id, "version": version})
