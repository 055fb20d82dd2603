"""Numbered migrations, connection settings and DATABASE_URL parsing."""

import sqlite3
from pathlib import Path

import pytest

from db import open_repository
from db.migrate import Migration, load_migrations, migrate_sqlite, split_statements
from db.postgres import PostgresRepository
from db.repository import StorageError
from db.sqlite import SqliteRepository
from tests.db.conftest import started_table

LATEST = load_migrations()[-1].number


@pytest.fixture
def backend() -> str:
    """SQLite's PRAGMAs and migration runner; test_postgres.py has PostgreSQL's."""
    return "sqlite"


def schema(path: Path) -> tuple[int, list[tuple[str, str]]]:
    with sqlite3.connect(path) as raw:
        version = raw.execute("PRAGMA user_version").fetchone()[0]
        objects = raw.execute("SELECT type, name FROM sqlite_master ORDER BY name").fetchall()
    return version, objects


async def test_an_empty_file_gets_every_migration(db_path):
    async with SqliteRepository(db_path):
        pass

    version, objects = schema(db_path)
    assert version == LATEST
    assert {"tables", "seats", "moves", "messages", "deadlines", "user_settings",
            "channel_settings", "results"} <= {name for kind, name in objects if kind == "table"}


async def test_reopening_applies_nothing_twice_and_keeps_the_data(db_path):
    async with SqliteRepository(db_path) as first:
        table = await started_table(first)
    before = schema(db_path)

    async with SqliteRepository(db_path) as second:
        assert (await second.get_table(table.id)).snapshot == "s0"
    assert schema(db_path) == before


def test_a_failing_migration_is_rolled_back_alone(db_path):
    good = Migration(1, "good", "CREATE TABLE kept (x INTEGER);")
    bad = Migration(2, "bad", "CREATE TABLE half (x INTEGER); INSERT INTO missing VALUES (1);")
    raw = sqlite3.connect(db_path, isolation_level=None)

    with pytest.raises(sqlite3.OperationalError, match="missing"):
        migrate_sqlite(raw, [good, bad])
    assert raw.execute("PRAGMA user_version").fetchone() == (1,)
    assert [n for (n,) in raw.execute("SELECT name FROM sqlite_master")] == ["kept"]

    fixed = Migration(2, "fixed", "CREATE TABLE whole (x INTEGER);")
    migrate_sqlite(raw, [good, fixed])
    migrate_sqlite(raw, [good, fixed])
    assert raw.execute("PRAGMA user_version").fetchone() == (2,)
    raw.close()


async def test_a_database_from_newer_code_is_not_touched(db_path):
    raw = sqlite3.connect(db_path)
    raw.execute(f"PRAGMA user_version = {LATEST + 1}")
    raw.close()

    repository = SqliteRepository(db_path)
    with pytest.raises(StorageError, match="newer"):
        await repository.open()
    with pytest.raises(StorageError, match="not open"):
        await repository.unfinished_tables()
    assert schema(db_path) == (LATEST + 1, [])


def test_migration_files_must_be_numbered_without_gaps(tmp_path):
    (tmp_path / "0001_first.sql").write_text("SELECT 1;")
    (tmp_path / "0003_third.sql").write_text("SELECT 3;")

    with pytest.raises(ValueError, match="without gaps"):
        load_migrations(tmp_path)


def test_statements_are_cut_at_semicolons_outside_comments_strings_and_triggers():
    script = """
        CREATE TABLE a (x TEXT DEFAULT 'p;q');  -- a comment; with a semicolon
        CREATE TRIGGER t BEFORE UPDATE ON a BEGIN SELECT RAISE(ABORT, 'no'); END;
        INSERT INTO a VALUES ('last without semicolon')
    """
    statements = list(split_statements(script))

    assert len(statements) == 3
    assert statements[1].rstrip().endswith("END;")
    raw = sqlite3.connect(":memory:")
    for statement in statements:
        raw.execute(statement)
    assert raw.execute("SELECT x FROM a").fetchall() == [("last without semicolon",)]
    with pytest.raises(sqlite3.IntegrityError, match="no"):
        raw.execute("UPDATE a SET x = 'y'")
    raw.close()
    with pytest.raises(ValueError, match="unterminated"):
        list(split_statements("SELECT 'open string;"))


async def test_the_log_is_append_only_even_for_other_tools(db_path, repo):
    table = await started_table(repo)
    await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player", snapshot="s1")

    with sqlite3.connect(db_path) as raw, pytest.raises(sqlite3.IntegrityError,
                                                        match="append-only"):
        raw.execute("UPDATE moves SET move = '2C'")


async def test_commits_are_durable_wal_with_full_sync_and_foreign_keys(db_path, repo):
    def pragmas(db: sqlite3.Connection) -> tuple[object, ...]:
        return tuple(db.execute(f"PRAGMA {name}").fetchone()[0]
                     for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"))

    assert await repo._run(pragmas) == ("wal", 2, 1, 200)


@pytest.mark.parametrize(("url", "path"), [
    ("sqlite:///tapis.db", "tapis.db"),
    ("sqlite:///data/tapis.db", "data/tapis.db"),
    ("sqlite:////var/lib/tapis/tapis.db", "/var/lib/tapis/tapis.db"),
    ("sqlite:///:memory:", ":memory:"),
])
def test_database_url_names_the_sqlite_file(url, path):
    repository = open_repository(url)
    assert isinstance(repository, SqliteRepository) and repository.path == path


@pytest.mark.parametrize("url", ["postgresql://tapis:secret@db/tapis",
                                 "postgres://tapis:secret@db/tapis",
                                 "postgresql+asyncpg://tapis:secret@db/tapis"])
def test_postgresql_url_names_the_server_and_the_repository_hides_the_password(url):
    repository = open_repository(url)

    assert isinstance(repository, PostgresRepository)
    assert repository._dsn == "postgresql://tapis:secret@db/tapis"
    assert "secret" not in repr(repository)


@pytest.mark.parametrize("url", ["tapis.db", "mysql://x/y", "sqlite://", "sqlite:///",
                                 "sqlite:///x.db?mode=ro", "postgresql"])
def test_other_database_urls_are_refused(url):
    with pytest.raises(ValueError, match="DATABASE_URL"):
        open_repository(url)


async def test_an_in_memory_database_works_for_the_console(clock):
    async with open_repository("sqlite:///:memory:") as repository:
        table = await started_table(repository)
        await repository.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                     snapshot="s1")
        assert [t.version for t in await repository.unfinished_tables()] == [1]
