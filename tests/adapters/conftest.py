"""Fixtures of the adapter tests: the fake platform server, one bot process, players.

`fake` is the fake Discord in the `test_discord*` modules and the fake Telegram elsewhere.
A Discord module adds its own users to the guild by naming them in `GUILD_MEMBERS`
(name -> locale); without it, erin and frank join the default world. `h` is one Discord
bot process on a real SQLite file; `rig` and `players` are Telegram's.

Both fakes keep their platform's rules but run their rate windows 20 times faster: these
tests play whole games, and at the platforms' own pace (a Telegram group takes a message
every 3 s) each would take minutes. tests/adapters/test_telegram_flood.py and
test_discord_pacing.py hold the real pace, with the limiters `python -m bot` builds.
"""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.adapters.telegram_rig import Rig
from tests.adapters.test_discord import Harness
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram

PACE = 0.05
GUILD_MEMBERS: dict[str, str] = {"erin": "en-US", "frank": "en-US"}


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram | FakeDiscord]:
    if not request.module.__name__.rpartition(".")[2].startswith("test_discord"):
        async with FakeTelegram(pace=PACE) as telegram:
            yield telegram
        return
    async with FakeDiscord(pace=PACE) as server:
        for name, locale in getattr(request.module, "GUILD_MEMBERS", GUILD_MEMBERS).items():
            server.guild.members[server.add_user(name, locale=locale).id] = []
        yield server
    assert server.unhandled == [], "the bot called routes the fake does not know"
    assert server.server_errors == []


@pytest.fixture
async def h(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    harness = Harness(fake, tmp_path / "tapis.db")
    await harness.open()
    yield harness
    await harness.close()


@pytest.fixture
async def rig(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[Rig]:
    rig = Rig(fake, tmp_path / "tapis.db")
    await rig.start()
    yield rig
    await rig.stop()


@pytest.fixture
def players(fake: FakeTelegram):
    return fake.user(11, "Alice"), fake.user(12, "Bob"), fake.user(13, "Carol")
