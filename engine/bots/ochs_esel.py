"""Ochs & Esel bots: `Easy` (the baseline heuristic) and `Strong` (determinized search).

Both see only `view(state, seat)`. To reuse the engine's rules they rebuild an engine
state from the view: `Easy` with the other hands left empty (`seen`: its heuristic never
looks at them), `Strong` with the cards it cannot see dealt at random, consistent
with what the view reveals: the seat's own hand, the cards gone this round, the cards
a hand is known to hold since it took a donkey trick, where the animals are, and every
hand's size. Undealt cards are as unknown as the other hands, so they share one pool.
"""

import random
from collections import Counter
from typing import Any

from engine import ochs_esel as oe
from engine.bots.search import deal, must_act, pimc
from engine.core.types import Move

_UNDEALT = -1  # the holder of the cards set aside this round
ROLLOUTS = 48  # per decision, spread over the candidates; keeps p99 under 50 ms


def world(view: dict[str, Any], rng: random.Random | None) -> oe.State:
    """An engine state matching the view; hidden cards dealt by `rng`, or in deck order."""
    seat: int = view["seat"]
    sizes: list[int] = view["hand_sizes"]
    seats = len(sizes)
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[seat] = list(view["hand"])
    known: list[list[str]] = [list(k) for k in view["known"]]
    unseen = Counter(oe.DECK) + Counter(oe.ANIMALS if view["ox"] else (oe.DONKEY,))
    unseen -= Counter(view["hand"]) + Counter(view["discards"])
    unseen -= Counter(c for p in view["trick"]["plays"] for c in p["cards"])
    middle: list[str] = []
    piles: list[list[str]] = [[] for _ in range(seats)]
    piles[seat] = list(view["ox_pile"])
    for animal, place in view["animals"].items():
        unseen[animal] = 0
        if place["place"] == "hand" and place["seat"] != seat:
            hands[place["seat"]].append(animal)
        elif place["place"] == "middle":
            middle.append(animal)
        elif place["place"] == "pile" and place["seat"] != seat:
            piles[place["seat"]].append(animal)  # the rest of that pile counts for nobody
    for s in range(seats):
        if s != seat:
            hands[s].extend(known[s])
            unseen -= Counter(known[s])
    pool = sorted(unseen.elements(), key=oe.sort_cards([*oe.NUMBERS, oe.JOKER]).index)
    wanted = {s: sizes[s] - len(hands[s]) for s in range(seats) if s != seat}
    wanted[_UNDEALT] = len(pool) - sum(wanted.values())
    if rng is None:
        for s, n in wanted.items():
            if s != _UNDEALT:
                hands[s].extend(pool[:n])
                pool = pool[n:]
    else:
        dealt = deal(pool, wanted, lambda _card, _holder: True, rng)
        for s in range(seats):
            if s != seat:
                hands[s].extend(dealt[s])
    return _state(view, [oe.sort_cards(h) for h in hands], piles, middle, known)


def seen(view: dict[str, Any]) -> oe.State:
    """The table as the seat sees it, with the other hands left empty: all the baseline
    reads is its own hand and the trick, and working out and dealing the hidden cards as
    `world` does was most of an easy bot's move."""
    seat: int = view["seat"]
    seats = len(view["hand_sizes"])
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[seat] = list(view["hand"])
    piles: list[list[str]] = [[] for _ in range(seats)]
    piles[seat] = list(view["ox_pile"])
    middle = [animal for animal, place in view["animals"].items()
              if place["place"] == "middle"]
    return _state(view, hands, piles, middle, [list(k) for k in view["known"]])


def _state(view: dict[str, Any], hands: list[list[str]], piles: list[list[str]],
           middle: list[str], known: list[list[str]]) -> oe.State:
    """The engine state of the view around the given hands and piles."""
    trick = view["trick"]
    plays = [oe.Turn(p["seat"], list(p["cards"])) for p in trick["plays"]]
    return oe.State(
        seats=len(hands), seed=0, rounds=view["rounds"], ox=view["ox"], round=view["round"],
        first=view["first"], hands=hands, ox_piles=piles,
        middle=middle, received=dict(view["received"]),
        trick=oe.Trick(
            number=trick["number"], leader=trick["leader"], kind=trick["kind"],
            count=trick["count"], plays=plays,
            best_seat=-1 if trick["best_seat"] is None else trick["best_seat"],
            best_value=-1 if trick["best_value"] is None else trick["best_value"],
            pending=list(view["pending"])),
        scores=list(view["scores"]), round_scores=[list(r) for r in view["round_scores"]],
        over=view["over"], discards=list(view["discards"]), known=known)


def policy(state: oe.State, seat: int, rng: random.Random) -> Move:
    """The baseline: sheds low sets early, keeps jokers for beating, leads animals as soon
    as allowed. It reads the seat's own hand and the table only."""
    moves = oe.legal_moves(state, seat)
    plays = [m for m in moves if isinstance(m, oe.Play)]
    trick = state.trick
    if not trick.plays:
        animal = next((m for m in plays if m.cards[0] in oe.ANIMALS), None)
        if animal is not None:
            return animal
        sets = [m for m in plays if m.cards[0] not in oe.ANIMALS]
        # Lead the lowest value with every copy of it, jokers kept back.
        natural = [m for m in sets if oe.JOKER not in m.cards] or sets
        return min(natural, key=lambda m: (oe.set_value(m.cards), -len(m.cards), rng.random()))
    if trick.kind != oe.NORMAL:
        if not plays:
            return moves[0]
        # Shed the highest card that cannot take the trick; else the lowest one.
        safe = [m for m in plays if oe.animal_trick_value(m.cards[0]) < trick.best_value]
        if safe:
            return max(safe, key=lambda m: (oe.animal_trick_value(m.cards[0]),
                                            m.cards[0] != oe.JOKER))
        return min(plays, key=lambda m: (oe.animal_trick_value(m.cards[0]),
                                         m.cards[0] == oe.JOKER))
    if not plays:
        return oe.Pass()
    natural = [m for m in plays if oe.JOKER not in m.cards]
    if natural:
        return min(natural, key=lambda m: oe.set_value(m.cards) or 0)
    # Jokers are for beating: spend them when the hand is nearly out.
    if len(state.hands[seat]) <= trick.count + 2:
        return min(plays, key=lambda m: (m.cards.count(oe.JOKER), oe.set_value(m.cards) or 0))
    return oe.Pass()


class Easy:
    """Today's baseline bot, seeing only its view."""

    speak = None  # plays in its turn only

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        state, seat = seen(view), view["seat"]
        must_act(oe.to_act(state), seat)
        return policy(state, seat, rng)


def candidates(state: oe.State, seat: int, rng: random.Random) -> list[Move]:
    """The moves worth searching, the baseline's favourite first: per value, the set
    that sheds the most cards for the fewest jokers, without jokers and with them; jokers
    alone; the animals; passing. (In a donkey or ox trick: every card.)"""
    moves = oe.legal_moves(state, seat)
    first = policy(state, seat, rng)
    if state.trick.kind != oe.NORMAL:
        keep = moves
    else:
        best: dict[tuple[int, bool], oe.Play] = {}
        for m in moves:
            if not isinstance(m, oe.Play):
                continue
            value = oe.set_value(m.cards) or 0
            key = (value, oe.JOKER in m.cards and value != oe.LONE_JOKER_VALUE)
            if m.cards[0] in oe.ANIMALS:
                key = (-1 - oe.ANIMALS.index(m.cards[0]), False)
            old = best.get(key)
            if old is None or _shed(m) > _shed(old):
                best[key] = m
        keep = [*best.values(), *(m for m in moves if isinstance(m, oe.Pass))]
    return [first, *(m for m in keep if m != first)]


def _shed(play: oe.Play) -> tuple[int, int]:
    """Most cards shed for the fewest jokers spent."""
    jokers = play.cards.count(oe.JOKER)
    return len(play.cards) - 2 * jokers, -jokers


def _rollout(sim: "_Sim", seat: int, move: Move) -> float:
    """Plays the round out with the baseline for every seat; the value is the round's
    penalty the others take on average minus the seat's own."""
    sim = sim.copy()
    over = sim.apply_move(seat, move)
    while not over:
        actor = sim.to_act()
        over = sim.play(actor, sim.pick(actor))
    penalties = sim.penalties()
    others = (sum(penalties) - penalties[seat]) / (len(penalties) - 1)
    return others - penalties[seat]


class Strong:
    """Determinized search: every candidate played out in worlds dealt from the view."""

    speak = None  # plays in its turn only

    def __init__(self, rollouts: int = ROLLOUTS) -> None:
        self.rollouts = rollouts

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        seat: int = view["seat"]
        known = seen(view)
        must_act(oe.to_act(known), seat)
        moves = candidates(known, seat, rng)
        return pimc(moves, lambda r: _Sim(world(view, r)),
                    lambda sim, m, _r: _rollout(sim, seat, m), rng, self.rollouts)


# --- the fast rollout -----------------------------------------------------------------------
# The engine's `apply` checks every move and copies the whole state; a rollout only ever
# plays moves the baseline picked from legal ones, so it runs on card counts instead:
# index 1-13 the numbers, then the joker, the donkey and the ox. Same rules, same policy
# (tests/engine/test_bots_ochs_esel.py plays both side by side).

_J, _D, _O = 14, 15, 16
_INDEX = {**{n: int(n) for n in oe.NUMBERS}, oe.JOKER: _J, oe.DONKEY: _D, oe.OX: _O}
_CODE = {i: c for c, i in _INDEX.items()}
_PENALTY = [0, *range(1, 14), 14, 20, 15]


class _Sim:
    """One round from the current trick on, for rollouts."""

    __slots__ = (
        "best_seat",
        "best_value",
        "count",
        "hands",
        "kind",
        "leader",
        "led",
        "middle",
        "number",
        "ox",
        "pending",
        "piles",
        "received",
        "seats",
        "trick_cards",
    )

    def __init__(self, state: oe.State) -> None:
        self.seats = state.seats
        self.ox = state.ox
        self.hands = []
        for hand in state.hands:
            counts = [0] * 17
            for card in hand:
                counts[_INDEX[card]] += 1
            self.hands.append(counts)
        self.piles = [oe.ox_pile_penalty(p) for p in state.ox_piles]
        self.middle = [_INDEX[a] for a in state.middle]
        self.received = {_INDEX[a]: n for a, n in state.received.items()}
        trick = state.trick
        self.number, self.leader = trick.number, trick.leader
        self.kind = {oe.NORMAL: 0, oe.DONKEY_TRICK: _D, oe.OX_TRICK: _O}[trick.kind]
        self.count, self.best_value, self.best_seat = trick.count, trick.best_value, \
            trick.best_seat
        self.pending = list(trick.pending)
        self.trick_cards = [_INDEX[c] for p in trick.plays for c in p.cards]
        self.led = bool(trick.plays)

    def copy(self) -> "_Sim":
        new = object.__new__(_Sim)
        new.seats, new.ox = self.seats, self.ox
        new.hands = [h[:] for h in self.hands]
        new.piles = self.piles[:]
        new.middle = self.middle[:]
        new.received = dict(self.received)
        new.number, new.leader, new.kind = self.number, self.leader, self.kind
        new.count, new.best_value, new.best_seat = self.count, self.best_value, self.best_seat
        new.pending = self.pending[:]
        new.trick_cards = self.trick_cards[:]
        new.led = self.led
        return new

    def to_act(self) -> int:
        return self.pending[0] if self.led else self.leader

    def pick(self, seat: int) -> tuple[int, int, int]:
        """The baseline's move as (value index, numbers, jokers); (animal, 1, 0) leads an
        animal, (0, 0, 0) passes."""
        hand = self.hands[seat]
        jokers = hand[_J]
        if not self.led:
            for animal in (_D, _O):
                if hand[animal] and (self.number == 1
                                     or self.number >= self.received.get(animal, 0) + 2):
                    return animal, 1, 0
            for v in range(1, 14):
                if hand[v]:
                    return v, hand[v], 0
            if jokers:
                return _J, 0, jokers
            return (_D if hand[_D] else _O), 1, 0
        if self.kind:
            best = self.best_value
            safe = -1
            for v in range(best - 1, 0, -1):
                if hand[v]:
                    safe = v
                    break
            if safe >= 1:
                return safe, 1, 0
            if best > 1 and jokers:
                return _J, 0, 1
            if hand[1]:
                return 1, 1, 0
            if jokers:
                return _J, 0, 1
            for v in range(2, 14):
                if hand[v]:
                    return v, 1, 0
            return 0, 0, 0
        count, best = self.count, self.best_value
        for v in range(max(best + 1, 1), 14):
            if hand[v] >= count:
                return v, count, 0
        if not jokers or sum(hand) > count + 2:
            return 0, 0, 0
        options = [(count - min(hand[v], count), v) for v in range(max(best + 1, 1), 14)
                   if hand[v] and hand[v] + jokers >= count]
        if best < oe.LONE_JOKER_VALUE and jokers >= count:
            options.append((count, _J))
        if not options:
            return 0, 0, 0
        used, v = min(options)
        return (v, count - used, used) if v != _J else (_J, 0, count)

    def play(self, seat: int, move: tuple[int, int, int]) -> bool:
        """Applies the move; True when the round is over."""
        v, numbers, jokers = move
        hand = self.hands[seat]
        if not self.led:
            self.led = True
            if v in (_D, _O):
                hand[v] -= 1
                self.kind, self.count, self.best_value = v, 1, 0
                self.received.pop(v, None)
                self.trick_cards = [v]
            else:
                hand[v] -= numbers
                hand[_J] -= jokers
                self.kind, self.count = 0, numbers + jokers
                self.best_value = oe.LONE_JOKER_VALUE if v == _J else v
                self.trick_cards = [v] * numbers + [_J] * jokers
            self.best_seat = seat
            s = self.seats
            self.pending = [(seat + i) % s for i in range(1, s)
                            if any(self.hands[(seat + i) % s])]
        else:
            self.pending.pop(0)
            if v:
                hand[v] -= numbers
                hand[_J] -= jokers
                self.trick_cards.extend([v] * numbers + [_J] * jokers)
                if self.kind:
                    value = 1 if v == _J else v
                    if value >= self.best_value:
                        self.best_seat, self.best_value = seat, value
                else:
                    self.best_seat, self.best_value = seat, (
                        oe.LONE_JOKER_VALUE if v == _J else v)
        return not self.pending and self._end_trick()

    def _end_trick(self) -> bool:
        winner = self.best_seat
        if self.kind == _D:
            for c in self.trick_cards:
                self.hands[winner][c] += 1
            self.received[_D] = self.number
        elif self.kind == _O:
            self.piles[winner] += sum(1 if c == _J else c for c in self.trick_cards
                                      if c != _O)
        if any(not any(h) for h in self.hands):
            return True
        if self.ox and self.number in (1, 2):
            animal = _O if self.number == 1 else _D
            if animal in self.middle:
                self.middle.remove(animal)
                self.hands[winner][animal] += 1
                self.received[animal] = self.number
        self.number += 1
        self.leader, self.led, self.kind, self.trick_cards = winner, False, 0, []
        return False

    def penalties(self) -> list[int]:
        return [sum(n * p for n, p in zip(h, _PENALTY, strict=True)) + pile
                for h, pile in zip(self.hands, self.piles, strict=True)]

    def apply_move(self, seat: int, move: Move) -> bool:
        if isinstance(move, oe.Pass):
            return self.play(seat, (0, 0, 0))
        assert isinstance(move, oe.Play)
        cards = [_INDEX[c] for c in move.cards]
        if cards[0] in (_D, _O):
            return self.play(seat, (cards[0], 1, 0))
        numbers = [c for c in cards if c != _J]
        jokers = len(cards) - len(numbers)
        if numbers:
            return self.play(seat, (numbers[0], len(numbers), jokers))
        return self.play(seat, (_J, 0, jokers))
