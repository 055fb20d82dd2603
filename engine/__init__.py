"""The rules: pure, synchronous, deterministic. No I/O, no clock, no platform names."""

from engine import games
from engine.core import BadOptions, Event, IllegalMove, Move, Outcome

__all__ = ["BadOptions", "Event", "IllegalMove", "Move", "Outcome", "games"]
