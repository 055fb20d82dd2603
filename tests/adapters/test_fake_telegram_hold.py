"""The fake's `hold`: a request in flight when the bot's process dies, answered never and
carried out never, as the crash tests need it (tests/reliability/test_crash_screens.py)."""

import asyncio

import pytest
from telegram.error import NetworkError

from tests.fakes.telegram_api import FakeTelegram

pytestmark = pytest.mark.timeout(20)

GROUP = -1001234567890


async def test_a_held_send_changes_nothing_and_fails_once_dropped():
    async with FakeTelegram() as fake:
        fake.add_chat(GROUP, "supergroup", title="Cards")
        app = fake.application_builder().build()
        async with app:
            fake.hold("sendMessage")
            sending = asyncio.ensure_future(app.bot.send_message(GROUP, "lost"))
            await fake.wait_for(lambda: fake.held_calls)
            assert not sending.done() and fake.find(GROUP) == []
            fake.drop_held()
            with pytest.raises(NetworkError):
                await sending
            assert fake.find(GROUP) == []  # never carried out
            await app.bot.send_message(GROUP, "kept")  # later calls are served again
            assert [m.text for m in fake.find(GROUP)] == ["kept"]
