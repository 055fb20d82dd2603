"""PostgreSQL's own side: schema_migrations under an advisory lock, server-side faults
(row locks, killed connections, cancelled callers, an unreachable server), values
PostgreSQL refuses, and two pools racing through a whole game."""

import asyncio
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest

from db.migrate import MIGRATION_LOCK, Migration, load_migrations, migrate_postgres
from db.postgres import MIGRATIONS_DIR, PostgresRepository
from db.repository import (
    CANCELLED,
    LOBBY,
    PLAYING,
    SeatRow,
    StorageError,
    TableExists,
    VersionConflict,
)
from tests.db.conftest import POSTGRES_URL, postgres_repository, postgres_schema, started_table

LATEST = load_migrations(MIGRATIONS_DIR)[-1].number


@pytest.fixture
async def schema() -> AsyncIterator[str]:
    async with postgres_schema() as name:
        yield name


@pytest.fixture
async def raw(schema: str) -> AsyncIterator[asyncpg.Connection]:
    """Another tool on the same database, e.g. psql."""
    connection = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
    try:
        yield connection
    finally:
        await connection.close()


def tagged(schema: str, **kwargs: float) -> PostgresRepository:
    """A repository whose sessions can be found in pg_stat_activity by the schema name."""
    return PostgresRepository(POSTGRES_URL, server_settings={
        "search_path": schema, "application_name": schema}, **kwargs)


async def applied(raw: asyncpg.Connection) -> list[int]:
    return [n for (n,) in await raw.fetch("SELECT number FROM schema_migrations ORDER BY 1")]


async def test_an_empty_schema_gets_every_migration_and_remembers_them(schema, raw):
    async with postgres_repository(schema):
        pass

    assert await applied(raw) == list(range(1, LATEST + 1))
    tables = {name for (name,) in await raw.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    assert {"tables", "seats", "moves", "messages", "deadlines", "user_settings",
            "channel_settings", "results", "schema_migrations"} <= tables


async def test_processes_starting_together_apply_each_migration_once(schema, raw):
    repositories = [postgres_repository(schema) for _ in range(4)]
    try:
        await asyncio.gather(*(r.open() for r in repositories))
        table = await started_table(repositories[0])
        assert (await repositories[3].get_table(table.id)).snapshot == "s0"
    finally:
        await asyncio.gather(*(r.close() for r in repositories))

    assert await applied(raw) == list(range(1, LATEST + 1))


async def test_a_process_starting_during_a_long_migration_waits_for_it(schema, raw):
    async with raw.transaction():
        await raw.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        repository = postgres_repository(schema, lock_timeout=0.1)
        opening = asyncio.create_task(repository.open())
        await asyncio.sleep(0.5)
        assert not opening.done()
        assert await raw.fetchval("SELECT to_regclass('tables')") is None
    try:
        await opening
        assert await repository.unfinished_tables() == []
    finally:
        await repository.close()
    assert await applied(raw) == list(range(1, LATEST + 1))


async def test_a_failing_migration_is_rolled_back_alone(raw):
    good = Migration(1, "good", "CREATE TABLE kept (x INTEGER);")
    bad = Migration(2, "bad", "CREATE TABLE half (x INTEGER); INSERT INTO missing VALUES (1);")

    with pytest.raises(asyncpg.UndefinedTableError, match="missing"):
        await migrate_postgres(raw, [good, bad])
    assert await applied(raw) == [1]
    assert await raw.fetchval("SELECT to_regclass('half')") is None

    fixed = Migration(2, "fixed", "CREATE TABLE whole (x INTEGER);")
    await migrate_postgres(raw, [good, fixed])
    await migrate_postgres(raw, [good, fixed])
    assert await applied(raw) == [1, 2]


async def test_a_database_from_newer_code_is_not_touched(schema, raw):
    async with postgres_repository(schema):
        pass
    await raw.execute("INSERT INTO schema_migrations (number, name) VALUES ($1, 'future')",
                      LATEST + 1)

    repository = postgres_repository(schema)
    with pytest.raises(StorageError, match="newer"):
        await repository.open()
    with pytest.raises(StorageError, match="not open"):
        await repository.unfinished_tables()
    assert await applied(raw) == [*range(1, LATEST + 1), LATEST + 1]


async def test_the_log_is_append_only_even_for_other_tools(schema, raw):
    async with postgres_repository(schema) as repo:
        table = await started_table(repo)
        await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                               snapshot="s1")

    with pytest.raises(asyncpg.RaiseError, match="append-only"):
        await raw.execute("UPDATE moves SET move = '2C'")


async def test_a_row_locked_by_another_session_fails_after_the_lock_timeout(schema, raw):
    async with postgres_repository(schema, lock_timeout=0.2) as repo:
        table = await started_table(repo)
        async with raw.transaction():
            await raw.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table.id)
            started = time.monotonic()
            with pytest.raises(StorageError, match="lock timeout"):
                await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                       snapshot="s1")
            with pytest.raises(StorageError, match="lock timeout"):
                await repo.update_table(table.id, expected_version=0, status=CANCELLED,
                                        seats=[SeatRow(0, "u-zed", "zed")])
            assert 0.3 <= time.monotonic() - started < 3
            # Readers never wait for writers, so the bot can still show the table.
            assert (await repo.get_table(table.id)).version == 0

        moved = await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                       snapshot="s1")
        assert (moved.version, moved.status) == (1, PLAYING)
        assert [s.name for s in await repo.get_seats(table.id)] == ["ana", "bo"]


async def waiting_session(raw: asyncpg.Connection, schema: str) -> int:
    """The pid of the repository's session once it waits for a row lock."""
    for _ in range(200):
        pid = await raw.fetchval(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1"
            " AND wait_event_type = 'Lock'", schema)
        if pid is not None:
            return pid
        await asyncio.sleep(0.01)
    raise AssertionError("the repository never waited for the lock")


async def test_a_connection_killed_mid_transaction_keeps_nothing_and_the_pool_recovers(
    schema, raw,
):
    async with tagged(schema) as repo:
        table = await started_table(repo)
        async with raw.transaction():
            await raw.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table.id)
            edit = asyncio.create_task(repo.update_table(
                table.id, expected_version=0, status=CANCELLED,
                seats=[SeatRow(0, "u-zed", "zed")]))
            await raw.execute("SELECT pg_terminate_backend($1)",
                              await waiting_session(raw, schema))
            with pytest.raises(StorageError):
                await edit

        assert (await repo.get_table(table.id)).status == PLAYING
        assert [s.name for s in await repo.get_seats(table.id)] == ["ana", "bo"]
        await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                               snapshot="s1")
        assert [m.move for m in await repo.moves(table.id)] == ["7H"]


async def test_a_cancelled_caller_leaves_no_transaction_open(schema, raw):
    async with tagged(schema) as repo:
        table = await started_table(repo)
        async with raw.transaction():
            await raw.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table.id)
            edit = asyncio.create_task(repo.update_table(
                table.id, expected_version=0, status=CANCELLED,
                seats=[SeatRow(0, "u-zed", "zed")]))
            await waiting_session(raw, schema)
            edit.cancel()
            with pytest.raises(asyncio.CancelledError):
                await edit

        stuck = await raw.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1"
            " AND state LIKE 'idle in transaction%'", schema)
        assert stuck == 0
        assert [s.name for s in await repo.get_seats(table.id)] == ["ana", "bo"]
        cancelled = await repo.update_table(table.id, expected_version=0, status=CANCELLED)
        assert cancelled.status == CANCELLED


async def test_an_unreachable_server_is_a_storage_error_that_hides_the_password():
    repository = PostgresRepository("postgresql://tapis:secret@127.0.0.1:1/tapis")

    with pytest.raises(StorageError, match="cannot connect") as refused:
        await repository.open()
    assert "secret" not in str(refused.value)
    with pytest.raises(StorageError, match="not open"):
        await repository.get_table(1)
    await repository.close()


async def test_a_nul_character_is_refused_whole_because_postgresql_text_cannot_hold_it(
    schema,
):
    # SQLite stores it; PostgreSQL's TEXT cannot. Chat platforms strip NUL from names,
    # so this only documents that the refusal is a StorageError and keeps nothing.
    async with postgres_repository(schema) as repo:
        with pytest.raises(StorageError):
            await repo.create_table(platform="telegram", channel="c1", game="g", options={},
                                    settings={}, seed=1, host="a",
                                    seats=[SeatRow(0, "a", "nul\x00name")])
        assert await repo.open_table_in("telegram", "c1") is None


async def test_two_pools_racing_through_a_whole_game_apply_every_seq_once(schema):
    async with postgres_repository(schema) as here, postgres_repository(schema) as there:
        table = await started_table(here)
        for seq in range(1, 21):
            outcomes = await asyncio.gather(*(
                r.commit_move(table.id, seq=seq, seat=0, move=f"{name}{seq}", actor="player",
                              snapshot=f"{name}{seq}")
                for r, name in [(here, "h"), (there, "t")] * 3
            ), return_exceptions=True)
            winners = [o for o in outcomes if not isinstance(o, BaseException)]
            assert len(winners) == 1
            assert all(isinstance(o, VersionConflict) for o in outcomes if o is not winners[0])

        log = await there.moves(table.id)
        assert [m.seq for m in log] == list(range(1, 21))
        assert (await here.get_table(table.id)).snapshot == log[-1].move


async def test_a_table_reopened_while_another_pool_opens_one_in_the_channel(schema):
    async with postgres_repository(schema) as here, postgres_repository(schema) as there:
        old = await started_table(here, channel="c1")
        await here.update_table(old.id, expected_version=0, status=CANCELLED)

        outcomes = await asyncio.gather(
            here.update_table(old.id, expected_version=0, status=LOBBY),
            started_table(there, channel="c1"),
            return_exceptions=True,
        )
        assert sum(isinstance(o, TableExists) for o in outcomes) == 1
        (open_table,) = await here.unfinished_tables()
        assert all(o.table_id == open_table.id for o in outcomes if isinstance(o, TableExists))
