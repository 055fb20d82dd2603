"""The registry of games by id: the only place that lists them."""

from importlib import import_module
from typing import cast

from engine.core.protocol import Game

_MODULES: dict[str, str] = {
    "ochs-esel": "engine.ochs_esel",
    "the-game": "engine.the_game",
    "nix-fur-ungut": "engine.nix_fur_ungut",
    "michigan": "engine.michigan",
}


def ids() -> list[str]:
    return list(_MODULES)


def get(game_id: str) -> Game:
    try:
        module = _MODULES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(_MODULES)}") from None
    return cast(Game, import_module(module))
