"""Ratings in storage, on both databases: a game's end and its rating in one transaction,
the log, leaderboards, records, /forgetme, retention, the replay and the rebuild."""

import asyncio
import dataclasses

from bot.ratings import Rater, bot
from db.ratings import RatedGame
from db.repository import PLAYING, Repository, ResultRow
from tests.db.conftest import seats

RATER = Rater("quarter")
COMMUNITY = "telegram:-100"


async def finish(repo: Repository, placings: list[tuple[str, int]], *,
                 community: str | None = COMMUNITY, game: str = "michigan",
                 channel: str = "c1", rater: object = RATER, score: int | None = None,
                 rules: str | None = None) -> int:
    """Open, start and end one game whose people placed as `placings` say."""
    people = [who for who, _ in placings if who.startswith("u:")]
    table = await repo.create_table(
        platform="telegram", channel=channel, game=game, options={}, settings={}, seed=1,
        host=people[0], seats=seats(*people), community=community)
    await repo.update_table(table.id, expected_version=0, status=PLAYING, reset_moves=True,
                            snapshot="s0")
    results = [ResultRow(seat, who, who[2:], False, 0, place)
               for seat, (who, place) in enumerate(placings)]
    rated = RatedGame(game=game, players=len(placings), participants=placings,
                      rater=rater,  # type: ignore[arg-type]
                      names={who: who[2:].capitalize() for who in people},
                      rules=rules, score=score)
    await repo.commit_move(table.id, seq=1, seat=0, move="end", actor="player",
                           snapshot="s1", results=results, rating=rated)
    return table.id


async def board(repo: Repository, player: str | None = None, game: str = "michigan"):
    season = RATER.season(repo._now(), await repo.newest_rating())  # type: ignore[attr-defined]
    return await repo.leaderboard(COMMUNITY, game, season, player)


async def everything(repo: Repository) -> dict[str, list[tuple]]:
    """Every derived row, to compare an incremental run with a rebuild."""
    season = (await repo.newest_rating() or ("", 0))[0]
    rows = {}
    for game in ("michigan", "ochs-esel"):
        top = await repo.leaderboard(COMMUNITY, game, season, None, size=1000, listed_after=1)
        rows[game] = [dataclasses.astuple(s) for s in top.top]
    rows["records"] = [dataclasses.astuple(r) for r in await repo.team_records(
        COMMUNITY, "the-game")]
    return rows


async def test_a_finished_game_is_rated_in_its_own_transaction(repo):
    table_id = await finish(repo, [("u:ana", 1), ("u:bo", 2), (bot("easy"), 3)])

    assert await repo.table_community(table_id) == COMMUNITY
    changes = {c.player: c for c in await repo.game_ratings(table_id)}
    assert set(changes) == {"u:ana", "u:bo"}  # the bot is never rated
    assert changes["u:ana"].shown == 1500 + changes["u:ana"].delta
    assert changes["u:ana"].shown > changes["u:bo"].shown
    assert (await repo.results(table_id))[0].rank == 1


async def test_players_are_listed_after_three_games_a_group_of_two_has_a_ladder(repo):
    for number in range(3):
        assert [s.player for s in (await board(repo)).top] == []
        await finish(repo, [("u:ana", 1), ("u:bo", 2)], channel=f"c{number}")

    listed = await board(repo)
    assert [(s.place, s.name) for s in listed.top] == [(1, "Ana"), (2, "Bo")]
    assert listed.listed == 2 and listed.own is None


async def test_your_own_place_is_shown_when_outside_the_top(repo):
    for number in range(3):
        await finish(repo, [("u:ana", 1), ("u:bo", 2), ("u:cy", 3)], channel=f"c{number}")

    small = await repo.leaderboard(COMMUNITY, "michigan", (await repo.newest_rating())[0],
                                   "u:cy", size=2)
    assert [s.name for s in small.top] == ["Ana", "Bo"]
    assert small.own is not None and (small.own.place, small.own.name) == (3, "Cy")


async def test_a_table_opened_without_a_community_is_not_rated(repo):
    table_id = await finish(repo, [("u:ana", 1), ("u:bo", 2)], community=None)

    assert await repo.game_ratings(table_id) == []
    assert await repo.table_community(table_id) is None
    assert await repo.newest_rating() is None
    assert len(await repo.results(table_id)) == 2  # the game itself is stored


async def test_a_players_ratings_hold_the_seasons_history(repo):
    await finish(repo, [("u:ana", 1), ("u:bo", 2)], channel="c1")
    await finish(repo, [("u:ana", 2), ("u:bo", 1)], channel="c2")

    season = (await repo.newest_rating())[0]
    (mine,) = await repo.player_ratings(COMMUNITY, "u:ana", season)
    assert (mine.game, mine.games, len(mine.history)) == ("michigan", 2, 2)
    assert mine.history[-1] == mine.shown and mine.history[0] > mine.shown
    assert await repo.rating_seasons(COMMUNITY) == [season]
    assert await repo.community_players(COMMUNITY, "Ana") == ["u:ana"]
    assert not await repo.is_community_player("discord:9", "u:ana")


async def test_the_games_team_records(repo):
    for channel, score in (("c1", 12), ("c2", 0), ("c3", 0), ("c4", 5)):
        await finish(repo, [("u:ana", 1), ("u:bo", 1)], game="the-game", channel=channel,
                     score=score, rules="standard")
    await finish(repo, [("u:ana", 1), ("u:bo", 1)], game="the-game", channel="c5",
                 score=3, rules="expert")

    expert, standard = await repo.team_records(COMMUNITY, "the-game")  # by rules
    assert (standard.rules, standard.games, standard.best_score, standard.perfect,
            standard.under_ten, standard.streak, standard.best_streak) == (
        "standard", 4, 0, 2, 3, 0, 2)
    assert standard.best_team == ["Ana", "Bo"]
    assert (expert.rules, expert.best_score, expert.perfect) == ("expert", 3, 0)


async def test_forgetme_removes_the_person_and_keeps_everyone_elses_numbers(repo):
    for number, order in enumerate(([1, 2, 3], [3, 1, 2], [2, 3, 1], [1, 3, 2])):
        await finish(repo, list(zip(["u:u-ana", "u:u-bo", "u:u-cy"], order, strict=True)),
                     channel=f"c{number}")
    await finish(repo, [("u:u-ana", 1), ("u:u-bo", 1)], game="the-game", channel="c9",
                 score=0, rules="standard")
    before = await everything(repo)

    await repo.forget_user("telegram", "u-bo", names={}, default_name="a former player")

    after = await everything(repo)
    assert all("u:u-bo" not in row for row in after["michigan"])
    others = [row[1:] for row in after["michigan"]]
    assert others == [row[1:] for row in before["michigan"] if row[1] != "u:u-bo"]
    assert after["records"][0][-1] == ["U-ana"]  # Bo is no longer named on the record
    assert await repo.user_ratings("telegram", "u-bo") == []
    assert await repo.community_players(COMMUNITY, "U-bo") == []

    await repo.rebuild_ratings(RATER)
    assert await everything(repo) == after


async def test_retention_keeps_the_rating_log(repo):
    await finish(repo, [("u:ana", 1), ("u:bo", 2)])
    before = await everything(repo)

    assert await repo.delete_tables_before(repo._now() + 10) == 1  # type: ignore[attr-defined]
    await repo.rebuild_ratings(RATER)
    assert await everything(repo) == before


@dataclasses.dataclass(frozen=True)
class Broken(Rater):
    def rate(self, game, placings, current):
        raise RuntimeError("a bug in the model")


async def test_a_rating_the_model_fails_on_is_replayed_at_start_up(repo, make_repo):
    await finish(repo, [("u:ana", 1), ("u:bo", 2)], channel="c1")
    table_id = await finish(repo, [("u:ana", 2), ("u:bo", 1)], channel="c2", rater=Broken())
    # The game ended all the same; its rating waits in the log.
    assert (await repo.get_table(table_id)).status == "finished"
    assert await repo.game_ratings(table_id) == []

    async with make_repo() as restarted:
        assert await restarted.replay_ratings(RATER) == 1
        assert len(await restarted.game_ratings(table_id)) == 2
        replayed = await everything(restarted)
        await restarted.rebuild_ratings(RATER)
        assert await everything(restarted) == replayed


async def test_two_games_ending_at_once_in_two_processes_are_both_counted_in_order(
        repo, make_repo):
    async with make_repo() as other:
        tables = []
        for number, process in enumerate([repo, other] * 4):
            placings = [("u:ana", 1 + number % 2), ("u:bo", 2 - number % 2), ("u:cy", 3)]
            people = [who for who, _ in placings]
            table = await process.create_table(
                platform="telegram", channel=f"c{number}", game="michigan", options={},
                settings={}, seed=1, host="u:ana", seats=seats(*people), community=COMMUNITY)
            await process.update_table(table.id, expected_version=0, status=PLAYING,
                                       reset_moves=True, snapshot="s0")
            tables.append((process, table.id, placings))

        async def end(process, table_id, placings):
            await process.commit_move(
                table_id, seq=1, seat=0, move="end", actor="player", snapshot="s1",
                results=[ResultRow(s, w, w, False, 0, p) for s, (w, p) in enumerate(placings)],
                rating=RatedGame("michigan", 3, placings, RATER,
                                 {w: w[2:] for w, _ in placings}))

        await asyncio.gather(*(end(*one) for one in tables))
        incremental = await everything(repo)
        season = (await repo.newest_rating())[0]
        (ana,) = await repo.player_ratings(COMMUNITY, "u:ana", season)
        assert ana.games == 8  # every game counted once
        await repo.rebuild_ratings(RATER)
        assert await everything(repo) == incremental


async def test_a_new_season_starts_everyone_afresh_and_the_last_one_stays_readable(
        make_repo, clock):
    clock.now = 1798761600.0 - 7200  # 2026-12-31 22:00 UTC: two hours before 2027-Q1
    async with make_repo() as repo:
        await finish(repo, [("u:ana", 1), ("u:bo", 2)], channel="c1")
        clock.now += 3 * 3600
        await finish(repo, [("u:ana", 2), ("u:bo", 1)], channel="c2")

        assert await repo.rating_seasons(COMMUNITY) == ["2026-Q4", "2027-Q1"]
        (old,) = await repo.player_ratings(COMMUNITY, "u:ana", "2026-Q4")
        (new,) = await repo.player_ratings(COMMUNITY, "u:ana", "2027-Q1")
        assert (old.games, new.games) == (1, 1)
        assert old.shown > 1500 > new.shown  # the new season forgot the old win
