"""`python -m bot` run as a service: a real process against the fake Bot API, with
LOG_FORMAT=json, METRICS_PORT and a token shaped like a real one."""

import asyncio
import json
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.fakes.telegram_api import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
# The shape @BotFather hands out: the bot's id, a colon, 35 characters.
TOKEN = "7712345678:AAHkQ9xZ3v_w-Lr8TqPnYb2mC4dE6fG7hJk"
GROUP = -1001


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


async def until_healthy(url: str, timeout: float = 30) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last: object = None
    while loop.time() < deadline:
        try:
            last = await get(url)
            if last[0] == 200:
                return
        except aiohttp.ClientError as exc:
            last = exc
        await asyncio.sleep(0.2)
    raise AssertionError(f"never healthy: {last}")


async def run_a_game(tmp_path: Path, **extra_env: str) -> tuple[bytes, bytes, str, str]:
    """Start the bot, play a few moves, read /healthz and /metrics, stop it by SIGTERM."""
    port = free_port()
    async with FakeTelegram(token=TOKEN) as fake:
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        env.update(TELEGRAM_TOKEN=TOKEN, TELEGRAM_API_URL=fake.url,
                   DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}", PYTHONPATH=str(ROOT),
                   NO_PROXY="127.0.0.1,localhost", BOT_DELAY="0", PING_DELAY="0",
                   METRICS_PORT=str(port), LOG_LEVEL="DEBUG", RETENTION_DAYS="30",
                   **extra_env)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await until_healthy(f"http://127.0.0.1:{port}/healthz")
            alice, bob = fake.user(101, "Alice"), fake.user(102, "Bob")
            fake.add_chat(GROUP, "supergroup", title="Cards")
            for user in (alice, bob):
                fake.start_bot(user)
            fake.send_command(GROUP, alice, "/newgame the-game")
            # Updates are handled concurrently: Bob joins the lobby once it is there.
            await fake.wait_for(lambda: fake.find(GROUP, contains="The Game"), timeout=15)
            fake.send_command(GROUP, bob, "/join")
            await fake.wait_for(lambda: fake.find(GROUP, contains="Bob"), timeout=15)
            fake.send_command(GROUP, alice, "/start")
            await fake.wait_for(lambda: fake.find(alice.id, contains="🂠"), timeout=15)
            fake.send_command(GROUP, bob, "/play 5 A1")  # most likely not Bob's turn
            await fake.wait_for(lambda: len(fake.calls_to("sendMessage")) > 4, timeout=15)
            health = await get(f"http://127.0.0.1:{port}/healthz")
            metrics = await get(f"http://127.0.0.1:{port}/metrics")
        finally:
            proc.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
        assert proc.returncode == 0, err.decode()[-3000:]
    assert health == (200, "ok\n")
    assert metrics[0] == 200
    return out, err, health[1], metrics[1]


async def test_json_logs_parse_line_by_line_carry_the_table_and_never_the_token(tmp_path):
    out, err, _, metrics = await run_a_game(tmp_path, LOG_FORMAT="json")

    lines = err.decode().splitlines()
    assert len(lines) > 20  # DEBUG: the libraries' own lines are there too
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert any(r["logger"].startswith("telegram") for r in records)
    # Lines logged while handling the group's table say which table, platform and channel.
    placed = [r for r in records if r.get("platform") == "telegram"
              and r.get("channel") == str(GROUP)]
    assert placed and any("table_id" in r for r in placed)
    # httpx logs every request URL, and the token is part of each one.
    assert any("/bot[secret]/" in r["message"] for r in records)
    for secret in (TOKEN, TOKEN.split(":")[1]):
        assert secret not in err.decode() and secret not in out.decode()
        assert secret not in metrics


async def test_text_logs_stay_readable_and_never_show_the_token(tmp_path):
    out, err, _, metrics = await run_a_game(tmp_path)

    text = err.decode()
    assert not text.lstrip().startswith("{")
    assert " INFO " in text and "[platform=telegram" in text
    assert "/bot[secret]/" in text
    assert TOKEN.split(":")[1] not in text + out.decode() + metrics
    families = {f.name for f in text_string_to_metric_families(metrics)}
    assert {"tapis_moves_accepted", "tapis_platform_requests", "tapis_tables",
            "tapis_delivery_queue_depth", "tapis_move_latency_seconds"} <= families


async def test_the_console_serves_healthz_and_metrics_too(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "TELEGRAM_TOKEN"}}
    env.update(PYTHONPATH=str(ROOT), METRICS_PORT=str(port))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--database", f"sqlite:///{tmp_path / 'c.db'}",
        "--bot-delay", "0", "--game", "the-game", "--bots", "1", "-o", "deadline=off",
        cwd=tmp_path, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await until_healthy(f"http://127.0.0.1:{port}/healthz")
        assert proc.stdin is not None
        proc.stdin.write(b"#1\n#1\n")
        await proc.stdin.drain()
        samples = {}
        for _ in range(100):
            _, text = await get(f"http://127.0.0.1:{port}/metrics")
            samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
                       for family in text_string_to_metric_families(text)
                       for s in family.samples}
            played = sum(v for (name, labels), v in samples.items()
                         if name == "tapis_moves_accepted_total"
                         and ("actor", "player") in labels)
            if played >= 1:
                break
            await asyncio.sleep(0.1)
        assert samples[("tapis_tables", (("game", "the-game"), ("status", "playing")))] == 1
        assert played >= 1
    finally:
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.write(b"/quit\n")
            proc.stdin.close()
        _, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 0, err.decode()[-2000:]
