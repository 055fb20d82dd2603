"""Reading `/newgame <game> key=value ...` as typed in chat, in English or French."""

import json
from typing import Any

from engine import games
from engine.core.notation import fold

# What people type for each game; ids themselves always work.
ALIASES = {
    "ochs": "ochs-esel", "esel": "ochs-esel", "ochsundesel": "ochs-esel", "ochs&esel": "ochs-esel",
    "oe": "ochs-esel", "ane": "ochs-esel", "boeuf": "ochs-esel",
    "thegame": "the-game", "game": "the-game", "tg": "the-game", "lejeu": "the-game",
    "nix": "nix-fur-ungut", "nixfurungut": "nix-fur-ungut", "nixfuerungut": "nix-fur-ungut",
    "mi": "michigan",
}
TABLE_KEYS = {"deadline", "delai", "bot_delay", "botdelay"}  # the table's, not the game's
# Numbers stay numbers (`rounds=1`); pydantic turns 0/1 into booleans where a flag is meant.
_TRUE = {"yes", "true", "on", "oui", "vrai"}
_FALSE = {"no", "false", "off", "non", "faux"}
# French option names that map to the engines' English ones.
_KEY_ALIASES = {"manches": "rounds", "boeuf": "ox", "jetons": "chips", "delai": "deadline",
                "botdelay": "bot_delay"}


class OptionsError(ValueError):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def resolve_game(text: str) -> str | None:
    word = fold(text).replace(" ", "").replace("_", "-")
    if word in games.ids():
        return word
    return ALIASES.get(word.replace("-", ""))


def parse(words: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split `key=value` words into (game options, table settings)."""
    game_options: dict[str, Any] = {}
    table: dict[str, Any] = {}
    for word in words:
        if "=" not in word:
            flag = fold(word)
            if not flag:
                continue
            key, raw = flag, "yes"  # a bare word switches an option on: `/newgame ochs ox`
        else:
            key, raw = word.split("=", 1)
            key = fold(key)
        key = _KEY_ALIASES.get(key, key).replace("-", "_")
        if not key.isidentifier():
            raise OptionsError("bad_option_word", word=word)
        value = _value(raw.strip())
        if key in TABLE_KEYS or key in {"deadline", "bot_delay"}:
            table[key] = _table_value(key, value, raw)
        else:
            game_options[key] = value
    return game_options, table


def _value(raw: str) -> Any:
    folded = fold(raw)
    if folded in _TRUE:
        return True
    if folded in _FALSE:
        return False
    try:
        return int(raw)
    except ValueError:
        pass
    if raw[:1] in "{[":
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            pass
    return raw


def _table_value(key: str, value: Any, raw: str) -> float:
    if key == "deadline" and value is False:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | float):
        minutes = fold(raw).rstrip("m").rstrip("min")
        if minutes.isdigit() and fold(raw).endswith(("m", "min")) and key == "deadline":
            return int(minutes) * 60
        raise OptionsError("bad_table_setting", key=key, value=raw)
    if key == "deadline" and not (value == 0 or 30 <= value <= 86_400):
        raise OptionsError("bad_table_setting", key=key, value=raw)
    if key == "bot_delay" and not 0 <= value <= 30:
        raise OptionsError("bad_table_setting", key=key, value=raw)
    return value
