"""The Game: random playouts for every player count and the expert options."""

import random
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games
from engine import the_game as tg
from engine.bots.the_game import Easy, Strong
from engine.core.types import Move
from engine.the_game import End, Plays, State

game = games.get("the-game")


def _easy(state: State, seat: int, rng: random.Random) -> Move:
    return Easy().choose(game.view(state, seat), rng)

OPTIONS = [
    {},
    {"min_play": 3},
    {"hand_minus_one": True},
    {"min_play": 3, "hand_minus_one": True},
]


def _hidden_shuffled(state: State, seat: int | None, rng: random.Random) -> State:
    """The same table with the cards `seat` cannot see dealt again among the same places."""
    other = game.load(game.dump(state))
    places = [s for s in range(state.seats) if s != seat]
    pool = [c for s in places for c in other.hands[s]] + other.draw
    rng.shuffle(pool)
    for s in places:
        size = len(other.hands[s])
        other.hands[s], pool = sorted(pool[:size]), pool[size:]
    other.draw = pool
    return other


def _check_invariants(state: State, cards: list[int], rng: random.Random) -> None:
    on_piles = [c for p in state.piles for c in p]
    in_play = [c for h in state.hands for c in h] + state.draw + on_piles
    assert sorted(in_play) == cards, "cards conserved"
    for index, pile in enumerate(state.piles):
        for before, card in pairwise([tg.BASES[index], *pile]):
            if tg.ASCENDING[index]:
                assert card > before or card == before - 10
            else:
                assert card < before or card == before + 10
    for seat in [None, *range(state.seats)]:
        view = game.view(state, seat)
        assert view == game.view(_hidden_shuffled(state, seat, rng), seat), "view leaks"
        if seat is not None:
            assert view["hand"] == [str(c) for c in sorted(state.hands[seat])]
    if state.over:
        outcome = game.outcome(state)
        assert outcome is not None
        left = tg.score(state)
        assert outcome.scores == [left] * state.seats
        assert outcome.ranking == [1] * state.seats
        assert game.view(state)["won"] == (left == 0)
    else:
        seat = state.turn
        assert state.hands[seat], "players without cards are skipped"
        assert game.legal_moves(state, seat), "a running game always has a move"
        assert tg.can_reach(state.hands[seat], tg.tops(state), tg.minimum(state) - state.played)


def _small_deal(seats: int, data: st.DataObject) -> dict[str, Any]:
    """A short game (few cards, short draw pile) that reaches the end phase and often a win."""
    cards = data.draw(st.permutations(tg.DECK))
    sizes = [data.draw(st.integers(0, 4)) for _ in range(seats)]
    if not any(sizes):
        sizes[0] = 1
    hands, rest = [], list(cards)
    for size in sizes:
        hands.append(rest[:size])
        rest = rest[size:]
    draw = rest[:data.draw(st.integers(0, 6))]
    return {"hands": hands, "draw": draw, "first": data.draw(st.integers(0, seats - 1))}


def _bot_pair(state: State, seat: int, rng: random.Random) -> Move:
    """The bot's next two plays sent as one message, checked against playing them apart."""
    move = _easy(state, seat, rng)
    if not isinstance(move, Plays):
        return move
    after, _ = game.apply(state, seat, move)
    if seat not in game.to_act(after) or after.turns != state.turns:
        return move  # the turn ended: a message cannot reach into the next one
    second = _easy(after, seat, rng)
    if not isinstance(second, Plays):
        return move
    stepwise, _ = game.apply(after, seat, second)
    together, _ = game.apply(state, seat, Plays(move.plays + second.plays))
    assert game.dump(together) == game.dump(stepwise), "a message plays in order"
    return Plays(move.plays + second.plays)


def _playout(seats: int, options: dict[str, Any], seed: int, data: st.DataObject,
             setup: dict[str, Any] | None = None) -> State:
    state = game.new_game(seats, options=options, seed=seed, setup=setup)
    first = game.dump(state)
    cards = sorted(c for c in [*(c for h in state.hands for c in h), *state.draw])
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    for _ in range(400):
        _check_invariants(state, cards, rng)
        if state.over:
            break
        seat = game.to_act(state)[0]
        style = data.draw(st.integers(0, 11))
        if style == 0:
            move = data.draw(st.sampled_from(game.legal_moves(state, seat)))
        elif style <= 3:
            move = _bot_pair(state, seat, rng)
        elif style <= 7:
            move = _easy(state, seat, rng)
        elif style <= 9:
            move = Strong().choose(game.view(state, seat), rng)
        else:
            # Any seat may signal at any time; the turn does not move.
            seat = data.draw(st.integers(0, seats - 1))
            move = data.draw(st.sampled_from(tg.signal_moves(state, seat)))
        before = game.dump(state)
        text = str(move)
        assert game.parse_move(state, seat, text) == move
        turn, played = state.turn, state.played
        state, events = game.apply(state, seat, move)
        if isinstance(move, tg.Signal):
            assert (state.turn, state.played) == (turn, played), "a signal is no play"
        assert game.dump(game.load(before)) == before, "apply never mutates its input"
        assert events
        log.append((seat, text))
    assert state.over, "a game ends: every turn plays at least one card"
    replayed = game.new_game(seats, options=options, seed=seed, setup=setup)
    assert game.dump(replayed) == first, "a seed deals the same game every time"
    for seat, text in log:
        replayed, _ = game.apply(replayed, seat, game.parse_move(replayed, seat, text))
    assert game.dump(replayed) == game.dump(state), "replay == snapshot"
    assert game.dump(game.load(game.dump(state))) == game.dump(state)
    return state


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "min3", "hand-1", "both"])
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), data=st.data())
def test_random_playouts_keep_every_rule(
    seats: int, options: dict[str, Any], seed: int, data: st.DataObject,
) -> None:
    _playout(seats, options, seed, data)


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "min3", "hand-1", "both"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(1, 5), seed=st.integers(0, 10**6), data=st.data())
def test_short_deals_play_out_to_the_end_phase(
    seats: int, options: dict[str, Any], seed: int, data: st.DataObject,
) -> None:
    _playout(seats, options, seed, data, setup=_small_deal(seats, data))


def _reachable_by_brute_force(hand: list[int], piles_top: list[int], need: int) -> bool:
    if need <= 0:
        return True
    for card in hand:
        for pile in range(4):
            if tg.playable(card, pile, piles_top[pile]):
                rest = [c for c in hand if c != card]
                moved = [*piles_top[:pile], card, *piles_top[pile + 1:]]
                if _reachable_by_brute_force(rest, moved, need - 1):
                    return True
    return False


@settings(max_examples=300, deadline=None)
@given(
    hand=st.lists(st.integers(2, 99), min_size=0, max_size=8, unique=True),
    ascending=st.lists(st.integers(1, 99), min_size=2, max_size=2),
    descending=st.lists(st.integers(2, 100), min_size=2, max_size=2),
    need=st.integers(0, 5),
)
def test_loss_detection_agrees_with_trying_every_sequence_of_plays(
    hand: list[int], ascending: list[int], descending: list[int], need: int,
) -> None:
    piles_top = ascending + descending
    expected = _reachable_by_brute_force(hand, piles_top, need)
    assert tg.can_reach(sorted(hand), piles_top, need) == expected


def test_end_is_only_offered_once_the_minimum_is_met() -> None:
    state = game.new_game(3, seed=12)
    seat = state.turn
    assert End() not in game.legal_moves(state, seat)
    for _ in range(2):
        state, _ = game.apply(state, seat, game.legal_moves(state, seat)[0])
    assert End() in game.legal_moves(state, seat)
