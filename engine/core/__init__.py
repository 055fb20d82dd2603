"""The pieces every game shares."""

from engine.core.capabilities import Capabilities
from engine.core.errors import BadOptions, IllegalMove
from engine.core.protocol import Game
from engine.core.types import Event, Move, Outcome, event
from engine.core.visible import Recipient, fit_for

__all__ = ["BadOptions", "Capabilities", "Event", "Game", "IllegalMove", "Move", "Outcome",
           "Recipient", "event", "fit_for"]
