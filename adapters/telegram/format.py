"""Channel keys, HTML text and inline keyboards: the Telegram shape of the core's renderings.

Everything a user typed (names, table titles) reaches Telegram HTML-escaped, because the
Bot API refuses a message whose `<`, `>` or `&` do not form valid markup ("All <, > and &
symbols that are not a part of a tag or an HTML entity must be replaced").
"""

from dataclasses import dataclass
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.render import Button, Rendering, encode_payload

MAX_TEXT = 4096  # Bot API: message text after entity parsing
MAX_ANSWER = 200  # Bot API: answerCallbackQuery text
ELLIPSIS = "…"


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


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def rendering_html(rendering: Rendering) -> str:
    """Bold title, then the lines; clipped before escaping so no entity is cut in half."""
    lines = [escape(line) for line in rendering.lines]
    text = "\n".join([f"<b>{escape(rendering.title)}</b>", *lines])
    if len(text) <= MAX_TEXT:
        return text
    # Escaping can only lengthen a line; clip the plain text with room for the markup.
    plain = clip("\n".join(rendering.lines), MAX_TEXT - len(rendering.title) - 200)
    return f"<b>{escape(clip(rendering.title, 100))}</b>\n{escape(plain)}"[:MAX_TEXT]


def mention(user_id: str, name: str) -> str:
    return f'<a href="tg://user?id={escape(user_id)}">{escape(name)}</a>'


def announcement_html(text: str, mentions: dict[str, str]) -> str:
    """`mentions` maps user id -> the name the core wrote into `text`; the first occurrence
    of each name becomes a mention link (so the user is notified), else a link is appended."""
    html = escape(clip(text, MAX_TEXT - 200))
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
