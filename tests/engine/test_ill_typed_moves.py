"""A move built by code (a bot's) is not checked by any parser: one whose fields hold
another type than declared would be stored as text that no longer reads back (Michigan's
"bid 2.5"), crash (`Bid("3")`), or make the snapshot differ from the replay (a Nix chip
flag of `1`). Every game refuses it in `apply` like any move it cannot read."""

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from engine import IllegalMove, games
from engine import michigan as mi
from engine import nix_fur_ungut as nix
from engine import ochs_esel as oe
from engine import the_game as tg

Wanted = Callable[[Any], bool]
CASES: list[tuple[str, str, Wanted, Callable[[Any], Any]]] = [
    ("michigan", "bid 2.5", lambda m: isinstance(m, mi.Bid),
     lambda m: replace(m, amount=m.amount + 0.5)),
    ("michigan", 'bid "3"', lambda m: isinstance(m, mi.Bid),
     lambda m: replace(m, amount=str(m.amount))),
    ("michigan", "bid True", lambda m: isinstance(m, mi.Bid) and m.amount == 1,
     lambda m: replace(m, amount=True)),
    ("nix-fur-ungut", "super chip 1", lambda m: isinstance(m, nix.Play) and m.super_chip,
     lambda m: replace(m, super_chip=1)),
    ("nix-fur-ungut", "cards in a list", lambda m: isinstance(m, nix.Play) and m.cards,
     lambda m: replace(m, cards=list(m.cards))),
    ("ochs-esel", "cards in a list", lambda m: isinstance(m, oe.Play),
     lambda m: replace(m, cards=list(m.cards))),
    ("ochs-esel", "a card as a number", lambda m: isinstance(m, oe.Play) and m.cards[0] == "7",
     lambda m: replace(m, cards=(7, *m.cards[1:]))),
    ("the-game", "a pile as a number", lambda m: isinstance(m, tg.Plays),
     lambda m: replace(m, plays=((m.plays[0][0], 0),))),
    ("the-game", "plays in a list", lambda m: isinstance(m, tg.Plays),
     lambda m: replace(m, plays=list(m.plays))),
]


def reach(game_id: str, wanted: Wanted) -> tuple[Any, int, Any]:
    """A state, a seat to act and a legal move of it that `wanted` picks (Michigan's
    dealer opens the auction, so that bids come)."""
    game = games.get(game_id)
    for seed in range(20):
        state = game.new_game(game.SEATS.start + 1, {}, seed)
        for _ in range(400):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            found = next((m for m in legal if wanted(m)), None)
            if found is not None:
                return state, seat, found
            move = next((m for m in legal if isinstance(m, mi.Auction)), legal[0])
            state, _ = game.apply(state, seat, move)
    raise AssertionError(f"{game_id}: no such move came up")


@pytest.mark.parametrize(("game_id", "what", "wanted", "spoil"), CASES,
                         ids=[f"{g}-{w}" for g, w, _, _ in CASES])
def test_an_ill_typed_move_is_refused_and_changes_nothing(game_id, what, wanted, spoil):
    game = games.get(game_id)
    state, seat, move = reach(game_id, wanted)
    before = game.dump(state)
    game.apply(state, seat, move)  # as declared, it is legal
    spoiled = spoil(move)
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, seat, spoiled)
    # The move quoted as built: its notation may not even be writable.
    assert (refused.value.code, refused.value.params) == ("bad_notation",
                                                          {"text": repr(spoiled)})
    assert game.dump(state) == before


@pytest.mark.parametrize("signal", [tg.Signal("a", 3), tg.Signal(0, "stop")])
def test_an_ill_typed_signal_is_refused_from_any_seat(signal):
    """The Game's signals are for any seat at any time: an ill-typed one is refused too."""
    state = tg.new_game(3, {}, seed=1)
    for seat in range(3):
        with pytest.raises(IllegalMove) as refused:
            tg.apply(state, seat, signal)
        assert (refused.value.code, refused.value.params) == ("bad_notation",
                                                              {"text": repr(signal)})


@pytest.mark.parametrize(("game_id", "what", "wanted", "spoil"), CASES,
                         ids=[f"{g}-{w}" for g, w, _, _ in CASES])
def test_an_ill_typed_move_out_of_turn_is_refused_as_out_of_turn(game_id, what, wanted, spoil):
    """The refusal keeps the contract's order: whose turn it is comes first."""
    game = games.get(game_id)
    state, seat, move = reach(game_id, wanted)
    other = (seat + 1) % len(game.view(state)["hand_sizes"])
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, other, spoil(move))
    assert refused.value.code == "not_your_turn"


@pytest.mark.parametrize(("move", "ok"), [
    (mi.Bid(3), True), (mi.Bid(True), False), (mi.Bid(3.0), False), (mi.Pass(), True),
    (tg.Signal("a", None), True), (tg.Signal("a", "stop"), True), (tg.Signal("a", 3), False),
    (tg.Signal(None, None), False),
    (tg.Plays(((7, "a"), (8, "b"))), True), (tg.Plays(((7, "a", "b"),)), False),
    (tg.Plays(((7,),)), False), (tg.Plays(([7, "a"],)), False), (tg.Plays(()), True),
    (nix.Play("pair", ("5", "5"), False), True), (nix.Play("pair", ("5", 5)), False),
    (nix.Play("pair", "55"), False), (oe.Play(("7", "7")), True), (oe.Play(None), False),
])
def test_a_move_is_well_typed_exactly_when_each_field_holds_its_declared_type(move, ok):
    from engine.core.types import well_typed

    assert well_typed(move) is ok


def test_a_move_field_of_a_type_the_check_does_not_know_is_a_programming_error():
    from dataclasses import dataclass

    from engine.core.types import Move, well_typed

    @dataclass(frozen=True, slots=True)
    class Odd(Move):
        cards: list[str]

    with pytest.raises(TypeError, match="cannot be checked"):
        well_typed(Odd(["7"]))
