"""Ochs & Esel: the easy bot (the baseline, from the seat's view), and a whole game played
through chat text."""

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMove
from engine import ochs_esel as oe
from tests.botplay import bot_move


def game(hands: list[list[str]], *, first: int | None = None, ox: bool = False) -> oe.State:
    setup: dict[str, Any] = {"hands": hands}
    if first is not None:
        setup["first"] = first
    return oe.new_game(len(hands), {"ox": ox, "rounds": 1}, setup=setup)


def run(state: oe.State, *turns: tuple[int, str]) -> oe.State:
    for seat, text in turns:
        state, _ = oe.apply(state, seat, oe.parse_move(state, seat, text))
    return state


def bot_text(state: oe.State, seat: int, seed: int = 0) -> str:
    return str(bot_move(oe, state, seat, random.Random(seed)))


@settings(max_examples=20, deadline=None, database=None)
@given(seats=st.integers(3, 12), ox=st.booleans(), seed=st.integers(0, 2**32))
def test_bot_never_picks_an_illegal_move(seats, ox, seed):
    state = oe.new_game(seats, {"ox": ox, "rounds": 2}, seed=seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if oe.outcome(state) is not None:
            break
        [seat] = oe.to_act(state)
        move = bot_move(oe, state, seat, rng)
        assert move in oe.legal_moves(state, seat)
        state, _ = oe.apply(state, seat, move)
    assert oe.outcome(state) is not None


def test_bot_refuses_to_act_out_of_turn():
    state = game([["D", "5"], ["7"], ["8"]])
    with pytest.raises(IllegalMove) as info:
        bot_move(oe, state, 1, random.Random(0))
    assert info.value.code == "not_your_turn"


def test_bot_leads_the_donkey_when_allowed():
    state = game([["1", "1", "D", "J"], ["7", "9"], ["8", "10"], ["2", "3"]])
    assert bot_text(state, 0) == "play D"


def test_bot_leads_the_ox_when_allowed():
    state = game([["1", "1", "O"], ["7", "9"], ["8", "10"], ["2", "3"]], first=0, ox=True)
    assert bot_text(state, 0) == "play O"


def test_bot_does_not_try_the_donkey_right_after_taking_it():
    state = game([["D", "1", "2"], ["5", "3"], ["4", "6"], ["13", "12", "11"]])
    state = run(state, (0, "D"), (1, "5"), (2, "4"), (3, "13"))
    # Dorothée took D 5 4 13 with her 13: she leads her lowest set, not the donkey.
    assert bot_text(state, 3) == "play 4"


def test_bot_sheds_its_lowest_set_whole_and_keeps_jokers_back():
    state = game([["3", "3", "5", "9", "J"], ["7", "9"], ["8", "10"], ["2", "3"]],
                 first=0, ox=True)
    assert bot_text(state, 0) == "play 3 3"


def test_bot_beats_with_the_lowest_set_that_does_it():
    state = run(game([["D", "5", "1"], ["6", "8", "12", "J"], ["2"], ["3"]]), (0, "5"))
    assert bot_text(state, 1) == "play 6"


def test_bot_keeps_its_jokers_to_beat_near_the_end_not_early():
    state = run(game([["D", "13", "1"], ["2", "3", "4", "6", "J"], ["2"], ["3"]]), (0, "13"))
    assert bot_text(state, 1) == "pass"
    state = run(game([["D", "13", "1"], ["2", "J"], ["2"], ["3"]]), (0, "13"))
    assert bot_text(state, 1) == "play J"


def test_bot_sheds_its_highest_card_that_cannot_take_the_donkey_trick():
    state = run(game([["D", "1"], ["9", "2"], ["2", "8", "13", "J"], ["3", "4"]]),
                (0, "D"), (1, "9"))
    assert bot_text(state, 2) == "play 8"
    # When every card would take the lead, it plays the lowest one.
    state = run(game([["D", "1"], ["1", "2"], ["5", "8", "13"], ["3", "4"]]),
                (0, "D"), (1, "1"))
    assert bot_text(state, 2) == "play 5"


def test_bot_passes_in_an_animal_trick_holding_only_the_other_animal():
    state = run(game([["O", "5"], ["D"], ["7", "8"], ["4", "9"]], first=0, ox=True), (0, "O"))
    assert bot_text(state, 1) == "pass"


def test_bot_beats_uniformly_random_players_on_penalty_totals():
    # 300 seeded one-round 4-player games, the bot in each seat in turn, three players
    # choosing uniformly among their legal moves.
    bot_total, random_total = 0, 0
    for seed in range(300):
        bot_seat = seed % 4
        state = oe.new_game(4, {"rounds": 1}, seed=seed)
        rng = random.Random(seed)
        while oe.outcome(state) is None:
            [seat] = oe.to_act(state)
            move = (bot_move(oe, state, seat, rng) if seat == bot_seat
                    else rng.choice(oe.legal_moves(state, seat)))
            state, _ = oe.apply(state, seat, move)
        result = oe.outcome(state)
        assert result is not None
        bot_total += result.scores[bot_seat]
        random_total += sum(result.scores) - result.scores[bot_seat]
    # Measured: the bot takes about a quarter of a random player's penalties.
    assert bot_total * 2 < random_total / 3


# Ways a player may write the bot's canonical move in chat.
CHAT_FORMS = [
    lambda text: text,
    lambda text: text.removeprefix("play "),
    lambda text: text.upper().replace("PLAY ", "/play "),
    lambda text: text.replace("play", "joue").replace("J", "joker").replace("D", "âne"),
    lambda text: text.removeprefix("play ").replace(" ", ", ").replace("pass", "passe"),
]


def test_a_four_player_game_can_be_played_to_the_end_with_text_only():
    state = oe.new_game(4, seed=2024)
    rng = random.Random(2024)
    moves = 0
    while oe.outcome(state) is None:
        [seat] = oe.to_act(state)
        text = rng.choice(CHAT_FORMS)(bot_text(state, seat, seed=moves))
        state, _ = oe.apply(state, seat, oe.parse_move(state, seat, text))
        moves += 1
        assert moves < 5000
    result = oe.outcome(state)
    assert result is not None and len(result.scores) == 4
    assert oe.view(state)["round"] == 5
