"""The pieces every game shares."""

from engine.core.errors import BadOptions, IllegalMove
from engine.core.protocol import Game
from engine.core.types import Event, Move, Outcome, event

__all__ = ["BadOptions", "Event", "Game", "IllegalMove", "Move", "Outcome", "event"]
