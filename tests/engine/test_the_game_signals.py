"""The Game's signals: « ne pas jouer sur cette Base », « ne pas faire un trop gros saut ».

Any player, at any time, per pile; kept until its author withdraws it or plays on that
pile; public; a move in the log; never a number.
"""

import json
from typing import Any

import pytest

from engine import IllegalMove, games
from engine.the_game import SMALL, STOP, End, Signal, State, signal_moves

game = games.get("the-game")


def start(seats: int = 2, first: int = 0) -> State:
    hands = [[10, 20, 80, 90], [30, 40, 60, 70], [11, 21, 81, 91]][:seats]
    setup: dict[str, Any] = {"hands": hands, "draw": [50, 51, 52, 53, 54, 55], "first": first}
    return game.new_game(seats, seed=1, setup=setup)


def say(state: State, seat: int, text: str) -> State:
    return game.apply(state, seat, game.parse_move(state, seat, text))[0]


def signals(state: State, seat: int | None = None) -> dict[str, list[str | None]]:
    return game.view(state, seat)["signals"]


def test_any_player_may_ask_not_to_play_on_a_pile_at_any_time() -> None:
    state = start()
    assert game.to_act(state) == [0]
    state, events = game.apply(state, 1, game.parse_move(state, 1, "signal A1 stop"))
    assert events == [{"type": "signalled", "seat": 1, "pile": "A1", "signal": STOP}]
    assert signals(state)["A1"] == [None, STOP]
    assert signals(state, 0)["A1"] == [None, STOP], "signals are public"
    assert game.to_act(state) == [0] and state.played == 0, "the turn does not move"


def test_a_signal_is_no_play_and_never_counts_toward_the_minimum() -> None:
    state = say(start(), 0, "signal D1 small")
    state = say(state, 0, "10 A1")
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, 0, End())
    assert caught.value.code == "below_minimum"
    assert caught.value.params["played"] == 1


def test_a_signal_stays_until_its_author_plays_on_that_pile() -> None:
    state = say(start(), 0, "signal D2 small")
    state = say(state, 1, "signal D2 stop")
    state = say(state, 0, "90 D1")
    assert signals(state)["D2"] == [SMALL, STOP], "a play elsewhere leaves it"
    state = say(state, 0, "80 D2")
    assert signals(state)["D2"] == [None, STOP], "its author played there: it is answered"


def test_its_author_may_change_or_withdraw_it() -> None:
    state = say(start(), 1, "signal A2 stop")
    state = say(state, 1, "signal A2 small")
    assert signals(state)["A2"] == [None, SMALL]
    state, events = game.apply(state, 1, game.parse_move(state, 1, "signal A2 off"))
    assert signals(state)["A2"] == [None, None]
    assert events[0]["signal"] is None


def test_withdrawing_nothing_or_saying_it_twice_is_refused_and_changes_nothing() -> None:
    state = start()
    with pytest.raises(IllegalMove) as caught:
        say(state, 1, "signal A1 off")
    assert caught.value.code == "no_signal_to_withdraw"
    state = say(state, 1, "signal A1 stop")
    before = game.dump(state)
    with pytest.raises(IllegalMove) as caught:
        say(state, 1, "signal A1 stop")
    assert (caught.value.code, caught.value.params) == (
        "signal_already_given", {"pile": "A1", "signal": STOP})
    assert game.dump(state) == before


@pytest.mark.parametrize("text, code", [
    ("signal A1 23", "unknown_signal"),  # "il est interdit d'indiquer le nombre"
    ("signal 23 stop", "unknown_pile"),
    ("signal A1 stop 23", "bad_notation"),
    ("signal A1", "bad_notation"),
    ("signal A1 D1 stop", "bad_notation"),
    ("signal A1 jump", "unknown_signal"),
])
def test_nothing_that_reveals_a_number_can_be_signalled(text: str, code: str) -> None:
    with pytest.raises(IllegalMove) as caught:
        game.parse_move(start(), 1, text)
    assert caught.value.code == code


def test_signals_read_in_english_and_french_and_print_back_as_their_notation() -> None:
    state = start()
    assert game.parse_move(state, 1, "signale d1 petit") == Signal("D1", SMALL)
    assert game.parse_move(state, 1, "Signal stop A2") == Signal("A2", STOP)
    assert game.parse_move(state, 1, "signal A2 retirer") == Signal("A2", None)
    for move in signal_moves(say(state, 1, "signal A1 stop"), 1):
        assert game.parse_move(state, 1, str(move)) == move


def test_signal_moves_offer_each_request_not_yet_made_and_the_withdrawal() -> None:
    state = say(start(), 1, "signal A1 stop")
    offered = {str(m) for m in signal_moves(state, 1)}
    assert {"signal A1 small", "signal A1 off"} <= offered
    assert "signal A1 stop" not in offered and "signal A2 off" not in offered
    assert len(offered) == 2 + 3 * 2


def test_signals_replay_from_the_move_log_to_the_same_snapshot() -> None:
    state = start(3)
    log: list[tuple[int, str]] = []
    for seat, text in [(2, "signal D1 stop"), (0, "10 A1"), (1, "signal A1 small"),
                       (0, "90 D1"), (0, "signal D1 small"), (0, "end"), (2, "signal D1 off")]:
        move = game.parse_move(state, seat, text)
        state, _ = game.apply(state, seat, move)
        log.append((seat, str(move)))
    replayed = start(3)
    for seat, text in log:
        replayed, _ = game.apply(replayed, seat, game.parse_move(replayed, seat, text))
    assert game.dump(replayed) == game.dump(state)
    assert signals(state)["D1"] == [SMALL, None, None]  # said after its play there
    assert signals(state)["A1"] == [None, SMALL, None]


def test_after_the_game_no_signal_is_taken() -> None:
    state = game.new_game(1, seed=1, setup={"hands": [[50]], "draw": []})
    state = say(state, 0, "50 A1")
    assert state.over
    with pytest.raises(IllegalMove) as caught:
        say(state, 0, "signal A1 stop")
    assert caught.value.code == "game_over"


def test_a_snapshot_from_before_signals_still_loads_and_takes_them() -> None:
    body = json.loads(game.dump(start()))
    del body["state"]["signals"]
    old = game.load(json.dumps(body))
    state = say(old, 1, "signal A1 stop")
    assert signals(state)["A1"] == [None, STOP]
    assert signals(old)["A1"] == [None, None]
    assert len(signal_moves(old, 1)) == 8  # two requests on each of four piles


def test_a_seat_not_at_the_table_has_no_signal_to_give() -> None:
    state = start(seats=2)
    assert signal_moves(state, 1)  # every seat at the table may signal at any time
    assert signal_moves(state, 2) == []
    assert signal_moves(state, -1) == []
