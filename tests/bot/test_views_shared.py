"""A seat's hand is drawn from a view that extends the table's public view of the same
state (`Live.seat_view`): drawing hands leaves the public view as it was, and draws the
same hand as a view made afresh."""

import copy
import random
from typing import Any

import pytest

from bot import present
from bot.live import Live
from db.repository import PLAYING, SeatRow, TableRow
from engine import bots, games

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("ochs-esel", 4, {"rounds": 1}),
    ("the-game", 3, {}),
    ("nix-fur-ungut", 3, {"rounds": 1, "personne": True}),
    ("michigan", 4, {"chips": 20, "hands_per_player": 1}),
]


def _live(game_id: str, seats: int, options: dict[str, Any], state: Any) -> Live:
    row = TableRow(id=1, platform="console", channel="c", game=game_id, options=options,
                   settings={}, seed=5, status=PLAYING, host="u0", version=0, snapshot=None,
                   created_at=0.0, updated_at=0.0)
    people = [SeatRow(seat=s, user_id=f"u{s}", name=f"P{s}") for s in range(seats)]
    return Live(row=row, seats=people, game=games.get(game_id), state=state)


@pytest.mark.parametrize(("game_id", "seats", "options"), TABLES)
@pytest.mark.parametrize("every_move", [False, True])
def test_hands_drawn_from_the_shared_view_leave_it_as_it_was(
        game_id: str, seats: int, options: dict[str, Any], every_move: bool) -> None:
    game = games.get(game_id)
    state = game.new_game(seats, options, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        if game.outcome(state) is not None:
            break
        live = _live(game_id, seats, options, state)
        shown = copy.deepcopy(live.public_view())
        for seat in range(seats):
            drawn = present.hand(live, seat, "en", every_move=every_move)
            fresh = _live(game_id, seats, options, state)
            fresh.seat_view = lambda s, f=fresh: f.game.view(f.state, s)  # type: ignore[method-assign]
            assert drawn == present.hand(fresh, seat, "en", every_move=every_move)
        assert live.public_view() == shown
        seat = game.to_act(state)[0]
        move = bots.get(game_id, "easy").choose(game.view(state, seat), rng)
        state, _ = game.apply(state, seat, move)
