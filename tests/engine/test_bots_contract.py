"""The bot contract across games: a bot asked to move for a seat that is not to act says
so plainly (a caller's bug), naming the seat and who is to act."""

import random

import pytest

from engine import IllegalMove, bots, games


@pytest.mark.parametrize("level", ["easy", "strong"])
@pytest.mark.parametrize("game_id", ["ochs-esel", "nix-fur-ungut", "michigan"])
def test_a_bot_asked_out_of_turn_says_whose_turn_it_is(game_id: str, level: str) -> None:
    game = games.get(game_id)
    state = game.new_game(3, seed=1)
    waiting = next(seat for seat in range(3) if seat not in game.to_act(state))
    with pytest.raises(IllegalMove) as caught:
        bots.get(game_id, level).choose(game.view(state, waiting), random.Random(0))
    assert (caught.value.code, caught.value.params) == (
        "not_your_turn", {"seat": waiting, "to_act": game.to_act(state)})
