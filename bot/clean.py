"""What people type, made safe to store, to compute with and to say back.

Every name, number and option value comes from a chat and may be hostile: a lone UTF-16
surrogate (which no database encodes), control or bidi characters that garble the
table message, a digit `int()` cannot read (`²`, `①`), thousands of digits, or JSON
nested deep enough to exhaust Python's recursion. These helpers turn such text into
valid printable text, or into a refusal the caller words, before anything else sees it.
"""

import json
import re
import unicodedata
from typing import Any

MAX_NAME = 64  # Telegram's own limit on a first + last name is 64 + 64; one is plenty
MAX_ECHO = 60  # user text quoted back in a sentence ("I can't read “…” as a move")
MAX_DIGITS = 30  # past 10**30 no count, seat or option of any game means anything
MAX_JSON_CHARS = 2000  # a whole Nix board, spelt out with spaces, is under 300
MAX_JSON_DEPTH = 4  # the deepest option (a Nix board) is an object of lists: depth 2

# Kept from the "format" category: the joiners inside emoji sequences (👨‍👩‍👧) and the
# variation selector that asks for the emoji form of a symbol.
_KEEP_FORMAT = {"\u200c", "\u200d", "\ufe0f"}


class NumberTooLong(ValueError):
    """More digits than `MAX_DIGITS`."""


class JsonTooBig(ValueError):
    """Longer than `MAX_JSON_CHARS`."""


class JsonTooDeep(ValueError):
    """Nested deeper than `MAX_JSON_DEPTH`."""


def text(raw: str, limit: int) -> str:
    """`raw` as valid printable text of at most `limit` characters: lone surrogates,
    control, format (bidi overrides, invisible marks) and private or unassigned code
    points removed, runs of white space made one space, a clipped end marked with …"""
    kept = []
    for char in unicodedata.normalize("NFC", _valid(raw)):
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zl", "Zp"):
            kept.append(" ")
        elif category[0] != "C" or char in _KEEP_FORMAT:
            kept.append(char)
    cleaned = re.sub(r" {2,}", " ", "".join(kept)).strip()
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 1].rstrip() + "…"


def name(raw: str, fallback: str = "?") -> str:
    """A person's display name as the table shows and stores it."""
    return text(raw, MAX_NAME) or fallback


def echo(raw: str) -> str:
    """User text quoted back in a refusal: short, printable, one line."""
    return text(raw, MAX_ECHO)


def number(word: str, max_digits: int = MAX_DIGITS) -> int | None:
    """A whole number written in ASCII digits (an optional sign), else None.

    `str.isdigit` accepts `²` and `①`, which `int` then refuses; `isdecimal` plus
    `isascii` is exactly what `int` reads. Raises NumberTooLong past `max_digits`.
    """
    digits = word.strip()
    if digits[:1] in "+-":
        digits = digits[1:]
    if not (digits.isascii() and digits.isdecimal()):
        return None
    if len(digits) > max_digits:
        raise NumberTooLong(word)
    return int(word.strip())


def json_value(raw: str) -> Any:
    """Parse a JSON option value, within bounds checked before the parser runs.

    Raises JsonTooBig, JsonTooDeep, NumberTooLong, or json.JSONDecodeError.
    """
    if len(raw) > MAX_JSON_CHARS:
        raise JsonTooBig(raw)
    if _depth(raw) > MAX_JSON_DEPTH:
        raise JsonTooDeep(raw)
    return json.loads(raw, parse_int=_json_int, parse_constant=_no_constant)


def _json_int(digits: str) -> int:
    value = number(digits)
    if value is None:  # the parser only hands over what its own grammar calls digits
        raise json.JSONDecodeError("not a number", digits, 0)
    return value


def _no_constant(word: str) -> Any:
    raise json.JSONDecodeError(f"{word} is not a value an option takes", word, 0)


def _depth(raw: str) -> int:
    """How deep `[` and `{` nest, outside strings; a malformed text is the parser's."""
    depth = deepest = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _valid(raw: str) -> str:
    """Without lone surrogates (from a platform's UTF-16 or a forged payload)."""
    return raw.encode("utf-8", "replace").decode("utf-8") if _has_surrogate(raw) else raw


def _has_surrogate(raw: str) -> bool:
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
