"""A bot reads its view and never changes it.

The service hands a bot a seat's view that extends the table's public view of the same
state (`bot.live.Live.seat_view`): the lists and dicts inside are the ones the table
message is drawn from. A bot that sorted or emptied one of them would change what the
players see, so every bot of every game, both levels and their out-of-turn talk, is held
here to leaving its view as it found it.
"""

import copy
import random
from typing import Any

import pytest

from engine import bots, games

# game, seats, options, seed, decisions at most
TABLES: list[tuple[str, int, dict[str, Any], int, int]] = [
    ("ochs-esel", 4, {"rounds": 1}, 21, 60),
    ("ochs-esel", 3, {"rounds": 1, "ox": True}, 22, 60),
    ("the-game", 3, {}, 21, 60),
    ("nix-fur-ungut", 3, {"rounds": 1, "personne": True}, 21, 40),
    ("nix-fur-ungut", 4, {"rounds": 1}, 22, 40),
    ("michigan", 4, {"chips": 20, "hands_per_player": 1}, 21, 60),
]


@pytest.mark.parametrize(("game_id", "seats", "options", "seed", "limit"), TABLES)
@pytest.mark.parametrize("level", bots.LEVELS)
def test_a_bot_leaves_its_view_as_it_found_it(game_id: str, seats: int,
                                              options: dict[str, Any], seed: int, limit: int,
                                              level: str) -> None:
    game = games.get(game_id)
    bot = bots.get(game_id, level)
    state = game.new_game(seats, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.outcome(state) is not None:
            break
        public = game.view(state)
        shown = copy.deepcopy(public)
        if isinstance(bot, bots.Talker):
            for talker in range(seats):
                view = game.view(state, talker, public=public)
                before = copy.deepcopy(view)
                bot.speak(view, rng)
                assert view == before, f"{game_id} {level} speak changed its view"
        seat = game.to_act(state)[0]
        view = game.view(state, seat, public=public)
        assert view == game.view(state, seat)  # the same view, made either way
        before = copy.deepcopy(view)
        move = bot.choose(view, rng)
        assert view == before, f"{game_id} {level} choose changed its view"
        assert public == shown, f"{game_id} {level} changed the public view"
        state, _ = game.apply(state, seat, move)
