"""Migrations: the numbered `NNNN_name.sql` files each database applies at start-up, and
SQLite's way of applying them (PostgreSQL's, which needs asyncpg, is in `db.postgres`).
"""

import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from db.repository import StorageError

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


def migrate(db: sqlite3.Connection, migrations: Sequence[Migration]) -> None:
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
