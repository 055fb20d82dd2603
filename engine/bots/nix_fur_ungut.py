"""Nix für Ungut bots: `Easy` (the baseline heuristic) and `Strong` (determinized search).

Both see only `view(state, seat)` and rebuild an engine state from it, dealing the
cards they cannot see: `Easy` in deck order (its heuristic reads only its own hand and
the board), `Strong` at random. Every card laid this round is face up (Monsieur
Personne's reveals too), so the unseen cards are the deck minus those and the seat's
own hand, shared between the other hands (their sizes are public) and the draw pile.
"""

import random
from collections import Counter
from collections.abc import Callable
from math import exp
from typing import Any

from engine import nix_fur_ungut as nix
from engine.bots.search import deal, must_act, pimc
from engine.core.types import Move

_DRAW = -1
ROLLOUTS = 48  # per decision, spread over the candidates; keeps p99 under 50 ms
CANDIDATES = 10  # the baseline's best moves, searched


def world(view: dict[str, Any], rng: random.Random | None) -> nix.State:
    """An engine state matching the view; hidden cards dealt by `rng`, or, without one,
    the unseen cards given out unsorted and in no meaningful order."""
    seat: int = view["seat"]
    sizes: list[int] = view["hand_sizes"]
    seats = len(sizes)
    unseen = Counter(nix.DECK) - Counter(view["hand"]) - Counter(view["played"])
    wanted = {s: sizes[s] for s in range(seats) if s != seat}
    wanted[_DRAW] = sum(unseen.values()) - sum(wanted.values())
    if rng is None:
        # The cards are the right ones, who holds which does not matter: unsorted, as a
        # decision on this world reads only the seat's own hand (the baseline's every
        # move built and sorted hands for nothing).
        pool = list(unseen.elements())
        dealt: dict[int, list[str]] = {}
        for holder, n in wanted.items():
            dealt[holder], pool = pool[:n], pool[n:]
        hands = [list(view["hand"]) if s == seat else dealt[s] for s in range(seats)]
    else:
        pool = sorted(unseen.elements(), key=lambda c: (c == nix.JOKER, c))
        dealt = deal(pool, wanted, None, rng)
        hands = [list(view["hand"]) if s == seat else nix.sort_cards(dealt[s])
                 for s in range(seats)]
    board = {row: [None if c is None else nix.Chip(c["seat"], c["super"]) for c in cells]
             for row, cells in view["board"].items()}
    placed = [nix.Placed(p["turn"], p["seat"], p["row"], tuple(p["cards"]), p["super"])
              for p in view["placed"]]
    first: int = view["first"]
    [actor] = view["to_act"] or [first]
    return nix.State(
        seats=seats, seed=0, rounds=view["rounds"], personne=view["personne"],
        board_values={row: list(v) for row, v in view["board_values"].items()},
        round=view["round"], turn=view["turn"], first=first,
        acted=(actor - first) % seats, hands=hands, draw=dealt[_DRAW],
        played=list(view["played"]), out=[], board=board,
        super_used=list(view["super_used"]), scores=list(view["scores"]), placed=placed,
        personne_cards=list(view.get("personne_cards", [])),
        round_scores=[list(r) for r in view["round_scores"]], over=view["over"])


# --- the baseline ----------------------------------------------------------------------------

# How often a chip lands in each row, roughly: the chance that a later chip pushes ours.
_ROW_TRAFFIC = {"quad": 0.03, "run4": 0.04, "triple": 0.07, "run3": 0.12, "pair": 0.25,
                "run2": 0.18, "single": 0.25, "none": 0.06}
_CARD_COST = 0.4  # a card spent now is a card missing for a later turn
_LOW_ROW_JOKER_COST = 2.5  # a joker kept makes a quad, run4 or triple later
_LOW_ROWS = ("pair", "run2", "single")
_SUPER_KEEP = {1: 3.0, 2: 2.0, 3: 1.0, 4: 0.0}  # what saving the super chip is worth


def _row_worth(values: list[int], board: list[Any], seat: int, turn: int, later: int,
               row: str, super_chip: bool) -> float:
    """What a chip laid in `row` now is worth: its cell after the pushes still to come
    (a Poisson count), minus the super chip's worth if spent, plus half of what pushing
    the row's other chips costs their owners (half of our own loss counted against)."""
    rate = later * _ROW_TRAFFIC[row]
    chance, expected = exp(-rate), 0.0
    for k in range(nix.CELLS):
        expected += chance * values[k]
        chance *= rate / (k + 1)
    worth = expected * (2 if super_chip else 1)
    if super_chip:
        worth -= _SUPER_KEEP.get(turn, 0.0)
    for cell, chip in enumerate(board):
        if chip is None:
            continue
        after = values[cell + 1] if cell + 1 < nix.CELLS else 0
        loss = (values[cell] - after) * (2 if chip.super else 1)
        worth += 0.5 * loss if chip.seat != seat else -0.5 * loss
    return worth


def _card_cost(turn: int, row: str, cards: tuple[str, ...]) -> float:
    """What laying these cards costs beyond the row's worth: cards missing later, and a
    joker spent on a low row."""
    if turn >= nix.TURNS:
        return 0.0
    cost = _CARD_COST * len(cards)
    if nix.JOKER in cards and row in _LOW_ROWS:
        cost += _LOW_ROW_JOKER_COST
    return cost


def _worth(state: nix.State, seat: int, move: nix.Play,
           rows: dict[tuple[str, bool], float]) -> float:
    """`rows` remembers each (row, super chip)'s worth across one decision's moves: it
    depends on the row, not on the cards, and a hand offers dozens of moves per row."""
    key = (move.row, move.super_chip)
    worth = rows.get(key)
    if worth is None:
        worth = rows[key] = _row_worth(
            state.board_values[move.row], state.board[move.row], seat, state.turn,
            _later(state.seats, state.personne, state.acted, state.turn), move.row,
            move.super_chip)
    return worth - _card_cost(state.turn, move.row, move.cards)


def _later(seats: int, personne: bool, acted: int, turn: int) -> int:
    """Chips still to be laid this round after the one being decided."""
    players = seats + (1 if personne else 0)
    return (players - 1 - acted) + (nix.TURNS - turn) * players


def _pick(turn: int, options: list[tuple[str, tuple[str, ...], bool]],
          row_worth: Callable[[str, bool], float], rng: random.Random) -> nix.Play:
    """The baseline's choice among `nix.plays`: it weighs each row's value against the
    chips still to come that may push it out, rewards pushing opponents down, and keeps
    jokers for the high rows. The best worth wins, ties by a draw per option (one
    `rng.random()` each, in order, as `max` over the engine's moves drew them)."""
    rows: dict[tuple[str, bool], float] = {}
    best: tuple[str, tuple[str, ...], bool] | None = None
    best_key = (0.0, 0.0)
    for option in options:
        row, cards, super_chip = option
        worth = rows.get((row, super_chip))
        if worth is None:
            worth = rows[(row, super_chip)] = row_worth(row, super_chip)
        key = (worth - _card_cost(turn, row, cards), rng.random())
        if best is None or key > best_key:
            best, best_key = option, key
    assert best is not None, "a seat to act always has a play (`none` with an empty hand)"
    return nix.Play(*best)


def _plays(state: nix.State, seat: int) -> list[nix.Play]:
    return [m for m in nix.legal_moves(state, seat) if isinstance(m, nix.Play)]


class Easy:
    """Today's baseline bot, seeing only its view.

    It reads its own hand and the board straight from the view: an engine state built
    from it (`world`) cost as much as the decision itself, on every bot move of a table."""

    speak = None  # plays in its turn only

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        seat: int = view["seat"]
        to_act: list[int] = view["to_act"]
        must_act(to_act, seat)
        turn: int = view["turn"]
        seats = len(view["hand_sizes"])
        later = _later(seats, view["personne"], (to_act[0] - view["first"]) % seats, turn)
        board, values = view["board"], view["board_values"]

        def row_worth(row: str, super_chip: bool) -> float:
            cells = [None if c is None else nix.Chip(c["seat"], c["super"]) for c in board[row]]
            return _row_worth(values[row], cells, seat, turn, later, row, super_chip)

        return _pick(turn, nix.plays(view["hand"], turn, view["super_used"][seat]),
                     row_worth, rng)


# --- the fast rollout -----------------------------------------------------------------------
# The engine's `legal_moves` lists every combination with its cards, and `apply` checks
# and copies everything; a rollout runs the same rules and the same baseline on card
# counts instead (index 0 the joker, 1-7 the numbers).
# tests/engine/test_bots_nix_fur_ungut.py plays it beside the engine.

_JOKER = 0
_INDEX = {nix.JOKER: _JOKER, **{n: int(n) for n in nix.NUMBERS}}
_CODE = {i: c for c, i in _INDEX.items()}
_RUN_WINDOWS = {size: [tuple(range(a, a + size)) for a in range(1, 9 - size)]
                for size in (2, 3, 4)}


def combinations(hand: list[int], turn: int) -> list[tuple[str, tuple[int, ...]]]:
    """The engine's `_combinations` on counts: (row, card indices) a hand can lay."""
    if not any(hand):
        return [("none", ())]
    joker_ok = hand[_JOKER] > 0 and turn < nix.TURNS
    found: list[tuple[str, tuple[int, ...]]] = []
    for row in nix.ROWS:
        kind, size = nix.SHAPES[row]
        if size == 0:
            continue
        if kind == nix.KIND:
            if size == 1:
                found.extend((row, (v,)) for v in range(8) if hand[v])
                continue
            for v in range(1, 8):
                if hand[v] >= size:
                    found.append((row, (v,) * size))
                if joker_ok and hand[v] >= size - 1:
                    found.append((row, (v,) * (size - 1) + (_JOKER,)))
        else:
            for window in _RUN_WINDOWS[size]:
                missing = [n for n in window if not hand[n]]
                if not missing:
                    found.append((row, window))
                if joker_ok and len(missing) <= 1:
                    for gap in missing or window:
                        found.append((row, (*(n for n in window if n != gap), _JOKER)))
    return found


class _Sim:
    """The rest of one round, for rollouts."""

    __slots__ = ("acted", "board", "draw", "first", "hands", "later_base", "personne",
                 "players", "seats", "super_used", "turn", "values")

    def __init__(self, state: nix.State) -> None:
        self.seats, self.personne = state.seats, state.personne
        self.players = state.seats + (1 if state.personne else 0)
        self.values = state.board_values
        self.turn, self.first, self.acted = state.turn, state.first, state.acted
        self.hands = []
        for hand in state.hands:
            counts = [0] * 8
            for card in hand:
                counts[_INDEX[card]] += 1
            self.hands.append(counts)
        self.draw = list(state.draw)
        self.board = {row: list(cells) for row, cells in state.board.items()}
        self.super_used = list(state.super_used)

    def copy(self) -> "_Sim":
        new = object.__new__(_Sim)
        new.seats, new.personne, new.players = self.seats, self.personne, self.players
        new.values, new.turn, new.first, new.acted = (self.values, self.turn, self.first,
                                                      self.acted)
        new.hands = [h[:] for h in self.hands]
        new.draw = self.draw
        new.board = {row: cells[:] for row, cells in self.board.items()}
        new.super_used = self.super_used[:]
        return new

    def to_act(self) -> int:
        return (self.first + self.acted) % self.seats

    def pick(self, seat: int, rng: random.Random) -> tuple[str, tuple[int, ...], bool]:
        """The baseline's choice; equal worths are split at random."""
        turn = self.turn
        later = (self.players - 1 - self.acted) + (nix.TURNS - turn) * self.players
        may_super = not self.super_used[seat] and turn <= nix.SUPER_LAST_TURN
        base: dict[tuple[str, bool], float] = {}
        best: list[tuple[str, tuple[int, ...], bool]] = []
        top = -1e9
        for row, cards in combinations(self.hands[seat], turn):
            for super_chip in ((False, True) if may_super and _JOKER not in cards
                               else (False,)):
                key = (row, super_chip)
                if key not in base:
                    base[key] = _row_worth(self.values[row], self.board[row], seat, turn,
                                           later, row, super_chip)
                worth = base[key]
                if turn < nix.TURNS:
                    worth -= _CARD_COST * len(cards)
                    if _JOKER in cards and row in _LOW_ROWS:
                        worth -= _LOW_ROW_JOKER_COST
                if worth > top + 1e-9:
                    top, best = worth, [(row, cards, super_chip)]
                elif worth > top - 1e-9:
                    best.append((row, cards, super_chip))
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def play(self, seat: int, row: str, cards: tuple[int, ...], super_chip: bool) -> bool:
        """Lays the combination; True when the round is over."""
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        if super_chip or self.turn == nix.TURNS:
            self.super_used[seat] = True
        self._place(seat, row, super_chip)
        self.acted += 1
        if self.acted < self.seats:
            return False
        if self.personne:
            count = nix.PERSONNE_REVEALS[self.turn]
            revealed, self.draw = self.draw[:count], self.draw[count:]
            p_row, _ = nix.strongest(revealed)
            self._place(self.seats, p_row, self.turn == nix.PERSONNE_SUPER_TURN)
        self.turn += 1
        self.acted = 0
        return self.turn > nix.TURNS

    def _place(self, seat: int, row: str, super_chip: bool) -> None:
        cells = self.board[row]
        self.board[row] = [nix.Chip(seat, super_chip), cells[0], cells[1]]

    def apply_move(self, seat: int, move: Move) -> bool:
        assert isinstance(move, nix.Play)
        return self.play(seat, move.row, tuple(_INDEX[c] for c in move.cards),
                         move.super_chip)

    def points(self) -> list[int]:
        points = [0] * self.players
        for row, cells in self.board.items():
            values = self.values[row]
            for cell, chip in enumerate(cells):
                if chip is not None:
                    points[chip.seat] += values[cell] * (2 if chip.super else 1)
        return points


def _rollout(sim: _Sim, seat: int, move: Move, rng: random.Random) -> float:
    """Plays the round out with the baseline for every seat; the value is the seat's
    points this round minus what the others (Monsieur Personne too) score on average."""
    sim = sim.copy()
    over = sim.apply_move(seat, move)
    while not over:
        actor = sim.to_act()
        over = sim.play(actor, *sim.pick(actor, rng))
    points = sim.points()
    return points[seat] - (sum(points) - points[seat]) / (len(points) - 1)


class Strong:
    """Determinized search over the baseline's best moves, in worlds dealt from the view."""

    speak = None  # plays in its turn only

    def __init__(self, rollouts: int = ROLLOUTS, candidates: int = CANDIDATES) -> None:
        self.rollouts = rollouts
        self.candidates = candidates

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        seat: int = view["seat"]
        known = world(view, None)
        must_act(nix.to_act(known), seat)
        rows: dict[tuple[str, bool], float] = {}
        ranked = sorted(_plays(known, seat),
                        key=lambda m: (-_worth(known, seat, m, rows), rng.random()))
        return pimc(ranked[:self.candidates], lambda r: _Sim(world(view, r)),
                    lambda sim, m, r: _rollout(sim, seat, m, r), rng, self.rollouts)
