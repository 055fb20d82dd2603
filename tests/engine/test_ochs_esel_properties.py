"""Ochs & Esel: random legal playouts for 3–12 seats, base game and Ochs variant.

Players pick uniformly among the legal moves, now and then the baseline bot's move, so
donkey and ox tricks happen often. Every check reads the engine through its contract
(views, events, dump, parse_move); only the leak test builds altered states by hand.
"""

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove
from engine import ochs_esel as oe
from tests.botplay import bot_move

PLAYOUTS = settings(max_examples=30, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
NUMBERS = [str(n) for n in range(1, 14)]
FULL_DECK = Counter({n: 8 for n in NUMBERS}) + Counter({"J": 4, "D": 1, "O": 1})
CARDS_PER_PLAYER = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 10, 11: 9, 12: 9}

games = st.fixed_dictionaries({
    "seats": st.integers(3, 12),
    "ox": st.booleans(),
    "seed": st.integers(0, 2**32),
    "rounds": st.integers(1, 2),
})


@dataclasses.dataclass
class Step:
    before: oe.State
    before_dump: str | None  # taken before `apply` saw the state, when asked for
    seat: int
    move: oe.Move
    after: oe.State
    events: list[dict[str, Any]]


def move_bound(g: dict[str, Any]) -> int:
    # Every normal or ox trick sheds at least the lead; a donkey trick sheds nothing but
    # its taker may not lead it next, so at most every other trick keeps the cards.
    cards = CARDS_PER_PLAYER[g["seats"]] * g["seats"] + 2
    return g["rounds"] * (2 * cards + 1) * g["seats"]


def playout(g: dict[str, Any], *, dump_before: bool = False) -> Iterator[Step]:
    state = oe.new_game(g["seats"], {"ox": g["ox"], "rounds": g["rounds"]}, seed=g["seed"])
    rng = random.Random(g["seed"])
    for _ in range(move_bound(g)):
        if oe.outcome(state) is not None:
            return
        [seat] = oe.to_act(state)
        legal = oe.legal_moves(state, seat)
        move = bot_move(oe, state, seat, rng) if rng.random() < 0.3 else rng.choice(legal)
        before_dump = oe.dump(state) if dump_before else None
        after, events = oe.apply(state, seat, move)
        yield Step(state, before_dump, seat, move, after, events)
        state = after
    raise AssertionError(f"no end within {move_bound(g)} moves")


def played(step: Step, kind: str) -> list[dict[str, Any]]:
    return [e for e in step.events if e["type"] == kind]


def penalty(hand: list[str]) -> int:
    # "Chaque carte numérotée ... sa valeur. Chaque Joker 14 points. L'âne 20"; the ox 15.
    return sum({"J": 14, "D": 20, "O": 15}.get(c) or int(c) for c in hand)


def pile_penalty(pile: list[str]) -> int:
    # "dans un pli de bœuf, un Joker vaut 1 seul point de pénalité, et le bœuf 0 point."
    return sum(1 if c == "J" else 0 if c == "O" else int(c) for c in pile)


def cards_in_play(state: oe.State) -> Counter[str]:
    """Hands, ox piles, the middle and the trick on the table, read through views only."""
    public = oe.view(state)
    seen: Counter[str] = Counter()
    for seat in range(len(public["hand_sizes"])):
        own = oe.view(state, seat)
        assert len(own["hand"]) == public["hand_sizes"][seat]
        seen.update(own["hand"])
        seen.update(own["ox_pile"])
    seen.update(a for a, where in public["animals"].items() if where["place"] == "middle")
    seen.update(c for play in public["trick"]["plays"] for c in play["cards"])
    return seen


@PLAYOUTS
@given(games)
def test_random_playouts_conserve_cards_and_end_within_a_bound(g):
    animals = 2 if g["ox"] else 1
    baseline = cards_in_play(oe.new_game(
        g["seats"], {"ox": g["ox"], "rounds": g["rounds"]}, seed=g["seed"]))
    discarded: Counter[str] = Counter()
    last = None
    for step in playout(g):
        last = step
        discarded.update(c for e in played(step, "trick_won") for c in e["cards"])
        if played(step, "round_over"):
            if oe.outcome(step.after) is not None:
                break
            # A fresh deal: the rulebook's count, from the 108 cards plus the animals.
            baseline = cards_in_play(step.after)
            assert baseline.total() == CARDS_PER_PLAYER[g["seats"]] * g["seats"] + animals
            assert not baseline - FULL_DECK
            discarded = Counter()
        else:
            assert cards_in_play(step.after) + discarded == baseline
    assert last is not None and oe.outcome(last.after) is not None
    assert oe.to_act(last.after) == []


@PLAYOUTS
@given(games)
def test_outcome_is_the_sum_of_round_penalties_ranked_lowest_first(g):
    totals = [0] * g["seats"]
    piles: list[list[str]] = [[] for _ in range(g["seats"])]
    rounds = 0
    final = None
    for step in playout(g):
        for took in played(step, "took_ox_trick"):
            piles[took["seat"]].extend(took["cards"])
            assert took["penalty"] == pile_penalty(took["cards"])
        for over in played(step, "round_over"):
            rounds += 1
            assert over["penalties"] == [
                penalty(hand) + pile_penalty(pile)
                for hand, pile in zip(over["hands"], piles, strict=True)]
            # The round ended because some hand is empty.
            assert any(not hand for hand in over["hands"])
            totals = [t + p for t, p in zip(totals, over["penalties"], strict=True)]
            assert over["scores"] == totals
            piles = [[] for _ in range(g["seats"])]
        final = step.after
    assert rounds == g["rounds"]
    result = oe.outcome(final)
    assert result is not None
    assert result.scores == totals == oe.view(final)["scores"]
    assert result.ranking == [1 + sum(o < mine for o in totals) for mine in totals]


def scrambled(state: oe.State, keep: int | None, rng: random.Random) -> oe.State:
    """The same table with every hidden card but `keep`'s replaced, and another seed."""
    def redraw(cards: list[str]) -> list[str]:
        return oe.sort_cards([c if c in ("D", "O") else rng.choice([*NUMBERS, "J"])
                              for c in cards])
    hands = [list(h) if s == keep else redraw(h) for s, h in enumerate(state.hands)]
    piles = [list(p) if s == keep else redraw(p) for s, p in enumerate(state.ox_piles)]
    return dataclasses.replace(state, hands=hands, ox_piles=piles, seed=state.seed + 1)


@settings(PLAYOUTS, max_examples=20)
@given(games)
def test_views_never_show_another_seats_hand(g):
    rng = random.Random(g["seed"])
    for step in playout(g):
        state = step.after
        seat = rng.randrange(g["seats"])
        own = oe.view(state, seat)
        assert own["hand"] == oe.sort_cards(state.hands[seat])
        assert oe.view(scrambled(state, seat, rng), seat) == own
        public = oe.view(state)
        assert "hand" not in public and "ox_pile" not in public
        assert oe.view(scrambled(state, None, rng)) == public
        assert "seed" not in json.dumps(own)


@PLAYOUTS
@given(games)
def test_replaying_the_move_texts_reproduces_the_snapshot_byte_for_byte(g):
    texts: list[tuple[int, str]] = []
    final = None
    for step in playout(g):
        texts.append((step.seat, str(step.move)))
        final = step.after
    assert final is not None
    state = oe.new_game(g["seats"], {"ox": g["ox"], "rounds": g["rounds"]}, seed=g["seed"])
    for seat, text in texts:
        state, _ = oe.apply(state, seat, oe.parse_move(state, seat, text))
    assert oe.dump(state) == oe.dump(final)
    assert oe.dump(oe.load(oe.dump(final))) == oe.dump(final)


@settings(PLAYOUTS, max_examples=12)
@given(games)
def test_apply_never_mutates_its_input(g):
    for step in playout(g, dump_before=True):
        assert oe.dump(step.before) == step.before_dump
        # Nor does a refused move: the next seat in line tries to act out of turn.
        if oe.outcome(step.after) is None:
            snapshot = oe.dump(step.after)
            [seat] = oe.to_act(step.after)
            other = (seat + 1) % g["seats"]
            for move in oe.legal_moves(step.after, seat)[:1]:
                try:
                    oe.apply(step.after, other, move)
                except IllegalMove as error:
                    assert error.code == "not_your_turn"
            assert oe.dump(step.after) == snapshot


@PLAYOUTS
@given(games)
def test_every_legal_move_survives_its_notation(g):
    for step in playout(g):
        legal = oe.legal_moves(step.before, step.seat)
        assert legal and step.move in legal
        for move in legal:
            assert oe.parse_move(step.before, step.seat, str(move)) == move
        others = [s for s in range(g["seats"]) if s != step.seat]
        assert all(oe.legal_moves(step.before, s) == [] for s in others[:2])


@settings(PLAYOUTS, max_examples=25)
@given(games)
def test_apply_accepts_exactly_the_legal_moves(g):
    rng = random.Random(g["seed"] + 1)
    for step in playout(g):
        state, seat = step.before, step.seat
        legal = oe.legal_moves(state, seat)
        hand = state.hands[seat]
        tries: list[oe.Move] = [oe.Pass()]
        for _ in range(3):
            size = rng.randint(1, min(3, len(hand)))
            tries.append(oe.Play(tuple(oe.sort_cards(rng.sample(hand, size)))))
        for move in tries:
            try:
                oe.apply(state, seat, move)
                accepted = True
            except IllegalMove:
                accepted = False
            assert accepted == (move in legal), (move, legal)
