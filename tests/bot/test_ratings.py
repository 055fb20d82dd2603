"""Who a finished game rates, how the numbers move, and which season a game counts in."""

import calendar

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import ratings
from bot.ratings import Skill, participants, rate, season_for, season_name, shown
from db.repository import SeatRow
from engine import games


def at(year: int, month: int, day: int, hour: int = 0) -> float:
    return float(calendar.timegm((year, month, day, hour, 0, 0)))


def test_everyone_starts_at_1500_and_a_winner_gains():
    assert shown(Skill()) == 1500
    after = rate("michigan", [("u:ana", 1), ("u:bo", 2), ("u:cy", 3)], {})
    assert shown(after["u:ana"]) > shown(after["u:bo"]) > shown(after["u:cy"])
    assert after["u:ana"].mu > 25 > after["u:cy"].mu


def test_tied_players_move_alike():
    after = rate("ochs-esel", [("u:ana", 1), ("u:bo", 2), ("u:cy", 2)], {})
    assert after["u:bo"] == after["u:cy"]


def test_beating_the_strong_bot_is_worth_more_than_beating_the_easy_one():
    easy = rate("michigan", [("u:ana", 1), ("bot:easy", 2)], {})["u:ana"]
    strong = rate("michigan", [("u:ana", 1), ("bot:strong", 2)], {})["u:ana"]
    assert strong.mu > easy.mu


def test_bots_are_never_rated():
    assert set(rate("michigan", [("u:ana", 2), ("bot:strong", 1)], {})) == {"u:ana"}


skills = st.builds(Skill, st.floats(-20, 70), st.floats(0.5, 25 / 3))


@settings(max_examples=3000, deadline=None)
@given(skills, st.lists(skills, min_size=1, max_size=5), st.sampled_from([None, "easy"]))
def test_a_lone_last_place_never_raises_the_shown_number(mine, others, level):
    # The shown change is the change of the shown number; under Plackett–Luce a lone last
    # place lowers μ by more than three times what σ shrinks (docs/ratings.md).
    current = {"u:me": mine} | {f"u:{n}": skill for n, skill in enumerate(others)}
    placings = [(f"u:{n}", 1 + n) for n in range(len(others))]
    if level:
        placings.append(("bot:" + level, len(placings) + 1))
    placings.append(("u:me", len(placings) + 1))
    assert shown(rate("michigan", placings, current)["u:me"]) <= shown(mine)


def test_a_draw_with_a_stronger_player_can_raise_a_newcomer():
    after = rate("michigan", [("u:ana", 1), ("u:bo", 1)], {"u:bo": Skill(40, 1)})
    assert shown(after["u:ana"]) > 1500


def seat(number, user=None, *, is_bot=False, former=None):
    return SeatRow(number, user, f"p{number}", is_bot, 0, former)


def test_a_person_who_left_places_last_and_the_bot_in_their_seat_is_not_rated():
    seats = [seat(0, "ana"), seat(1, is_bot=True, former="bo"), seat(2, "cy"),
             seat(3, is_bot=True)]
    # The bot that took Bo's seat won; it is not rated, and Bo places last.
    assert participants([2, 1, 3, 4], seats, "easy") == [
        ("u:ana", 1), ("u:cy", 2), ("bot:easy", 3), ("u:bo", 4)]


def test_a_game_every_person_left_rates_nobody():
    seats = [seat(0, is_bot=True, former="ana"), seat(1, is_bot=True)]
    assert participants([1, 2], seats, "strong") is None
    assert participants([1, 2], [seat(0, is_bot=True), seat(1, is_bot=True)], "easy") is None


def test_a_person_alone_is_measured_against_nobody():
    assert participants([1], [seat(0, "ana")], "easy") is None
    assert rate("michigan", [("u:ana", 1)], {}) == {}


def test_places_are_among_the_seats_not_monsieur_personne():
    game = games.get("nix-fur-ungut")
    from engine.core.types import Outcome
    outcome = Outcome.from_scores([5, 3, 10], lower_wins=False)  # Personne last in the list
    assert outcome.places(2) == [1, 2]
    assert game.ID == "nix-fur-ungut"


def test_seasons_are_named_by_utc_month_or_quarter():
    assert season_name(at(2026, 12, 31, 23), "quarter") == "2026-Q4"
    assert season_name(at(2027, 1, 1), "quarter") == "2027-Q1"
    assert season_name(at(2026, 11, 5), "month") == "2026-11"
    assert season_name(at(2026, 11, 5), "off") == "all"
    assert ratings.season_start("2026-Q4") == at(2026, 10, 1)


def test_a_change_of_setting_waits_for_the_next_boundary():
    newest = ("2026-Q4", at(2026, 11, 14))
    # Switched to monthly seasons in mid-November: the quarter runs to its end.
    assert season_for(at(2026, 11, 20), "month", newest) == "2026-Q4"
    assert season_for(at(2026, 12, 31, 23), "month", ("2026-Q4", at(2026, 12, 30))) == "2026-Q4"
    assert season_for(at(2027, 1, 2), "month", ("2026-Q4", at(2026, 12, 30))) == "2027-01"
    # Switched off in mid-quarter: still 2026-Q4 until January, then one everlasting season.
    assert season_for(at(2026, 12, 1), "off", newest) == "2026-Q4"
    assert season_for(at(2027, 1, 1), "off", newest) == "all"
    # From off to quarterly: from the next quarter on.
    assert season_for(at(2026, 12, 1), "quarter", ("all", at(2026, 11, 30))) == "all"
    assert season_for(at(2027, 1, 1), "quarter", ("all", at(2026, 11, 30))) == "2027-Q1"
    assert season_for(at(2026, 12, 1), "quarter", None) == "2026-Q4"


def test_season_names_are_checked():
    assert ratings.is_season("2026-Q4") and ratings.is_season("2026-11")
    assert ratings.is_season("all")
    for bad in ("2026-Q5", "2026-13", "26-Q1", "2026", "Q4", "2026-1"):
        assert not ratings.is_season(bad)


def test_the_game_names_its_rules_for_records():
    the_game = games.get("the-game")
    assert the_game.variant({}) == "standard"  # type: ignore[attr-defined]
    assert the_game.variant({"min_play": 3}) == "expert"  # type: ignore[attr-defined]
    assert the_game.variant(  # type: ignore[attr-defined]
        {"min_play": 2, "hand_minus_one": True}) == "min_play=2,hand_minus_one"


def test_a_games_end_becomes_one_rated_game():
    from engine.core.types import Outcome

    seats = [seat(0, "ana"), seat(1, is_bot=True, former="bo"), seat(2, "cy")]
    rater = ratings.Rater()
    michigan = ratings.rated_game("michigan", {}, Outcome.from_scores(
        [5, 9, 1], lower_wins=False), seats, "strong", rater)
    assert michigan is not None
    assert michigan.participants == [("u:ana", 1), ("u:cy", 2), ("u:bo", 3)]
    assert michigan.names == {"u:ana": "p0", "u:cy": "p2"} and michigan.rules is None

    team = ratings.rated_game("the-game", {"min_play": 3}, Outcome.from_scores(
        [7, 7, 7], lower_wins=True), seats, "easy", rater)
    assert team is not None and (team.rules, team.score, team.players) == ("expert", 7, 3)


def test_a_community_is_named_by_platform_and_none_in_a_private_chat():
    assert ratings.community("telegram", "-100123") == "telegram:-100123"
    assert ratings.community("discord", None) is None
