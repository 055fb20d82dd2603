"""The Game's end at 2 players, solved: once the draw pile is gone, the cards a seat
cannot see are exactly its partner's hand, so the rest of the game is a cooperative
game of perfect information and can be searched instead of sampled.

The rules searched are those of `engine/the_game.py`: the seat to act must play its
minimum (`min_play` while the draw pile lasts, then one: "ne poser qu'une seule
carte"; never more than the hand it started the turn with), may play on, and ends its
turn when it likes or when its hand runs out, drawing as many cards as it played; a
seat without cards is passed over; the game ends when both hands are empty, or when
the seat to act cannot reach its minimum (the cards in hands and in the draw pile are
the score). A draw pile is searched only in a world where its order is given: a few
cards before its end, the bot deals such worlds and compares its plans over them.

The budget is a count of positions visited, never the clock: the same view gives the
same turn on any machine, and a position too wide for the budget says so (`None`),
for the sampled endgame or the lookahead to decide instead.
"""

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from engine.the_game import JUMP, can_reach

# Positions visited per decision before giving up. A position cost some 10-20 µs with
# hands as tuples and less as masks, so this keeps a decision well inside 50 ms on one
# core, fallback included.
BUDGET = 2000

# The goal's measure: a game ending with fewer cards left than this is a good one.
UNDER = 10

_Hand = tuple[int, ...]
_Tops = tuple[int, int, int, int]


def _put(tops: _Tops, pile: int, card: int) -> _Tops:
    a1, a2, d1, d2 = tops
    return (card if pile == 0 else a1, card if pile == 1 else a2,
            card if pile == 2 else d1, card if pile == 3 else d2)


class _OverBudget(Exception):
    """The search visited `BUDGET` positions without settling."""


def play_cost(card: int, top: int, ascending: bool, live: list[int]) -> int | None:
    """What playing `card` on a pile topped by `top` gives up: the cards of `live`
    (sorted: in hands or still to draw) it jumps over, -1 for a jump back; None when it
    cannot go there. Shared with the sampled endgame (`the_game._finish`)."""
    if ascending:
        if card > top:
            return bisect_left(live, card) - bisect_right(live, top)
        return -1 if card == top - JUMP else None
    if card < top:
        return bisect_left(live, top) - bisect_right(live, card)
    return -1 if card == top + JUMP else None


def _bits(cards: Iterable[int]) -> int:
    """A set of cards as an int, card `c` at bit `c`: the search's hands and live cards,
    so that counting the cards a play skips is one mask and one bit count."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _cards(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _plays(tops: _Tops, cur: int, live: int) -> list[tuple[int, int, int]]:
    """Every play of the hand `cur`, cheapest first: (cards of `live` it skips, card,
    pile), a backward jump costing -1; `live` holds the hands' cards and the draw pile's.
    Of two piles with the same top, only the first."""
    out = []
    cards = _cards(cur)
    a1, a2, d1, d2 = tops
    for pile, top in ((0, a1), (1, a2)):
        if pile == 1 and a1 == a2:
            continue
        for card in cards:
            if card > top:
                out.append(((live & ((1 << card) - (2 << top))).bit_count(), card, pile))
            elif card == top - JUMP:
                out.append((-1, card, pile))
    for pile, top in ((2, d1), (3, d2)):
        if pile == 3 and d1 == d2:
            continue
        for card in cards:
            if card < top:
                out.append(((live & ((1 << top) - (2 << card))).bit_count(), card, pile))
            elif card == top + JUMP:
                out.append((-1, card, pile))
    out.sort()
    return out


def _bound(tops: _Tops, cards: int) -> int:
    """Cards (of the mask `cards`) no pile can ever take: under every ascending pile's
    lowest reach and over every descending pile's highest. A pile reaches back only by
    exact jumps of 10 from its top or from a card still to play that it may take first,
    so the reaches are the jumps' closure over those starts."""
    if not cards:
        return 0
    a1, a2, d1, d2 = tops
    reach = (1 << a1) | (1 << a2) | (cards & -(2 << min(a1, a2)))
    while True:
        new = (reach >> JUMP) & cards & ~reach
        if not new:
            break
        reach |= new
    low_up = (reach & -reach).bit_length() - 1
    reach = (1 << d1) | (1 << d2) | (cards & ((1 << max(d1, d2)) - 1))
    while True:
        new = (reach << JUMP) & cards & ~reach
        if not new:
            break
        reach |= new
    high_down = reach.bit_length() - 1
    if low_up - high_down <= 1:
        return 0
    return (cards & ((1 << low_up) - (2 << high_down))).bit_count()


def _playable(tops: _Tops, cur: int) -> int:
    """The cards of the hand `cur` some pile takes now."""
    a1, a2, d1, d2 = tops
    fits = -(2 << min(a1, a2)) | ((1 << max(d1, d2)) - 1)
    for back in (a1 - JUMP, a2 - JUMP, d1 + JUMP, d2 + JUMP):
        if 0 <= back <= 101:
            fits |= 1 << back
    return cur & fits


# A position: the tops, the hand of the seat to act and its partner's (masks), how far
# down the world's draw pile the seats have drawn, and the cards played this turn.
_Position = tuple[_Tops, int, int, int, int]


class _Search:
    """Cards left with perfect play; with `under`, only whether fewer than `under` are
    left can be relied on: a line under it ends the search of its position, and a
    position whose bound is already at it is not searched further.

    Hands are masks and the draw pile is the world's (`world`), searched by how far
    down it the seats have drawn: a position is a few ints, cheap to key and to move.
    """

    def __init__(self, budget: int, min_play: int = 1, under: int = 0) -> None:
        self.memo: dict[tuple[int, ...], int] = {}
        self.left = budget
        self.min_play = min_play
        self.under = under
        # Draw piles met so far, each its own number: positions of two worlds alike
        # down to the cards still to draw are one position.
        self.known_draws: dict[_Hand, int] = {}
        self.world(())

    def world(self, draw: _Hand) -> None:
        """The draw pile of the world searched next, top first."""
        self.pile = draw
        self.size = len(draw)
        self.rests = [_bits(draw[at:]) for at in range(len(draw) + 1)]
        self.ids = [self.known_draws.setdefault(draw[at:], len(self.known_draws))
                    for at in range(len(draw) + 1)]

    def value(self, tops: _Tops, cur: int, other: int, at: int, played: int) -> int:
        """Cards left at the end (hands and draw pile) when both seats play on
        perfectly, `cur` to act having played `played` cards this turn and `at` cards
        of the world's draw pile drawn."""
        if not cur:
            if not other:
                return self.size - at
            cur, other, played = other, cur, 0
        to_draw = self.size - at
        # `minimum` of engine/the_game.py: never more than the hand held at the start.
        need = min(self.min_play if to_draw else 1, cur.bit_count() + played)
        # Past the minimum, what was played counts only for the cards drawn.
        count = played if played < need else min(played, max(need, to_draw))
        a1, a2, d1, d2 = tops
        # The two ascending piles are alike, as are the two descending ones.
        key = (min(a1, a2), max(a1, a2), min(d1, d2), max(d1, d2), cur, other,
               self.ids[at], count)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.left -= 1
        if self.left < 0:
            raise _OverBudget
        best = cur.bit_count() + other.bit_count() + to_draw
        missing = need - played
        if missing < 2 or _playable(tops, cur).bit_count() >= missing or \
                can_reach(_cards(cur), list(tops), missing):
            floor = max(_bound(tops, cur | other | self.rests[at]), self.under - 1)
            if floor >= self.under > 0:
                best = floor  # fewer than `under` is out of reach
            else:
                for _, child in self.children(tops, cur, other, at, played):
                    if best <= floor:
                        break
                    best = min(best, self.value(*child))
        # else: the seat cannot reach its minimum, the game ends here
        self.memo[key] = best
        return best

    def children(self, tops: _Tops, cur: int, other: int, at: int,
                 played: int) -> Iterator[tuple[tuple[int, int] | None, _Position]]:
        """Each choice (a play, or None: end the turn) and the position after it, in
        the order tried: free plays (a jump, or one skipping no card left), then ending
        the turn, then the dearer plays. A turn that ends draws as many cards as it
        played, while the pile lasts."""
        to_draw = self.size - at

        def ended(after: _Tops, hand: int, count: int) -> _Position:
            drawn = min(count, to_draw)
            if drawn:
                hand |= self.rests[at] & ~self.rests[at + drawn]
            return (after, other, hand, at + drawn, 0)

        need = min(self.min_play if to_draw else 1, cur.bit_count() + played)
        may_end = played >= need
        offered = False
        for cost, card, pile in _plays(tops, cur, cur | other | self.rests[at]):
            if may_end and not offered and cost > 0:
                offered = True
                yield None, ended(tops, cur, played)
            moved = _put(tops, pile, card)
            rest = cur & ~(1 << card)
            # A hand that runs out ends the turn by itself.
            yield (card, pile), ((moved, rest, other, at, played + 1) if rest else
                                 ended(moved, rest, played + 1))
        if may_end and not offered:
            yield None, ended(tops, cur, played)


def solve_turn(tops: list[int], hand: list[int], partner: list[int], started: bool,
               budget: int | None = None) -> tuple[list[tuple[int, int]], int] | None:
    """This seat's best turn once the draw pile is gone, `partner` to act after it: the
    plays (card, pile index), in order, and the cards that will be left at the end;
    None over the budget (`BUDGET` positions unless given)."""
    search = _Search(BUDGET if budget is None else budget)
    at: _Tops = (tops[0], tops[1], tops[2], tops[3])
    cur, other = _bits(hand), _bits(partner)
    played = 1 if started else 0
    steps: list[tuple[int, int]] = []
    try:
        goal = search.value(at, cur, other, 0, played)
        # Down the line the search took: the first choice reaching the goal, as tried.
        while cur:
            chosen = None
            for choice, child in search.children(at, cur, other, 0, played):
                if search.value(*child) == goal:
                    chosen = choice, child
                    break
            if chosen is None or chosen[0] is None:
                break  # nothing goes, or ending the turn is best
            steps.append(chosen[0])
            at, cur, played = chosen[1][0], cur & ~(1 << chosen[0][0]), 1
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
            partner = _bits(c for c in unseen if c not in drawn)
            for i, (tops, kept) in enumerate(plans):
                totals[i] += search.value((tops[0], tops[1], tops[2], tops[3]), partner,
                                          _bits(kept) | _bits(drawn), 0, 0)
    except _OverBudget:
        return None
    return [total / len(ways) for total in totals]


def played_out(plans: list[tuple[list[int], list[int], int]],
               worlds: list[tuple[list[int], list[int]]], min_play: int,
               budget: int | None = None, under: int = 0,
               miss: float = 0.0) -> list[float] | None:
    """The cards each plan leaves on average over `worlds` (the partner's hand, the
    draw pile top first), each searched to the end as if both seats saw every card: a
    plan is (tops, hand kept, cards played this turn) after this seat's turn, which
    then draws. Seeing the draw pile flatters every plan alike, and the plans meet the
    same worlds. With `under`, only whether a world ends under that many cards is
    searched, and it counts 1 if not, else 0; else a world ending with `UNDER` cards
    or more counts `miss` on top of its cards. None over the budget."""
    search = _Search(BUDGET if budget is None else budget, min_play, under)
    totals = [0.0] * len(plans)
    try:
        for partner, draw in worlds:
            search.world(tuple(draw))
            hand = _bits(partner)
            for i, (tops, kept, played) in enumerate(plans):
                drawn = min(played, len(draw))
                mine = _bits(kept) | _bits(draw[:drawn])
                left = search.value((tops[0], tops[1], tops[2], tops[3]), hand, mine,
                                    drawn, 0)
                totals[i] += float(left >= under) if under else \
                    left + miss * (left >= UNDER)
    except _OverBudget:
        return None
    return [total / len(worlds) for total in totals]
