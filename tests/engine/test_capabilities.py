"""Each game declares what it has beyond the contract, and its declaration holds in play.

The chat decides from these declarations alone whether a person may take a bot's seat
between rounds, whether /stats counts a game as won or lost by the whole table, and
whether an old signal button still works: a wrong declaration is a wrong answer there.
"""

import random

import pytest

from engine import bots, games
from engine import the_game as tg
from engine.core import Capabilities

# game -> (the event that ends a round, played as one team, has moves for any time)
DECLARED = {
    "ochs-esel": ("round_over", False, False),
    "the-game": (None, True, True),
    "nix-fur-ungut": ("round_over", False, False),
    "michigan": ("deal_over", False, False),
}


@pytest.mark.parametrize("game_id", sorted(DECLARED))
def test_each_game_declares_its_rounds_team_and_talk(game_id: str) -> None:
    game = games.get(game_id)
    caps = game.CAPABILITIES
    assert isinstance(caps, Capabilities)
    assert (caps.round_end, caps.cooperative, caps.talk is not None) == DECLARED[game_id]


@pytest.mark.parametrize("game_id", sorted(DECLARED))
def test_a_declared_round_end_is_an_event_the_game_ends_rounds_with(game_id: str) -> None:
    game = games.get(game_id)
    seats = min(game.SEATS, key=lambda n: abs(n - 3))
    state, rng, types = game.new_game(seats, {}, seed=5), random.Random(5), []
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        state, events = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        types += [e["type"] for e in events]
    round_end = game.CAPABILITIES.round_end
    if round_end is None:
        assert not {"round_over", "deal_over"} & set(types)
    else:
        # Every round ends with it, the last one too, just before the game's end.
        assert types.count(round_end) == game.view(state).get("rounds",
                                                               game.view(state).get("deals"))


def test_the_game_is_won_by_the_team_only_when_every_card_is_placed() -> None:
    caps = tg.CAPABILITIES
    won = tg.new_game(1, {"min_play": 1}, seed=1, setup={"hands": [["2"]], "draw": []})
    won, _ = tg.apply(won, 0, tg.parse_move(won, 0, "2 A1"))
    lost = tg.new_game(1, {"min_play": 1}, seed=1,
                       setup={"hands": [["99", "98", "2", "3", "50"]], "draw": []})
    for move in ("99 A1", "98 A2", "2 D1", "3 D2", "end"):  # then 50 fits on no pile
        lost, _ = tg.apply(lost, 0, tg.parse_move(lost, 0, move))
    assert tg.outcome(won) is not None and tg.outcome(lost) is not None
    assert caps.team_won(won) and not caps.team_won(lost)
    assert caps.is_talk(tg.Signal("A1", tg.STOP)) and not caps.is_talk(tg.End())


def test_a_team_game_must_say_how_the_team_wins() -> None:
    with pytest.raises(ValueError, match="won"):
        Capabilities(cooperative=True)


@pytest.mark.parametrize("game_id", sorted(DECLARED))
@pytest.mark.parametrize("level", bots.LEVELS)
def test_each_bot_declares_whether_it_speaks_out_of_turn(game_id: str, level: str) -> None:
    bot = bots.get(game_id, level)
    # Only The Game has moves for any time, and its strong bot gives signals.
    assert (bot.speak is not None) == (game_id == "the-game" and level == "strong")
    assert isinstance(bot, bots.Talker) == (bot.speak is not None)
