"""Bot players that see what a player sees: `get(game_id, level).choose(view, rng)`.

A bot receives `game.view(state, seat)` (its own hand, the public table and the public
history) and nothing else, so it cannot peek at another hand or the draw pile: the view
is the engine's one door to hidden cards, and bots go through it like people do.

One module per game, `engine/bots/<engine module>.py`, each with the classes `Easy` (the
baseline: quick, plausible, beatable) and `Strong` (the default: planning, card
counting, search). Modules are imported by name when first asked for, so a game's bots
load only where that game is played.
"""

import random
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any, Protocol, runtime_checkable

from engine.core.protocol import Game
from engine.core.types import Move

LEVELS = ("easy", "strong")
DEFAULT_LEVEL = "strong"

_CLASSES = {"easy": "Easy", "strong": "Strong"}


Speak = Callable[[dict[str, Any], random.Random], Move | None]


@runtime_checkable
class Bot(Protocol):
    # Each bot declares whether it speaks out of turn: its `speak` (see `Talker`), or None
    # for a bot that only plays in its turn, whose seats the service never asks.
    @property
    def speak(self) -> Speak | None: ...

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        """A legal move for the seat whose view this is, which must be one to act."""
        ...


@runtime_checkable
class Talker(Protocol):
    """A bot that may also speak out of turn (The Game's signals: "at any time")."""

    def speak(self, view: dict[str, Any], rng: random.Random) -> Move | None:
        """A signal to give or withdraw now, from any seat, or None when all is said."""
        ...


class NoBot(LookupError):
    """This game has no bot module (yet): the caller decides what to do instead."""


def get(game_id: str, level: str = DEFAULT_LEVEL) -> Bot:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    name = f"engine.bots.{game_id.replace('-', '_')}"
    try:
        # Asked twice a bot move: the module table first, import machinery only once.
        module = sys.modules.get(name) or import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise  # the module exists but something it imports is missing: a real bug
        raise NoBot(game_id) from None
    bot: Bot = getattr(module, _CLASSES[level])()
    return bot


def move_for(game: Game, state: Any, seat: int, rng: random.Random,
             level: str = DEFAULT_LEVEL) -> Move:
    """The move `level`'s bot makes for `seat`, shown only that seat's view.

    For simulations, benchmarks and tests, which hold the state: the bot still sees no
    more than the seat would.
    """
    return get(game.ID, level).choose(game.view(state, seat), rng)
