"""The determinized search's two helpers: dealing hidden cards under constraints, and
picking the move with the best summed rollouts, the same for the same seed."""

import random
from collections import Counter

from engine.bots.search import deal, pimc
from engine.core.types import Move
from engine.ochs_esel import Pass, Play


def test_deal_fills_every_holder_to_its_size_and_respects_what_is_ruled_out():
    cards = [str(n) for n in range(1, 13)]
    sizes = {0: 4, 1: 5, -1: 3}
    # Seat 0 cannot hold 1-6, seat 1 cannot hold 7-9: a blind deal breaks that most times.
    def allowed(card: str, holder: int) -> bool:
        return not ((holder == 0 and int(card) <= 6) or (holder == 1 and 7 <= int(card) <= 9))
    for seed in range(50):
        out = deal(cards, sizes, allowed, random.Random(seed))
        assert {h: len(c) for h, c in out.items()} == sizes
        assert Counter(c for h in out.values() for c in h) == Counter(cards)
        assert all(allowed(c, h) for h, held in out.items() for c in held)


def test_deal_without_constraints_reaches_every_split():
    seen = {tuple(sorted(deal(["a", "b"], {0: 1, 1: 1}, None, random.Random(s))[0]))
            for s in range(20)}
    assert seen == {("a",), ("b",)}


def test_impossible_constraints_still_give_a_full_deal():
    out = deal(["a", "b"], {0: 1, 1: 1}, lambda _c, h: h == 0, random.Random(1))
    assert sorted(out[0] + out[1]) == ["a", "b"]


def test_pimc_picks_the_best_total_and_repeats_itself_for_a_seed():
    moves: list[Move] = [Pass(), Play(("3",)), Play(("7",))]
    def rollout(world: float, move: Move, rng: random.Random) -> float:
        bonus = 2.0 if move == Play(("7",)) else 0.0
        return world + bonus + rng.random()  # the same noise for every move of a world
    picks = {pimc(moves, lambda r: r.random(), rollout, random.Random(s), 12)
             for s in range(10)}
    assert picks == {Play(("7",))}
    assert pimc(moves, lambda r: r.random(), rollout, random.Random(3), 12) == pimc(
        moves, lambda r: r.random(), rollout, random.Random(3), 12)


def test_pimc_prefers_the_first_candidate_on_a_tie():
    moves: list[Move] = [Play(("5",)), Pass()]
    assert pimc(moves, lambda r: 0, lambda _w, _m, _r: 1.0, random.Random(0), 8) == moves[0]
