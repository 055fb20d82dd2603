"""Determinized search shared by the strong bots of the shedding and trick games.

Perfect Information Monte Carlo (PIMC): deal the cards the seat cannot see in one way
consistent with its view (a "world"), play every candidate move out in that world with
a quick heuristic policy for every seat, and repeat with other worlds; the move with
the best total wins. Every candidate meets the same worlds and the same rollout seeds,
so the comparison between candidates is not drowned in the luck of the deal.

The budget is a count of rollouts, never the clock: the same view and the same `rng`
give the same move on any machine.
"""

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.core.errors import IllegalMove
from engine.core.types import Move

W = TypeVar("W")
M = TypeVar("M", bound=Move)
T = TypeVar("T")


def pimc(
    candidates: Sequence[M],
    world: Callable[[random.Random], W],
    rollout: Callable[[W, M, random.Random], float],
    rng: random.Random,
    rollouts: int,
    min_worlds: int = 2,
) -> M:
    """The candidate with the best summed rollout value (ties: the earlier candidate, so
    callers list their heuristic's favourite first)."""
    if len(candidates) == 1:
        return candidates[0]
    worlds = max(min_worlds, rollouts // len(candidates))
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        sample = world(rng)
        seed = rng.getrandbits(32)
        for i, move in enumerate(candidates):
            totals[i] += rollout(sample, move, random.Random(seed))
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def deal(
    cards: Sequence[str],
    sizes: dict[int, int],
    allowed: Callable[[str, int], bool] | None,
    rng: random.Random,
    tries: int = 20,
) -> dict[int, list[str]]:
    """Share `cards` among holders with the given sizes at random, each card only to a
    holder `allowed` to have it (what the play so far rules out). Cards go out most
    constrained first; when the random choices paint themselves into a corner, the deal
    starts again, and after `tries` failures the constrained cards are placed by
    augmenting paths (`_matched`), which finds them a place whenever one exists: the
    true deal is one, and a world that gives a seat a card it cannot hold misleads
    every rollout played in it. Only a card no holder may have goes anywhere."""
    holders = list(sizes)
    if allowed is None:
        order = list(cards)
        rng.shuffle(order)
        out: dict[int, list[str]] = {}
        for h in holders:
            out[h], order = order[:sizes[h]], order[sizes[h]:]
        return out
    for _ in range(tries):
        order = list(cards)
        rng.shuffle(order)
        options = {c: [h for h in holders if allowed(c, h)] for c in set(order)}
        order.sort(key=lambda c: len(options[c]))
        room = dict(sizes)
        out = {h: [] for h in holders}
        for card in order:
            open_ = [h for h in options[card] if room[h] > 0]
            if not open_:
                break
            # Weighted by the room left, so an unconstrained deal is uniform.
            pick = rng.choices(open_, weights=[room[h] for h in open_])[0]
            out[pick].append(card)
            room[pick] -= 1
        else:
            return out
    return _matched(cards, sizes, allowed, rng)


def _matched(cards: Sequence[str], sizes: dict[int, int],
             allowed: Callable[[str, int], bool], rng: random.Random) -> dict[int, list[str]]:
    """A deal respecting every constraint that some deal respects: the constrained cards
    placed one by one, each by an augmenting path (a holder with room, or one whose
    card can move on to another holder with room, and so on), which places as many as
    any deal can; then the free cards and any left over fill the room at random."""
    holders = list(sizes)
    options: list[list[int]] = []
    tied: list[int] = []  # indices into `cards`: cards some holder may not have
    free: list[int] = []
    for i, card in enumerate(cards):
        may = [h for h in holders if allowed(card, h)]
        options.append(may)
        (free if len(may) == len(holders) else tied).append(i)
    placed, unplaced = matched(tied, lambda i: options[i], sizes, rng)
    # A card no deal can place (it cannot happen with a true view) joins the free ones.
    rest = free + unplaced
    rng.shuffle(rest)
    out: dict[int, list[str]] = {}
    for h in holders:
        n = sizes[h] - len(placed[h])
        out[h] = [cards[i] for i in placed[h] + rest[:n]]
        rest = rest[n:]
    return out


def matched(items: list[T], options: Callable[[T], list[int]], room: dict[int, int],
            rng: random.Random) -> tuple[dict[int, list[T]], list[T]]:
    """`items` (shuffled in place) given to holders they may go to, at most `room[h]`
    each, one by one by augmenting paths: a holder with room, or one whose item can move
    on to another holder with room, and so on, which places as many as any assignment
    can. Returns what each holder got and the items nothing could place."""
    placed: dict[int, list[T]] = {h: [] for h in room}

    def place(item: T, tried: set[int]) -> bool:
        choices = options(item)[:]
        rng.shuffle(choices)
        for h in choices:
            if h in tried:
                continue
            tried.add(h)
            if len(placed[h]) < room[h]:
                placed[h].append(item)
                return True
            for other in placed[h]:
                if place(other, tried):
                    placed[h].remove(other)
                    placed[h].append(item)
                    return True
        return False

    rng.shuffle(items)
    return placed, [item for item in items if not place(item, set())]


def must_act(to_act: list[int], seat: int) -> None:
    """A bot asked to move for a seat not to act refuses plainly, naming who is (a
    caller's bug), rather than failing somewhere inside its search."""
    if seat not in to_act:
        raise IllegalMove("not_your_turn", seat=seat, to_act=to_act)
