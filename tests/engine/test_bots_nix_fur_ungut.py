"""Nix für Ungut bots: they decide from the seat's view alone, play only legal moves, and
the strong bot beats the easy one."""

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import nix_fur_ungut as nix
from engine.bots import nix_fur_ungut as bots

QUICK = bots.Strong(rollouts=6, candidates=4)  # same kind of moves as the full budget
EASY = bots.Easy()


def playout(seats: int, options: dict[str, Any], seed: int, strong: set[int],
            ) -> Iterator[tuple[nix.State, int, Any]]:
    state = nix.new_game(seats, options, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        [seat] = nix.to_act(state)
        move = (QUICK if seat in strong else EASY).choose(nix.view(state, seat), rng)
        yield state, seat, move
        state, _ = nix.apply(state, seat, move)


@settings(max_examples=12, deadline=None, database=None)
@given(seats=st.integers(2, 5), personne=st.booleans(),
       board=st.sampled_from([{}, {"single": [9, 9, 9], "quad": [0, 0, 0]}]),
       seed=st.integers(0, 2**31))
def test_easy_and_strong_bots_play_only_legal_moves(seats, personne, board, seed):
    strong = set(range(0, seats, 2))
    moves = 0
    options = {"personne": personne, "rounds": 1, "board": board}
    for state, seat, move in playout(seats, options, seed, strong):
        assert move in nix.legal_moves(state, seat)
        moves += 1
    assert moves == 5 * seats


def twin(state: nix.State, keep: int, rng: random.Random) -> nix.State:
    """The same table seen from `keep`: other hands and the draw pile dealt again."""
    other = nix.load(nix.dump(state))
    others = [s for s in range(state.seats) if s != keep]
    pool = [c for s in others for c in other.hands[s]] + other.draw
    rng.shuffle(pool)
    for s in others:
        size = len(other.hands[s])
        other.hands[s], pool = nix.sort_cards(pool[:size]), pool[size:]
    other.draw = pool
    other.seed = state.seed + 1
    return other


@settings(max_examples=6, deadline=None, database=None)
@given(seats=st.integers(2, 5), personne=st.booleans(), seed=st.integers(0, 2**31))
def test_bots_decide_from_the_view_alone(seats, personne, seed):
    """Another deal of the cards the seat cannot see gives the same view and the same
    move; and the view, as JSON text, is all a bot needs."""
    rng = random.Random(seed)
    for step, (state, seat, _move) in enumerate(
            playout(seats, {"personne": personne, "rounds": 1}, seed, set())):
        if step % 3:
            continue
        other = twin(state, seat, rng)
        view = nix.view(state, seat)
        assert nix.view(other, seat) == view
        as_json = json.loads(json.dumps(view))
        for bot in (EASY, QUICK):
            assert (bot.choose(as_json, random.Random(step))
                    == bot.choose(nix.view(other, seat), random.Random(step)))


@settings(max_examples=10, deadline=None, database=None)
@given(seats=st.integers(2, 5), personne=st.booleans(), seed=st.integers(0, 2**31))
def test_the_searched_worlds_agree_with_the_view(seats, personne, seed):
    rng = random.Random(seed)
    for step, (state, seat, _move) in enumerate(
            playout(seats, {"personne": personne, "rounds": 2}, seed, set())):
        if step % 3:
            continue
        view = nix.view(state, seat)
        world = bots.world(view, rng)
        assert nix.view(world, seat) == view
        cards = sorted([c for h in world.hands for c in h] + world.draw + world.played)
        assert cards == sorted(nix.DECK)


@settings(max_examples=15, deadline=None, database=None)
@given(seats=st.integers(2, 5), personne=st.booleans(), seed=st.integers(0, 2**31))
def test_the_rollout_plays_the_round_as_the_engine_does(seats, personne, seed):
    """The strong bot's card-count rollout offers the engine's combinations and ends the
    round with the engine's points."""
    rng = random.Random(seed)
    state = nix.new_game(seats, {"personne": personne, "rounds": 1}, seed=seed)
    for _ in range(rng.randrange(0, 5 * seats)):
        [seat] = nix.to_act(state)
        state, _ = nix.apply(state, seat, rng.choice(nix.legal_moves(state, seat)))
    sim = bots._Sim(state)
    while not state.over:
        [seat] = nix.to_act(state)
        assert sim.to_act() == seat
        offered = {(row, tuple(nix.sort_cards([bots._CODE[c] for c in cards])))
                   for row, cards in bots.combinations(sim.hands[seat], sim.turn)}
        assert offered == {(m.row, m.cards) for m in nix.legal_moves(state, seat)}
        row, cards, super_chip = sim.pick(seat, rng)
        move = nix.Play(row, tuple(nix.sort_cards([bots._CODE[c] for c in cards])),
                        super_chip)
        assert move in nix.legal_moves(state, seat)
        over = sim.play(seat, row, cards, super_chip)
        state, _ = nix.apply(state, seat, move)
        assert over == state.over
    assert sim.points() == state.round_scores[-1]


def test_strong_seat_scores_more_than_the_easy_seats():
    strong_total, easy_total, wins = 0, 0, 0
    games = 12
    for g in range(games):
        state = nix.new_game(4, {"rounds": 1}, seed=g)
        rng = random.Random(g)
        strong_seat = g % 4
        while not state.over:
            [seat] = nix.to_act(state)
            bot = bots.Strong() if seat == strong_seat else EASY
            state, _ = nix.apply(state, seat, bot.choose(nix.view(state, seat), rng))
        result = nix.outcome(state)
        assert result is not None
        strong_total += result.scores[strong_seat]
        easy_total += sum(result.scores) - result.scores[strong_seat]
        wins += result.ranking[strong_seat] == 1
    # Seeded, so the same every run; measured 26.8 against 19.7 points, 6 wins in 12.
    assert strong_total / games > 1.2 * easy_total / (3 * games)
    assert wins > games / 4
