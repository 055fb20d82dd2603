"""Every repository test runs on both backends: a SQLite file in pytest's tmp_path, and
PostgreSQL in a schema of its own (dropped afterwards) so runs never collide.

PostgreSQL comes from TAPIS_TEST_POSTGRES_URL (default: the local trust-auth server of
the development and CI machines). When it cannot be reached the postgres variants skip,
saying why; with CI=true they fail instead. A fake clock makes "oldest first" decidable
on both.
"""

import contextlib
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg
import pytest

from db.postgres import PostgresRepository
from db.repository import PLAYING, Repository, SeatRow, TableRow
from db.sqlite import SqliteRepository

POSTGRES_URL = os.environ.get(
    "TAPIS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
_unreachable: list[str | None] = []  # filled by the first probe: None, or why not


class Clock:
    """Advances one second per reading: every stored timestamp is distinct and ordered."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


async def postgres_unreachable() -> str | None:
    if not _unreachable:
        try:
            connection = await asyncpg.connect(POSTGRES_URL, timeout=5)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            _unreachable.append(
                f"PostgreSQL not reachable through TAPIS_TEST_POSTGRES_URL"
                f" ({type(error).__name__}: {error})"
            )
        else:
            await connection.close()
            _unreachable.append(None)
    return _unreachable[0]


@contextlib.asynccontextmanager
async def postgres_schema() -> AsyncIterator[str]:
    """A fresh, empty schema for one test; skips the test when there is no server."""
    reason = await postgres_unreachable()
    if reason is not None:
        if os.environ.get("CI") == "true":  # as the browser tests: CI runs every variant
            pytest.fail(f"PostgreSQL tests cannot run in CI: {reason}")
        pytest.skip(reason)
    name = f"tapis_test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(POSTGRES_URL)
    try:
        await admin.execute(f"CREATE SCHEMA {name}")
        yield name
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        await admin.close()


def postgres_repository(
    schema: str, *, clock: Callable[[], float] = time.time, lock_timeout: float = 5.0,
) -> PostgresRepository:
    return PostgresRepository(POSTGRES_URL, server_settings={"search_path": schema},
                              clock=clock, lock_timeout=lock_timeout)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """SQLite-only modules (file modes, SQLite locks, PRAGMAs) override this fixture."""
    return request.param


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tapis.db"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def make_repo(
    backend: str, db_path: Path, clock: Clock,
) -> AsyncIterator[Callable[[], Repository]]:
    """Another repository on the same storage, not yet opened: a restart, or a second
    process beside the first."""
    if backend == "sqlite":
        yield lambda: SqliteRepository(db_path, clock=clock, busy_timeout=0.2)
        return
    async with postgres_schema() as schema:
        yield lambda: postgres_repository(schema, clock=clock, lock_timeout=0.2)


@pytest.fixture
async def repo(make_repo: Callable[[], Repository]) -> AsyncIterator[Repository]:
    async with make_repo() as repository:
        yield repository


def seats(*names: str) -> list[SeatRow]:
    return [SeatRow(seat=i, user_id=f"u-{name}", name=name) for i, name in enumerate(names)]


async def new_table(
    repo: Repository, channel: str = "c1", platform: str = "telegram",
    game: str = "ochs_esel", players: tuple[str, ...] = ("ana", "bo"),
) -> TableRow:
    return await repo.create_table(
        platform=platform, channel=channel, game=game, options={"rounds": 3},
        settings={"deadline": 60}, seed=7, host=f"u-{players[0]}", seats=seats(*players),
    )


async def started_table(
    repo: Repository, channel: str = "c1", platform: str = "telegram",
    game: str = "ochs_esel", players: tuple[str, ...] = ("ana", "bo"),
) -> TableRow:
    table = await new_table(repo, channel, platform, game, players)
    return await repo.update_table(
        table.id, expected_version=0, status=PLAYING, reset_moves=True, snapshot="s0",
    )
