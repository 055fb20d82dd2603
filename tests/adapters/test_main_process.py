"""The README's run command with a Telegram token: a real process against the fake API."""

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.fakes.telegram_api import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


async def test_python_m_bot_serves_telegram_and_stops_cleanly_on_sigterm(tmp_path):
    async with FakeTelegram() as fake:
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        env.update(TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=fake.url,
                   DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}", PYTHONPATH=str(ROOT),
                   NO_PROXY="127.0.0.1,localhost", BOT_DELAY="0", PING_DELAY="0")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await fake.wait_for_call("getUpdates", timeout=30)
            alice = fake.user(101, "Alice")
            fake.add_chat(-1001, "supergroup", title="Cards")
            fake.send_command(-1001, alice, "/newgame ochs rounds=1")
            lobby = await fake.wait_for(lambda: fake.find(-1001, contains="Ochs & Esel"),
                                        timeout=15)
            assert "Alice" in lobby[-1].text
        finally:
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
        assert proc.returncode == 0, err.decode()[-2000:]
        assert b"Traceback" not in err
