"""PostgreSQL's short way for a rated end (`db.pg_ratings`): ratings computed from what a
process remembers, or read outside the transaction, are written only if nothing they
came from moved since; else the end is computed again, then goes the long way (which locks
before it reads), and every game counts once, from the ratings just before it in the
log. Games ending at the same moment in two processes, and /forgetme while one ends."""

import asyncio
import dataclasses
from typing import Any

import asyncpg
import pytest

import db.postgres
from bot.ratings import bot
from db import statements as S
from db.postgres import PostgresRepository
from db.ratings import RatedGame
from db.repository import PLAYING, Repository, ResultRow
from tests.db.conftest import POSTGRES_URL, postgres_repository, seats
from tests.db.test_ratings import COMMUNITY, RATER, everything, finish


@pytest.fixture
def backend() -> str:
    return "postgres"


async def test_an_end_after_another_process_rated_the_same_people_counts_from_theirs(
        repo, make_repo):
    async with make_repo() as other:
        for number in range(6):  # each process remembers the ratings it wrote last
            process = (repo, other)[number // 2 % 2]
            await finish(process, [("u:ana", 1 + number % 2), ("u:bo", 2 - number % 2),
                                   (bot("easy"), 3)], channel=f"c{number}")

    season = (await repo.newest_rating())[0]
    (ana,) = await repo.player_ratings(COMMUNITY, "u:ana", season)
    assert ana.games == 6
    incremental = await everything(repo)
    await repo.rebuild_ratings(RATER)
    assert await everything(repo) == incremental  # none was rated from stale numbers


async def test_a_forgotten_person_who_plays_again_starts_afresh(repo):
    for number in range(3):
        await finish(repo, [("u:u-ana", 1), ("u:u-bo", 2)], channel=f"c{number}")
    await repo.forget_user("telegram", "u-ana", names={}, default_name="a former player")

    await finish(repo, [("u:u-ana", 1), ("u:u-bo", 2)], channel="c9")

    season = (await repo.newest_rating())[0]
    (ana,) = await repo.player_ratings(COMMUNITY, "u:u-ana", season)
    assert ana.games == 1
    assert ana.history == [ana.shown]
    incremental = await everything(repo)
    await repo.rebuild_ratings(RATER)
    assert await everything(repo) == incremental


PLACINGS = [("u:ana", 1), ("u:bo", 2), (bot("easy"), 3)]


async def ready(process: Repository, channel: str) -> int:
    """A Michigan table of Ana, Bo and a bot, started: its end is one move away."""
    table = await process.create_table(
        platform="telegram", channel=channel, game="michigan", options={}, settings={},
        seed=1, host="u:ana", seats=seats("ana", "bo", "bot"), community=COMMUNITY)
    await process.update_table(table.id, expected_version=0, status=PLAYING,
                               reset_moves=True, snapshot="s0")
    return table.id


async def end(process: Repository, table_id: int, placings=PLACINGS) -> None:
    await process.commit_move(
        table_id, seq=1, seat=0, move="end", actor="player", snapshot="s1",
        results=[ResultRow(seat, who, who, False, 0, place)
                 for seat, (who, place) in enumerate(placings)],
        rating=RatedGame("michigan", 3, placings, RATER,
                         {who: who[2:] for who, _ in placings if who.startswith("u:")}))


async def logged(repo: Repository) -> list[int]:
    """The rated tables in the log's order."""
    async with repo._pool.acquire() as connection:  # type: ignore[attr-defined]
        return [row[0] for row in await connection.fetch(
            "SELECT table_id FROM rating_log ORDER BY seq")]


async def each_game(repo: Repository, tables: list[int]) -> dict[str, Any]:
    """Every derived row, each game's changes with them: a game rated from numbers other
    than the ones just before it in the log differs from the rebuild."""
    rows: dict[str, Any] = await everything(repo)
    rows["games"] = [sorted(dataclasses.astuple(c) for c in await repo.game_ratings(table))
                     for table in tables]
    return rows


# The sessions waiting behind `$1`'s locks, or behind one that waits for them (the second
# to ask for a row lock waits for the first in the queue).
WAITING_BEHIND = """
WITH RECURSIVE behind (pid) AS (
    SELECT $1::integer
    UNION SELECT a.pid FROM pg_stat_activity AS a, behind
    WHERE behind.pid = ANY(pg_blocking_pids(a.pid)))
SELECT count(*) - 1 FROM behind
"""


@pytest.fixture
def paths(monkeypatch) -> dict[str, list[Any]]:
    """Which way each end went: each one-statement try's outcome (False: an input had
    moved, nothing stored), and the tables that went the long way."""
    taken: dict[str, list[Any]] = {"tries": [], "long way": []}
    write_plan = PostgresRepository._write_plan
    long_way = db.postgres.rate_game

    async def trying(self, connection, params, plan):
        stored = await write_plan(self, connection, params, plan)
        taken["tries"].append(stored is not False)
        return stored

    def the_long_way(table_id, now, rated):
        taken["long way"].append(table_id)
        return (yield from long_way(table_id, now, rated))

    monkeypatch.setattr(PostgresRepository, "_write_plan", trying)
    monkeypatch.setattr(db.postgres, "rate_game", the_long_way)
    return taken


async def test_two_games_ending_at_the_same_moment_in_two_processes_count_once_each_in_order(
        repo, clock, paths):
    """Both ends are computed from the same ratings and wait on the community's lock;
    the one that gets it second finds its inputs moved, and is counted from the first's
    numbers."""
    schema = repo.server_settings["search_path"]
    # Beside `repo`, on its clock; the lock is held for longer than `repo` would wait.
    async with postgres_repository(schema, clock=clock, lock_timeout=10) as one, \
            postgres_repository(schema, clock=clock, lock_timeout=10) as two:
        # Two games before, so that both ends compute from ratings that are not the
        # newcomers' defaults; `one` and `two` have not seen them: each reads them.
        await end(repo, await ready(repo, "c0"))
        await end(repo, await ready(repo, "c1"), [("u:bo", 1), ("u:ana", 2), (bot("easy"), 3)])
        tables = [await ready(one, "c2"), await ready(two, "c3")]
        paths["tries"].clear()
        holder = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
        try:
            async with holder.transaction():
                await holder.execute("SELECT FROM rating_state WHERE community = $1"
                                     " FOR UPDATE", COMMUNITY)
                ends = [asyncio.create_task(end(process, table))
                        for process, table in zip((one, two), tables, strict=True)]
                for _ in range(200):  # both computed, and both waiting on the lock
                    # pg_stat_activity is read once per transaction unless told afresh.
                    await holder.execute("SELECT pg_stat_clear_snapshot()")
                    waiting = await holder.fetchval(WAITING_BEHIND, holder.get_server_pid())
                    if waiting == 2 or any(task.done() for task in ends):
                        break
                    await asyncio.sleep(0.05)
                assert waiting == 2
            await asyncio.gather(*ends)
        finally:
            await holder.close()

        # The second to the lock found its inputs moved; having read them already, it
        # went the long way, which read them again under the lock: after the first.
        assert sorted(paths["tries"]) == [False, True]
        assert len(paths["long way"]) == 1 and paths["long way"][0] in tables
        order = await logged(repo)
        assert sorted(order[2:]) == sorted(tables) and order[-1] == paths["long way"][0]
        season = (await repo.newest_rating())[0]
        (ana,) = await repo.player_ratings(COMMUNITY, "u:ana", season)
        assert ana.games == 4
        incremental = await each_game(repo, order)
        await repo.rebuild_ratings(RATER)
        assert await each_game(repo, order) == incremental


async def test_an_end_whose_inputs_move_at_each_try_goes_the_long_way_after_them(
        repo, clock, paths, monkeypatch):
    """Another process ends a game in the community between each computation and its
    write: both tries find their inputs moved. The long way locks before it reads, so a
    game ending while it writes waits, and is counted after it."""
    schema = repo.server_settings["search_path"]
    async with postgres_repository(schema, clock=clock, lock_timeout=10) as ending, \
            postgres_repository(schema, clock=clock, lock_timeout=10) as meddling:
        await end(ending, await ready(ending, "c0"))  # `ending` remembers the community
        table = await ready(ending, "c1")
        meanwhile: list[int] = []

        async def overtake() -> None:
            meanwhile.append(await ready(meddling, f"m{len(meanwhile)}"))
            await end(meddling, meanwhile[-1], [("u:bo", 1), ("u:ana", 2), (bot("easy"), 3)])

        write_plan = ending._write_plan

        async def overtaken(connection, params, plan):
            await overtake()
            return await write_plan(connection, params, plan)

        answer = db.postgres._answer
        armed = [True]
        watcher = await asyncpg.connect(POSTGRES_URL)

        async def answering(connection, op):
            # The long way has read the ratings and is about to write them: a third game
            # ends now, and must wait for the community's lock.
            if op.sql is S.SET_RATING and armed:
                armed.clear()
                third = asyncio.create_task(overtake())
                for _ in range(200):
                    behind = await watcher.fetchval(WAITING_BEHIND,
                                                    connection.get_server_pid())
                    if behind or third.done():
                        break
                    await asyncio.sleep(0.02)
                thirds.append(third)
            return await answer(connection, op)

        thirds: list[asyncio.Task[None]] = []
        ending._write_plan = overtaken  # type: ignore[method-assign]
        monkeypatch.setattr(db.postgres, "_answer", answering)
        paths["tries"].clear()
        try:
            await end(ending, table)
            await asyncio.gather(*thirds)
        finally:
            await watcher.close()

        assert len(meanwhile) == 3  # before the try from memory, the fresh one, the long way
        # Each game of `meddling` is stored, then `ending`'s try fails; the third game's
        # try, computed before the long way's entry, fails too, and is computed again.
        assert paths["tries"] == [True, False, True, False, False, True]
        assert paths["long way"] == [table]
        order = await logged(repo)
        assert order[1:] == [meanwhile[0], meanwhile[1], table, meanwhile[2]]
        season = (await repo.newest_rating())[0]
        (ana,) = await repo.player_ratings(COMMUNITY, "u:ana", season)
        assert ana.games == 5
        assert len(await repo.game_ratings(table)) == 2
        incremental = await each_game(repo, order)
        await repo.rebuild_ratings(RATER)
        assert await each_game(repo, order) == incremental


IN_PLAY = [("u:u-ana", 1), ("u:u-bo", 2), (bot("easy"), 3)]  # the ids of `ready`'s seats


@pytest.mark.parametrize("moment", ["before its lock", "with its entry logged"])
async def test_forgetme_while_a_game_of_theirs_ends_leaves_nothing_of_them(
        repo, clock, monkeypatch, moment):
    """/forgetme from a person seated at a table whose game is ending, when the end has
    stored the move but not locked the community yet, or has logged the person but not
    committed: the two wait for each other in turn, never both at once (a deadlock),
    and not a rating of theirs is left."""
    schema = repo.server_settings["search_path"]
    async with postgres_repository(schema, clock=clock, lock_timeout=10) as ending:
        await end(ending, await ready(ending, "c0"), IN_PLAY)  # Ana has a rating
        table = await ready(ending, "c1")

        async def long_way_only(connection, **_):
            return None  # the end's statements one by one, so one can come between

        ending._rated_end = long_way_only  # type: ignore[method-assign]
        answer = db.postgres._answer
        forgetting: list[asyncio.Task[None]] = []
        watcher = await asyncpg.connect(POSTGRES_URL)
        between = S.LOCK_TABLE_COMMUNITY if moment == "before its lock" else S.SET_RATING_NAME

        async def answering(connection, op):
            if op.sql is between and not forgetting:
                forgetting.append(asyncio.create_task(repo.forget_user(
                    "telegram", "u-ana", names={}, default_name="a former player")))
                for _ in range(100):
                    behind = await watcher.fetchval(WAITING_BEHIND,
                                                    connection.get_server_pid())
                    if behind or forgetting[0].done():
                        break
                    await asyncio.sleep(0.02)
            return await answer(connection, op)

        monkeypatch.setattr(db.postgres, "_answer", answering)
        try:
            await end(ending, table, IN_PLAY)
            await asyncio.gather(*forgetting)
        finally:
            await watcher.close()

        assert forgetting
        async with repo._pool.acquire() as connection:  # type: ignore[attr-defined]
            entrants = {row[0] for row in await connection.fetch(
                "SELECT participant FROM rating_entrants")}
        assert "u:u-ana" not in entrants and "u:u-bo" in entrants
        season = (await repo.newest_rating())[0]
        assert await repo.player_ratings(COMMUNITY, "u:u-ana", season) == []
        order = await logged(repo)
        incremental = await each_game(repo, order)
        await repo.rebuild_ratings(RATER)
        assert await each_game(repo, order) == incremental
