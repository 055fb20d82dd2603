"""`apply` copies the state field by field (a generic copy cost more than the rest of a
move): the copy of a game under way equals its state and shares no list with it, so a
field added to a State and forgotten in its game's `_copy` shows here."""

import dataclasses
import random

import pytest

from engine import bots, games

# Never changed after the deal, so shared by every copy on purpose.
SHARED = {("nix-fur-ungut", "board_values")}


@pytest.mark.parametrize("game_id", games.ids())
def test_a_copy_of_a_game_under_way_equals_it_and_shares_no_list(game_id: str) -> None:
    game = games.get(game_id)
    seats = game.SEATS.start + 1
    state = game.new_game(seats, None, seed=5)
    rng = random.Random(5)
    for _ in range(25):
        [seat] = game.to_act(state)[:1]
        state, _ = game.apply(state, seat, bots.get(game_id, "easy").choose(
            game.view(state, seat), rng))
    copy = game._copy(state)  # type: ignore[attr-defined]
    assert copy == state
    for field in dataclasses.fields(state):
        value = getattr(state, field.name)
        if isinstance(value, list | dict) and (game_id, field.name) not in SHARED:
            assert getattr(copy, field.name) is not value, field.name
