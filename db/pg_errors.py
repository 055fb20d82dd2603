"""PostgreSQL's connections and errors, shared by the repository (`db.postgres`) and the
cluster (`db.pg_cluster`): every driver or server error leaves as StorageError (or a
subclass)."""

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

import asyncpg

from db.repository import StorageError, Unreachable, Unstorable, VersionConflict

T = TypeVar("T")
# What the pool lends is a proxy of a connection; `migrate` is also handed a plain one.
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

# Everything asyncpg or the network can raise: server errors, client-side errors (bad
# parameter types, a closed pool or connection, values out of int32/int64 range) and
# socket failures, TimeoutError included (an OSError since Python 3.11).
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                  OSError)


class Calls(Protocol):
    """The repository's way to run `fn` on a pooled connection, in a transaction or not,
    with its errors as StorageError."""

    async def __call__(self, fn: Callable[[Connection], Awaitable[T]], *,
                       transaction: bool) -> T: ...


def storage_error(error: BaseException) -> StorageError:
    if isinstance(error, asyncpg.UniqueViolationError) and (
        error.constraint_name == "moves_pkey"
    ):
        # Only reachable if the log and the version disagree; either way that seq is taken.
        return VersionConflict(f"move already recorded: {error}")
    name = type(error).__name__
    if cut_off(error):
        return Unreachable(f"{name}: {error}" if str(error) else name)
    if isinstance(error, asyncpg.DataError):
        # A value PostgreSQL can never hold (past 64 bits, NUL or unencodable text):
        # retrying cannot help, unlike a lost connection or a lock timeout.
        return Unstorable(f"{name}: {error}")
    return StorageError(f"{name}: {error}" if str(error) else name)


def cut_off(error: BaseException) -> bool:
    """The connection is gone or none can be made: the server restarts or the network is
    cut, not a refusal of the statement."""
    return isinstance(error, OSError | asyncpg.ConnectionDoesNotExistError
                      | asyncpg.CannotConnectNowError | asyncpg.AdminShutdownError
                      | asyncpg.CrashShutdownError) or (
        isinstance(error, asyncpg.InterfaceError) and "connection is closed" in str(error))
