"""Announcements with mention links, sent by the real python-telegram-bot to the fake Bot
API, which counts 4,096 characters after entity parsing as Telegram does: the message
always fits, every mentioned player keeps their link (it is what notifies them), and the
text reads as the core wrote it."""

import pytest
from telegram.constants import ParseMode

from adapters.telegram.format import MAX_TEXT, announcement_html, parsed_length
from tests.fakes.telegram_api import FakeTelegram

pytestmark = pytest.mark.timeout(20)

GROUP = -1001234567890


async def send(html: str) -> str:
    """What the group reads of `html`, once Telegram took it."""
    async with FakeTelegram(strict=False) as fake:
        fake.add_chat(GROUP)
        async with fake.application_builder().build() as app:
            await app.bot.send_message(GROUP, html, parse_mode=ParseMode.HTML)
        (message,) = fake.chat(GROUP).bot_messages
        return message.text


def links(html: str) -> list[str]:
    return [part.split('"', 1)[0] for part in html.split('<a href="tg://user?id=')[1:]]


async def test_many_long_names_appended_to_a_long_text_still_fit():
    names = {str(100 + i): f"{i:02d}" + "W" * 62 for i in range(12)}  # 64 characters each
    html = announcement_html("It's your turn. " * 300, names)  # 4,800 characters
    seen = await send(html)
    assert parsed_length(seen) <= MAX_TEXT
    assert links(html) == list(names)
    assert seen.startswith("It's your turn. It's")


async def test_names_found_in_a_text_cut_to_fit_are_still_linked():
    names = {str(100 + i): f"Player{i:02d}" + "é" * 56 for i in range(10)}
    text = "A" * 4000 + " " + ", ".join(names.values()) + ": your turn."
    html = announcement_html(text, names)
    seen = await send(html)
    assert parsed_length(seen) <= MAX_TEXT
    assert links(html) == list(names)


@pytest.mark.parametrize(("text", "names"), [
    ("Ochs & Esel: amp, your turn.", {"5": "amp"}),
    ("Bo, then id: it's your turn.", {"5": "Bo", "6": "id"}),
    ("\"Quoted\" it's x27's turn, then quot's.", {"5": "quot", "6": "x27"}),
])
async def test_a_name_is_linked_where_it_is_written_never_inside_the_markup(text, names):
    html = announcement_html(text, names)
    assert await send(html) == text
    assert sorted(links(html)) == sorted(names)  # in the order they are written
