"""engine.bots: bots that see what a player sees, at two levels.

The contract: `get(game, level).choose(view, rng)` with the seat's own view, a legal move
back; views carry public history but never a hidden card.
"""

import json
import random
from typing import Any

import pytest

from engine import bots, games
from engine import the_game as tg
from engine.bots.the_game import Easy, Strong
from engine.the_game import Plays, Signal, State

game = games.get("the-game")
OPTIONS = [{}, {"min_play": 3}, {"hand_minus_one": True}, {"min_play": 3, "hand_minus_one": True}]


def test_levels_are_easy_and_strong_and_strong_is_the_default() -> None:
    assert bots.LEVELS == ("easy", "strong") and bots.DEFAULT_LEVEL == "strong"
    assert isinstance(bots.get("the-game"), Strong)
    assert isinstance(bots.get("the-game", "easy"), Easy)
    assert isinstance(bots.get("the-game", "strong"), bots.Talker)
    with pytest.raises(ValueError):
        bots.get("the-game", "genius")


def test_a_game_without_bot_module_says_so() -> None:
    with pytest.raises(bots.NoBot):
        bots.get("no-such-game")


def _redealt(state: State, seat: int, seed: int) -> State:
    """The same table with every card `seat` cannot see dealt again among those places."""
    other = game.load(game.dump(state))
    rng = random.Random(seed)
    places = [s for s in range(state.seats) if s != seat]
    pool = [c for s in places for c in other.hands[s]] + other.draw
    rng.shuffle(pool)
    for s in places:
        size = len(other.hands[s])
        other.hands[s], pool = sorted(pool[:size]), pool[size:]
    other.draw = pool
    return other


def _walk(value: Any) -> None:
    """A view is plain data: nothing in it leads back to the state."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            _walk(item)
    elif isinstance(value, list):
        for item in value:
            _walk(item)
    else:
        assert value is None or isinstance(value, (str, int, float, bool)), type(value)


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_bots_see_only_views_and_views_never_carry_hidden_cards(seats: int) -> None:
    state = game.new_game(seats, seed=seats)
    rng = random.Random(seats)
    for turn in range(12):
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        _walk(view)
        assert json.loads(json.dumps(view)) == view
        # Deal the hidden cards again: the view, and so every decision, stays the same.
        for other in range(seats):
            twin = _redealt(state, other, turn)
            assert game.view(twin, other) == game.view(state, other), "a view leaks"
        assert set(view["on_piles"]) == {c for pile in state.piles for c in pile}
        twin = _redealt(state, seat, turn)
        for level in bots.LEVELS:
            bot = bots.get("the-game", level)
            assert bot.choose(game.view(twin, seat), random.Random(turn)) == \
                bot.choose(view, random.Random(turn))
        state, _ = game.apply(state, seat, Strong().choose(view, rng))
        if game.to_act(state) == [seat]:
            state, _ = game.apply(state, seat, tg.End())
        if game.outcome(state) is not None:
            break


def _play_out(seats: int, options: dict[str, Any], seed: int, level: str) -> int:
    """A whole game with every seat at `level`; every move goes through `apply`, so an
    illegal one raises. Every seat may signal after every move, as at a table."""
    state = game.new_game(seats, options=options, seed=seed)
    bot = bots.get("the-game", level)
    rng = random.Random(seed)
    for _ in range(2000):
        acting = game.to_act(state)
        if not acting:
            break
        move = bot.choose(game.view(state, acting[0]), rng)
        assert isinstance(move, Plays | tg.End)
        state, _ = game.apply(state, acting[0], move)
        if isinstance(bot, bots.Talker):
            for seat in range(seats):
                for _ in range(10):
                    if game.outcome(state) is not None:
                        break
                    signal = bot.speak(game.view(state, seat), rng)
                    if signal is None:
                        break
                    assert isinstance(signal, Signal)
                    state, _ = game.apply(state, seat, signal)
                else:
                    pytest.fail("a bot keeps talking")
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome.scores[0]


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "min3", "hand-1", "both"])
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5])
def test_the_strong_bot_makes_only_legal_moves_at_every_player_count_and_option(
    seats: int, options: dict[str, Any],
) -> None:
    for seed in range(2):
        _play_out(seats, options, seed, "strong")


def test_the_strong_bot_beats_the_easy_one_on_a_seeded_sample() -> None:
    # A modest sample to stay quick; bench/bots.py measures thousands (bench/RESULTS.md).
    for seats in (1, 3):
        strong = [_play_out(seats, {}, seed, "strong") for seed in range(30)]
        easy = [_play_out(seats, {}, seed, "easy") for seed in range(30)]
        assert sum(strong) < 0.85 * sum(easy), (seats, sum(strong), sum(easy))


def test_the_strong_bot_asks_not_to_play_where_it_holds_the_backward_jump() -> None:
    state = game.new_game(2, seed=1, setup={"hands": [[40, 95, 96], [30, 97, 98]],
                                            "draw": [50, 51, 52], "first": 0})
    state, _ = game.apply(state, 0, game.parse_move(state, 0, "40 A1"))
    # Seat 1 holds 30: exactly 10 under A1's 40.
    assert Strong().speak(game.view(state, 1), random.Random(0)) == Signal("A1", tg.STOP)
    state, _ = game.apply(state, 1, Signal("A1", tg.STOP))
    # Seat 0 must play one more: not on A1, where it was asked not to.
    move = Strong().choose(game.view(state, 0), random.Random(0))
    assert isinstance(move, Plays) and all(pile != "A1" for _, pile in move.plays)


def test_the_strong_bot_withdraws_a_signal_that_no_longer_holds() -> None:
    state = game.new_game(2, seed=1, setup={"hands": [[40, 95, 96], [30, 97, 98]],
                                            "draw": [50, 51, 52], "first": 1})
    state, _ = game.apply(state, 0, Signal("A1", tg.STOP))  # seat 0 holds nothing for it
    assert Strong().speak(game.view(state, 0), random.Random(0)) == Signal("A1", None)


def test_the_strong_bot_plans_its_whole_turn_as_one_message() -> None:
    for seed in range(5):
        state = game.new_game(2, seed=seed)
        seat = game.to_act(state)[0]
        move = Strong().choose(game.view(state, seat), random.Random(0))
        assert isinstance(move, Plays) and len(move.plays) >= 2
        after, _ = game.apply(state, seat, move)
        assert tg.End() in game.legal_moves(after, seat), "the minimum is in the plan"
        assert Strong().choose(game.view(after, seat), random.Random(0)) == tg.End()
