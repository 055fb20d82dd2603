"""Snapshots keep their bytes: stored tables are checked against their replayed log byte
for byte, and those written before orjson wrote them came from the standard library's
encoder (sorted keys, no spaces). A different byte anywhere would close every stored
table at its next load."""

import json
import random

import pytest

from engine import games
from engine.core.errors import BadOptions
from tests.engine.test_replay_stability import GAMES


@pytest.mark.parametrize(("game_id", "seats", "options", "seed"), GAMES)
def test_a_snapshot_is_what_the_standard_library_wrote(game_id: str, seats: int,
                                                         options: dict, seed: int) -> None:
    game = games.get(game_id)
    state = game.new_game(seats, options, seed=seed)
    rng = random.Random(seed)
    dumped = 0
    while True:
        text = game.dump(state)
        assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
        assert game.dump(game.load(text)) == text
        dumped += 1
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
    assert dumped > 10


def test_a_broken_snapshot_is_refused_as_such() -> None:
    game = games.get("the-game")
    with pytest.raises(BadOptions, match="not JSON"):
        game.load('{"game": "the-game", ')
