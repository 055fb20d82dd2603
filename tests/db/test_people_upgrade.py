"""A database written before a person's tables were indexed: after the upgrade, /mydata
still finds the tables whose settings name them (the index is filled from what is there)."""

import sqlite3

import asyncpg

from db import postgres
from db.migrate import load_migrations, migrate_postgres, migrate_sqlite
from db.sqlite import SqliteRepository
from tests.db.conftest import POSTGRES_URL, postgres_repository, postgres_schema

KICKED = '{"kicked":["u-zoe"],"takeovers":[["u-dee","Dee"]]}'
INSERT = ("INSERT INTO tables (platform, channel, game, options, settings, seed, status,"
          " host, version, created_at, updated_at) VALUES ('telegram', 'c', 'ochs_esel', '{}',"
          " SETTINGS, 1, 'finished', 'u-bo', 0, 1, 1)")


async def test_sqlite_tables_stored_before_the_index_are_found_after_it(tmp_path):
    path = tmp_path / "old.db"
    raw = sqlite3.connect(path, isolation_level=None)
    migrate_sqlite(raw, load_migrations()[:4])  # the schema before 0005_people
    raw.execute(INSERT.replace("SETTINGS", "?"), (KICKED,))
    raw.close()

    async with SqliteRepository(path) as repo:
        (zoe,) = await repo.user_tables("telegram", "u-zoe")
        (dee,) = await repo.user_tables("telegram", "u-dee")
        assert zoe.id == dee.id and zoe.settings["kicked"] == ["u-zoe"]


async def test_postgres_tables_stored_before_the_index_are_found_after_it():
    async with postgres_schema() as schema:
        raw = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
        try:
            await migrate_postgres(raw, load_migrations(postgres.MIGRATIONS_DIR)[:6])
            await raw.execute(INSERT.replace("SETTINGS", "$1"), KICKED)
        finally:
            await raw.close()

        async with postgres_repository(schema) as repo:
            (zoe,) = await repo.user_tables("telegram", "u-zoe")
            (dee,) = await repo.user_tables("telegram", "u-dee")
            assert zoe.id == dee.id and zoe.settings["kicked"] == ["u-zoe"]
