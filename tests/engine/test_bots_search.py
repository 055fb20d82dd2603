"""The determinized search's two helpers: dealing hidden cards under constraints, and
picking the move with the best summed rollouts, the same for the same seed."""

import random
from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import search
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


def _ring(n: int) -> tuple[list[str], dict[int, int], Callable[[str, int], bool]]:
    """n seats of one card each, card i only for seat i or i+1: two deals respect it
    (everyone keeps theirs, or everyone passes one on), and drawn at random, most
    constrained first, nearly every draw paints itself into a corner."""
    cards = [str(i) for i in range(n)]
    return cards, {h: 1 for h in range(n)}, lambda c, h: h in (int(c), (int(c) + 1) % n)


def test_a_cornered_deal_keeps_its_constraints(monkeypatch):
    cards, sizes, allowed = _ring(12)
    cornered = []
    matched = search._matched

    def counted(*args):  # the random pass gave up: the fallback deals
        cornered.append(1)
        return matched(*args)

    monkeypatch.setattr(search, "_matched", counted)
    for seed in range(20):
        out = deal(cards, sizes, allowed, random.Random(seed))
        assert {h: len(c) for h, c in out.items()} == sizes
        assert all(allowed(c, h) for h, held in out.items() for c in held)
    assert cornered  # the random draws did corner themselves, and it still held
    both = {tuple(deal(cards, sizes, allowed, random.Random(s), tries=0)[0]) for s in range(20)}
    assert both == {("0",), ("11",)}  # both deals that respect the ring come out


def test_a_card_nobody_may_hold_goes_anywhere_the_rest_keep_theirs():
    out = deal(["a", "b", "c"], {0: 1, 1: 2}, lambda c, h: c != "a" and (c != "b" or h == 0),
               random.Random(0), tries=0)
    assert out[0] == ["b"] and sorted(out[1]) == ["a", "c"]


@settings(max_examples=60, deadline=None, database=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=14), st.data(),
       st.sampled_from([0, 1, 20]))
def test_a_deal_respects_constraints_whenever_the_true_deal_does(truth, data, tries):
    """Whatever the constraints, as long as the real split meets them (a true view's
    always does), every deal meets them too."""
    cards = [f"c{i}" for i in range(len(truth))]
    sizes = {h: truth.count(h) for h in range(4)}
    may = {c: {h} | set(data.draw(st.sets(st.integers(0, 3))))
           for c, h in zip(cards, truth, strict=True)}
    out = deal(cards, sizes, lambda c, h: h in may[c],
               random.Random(data.draw(st.integers(0, 2**32))), tries=tries)
    assert {h: len(c) for h, c in out.items()} == sizes
    assert sorted(c for held in out.values() for c in held) == sorted(cards)
    assert all(h in may[c] for h, held in out.items() for c in held)


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
