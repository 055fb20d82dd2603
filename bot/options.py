"""Reading `/newgame <game> key=value ...` as typed in chat, in English, French or German."""

import json
import re
from typing import Any

from bot import clean
from engine import bots, games
from engine.core.notation import fold
from engine.core.protocol import Game

# What people type for each game; ids themselves always work.
ALIASES = {
    "ochs": "ochs-esel", "esel": "ochs-esel", "ochsundesel": "ochs-esel", "ochs&esel": "ochs-esel",
    "oe": "ochs-esel", "ane": "ochs-esel", "boeuf": "ochs-esel",
    "thegame": "the-game", "game": "the-game", "tg": "the-game", "lejeu": "the-game",
    "nix": "nix-fur-ungut", "nixfurungut": "nix-fur-ungut", "nixfuerungut": "nix-fur-ungut",
    "mi": "michigan",
}
# Numbers stay numbers (`rounds=1`); pydantic turns 0/1 into booleans where a flag is meant.
_TRUE = {"yes", "true", "on", "oui", "vrai", "ja", "an", "ein", "wahr"}
_FALSE = {"no", "false", "off", "non", "faux", "nein", "aus", "falsch"}
_NONE = {"random", "hasard", "none", "aucun", "zufall", "zufallig", "keiner"}  # "at random"
# French and German option names that map to the engines' English ones.
_KEY_ALIASES = {"manches": "rounds", "boeuf": "ox", "jetons": "chips", "delai": "deadline",
                "botdelay": "bot_delay", "robots": "bots", "niveau": "bots",
                "runden": "rounds", "ochs": "ox", "ochse": "ox", "frist": "deadline",
                "zeitlimit": "deadline", "botpause": "bot_delay", "classe": "rated",
                "gewertet": "rated", "wertung": "rated"}


MAX_WORDS = 20  # every option of a game and both table settings, each written twice
MAX_KEY = 32


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


def split_game(game_text: str, option_words: list[str]) -> tuple[str, list[str]]:
    """`/newgame the game first=2` arrives as `the` and `game first=2` on every platform
    that splits a command at spaces: the game is the longest run of leading words that
    names one (`the game`, `Nix für Ungut`), the options are the rest."""
    words = [game_text, *option_words]
    leading = 0
    while leading < len(words) and "=" not in words[leading]:
        leading += 1
    for count in range(leading, 1, -1):
        if resolve_game(" ".join(words[:count])) is not None:
            return " ".join(words[:count]), words[count:]
    return game_text, option_words


def parse(words: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split `key=value` words into (game options, table settings)."""
    game_options: dict[str, Any] = {}
    table: dict[str, Any] = {}
    if len(words) > MAX_WORDS:
        raise OptionsError("too_many_options", max=MAX_WORDS)
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
        if not key.isidentifier() or len(key) > MAX_KEY:
            raise OptionsError("bad_option_word", word=clean.echo(word))
        value = _value(key, raw.strip())
        if key == "bots":
            table[key] = _bots_level(raw)
        elif key == "rated":
            if not isinstance(value, bool):
                raise OptionsError("bad_rated", value=clean.echo(raw))
            table[key] = value
        elif key in _LIMITS:
            table[key] = _table_value(key, value, raw)
        else:
            game_options[key] = value
    return game_options, table


def _value(key: str, raw: str) -> Any:
    folded = fold(raw)
    if folded in _TRUE:
        return True
    if folded in _FALSE:
        return False
    if folded in _NONE:
        return None
    try:
        number = clean.number(raw)
        if number is not None:
            return number
        if raw[:1] in "{[":
            try:
                return clean.json_value(raw)
            except json.JSONDecodeError:
                pass
    except clean.NumberTooLong:
        raise OptionsError("option_number_too_long", key=key, max=clean.MAX_DIGITS) from None
    except clean.JsonTooBig:
        raise OptionsError("option_value_too_long", key=key,
                           max=clean.MAX_JSON_CHARS) from None
    except clean.JsonTooDeep:
        raise OptionsError("option_value_too_deep", key=key,
                           max=clean.MAX_JSON_DEPTH) from None
    return raw


_DURATION = re.compile(r"(\d{1,6}(?:[.,]\d{1,6})?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?)?",
                       re.ASCII)
_LIMITS = {"deadline": (30.0, 86_400.0), "bot_delay": (0.0, 30.0)}
# Options of the table itself, whatever its game. `rated=no` keeps a friendly game out of
# the ratings (docs/ratings.md); a table is rated unless its host says so.
TABLE_SETTINGS = (*_LIMITS, "bots", "rated")
# How strong the table's bots play (its /addbot seats and AFK takeovers), as typed.
_LEVEL_WORDS = {"easy": "easy", "facile": "easy", "strong": "strong", "fort": "strong",
                "forts": "strong", "difficile": "strong", "leicht": "easy", "einfach": "easy",
                "stark": "strong", "schwer": "strong"}


def _bots_level(raw: str) -> str:
    level = _LEVEL_WORDS.get(fold(raw))
    if level is None or level not in bots.LEVELS:
        raise OptionsError("bad_bots_level", value=clean.echo(raw), levels=", ".join(bots.LEVELS))
    return level


def _table_value(key: str, value: Any, raw: str) -> float:
    """Seconds for `deadline` / `bot_delay`: `90`, `90s`, `2m`, `1.5`; `off` ends deadlines."""
    if key == "deadline" and value is False:
        return 0
    match = _DURATION.fullmatch(fold(raw))
    if match is None:
        raise OptionsError("bad_table_setting", key=key, value=clean.echo(raw))
    seconds = float(match.group(1).replace(",", "."))
    if (match.group(2) or "s").startswith("m"):
        seconds *= 60
    low, high = _LIMITS[key]
    if not (low <= seconds <= high or (key == "deadline" and seconds == 0)):
        # Said like a game option out of its range (“rounds” goes from 1 to 20).
        raise OptionsError(f"bad_{key}_range", low=int(low), high=int(high))
    return int(seconds) if seconds.is_integer() else seconds


def opened(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """The game options a table stores when it opens (or its lobby changes them): a game
    whose defaults may change (Nix für Ungut's board) writes them out, so a stored game
    always replays as it was played."""
    return game.CAPABILITIES.opened_options(options)


def stored(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """The game options a stored table plays with: what a table opened before a game wrote
    a default out stored nothing for means that game's default of the time."""
    return game.CAPABILITIES.stored_options(options)
