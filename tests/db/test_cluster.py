"""PostgreSQL's side of several processes: workers alive while their lock is held, fair
claims, a dead worker's tables claimed as orphaned, dead workers' rows cleaned up."""

import asyncio

import asyncpg

from db.postgres import PostgresCluster
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
            await one.join("one", heard.append, lambda: None)
            await two.join("two", lambda _: None, lambda: None)
            assert await one.census("telegram") == (6, 2, set())
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
            assert await two.census("telegram") == (6, 2, {t for t, _ in second})
            # The first process dies: its connection, and so its lock, is gone.
            assert isinstance(one, PostgresCluster) and one._link is not None
            one._link.terminate()
            for _ in range(250):  # the server ends the dead session (and its lock) soon after
                if (await two.census("telegram"))[1] == 1:
                    break
                await asyncio.sleep(0.02)
            assert (await two.census("telegram"))[:2] == (6, 1)  # one worker left
            taken = await two.claim("telegram", 10)
            assert sorted(taken) == sorted((t, True) for t, _ in first)  # orphaned
            # A new worker cleans up the dead one's row: it drives nothing any more.
            three = repos[2].cluster()
            await three.join("three", lambda _: None, lambda: None)
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
