"""/leaderboard, /rating and the final ranking's ratings as players read them, over a real
SQLite file and on PostgreSQL: refusals in words, numbers written for the reader's
language."""

import calendar

import pytest

from bot import ratings_commands as commands
from bot.ratings import Rater
from db.ratings import RatedGame
from db.repository import PLAYING, ResultRow, SeatRow
from db.sqlite import SqliteRepository
from tests.db.conftest import postgres_repository, postgres_schema

COMMUNITY = "telegram:-100"
NOW = float(calendar.timegm((2026, 11, 20, 12, 0, 0)))
RATER = Rater("quarter")


@pytest.fixture(params=["sqlite", "postgres"])
async def repo(request, tmp_path):
    if request.param == "sqlite":
        async with SqliteRepository(tmp_path / "tapis.db", clock=lambda: NOW) as repository:
            yield repository
        return
    async with postgres_schema() as schema, \
            postgres_repository(schema, clock=lambda: NOW) as repository:
        yield repository


async def play(repo, placings, *, game="michigan", channel="c1", score=None, rules=None):
    people = [who for who, _ in placings if who.startswith("u:")]
    table = await repo.create_table(
        platform="telegram", channel=channel, game=game, options={}, settings={}, seed=1,
        host=people[0][2:],
        seats=[SeatRow(i, who[2:], who[2:].capitalize()) for i, who in enumerate(people)],
        community=COMMUNITY)
    await repo.update_table(table.id, expected_version=0, status=PLAYING, reset_moves=True,
                            snapshot="s0")
    await repo.commit_move(
        table.id, seq=1, seat=0, move="end", actor="player", snapshot="s1",
        results=[ResultRow(i, w[2:], w, False, 0, p) for i, (w, p) in enumerate(placings)],
        rating=RatedGame(game, len(placings), placings, RATER,
                         {w: w[2:].capitalize() for w in people}, rules, score))
    return table.id


async def ladder(repo):
    for number in range(3):
        await play(repo, [("u:ana", 1), ("u:bo", 2), ("bot:easy", 3)], channel=f"c{number}")


async def test_the_leaderboard_lists_the_top_with_numbers_in_the_readers_language(repo):
    await ladder(repo)
    english = await commands.leaderboard(repo, RATER, "en", COMMUNITY, ["michigan"], "bo",
                                         now=NOW)
    german = await commands.leaderboard(repo, RATER, "de", COMMUNITY, ["mi", "2026-q4"], None,
                                        now=NOW)

    assert not english.refusal
    assert english.text.splitlines()[0] == "🏆 Michigan, season 2026-Q4:"
    assert english.text.splitlines()[1].startswith("1. Ana — 1,")
    assert "(3 games)" in english.text.splitlines()[1]
    assert german.text.splitlines()[1].startswith("1. Ana — 1.")
    assert "(3 Partien)" in german.text


async def test_each_bad_request_is_refused_in_words(repo):
    await ladder(repo)

    private = await commands.leaderboard(repo, RATER, "en", None, [], "ana", now=NOW)
    unknown = await commands.leaderboard(repo, RATER, "fr", COMMUNITY, ["poker"], "ana")
    season = await commands.leaderboard(repo, RATER, "en", COMMUNITY, ["michigan", "2019-Q1"],
                                        "ana")
    stranger = await commands.rating(repo, RATER, "de", COMMUNITY, "zed", "Zed", now=NOW)

    assert all(answer.refusal for answer in (private, unknown, season, stranger))
    assert private.text.startswith("A leaderboard belongs to a group")
    assert unknown.text.startswith("Je ne connais pas le jeu « poker »")
    assert "2019-Q1" in season.text and "2026-Q4" in season.text
    assert stranger.text == "Zed hat in dieser Gruppe keine gewertete Partie gespielt."


async def test_a_season_asked_for_before_any_rated_game(repo):
    answer = await commands.leaderboard(repo, RATER, "en", COMMUNITY, ["2026-Q4"], "ana")
    assert answer.refusal and "no rated game yet" in answer.text


async def test_a_players_ratings_and_the_trend_of_the_season(repo):
    await ladder(repo)
    answer = await commands.rating(repo, RATER, "fr", COMMUNITY, "ana", "Ana", now=NOW)

    title, line = answer.text.splitlines()
    assert title == "Cotes de Ana dans ce groupe, saison 2026-Q4 :"
    assert line.startswith("Michigan : 1\u202f") and "après 3 parties, +" in line


async def test_the_final_ranking_shows_each_new_rating_and_its_change(repo):
    table_id = await play(repo, [("u:ana", 1), ("u:bo", 2)])
    changes = await repo.game_ratings(table_id)
    names = {"u:ana": "Ana", "u:bo": "Bo"}

    english = commands.final_lines("en", changes, names)
    assert english[0].startswith("Ana 1,") and english[0].endswith(")")
    assert "(+" in english[0] and "(−" in english[1]
    assert commands.final_lines("de", changes, names)[0].startswith("Ana 1.")


async def test_the_game_shows_team_records_naming_the_best_team(repo):
    await play(repo, [("u:ana", 1), ("u:bo", 1)], game="the-game", score=4, rules="expert")
    answer = await commands.leaderboard(repo, RATER, "en", COMMUNITY, ["the", "game"], "ana")

    assert answer.text.splitlines()[1].startswith("2 players, expert rule: best 4 left")
    assert answer.text.splitlines()[2] == "Best game: Ana, Bo"


def test_help_says_a_last_place_never_raises_the_number():
    assert "A last place never raises it" in commands.help_text("en")
    assert "1.500" in commands.help_text("de")
