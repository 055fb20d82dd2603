"""Sharded Discord processes on one PostgreSQL database: a table is driven by the process
whose shards hold its channel's guild (Discord sends that guild's presses to it alone);
while that process is down another drives it, and hands it back once it is up again."""

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

from bot.settings import Settings
from bot.tables import Tables
from db.postgres import PostgresRepository
from tests.bot.conftest import ALICE, BOB, RecordingSink
from tests.db.conftest import postgres_repository, postgres_schema

COUNT = 2
CHANNEL = "4242"


def _guild_on(shard: int, n: int = 0) -> int:
    return ((7_000 + n) * COUNT + shard) << 22 | 99


class Shard:
    """One `python -m bot` process holding one of the bot's two Discord shards."""

    def __init__(self, repo: PostgresRepository, shard: int) -> None:
        self.repo = repo
        self.sink = RecordingSink()
        settings = Settings(_env_file=None, turn_deadline=300, bot_delay=0.2, ping_delay=0,
                            default_lang="en", cluster_poll=0.2, discord_shard_count=COUNT,
                            discord_shard_ids=[shard])
        self.tables = Tables(repo, self.sink, platform="discord", settings=settings)

    def drives(self, table_id: int) -> bool:
        return self.tables.drives(table_id)

    async def die(self) -> None:
        """As a SIGKILL: timers stop and the database session (and its lock) goes."""
        driving = self.tables.driving
        assert driving is not None
        for task in driving._tasks:
            task.cancel()
        await self.tables.scheduler.stop()
        driving._cluster._link.terminate()  # type: ignore[attr-defined]


@contextlib.asynccontextmanager
async def _shards(schema: str, *ids: int) -> AsyncIterator[list[Shard]]:
    started = []
    try:
        for shard in ids:
            repo = postgres_repository(schema)
            await repo.open()
            process = Shard(repo, shard)
            await process.tables.start()
            started.append(process)
        yield started
    finally:
        for process in started:
            with contextlib.suppress(Exception):
                await process.tables.close()
            await process.repo.close()


async def _until(check: Callable[[], Awaitable[bool] | bool], seconds: float = 10.0) -> float:
    loop = asyncio.get_running_loop()
    started = loop.time()
    while True:
        result = check()
        if isinstance(result, Awaitable):
            result = await result
        if result:
            return loop.time() - started
        assert loop.time() - started < seconds, "not within the time allowed"
        await asyncio.sleep(0.05)


async def test_a_table_goes_home_survives_its_homes_death_and_goes_home_again():
    async with postgres_schema() as schema, _shards(schema, 0, 1) as (zero, one):
        # The table's channel is in a guild of shard 1; it is made through shard 0's
        # process (a command through another path, or before shard 1 was up).
        assert zero.tables.driving is not None
        await zero.tables.driving.note_home(CHANNEL, _guild_on(1))
        table_id = (await zero.tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=2"])
                    ).table_id
        assert (await zero.tables.join(BOB, CHANNEL)).ok
        assert (await zero.tables.add_bot(ALICE, CHANNEL)).ok
        # Its home process takes it, once the maker has handed it back.
        await _until(lambda: one.drives(table_id) and not zero.drives(table_id))
        assert (await one.tables.start_game(ALICE, CHANNEL)).ok
        left = await asyncio.gather(one.tables.leave(ALICE, CHANNEL),
                                    zero.tables.leave(BOB, CHANNEL))
        assert all(reply.ok for reply in left), [reply.text for reply in left]
        await _until(lambda: table_id in one.sink.tables)
        # Shard 1's process dies while the bots play: shard 0's takes the table over
        # within 10 s and the bots play on there.
        await one.die()
        version = (await zero.repo.get_table(table_id)).version  # type: ignore[union-attr]
        taken = await _until(lambda: zero.drives(table_id), seconds=10)
        assert taken < 10

        async def moved_on() -> bool:
            row = await zero.repo.get_table(table_id)
            return row is not None and (row.version > version + 2 or row.status == "finished")

        await _until(moved_on, seconds=15)
        assert table_id in zero.sink.tables  # redrawn by the new driver
        # Shard 1 is back: the table goes home as soon as it is idle between bot moves.
        async with _shards(schema, 1) as (back,):
            await _until(lambda: back.drives(table_id) and not zero.drives(table_id),
                         seconds=10)

            async def finished() -> bool:
                row = await back.repo.get_table(table_id)
                return row is not None and row.status == "finished"

            await _until(finished, seconds=60)


async def test_tables_homed_nowhere_are_shared_and_a_home_table_is_not():
    async with postgres_schema() as schema, _shards(schema, 0, 1) as (zero, one):
        assert zero.tables.driving is not None
        made = []
        # Four channels in guilds of shard 0; four whose guild was never told (shared).
        for n in range(8):
            channel = f"{5000 + n}"
            if n < 4:
                await zero.tables.driving.note_home(channel, _guild_on(0, n))
            made.append((await one.tables.new_game(ALICE, channel, "ochs-esel")).table_id)
        homed, shared = made[:4], made[4:]
        await _until(lambda: all(zero.drives(t) for t in homed))
        await _until(lambda: sum(one.drives(t) for t in shared) == 2
                     and sum(zero.drives(t) for t in shared) == 2)
        assert not any(one.drives(t) for t in homed)
