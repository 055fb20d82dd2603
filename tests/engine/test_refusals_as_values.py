"""Refusals are values the bot words in the player's language: the code, every parameter
its sentence names, and an option's problem as key, kind and bounds. A refusal that loses
a parameter reads "you need at least {needed}" to a player."""

from typing import Annotated, Any

import pytest
from pydantic import Field

from engine import BadOptions, IllegalMove
from engine import michigan as mi
from engine import nix_fur_ungut as nix
from engine import ochs_esel as oe
from engine import the_game as tg
from engine.core.options import GameOptions, parse_options

NIX_ROWS = "'quad', 'run4', 'triple', 'run3', 'pair', 'run2', 'single' or 'none'"


def problems(module: Any, options: dict[str, Any]) -> list[dict[str, Any]]:
    with pytest.raises(BadOptions) as caught:
        module.new_game(module.SEATS.start, options, seed=1)
    return caught.value.problems


def test_an_illegal_move_keeps_its_code_and_parameters() -> None:
    refusal = IllegalMove("too_low", needed=8, cards=["3"])
    assert (refusal.code, refusal.params) == ("too_low", {"needed": 8, "cards": ["3"]})
    assert refusal.args == ("too_low", {"needed": 8, "cards": ["3"]})
    assert str(refusal) == "too_low (cards=['3'], needed=8)"
    assert str(IllegalMove("game_over")) == "game_over"


@pytest.mark.parametrize(("module", "options", "expected"), [
    (oe, {"rounds": 0}, {"key": "rounds", "kind": "out_of_range", "low": 1, "high": 20}),
    (oe, {"rounds": 21}, {"key": "rounds", "kind": "out_of_range", "low": 1, "high": 20}),
    (oe, {"rounds": "many"}, {"key": "rounds", "kind": "not_a_number"}),
    (oe, {"ox": "perhaps"}, {"key": "ox", "kind": "not_yes_no"}),
    (oe, {"colour": 3}, {"key": "colour", "kind": "unknown_option"}),
    (mi, {"chips": 1001}, {"key": "chips", "kind": "out_of_range", "low": 1, "high": 1000}),
    (tg, {"min_play": 9}, {"key": "min_play", "kind": "out_of_range", "low": 1, "high": 5}),
    (nix, {"board": {"pair": [1001, 1, 1]}}, {"key": "board", "kind": "too_high",
                                                "high": nix.MAX_CELL_VALUE}),
    (nix, {"board": {"pair": [-1, 1, 1]}}, {"key": "board", "kind": "too_small", "low": 0,
                                             "item": "pair"}),
    (nix, {"board": {"pair": [1, 1]}}, {"key": "board", "kind": "wrong_length",
                                        "item": "pair", "length": 3}),
    (nix, {"board": {"pair": [1, 1, 1, 1]}}, {"key": "board", "kind": "wrong_length",
                                              "item": "pair", "length": 3}),
    (nix, {"board": {"pair": ["a", 1, 1]}}, {"key": "board", "kind": "entry_not_a_number",
                                             "item": "pair"}),
    (nix, {"board": "pair"}, {"key": "board", "kind": "bad_shape",
                              "example": '{"pair": [5, 3, 1]}'}),
    (nix, {"board": {"pair": "5 3 1"}}, {"key": "board", "kind": "bad_shape", "item": "pair",
                                         "example": '{"pair": [5, 3, 1]}'}),
    (nix, {"board": {"pears": [1, 1, 1]}}, {"key": "board", "kind": "bad_entry",
                                            "item": "pears", "allowed": NIX_ROWS}),
    # A row name typed by a player is said back clipped to 20 characters.
    (nix, {"board": {"x" * 30: [1, 1, 1]}}, {"key": "board", "kind": "bad_entry",
                                             "item": "x" * 20, "allowed": NIX_ROWS}),
])
def test_an_option_problem_names_its_key_kind_and_bounds(module: Any, options: dict[str, Any],
                                                         expected: dict[str, Any]) -> None:
    assert problems(module, options) == [expected]


class _Cells(GameOptions):
    """An option made of a list, as a game might have (no game has one yet)."""

    cells: list[int] = Field(default_factory=list, examples=[[4, 2]])
    groups: dict[str, dict[str, int]] = Field(default_factory=dict,
                                              examples=[{"a": {"b": 1}}])


def test_an_option_that_should_be_a_list_says_so_with_an_example() -> None:
    with pytest.raises(BadOptions) as caught:
        parse_options(_Cells, {"cells": "4 2"})
    assert caught.value.problems == [{"key": "cells", "kind": "bad_shape", "example": "[4, 2]"}]


def test_an_entry_that_should_be_a_mapping_says_which_with_an_example() -> None:
    with pytest.raises(BadOptions) as caught:
        parse_options(_Cells, {"groups": {"a": 5}})
    assert caught.value.problems == [{"key": "groups", "kind": "bad_shape", "item": "a",
                                      "example": '{"a": {"b": 1}}'}]


class _Optional(GameOptions):
    """Bounds inside an optional option: pydantic keeps them off the field itself."""

    least: Annotated[int, Field(ge=1)] | None = None
    most: Annotated[int, Field(le=5)] | None = None


@pytest.mark.parametrize(("options", "expected"), [
    ({"least": 0}, {"key": "least", "kind": "too_low", "low": 1}),
    ({"most": 6}, {"key": "most", "kind": "too_high", "high": 5}),
])
def test_a_bound_crossed_inside_an_optional_option_is_named(
    options: dict[str, Any], expected: dict[str, Any],
) -> None:
    with pytest.raises(BadOptions) as caught:
        parse_options(_Optional, options)
    assert caught.value.problems == [expected]


@pytest.mark.parametrize(("module", "seats", "options", "says"), [
    (oe, 3, {"rounds": 0}, "rounds: Input should be greater than or equal to 1"),
    (oe, 3, ["rounds", 3], "options: Input should be a valid dictionary"),
    (nix, 2, {"board": {"single": [9, 9, -1]}}, "board.single.2: Input should be greater"),
    (tg, 3, {"first": 4}, "first: seat 4 of 3"),
    (oe, 3, {"rounds": 0, "ox": "perhaps"},
     "rounds: Input should be greater than or equal to 1; ox: Input should be a valid boolean"),
])
def test_a_bad_option_is_logged_with_the_path_to_it(module: Any, seats: int, options: Any,
                                                     says: str) -> None:
    # The English message is what the logs keep: it names the option, and inside an
    # option made of parts the entry, so a report can be traced back.
    with pytest.raises(BadOptions) as caught:
        module.new_game(seats, options, seed=1)
    assert str(caught.value).startswith(says)


def test_options_that_are_not_a_mapping_are_named_as_options() -> None:
    with pytest.raises(BadOptions) as caught:
        oe.parse_options(oe.Options, ["rounds", 3])  # type: ignore[arg-type]
    assert caught.value.problems == [{"key": "options", "kind": "invalid"}]


@pytest.mark.parametrize(("module", "setup", "says"), [
    (oe, {"hands": [["1"], ["2"], ["3"]], "draw": []}, "setup keys not used by this game: draw"),
    (nix, {"hands": [["1"], ["2"]], "dealer": 0, "extra": 1},
     "setup keys not used by this game: dealer, extra"),
    (nix, {"hands": [["1"] * 13, ["2"]]},
     "each hand in setup.hands must be a list of at most 12 cards"),
    (nix, {"hands": [["J"] * 6, ["J"] * 5]}, "setup uses more copies than the deck has of: J"),
    (oe, {"hands": [["1"], ["Z"], ["3"]]}, "setup card 'Z' is not a card of this game"),
    (tg, {"hands": [["5", "5", "6"]]}, "setup uses these cards more than once: [5]"),
    (tg, {"hands": [["5"], ["6"]], "first": 2}, "setup.first must be a seat from 0 to 1"),
    (tg, {"hands": [["5"]], "draw": "6"}, "setup.draw must be a list of cards, top first"),
    (tg, {"hands": "56"}, "setup.hands must list one hand per seat (2)"),
    (tg, {"hands": [["5"], "6"]}, "each hand in setup.hands must be a list of cards"),
    (tg, {"hands": [["5"], ["100"]]}, "setup card '100' is not a card of this game (2 to 99)"),
    (oe, {"hands": "123"}, "setup.hands must list one hand per seat (3)"),
    (oe, {"hands": [["1"], "2", ["3"]]}, "each hand in setup.hands must be a list of cards"),
    (oe, {"hands": [["1"] * 9, ["2"], ["3"]]}, "setup uses more copies than the deck has of: 1"),
    (oe, {"hands": [["1"], ["2"], ["3"]], "first": 3}, "setup.first must be a seat from 0 to 2"),
    (oe, {"hands": [["D"], ["2"], ["3"]], "first": 1},
     "setup.first must be the seat holding the donkey"),
    (oe, {"hands": [["1"], ["O"], ["3"]]}, "setup card 'O' is not a card of this game"),
    (nix, {"hands": "12"}, "setup.hands must list one hand per seat (2)"),
    (nix, {"hands": [["1"], ["2"]], "draw": "3"}, "setup.draw must be a list of cards, top first"),
    (nix, {"hands": [["1"], ["2"]], "first": 2}, "setup.first must be a seat from 0 to 1"),
    (nix, {"hands": [["1"], ["8"]]}, "setup card '8' is not a card of this game"),
])
def test_a_bad_setup_says_what_is_wrong(module: Any, setup: dict[str, Any], says: str) -> None:
    with pytest.raises(BadOptions) as caught:
        module.new_game(len(setup["hands"]), seed=1, setup=setup)
    assert str(caught.value) == says
    assert caught.value.problems == []  # a setup is no player's input: nothing to translate


@pytest.mark.parametrize(("hands", "says"), [
    ([["2S"], ["3S"], ["4S"], ["1S"]], "setup card '1S' is not a card of this game"),
    ([["2S"], ["3S"], ["4S"], ["2s"]], "setup deals 2S twice; the deck has one"),
])
def test_a_bad_michigan_setup_says_what_is_wrong(hands: list[list[str]], says: str) -> None:
    with pytest.raises(BadOptions) as caught:
        mi.new_game(3, seed=1, setup={"hands": hands})
    assert says in str(caught.value)


def test_an_ochs_setup_must_give_the_first_player_a_card_to_lead() -> None:
    with pytest.raises(BadOptions) as caught:
        oe.new_game(3, {"ox": True}, seed=1, setup={"hands": [[], ["2"], ["3"]], "first": 0})
    assert "setup must give the first player at least one card to lead" in str(caught.value)


@pytest.mark.parametrize(("module", "seats", "says"), [
    (oe, 2, "this game takes 3 to 12 players, not 2"),
    (tg, 6, "this game takes 1 to 5 players, not 6"),
    (mi, 9, "this game takes 3 to 8 players, not 9"),
])
def test_a_player_count_the_game_does_not_take_is_refused(module: Any, seats: int,
                                                          says: str) -> None:
    with pytest.raises(BadOptions) as caught:
        module.new_game(seats, seed=1)
    assert str(caught.value) == says


def test_a_setup_card_given_once_is_not_refused_as_twice() -> None:
    state = tg.new_game(2, seed=1, setup={"hands": [["5", "6"], ["7"]]})
    assert tg.view(state, 0)["hand"] == ["5", "6"]


@pytest.mark.parametrize("module", [oe, nix, mi])
def test_a_move_that_is_no_move_of_the_game_is_quoted_back(module: Any) -> None:
    """A move built by hand (not by the game's parser) is refused, not played."""
    state = module.new_game(3, seed=2)
    seat = module.to_act(state)[0]
    foreign = tg.End()
    with pytest.raises(IllegalMove) as caught:
        module.apply(state, seat, foreign)
    assert (caught.value.code, caught.value.params) == ("bad_notation", {"text": str(foreign)})


@pytest.mark.parametrize(("module", "seats", "text", "code", "params"), [
    (oe, 3, "hello there", "unknown_card", {"text": "hello"}),
    (oe, 3, "play", "bad_notation", {"text": "play"}),
    (nix, 2, "sing 3", "unknown_row", {"text": "sing"}),
    (nix, 2, "play", "bad_notation", {"text": "play"}),
    (mi, 3, "frobnicate", "bad_notation", {"text": "frobnicate"}),
])
def test_an_unreadable_move_is_quoted_back(module: Any, seats: int, text: str, code: str,
                                           params: dict[str, Any]) -> None:
    state = module.new_game(seats, seed=2)
    seat = module.to_act(state)[0]
    with pytest.raises(IllegalMove) as caught:
        module.apply(state, seat, module.parse_move(state, seat, text))
    assert (caught.value.code, caught.value.params) == (code, params)


@pytest.mark.parametrize("module", [oe, nix, mi, tg])
def test_not_your_turn_names_who_is_to_play(module: Any) -> None:
    state = module.new_game(max(3, module.SEATS.start), seed=2)
    waiting = next(s for s in range(3) if s not in module.to_act(state))
    with pytest.raises(IllegalMove) as caught:
        move = next(iter(module.legal_moves(state, module.to_act(state)[0])))
        module.apply(state, waiting, move)
    assert caught.value.code == "not_your_turn"
    assert caught.value.params["to_act"] == module.to_act(state)
    assert caught.value.params["seat"] == waiting


def _ochs_refusal(hands: list[list[str]], *turns: tuple[int, str]) -> IllegalMove:
    """The refusal of the last of `turns`, each typed as in the chat, the others accepted."""
    state = oe.new_game(len(hands), {"rounds": 1}, seed=1, setup={"hands": hands})
    *before, (seat, text) = turns
    for s, t in before:
        state, _ = oe.apply(state, s, oe.parse_move(state, s, t))
    with pytest.raises(IllegalMove) as caught:
        oe.apply(state, seat, oe.parse_move(state, seat, text))
    return caught.value


def test_ochs_too_low_against_lone_jokers_says_nothing_beats_them() -> None:
    # Jokers alone are worth 14: the sentence says nothing passes them, and what a set
    # would have needed (15) rather than a value some card has.
    refusal = _ochs_refusal([["D", "J", "1"], ["13", "2"], ["3"]], (0, "J"), (1, "13"))
    assert (refusal.code, refusal.params) == (
        "too_low", {"needed": 15, "value": 13, "reason": "unbeatable"})


def test_ochs_a_set_of_more_copies_than_the_hand_holds_says_how_many_it_holds() -> None:
    # "5 5 5" from a hand of two 5s: not "you have no 5" but "you hold 2 of the 3".
    refusal = _ochs_refusal([["D", "5", "5", "1"], ["7"], ["8"]], (0, "5 5 5"))
    assert (refusal.code, refusal.params) == ("card_not_in_hand", {
        "cards": ["5"], "reason": "short", "card": "5", "held": 2, "wanted": 3,
        "played": ["5", "5", "5"]})
    # Of the cards missing, the sentence names the one the hand holds too few of, and
    # quotes the whole set as typed, numbers first.
    refusal = _ochs_refusal([["D", "12", "1"], ["7"], ["8"]], (0, "J 12 12"))
    assert (refusal.code, refusal.params) == ("card_not_in_hand", {
        "cards": ["12", "J"], "reason": "short", "card": "12", "held": 1, "wanted": 2,
        "played": ["12", "12", "J"]})


def test_ochs_too_low_with_too_few_copies_says_both() -> None:
    # Answering "7 7" with "4 4" from a single 4: too low comes first, and the sentence
    # still says the hand holds one 4 of the two.
    refusal = _ochs_refusal([["D", "7", "7"], ["4", "9"], ["8"]], (0, "7 7"), (1, "4 4"))
    assert (refusal.code, refusal.params) == ("too_low", {
        "needed": 8, "value": 4, "reason": "short", "card": "4", "held": 1, "wanted": 2,
        "played": ["4", "4"]})
