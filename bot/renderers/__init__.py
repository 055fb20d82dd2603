"""Per-game presentation, found by name: `bot/renderers/<engine module>.py`.

A game needs no renderer to be playable: whatever its module does not define falls back
to `generic`, which works from the contract's view keys alone. So a new engine game
plugs in without changes to `bot/`, and a renderer can be added later for polish.
"""

from importlib import import_module
from types import ModuleType
from typing import Any

from bot.renderers import generic

_cache: dict[str, "Renderer"] = {}


class Renderer:
    def __init__(self, specific: ModuleType | None) -> None:
        self._specific = specific

    def describe_events(self, game_id: str, events: list[dict[str, Any]], names: list[str],
                        lang: str) -> list[str]:
        """One move's events as lines: each in the game's own words (`describe`), unless
        the game folds several events into one line (Michigan's runs) itself. Here, not in
        `generic`, because only the renderer knows the game's own `describe`."""
        own = getattr(self._specific, "describe_events", None)
        if own is not None:
            return list(own(game_id, events, names, lang))
        describe_one = self.describe
        return [line for ev in events if (line := describe_one(game_id, ev, names, lang))]

    def __getattr__(self, name: str) -> Any:
        # Found once, then kept on the instance (where Python looks before calling this):
        # a table's every drawing asks for a few of them.
        if self._specific is not None and hasattr(self._specific, name):
            found = getattr(self._specific, name)
        else:
            found = getattr(generic, name)
        setattr(self, name, found)
        return found


def for_game(game_id: str) -> Renderer:
    if game_id not in _cache:
        try:
            module: ModuleType | None = import_module(f"bot.renderers.{game_id.replace('-', '_')}")
        except ModuleNotFoundError:
            module = None
        _cache[game_id] = Renderer(module)
    return _cache[game_id]
