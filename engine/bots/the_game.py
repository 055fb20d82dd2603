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
  cheapest turn;
- it talks: "please don't play here" on a pile where it holds the backward jump,
  "no big jump here" where it holds a card close to the top, and it withdraws them
  when they no longer hold; it weighs others' signals before playing on their piles.
"""

import random
from dataclasses import dataclass
from typing import Any

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

STOP_PENALTY = 20.0  # playing where someone asked not to: only when nothing else is bearable
SMALL_PENALTY = 8.0  # a big jump where someone asked for small ones
SMALL_OK = 3  # skipping this many live cards is not a "big jump"
DEAD_IN_HAND = 10.0  # a card of one's own hand that no pile takes any more
DEAD_UNSEEN = 3.0  # a card still to come that no pile takes any more
EXTRA = 2.5  # a play beyond the minimum is worth it when it costs less than this
EXTRA_EMPTY_DRAW = 1.5  # once the draw pile is gone, a play more no longer draws a card
STOP_SIGNAL_SKIP = 0  # holding the backward jump, or the very next live card: "don't play"
SMALL_SIGNAL_SKIP = 3  # holding a card this close to the top: "no big jump here"
BRANCH = 7  # plays tried at each step of the plan search, cheapest first
CANDIDATES = 4  # plans compared by looking ahead at the next player's turn
SAMPLES = 6  # hands dealt to the next player from the unseen cards, per candidate
LOOKAHEAD_WEIGHT = 0.5


@dataclass(slots=True)
class _Table:
    """What the bot knows: its hand, the tops, and which cards are still alive."""

    seat: int
    hand: list[int]
    tops: list[int]
    alive: list[int]  # alive[c] = 1 if card c is not on a pile yet (prefix sums below)
    prefix: list[int]
    unseen: list[int]  # alive cards not in this hand: other hands and the draw pile
    penalties: list[tuple[float, float]]  # per pile: (stop, small) weight of others' signals
    need: int
    draw_size: int
    hand_sizes: list[int]
    dead_unseen: int = 0  # unseen cards already dead before this turn
    need_next: int = 0  # the next player's minimum, for the lookahead

    def between(self, low: int, high: int) -> int:
        """Live cards strictly between `low` and `high`."""
        if high - low <= 1:
            return 0
        return self.prefix[high] - self.prefix[low + 1]


def _read(view: dict[str, Any]) -> _Table:
    seat = int(view["seat"])
    hand = _hand(view)
    alive = [0] * (HIGHEST + 2)
    gone = set(view.get("on_piles", []))
    for card in range(LOWEST, HIGHEST + 1):
        if card not in gone:
            alive[card] = 1
    prefix = [0] * (HIGHEST + 3)
    for i in range(HIGHEST + 2):
        prefix[i + 1] = prefix[i] + alive[i]
    mine = set(hand)
    unseen = [c for c in range(LOWEST, HIGHEST + 1) if alive[c] and c not in mine]
    penalties: list[tuple[float, float]] = []
    signals = view.get("signals", {})
    for pile in PILES:
        others = [kind for s, kind in enumerate(signals.get(pile, [])) if s != seat]
        penalties.append((STOP_PENALTY if STOP in others else 0.0,
                          SMALL_PENALTY if SMALL in others else 0.0))
    need = max(0, (view.get("minimum") or 0) - view.get("played", 0))
    tops = _tops(view)
    draw_size = int(view.get("draw_size", 0))
    return _Table(seat=seat, hand=hand, tops=tops, alive=alive, prefix=prefix,
                  unseen=unseen, penalties=penalties, need=need, draw_size=draw_size,
                  hand_sizes=list(view.get("hand_sizes", [])),
                  dead_unseen=_dead(unseen, tops),
                  need_next=int(view.get("min_play", 2)) if draw_size else 1)


def skipped(table: _Table, card: int, pile: int, top: int) -> int:
    """Live cards a play skips on its pile; a backward jump gives them back (negative)."""
    if ASCENDING[pile]:
        if card > top:
            return table.between(top, card)
        return -(table.between(card, top) + 1)  # card == top - 10
    if card < top:
        return table.between(card, top)
    return -(table.between(top, card) + 1)


def _play_cost(table: _Table, card: int, pile: int, top: int, signals: bool = True) -> float:
    skip = skipped(table, card, pile, top)
    cost = float(skip)
    if signals:
        stop, small = table.penalties[pile]
        cost += stop
        if skip > SMALL_OK:
            cost += small
    return cost


def _dead(cards: list[int], tops: list[int]) -> int:
    """Cards no pile takes any more (short of some other card jumping a pile back)."""
    low_a = min(tops[0], tops[1])
    high_d = max(tops[2], tops[3])
    dead = 0
    for card in cards:
        if card < low_a and card > high_d and card != tops[0] - JUMP \
                and card != tops[1] - JUMP and card != tops[2] + JUMP \
                and card != tops[3] + JUMP:
            dead += 1
    return dead


_Plan = tuple[tuple[int, int], ...]  # (card, pile index) in order


def _options(table: _Table, hand: list[int], tops: list[int]) -> list[tuple[float, int, int]]:
    out = [(_play_cost(table, card, p, tops[p]), card, p)
           for card in hand for p in range(4) if playable(card, p, tops[p])]
    out.sort()
    return out[:BRANCH]


def _after(tops: list[int], card: int, pile: int) -> list[int]:
    moved = list(tops)
    moved[pile] = card
    return moved


def _leaf(table: _Table, hand: list[int], tops: list[int]) -> float:
    """What a position costs beyond its plays: cards that can no longer go anywhere."""
    return (DEAD_IN_HAND * _dead(hand, tops)
            + DEAD_UNSEEN * max(0, _dead(table.unseen, tops) - table.dead_unseen))


def _plans(table: _Table) -> list[tuple[float, _Plan, list[int], list[int]]]:
    """The cheapest ways to play the minimum, each extended with the plays worth adding.

    The minimum part is searched exhaustively over the `BRANCH` cheapest plays at each
    step (it is at most 3 deep); extras are then added while a play, or a play followed
    by the backward jump it sets up, costs less than the bar for extras.
    """
    found: list[tuple[float, _Plan, list[int], list[int]]] = []

    def minimum_part(hand: list[int], tops: list[int], plan: _Plan, cost: float) -> None:
        if len(plan) >= table.need:
            found.append((cost, plan, hand, tops))
            return
        for step_cost, card, pile in _options(table, hand, tops):
            rest = [c for c in hand if c != card]
            minimum_part(rest, _after(tops, card, pile), (*plan, (card, pile)),
                         cost + step_cost)

    minimum_part(table.hand, table.tops, (), 0.0)
    found.sort(key=lambda f: f[0])
    bar = EXTRA if table.draw_size else EXTRA_EMPTY_DRAW
    out = []
    for cost, plan, hand, tops in found[:CANDIDATES * 3]:
        plan, hand, tops, extra_cost = _extend(table, plan, hand, tops, bar)
        total = cost + extra_cost + _leaf(table, hand, tops)
        out.append((total, plan, hand, tops))
    out.sort(key=lambda f: f[0])
    return out


def _extend(table: _Table, plan: _Plan, hand: list[int], tops: list[int],
            bar: float) -> tuple[_Plan, list[int], list[int], float]:
    """Add the plays worth making beyond the minimum, each valued against the bar."""
    total = 0.0
    while hand:
        best: tuple[float, tuple[tuple[int, int], ...]] | None = None
        for cost, card, pile in _options(table, hand, tops):
            if cost < bar and (best is None or cost - bar < best[0]):
                best = (cost - bar, ((card, pile),))
            # A play that sets up one's own backward jump on the same pile.
            back = card - JUMP if ASCENDING[pile] else card + JUMP
            if back in hand:
                pair = cost + _play_cost(table, back, pile, card)
                if pair < 2 * bar and (best is None or pair - 2 * bar < best[0]):
                    best = (pair - 2 * bar, ((card, pile), (back, pile)))
        if best is None:
            break
        for card, pile in best[1]:
            total += _play_cost(table, card, pile, tops[pile])
            hand = [c for c in hand if c != card]
            tops = _after(tops, card, pile)
        plan = plan + best[1]
    return plan, hand, tops, total


def _next_turn_cost(table: _Table, tops: list[int], rng: random.Random) -> float:
    """The next player's cheapest minimum, averaged over hands dealt from the unseen cards."""
    seats = len(table.hand_sizes)
    if seats <= 1 or not table.unseen:
        return 0.0
    nxt = (table.seat + 1) % seats
    size = table.hand_sizes[nxt] if nxt < seats else 0
    if size <= 0:
        return 0.0
    size = min(size, len(table.unseen))
    need = min(size, table.need_next)
    total = 0.0
    for _ in range(SAMPLES):
        hand = sorted(rng.sample(table.unseen, size))
        total += _greedy(table, hand, tops, need)
    return total / SAMPLES


def _greedy(table: _Table, hand: list[int], tops: list[int], need: int) -> float:
    cost = 0.0
    for _ in range(need):
        options = [(_play_cost(table, c, p, tops[p], signals=False), c, p)
                   for c in hand for p in range(4) if playable(c, p, tops[p])]
        if not options:
            return cost + DEAD_IN_HAND * 3  # the team would lose here
        step, card, pile = min(options)
        cost += step
        hand = [c for c in hand if c != card]
        tops = _after(tops, card, pile)
    return cost


class Strong:
    """Counts cards, plans the whole turn, looks ahead over the unseen cards, signals."""

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        table = _read(view)
        plans = _plans(table)
        if not plans or not plans[0][1]:
            return End()
        if len(table.hand_sizes) > 1 and len(plans) > 1:
            scored = [(total + LOOKAHEAD_WEIGHT * _next_turn_cost(table, tops, rng), i)
                      for i, (total, _, _, tops) in enumerate(plans[:CANDIDATES])]
            best = plans[min(scored)[1]]
        else:
            best = plans[0]
        plan = best[1]
        if not plan:
            return End()
        return Plays(tuple((card, PILES[pile]) for card, pile in plan))

    def speak(self, view: dict[str, Any], rng: random.Random) -> Move | None:
        """The first signal of this seat that no longer says what its hand wants."""
        if view.get("over") or "hand" not in view:
            return None
        table = _read(view)
        wanted = wishes(table)
        mine = view.get("signals", {})
        for pile, wish in zip(PILES, wanted, strict=True):
            said = mine.get(pile, [])
            current = said[table.seat] if table.seat < len(said) else None
            if current != wish:
                return Signal(pile, wish)
        return None


def wishes(table: _Table) -> list[str | None]:
    """Per pile, what to ask of the others: "don't play" where this hand holds the
    backward jump or the next live card, "no big jump" where it holds a card close to
    the top. Never a number: only which pile, and how much care."""
    out: list[str | None] = []
    for pile in range(4):
        top = table.tops[pile]
        best: int | None = None
        for card in table.hand:
            if playable(card, pile, top):
                skip = skipped(table, card, pile, top)
                best = skip if best is None else min(best, skip)
        if best is not None and best <= STOP_SIGNAL_SKIP:
            out.append(STOP)
        elif best is not None and best <= SMALL_SIGNAL_SKIP:
            out.append(SMALL)
        else:
            out.append(None)
    return out
