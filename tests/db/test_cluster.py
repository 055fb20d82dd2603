"""PostgreSQL's side of several processes: workers alive while their lock is held, fair
claims, a dead worker's tables claimed as orphaned, dead workers' rows cleaned up."""

import asyncio

import asyncpg

from db.postgres import PostgresCluster, PostgresRepository
from db.repository import ASTRAY, HOME, SHARED, Census, Shards
from tests.db.conftest import POSTGRES_URL, new_table, postgres_repository, postgres_schema


async def test_a_dead_workers_tables_go_to_a_live_one_and_its_row_is_cleaned_up():
    async with postgres_schema() as schema:
        repos = [postgres_repository(schema) for _ in range(3)]
        for repo in repos:
            await repo.open()
        try:
            ids = [(await new_table(repos[0], channel=f"c{i}")).id for i in range(6)]
            one, two = repos[0].cluster(), repos[1].cluster()
            heard: list[str] = []
            await one.join("one", heard.append, lambda: None, platform="telegram")
            await two.join("two", lambda _: None, lambda: None, platform="telegram")
            assert await one.census("telegram") == Census(6, 2, {})
            first = await one.claim("telegram", 3)
            second = await two.claim("telegram", 10)
            assert len(first) == 3 and len(second) == 3  # nothing is claimed twice
            assert not any(orphaned for _, orphaned in first + second)
            assert {t for t, _ in first} | {t for t, _ in second} == set(ids)
            # The driver hears what another process tells it about its table.
            table = first[0][0]
            assert await two.tell_driver(table, '{"t": 1}')
            for _ in range(100):  # delivered on the driver's own connection, soon after
                if heard:
                    break
                await asyncio.sleep(0.02)
            assert heard == ['{"t": 1}']
            assert await two.census("telegram") == Census(6, 2, {t: SHARED for t, _ in second})
            # The first process dies: its connection, and so its lock, is gone.
            assert isinstance(one, PostgresCluster) and one._link is not None
            one._link.terminate()
            for _ in range(250):  # the server ends the dead session (and its lock) soon after
                if (await two.census("telegram")).workers == 1:
                    break
                await asyncio.sleep(0.02)
            census = await two.census("telegram")
            assert (census.shared, census.workers) == (6, 1)  # one worker left
            taken = await two.claim("telegram", 10)
            assert sorted(taken) == sorted((t, True) for t, _ in first)  # orphaned
            # A new worker cleans up the dead one's row: it drives nothing any more.
            three = repos[2].cluster()
            await three.join("three", lambda _: None, lambda: None, platform="telegram")
            db = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
            try:
                names = {r["name"] for r in await db.fetch("SELECT name FROM workers")}
            finally:
                await db.close()
            assert names == {"two", "three"}
            await two.leave()
            assert len(await three.claim("telegram", 10)) == 6  # a leaver hands all back
            await three.leave()
        finally:
            for repo in repos:
                await repo.close()


def _guild_on(shard: int, count: int, n: int) -> int:
    """A guild id Discord would send to `shard` of `count` (the shard is (id >> 22) % count)."""
    return ((1_000 + n) * count + shard) << 22 | 12345


async def test_tables_go_to_the_worker_whose_shards_hold_their_guild_and_back_after_a_death():
    async with postgres_schema() as schema:
        repos = [postgres_repository(schema) for _ in range(3)]
        for repo in repos:
            await repo.open()
        try:
            # Two sharded Discord workers (shard 0 and shard 1 of 2) and six tables: two in
            # each shard's guilds, two whose guild nobody told (they are shared).
            homes = {f"d{i}": _guild_on(i % 2, 2, i) for i in range(4)}
            ids = {channel: (await new_table(repos[0], channel=channel, platform="discord")).id
                   for channel in [*homes, "x1", "x2"]}
            zero, one = repos[0].cluster(), repos[1].cluster()
            await zero.join("zero", lambda _: None, lambda: None, platform="discord",
                            shards=Shards(2, (0,)))
            await one.join("one", lambda _: None, lambda: None, platform="discord",
                           shards=Shards(2, (1,)))
            for channel, guild in homes.items():
                await zero.note_home("discord", channel, guild)
            # A forged or repeated note changes nothing but that channel's home.
            await one.note_home("discord", "d0", homes["d0"])
            census = await zero.census("discord")
            assert (census.shared, census.workers, census.mine) == (2, 2, {})
            # Each claims its own first, whatever the order; the shared ones are split.
            assert {t for t, _ in await one.claim("discord", 10, home=True)} == {
                ids["d1"], ids["d3"]}
            assert {t for t, _ in await zero.claim("discord", 10, home=True)} == {
                ids["d0"], ids["d2"]}
            assert {t for t, _ in await zero.claim("discord", 10)} == {ids["x1"], ids["x2"]}
            assert await one.claim("discord", 10) == []  # nothing shared left
            # A Telegram worker is home for nothing and counts only among Telegram's.
            telegram = repos[2].cluster()
            await telegram.join("tg", lambda _: None, lambda: None, platform="telegram")
            assert await telegram.claim("discord", 10) == []
            assert await telegram.claim("telegram", 10, home=True) == []
            assert (await zero.census("discord")).workers == 2
            # Shard 1's process dies: its tables are no one's home now, shared, and the other
            # takes them over as orphans.
            assert isinstance(one, PostgresCluster) and one._link is not None
            one._link.terminate()
            for _ in range(250):
                if (await zero.census("discord")).workers == 1:
                    break
                await asyncio.sleep(0.02)
            census = await zero.census("discord")
            assert census.shared == 4 and census.workers == 1
            assert await zero.claim("discord", 10, home=True) == []
            assert sorted(await zero.claim("discord", 10)) == sorted(
                [(ids["d1"], True), (ids["d3"], True)])
            census = await zero.census("discord")
            assert census.mine == {ids["d0"]: HOME, ids["d2"]: HOME, ids["d1"]: SHARED,
                                   ids["d3"]: SHARED, ids["x1"]: SHARED, ids["x2"]: SHARED}
            # Shard 1 is back: its tables are astray where they are, and once handed back
            # its process claims them as its own again.
            back = repos[1].cluster()
            await back.join("one again", lambda _: None, lambda: None, platform="discord",
                            shards=Shards(2, (1,)))
            census = await zero.census("discord")
            assert census.shared == 2
            assert {t for t, kind in census.mine.items() if kind == ASTRAY} == {
                ids["d1"], ids["d3"]}
            assert await back.claim("discord", 10, home=True) == []  # still driven
            await zero.release([ids["d1"], ids["d3"]])
            assert {t for t, _ in await back.claim("discord", 10, home=True)} == {
                ids["d1"], ids["d3"]}
            for cluster in (zero, back, telegram):
                await cluster.leave()
        finally:
            for repo in repos:
                await repo.close()


async def test_workers_joining_at_once_all_stay_registered():
    # Each join deletes the rows of dead workers: a row must never look dead while its
    # process is still joining (it would be deleted, and its tables claimed from it).
    async with postgres_schema() as schema:
        repos = [postgres_repository(schema) for _ in range(8)]
        for repo in repos:
            await repo.open()
        try:
            clusters = [repo.cluster() for repo in repos]
            for _ in range(3):
                await asyncio.gather(*(c.join(f"w{n}", lambda _: None, lambda: None,
                                              platform="telegram")
                                       for n, c in enumerate(clusters)))
                assert (await clusters[0].census("telegram")).workers == len(clusters)
                for cluster in clusters:
                    await cluster.leave()
        finally:
            for repo in repos:
                await repo.close()


async def test_a_dead_workers_tables_are_claimed_while_every_pooled_connection_is_busy():
    """A process died and its players' commands now all reach this one: its pool is busy
    with them, and the census and claim that give the dead one's tables a driver must not
    queue behind them."""
    async with postgres_schema() as schema:
        dying = postgres_repository(schema)
        busy = PostgresRepository(POSTGRES_URL, server_settings={"search_path": schema},
                                  max_size=1)
        await dying.open()
        await busy.open()
        try:
            ids = [(await new_table(dying, channel=f"c{i}")).id for i in range(3)]
            one, two = dying.cluster(), busy.cluster()
            await one.join("one", lambda _: None, lambda: None, platform="telegram")
            await two.join("two", lambda _: None, lambda: None, platform="telegram")
            assert len(await one.claim("telegram", 10)) == 3
            assert isinstance(one, PostgresCluster) and one._link is not None
            one._link.terminate()
            pool = busy._pool
            assert pool is not None
            async with pool.acquire():  # the one pooled connection, held by a slow request
                for _ in range(250):
                    census = await asyncio.wait_for(two.census("telegram"), 2)
                    if census.workers == 1:
                        break
                    await asyncio.sleep(0.02)
                assert census.shared == 3
                taken = await asyncio.wait_for(two.claim("telegram", 10), 2)
            assert sorted(taken) == [(t, True) for t in sorted(ids)]
        finally:
            await busy.close()
            await dying.close()
