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


def _pattern(template: str) -> re.Pattern[str] | None:
    parts: list[str] = []
    words = 0
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        words += len(re.findall(r"[A-Za-z]{3,}", literal))
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(r"[^\n]*?")
    if not words:
        return None
    body = "".join(parts)
    if re.match(r"\w", template):
        body = r"(?<![\w/=|<])" + body  # not a command, option or key=value word
    if re.search(r"\w$", template):
        body += r"(?!\w)"
    return re.compile(body)


@cache
def _patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    english, other = i18n.CATALOGUES["en"], i18n.CATALOGUES[lang]
    out = []
    for key, template in english.items():
        if key.startswith(_SKIP) or other.get(key) == template:
            continue
        pattern = _pattern(template)
        if pattern is not None:
            out.append((key, pattern))
    return out


def english_sentences(text: str, lang: str = "de") -> list[tuple[str, str]]:
    """(key, matched text) for every English sentence found in `text`."""
    found = []
    for key, pattern in _patterns(lang):
        match = pattern.search(text)
        if match:
            found.append((key, match.group(0)[:80]))
    return found
