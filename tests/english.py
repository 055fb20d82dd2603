"""Finding English sentences in what a player of another language reads.

Every English sentence of the catalogue becomes a pattern (its literal words, anything
for its blanks); a German player's text must match none of those whose German sentence
differs. Slash-command labels are left out: they are Discord's menu, not chat text.
"""

import re
import string
from functools import cache

from bot import i18n

_SKIP = ("discord.cmd.", "discord.choice.", "game.")
_BLANK = r"[^\n]*?"


def _pattern(template: str) -> tuple[str, re.Pattern[str]] | None:
    """The pattern, and its longest literal piece: a text without that piece cannot
    match, and a plain `in` rules it out far faster than the regex would."""
    parts: list[str] = []
    literals: list[str] = []
    words = 0
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        words += len(re.findall(r"[A-Za-z]{3,}", literal))
        parts.append(re.escape(literal))
        literals.append(literal)
        if name is not None:
            parts.append(_BLANK)
    if not words:
        return None
    # A blank at either end matches the empty string, so it never decides whether the
    # sentence is there; left in, it makes every search scan each line once per start.
    while parts and parts[0] in ("", _BLANK):
        parts.pop(0)
    while parts and parts[-1] in ("", _BLANK):
        parts.pop()
    body = "".join(parts)
    if re.match(r"\w", template):
        body = r"(?<![\w/=|<])" + body  # not a command, option or key=value word
    if re.search(r"\w$", template):
        body += r"(?!\w)"
    return max(literals, key=len), re.compile(body)


@cache
def _patterns(lang: str) -> list[tuple[str, str, re.Pattern[str]]]:
    english, other = i18n.CATALOGUES["en"], i18n.CATALOGUES[lang]
    out = []
    for key, template in english.items():
        if key.startswith(_SKIP) or other.get(key) == template:
            continue
        found = _pattern(template)
        if found is not None:
            out.append((key, *found))
    return out


def english_sentences(text: str, lang: str = "de") -> list[tuple[str, str]]:
    """(key, matched text) for every English sentence found in `text`."""
    found = []
    for key, piece, pattern in _patterns(lang):
        if piece not in text:
            continue
        match = pattern.search(text)
        if match:
            found.append((key, match.group(0)[:80]))
    return found
