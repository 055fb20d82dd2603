"""`python -m bot invite`: the link that adds the bot to a server, with exactly the rights
the bot uses; a bot given only those plays whole games in a channel and in a thread."""

import asyncio
import base64
import os
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from tests.adapters.test_discord import Harness, open_table, play_until, table_messages
from tests.fakes.discord_api import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
BOT_ID = 1234567890123456789
# A bot token's shape: the bot's id in base64, a timestamp, a signature.
TOKEN = base64.b64encode(str(BOT_ID).encode()).decode().rstrip("=") + ".GhIjKl.abcdefghijklmnop"

pytestmark = pytest.mark.timeout(120)


async def python_m_bot_invite(tmp_path: Path, *args: str, **env: str) -> tuple[int, str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
    environ.update(PYTHONPATH=str(ROOT), **env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "invite", *args, cwd=tmp_path, env=environ,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def permissions_of(url: str) -> discord.Permissions:
    return discord.Permissions(int(parse_qs(urlsplit(url).query)["permissions"][0]))


async def test_invite_prints_the_link_for_the_bot_of_discord_token(tmp_path):
    status, out, err = await python_m_bot_invite(tmp_path, DISCORD_TOKEN=TOKEN)
    assert status == 0, err
    url = out.strip()
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "discord.com", "/oauth2/authorize")
    assert query["client_id"] == [str(BOT_ID)]
    assert query["scope"] == ["bot applications.commands"]
    assert permissions_of(url) == discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True)


async def test_invite_takes_the_application_id_and_says_when_it_has_none(tmp_path):
    status, out, _err = await python_m_bot_invite(tmp_path, "42")
    assert status == 0 and "client_id=42&" in out
    status, out, err = await python_m_bot_invite(tmp_path, DISCORD_TOKEN="not-a-bot-token")
    assert status == 2 and not out and "Traceback" not in err
    assert err.strip().startswith("tapis:") and "application id" in err


async def test_a_bot_with_only_the_invited_rights_plays_in_a_channel_and_a_thread(
        tmp_path, fake: FakeDiscord):
    _status, out, _err = await python_m_bot_invite(tmp_path, DISCORD_TOKEN=TOKEN)
    everyone, bot_role = fake.guild.roles  # @everyone grants nothing; the bot's role the link's
    everyone.permissions = discord.Permissions.none()
    bot_role.permissions = permissions_of(out.strip())
    h = Harness(fake, tmp_path / "bot.db")
    await h.open()
    try:
        for channel, players, game, options in (
                (fake.channel, ["alice", "bob", "carol"], "ochs-esel", "rounds=1"),
                (fake.thread, ["erin", "frank"], "the-game", "")):
            table_id = await open_table(h, players, channel, options=options, game=game)
            await play_until(h, table_id, players)
            assert (await h.tables.live_table(table_id)).row.status == "finished"
            [table] = table_messages(fake, channel)
            assert "Game over." in table.content
        assert [r.status for r in fake.requests if r.status >= 400] == []
    finally:
        await h.close()
