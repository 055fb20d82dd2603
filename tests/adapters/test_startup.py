"""Starting the bot as an operator would: `python -m bot` with settings that cannot work.

Each mistake gets one clear line and exit status 2, never a traceback; the settings
written as .env.example documents them work as written.
"""

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from adapters.telegram.app import TelegramBot
from bot.settings import Settings
from db.sqlite import SqliteRepository
from tests.adapters.test_discord import Harness
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456:TEST-TOKEN"  # well formed; the fakes know another one

pytestmark = pytest.mark.timeout(90)


def closed_port() -> int:
    """A local port nobody listens on: connecting to it is refused, as with no network."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def run_bot(tmp_path: Path, **env: str) -> tuple[int, str]:
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith(("DISCORD_", "TELEGRAM_"))}
    environ.update(DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}", PYTHONPATH=str(ROOT),
                   NO_PROXY="127.0.0.1,localhost", **env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=environ,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        _out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    finally:
        if proc.returncode is None:
            proc.kill()
    assert proc.returncode is not None
    return proc.returncode, err.decode()


def one_clear_line(status: int, err: str, *words: str) -> None:
    assert status == 2, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("tapis:")]
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], lines[0]


# --- Telegram ---------------------------------------------------------------------------------

async def test_a_telegram_token_the_server_rejects_is_said_in_one_line(tmp_path):
    async with FakeTelegram(token="999:OTHER") as fake:
        status, err = await run_bot(tmp_path, TELEGRAM_TOKEN=TOKEN, TELEGRAM_API_URL=fake.url)
    one_clear_line(status, err, "TELEGRAM_TOKEN was rejected by Telegram")


async def test_a_malformed_telegram_token_is_refused_before_any_request(tmp_path):
    status, err = await run_bot(tmp_path, TELEGRAM_TOKEN="my bot token")
    one_clear_line(status, err, "TELEGRAM_TOKEN")


async def test_no_network_to_telegram_is_said_in_one_line(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/bot"
    status, err = await run_bot(tmp_path, TELEGRAM_TOKEN=TOKEN, TELEGRAM_API_URL=url)
    one_clear_line(status, err, "cannot reach Telegram", "127.0.0.1")


async def test_a_telegram_server_name_that_does_not_resolve_is_said_in_one_line(tmp_path):
    status, err = await run_bot(tmp_path, TELEGRAM_TOKEN=TOKEN,
                                TELEGRAM_API_URL="http://tapis-no-such-host.invalid/bot")
    one_clear_line(status, err, "does not resolve", "tapis-no-such-host.invalid")


@pytest.mark.parametrize("secret", ["c2VjcmV0+/w==", "a" * 257, "with space"])
async def test_a_webhook_secret_telegram_would_refuse_is_refused_at_start(tmp_path, secret):
    status, err = await run_bot(tmp_path, TELEGRAM_TOKEN=TOKEN, TELEGRAM_WEBHOOK_SECRET=secret,
                                TELEGRAM_WEBHOOK_URL="https://example.org/hook")
    one_clear_line(status, err, "TELEGRAM_WEBHOOK_SECRET", "A-Z a-z 0-9 _ -")


def test_a_webhook_secret_of_the_allowed_characters_is_accepted():
    secret = "Ab9_-" * 51 + "z"  # 256 characters
    settings = Settings(_env_file=None, telegram_webhook_secret=secret)  # type: ignore[call-arg]
    assert settings.telegram_webhook_secret == secret
    empty = Settings(_env_file=None, telegram_webhook_secret="")  # type: ignore[call-arg]
    assert empty.telegram_webhook_secret is None  # the .env.example line left empty


@pytest.mark.parametrize("form", ["{url}/bot", "{url}/bot/", "{url}"])
async def test_telegram_api_url_works_as_env_example_documents_it(tmp_path, form):
    """.env.example: `TELEGRAM_API_URL=http://host:port/bot`; the bare address works too."""
    async with FakeTelegram() as fake:
        settings = Settings(_env_file=None, telegram_token=fake.token,  # type: ignore[call-arg]
                            telegram_api_url=form.format(url=fake.url))
        repo = SqliteRepository(str(tmp_path / "t.db"))
        await repo.open()
        bot = TelegramBot(repo, settings, listen="127.0.0.1", poll_timeout=1)
        try:
            await bot.start()
            await fake.wait_for_call("getUpdates", timeout=10)
            assert [c.status for c in fake.calls if c.method == "getMe"] == [200]
            assert fake.unknown_calls == []
        finally:
            await bot.stop()
            await repo.close()


# --- Discord ----------------------------------------------------------------------------------

async def test_a_discord_token_the_server_rejects_is_said_in_one_line(tmp_path):
    async with FakeDiscord() as fake:
        status, err = await run_bot(tmp_path, DISCORD_TOKEN="not-the-token",
                                    DISCORD_API_URL=fake.base_url)
    one_clear_line(status, err, "DISCORD_TOKEN was rejected by Discord")


async def test_no_network_to_discord_is_said_in_one_line(tmp_path):
    status, err = await run_bot(tmp_path, DISCORD_TOKEN="x.y.z",
                                DISCORD_API_URL=f"http://127.0.0.1:{closed_port()}/api/v10")
    one_clear_line(status, err, "cannot reach Discord", "127.0.0.1")


async def test_a_discord_server_name_that_does_not_resolve_is_said_in_one_line(tmp_path):
    status, err = await run_bot(tmp_path, DISCORD_TOKEN="x.y.z",
                                DISCORD_API_URL="http://tapis-no-such-host.invalid/api/v10")
    one_clear_line(status, err, "does not resolve", "tapis-no-such-host.invalid")


async def test_switching_command_sync_between_guild_and_global_leaves_one_set(tmp_path):
    """Discord shows a guild's commands and the global ones side by side: after a switch,
    the set of the mode no longer used is gone, so no command appears twice."""
    async with FakeDiscord() as fake:
        harness = Harness(fake, tmp_path / "tapis.db")  # guild mode
        await harness.open()
        await harness.close()
        assert "newgame" in {c["name"] for c in fake.commands(fake.guild)}

        harness.settings.discord_guild_ids = []  # the operator empties DISCORD_GUILD_IDS
        await harness.open()
        try:
            await fake.wait_for(lambda: fake.commands(fake.guild) == [], what="guild cleared")
            assert "newgame" in {c["name"] for c in fake.commands()}
        finally:
            await harness.close()

        harness.settings.discord_guild_ids = [fake.guild.id]  # and back
        await harness.open()
        try:
            assert fake.commands() == []
            assert "newgame" in {c["name"] for c in fake.commands(fake.guild)}
        finally:
            await harness.close()
        assert fake.unhandled == []
