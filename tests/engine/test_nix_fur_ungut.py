"""Nix für Ungut: each rule of docs/games/nix-fur-ungut.md, with fixed deals."""

import random
from collections import Counter
from typing import Any

import pytest

from engine import BadOptions, IllegalMove, games
from engine import nix_fur_ungut as nix
from engine.nix_fur_ungut import Play
from tests.botplay import bot_move

FILLER = ["1"]  # the other seat only needs a card to play a `single` with


def start(hands: list[list[str]], first: int = 0, draw: list[str] | None = None,
          **options: Any) -> nix.State:
    setup: dict[str, Any] = {"hands": hands, "first": first}
    if draw is not None:
        setup["draw"] = draw
    return nix.new_game(len(hands), options, seed=11, setup=setup)


def play(state: nix.State, text: str) -> tuple[nix.State, list[dict[str, Any]]]:
    seat = nix.to_act(state)[0]
    return nix.apply(state, seat, nix.parse_move(state, seat, text))


def play_all(state: nix.State, *texts: str) -> tuple[nix.State, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for text in texts:
        state, new = play(state, text)
        events += new
    return state, events


def refusal(state: nix.State, text: str, seat: int | None = None) -> IllegalMove:
    seat = nix.to_act(state)[0] if seat is None else seat
    with pytest.raises(IllegalMove) as caught:
        nix.apply(state, seat, nix.parse_move(state, seat, text))
    return caught.value


def at_turn_five(hand: list[str], **options: Any) -> nix.State:
    """Seat 0 holds `hand` after laying four singles 1 2 3 4; seat 1 still has a card."""
    state = start([["1", "2", "3", "4", *hand], ["5", "5", "5", "5", "6"]], **options)
    for card in "1234":
        state, _ = play_all(state, f"single {card}", "single 5")
    assert nix.view(state)["turn"] == 5
    return state


def row(state: nix.State, name: str) -> list[tuple[int, bool] | None]:
    return [None if c is None else (c["seat"], c["super"]) for c in nix.view(state)["board"][name]]


# --- material and deal ------------------------------------------------------------------------

def test_game_is_registered_with_two_to_five_players() -> None:
    game = games.get("nix-fur-ungut")
    assert game.ID == "nix-fur-ungut"
    assert list(game.SEATS) == [2, 3, 4, 5]
    for seats in (1, 6):
        with pytest.raises(BadOptions):
            nix.new_game(seats)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_eighty_cards_twelve_each_the_rest_is_the_draw_pile(seats: int) -> None:
    state = nix.new_game(seats, seed=3)
    assert nix.view(state)["hand_sizes"] == [12] * seats
    assert nix.view(state)["draw_size"] == 80 - 12 * seats
    every = [c for h in state.hands for c in h] + state.draw
    assert Counter(every) == Counter({**{str(n): 10 for n in range(1, 8)}, "J": 10})


def test_first_player_is_a_seeded_random_seat() -> None:
    firsts = {nix.view(nix.new_game(4, seed=s))["first"] for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert nix.view(nix.new_game(4, seed=5))["to_act"] == nix.view(nix.new_game(4, seed=5))[
        "to_act"]


def test_played_cards_are_not_replaced() -> None:
    state = start([["3", "3", "5", "6"], ["1", "2"]])
    state, _ = play(state, "pair 3 3")
    assert nix.view(state, 0)["hand"] == ["5", "6"]
    assert nix.view(state)["hand_sizes"] == [2, 2]


def test_every_player_plays_once_a_turn_starting_with_the_first_player() -> None:
    state = start([["1", "2"], ["3", "4"], ["5", "6"]], first=1)
    seen = []
    for _ in range(6):
        seen.append(nix.to_act(state)[0])
        state, _ = play(state, f"single {nix.view(state, seen[-1])['hand'][0]}")
    assert seen == [1, 2, 0, 1, 2, 0]
    assert nix.view(state)["turn"] == 3


# --- combinations -----------------------------------------------------------------------------

VALID = [
    ("quad", "7 7 7 7"), ("quad", "3 3 J 3"), ("quad", "J 1 1 1"),
    ("run4", "2 3 4 5"), ("run4", "1 2 3 4"), ("run4", "4 5 6 7"), ("run4", "2 J 4 5"),
    ("run4", "J 5 6 7"), ("run4", "1 2 3 J"),
    ("triple", "6 6 6"), ("triple", "6 J 6"),
    ("run3", "1 2 3"), ("run3", "5 6 7"), ("run3", "4 J 6"), ("run3", "6 7 J"),
    ("run3", "J 1 2"),
    ("pair", "4 4"), ("pair", "5 J"),
    ("run2", "3 4"), ("run2", "6 7"), ("run2", "J 7"), ("run2", "1 J"),
    ("single", "5"), ("single", "J"),
]

NOT_A_COMBINATION = [
    ("quad", "7 7 7 6"), ("quad", "7 7 7"), ("quad", "3 3 J 4"), ("quad", "1 2 3 4"),
    ("run4", "5 6 7 1"), ("run4", "2 3 4 4"), ("run4", "2 3 5 6"), ("run4", "1 J 4 5"),
    ("run4", "J 6 7 1"), ("run4", "2 3 4"), ("run4", "4 4 4 4"),
    ("triple", "6 6 5"), ("triple", "6 J 5"), ("triple", "6 6"), ("triple", "6 6 6 6"),
    ("run3", "1 2 4"), ("run3", "6 7 1"), ("run3", "7 J 1"), ("run3", "2 2 3"),
    ("run3", "J 3 6"), ("run3", "1 2 3 4"),
    ("pair", "4 5"), ("pair", "4 4 4"), ("pair", "J 4 6"), ("pair", "4"),
    ("run2", "3 3"), ("run2", "3 5"), ("run2", "7 1"), ("run2", "J 7 1"), ("run2", "4"),
    ("single", "5 5"), ("single", "5 J"),
    ("none", "5"), ("none", "J"),
]

TWO_JOKERS = [
    ("quad", "3 3 J J"), ("run4", "2 J J 5"), ("triple", "J J 6"), ("run3", "J J 5"),
    ("pair", "J J"), ("run2", "J J"),
]


@pytest.mark.parametrize(("row_id", "cards"), VALID)
def test_combination_is_recognised_and_its_chip_enters_its_row(row_id: str, cards: str) -> None:
    state = start([cards.split(), FILLER])
    state, events = play(state, f"play {row_id} {cards}")
    assert events[0] == {"type": "played", "seat": 0, "row": row_id,
                         "cards": nix.sort_cards(cards.split()), "super": False, "turn": 1}
    assert row(state, row_id) == [(0, False), None, None]


@pytest.mark.parametrize(("row_id", "cards"), NOT_A_COMBINATION)
def test_cards_that_do_not_form_the_named_row_are_refused(row_id: str, cards: str) -> None:
    state = start([cards.split(), FILLER])
    error = refusal(state, f"play {row_id} {cards}")
    assert error.code == "not_a_combination"
    assert error.params == {"row": row_id, "cards": nix.sort_cards(cards.split())}


@pytest.mark.parametrize(("row_id", "cards"), TWO_JOKERS)
def test_at_most_one_joker_per_combination(row_id: str, cards: str) -> None:
    state = start([cards.split(), FILLER])
    error = refusal(state, f"play {row_id} {cards}")
    assert (error.code, error.params) == ("joker_limit", {"jokers": 2})


def test_the_same_cards_fit_several_rows_so_the_row_is_named() -> None:
    state = start([["3", "4", "J"], FILLER])
    for text, row_id in (("run3 3 4 J", "run3"), ("pair 4 J", "pair"), ("triple J 3 3", None),
                         ("run2 3 J", "run2"), ("run2 3 4", "run2"), ("single J", "single")):
        if row_id is None:
            assert refusal(state, text).code == "card_not_in_hand"
            continue
        after, _ = play(state, text)
        assert row(after, row_id)[0] == (0, False)


def test_legal_moves_lists_exactly_the_accepted_combinations() -> None:
    hand = ["2", "3", "3", "4", "5", "J"]
    state = start([hand, FILLER])
    listed = {str(m) for m in nix.legal_moves(state, 0)}
    assert "play run4 2 3 4 5" in listed
    assert "play run4 2 3 4 5 super" in listed
    assert "play run4 3 4 5 J" in listed
    assert "play run4 3 4 5 J super" not in listed  # a joker forbids the super chip
    assert "play triple 3 3 J" in listed
    assert "play quad 3 3 J" not in listed
    assert "play none" not in listed
    for text in listed:
        nix.apply(state, 0, nix.parse_move(state, 0, text))
    for row_id in nix.ROWS:
        for cards in ([], ["3"], ["3", "3"], ["3", "J"], ["2", "3"], ["J", "4"], ["3", "4", "5"],
                      ["3", "3", "J"], ["2", "3", "4", "5"], ["3", "4", "J", "5"]):
            text = str(Play(row_id, tuple(nix.sort_cards(cards))))
            try:
                nix.apply(state, 0, nix.parse_move(state, 0, text))
            except IllegalMove:
                assert text not in listed
            else:
                assert text in listed


# --- turn 5 and the last joker ----------------------------------------------------------------

def test_in_turn_five_a_joker_is_played_only_as_a_single() -> None:
    state = at_turn_five(["5", "J"])
    error = refusal(state, "pair 5 J")
    assert (error.code, error.params) == ("joker_single_only", {"turn": 5})
    assert refusal(state, "run2 J 5").code == "joker_single_only"
    state, _ = play(state, "single J")
    assert row(state, "single")[0] == (0, False)


def test_in_turn_five_legal_moves_keep_jokers_alone() -> None:
    state = at_turn_five(["5", "5", "J"])
    listed = {str(m) for m in nix.legal_moves(state, 0)}
    assert listed == {"play pair 5 5", "play single 5", "play single J"}


def test_jokers_join_combinations_before_turn_five() -> None:
    state = start([["1", "2", "3", "4", "5", "J"], ["5", "5", "5", "5", "6"]])
    state, _ = play_all(state, "single 1", "single 5", "single 2", "single 5")
    state, _ = play(state, "pair 5 J")
    assert row(state, "pair")[0] == (0, False)


def test_a_last_card_joker_can_only_be_a_single() -> None:
    state = start([["J"], FILLER])
    assert nix.legal_moves(state, 0) == [Play("single", ("J",))]


# --- none ------------------------------------------------------------------------------------

def test_none_only_with_an_empty_hand() -> None:
    state = start([["4"], ["1", "2"]])
    error = refusal(state, "play none")
    assert (error.code, error.params) == ("none_needs_empty_hand", {"hand_size": 1})
    state, _ = play_all(state, "single 4", "single 1")
    assert nix.legal_moves(state, 0) == [Play("none"), Play("none", (), True)]
    state, _ = play(state, "rien")
    assert row(state, "none") == [(0, False), None, None]


# --- pushing ----------------------------------------------------------------------------------

@pytest.mark.parametrize("chips", [1, 2, 3, 4, 5])
def test_a_new_chip_enters_cell_one_and_the_fourth_leaves_the_board(chips: int) -> None:
    state = start([["6"], ["6"], ["6"], ["6"], ["6"]])
    pushed_off = []
    for _ in range(chips):
        state, events = play(state, "single 6")
        pushed_off += [e["seat"] for e in events if e["type"] == "pushed_off"]
    expected = [(s, False) for s in reversed(range(chips))][:3]
    assert row(state, "single") == expected + [None] * (3 - len(expected))
    assert pushed_off == list(range(max(0, chips - 3)))


def test_own_chips_are_pushed_like_anybody_elses() -> None:
    state = start([["6", "6", "6", "6"], ["1", "2", "3", "4"]])
    for _ in range(4):
        state, _ = play(state, "single 6")
        state, _ = play(state, f"single {nix.view(state, 1)['hand'][0]}")
    assert row(state, "single") == [(1, False), (0, False), (1, False)]
    assert nix.view(state)["board_points"] == [1, 2]


# --- super chip -------------------------------------------------------------------------------

def test_super_chip_doubles_its_cell() -> None:
    state = start([["2", "3", "4", "7"], ["1"]], rounds=1)
    state, _ = play(state, "play run3 4 2 3 super")
    assert row(state, "run3") == [(0, True), None, None]
    assert nix.view(state)["board_points"] == [12, 0]


def test_super_chip_is_refused_with_a_joker() -> None:
    state = start([["2", "3", "J"], FILLER])
    error = refusal(state, "run3 2 3 J super")
    assert (error.code, error.params) == ("super_not_allowed", {"reason": "joker"})


def test_super_chip_is_refused_in_turn_five() -> None:
    state = at_turn_five(["5", "6"])
    error = refusal(state, "single 6 super")
    assert (error.code, error.params) == ("super_not_allowed", {"reason": "turn_5"})


def test_super_chip_is_used_once_a_round() -> None:
    state = start([["5", "6", "7"], ["1", "2"]])
    state, _ = play_all(state, "single 5 super", "single 1")
    assert nix.view(state)["super_used"] == [True, False]
    error = refusal(state, "single 6 super")
    assert (error.code, error.params) == ("super_used", {})


def test_unused_super_chip_is_placed_as_a_normal_chip_in_turn_five() -> None:
    state = at_turn_five(["6"])
    state, events = play(state, "single 6")
    assert {"type": "super_as_normal", "seat": 0} in events
    assert row(state, "single")[0] == (0, False)


# --- round scoring ----------------------------------------------------------------------------

def scripted_round(rounds: int = 1) -> tuple[nix.State, list[dict[str, Any]]]:
    hands = [["5", "5", "1", "7", "7", "2", "2", "2"], ["6", "6", "2", "3", "4", "1", "1", "J"]]
    state = start(hands, rounds=rounds)
    return play_all(
        state,
        "pair 5 5", "pair 6 6",
        "single 1", "run2 2 3 super",
        "pair 7 7", "single 4",
        "triple 2 2 2 super", "pair 1 1",  # seat 0's first pair chip leaves the board
        "none", "single J",
    )


def test_round_scores_each_chip_at_the_cell_it_stands_in_at_the_end() -> None:
    state, events = scripted_round()
    # pair [1, 0, 1] 5+1 | 3; single [1, 1, 0] 2+1 | 0; run2 [1 super] 8; triple [0 super] 16;
    # none [0] 2.
    over = next(e for e in events if e["type"] == "round_over")
    assert over["points"] == [21, 17]
    assert over["board"]["pair"] == [{"seat": 1, "super": False}, {"seat": 0, "super": False},
                                     {"seat": 1, "super": False}]
    assert nix.view(state)["scores"] == [21, 17]
    result = nix.outcome(state)
    assert result is not None
    assert (result.scores, result.ranking) == ([21, 17], [1, 2])
    assert nix.to_act(state) == []


def test_game_over_refuses_every_move() -> None:
    state, _ = scripted_round()
    assert refusal(state, "none", seat=0).code == "game_over"
    assert nix.legal_moves(state, 0) == []


def test_a_new_round_redeals_twelve_cards_and_clears_the_board() -> None:
    state, events = scripted_round(rounds=2)
    assert [e for e in events if e["type"] == "round_started"] == [
        {"type": "round_started", "round": 2, "first": 0}]
    view = nix.view(state)
    assert (view["round"], view["turn"], view["hand_sizes"]) == (2, 1, [12, 12])
    assert all(cell is None for cells in view["board"].values() for cell in cells)
    assert view["super_used"] == [False, False]
    assert view["round_scores"] == [[21, 17]]
    assert nix.outcome(state) is None


def test_next_round_is_led_by_the_points_leader() -> None:
    state = start([["5", "5"], ["1"]], first=1, rounds=2)
    state, _ = play_all(state, "single 1", "pair 5 5", *["none"] * 8)
    # pair [0] 5, none [0, 1, 0] 2+0 | 1, single [1] 2.
    assert nix.view(state)["round_scores"] == [[7, 3]]
    assert nix.view(state)["first"] == 0
    assert nix.to_act(state) == [0]


def test_a_tie_for_the_lead_is_drawn_by_lot() -> None:
    leaders = set()
    for seed in range(12):
        state = nix.new_game(2, {"rounds": 2, "board": {"none": [0, 0, 0]}}, seed=seed,
                             setup={"hands": [[], []], "first": 0})
        for _ in range(10):
            state, _ = play(state, "none")
        assert nix.view(state)["round_scores"][0][0] == nix.view(state)["round_scores"][0][1]
        leaders.add(nix.view(state)["first"])
        replayed = nix.new_game(2, {"rounds": 2, "board": {"none": [0, 0, 0]}}, seed=seed,
                                setup={"hands": [[], []], "first": 0})
        for _ in range(10):
            replayed, _ = play(replayed, "none")
        assert nix.dump(replayed) == nix.dump(state)
    assert leaders == {0, 1}


def test_rounds_option_sets_the_game_length() -> None:
    state = nix.new_game(2, {"rounds": 2}, seed=1, setup={"hands": [[], []], "first": 0})
    for _ in range(10):
        state, _ = play(state, "none")
    assert nix.outcome(state) is None
    rng = random.Random(0)
    for _ in range(10):
        seat = nix.to_act(state)[0]
        state, _ = nix.apply(state, seat, bot_move(nix, state, seat, rng))
    assert nix.outcome(state) is not None
    assert len(nix.view(state)["round_scores"]) == 2


# --- board option -----------------------------------------------------------------------------

def test_default_board_values() -> None:
    assert nix.view(nix.new_game(2))["board_values"] == {
        "quad": [12, 8, 4], "run4": [10, 7, 3], "triple": [8, 6, 3], "run3": [6, 4, 2],
        "pair": [5, 3, 1], "run2": [4, 2, 1], "single": [2, 1, 0], "none": [2, 1, 0]}


def test_board_option_overrides_the_rows_it_names() -> None:
    state = start([["4", "4"], ["1"]], board={"pair": [9, 0, 0]}, rounds=1)
    assert nix.view(state)["board_values"]["pair"] == [9, 0, 0]
    assert nix.view(state)["board_values"]["quad"] == [12, 8, 4]
    state, _ = play_all(state, "pair 4 4 super", "single 1", *["none"] * 8)
    # pair [0 super] 2 x 9; none [1, 0, 1] 1.
    assert nix.outcome(state).scores[0] == 18 + 1  # type: ignore[union-attr]


@pytest.mark.parametrize("board", [
    {"pair": [1, 2]}, {"pair": [1, 2, 3, 4]}, {"pair": [-1, 2, 3]}, {"pear": [1, 2, 3]},
    {"pair": ["a", 1, 1]}, {"pair": [1.5, 1, 1]}, {"pair": 5}, [1, 2, 3],
])
def test_board_option_is_eight_rows_of_three_non_negative_integers(board: Any) -> None:
    with pytest.raises(BadOptions):
        nix.new_game(2, {"board": board})


def test_unknown_options_are_refused() -> None:
    with pytest.raises(BadOptions):
        nix.new_game(2, {"rounds": 0})
    with pytest.raises(BadOptions):
        nix.new_game(2, {"players": 3})


# --- setup ------------------------------------------------------------------------------------

def test_setup_rejects_unknown_keys_and_cards() -> None:
    for setup in ({"hands": [[], []], "dealer": 0}, {"hands": [["8"], []]},
                  {"hands": [["J"] * 6, ["J"] * 5]}, {"hands": [[]]},
                  {"hands": [[], []], "first": 2}, {"hands": [["1"] * 10, []], "draw": ["1"]}):
        with pytest.raises(BadOptions):
            nix.new_game(2, seed=1, setup=setup)


def test_setup_without_draw_puts_the_other_cards_in_the_draw_pile() -> None:
    state = nix.new_game(2, seed=1, setup={"hands": [["1"], ["2", "J"]]})
    assert nix.view(state)["draw_size"] == 77


# --- Monsieur Personne ------------------------------------------------------------------------

@pytest.mark.parametrize(("cards", "row_id"), [
    ("3 J", "pair"), ("3 4", "run2"), ("3 6", "single"), ("J J", "pair"), ("7", "single"),
    ("", "none"), ("7 1", "single"),
    ("1 2 3", "run3"), ("2 2 5", "pair"), ("J J 5", "triple"), ("1 2 J", "run3"),
    ("1 3 5", "single"), ("1 3 5 J", "run3"), ("1 2 3 J", "run4"), ("6 6 J 2", "triple"),
    ("6 6 J J 2", "quad"), ("4 5 6 7 7", "run4"), ("J J J J 1 1", "quad"),
    ("1 3 5 7 J J", "run4"), ("1 2 4 5 6 6", "run3"), ("1 2 4 5 J 6", "run4"),
])
def test_personne_takes_the_highest_row_its_cards_make(cards: str, row_id: str) -> None:
    chosen, used = nix.strongest(cards.split())
    assert chosen == row_id
    assert nix.forms(row_id, used)
    assert not Counter(used) - Counter(cards.split())


def test_personne_plays_last_every_turn_with_two_to_six_revealed_cards() -> None:
    draw = ["7", "7", "7", "7", "7", "7", "7", "7", "7", "J", "J", "J", "J", "J",
            "J", "J", "J", "J", "J", "1"]
    state = start([[], []], first=1, draw=draw, personne=True, rounds=2)
    assert nix.view(state)["hand_sizes"] == [0, 0]
    reveals, plays = [], []
    for turn in range(1, 6):
        assert [nix.to_act(state)[0]] == [1]
        state, events = play_all(state, "none", "none")
        reveals += [e["cards"] for e in events if e["type"] == "personne_revealed"]
        plays += [(e["row"], e["super"]) for e in events
                  if e["type"] == "played" and e["seat"] == 2]
        if turn == 1:
            assert nix.view(state)["personne_cards"] == ["7", "7"]
    assert [len(r) for r in reveals] == [2, 3, 4, 5, 6]
    # Jokers in any number, in turn 5 too; the super chip in turn 4.
    assert plays == [("pair", False), ("triple", False), ("quad", False), ("quad", True),
                     ("quad", False)]
    # quad [P, P super, P] 12+16+4, triple 8, pair 5; none [0, 1, 0] 2+0 | 1.
    assert nix.view(state)["round_scores"] == [[2, 1, 45]]
    assert nix.view(state)["first"] == 0  # Monsieur Personne never leads
    assert nix.view(state)["scores"][2] == 45


def test_personne_uses_what_is_left_of_the_draw_pile_then_plays_none() -> None:
    state = start([[], []], draw=["3"], personne=True)
    state, events = play_all(state, "none", "none")
    assert [e["cards"] for e in events if e["type"] == "personne_revealed"] == [["3"]]
    assert row(state, "single") == [(2, False), None, None]
    state, events = play_all(state, "none", "none")
    assert [e["cards"] for e in events if e["type"] == "personne_revealed"] == [[]]
    assert row(state, "none") == [(2, False), (1, False), (0, False)]


def test_personne_is_scored_after_the_human_seats() -> None:
    state = start([[], []], draw=["3"], personne=True, rounds=1)
    state, _ = play_all(state, *["none"] * 10)
    result = nix.outcome(state)
    assert result is not None
    assert len(result.scores) == 3
    # Its single 3 stays in cell 1; its last none chip, laid last, keeps cell 1 too.
    assert result.scores[2] == 2 + 2
    assert nix.view(state)["scores"] == result.scores


# --- notation and refusals --------------------------------------------------------------------

@pytest.mark.parametrize(("text", "move"), [
    ("play pair 5 J", Play("pair", ("5", "J"))),
    ("pair J 5", Play("pair", ("5", "J"))),
    ("/play run3 4 2 3 super", Play("run3", ("2", "3", "4"), True)),
    ("jouer paire 5 joker", Play("pair", ("5", "J"))),
    ("Carré 3 3 3 Joker", Play("quad", ("3", "3", "3", "J"))),
    ("suite4 1 2 3 4", Play("run4", ("1", "2", "3", "4"))),
    ("brelan 6 6 6 super", Play("triple", ("6", "6", "6"), True)),
    ("suite3 1 2 3", Play("run3", ("1", "2", "3"))),
    ("suite2 6 7", Play("run2", ("6", "7"))),
    ("carte 7", Play("single", ("7",))),
    ("rien", Play("none")),
    ("PLAY NONE", Play("none")),
])
def test_notation_reads_english_and_french(text: str, move: Play) -> None:
    state = nix.new_game(2)
    assert nix.parse_move(state, 0, text) == move


@pytest.mark.parametrize("text", ["play pair 5 J", "play run3 2 3 4 super", "play none",
                                  "play single J", "play quad 3 3 3 J"])
def test_canonical_notation_round_trips(text: str) -> None:
    state = nix.new_game(2)
    move = nix.parse_move(state, 0, text)
    assert str(move) == text
    assert nix.parse_move(state, 0, str(move)) == move


@pytest.mark.parametrize(("text", "code", "params"), [
    ("play", "bad_notation", {"text": "play"}),
    ("", "bad_notation", {"text": ""}),
    ("play 5 5", "unknown_row", {"text": "5"}),
    ("play pear 5 5", "unknown_row", {"text": "pear"}),
    ("play pair 8 8", "unknown_card", {"text": "8"}),
    ("play pair 0 0", "unknown_card", {"text": "0"}),
])
def test_unreadable_moves_are_refused(text: str, code: str, params: dict[str, Any]) -> None:
    with pytest.raises(IllegalMove) as caught:
        nix.parse_move(nix.new_game(2), 0, text)
    assert (caught.value.code, caught.value.params) == (code, params)


def test_not_your_turn() -> None:
    state = start([["1"], ["2"]])
    error = refusal(state, "single 2", seat=1)
    assert (error.code, error.params) == ("not_your_turn", {"seat": 1, "to_act": [0]})


def test_card_not_in_hand() -> None:
    state = start([["1", "1"], ["2"]])
    error = refusal(state, "triple 1 1 1")
    # Two 1s held: the refusal says how many, not "you don't have 1".
    assert (error.code, error.params) == ("card_not_in_hand", {
        "cards": ["1"], "reason": "short", "card": "1", "held": 2, "wanted": 3,
        "played": ["1", "1", "1"]})
    error = refusal(state, "pair 5 5")
    assert (error.code, error.params) == ("card_not_in_hand", {"cards": ["5", "5"]})


def test_refusal_order_card_before_combination_before_super() -> None:
    state = start([["1", "2", "J", "J"], ["2"]])
    assert refusal(state, "pair 5 5 super").code == "card_not_in_hand"
    assert refusal(state, "pair J J super").code == "joker_limit"
    assert refusal(state, "pair 1 2 super").code == "not_a_combination"


def test_apply_never_mutates_its_input() -> None:
    state = start([["1", "2"], ["2"]])
    before = nix.dump(state)
    nix.apply(state, 0, Play("single", ("1",), True))
    assert nix.dump(state) == before


def test_views_show_the_public_table_and_only_ones_own_hand() -> None:
    state = start([["1", "2"], ["3", "J"]], draw=["5", "6", "7"], personne=True)
    public = nix.view(state)
    assert "hand" not in public
    assert public["hand_sizes"] == [2, 2]
    assert public["personne_cards"] == []
    assert nix.view(state, 1)["hand"] == ["3", "J"]
    state, _ = play_all(state, "single 1", "single J")
    assert nix.view(state)["personne_cards"] == ["5", "6"]
    assert nix.view(state)["placed"][-1] == {"turn": 1, "seat": 2, "row": "run2",
                                             "cards": ["5", "6"], "super": False}
    assert nix.view(state)["draw_size"] == 1
