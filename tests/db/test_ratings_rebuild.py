"""`python -m bot ratings rebuild` gives the numbers the games' own updates gave: random
histories of games (ties, bots, leavers, two communities, seasons rolling over on the
fake clock, people forgotten on the way) on a real SQLite file."""

import asyncio
import calendar
import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import __main__ as main
from bot.ratings import Rater
from db.ratings import RatedGame
from db.repository import PLAYING, ResultRow
from db.sqlite import SqliteRepository
from tests.db.conftest import seats

PEOPLE = ["ana", "bo", "cy", "dee", "eli"]
COMMUNITIES = ["telegram:-1", "telegram:-2"]
GAMES = ["michigan", "ochs-esel"]
START = float(calendar.timegm((2026, 12, 30, 0, 0, 0)))  # two days before a new quarter

game_events = st.tuples(
    st.sampled_from(COMMUNITIES), st.sampled_from(GAMES),
    st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=4, unique=True),
    st.lists(st.sampled_from(["bot:easy", "bot:strong"]), max_size=2),
    st.lists(st.integers(1, 3), min_size=6, max_size=6),
    st.sampled_from([60.0, 3600.0, 86400.0]))
events = st.lists(st.one_of(game_events, st.sampled_from(PEOPLE).map(lambda p: ("forget", p))),
                  min_size=1, max_size=14)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def derived(repo: SqliteRepository) -> list[object]:
    seen = []
    for community, game in itertools.product(COMMUNITIES, GAMES):
        for season in await repo.rating_seasons(community):
            board = await repo.leaderboard(community, game, season, None, size=100,
                                           listed_after=1)
            seen.append((community, game, season, board))
            for person in PEOPLE:
                seen.append(await repo.player_ratings(community, f"u:{person}", season))
    return seen


async def scenario(path: Path, history: list[tuple]) -> None:
    clock = Clock()
    rater = Rater("month")
    async with SqliteRepository(path, clock=clock, writer_process=False) as repo:
        for number, event in enumerate(history):
            if event[0] == "forget":
                await repo.forget_user("telegram", event[1], names={}, default_name="x")
                continue
            community, game, people, robots, places, pause = event
            clock.now += pause
            who = [f"u:{p}" for p in people] + robots
            placings = list(zip(who, places, strict=False))
            table = await repo.create_table(
                platform="telegram", channel=f"c{number}", game=game, options={}, settings={},
                seed=1, host=people[0], seats=seats(*people), community=community)
            await repo.update_table(table.id, expected_version=0, status=PLAYING,
                                    reset_moves=True, snapshot="s0")
            await repo.commit_move(
                table.id, seq=1, seat=0, move="end", actor="player", snapshot="s1",
                results=[ResultRow(s, p[2:], p, False, 0, 1) for s, p in enumerate(who)
                         if p.startswith("u:")],
                rating=RatedGame(game, len(placings), placings, rater,
                                 {p: p[2:] for p in who if p.startswith("u:")}))
        incremental = await derived(repo)
        await repo.rebuild_ratings(rater)
        assert await derived(repo) == incremental


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events)
def test_rebuild_equals_the_incremental_updates(history):
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(scenario(Path(directory) / "tapis.db", history))


def test_the_rebuild_command_runs_on_a_database_file(tmp_path, capsys, monkeypatch):
    history = [("telegram:-1", "michigan", ["ana", "bo"], ["bot:easy"], [1, 2, 3, 1, 1, 1],
                60.0)]
    asyncio.run(scenario(tmp_path / "tapis.db", history))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'tapis.db'}")

    assert main.main(["ratings", "rebuild"]) == 0
    assert "ratings rebuild: 1 rated games applied" in capsys.readouterr().out
