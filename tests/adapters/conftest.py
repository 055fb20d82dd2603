"""Fixtures of the Telegram adapter tests: the fake Bot API, a bot process, three players."""

import pytest

from tests.adapters.telegram_rig import Rig
from tests.fakes.telegram_api import FakeTelegram


@pytest.fixture
async def fake():
    """The fake Bot API; the Discord test modules define their own `fake`, which wins there."""
    # Telegram's flood rules at 20 times their speed, the bot's limiter scaled alike: these
    # tests play whole games, and at Telegram's pace (a group message every 3 s) each would
    # take minutes. tests/adapters/test_telegram_flood.py holds the real pace.
    async with FakeTelegram(pace=0.05) as fake:
        yield fake


@pytest.fixture
async def rig(fake, tmp_path):
    rig = Rig(fake, tmp_path / "tapis.db")
    await rig.start()
    yield rig
    await rig.stop()


@pytest.fixture
def players(fake):
    return fake.user(11, "Alice"), fake.user(12, "Bob"), fake.user(13, "Carol")
