"""The Game's end at 2 players, solved: once the draw pile is gone, the cards a seat
cannot see are exactly its partner's hand, so the rest of the game is a cooperative
game of perfect information and can be searched instead of sampled.

The rules searched are those of `engine/the_game.py` once the draw pile is empty: the
seat to act holding cards must play at least one ("ne poser qu'une seule carte"), may
play on, and ends its turn when it likes or when its hand runs out; a seat without
cards is passed over; the game ends when both hands are empty, or when the seat to act
holds cards and none goes on a pile (its cards and its partner's are the score).

The budget is a count of positions visited, never the clock: the same view gives the
same turn on any machine, and a position too wide for the budget says so (`None`),
for the sampled endgame to decide instead.
"""

import random
from collections.abc import Callable, Iterator
from itertools import combinations

from engine.the_game import ASCENDING, JUMP

# Positions visited per decision before giving up. A position costs some 10-20 µs, so
# this keeps a decision well inside 50 ms on one core, fallback included.
BUDGET = 2000

_Hand = tuple[int, ...]
_Tops = tuple[int, int, int, int]


def _put(tops: _Tops, pile: int, card: int) -> _Tops:
    a1, a2, d1, d2 = tops
    return (card if pile == 0 else a1, card if pile == 1 else a2,
            card if pile == 2 else d1, card if pile == 3 else d2)


class _OverBudget(Exception):
    """The search visited `BUDGET` positions without settling."""


def _key(tops: _Tops, cur: _Hand, other: _Hand, started: bool) -> tuple[object, ...]:
    # The two ascending piles are alike, as are the two descending ones.
    a1, a2, d1, d2 = tops
    return (min(a1, a2), max(a1, a2), min(d1, d2), max(d1, d2), cur, other, started)


def _plays(tops: _Tops, cur: _Hand, other: _Hand) -> list[tuple[int, int, int]]:
    """Every play of `cur`, cheapest first: (cards in either hand it skips, card, pile),
    a backward jump costing -1. Of two piles with the same top, only the first."""
    live = cur + other
    out = []
    for pile in range(4):
        top = tops[pile]
        if pile in (1, 3) and tops[pile - 1] == top:
            continue
        for card in cur:
            if ASCENDING[pile]:
                if card > top:
                    cost = sum(1 for c in live if top < c < card)
                elif card == top - JUMP:
                    cost = -1
                else:
                    continue
            elif card < top:
                cost = sum(1 for c in live if card < c < top)
            elif card == top + JUMP:
                cost = -1
            else:
                continue
            out.append((cost, card, pile))
    out.sort()
    return out


def _bound(tops: _Tops, cur: _Hand, other: _Hand) -> int:
    """Cards no pile can ever take: under every ascending pile's lowest reach and over
    every descending pile's highest. A pile reaches back only by exact jumps of 10 from
    its top or from a card of the hands it may take first."""
    cards = set(cur) | set(other)
    if not cards:
        return 0
    low_up = 101
    high_down = 0
    for pile in range(4):
        top = tops[pile]
        if ASCENDING[pile]:
            starts = [top] + [c for c in cards if c > top]
            for start in starts:
                reach = start
                while reach - JUMP in cards:
                    reach -= JUMP
                low_up = min(low_up, reach)
        else:
            starts = [top] + [c for c in cards if c < top]
            for start in starts:
                reach = start
                while reach + JUMP in cards:
                    reach += JUMP
                high_down = max(high_down, reach)
    return sum(1 for c in cards if high_down < c < low_up)


class _Search:
    def __init__(self, budget: int) -> None:
        self.memo: dict[tuple[object, ...], int] = {}
        self.left = budget

    def value(self, tops: _Tops, cur: _Hand, other: _Hand, started: bool) -> int:
        """Cards left at the end when both seats play on perfectly, `cur` to act
        (`started`: it has played this turn, so it may end it)."""
        if not cur:
            if not other:
                return 0
            cur, other, started = other, cur, False
        key = _key(tops, cur, other, started)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.left -= 1
        if self.left < 0:
            raise _OverBudget
        best = len(cur) + len(other)
        floor = _bound(tops, cur, other)
        for _, child in self.children(tops, cur, other, started):
            if best <= floor:
                break
            best = min(best, self.value(*child))
        self.memo[key] = best
        return best

    def children(self, tops: _Tops, cur: _Hand, other: _Hand, started: bool) -> Iterator[
            tuple[tuple[int, int] | None, tuple[_Tops, _Hand, _Hand, bool]]]:
        """Each choice (a play, or None: end the turn) and the position after it, in
        the order tried: free plays (a jump, or one skipping no card left), then ending
        the turn, then the dearer plays."""
        ended = False
        for cost, card, pile in _plays(tops, cur, other):
            if started and not ended and cost > 0:
                ended = True
                yield None, (tops, other, cur, False)
            moved = _put(tops, pile, card)
            rest = tuple(c for c in cur if c != card)
            # A hand that runs out ends the turn by itself.
            yield (card, pile), ((moved, rest, other, True) if rest else
                                 (moved, other, rest, False))
        if started and not ended:
            yield None, (tops, other, cur, False)


def solve_turn(tops: list[int], hand: list[int], partner: list[int], started: bool,
               budget: int | None = None) -> tuple[list[tuple[int, int]], int] | None:
    """This seat's best turn, `partner` to act after it: the plays (card, pile index),
    in order, and the cards that will be left at the end; None over the budget
    (`BUDGET` positions unless given)."""
    search = _Search(BUDGET if budget is None else budget)
    at: _Tops = (tops[0], tops[1], tops[2], tops[3])
    cur, other = tuple(sorted(hand)), tuple(sorted(partner))
    steps: list[tuple[int, int]] = []
    try:
        goal = search.value(at, cur, other, started)
        # Down the line the search took: the first choice reaching the goal, as tried.
        while cur:
            chosen = None
            for choice, child in search.children(at, cur, other, started):
                if search.value(*child) == goal:
                    chosen = choice, child
                    break
            if chosen is None or chosen[0] is None:
                break  # nothing goes, or ending the turn is best
            steps.append(chosen[0])
            at, cur, started = chosen[1][0], tuple(c for c in cur if c != chosen[0][0]), True
    except _OverBudget:
        return None
    return steps, goal


def last_draw(plans: list[tuple[list[int], list[int]]], unseen: list[int], draw_size: int,
              fits: Callable[[set[int]], bool], rng: random.Random, splits: int,
              budget: int | None = None) -> list[float] | None:
    """The cards each plan leaves on average when this turn empties the draw pile:
    `plans` are (tops, hand kept) after this seat's turn, which then draws the whole
    pile, so the partner's hand is the unseen cards it did not draw and the rest is
    searched. Every way the pile may be made of `draw_size` unseen cards is tried
    (`splits` of them at random when there are more), the partner's hand kept only
    where it `fits` what its signals say (all of them when none does). None over the
    budget."""
    ways = [set(drawn) for drawn in combinations(unseen, draw_size)]
    held = [w for w in ways if fits({c for c in unseen if c not in w})]
    ways = held or ways
    if len(ways) > splits:
        ways = rng.sample(ways, splits)
    search = _Search(BUDGET if budget is None else budget)
    totals = [0.0] * len(plans)
    try:
        for drawn in ways:
            partner = tuple(c for c in unseen if c not in drawn)
            for i, (tops, kept) in enumerate(plans):
                mine = tuple(sorted([*kept, *drawn]))
                totals[i] += search.value((tops[0], tops[1], tops[2], tops[3]), partner,
                                          mine, False)
    except _OverBudget:
        return None
    return [total / len(ways) for total in totals]
