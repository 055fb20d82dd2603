"""Moves for tests that need someone to play on: the easy bot, from the seat's view."""

import random
from typing import Any

from engine import bots
from engine.core.protocol import Game
from engine.core.types import Move


def bot_move(game: Game, state: Any, seat: int, rng: random.Random,
             level: str = "easy") -> Move:
    try:
        bot = bots.get(game.ID, level)
    except bots.NoBot:  # a game whose bot module has not landed yet
        return game.choose(state, seat, rng)  # type: ignore[attr-defined, no-any-return]
    return bot.choose(game.view(state, seat), rng)
