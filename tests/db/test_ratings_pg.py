"""PostgreSQL's short way for a rated end (`rate_end`): ratings computed from rows read
outside the transaction are written only if nothing moved since; else the end goes the
long way, and every game still counts once, from the ratings before it."""

from typing import Any

import pytest

import db.postgres
from bot.ratings import bot
from tests.db.test_ratings import COMMUNITY, RATER, everything, finish


@pytest.fixture
def backend() -> str:
    return "postgres"


async def test_an_end_computed_from_ratings_that_moved_is_stored_the_long_way(
        repo, monkeypatch):
    real = db.postgres.rated_end
    first: list[Any] = []
    short: list[bool] = []

    def stale(table_id: int, now: float, rated: Any, row: Any) -> Any:
        # Every end computes from what the first one read, as if the others ended
        # between its read and its write.
        first.append(first[0] if first else row)
        arguments = real(table_id, now, rated, first[-1])
        short.append(arguments is not None)
        return arguments

    monkeypatch.setattr(db.postgres, "rated_end", stale)
    for number in range(3):
        await finish(repo, [("u:ana", 1 + number % 2), ("u:bo", 2 - number % 2),
                            (bot("easy"), 3)], channel=f"c{number}")

    assert short == [True, True, True]  # each tried the short way
    season = (await repo.newest_rating())[0]
    (ana,) = await repo.player_ratings(COMMUNITY, "u:ana", season)
    assert ana.games == 3
    incremental = await everything(repo)
    await repo.rebuild_ratings(RATER)
    assert await everything(repo) == incremental  # none was rated from stale numbers

