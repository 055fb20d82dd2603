"""Fixtures of the Telegram adapter tests: the fake Bot API, a bot process, three players."""

import pytest

from tests.adapters.telegram_rig import Rig
from tests.fakes.telegram_api import FakeTelegram


@pytest.fixture
async def fake():
    """The fake Bot API; the Discord test modules define their own `fake`, which wins there."""
    async with FakeTelegram() as fake:
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
