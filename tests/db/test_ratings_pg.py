"""PostgreSQL's short way for a rated end (`db.pg_ratings`): ratings computed from what a
process remembers, or read outside the transaction, are written only if nothing they
came from moved since; else the end is computed again, and every game counts once, from
the ratings just before it."""

import pytest

from bot.ratings import bot
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
