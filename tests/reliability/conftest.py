"""A table service on a real SQLite file for the reliability tests (see tests/bot/conftest)."""

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.settings import Settings
from bot.tables import Actor, Tables
from db.repository import TableRow
from db.sqlite import SqliteRepository
from tests.bot.conftest import RecordingSink

PLAYERS = [Actor(f"p{i}", f"Player{i}") for i in range(1, 6)]
# Short games of every kind; humans only, so nothing moves unless somebody acts.
GAMES: list[tuple[str, int, list[str]]] = [
    ("ochs-esel", 3, ["rounds=1"]),
    ("the-game", 2, []),
    ("nix-fur-ungut", 2, ["rounds=1"]),
    ("michigan", 3, ["hands_per_player=1"]),
]


class CountingRepository(SqliteRepository):
    """Records every committed move in the order the commits returned."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.committed: list[tuple[int, int]] = []  # (table id, version after the move)

    async def commit_move(self, table_id: int, **kwargs: Any) -> TableRow:  # type: ignore[override]
        row = await super().commit_move(table_id, **kwargs)
        self.committed.append((table_id, row.version))
        return row


class Service:
    def __init__(self, path: Path, *, busy_timeout: float = 5.0,
                 writer_process: bool = True) -> None:
        self.path = path
        self.clock = FakeClock()
        self.sink = RecordingSink()
        self.repo = CountingRepository(path, busy_timeout=busy_timeout,
                                       writer_process=writer_process)
        self.settings = Settings(_env_file=None, turn_deadline=300, bot_delay=0,
                                 default_lang="en")
        seeds = itertools.count(4242)
        self.tables = Tables(self.repo, self.sink, platform="test", settings=self.settings,
                             clock=self.clock, seeds=lambda: next(seeds))

    async def open(self) -> Tables:
        await self.repo.open()
        await self.tables.start(run_scheduler=False)
        return self.tables

    async def close(self) -> None:
        await self.tables.close()
        await self.repo.close()

    async def table(self, channel: str, game: str, seats: int, words: list[str]) -> int:
        """A started table of `seats` humans (PLAYERS[0] hosts) in `channel`."""
        reply = await self.tables.new_game(PLAYERS[0], channel, game, words)
        assert reply.ok and reply.table_id is not None, reply.text
        for player in PLAYERS[1:seats]:
            assert (await self.tables.join(player, channel)).ok
        assert (await self.tables.start_game(PLAYERS[0], channel)).ok
        await self.tables.settle()
        return reply.table_id


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    s = Service(tmp_path / "tapis.db")
    await s.open()
    yield s
    await s.close()
