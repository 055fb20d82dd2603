"""The easy bots, fed views only, play exactly as the state-reading baselines they replace.

The engine modules' `choose(state, seat, rng)` is what `bot/` plays today; this file
goes when those functions go (once `bot/` uses `engine.bots`).
"""

import random

import pytest

from engine import games
from engine.bots import michigan, nix_fur_ungut, ochs_esel

CASES = [
    ("ochs-esel", ochs_esel, seats, options)
    for seats in (3, 5, 12) for options in ({"rounds": 2}, {"rounds": 2, "ox": True})
] + [
    ("nix-fur-ungut", nix_fur_ungut, seats, options)
    for seats in (2, 4, 5) for options in ({"rounds": 2}, {"rounds": 2, "personne": True})
] + [
    ("michigan", michigan, seats, {"chips": chips})
    for seats in (3, 6, 8) for chips in (3, 50)
]


@pytest.mark.parametrize(("game_id", "bots", "seats", "options"), CASES)
def test_easy_bot_plays_the_baseline_move_at_every_turn(game_id, bots, seats, options):
    game = games.get(game_id)
    easy = bots.Easy()
    for seed in range(3):
        state = game.new_game(seats, options, seed=seed)
        old, new = random.Random(seed), random.Random(seed)
        while acting := game.to_act(state):
            seat = acting[0]
            move = game.choose(state, seat, old)
            assert easy.choose(game.view(state, seat), new) == move
            state, _ = game.apply(state, seat, move)
