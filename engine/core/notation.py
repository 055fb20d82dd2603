"""Splitting chat text into tokens the games understand, in English or French."""

import re
import unicodedata
from collections.abc import Callable

_SPLIT = re.compile(r"[\s,;+]+")


def fold(text: str) -> str:
    """Lower-case and strip accents, so `Bœuf`, `boeuf` and `BOEUF` read alike."""
    text = text.replace("œ", "oe").replace("Œ", "oe").replace("æ", "ae")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower().strip()


def tokens(text: str) -> list[str]:
    """Folded words of a move text; a leading `/` (a pasted command) is dropped."""
    words = [w for w in _SPLIT.split(fold(text)) if w]
    if words and words[0].startswith("/"):
        words[0] = words[0][1:]
        if not words[0]:
            words.pop(0)
    return words


def strip_verb(words: list[str], verbs: set[str]) -> list[str]:
    return words[1:] if words and words[0] in verbs else words


def numbers_first(order: dict[str, int]) -> Callable[[str], tuple[int, int, str]]:
    """The sort key of the contract's hand order: numbers numerically, then the named cards
    in `order`. Each card's key is worked out once: a game that sorts hands in every view
    and every bot's world keeps one (a sort was 3% of a bot move's CPU)."""
    # A dict's own lookup as the key: `sorted` calls it without a Python frame per card.
    return _CardKeys(order).__getitem__


class _CardKeys(dict[str, tuple[int, int, str]]):
    def __init__(self, order: dict[str, int]) -> None:
        super().__init__()
        self.order = order

    def __missing__(self, card: str) -> tuple[int, int, str]:
        found = self[card] = ((0, int(card), "") if card.isdigit()
                              else (1, self.order.get(card, 99), card))
        return found


def read_number(word: str, cap: int) -> int | None:
    """A number typed in chat, or None; numbers above `cap` read as `cap`.

    Only ASCII digits: `int` raises on some Unicode digits that `str.isdigit` accepts,
    and on numbers of over 4,300 digits, which a chat message can hold.
    """
    if not (word.isascii() and word.isdigit()):
        return None
    digits = word.lstrip("0") or "0"
    return cap if len(digits) > len(str(cap)) else min(int(digits), cap)
