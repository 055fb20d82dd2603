"""Migrations: the numbered `NNNN_name.sql` files each database applies at start-up, and
each database's way of applying them (PostgreSQL's is handed an asyncpg connection; this
module does not import asyncpg, so that a SQLite deployment never loads it).
"""

import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from db.repository import StorageError

# pg_advisory_xact_lock key for migrations: "tapis" in ASCII. Database-wide, so two
# deployments in different schemas of one database merely take turns migrating.
MIGRATION_LOCK = 0x7461706973

SQLITE_MIGRATIONS = Path(__file__).with_name("migrations")
POSTGRES_MIGRATIONS = Path(__file__).with_name("migrations_pg")


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def load_migrations(directory: Path = SQLITE_MIGRATIONS) -> list[Migration]:
    """The `NNNN_name.sql` files of `directory`, numbered 1, 2, 3… without gaps."""
    found = []
    for path in directory.glob("*.sql"):
        match = re.fullmatch(r"(\d+)_(\w+)\.sql", path.name)
        if match is None:
            raise ValueError(f"migration file name is not NNNN_name.sql: {path.name}")
        found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.number)
    numbers = [migration.number for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3… without gaps, got {numbers}")
    return found


def split_statements(script: str) -> Iterator[str]:
    """Cut a migration into statements, so they can share one explicit transaction.

    `executescript` would commit before running, and run each statement on its own.
    `sqlite3.complete_statement` knows about strings, comments and trigger bodies.
    """
    buffer = ""
    *pieces, last = script.split(";")
    for piece in pieces:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \t\r\n;"):
                yield buffer
            buffer = ""
    buffer += last
    if buffer.strip():
        # A last statement without its ";", or a closing comment.
        if not sqlite3.complete_statement(buffer + "\n;"):
            raise ValueError(f"unterminated SQL statement: {buffer[:80]!r}")
        yield buffer + "\n;"


def migrate_sqlite(db: sqlite3.Connection, migrations: Sequence[Migration]) -> None:
    """Apply the pending migrations to a SQLite database, each with its `user_version`
    bump in one transaction.

    The version is read again under the write lock, so a second process starting at the
    same moment finds the work done instead of applying it twice.
    """
    latest = migrations[-1].number if migrations else 0
    (current,) = db.execute("PRAGMA user_version").fetchone()
    if current > latest:
        raise StorageError(
            f"database schema version {current} is newer than this code knows ({latest})"
        )
    for migration in migrations:
        if migration.number <= current:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            (current,) = db.execute("PRAGMA user_version").fetchone()
            if current < migration.number:
                for statement in split_statements(migration.sql):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {migration.number:d}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.rollback()
            raise
        current = migration.number


class AsyncConnection(Protocol):
    """What PostgreSQL's migrations use of an asyncpg connection."""

    async def execute(self, query: str, *args: Any) -> str: ...

    async def fetchval(self, query: str, *args: Any) -> Any: ...

    def transaction(self) -> AbstractAsyncContextManager[Any]: ...


async def _take_migration_lock(db: AsyncConnection) -> None:
    # The repository's lock_timeout is for moves; a process starting while another one
    # migrates must wait for it however long that takes, not fail after a few seconds.
    await db.execute("SET LOCAL lock_timeout = 0")
    await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)


async def migrate_postgres(db: AsyncConnection, migrations: Sequence[Migration]) -> None:
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
