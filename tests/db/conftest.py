"""Real SQLite files in pytest's tmp_path; a fake clock so "oldest first" is decidable."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.repository import PLAYING, SeatRow, TableRow
from db.sqlite import SqliteRepository


class Clock:
    """Advances one second per reading: every stored timestamp is distinct and ordered."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tapis.db"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def repo(db_path: Path, clock: Clock) -> AsyncIterator[SqliteRepository]:
    async with SqliteRepository(db_path, clock=clock, busy_timeout=0.2) as repository:
        yield repository


def seats(*names: str) -> list[SeatRow]:
    return [SeatRow(seat=i, user_id=f"u-{name}", name=name) for i, name in enumerate(names)]


async def new_table(
    repo: SqliteRepository, channel: str = "c1", platform: str = "telegram",
    game: str = "ochs_esel", players: tuple[str, ...] = ("ana", "bo"),
) -> TableRow:
    return await repo.create_table(
        platform=platform, channel=channel, game=game, options={"rounds": 3},
        settings={"deadline": 60}, seed=7, host=f"u-{players[0]}", seats=seats(*players),
    )


async def started_table(
    repo: SqliteRepository, channel: str = "c1", platform: str = "telegram",
    game: str = "ochs_esel", players: tuple[str, ...] = ("ana", "bo"),
) -> TableRow:
    table = await new_table(repo, channel, platform, game, players)
    return await repo.update_table(
        table.id, expected_version=0, status=PLAYING, reset_moves=True, snapshot="s0",
    )
