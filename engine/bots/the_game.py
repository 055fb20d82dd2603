"""The Game's bots, from a seat's view only.

`Easy` is the old baseline: the smallest gap first, every backward jump, the minimum
only unless a play is nearly free.

`Strong` plays as a careful team does:
- it counts cards: a gap costs the cards *still alive* that it skips (the view lists
  every card already on the piles), not the difference of numbers, so a jump over
  cards long gone is free;
- it plans the whole turn (which cards, on which piles, in which order, how many beyond
  the minimum) and sends it as one message;
- it looks ahead over the unseen cards: among its best plans it prefers the one after
  which the next player, dealt hands drawn from the cards it cannot see, has the
  cheapest turn (the seats after it weighed in too, at half that weight);
- once the draw pile is gone, it plays its best plans out to the end over the ways the
  cards it cannot see may be split among the other hands, and keeps the plan that
  leaves the fewest cards; at 2 players the cards it cannot see are its partner's hand,
  so it searches the rest of the game exactly instead (`engine/bots/the_game_end.py`),
  and so it does for the turn that empties a draw pile of 1-2 cards, over every way
  that pile may be made; with 3-6 cards to draw, it searches each plan to the end over
  a few deals of its partner's hand and the pile's order, as if both saw every card,
  and keeps the plan that misses 10 cards left in the fewest deals, then the one
  leaving the fewest cards; with 7-16 cards to draw, it asks of each plan over such
  deals only whether the game can still end under 10 cards, and lets the lookahead
  choose among the plans that can in the most of them;
- it talks: "please don't play here" on a pile where it holds the backward jump,
  "no big jump here" where it holds a card within 3 of the top, and it withdraws them
  when they no longer hold; it weighs others' signals before playing on their piles
  ("no big jump" by how much of those 3 numbers a play would jump over), and reads
  them as it gives them when it deals the others' hands: "don't play here" holds the
  backward jump, "no big jump" a card within 3 of the top, silence neither;
- it keeps 10-apart pairs in hand (a backward jump in reserve) and spends the piles'
  range evenly: a pile that has run far pays more for each card it skips.
"""

import random
from dataclasses import dataclass, field
from typing import Any

from engine.bots.the_game_end import UNDER, last_draw, play_cost, played_out, solve_turn
from engine.core.types import Move
from engine.the_game import (
    ASCENDING,
    HIGHEST,
    JUMP,
    LOWEST,
    PILES,
    SMALL,
    STOP,
    End,
    Plays,
    Signal,
    can_reach,
    playable,
)

# --- Easy: the baseline ---------------------------------------------------------------------

NEARLY_FREE = 2  # beyond the minimum, play only a card this close to its pile's top


def _tops(view: dict[str, Any]) -> list[int]:
    return [int(view["piles"][pile]) for pile in PILES]


def _hand(view: dict[str, Any]) -> list[int]:
    return sorted(int(card) for card in view["hand"])


def _gap_cost(hand: list[int], card: int, pile: int, top: int) -> int:
    """How much of the pile's range a play uses up; jumps give range back (negative)."""
    gap = card - top if ASCENDING[pile] else top - card
    if gap < 0:
        return -JUMP
    # A card that sets up a jump with another card in hand costs that jump less.
    partner = card - JUMP if ASCENDING[pile] else card + JUMP
    return gap - JUMP if partner in hand else gap


class Easy:
    """Smallest gap first, every backward jump, the minimum unless a play is nearly free."""

    speak = None  # plays in its turn only

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        hand, tops = _hand(view), _tops(view)
        options = [
            (_gap_cost(hand, card, p, tops[p]), rng.random(), card, p)
            for card in hand for p in range(4) if playable(card, p, tops[p])
        ]
        if options:
            cost, _, card, pile = min(options)
            if view["played"] < (view["minimum"] or 0) or cost <= NEARLY_FREE:
                return Plays(((card, PILES[pile]),))
        return End()


# --- Strong ---------------------------------------------------------------------------------

STOP_PENALTY = 21.0  # playing where someone asked not to: only when nothing else is bearable
SMALL_PENALTY = 4.0  # playing where someone holds a card close to the top
BAR = 1.0  # a play beyond the minimum must save this much: a fuller hand keeps options
BAR_EMPTY_DRAW = 1.0  # the same once the draw pile is gone
DEAD = 12.0  # a card of one's hand that no pile takes any more
DEAD_UNSEEN = 3.0  # an unseen card (another hand, the draw pile) a plan leaves no pile for
# "No big jump" is said holding a card within this many numbers past the top; a play on
# that pile weighs `SMALL_PENALTY` times the share of those numbers' unseen cards it
# jumps over (a backward jump or a play inside the window: little or nothing). Over 800
# games at 3 players (seeds 10000-10799), under 10 cards left / mean left went from
# 80.6 % / 5.88 to 81.9 % / 5.34 (window 1: 80.1 %, 5: 79.6 %; weight 8: 78.2 %), and
# with `LATER` from 82.2 % / 5.14 to 82.8 % / 5.05. Weighed 4 for any play on the pile,
# as before, a wider window had played worse than the very next number only.
SMALL_SIGNAL_GAP = 3
STOP_SIGNAL_GAP = -1  # holding a card this close: "don't play here" (-1: only the jump)
SHARED = 1.0  # weight of a skipped card another pile still takes (a lost one weighs 1)
BRANCH = 6  # plays tried at each step of the minimum, cheapest first
CANDIDATES = 5  # plans for the minimum extended and compared in full
LOOKAHEAD = 0.3  # weight of the next player's expected turn (0: no lookahead)
SAMPLES = 6  # hands dealt to the next player from the unseen cards, per plan
# The seats after the next one, before this one's turn comes back, weigh this much of
# the next player's turn in the lookahead (each dealt its own hand): the piles' pace
# over the round, not only the next turn. 800 games at 3 players (seeds 10000-10799):
# under 10 left 80.6 to 82.2 %, perfect 40.2 to 44.5 %, mean left 5.88 to 5.14
# (weight 1: 81.0 %, 43.4 %, 5.59).
LATER = 0.5
# At 2 players nobody plays between the next player and this seat: its own next turn
# (the hand the plan keeps, plus as many cards drawn from the unseen ones as it
# plays) weighs this much of the next player's turn instead (0: not counted). Sixth
# pass, 2,000 games at 2 players (seeds 10000-11999): under 10 left 87.6 to 89.5 %,
# perfect 53.5 to 54.9 %, mean left 3.44 to 3.22 (weight 1: 88.6 %).
SELF_TWO_SEATS = 0.5
# At 2-3 players 16 hands played better (under 10 left: 84.8 to 85.8 % and 75.8 to
# 77.8 %, 2,000 games each); at 4-5 players no better or worse (90.0 to 89.8 %, 92.8 to
# 91.4 %), so they keep 6. Fifth pass: 32 (83.1 % against 82.8 % at 3 players, 800
# games; kept with the signals read, see `INFER`).
SAMPLES_FEW_SEATS = 32
# Splits of the other hands dealt to play each plan out once the draw pile is gone.
# Over 1,000 games (seeds 10000-10999) under 10 left / perfect went at 3 players from
# 80.5 / 35.0 % to 81.1 / 40.2 %, at 4 from 89.6 / 49.8 % to 91.6 / 57.4 % (600 games at
# 5: 93.7 / 56.5 % to 95.5 / 66.7 %); at 2 players, where the split is no secret, alike.
ENDGAME = 10
# At 2 players, once the draw pile is gone, search the rest of the game exactly
# (`engine/bots/the_game_end.py`) instead of playing `ENDGAME` identical splits out
# greedily; the splits decide only when the search runs over its budget.
EXACT_END = 1
# At 2 players, a turn that empties a draw pile of at most this many cards (and no
# more than the minimum) is chosen by searching the end after it over the ways the pile
# may be made: all of them, or `LAST_DRAW_SPLITS` at random when there are more (0: off).
LAST_DRAW = 2
LAST_DRAW_SPLITS = 12
# At 2 players, with at most this many cards to draw (more than the minimum), each plan
# is searched to the end over `WORLDS` deals of the partner's hand and the draw pile's
# order, within `DRAW_BUDGET` positions (over it: the lookahead decides; 0: off).
DRAW_SEARCH = 6
WORLDS = 6
DRAW_BUDGET = 3000
# Of those worlds, one ending with 10 cards or more (the goal missed) counts this much
# on top of its cards: more than any count of cards, so the plans are compared first by
# how many worlds miss the goal, then by the cards left. Ninth pass, 700 fresh games
# (seeds 14000-14699): 7 games saved, 1 lost, perfect games and mean left unchanged.
DRAW_MISS = 100.0
# At 2 players, with more cards to draw than `DRAW_SEARCH` and at most this many (where
# the lost games are decided), each plan is asked only whether it can still end under
# 10 cards (the goal's measure), over `FAR_WORLDS` deals as above, within `FAR_BUDGET`
# positions; the plans that can in the most worlds are kept for the lookahead to choose
# from (over the budget: all of them; 0: off). Eighth pass, 2,000 games (seeds
# 10000-11999): under 10 left 89.40 to 90.05 % (24 games saved, 11 lost).
DRAW_FAR = 16
FAR_WORLDS = 4
FAR_BUDGET = 2500
# Deal the others' hands (lookahead and endgame) as their signals say: this bot's
# signals are exact about its hand (see `_inferred`), so dealing against them wastes
# samples on hands nobody holds. Fifth pass: with `PAIR` and 32 hands at 2-3 players,
# 3 players went from 81.1 % to 83.7 % under 10 left over 1,600 games (seeds
# 10000-11599); with `PACE` too, the table's 2,000 games at 2-5 players went from
# 86.4 / 80.6 / 93.5 / 96.7 % to 87.9 / 84.2 / 96.3 / 98.7 % (bench/RESULTS.md).
INFER = 1
# A 10-apart pair kept in hand is a backward jump in reserve (play the high card, then
# the low one back, on an ascending pile; the reverse on a descending one): each pair
# left in hand after the turn is worth this much.
PAIR = 1.0
# The piles' run: per pile, the share of the live cards it can no longer take, squared
# and summed, times the live cards. Squared, so a pile that has run far pays more for
# each card it skips than one that has not: the range is spent evenly over the piles
# rather than one pile racing ahead of the card flow.
PACE = 1.0


@dataclass(slots=True)
class _Table:
    """What the bot knows: its hand, the tops, and which cards are still alive."""

    seat: int
    hand: list[int]
    tops: list[int]
    prefix: list[int]  # prefix[c] = live cards below c (not on a pile yet)
    penalties: list[float]  # per pile: the weight of the others' signals there
    need: int
    draw_size: int
    unseen: list[int]  # live cards not in this hand: the other hands and the draw pile
    hand_sizes: list[int]
    min_play: int
    played: int = 0  # cards already played this turn
    unseen_prefix: list[int] = field(default_factory=list)  # unseen cards below c
    dead_unseen: int = 0  # unseen cards already dead before this turn
    # per other seat, read from its signals: groups of unseen cards it holds one of,
    # and the unseen cards it does not hold
    holds: dict[int, tuple[list[list[int]], set[int]]] = field(default_factory=dict)

    def unseen_set_has(self, card: int) -> bool:
        return self.unseen_prefix[card + 1] > self.unseen_prefix[card]

    def between(self, low: int, high: int) -> int:
        """Live cards strictly between `low` and `high`."""
        if high - low <= 1:
            return 0
        return self.prefix[high] - self.prefix[low + 1]


def _read(view: dict[str, Any]) -> _Table:
    seat = int(view["seat"])
    gone = set(view.get("on_piles", []))
    prefix = [0] * (HIGHEST + 3)
    for card in range(HIGHEST + 2):
        live = LOWEST <= card <= HIGHEST and card not in gone
        prefix[card + 1] = prefix[card] + live
    penalties: list[float] = []
    signals = view.get("signals", {})
    for pile in PILES:
        others = [kind for s, kind in enumerate(signals.get(pile, [])) if s != seat]
        penalties.append(STOP_PENALTY if STOP in others else
                         SMALL_PENALTY if SMALL in others else 0.0)
    need = max(0, (view.get("minimum") or 0) - view.get("played", 0))
    hand = _hand(view)
    mine = set(hand)
    unseen = [c for c in range(LOWEST, HIGHEST + 1) if c not in gone and c not in mine]
    unseen_prefix = [0] * (HIGHEST + 3)
    hidden = set(unseen)
    for card in range(HIGHEST + 2):
        unseen_prefix[card + 1] = unseen_prefix[card] + (card in hidden)
    table = _Table(seat=seat, hand=hand, tops=_tops(view), prefix=prefix,
                   penalties=penalties, need=need, draw_size=int(view.get("draw_size", 0)),
                   unseen=unseen, hand_sizes=list(view.get("hand_sizes", [])),
                   min_play=int(view.get("min_play", 2)), played=int(view.get("played", 0)),
                   unseen_prefix=unseen_prefix)
    table.dead_unseen = _dead_unseen(table, table.tops)
    if INFER:
        table.holds = _inferred(table, signals)
    return table


def _inferred(table: _Table, signals: dict[str, list[str | None]]) -> dict[
        int, tuple[list[list[int]], set[int]]]:
    """What the others' signals say of their hands, read as this bot gives them: "don't
    play here" holds the backward jump; "no big jump" a card within `SMALL_SIGNAL_GAP`
    of the top and not the jump; silence neither. Numbers are never said, only these
    sets of cards, which the dealt hands of the lookahead and the endgame then respect."""
    hidden = set(table.unseen)
    out: dict[int, tuple[list[list[int]], set[int]]] = {}
    for s in range(len(table.hand_sizes)):
        if s == table.seat or not table.hand_sizes[s]:
            continue
        groups: list[list[int]] = []
        never: set[int] = set()
        for pile, name in enumerate(PILES):
            said = signals.get(name, [])
            kind = said[s] if s < len(said) else None
            top = table.tops[pile]
            if ASCENDING[pile]:
                back, window = top - JUMP, range(top + 1, top + SMALL_SIGNAL_GAP + 1)
            else:
                back, window = top + JUMP, range(top - SMALL_SIGNAL_GAP, top)
            near = [c for c in window if c in hidden and c != back]
            if kind == STOP:
                if back in hidden:
                    groups.append([back])
            elif kind == SMALL:
                never.add(back)
                if near:
                    groups.append(near)
            else:
                never.add(back)
                never.update(near)
        out[s] = (groups, never & hidden)
    return out


def _deal_one(table: _Table, seat: int, size: int, rng: random.Random,
              taken: set[int] | None = None) -> list[int]:
    """A hand for `seat` from the unseen cards, as its signals say (when read)."""
    if seat not in table.holds:
        if taken:
            pool = [c for c in table.unseen if c not in taken]
            return rng.sample(pool, min(size, len(pool)))
        return rng.sample(table.unseen, size)
    groups, never = table.holds[seat]
    hand: list[int] = []
    chosen: set[int] = set(taken) if taken else set()
    for group in groups:
        if len(hand) >= size:
            break
        free = [c for c in group if c not in chosen]
        if free and not any(c in chosen for c in group if c in hand):
            card = rng.choice(free)
            hand.append(card)
            chosen.add(card)
    pool = [c for c in table.unseen if c not in chosen and c not in never]
    want = size - len(hand)
    if want > len(pool):
        pool += [c for c in table.unseen if c not in chosen and c in never]
    hand += rng.sample(pool, min(want, len(pool)))
    return hand


def cost(table: _Table, card: int, pile: int, top: int,
         tops: list[int] | None = None) -> float:
    """What a play uses up of its pile: the live cards it skips, counted from the public
    history (cards long gone cost nothing); a backward jump gives them back (negative).

    A skipped card that another pile still takes is not lost, only pushed elsewhere: it
    weighs `SHARED`; one that no other pile takes any more weighs in full. `tops` are
    the four tops the play is made on (the table's when not given).
    """
    prefix = table.prefix
    a1, a2, d1, d2 = tops if tops is not None else table.tops
    if ASCENDING[pile]:
        if card > top:
            skipped = prefix[card] - prefix[top + 1]
            other = a2 if pile == 0 else a1
            lo, hi = max(top, max(d1, d2) - 1), min(card, other + 1)
        else:
            return -(prefix[top] - prefix[card + 1] + 1)
    elif card < top:
        skipped = prefix[top] - prefix[card + 1]
        other = d2 if pile == 2 else d1
        lo, hi = max(card, other - 1), min(top, min(a1, a2) + 1)
    else:
        return -(prefix[card] - prefix[top + 1] + 1)
    lost = prefix[hi] - prefix[lo + 1] if hi - lo > 1 else 0
    return SHARED * skipped + (1 - SHARED) * lost


def _plays(table: _Table, hand: list[int], tops: list[int]) -> list[tuple[float, int, int]]:
    """Every play of `hand` on these tops with its cost, the others' signals weighed in."""
    penalty = table.penalties
    out = []
    for card in hand:
        for pile in range(4):
            top = tops[pile]
            if (card > top or card == top - JUMP) if pile < 2 else \
                    (card < top or card == top + JUMP):
                extra = penalty[pile]
                if extra == SMALL_PENALTY:
                    extra = _small_penalty(table, card, pile, top)
                out.append((cost(table, card, pile, top, tops) + extra, card, pile))
    return out


def _small_penalty(table: _Table, card: int, pile: int, top: int) -> float:
    """"No big jump" weighed by the share of the signaller's window (the unseen cards
    within `SMALL_SIGNAL_GAP` of the top) that this play jumps over: a small play may
    leave the signaller's card playable, a backward jump always does."""
    unseen = table.unseen_prefix
    if ASCENDING[pile]:
        if card < top:
            return 0.0
        end = min(top + SMALL_SIGNAL_GAP, HIGHEST)
        window = unseen[end + 1] - unseen[top + 1]
        skipped = unseen[min(card, end + 1)] - unseen[top + 1]
    else:
        if card > top:
            return 0.0
        start = max(top - SMALL_SIGNAL_GAP, LOWEST)
        window = unseen[top] - unseen[start]
        skipped = unseen[top] - unseen[max(card + 1, start)]
    return SMALL_PENALTY * skipped / window if window > 0 else 0.0


def _cheapest(table: _Table, card: int, tops: list[int]) -> float:
    """A card's cost at its cheapest pile; `DEAD` when no pile takes it."""
    best = DEAD
    for pile in range(4):
        top = tops[pile]
        if (card > top or card == top - JUMP) if pile < 2 else \
                (card < top or card == top + JUMP):
            best = min(best, cost(table, card, pile, top, tops))
    return best


_Step = tuple[int, int]  # (card, pile index)


def _dead(hand: list[int], tops: list[int]) -> int:
    """Cards of the hand that no pile takes any more (short of someone's jump)."""
    a1, a2, d1, d2 = tops
    return sum(1 for card in hand
               if card < a1 and card < a2 and card > d1 and card > d2
               and card not in (a1 - JUMP, a2 - JUMP, d1 + JUMP, d2 + JUMP))


def _dead_unseen(table: _Table, tops: list[int]) -> int:
    """Unseen cards no pile takes any more: between the highest descending top and the
    lowest ascending one, bar the exact jumps (counted, not listed: it runs per plan)."""
    low, high = max(tops[2], tops[3]), min(tops[0], tops[1])
    if high - low <= 1:
        return 0
    count = table.unseen_prefix[high] - table.unseen_prefix[low + 1]
    rescued = {tops[0] - JUMP, tops[1] - JUMP, tops[2] + JUMP, tops[3] + JUMP}
    return count - sum(1 for c in rescued if low < c < high and table.unseen_set_has(c))


def _value(table: _Table, steps: list[_Step], spent: float, hand: list[int],
           tops: list[int], bar: float) -> float:
    extras = max(0, len(steps) - table.need)
    value = spent + DEAD * _dead(hand, tops) - bar * extras
    if DEAD_UNSEEN:
        value += DEAD_UNSEEN * max(0, _dead_unseen(table, tops) - table.dead_unseen)
    if PACE:
        prefix = table.prefix
        live = prefix[HIGHEST + 1]
        if live:
            a1, a2, d1, d2 = tops
            passed = (prefix[a1], prefix[a2], live - prefix[d1 + 1], live - prefix[d2 + 1])
            value += PACE * sum(p * p for p in passed) / live
    if PAIR:
        kept = set(hand)
        value -= PAIR * sum(1 for c in hand if c + JUMP in kept)
    return value


def plan(table: _Table, rng: random.Random | None = None) -> list[_Step]:
    """The whole turn: which cards, on which piles, in which order, how many.

    Nobody else plays during the turn, so it is planned at once: the minimum by trying
    every run of the cheapest plays, then plays beyond it one by one while they pay
    for themselves. A plan is worth its cost, and a card it leaves no pile for costs
    dearly; with `rng`, also the next player's turn over hands dealt from the unseen cards.
    """
    if EXACT_END and rng is not None and len(table.hand_sizes) == 2 and \
            not table.draw_size:
        # The unseen cards are all the partner's: the end is searched, not sampled.
        partner = 1 - table.seat
        if len(table.unseen) == table.hand_sizes[partner]:
            solved = solve_turn(table.tops, table.hand, table.unseen, not table.need)
            if solved is not None:
                return solved[0]
    bar = BAR if table.draw_size else BAR_EMPTY_DRAW
    leaves: list[tuple[float, list[_Step], list[int], list[int]]] = []

    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def minimum(hand: list[int], tops: list[int], steps: list[_Step], spent: float) -> None:
        # Plays on different piles commute: reach each position once, cheapest first.
        key = (tuple(hand), tuple(tops))
        if key in seen:
            return
        seen.add(key)
        if len(steps) >= table.need or not hand:
            leaves.append((spent, steps, hand, tops))
            return
        options = sorted(_plays(table, hand, tops))
        tried = 0
        for step, card, pile in options:
            rest = [c for c in hand if c != card]
            moved = list(tops)
            moved[pile] = card
            if not can_reach(rest, moved, table.need - len(steps) - 1):
                continue  # the rest of the minimum could not be played: the game is lost
            minimum(rest, moved, [*steps, (card, pile)], spent + step)
            tried += 1
            if tried >= BRANCH:
                break

    minimum(list(table.hand), list(table.tops), [], 0.0)
    if not leaves:
        return []
    scored = sorted(((_value(table, steps, spent, hand, tops, bar), i)
                     for i, (spent, steps, hand, tops) in enumerate(leaves)))[:CANDIDATES]
    finished = []
    for _, i in scored:
        spent, steps, hand, tops = leaves[i]
        steps, spent, hand, tops = _extend(table, steps, spent, hand, tops, bar)
        value = _value(table, steps, spent, hand, tops, bar)
        finished.append((value, steps, tops))
    if LAST_DRAW and rng is not None and len(table.hand_sizes) == 2 and \
            0 < table.draw_size <= min(table.need, LAST_DRAW):
        searched = _last_draw(table, finished, leaves[scored[0][1]], rng)
        if searched is not None:
            return searched
    if ENDGAME and rng is not None and not table.draw_size and len(table.hand_sizes) > 1:
        return _endgame(table, finished, leaves[scored[0][1]], rng)
    if DRAW_SEARCH and rng is not None and len(table.hand_sizes) == 2 and \
            0 < table.draw_size <= DRAW_SEARCH:
        searched = _played_out(table, finished, leaves[scored[0][1]], rng)
        if searched is not None:
            return searched
    if DRAW_FAR and rng is not None and len(table.hand_sizes) == 2 and \
            DRAW_SEARCH < table.draw_size <= DRAW_FAR and len(finished) > 1:
        finished = _reaching(table, finished, rng)
    if rng is not None and LOOKAHEAD and len(finished) > 1:
        finished = [(value + LOOKAHEAD * _next_turn(table, tops, rng, steps), steps, tops)
                    for value, steps, tops in finished]
    return min(finished, key=lambda f: f[0])[1]


def _extend(table: _Table, steps: list[_Step], spent: float, hand: list[int],
            tops: list[int], bar: float) -> tuple[list[_Step], float, list[int], list[int]]:
    """Add plays beyond the minimum while one (or one and the jump it sets up) pays."""
    value = _value(table, steps, spent, hand, tops, bar)
    while hand:
        best: tuple[float, list[_Step], float, list[int], list[int]] | None = None
        for step, card, p in _plays(table, hand, tops):
            back = card - JUMP if ASCENDING[p] else card + JUMP
            if step >= bar and back not in hand:
                continue  # it cannot pay for itself (piles moving on free no card)
            rest = [c for c in hand if c != card]
            moved = list(tops)
            moved[p] = card
            runs = [([(card, p)], step, rest, moved)]
            if back in rest:
                jumped = list(moved)
                jumped[p] = back
                runs.append(([(card, p), (back, p)],
                             # a jump back skips nothing of a "no big jump" window
                             step + cost(table, back, p, card, moved)
                             + (0.0 if table.penalties[p] == SMALL_PENALTY
                                else table.penalties[p]),
                             [c for c in rest if c != back], jumped))
            for run, run_cost, left, after in runs:
                new = _value(table, steps + run, spent + run_cost, left, after, bar)
                if new < value and (best is None or new < best[0]):
                    best = (new, run, run_cost, left, after)
        if best is None:
            break
        value, run, run_cost, hand, tops = best
        steps = steps + run
        spent += run_cost
    return steps, spent, hand, tops


def _all_out(table: _Table, steps: list[_Step], spent: float, hand: list[int],
             tops: list[int]) -> tuple[list[_Step], float, list[int], list[int]]:
    """Every card that still goes, cheapest first: when the game is about to end, a
    card left in hand counts against the team whatever it would have cost the piles."""
    while True:
        options = _plays(table, hand, tops)
        if not options:
            return steps, spent, hand, tops
        step, card, pile = min(options)
        hand = [c for c in hand if c != card]
        tops = list(tops)
        tops[pile] = card
        steps = [*steps, (card, pile)]
        spent += step


def _next_turn(table: _Table, tops: list[int], rng: random.Random,
               steps: list[_Step] | None = None) -> float:
    """The next player's cheapest minimum on these piles, averaged over hands dealt
    from the cards this seat cannot see (the other hands and the draw pile), and the
    seats after it (until this seat's turn) at `LATER` of that weight each; at 2
    players, this seat's own next turn at `SELF_TWO_SEATS` (the plan's `steps` say
    which cards it keeps).

    Each card of a dealt hand at its cheapest pile, the `need` cheapest summed: close
    enough to that player's real plan, and quick enough to deal many hands.
    """
    seats = len(table.hand_sizes)
    following = (table.seat + 1) % seats
    size = min(table.hand_sizes[following], len(table.unseen))
    if seats == 1 or size <= 0:
        return 0.0
    need = min(size, table.min_play if table.draw_size else 1)
    # The cheapest pile of every unseen card, once; a dealt hand then only sorts.
    best = {card: _cheapest(table, card, tops) for card in table.unseen}
    total = 0.0
    samples = SAMPLES_FEW_SEATS if seats <= 3 else SAMPLES
    later = [(table.seat + k) % seats for k in range(2, seats)] if LATER else []
    mine: list[float] | None = None
    if SELF_TWO_SEATS and seats == 2 and steps is not None:
        played = {card for card, _ in steps}
        mine = [_cheapest(table, c, tops) for c in table.hand if c not in played]
        draw = min(len(played), table.draw_size, len(table.unseen) - size)
    for _ in range(samples):
        partner = _deal_one(table, following, size, rng)
        dealt = sorted(best[c] for c in partner)
        total += sum(dealt[:need])
        for s in later:
            # Dealt apart from the next player's hand, on the same piles: a rough
            # measure of how much room the round will use, quick enough to repeat.
            n = min(table.hand_sizes[s], len(table.unseen))
            if n:
                dealt = sorted(best[c] for c in _deal_one(table, s, n, rng))
                total += LATER * sum(dealt[:min(n, need)])
        if mine is not None:
            drawn = rng.sample([c for c in table.unseen if c not in partner], draw)
            own = sorted(mine + [best[c] for c in drawn])
            total += SELF_TWO_SEATS * sum(own[:need])
    return total / samples


class Strong:
    """Counts cards, plans the whole turn, respects and sends signals."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        steps = plan(_read(view), rng)
        if not steps:
            return End()
        return Plays(tuple((card, PILES[pile]) for card, pile in steps))

    def speak(self, view: dict[str, Any], rng: random.Random) -> Move | None:
        """The first signal of this seat that no longer says what its hand wants."""
        if view.get("over") or "hand" not in view:
            return None
        seat = int(view["seat"])
        signals = view.get("signals", {})
        for pile, wish in zip(PILES, wishes(_read(view)), strict=True):
            said = signals.get(pile, [])
            current = said[seat] if seat < len(said) else None
            if current != wish:
                return Signal(pile, wish)
        return None


def wishes(table: _Table) -> list[str | None]:
    """Per pile, what to ask of the others: "don't play" where this hand holds the
    backward jump, "no big jump" where it holds a card close to the top. Never a
    number: only which pile, and how much care.

    Said sparingly: every request costs the others room. "No big jump" covers a window
    of `SMALL_SIGNAL_GAP` numbers, which the others weigh by how much of it a play
    skips; with a flat weight, asking only for the very next number had played best."""
    out: list[str | None] = []
    for pile in range(4):
        top = table.tops[pile]
        back = top - JUMP if ASCENDING[pile] else top + JUMP
        gaps = [abs(card - top) for card in table.hand
                if playable(card, pile, top) and card != back]
        if back in table.hand or (gaps and min(gaps) <= STOP_SIGNAL_GAP):
            out.append(STOP)
        elif gaps and min(gaps) <= SMALL_SIGNAL_GAP:
            out.append(SMALL)
        else:
            out.append(None)
    return out


def _endgame(table: _Table, finished: list[tuple[float, list[_Step], list[int]]],
             cheapest: tuple[float, list[_Step], list[int], list[int]],
             rng: random.Random) -> list[_Step]:
    """Once the draw pile is gone every card left is in a hand: the unseen cards are
    exactly the other hands, only their split is unknown, so the end can be played out
    instead of guessed from costs. Each plan (the best ones, the bare minimum, every
    card that goes) is played to the end over `ENDGAME` splits dealt at random, every
    seat playing its cheapest card and then every free one, and the plan leaving the
    fewest cards on average wins (ties: the cost order). Every plan meets the same
    splits, so luck does not decide between them."""
    plans = _end_plans(table, finished, cheapest)
    seats = len(table.hand_sizes)
    others = [s for s in range(seats) if s != table.seat and table.hand_sizes[s]]
    totals = [0.0] * len(plans)
    for _ in range(ENDGAME):
        hands = _split(table, others, rng)
        for i, steps in enumerate(plans):
            played = {c for c, _ in steps}
            tops_ = list(table.tops)
            for card, pile in steps:
                tops_[pile] = card
            world = {s: list(h) for s, h in hands.items()}
            world[table.seat] = [c for c in table.hand if c not in played]
            totals[i] += _finish(world, tops_, (table.seat + 1) % seats, seats)
    best = min(range(len(plans)), key=lambda i: (totals[i], i))
    return plans[best]


def _end_plans(table: _Table, finished: list[tuple[float, list[_Step], list[int]]],
               cheapest: tuple[float, list[_Step], list[int], list[int]]) -> list[list[_Step]]:
    """The plans worth playing out at the end: the best ones by cost, the bare minimum,
    and every card that still goes."""
    spent, steps, hand, tops = cheapest
    plans = [steps for _, steps, _ in sorted(finished, key=lambda f: f[0])]
    more, _, _, _ = _all_out(table, steps, spent, hand, tops)
    for extra in (steps, more):
        if extra not in plans:
            plans.append(extra)
    return plans


def _last_draw(table: _Table, finished: list[tuple[float, list[_Step], list[int]]],
               cheapest: tuple[float, list[_Step], list[int], list[int]],
               rng: random.Random) -> list[_Step] | None:
    """At 2 players, a turn that empties the draw pile (it holds no more than the
    minimum) leaves a game of perfect information behind it, whatever was drawn: each
    plan is searched to the end over the ways the pile may be made (`last_draw`), and
    the one leaving the fewest cards on average wins (ties: the cost order). None when
    the search runs over its budget."""
    plans = _end_plans(table, finished, cheapest)
    after = [(tops, hand) for tops, hand, _ in _afters(table, plans)]
    groups, never = table.holds.get(1 - table.seat, ([], set()))

    def fits(partner: set[int]) -> bool:
        return not never & partner and all(any(c in partner for c in g) for g in groups)

    left = last_draw(after, table.unseen, table.draw_size, fits, rng, LAST_DRAW_SPLITS)
    if left is None:
        return None
    return plans[min(range(len(plans)), key=lambda i: (left[i], i))]


def _afters(table: _Table, plans: list[list[_Step]]
            ) -> list[tuple[list[int], list[int], int]]:
    """Each plan's piles, the hand it keeps and the cards played so far, once played."""
    after = []
    for steps in plans:
        played = {card for card, _ in steps}
        tops = list(table.tops)
        for card, pile in steps:
            tops[pile] = card
        after.append((tops, [c for c in table.hand if c not in played],
                      table.played + len(steps)))
    return after


def _played_out(table: _Table, finished: list[tuple[float, list[_Step], list[int]]],
                cheapest: tuple[float, list[_Step], list[int], list[int]],
                rng: random.Random) -> list[_Step] | None:
    """At 2 players with a few cards left to draw, each plan searched to the end over
    `WORLDS` deals of the partner's hand (as its signals say) and the draw pile's order
    (`played_out`); the one missing the goal (10 cards or more) in the fewest of them
    wins, then the one leaving the fewest cards on average (ties: the cost order).
    None when the search runs over its budget."""
    plans = _end_plans(table, finished, cheapest)
    left = played_out(_afters(table, plans), _worlds(table, WORLDS, rng), table.min_play,
                      DRAW_BUDGET, miss=DRAW_MISS)
    if left is None:
        return None
    return plans[min(range(len(plans)), key=lambda i: (left[i], i))]


def _worlds(table: _Table, count: int, rng: random.Random
            ) -> list[tuple[list[int], list[int]]]:
    """Deals of the partner's hand (as its signals say) and of the draw pile's order."""
    partner = 1 - table.seat
    size = min(table.hand_sizes[partner], len(table.unseen))
    worlds = []
    for _ in range(count):
        hand = _deal_one(table, partner, size, rng)
        held = set(hand)
        pile = [c for c in table.unseen if c not in held]
        rng.shuffle(pile)
        worlds.append((hand, pile))
    return worlds


def _reaching(table: _Table, finished: list[tuple[float, list[_Step], list[int]]],
              rng: random.Random) -> list[tuple[float, list[_Step], list[int]]]:
    """At 2 players with `DRAW_FAR` cards or fewer to draw: the plans that can still
    end under 10 cards in the most of `FAR_WORLDS` deals, each searched only that far
    (`played_out` with `under`), as if both seats saw every card. Every plan when the
    search runs over its budget."""
    missed = played_out(_afters(table, [steps for _, steps, _ in finished]),
                        _worlds(table, FAR_WORLDS, rng), table.min_play, FAR_BUDGET,
                        under=UNDER)
    if missed is None:
        return finished
    fewest = min(missed)
    return [f for f, m in zip(finished, missed, strict=True) if m == fewest]


def _split(table: _Table, others: list[int], rng: random.Random) -> dict[int, list[int]]:
    """The unseen cards dealt among the other hands, as their signals say where they
    can (the cards they must hold first, then the rest to seats not ruling them out)."""
    if not INFER or len(others) < 2:
        cards = list(table.unseen)
        rng.shuffle(cards)
        hands: dict[int, list[int]] = {}
        at = 0
        for s in others:
            hands[s] = cards[at:at + table.hand_sizes[s]]
            at += table.hand_sizes[s]
        return hands
    hands = {s: [] for s in others}
    taken: set[int] = set()
    order = list(others)
    rng.shuffle(order)
    for s in order:
        groups, _ = table.holds.get(s, ([], set()))
        for group in groups:
            free = [c for c in group if c not in taken]
            if free and len(hands[s]) < table.hand_sizes[s] and \
                    not any(c in hands[s] for c in group):
                card = rng.choice(free)
                hands[s].append(card)
                taken.add(card)
    rest = [c for c in table.unseen if c not in taken]
    rng.shuffle(rest)
    spill: list[int] = []
    for card in rest:
        room = [s for s in order if len(hands[s]) < table.hand_sizes[s]
                and card not in table.holds.get(s, ([], set()))[1]]
        if room:  # each seat by the room it has left, as a fair deal would
            weights = [table.hand_sizes[s] - len(hands[s]) for s in room]
            hands[rng.choices(room, weights)[0]].append(card)
        else:
            spill.append(card)
    for card in spill:
        room = [s for s in order if len(hands[s]) < table.hand_sizes[s]]
        if room:
            hands[rng.choice(room)].append(card)
    return hands


def _finish(hands: dict[int, list[int]], tops: list[int], turn: int, seats: int) -> int:
    """Cards left when a greedy team plays the hands out, the draw pile gone: each seat
    with cards its cheapest play (live cards skipped), then every free one; the game
    ends when a seat holding cards has no play. `hands` and `tops` are used up."""
    live = sorted(c for h in hands.values() for c in h)
    while live:
        hand = hands.get(turn)
        if hand:
            first = True
            while hand:
                best = None
                for card in hand:
                    for pile in range(4):
                        c = play_cost(card, tops[pile], pile < 2, live)
                        if c is not None and (best is None or c < best[0]):
                            best = (c, card, pile)
                if best is None:
                    if first:
                        return len(live)
                    break
                c, card, pile = best
                if not first and c > 0:
                    break
                hand.remove(card)
                live.remove(card)
                tops[pile] = card
                first = False
        turn = (turn + 1) % seats
    return 0
