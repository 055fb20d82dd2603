"""The README's run command with chat tokens: a real process against the fake APIs."""

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from db.sqlite import SqliteRepository
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


async def start_bot(tmp_path: Path, **settings: str) -> asyncio.subprocess.Process:
    """`python -m bot` on a database of its own, with `settings` as its environment's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}", PYTHONPATH=str(ROOT),
               NO_PROXY="127.0.0.1,localhost", BOT_DELAY="0", PING_DELAY="0")
    env.update(settings)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def open_lobby(fake: FakeTelegram) -> Any:
    """Once the bot polls, Alice opens an Ochs & Esel lobby in the group -1001; the group's
    messages that show it."""
    await fake.wait_for_call("getUpdates", timeout=30)
    alice = fake.user(101, "Alice")
    fake.add_chat(-1001, "supergroup", title="Cards")
    fake.send_command(-1001, alice, "/newgame ochs rounds=1")
    return await fake.wait_for(lambda: fake.find(-1001, contains="Ochs & Esel"), timeout=15)


async def test_python_m_bot_serves_telegram_and_stops_cleanly_on_sigterm(tmp_path):
    async with FakeTelegram() as fake:
        proc = await start_bot(tmp_path, TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=fake.url)
        try:
            lobby = await open_lobby(fake)
            assert "Alice" in lobby[-1].text
        finally:
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
        assert proc.returncode == 0, err.decode()[-2000:]
        assert b"Traceback" not in err


async def test_a_sigterm_keeps_the_database_until_every_platform_has_stopped(tmp_path):
    """Discord and Telegram in one process stop at their own pace: here Telegram's last
    hand is still on its way when Discord has long stopped. The database stays open until
    both have, so the hand's message is stored (a restart edits it rather than sending the
    hand twice) and nothing fails on a closed database."""
    async with FakeTelegram() as fake, FakeDiscord() as discord:
        proc = await start_bot(tmp_path, TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=fake.url,
                               DISCORD_TOKEN=discord.token, DISCORD_API_URL=discord.base_url)
        try:
            await fake.wait_for_call("getUpdates", timeout=30)
            await discord.wait_for(lambda: discord.shard_connections(), timeout=30,
                                   what="Discord's gateway connected")
            alice, bob = fake.user(101, "Alice"), fake.user(102, "Bob")
            fake.add_chat(-1001, "supergroup", title="Cards")
            for user in (alice, bob):
                fake.start_bot(user)
            fake.send_command(-1001, alice, "/newgame ochs rounds=1")
            await fake.wait_for(lambda: fake.find(-1001, contains="Ochs & Esel"), timeout=15)
            fake.send_command(-1001, bob, "/join")
            await fake.wait_for(lambda: fake.find(-1001, contains="Bob"), timeout=15)
            fake.send_command(-1001, alice, "/addbot")
            await fake.wait_for(lambda: fake.find(-1001, contains="🤖"), timeout=15)
            fake.slow("sendMessage", 3.0, chat_id=bob.id)  # his hand: 3 s on the way
            fake.send_command(-1001, alice, "/start")
            await fake.wait_for(lambda: any(str(c.params.get("chat_id")) == str(bob.id)
                                            for c in fake.slowed_calls), timeout=15)
        finally:
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
        text = err.decode()
        assert proc.returncode == 0, text[-2000:]
        assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
    repo = SqliteRepository(str(tmp_path / "bot.db"))
    await repo.open()
    try:
        table = await repo.open_table_in("telegram", "-1001")
        assert table is not None
        stored = await repo.messages(table.id)
    finally:
        await repo.close()
    assert {ref.chat for key, ref in stored.items() if key.startswith("hand:")} \
        == {str(alice.id), str(bob.id)}


async def test_starting_on_discord_says_nothing_about_voice(tmp_path):
    """Tapis uses no voice, so the voice libraries discord.py misses are no news."""
    async with FakeDiscord() as discord:
        proc = await start_bot(tmp_path, DISCORD_TOKEN=discord.token,
                               DISCORD_API_URL=discord.base_url)
        try:
            await discord.wait_for(lambda: discord.shard_connections(), timeout=30,
                                   what="Discord's gateway connected")
        finally:
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    text = err.decode()
    assert proc.returncode == 0, text[-2000:]
    assert "connected" in text.lower() or "logging in" in text.lower(), text  # the log runs
    assert "voice" not in text.lower(), text


async def test_a_sigterm_ends_the_process_within_seconds_while_a_delivery_waits_out_a_flood(
        tmp_path):
    """Telegram's flood limit holds the group's messages back for a minute: a SIGTERM then
    ends the process within seconds, not after the wait (what is not delivered is drawn
    again when the table is next driven)."""
    async with FakeTelegram() as fake:
        proc = await start_bot(tmp_path, TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=fake.url)
        try:
            await fake.wait_for_call("getUpdates", timeout=30)
            alice = fake.user(101, "Alice")
            fake.add_chat(-1001, "supergroup", title="Cards")
            fake.fail_next("sendMessage", times=5, retry_after=60)
            fake.send_command(-1001, alice, "/newgame ochs rounds=1")
            await fake.wait_for(lambda: any(not c.ok for c in fake.calls_to("sendMessage")),
                                timeout=15)
        finally:
            proc.send_signal(signal.SIGTERM)
            signalled = asyncio.get_running_loop().time()
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=90)
            took = asyncio.get_running_loop().time() - signalled
        assert proc.returncode == 0, err.decode()[-2000:]
        assert b"Traceback" not in err
        assert took < 10, f"ended {took:.0f} s after SIGTERM"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_short_webhook_secret_is_masked_in_the_debug_log(tmp_path):
    """A five-character webhook secret (Telegram accepts it) is masked like a long one:
    python-telegram-bot logs setWebhook's parameters at DEBUG."""
    async with FakeTelegram() as fake:
        proc = await start_bot(
            tmp_path, TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=fake.url, LOG_LEVEL="DEBUG",
            TELEGRAM_WEBHOOK_URL="http://127.0.0.1:1/tg", TELEGRAM_WEBHOOK_SECRET="Zq9_x",
            TELEGRAM_WEBHOOK_PORT=str(closed_port()))
        try:
            await fake.wait_for(lambda: fake.webhook is not None, timeout=30)
        finally:
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    text = err.decode()
    assert "setWebhook" in text and "[secret]" in text, text[-2000:]
    assert "Zq9_x" not in text


@pytest.mark.parametrize("setting", ["TELEGRAM_API_URL", "DATABASE_URL"])
async def test_a_start_up_line_never_prints_the_credentials_of_a_url(tmp_path, setting):
    """A server that cannot be reached is named by its address, without the user and
    password its URL carries (start-up lines are printed, not logged)."""
    port = closed_port()
    urls = {"TELEGRAM_API_URL": f"http://tapis:BasicAuthPw123@127.0.0.1:{port}/bot",
            "DATABASE_URL": f"postgresql://tapis:BasicAuthPw123@127.0.0.1:{port}/tapis"}
    token = "7712345678:AAHkQ9xZ3v_w-Lr8TqPnYb2mC4dE6fG7hJk"
    proc = await start_bot(tmp_path, TELEGRAM_TOKEN=token, LOG_LEVEL="DEBUG",
                           **{setting: urls[setting]})
    _out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    text = err.decode()
    assert proc.returncode == 2, text[-2000:]
    assert str(port) in text  # the server is named
    assert "BasicAuthPw123" not in text and "//tapis" not in text, text[-2000:]


async def test_with_web_url_the_page_is_served_beside_telegram_and_the_metrics(tmp_path):
    """WEB_URL set: the same process serves the chat, the page (WEB_PORT) and /metrics
    (METRICS_PORT); the group's table carries the Mini App link, and the page's port never
    answers /metrics."""
    import aiohttp

    web_port, metrics_port = free_port(), free_port()
    async with FakeTelegram() as fake:
        proc = await start_bot(tmp_path, TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=fake.url,
                               WEB_URL="https://tapis.example", WEB_PORT=str(web_port),
                               METRICS_PORT=str(metrics_port), TELEGRAM_MINIAPP="table")
        try:
            lobby = await open_lobby(fake)
            urls = [b.get("url", "") for row in (lobby[-1].reply_markup or {}).get(
                "inline_keyboard", []) for b in row]
            assert any(u.startswith(f"https://t.me/{fake.bot_username}/table?startapp=")
                       for u in urls), urls
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{web_port}/") as page:
                    assert page.status == 200
                async with http.get(f"http://127.0.0.1:{web_port}/metrics") as page:
                    assert page.status == 404
                async with http.get(f"http://127.0.0.1:{metrics_port}/metrics") as page:
                    assert page.status == 200
        finally:
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
        assert proc.returncode == 0, err.decode()[-2000:]
        assert b"Traceback" not in err


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
