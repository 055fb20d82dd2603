"""Channel keys, HTML text and inline keyboards: the Telegram shape of the core's renderings.

Everything a user typed (names, table titles) reaches Telegram HTML-escaped, because the
Bot API refuses a message whose `<`, `>` or `&` do not form valid markup ("All <, > and &
symbols that are not a part of a tag or an HTML entity must be replaced").
"""

from dataclasses import dataclass
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.clean import MAX_NAME
from bot.render import Button, Rendering, clip, encode_payload, fit

MAX_TEXT = 4096  # Bot API: message text after entity parsing
MAX_ANSWER = 200  # Bot API: answerCallbackQuery text


@dataclass(frozen=True, slots=True)
class Place:
    """Where a table lives: a group, or one topic of a forum group (a table per topic)."""

    chat_id: int
    thread_id: int | None = None

    @property
    def key(self) -> str:
        return str(self.chat_id) if self.thread_id is None else f"{self.chat_id}:{self.thread_id}"

    @classmethod
    def parse(cls, key: str) -> "Place":
        chat, _, thread = key.partition(":")
        return cls(int(chat), int(thread) if thread else None)


def parsed_length(text: str) -> int:
    """Telegram's count of a message: the text left after entity parsing, in UTF-16 code
    units (an emoji outside the BMP is two), so `&#x27;` is one and "🃏" two."""
    return len(text.encode("utf-16-le")) // 2


def fit_text(text: str, limit: int = MAX_TEXT) -> str:
    """Plain text cut to what Telegram accepts, as Telegram counts it."""
    while parsed_length(text) > limit:
        text = clip(text, len(text) - max(1, (parsed_length(text) - limit) // 2))
    return text


def rendering_html(rendering: Rendering) -> str:
    """Bold title, then the lines, fitted to what Telegram counts before being escaped."""
    fitted = fit(rendering, lambda r: parsed_length(r.text), MAX_TEXT)
    lines = [escape(line) for line in fitted.lines]
    return "\n".join([f"<b>{escape(fitted.title)}</b>", *lines])


def mention(user_id: str, name: str) -> str:
    return f'<a href="tg://user?id={escape(user_id)}">{escape(name)}</a>'


def announcement_html(text: str, mentions: dict[str, str]) -> str:
    """`mentions` maps user id -> the name the core wrote into `text`; the first occurrence
    of each name becomes a mention link (so the user is notified), else a link is appended.

    What Telegram counts is the text the user reads, appended names included: the text is
    cut until the whole fits, and every link is kept, since it is what calls its player.
    Names are looked for in the text itself, never in the markup made of it (a player
    called "amp" or "id" would land inside `&amp;` or a link's address)."""
    # Appended names share at most half the message; a mention notifies whatever it shows.
    longest = max(1, min(MAX_NAME, MAX_TEXT // 2 // max(1, len(mentions)) - 1))
    budget = MAX_TEXT
    while True:
        plain = fit_text(text, budget)
        found = _name_spans(plain, mentions)
        tail = [(user_id, clip(name or user_id, longest)) for user_id, name in mentions.items()
                if user_id not in found]
        size = parsed_length(plain) + sum(1 + parsed_length(name) for _, name in tail)
        if size <= MAX_TEXT or budget <= 1:
            break
        budget -= size - MAX_TEXT
    parts, at = [], 0
    for start, (end, user_id) in sorted((start, (end, user_id))
                                        for user_id, (start, end) in found.items()):
        parts += [escape(plain[at:start]), mention(user_id, plain[start:end])]
        at = end
    parts.append(escape(plain[at:]))
    return " ".join(["".join(parts), *(mention(user_id, name) for user_id, name in tail)])


def _name_spans(plain: str, mentions: dict[str, str]) -> dict[str, tuple[int, int]]:
    """user id -> where the first occurrence of their name not already taken by an earlier
    one is in `plain`."""
    spans: dict[str, tuple[int, int]] = {}
    for user_id, name in mentions.items():
        at = plain.find(name) if name else -1
        while at >= 0:
            end = at + len(name)
            if all(end <= start or at >= stop for start, stop in spans.values()):
                spans[user_id] = (at, end)
                break
            at = plain.find(name, at + 1)
    return spans


def keyboard(ref: str, version: int, buttons: list[list[Button]]
             ) -> InlineKeyboardMarkup | None:
    """callback_data is the core's payload: the table's reference + the version the buttons
    were drawn for, so `Tables.press` can refuse a stale or forged press."""
    rows = [
        [InlineKeyboardButton(clip(b.label, 64),
                              callback_data=encode_payload(ref, version, b.action))
         for b in row]
        for row in buttons
        if row
    ]
    return InlineKeyboardMarkup(rows) if rows else None


def with_link(markup: InlineKeyboardMarkup | None, button: InlineKeyboardButton
              ) -> InlineKeyboardMarkup:
    """The keyboard with one more row: a link to the table's web page."""
    rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    return InlineKeyboardMarkup([*rows, [button]])


def deep_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"
