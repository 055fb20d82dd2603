"""Lobby changes are conditional writes: no seat is lost and a deal always matches the
stored seats, under cache pressure during a slow write, and when two services (two
processes) share one database.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.settings import Settings
from bot.tables import Tables
from db.repository import PLAYING, Repository, TableRow
from db.sqlite import SqliteRepository
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, RecordingSink
from tests.db.conftest import postgres_repository, postgres_schema

ERIN = type(ALICE)("u5", "Erin")


class SlowLobbyWrites(SqliteRepository):
    """The real repository, whose next seat write stalls until released (a disk that
    hangs): the moment another copy of the table can be read."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.stall_next = False
        self.stalled = asyncio.Event()
        self.release = asyncio.Event()

    async def update_table(self, table_id: int, **changes: Any) -> TableRow:
        if self.stall_next and changes.get("seats") is not None:
            self.stall_next = False
            self.stalled.set()
            await self.release.wait()
        return await super().update_table(table_id, **changes)


def _settings(**extra: Any) -> Settings:
    return Settings(_env_file=None, turn_deadline=0, bot_delay=0, ping_delay=0,
                    default_lang="en", **extra)


async def _stored_seats(repo: Repository, table_id: int) -> list[str]:
    return sorted(s.name for s in await repo.get_seats(table_id))


async def _deal_matches_seats(repo: Repository, table_id: int) -> None:
    row = await repo.get_table(table_id)
    assert row is not None and row.status == PLAYING
    seats = await repo.get_seats(table_id)
    from engine import games

    game = games.get(row.game)
    state = game.load(row.snapshot)
    assert len(game.view(state)["hand_sizes"]) == len(seats)


async def test_two_joins_racing_cache_pressure_and_a_slow_write_both_keep_their_seat(
        tmp_path):
    """A table whose write is under way stays in memory, however many others are used
    meanwhile: the second join waits for the first on the one copy, and sees its seat."""
    repo = SlowLobbyWrites(tmp_path / "tapis.db")
    await repo.open()
    cached = 10  # the smallest cache the settings allow
    tables = Tables(repo, RecordingSink(), platform="test",
                    settings=_settings(cached_tables=cached))
    try:
        table_id = (await tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        for i in range(cached):
            assert (await tables.new_game(DAVE, f"other-{i}", "the-game")).ok
        await tables.table_for_channel(CHANNEL)

        repo.stall_next = True
        bob = asyncio.create_task(tables.join(BOB, CHANNEL))
        await repo.stalled.wait()  # Bob's join holds the table's lock; its write hangs
        for i in range(cached):  # other tables' traffic would let an idle table go
            await tables.table_for_channel(f"other-{i}")
        assert tables.in_memory(table_id) is not None  # busy: kept, one copy
        carol = asyncio.create_task(tables.join(CAROL, CHANNEL))
        await asyncio.sleep(0.1)  # Carol's join waits for the table's lock
        assert not bob.done() and not carol.done()
        repo.release.set()
        replies = await asyncio.gather(bob, carol)
        assert all(r.ok for r in replies), [r.text for r in replies]
        assert await _stored_seats(repo, table_id) == ["Alice", "Bob", "Carol"]
        reply = await tables.start_game(ALICE, CHANNEL)
        assert reply.ok, reply.text
        await _deal_matches_seats(repo, table_id)
    finally:
        await tables.close()
        await repo.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def two_repos(request, tmp_path) -> AsyncIterator[Callable[[], Repository]]:
    """Two repositories on one database: what two processes of the bot share."""
    if request.param == "sqlite":
        yield lambda: SqliteRepository(tmp_path / "shared.db")
        return
    async with postgres_schema() as schema:
        yield lambda: postgres_repository(schema)


@contextlib.asynccontextmanager
async def _services(make_repo: Callable[[], Repository]) -> AsyncIterator[list[Tables]]:
    repos = [make_repo(), make_repo()]
    services = []
    try:
        for repo in repos:
            await repo.open()
            services.append(Tables(repo, RecordingSink(), platform="test",
                                   settings=_settings()))
        yield services
    finally:
        for service in services:
            await service.close()
        for repo in repos:
            await repo.close()


async def test_two_services_on_one_database_lose_no_seat_and_deal_for_the_stored_seats(
        two_repos):
    async with _services(two_repos) as (one, two):
        table_id = (await one.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        await two.table_for_channel(CHANNEL)  # both now hold a copy: Alice alone
        assert (await one.join(BOB, CHANNEL)).ok
        assert (await two.join(CAROL, CHANNEL)).ok  # on a copy without Bob
        assert await _stored_seats(one.repo, table_id) == ["Alice", "Bob", "Carol"]
        assert (await one.add_bot(ALICE, CHANNEL)).ok  # on a copy without Carol
        assert (await two.leave(BOB, CHANNEL)).ok  # on a copy without the bot
        stored = await _stored_seats(one.repo, table_id)
        assert stored[:2] == ["Alice", "Carol"] and len(stored) == 3
        # Options changed by one, seats by the other: both stay.
        assert (await one.set_options(ALICE, CHANNEL, ["rounds=2"])).ok
        assert (await two.join(DAVE, CHANNEL)).ok
        row = await one.repo.get_table(table_id)
        assert row.options["rounds"] == 2
        assert len(await one.repo.get_seats(table_id)) == 4
        # A start from the copy that has not seen Dave deals for the four stored seats.
        assert (await one.start_game(ALICE, CHANNEL)).ok
        await _deal_matches_seats(one.repo, table_id)
        # The other service's late join finds the game started (not a lobby to rewrite):
        # with a bot at the table, Erin queues to take its seat at the next round.
        assert (await two.join(ERIN, CHANNEL)).ok
        assert len(await one.repo.get_seats(table_id)) == 4
        row = await one.repo.get_table(table_id)
        assert row.settings["takeovers"] == [[ERIN.user_id, ERIN.name]]


async def test_many_joins_from_two_services_at_once_all_keep_their_seat(two_repos, caplog):
    people = [type(ALICE)(f"p{i}", f"P{i}") for i in range(10)]
    async with _services(two_repos) as (one, two):
        table_id = (await one.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        await two.table_for_channel(CHANNEL)
        replies = await asyncio.gather(*(
            (one if i % 2 else two).join(person, CHANNEL) for i, person in enumerate(people)))
        assert all(r.ok for r in replies), [r.text for r in replies if not r.ok]
        # A join that lost to the other service's took the stored lobby in and redrew it,
        # without taking the lobby for a game (whose screens have no state to show yet).
        assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert await _stored_seats(one.repo, table_id) == sorted(
            ["Alice", *(p.name for p in people)])
        seats = await one.repo.get_seats(table_id)
        assert [s.seat for s in seats] == list(range(len(seats)))


class AlwaysBeaten(SqliteRepository):
    """Another process changes the table just before each of this one's lobby writes."""

    async def update_table(self, table_id: int, **changes: Any) -> TableRow:
        if changes.get("expected_row") is not None:
            row = await self.get_table(table_id)
            assert row is not None
            await super().update_table(table_id, expected_version=row.version,
                                       settings={**row.settings, "other": row.updated_at})
        return await super().update_table(table_id, **changes)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_lobby_that_keeps_changing_asks_to_try_again_and_changes_nothing(
        tmp_path, lang):
    repo = AlwaysBeaten(tmp_path / "tapis.db")
    await repo.open()
    tables = Tables(repo, RecordingSink(), platform="test", settings=_settings())
    try:
        table_id = (await tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        assert (await tables.set_lang(BOB, CHANNEL, lang, personal=True)).ok
        reply = await tables.join(BOB, CHANNEL)
        assert (reply.ok, reply.text) == (False, t(lang, "lobby_busy"))
        assert await _stored_seats(repo, table_id) == ["Alice"]
    finally:
        await tables.close()
        await repo.close()
