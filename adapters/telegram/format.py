"""Channel keys, HTML text and inline keyboards: the Telegram shape of the core's renderings.

Everything a user typed (names, table titles) reaches Telegram HTML-escaped, because the
Bot API refuses a message whose `<`, `>` or `&` do not form valid markup ("All <, > and &
symbols that are not a part of a tag or an HTML entity must be replaced").
"""

from dataclasses import dataclass
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

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
    of each name becomes a mention link (so the user is notified), else a link is appended."""
    html = escape(fit_text(text, MAX_TEXT - 200))
    tail = []
    for user_id, name in mentions.items():
        escaped = escape(name)
        if name and escaped in html:
            html = html.replace(escaped, mention(user_id, name), 1)
        else:
            tail.append(mention(user_id, name or user_id))
    return " ".join([html, *tail])


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


def deep_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"
