"""The Game: each rule of docs/games/the-game.md, with fixed deals."""

import random
from typing import Any

import pytest

from engine import BadOptions, IllegalMove, games
from engine.bots.the_game import Easy
from engine.core import fit_for
from engine.core.types import Move
from engine.the_game import End, Plays, State

game = games.get("the-game")


def start(seats: int, hands: list[list[int]], draw: list[int] | None = None, first: int = 0,
          **options: Any) -> State:
    setup: dict[str, Any] = {"hands": hands, "first": first}
    if draw is not None:
        setup["draw"] = draw
    return game.new_game(seats, options=options or None, seed=1, setup=setup)


def play(state: State, text: str, seat: int | None = None) -> tuple[State, list[dict[str, Any]]]:
    seat = state.turn if seat is None else seat
    return game.apply(state, seat, game.parse_move(state, seat, text))


def refusal(state: State, text: str, seat: int | None = None) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        play(state, text, seat)
    return caught.value


def piles(state: State) -> dict[str, int]:
    return game.view(state)["piles"]


def blocked_solo(hand_after: list[int], draw_left: list[int], **options: Any) -> State:
    """A solo game whose first turn blocks A1 at 99, A2 at 98 and D1 at 2, leaving D2 open;
    the empty hand ends the turn and `hand_after` is drawn (`draw_left` stays behind)."""
    state = start(1, [[99, 98, 2]], draw=hand_after + draw_left, **options)
    state, _ = play(state, "99 A1, 98 A2, 2 D1")
    assert state.hands[0] == sorted(hand_after)
    return state


# --- setting up -------------------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "size"), [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_hands_hold_8_alone_7_for_two_and_6_for_three_to_five(seats: int, size: int) -> None:
    state = game.new_game(seats, seed=5)
    view = game.view(state)
    assert view["hand_sizes"] == [size] * seats
    assert view["draw_size"] == 98 - size * seats
    dealt = [c for h in state.hands for c in h] + state.draw
    assert sorted(dealt) == list(range(2, 100))


@pytest.mark.parametrize(("seats", "size"), [(1, 7), (2, 6), (5, 5)])
def test_expert_hand_minus_one_deals_one_card_fewer(seats: int, size: int) -> None:
    state = game.new_game(seats, options={"hand_minus_one": True}, seed=5)
    assert game.view(state)["hand_sizes"] == [size] * seats


def test_piles_start_at_1_going_up_and_100_going_down() -> None:
    state = game.new_game(3, seed=2)
    assert piles(state) == {"A1": 1, "A2": 1, "D1": 100, "D2": 100}


def test_first_player_is_a_seeded_random_seat_unless_setup_names_one() -> None:
    firsts = {game.new_game(5, seed=s).turn for s in range(40)}
    assert len(firsts) > 1
    assert game.new_game(5, seed=11).turn == game.new_game(5, seed=11).turn
    assert start(3, [[10], [20], [30]], draw=[], first=2).turn == 2


def test_setup_without_draw_shuffles_the_other_cards_into_the_draw_pile() -> None:
    state = game.new_game(2, seed=4, setup={"hands": [[2, 3], [98, 99]], "first": 0})
    assert sorted(state.draw) == list(range(4, 98))
    assert state.draw != sorted(state.draw)


@pytest.mark.parametrize("setup", [
    {"hands": [[2]], "dealer": 0},
    {"hands": [[2], [3]]},
    {"hands": [[2, 2]]},
    {"hands": [[2]], "draw": [2]},
    {"hands": [[1]]},
    {"hands": [[100]]},
    {"hands": [["x"]]},
    {"hands": [[2]], "first": 1},
    {"hands": [[2]], "draw": "3 4"},
])
def test_setup_that_is_not_a_deal_of_this_deck_is_refused(setup: dict[str, Any]) -> None:
    with pytest.raises(BadOptions):
        game.new_game(1, seed=0, setup=setup)


@pytest.mark.parametrize(("options", "problem"), [
    ({"min_play": 0}, {"key": "min_play", "kind": "out_of_range", "low": 1, "high": 5}),
    ({"min_play": 6}, {"key": "min_play", "kind": "out_of_range", "low": 1, "high": 5}),
    ({"min_play": "two"}, {"key": "min_play", "kind": "not_a_number"}),
    ({"hand_minus_one": "maybe"}, {"key": "hand_minus_one", "kind": "not_yes_no"}),
    ({"rounds": 3}, {"key": "rounds", "kind": "unknown_option"}),
])
def test_bad_options_are_refused_naming_the_option_and_what_is_wrong(
        options: dict[str, Any], problem: dict[str, Any]) -> None:
    with pytest.raises(BadOptions) as refused:
        game.new_game(2, options=options, seed=0)
    assert refused.value.problems == [problem]


def test_the_table_may_choose_who_plays_first() -> None:
    for first in (1, 2, 3):
        state = game.new_game(3, options={"first": first}, seed=0)
        assert game.to_act(state) == [first - 1]
    with pytest.raises(BadOptions) as refused:
        game.new_game(2, options={"first": 3}, seed=0)
    assert refused.value.problems == [{"key": "first", "kind": "out_of_range", "low": 1,
                                       "high": 2}]
    chosen = {game.to_act(game.new_game(5, seed=seed))[0] for seed in range(40)}
    assert chosen == set(range(5))  # without a choice: any seat, by the seed


@pytest.mark.parametrize("seats", [0, 6])
def test_one_to_five_players(seats: int) -> None:
    with pytest.raises(BadOptions):
        game.new_game(seats, seed=0)


# --- the piles --------------------------------------------------------------------------------

def test_ascending_pile_on_4_takes_8_then_13() -> None:
    state = start(1, [[4, 8, 13, 50]], draw=[60, 61, 62])
    state, _ = play(state, "4 A1, 8 A1, 13 A1")
    assert piles(state)["A1"] == 13


def test_ascending_pile_refuses_a_lower_card_that_is_not_exactly_10_lower() -> None:
    state = start(1, [[30, 25, 50]], draw=[60, 61])
    state, _ = play(state, "30 A1")
    error = refusal(state, "25 A1")
    assert error.code == "not_playable"
    assert error.params == {"card": 25, "pile": "A1", "top": 30}


def test_descending_pile_takes_only_lower_cards() -> None:
    state = start(1, [[70, 75, 60]], draw=[40, 41])
    state, _ = play(state, "70 D2")
    assert refusal(state, "75 D2").params == {"card": 75, "pile": "D2", "top": 70}
    state, _ = play(state, "60 D2")
    assert piles(state)["D2"] == 60


def test_ascending_pile_showing_45_takes_35_jumping_back_10() -> None:
    state = start(1, [[45, 35, 90]], draw=[60, 61])
    state, events = play(state, "45 A2, 35 A2")
    assert piles(state)["A2"] == 35
    assert events[-1] == {"type": "played", "seat": 0, "card": 35, "pile": "A2",
                          "previous": 45, "jump": True}


def test_ascending_pile_showing_47_takes_37() -> None:
    state = start(1, [[47, 37, 90]], draw=[60, 61])
    state, _ = play(state, "47 A1, 37 A1")
    assert piles(state)["A1"] == 37


def test_descending_pile_showing_65_takes_75_jumping_back_10() -> None:
    state = start(1, [[65, 75, 10]], draw=[60, 61])
    state, events = play(state, "65 D1, 75 D1")
    assert piles(state)["D1"] == 75
    assert events[-1]["jump"] is True


def test_a_jump_must_be_exactly_10() -> None:
    state = start(1, [[45, 34, 36, 76]], draw=[60, 61])
    state, _ = play(state, "45 A1")
    assert refusal(state, "34 A1").code == "not_playable"
    assert refusal(state, "36 A1").code == "not_playable"
    state, _ = play(state, "34 D1, 36 D2")
    assert refusal(state, "46 D1").code == "card_not_in_hand"
    state, _ = play(state, "end")
    assert piles(state) == {"A1": 45, "A2": 1, "D1": 34, "D2": 36}


def test_plays_in_one_turn_may_go_on_different_piles() -> None:
    state = start(2, [[23, 77, 50], [40, 41]], draw=[60, 61, 62])
    state, events = play(state, "23 A1, 77 D2")
    assert piles(state) == {"A1": 23, "A2": 1, "D1": 100, "D2": 77}
    assert [e["type"] for e in events] == ["played", "played"]


# --- a turn -----------------------------------------------------------------------------------

def test_ending_a_turn_before_two_cards_is_refused() -> None:
    state = start(2, [[10, 20, 30], [40, 50]], draw=[60, 61])
    assert refusal(state, "end").code == "below_minimum"
    state, _ = play(state, "10 A1")
    error = refusal(state, "end")
    assert (error.code, error.params) == ("below_minimum", {"needed": 2, "played": 1})
    state, _ = play(state, "20 A1")
    state, events = play(state, "end")
    assert events[0]["type"] == "turn_ended"
    assert game.to_act(state) == [1]


def test_a_player_may_play_more_than_the_minimum() -> None:
    state = start(2, [[10, 20, 30, 90], [40, 50]], draw=[60, 61, 62, 63])
    state, _ = play(state, "10 A1, 20 A1, 30 A1")
    state, events = play(state, "end")
    assert fit_for(events, None)[0] == {"type": "turn_ended", "seat": 0, "played": 3, "drawn": 3,
                         "draw_size": 1}


def test_player_draws_as_many_cards_as_played_from_the_top_of_the_draw_pile() -> None:
    state = start(2, [[10, 20, 30], [40, 50]], draw=[60, 61, 62])
    state, _ = play(state, "10 A1, 20 A1")
    state, _ = play(state, "end")
    assert state.hands[0] == [30, 60, 61]
    assert game.view(state)["draw_size"] == 1


def test_expert_minimum_of_three() -> None:
    state = start(1, [[10, 20, 30, 40]], draw=[60, 61, 62], min_play=3)
    state, _ = play(state, "10 A1, 20 A1")
    assert refusal(state, "end").params == {"needed": 3, "played": 2}
    state, _ = play(state, "30 A1")
    state, _ = play(state, "end")
    assert state.turns == 2


def test_minimum_is_1_once_the_draw_pile_is_empty() -> None:
    state = start(2, [[10, 20, 30], [40, 50, 60]], draw=[70, 71])
    assert game.view(state)["minimum"] == 2
    state, _ = play(state, "10 A1, 20 A1")
    state, _ = play(state, "end")
    assert game.view(state)["draw_size"] == 0
    assert game.view(state)["minimum"] == 1
    state, _ = play(state, "40 A1")
    state, events = play(state, "end")
    assert events[0]["drawn"] == 0
    assert game.to_act(state) == [0]


def test_an_empty_draw_pile_draws_nothing_and_a_short_one_what_is_left() -> None:
    state = start(2, [[10, 20, 30], [40, 50]], draw=[60])
    state, _ = play(state, "10 A1, 20 A1")
    state, events = play(state, "end")
    assert events[0]["drawn"] == 1
    assert state.hands[0] == [30, 60]


def test_turn_ends_by_itself_when_the_hand_is_empty() -> None:
    state = start(2, [[10, 20], [40, 50]], draw=[60, 61, 62])
    state, events = play(state, "10 A1, 20 A1")
    assert [e["type"] for e in events] == ["played", "played", "turn_ended"]
    assert state.hands[0] == [60, 61]
    assert game.to_act(state) == [1]


def test_turns_go_round_the_table_in_seat_order() -> None:
    state = start(3, [[10, 11], [20, 21], [30, 31]], draw=[], first=1)
    seen = []
    for text in ("20 A1", "end", "30 A1", "end", "10 D1", "end"):
        seen.append(game.to_act(state)[0])
        state, _ = play(state, text)
    assert seen == [1, 1, 2, 2, 0, 0]


def test_players_without_cards_are_skipped() -> None:
    state = start(3, [[10, 11], [20], [30, 31]], draw=[])
    state, _ = play(state, "10 A1")
    state, _ = play(state, "end")
    state, events = play(state, "20 A1")  # seat 1's last card: its turn ends by itself
    assert events[-1]["type"] == "turn_ended"
    state, _ = play(state, "30 A1")
    state, _ = play(state, "end")
    state, _ = play(state, "11 D1")
    assert game.to_act(state) == [2]  # seat 1 holds nothing: "continuent à jouer sans lui"
    state, events = play(state, "31 A1")
    assert events[-1] == {"type": "game_won", "score": 0}


def test_a_setup_without_a_draw_pile_shuffles_the_rest_by_the_seed() -> None:
    # The cards no hand holds form the draw pile, in an order each seed makes anew.
    draws = [game.new_game(2, seed=s, setup={"hands": [[5], [6]]}).draw for s in (1, 2)]
    assert sorted(draws[0]) == sorted(draws[1]) == [c for c in range(2, 100) if c not in (5, 6)]
    assert draws[0] != draws[1]
    assert game.new_game(2, seed=1, setup={"hands": [[5], [6]]}).draw == draws[0]


def test_an_empty_message_is_bad_notation_until_the_game_is_over() -> None:
    state = start(1, [[2]], draw=[])
    assert refusal(state, "").code == "bad_notation"
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, 0, Plays(()))
    assert caught.value.code == "bad_notation"
    state, _ = play(state, "2 A1")
    assert state.over
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, 0, Plays(()))
    assert (caught.value.code, caught.value.params) == ("game_over", {})


def test_the_turn_skips_an_empty_hand_forwards_not_back_to_who_just_played() -> None:
    # Seat 1 is out of cards: after seat 0 the turn goes on to seat 2, although seat 0
    # itself still holds a card.
    state = start(4, [[10, 50, 60], [20], [30, 31, 32], [40, 41, 42]], draw=[])
    for text in ("10 A1", "end", "20 A1", "30 A1", "end", "40 A1", "end", "50 A1", "end"):
        state, _ = play(state, text)
    assert state.hands[1] == []
    assert game.to_act(state) == [2]


def test_a_player_holding_fewer_cards_than_the_minimum_must_play_them_all() -> None:
    state = start(2, [[50], [60, 61, 62]], draw=[70, 71])
    assert game.view(state)["minimum"] == 1
    assert refusal(state, "end").params == {"needed": 1, "played": 0}


def test_solo_player_plays_every_turn() -> None:
    state = start(1, [[10, 20, 30]], draw=[40, 41, 42])
    state, _ = play(state, "10 A1, 20 A1")
    state, _ = play(state, "end")
    assert game.to_act(state) == [0]
    assert state.hands[0] == [30, 40, 41]


# --- several plays in one message -------------------------------------------------------------

def test_plays_in_one_message_apply_in_order() -> None:
    state = start(1, [[20, 23, 50]], draw=[60, 61])
    state, _ = play(state, "20 A1, 23 A1")
    assert piles(state)["A1"] == 23
    state = start(1, [[20, 23, 50]], draw=[60, 61])
    error = refusal(state, "23 A1, 20 A1")
    assert error.params == {"card": 20, "pile": "A1", "top": 23}


def test_one_illegal_play_in_a_message_cancels_the_whole_message() -> None:
    state = start(1, [[23, 77, 50]], draw=[60, 61])
    before = game.dump(state)
    assert refusal(state, "23 A1, 77 D2, 55 D2").code == "card_not_in_hand"
    assert game.dump(state) == before
    assert piles(state) == {"A1": 1, "A2": 1, "D1": 100, "D2": 100}
    assert refusal(state, "23 A1, 23 A2").code == "card_not_in_hand"


def test_plays_after_the_hand_ran_out_in_a_message_are_refused_even_alone() -> None:
    # Playing the drawn 30 and 40 would prove the draw pile's order to a solo player.
    for seats, hands in ((1, [[10, 20]]), (2, [[10, 20], [5, 6]])):
        state = start(seats, hands, draw=[30, 40, 50, 60])
        for text in ("10 A1, 20 A1, 40 A1, 30 A1", "10 A1, 20 A1, 55 D1"):
            error = refusal(state, text)
            # The refusal says whose turn it now is: the next seat, or the solo player again.
            assert (error.code, error.params) == ("not_your_turn", {
                "seat": 0, "to_act": [1 % seats], "reason": "turn_ended"})
    state, _ = play(start(1, [[10, 20]], draw=[30, 40, 50]), "10 A1, 20 A1")
    assert state.hands[0] == [30, 40]  # the same plays alone end the turn as before


def test_plays_after_the_game_is_lost_in_the_same_message_cancel_the_message() -> None:
    # D2 still open, need 3 (expert): 60, 40, 3 downwards works, but 40 first strands 60.
    state = blocked_solo([3, 40, 60], [50], min_play=3)
    assert not state.over
    error = refusal(state, "40 D2, 3 D2")
    assert error.code == "game_over"
    assert not state.over and state.hands[0] == [3, 40, 60]


# --- the end of the game ----------------------------------------------------------------------

def test_game_is_lost_at_turn_start_when_the_player_cannot_play_two_cards() -> None:
    state = start(2, [[99, 98, 2, 3, 40], [50, 60]], draw=[10, 11, 12, 13, 14])
    state, _ = play(state, "99 A1, 98 A2, 2 D1, 3 D2")
    state, events = play(state, "end")
    assert events[-1]["type"] == "game_lost"
    assert events[-1]["seat"] == 1 and events[-1]["needed"] == 2
    assert state.over and game.to_act(state) == []
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores == [8, 8]  # seat 0: 40 and 4 drawn; seat 1: 2; draw: 1


def test_game_is_lost_when_one_playable_card_is_not_enough() -> None:
    # Seat 1 could put 4 on D2's 3? No: 4 goes nowhere; 89 jumps back on A1's 99: one card.
    state = start(2, [[99, 98, 2, 3, 40], [4, 89]], draw=[10, 11, 12, 13, 14])
    state, _ = play(state, "99 A1, 98 A2, 2 D1, 3 D2")
    state, events = play(state, "end")
    assert events[-1]["type"] == "game_lost"


def test_game_goes_on_when_a_jump_opens_the_second_card() -> None:
    # After 99 A1: 89 jumps back, then 95 goes up on the 89. Two cards: the turn can be made.
    state = start(2, [[99, 98, 2, 3, 40], [95, 89]], draw=[10, 11, 12, 13, 14])
    state, _ = play(state, "99 A1, 98 A2, 2 D1, 3 D2")
    state, _ = play(state, "end")
    assert not state.over
    state, _ = play(state, "89 A1, 95 A1")
    assert piles(state)["A1"] == 95


def test_game_is_lost_after_a_play_that_leaves_the_minimum_unreachable() -> None:
    state = blocked_solo([3, 50, 60], [70])
    state, events = play(state, "3 D2")  # 50 and 60 now fit nowhere
    assert events[-1] == {"type": "game_lost", "seat": 0, "needed": 1, "score": 3,
                          "hands": [[50, 60]]}
    assert game.outcome(state) is not None
    assert game.outcome(state).scores == [3]


def test_minimum_reached_the_player_may_end_even_if_nothing_more_fits() -> None:
    state = blocked_solo([3, 4, 60], [70])
    state, _ = play(state, "4 D2, 3 D2")
    assert not state.over
    assert game.legal_moves(state, 0) == [End()]


def test_rulebook_score_example_is_25_with_three_players_six_cards_each_and_seven_to_draw() -> None:
    hands = [[99, 98, 2, 3, 40, 41], [20, 21, 22, 23, 24, 25], [30, 31, 32, 33, 34, 35]]
    state = start(3, hands, draw=list(range(50, 61)))
    state, _ = play(state, "99 A1, 98 A2, 2 D1, 3 D2")
    state, events = play(state, "end")
    assert game.view(state)["hand_sizes"] == [6, 6, 6]
    assert game.view(state)["draw_size"] == 7
    assert events[-1]["score"] == 25
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores == [25, 25, 25]
    assert outcome.ranking == [1, 1, 1]


def test_players_beat_the_game_by_playing_every_card() -> None:
    state = start(2, [[2], [99]], draw=[])
    state, _ = play(state, "2 A1")
    state, events = play(state, "99 D1")
    assert events[-1] == {"type": "game_won", "score": 0}
    assert game.view(state)["won"] is True
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == [0, 0] and outcome.ranking == [1, 1]


def test_outcome_is_none_while_the_game_runs() -> None:
    assert game.outcome(game.new_game(2, seed=0)) is None


def test_any_move_on_a_finished_game_is_refused_game_over() -> None:
    state = start(1, [[2]], draw=[])
    state, _ = play(state, "2 A1")
    assert state.over
    assert refusal(state, "end").code == "game_over"
    assert refusal(state, "3 A1").code == "game_over"
    assert game.legal_moves(state, 0) == []


# --- refusals ---------------------------------------------------------------------------------

def test_playing_out_of_turn_is_refused_not_your_turn() -> None:
    state = start(2, [[10, 11], [20, 21]], draw=[30, 31])
    error = refusal(state, "20 A1", seat=1)
    assert (error.code, error.params) == ("not_your_turn", {"seat": 1, "to_act": [0]})
    assert refusal(state, "end", seat=1).code == "not_your_turn"


def test_playing_a_card_not_in_hand_is_refused() -> None:
    state = start(2, [[10, 11], [20, 21]], draw=[30, 31])
    error = refusal(state, "20 A1")
    assert (error.code, error.params) == ("card_not_in_hand", {"card": 20})


@pytest.mark.parametrize(("text", "code"), [
    ("", "bad_notation"), ("play", "bad_notation"), ("23", "bad_notation"),
    ("23 A1 77", "bad_notation"), ("A1 23", "bad_notation"), ("23 A3", "unknown_pile"),
    ("23 up", "unknown_pile"), ("1 A1", "unknown_card"), ("100 D1", "unknown_card"),
    ("x A1", "unknown_card"), ("end now", "bad_notation"),
    ("\u19da A1", "unknown_card"), ("1" * 5000 + " A1", "unknown_card"),
])
def test_text_that_is_not_a_move_is_refused(text: str, code: str) -> None:
    state = game.new_game(2, seed=0)
    with pytest.raises(IllegalMove) as caught:
        game.parse_move(state, 0, text)
    assert caught.value.code == code


def test_a_move_built_with_a_bad_pile_or_card_is_refused() -> None:
    state = start(1, [[10, 11]], draw=[30, 31])
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, 0, Plays(((10, "B1"),)))
    assert caught.value.code == "unknown_pile"
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, 0, Plays(((101, "A1"),)))
    assert caught.value.code == "unknown_card"
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, 0, Plays(()))
    assert caught.value.code == "bad_notation"


# --- notation ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "move"), [
    ("23 A1", Plays(((23, "A1"),))),
    ("play 23 A1", Plays(((23, "A1"),))),
    ("/play 23 a1", Plays(((23, "A1"),))),
    ("jouer 23 A1", Plays(((23, "A1"),))),
    ("23 a1, 77 d2", Plays(((23, "A1"), (77, "D2")))),
    ("play 23 A1, 77 D2", Plays(((23, "A1"), (77, "D2")))),
    ("Joue 23 A1; 77 D2", Plays(((23, "A1"), (77, "D2")))),
    ("end", End()), ("END", End()), ("fin", End()), ("finir", End()),
])
def test_notation_in_english_and_french_any_case(text: str, move: Any) -> None:
    state = game.new_game(2, seed=0)
    assert game.parse_move(state, 0, text) == move


@pytest.mark.parametrize("move", [Plays(((23, "A1"),)), Plays(((23, "A1"), (77, "D2"))), End()])
def test_canonical_notation_reads_back_to_the_same_move(move: Any) -> None:
    state = game.new_game(2, seed=0)
    assert game.parse_move(state, 0, str(move)) == move


def test_canonical_notation_strings() -> None:
    assert str(Plays(((23, "A1"),))) == "play 23 A1"
    assert str(Plays(((23, "A1"), (77, "D2")))) == "play 23 A1, 77 D2"
    assert str(End()) == "end"


# --- legal moves and views --------------------------------------------------------------------

def test_legal_moves_are_single_plays_and_end_once_the_minimum_is_met() -> None:
    state = start(2, [[45, 35, 99], [20, 21]], draw=[60, 61, 62])
    state, _ = play(state, "45 A1")
    moves = {str(m) for m in game.legal_moves(state, 0)}
    assert moves == {"play 35 A1", "play 99 A1", "play 35 A2", "play 99 A2",
                     "play 35 D1", "play 99 D1", "play 35 D2", "play 99 D2"}
    state, _ = play(state, "35 A1")
    assert End() in game.legal_moves(state, 0)
    assert game.legal_moves(state, 1) == []


def test_view_shows_pile_tops_draw_size_hand_sizes_and_only_the_own_hand() -> None:
    state = start(3, [[10, 90, 50], [20, 80, 51], [30, 70, 52]], draw=[60, 61, 62, 63])
    state, _ = play(state, "10 A1, 90 D2")
    view = game.view(state, 1)
    assert view["piles"] == {"A1": 10, "A2": 1, "D1": 100, "D2": 90}
    assert view["draw_size"] == 4
    assert view["hand_sizes"] == [1, 3, 3]
    assert view["hand"] == ["20", "51", "80"]
    assert view["to_act"] == [0]
    assert view["scores"] == [11, 11, 11]
    text = repr(view)
    for hidden in (50, 30, 70, 52, 60, 61, 62, 63):
        assert str(hidden) not in text
    public = game.view(state)
    assert "hand" not in public
    assert public["hand_sizes"] == [1, 3, 3]


def test_snapshot_round_trips() -> None:
    state = game.new_game(4, options={"min_play": 3, "hand_minus_one": True}, seed=9)
    state, _ = game.apply(state, state.turn, game.legal_moves(state, state.turn)[0])
    assert game.dump(game.load(game.dump(state))) == game.dump(state)
    with pytest.raises(BadOptions):
        game.load(game.dump(state).replace('"the-game"', '"ochs-esel"'))


# --- the easy bot (the old baseline), from the seat's view ----------------------------------

def easy(state: State, seat: int = 0) -> Move:
    return Easy().choose(game.view(state, seat), random.Random(0))


def test_bot_plays_the_card_with_the_smallest_gap() -> None:
    state = start(1, [[10, 50, 95]], draw=[60, 61])
    move = easy(state)
    assert isinstance(move, Plays) and move.plays[0][0] == 95


def test_bot_takes_a_backward_jump() -> None:
    state = start(1, [[45, 35, 70, 60]], draw=[80, 81])
    state, _ = play(state, "45 A1, 70 D1")
    assert easy(state) == Plays(((35, "A1"),))


def test_bot_stops_at_the_minimum_unless_a_play_is_nearly_free() -> None:
    state = start(1, [[10, 20, 30, 55, 56]], draw=[80, 81, 82])
    state, _ = play(state, "10 A1, 20 A1")
    assert easy(state) == End()
    state = start(1, [[10, 20, 21, 55]], draw=[80, 81, 82])
    state, _ = play(state, "10 A1, 20 A1")
    assert easy(state) == Plays(((21, "A1"),))


def test_bot_plays_a_whole_game_legally() -> None:
    for seats in range(1, 6):
        state = game.new_game(seats, seed=seats)
        rng = random.Random(seats)
        while not state.over:
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, seat, Easy().choose(game.view(state, seat), rng))
        assert game.outcome(state) is not None
