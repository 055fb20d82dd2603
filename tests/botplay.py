"""Moves for tests that need someone to play on: the easy bot, from the seat's view."""

import random
from typing import Any

from engine import bots
from engine.core.protocol import Game
from engine.core.types import Move


def bot_move(game: Game, state: Any, seat: int, rng: random.Random,
             level: str = "easy") -> Move:
    return bots.move_for(game, state, seat, rng, level)
