"""Platform-neutral renderings: text blocks and buttons that adapters translate."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace

PAYLOAD_LIMIT = 64  # Telegram's callback_data limit, the tighter of the two platforms


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    action: str  # "join", "start", "move:<notation>", ... (see bot.tables for the list)
    style: str = "secondary"  # primary, secondary, success, danger


@dataclass(slots=True)
class Rendering:
    title: str
    lines: list[str]
    buttons: list[list[Button]] = field(default_factory=list)
    version: int = 0  # the table version the buttons were drawn for
    ref: str = ""  # the table's unguessable reference, which the buttons' payloads carry
    # `lines[start:stop]` is narration of older moves, oldest first: what goes first when the
    # platform's length limit is reached. The newest move, the seats and whose turn it is
    # lie outside it and are never dropped.
    narration: tuple[int, int] = (0, 0)
    names: tuple[str, ...] = ()  # players' names in `lines`, shortened next if still too long

    @property
    def text(self) -> str:
        return "\n".join([self.title, *self.lines]) if self.lines else self.title


ELLIPSIS = "…"
NAME_LENGTHS = (32, 20, 14, 10, 6, 3)  # shortening steps, gentlest first


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS


def fit(rendering: Rendering, size: Callable[[Rendering], int], limit: int) -> Rendering:
    """The rendering as it fits in `limit`, measured by `size` as the platform counts.

    Platforms cut a long message at its end, where the newest move is written; instead, the
    oldest narration goes first, then long names are shortened everywhere they appear.
    Only a rendering that still does not fit (a hostile title, say) is cut at the end.
    """
    if size(rendering) <= limit:
        return rendering
    start, stop = rendering.narration
    lines = list(rendering.lines)
    dropped = 0
    while dropped < stop - start:
        dropped += 1
        candidate = replace(rendering, lines=lines[:start] + lines[start + dropped:],
                            narration=(start, start))
        if size(candidate) <= limit:
            return candidate
    lines = lines[:start] + lines[stop:]
    names = sorted({n for n in rendering.names if n}, key=len, reverse=True)
    for length in NAME_LENGTHS:
        short = lines
        for name in names:
            if len(name) > length:
                short = [line.replace(name, clip(name, length)) for line in short]
        candidate = replace(rendering, lines=short, narration=(start, start))
        if size(candidate) <= limit:
            return candidate
        lines = short
        names = [clip(n, length) for n in names]
    candidate = replace(rendering, title=clip(rendering.title, 100), lines=lines,
                        narration=(start, start))
    text = "\n".join(lines)
    while size(candidate) > limit and len(text) > 1:
        text = clip(text, max(1, len(text) - (size(candidate) - limit)))
        candidate = replace(candidate, lines=text.split("\n"))
    return candidate


# A table reference is "<table id>_<tag>": the tag, an HMAC of the id under a secret the
# bot keeps in its database (`Tables.ref`), makes references unguessable, so a payload or
# a deep link can only name a table its sender was shown. Base64url: Telegram deep links
# allow only [A-Za-z0-9_-].
TAG_LENGTH = 10  # 60 bits
MAX_NUMBER_DIGITS = 18  # under 10**18: inside SQLite's 64-bit integers, far above any real id
LINK_LIMIT = 64  # a Telegram deep-link payload
_TAG_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@dataclass(frozen=True, slots=True)
class Payload:
    """What a button payload says. Only `Tables` can tell whether `tag` is genuine."""

    table_id: int
    version: int
    action: str
    tag: str


def number(text: str) -> int | None:
    """A count or id typed or sent by anyone: ASCII digits only ("²".isdigit() is true and
    int("²") raises), and short enough to be a real one."""
    if not text or len(text) > MAX_NUMBER_DIGITS or not (text.isascii() and text.isdecimal()):
        return None
    return int(text)


def encode_ref(table_id: int, tag: str) -> str:
    return f"{table_id}_{tag}"


def decode_ref(text: str) -> tuple[int, str] | None:
    """(table id, tag) of a reference, or None for anything we could not have written."""
    if not isinstance(text, str) or len(text) > LINK_LIMIT:
        return None
    table_text, sep, tag = text.partition("_")
    table_id = number(table_text)
    if not sep or table_id is None or len(tag) != TAG_LENGTH or not set(tag) <= _TAG_ALPHABET:
        return None
    return table_id, tag


def encode_payload(ref: str, version: int, action: str) -> str:
    """`<table ref>.<version>.<action>`: a press names the exact table state it was drawn
    for, by a reference nobody can guess."""
    payload = f"{ref}.{version}.{action}"
    if len(payload.encode()) > PAYLOAD_LIMIT:
        raise ValueError(f"button payload over {PAYLOAD_LIMIT} bytes: {payload!r}")
    return payload


def decode_payload(payload: str) -> Payload | None:
    """None for anything that is not a payload we could have drawn (forged, truncated...)."""
    if not isinstance(payload, str) or len(payload) > PAYLOAD_LIMIT \
            or len(payload.encode(errors="replace")) > PAYLOAD_LIMIT:
        return None
    parts = payload.split(".", 2)
    if len(parts) != 3 or not parts[2] or not parts[2].isprintable():
        return None
    ref, version = decode_ref(parts[0]), number(parts[1])
    if ref is None or version is None:
        return None
    return Payload(ref[0], version, parts[2], ref[1])


def rows(buttons: list[Button], per_row: int = 5, max_rows: int = 5) -> list[list[Button]]:
    """Discord allows 5 rows of 5; Telegram more, but a phone screen does not."""
    out = [buttons[i:i + per_row] for i in range(0, len(buttons), per_row)]
    return out[:max_rows]
