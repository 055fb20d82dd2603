"""SQLite's transactions, shared by the connection's thread (`db.sqlite`) and the writer
process (`db.sqlite_writer`): how a connection is set up, one job as one transaction, and
a group commit's savepoint per write.
"""

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar, cast

from db.repository import StorageError, Unstorable, VersionConflict
from db.statements import Body, Clash, Op

T = TypeVar("T")
Connection = sqlite3.Connection


def configure(db: Connection) -> None:
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    # Deleted and overwritten rows are zeroed rather than left in free space: a name
    # removed by /forgetme (or a table by retention) must not stay readable in the file.
    db.execute("PRAGMA secure_delete = ON")


def transaction(db: Connection, body: Callable[..., T], *args: Any) -> T:
    """`body(db, *args)` in one transaction: committed, or rolled back on any error."""
    # IMMEDIATE takes the write lock up front: a deferred transaction that reads first
    # could not be upgraded later in WAL mode (SQLITE_BUSY_SNAPSHOT, no busy wait).
    db.execute("BEGIN IMMEDIATE")
    try:
        result = body(db, *args)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.rollback()
        raise
    return result


def wiping_transaction(db: Connection, body: Callable[..., T], *args: Any) -> T:
    """`transaction`, then the WAL copied back into the file and emptied: the pages as
    they were before live on there until a checkpoint (secure_delete only zeroes the main
    file's free space). One trip to the connection's thread for both."""
    result = transaction(db, body, *args)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return result


def each_in_savepoint(db: Connection, bodies: list[Callable[[Connection], T]],
                      ) -> list[T | Exception]:
    """Run each body in its own savepoint of the current transaction: a body that fails
    is undone alone, and its error is returned in its place."""
    outcomes: list[T | Exception] = []
    for body in bodies:
        db.execute("SAVEPOINT move")
        try:
            outcomes.append(body(db))
        except sqlite3.Error as error:
            if not isinstance(error, sqlite3.IntegrityError | sqlite3.DataError):
                # The database itself failed (read-only, full, I/O, damaged): the whole
                # batch fails, so that the repository's own recovery sees it.
                raise
            db.execute("ROLLBACK TO move")
            outcomes.append(move_error(error))
        except Exception as error:
            # This move alone is refused (another press won, a constraint, a value the
            # database cannot hold): it is undone and the other tables' moves go on.
            db.execute("ROLLBACK TO move")
            outcomes.append(move_error(error))
        db.execute("RELEASE move")
    return outcomes


def move_error(error: Exception) -> StorageError:
    """The refusal of one grouped write that failed on its own."""
    if isinstance(error, StorageError):
        return error
    if isinstance(error, sqlite3.IntegrityError):
        if "moves.table_id, moves.seq" in str(error):
            return VersionConflict(str(error))  # that seq is taken (as on PostgreSQL)
        # The version guard rules out a race: a row the schema refuses (a rank below 1, a
        # seat twice in the results) is refused whenever it is tried.
        return Unstorable(str(error))
    if isinstance(error, sqlite3.DataError):  # a string or blob too big for SQLite
        return Unstorable(str(error))
    return Unstorable(f"{type(error).__name__}: {error}")


def bound(function: Callable[..., T], args: tuple[Any, ...]) -> Callable[[Connection], T]:
    """`function(db, *args)` as a body of one argument (a grouped write's item)."""
    return lambda db: function(db, *args)


def drive(db: Connection, body: Callable[..., Body[T]], *args: Any) -> T:
    """Run a body (`db.store`) to its end on this connection, in the calling thread: each
    statement it yields is run and its answer sent straight back, so the whole body is
    one job (and, within `transaction`, one transaction)."""
    steps = body(*args)
    try:
        op = next(steps)
        while True:
            try:
                answer = _answer(db, op)
            except sqlite3.IntegrityError as error:
                code = getattr(error, "sqlite_errorcode", None)
                try:
                    op = steps.throw(Clash(str(error), foreign_key=(
                        code == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY)))
                except Clash:
                    raise error from None
                continue
            op = steps.send(answer)
    except StopIteration as stop:
        return cast(T, stop.value)


def _answer(db: Connection, op: Op) -> Any:
    if op.kind == "many":
        text, rows = op.bind_many("sqlite")
        return db.executemany(text, rows).rowcount
    text, values = op.bind("sqlite")
    cursor = db.execute(text, values)
    if op.kind == "all":
        return cursor.fetchall()
    if op.kind == "one":
        # All of them, so that an INSERT … RETURNING has run to its end.
        rows = cursor.fetchall()
        return rows[0] if rows else None
    return cursor.rowcount
