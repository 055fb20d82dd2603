"""Every setting as an operator writes it: `.env.example` copied to `.env` starts the bot,
lists read as documented from the environment and from `.env`, and a bad value of any
setting stops `python -m bot` with one line naming it, exit status 2, no traceback."""

import asyncio
import os
import re
import shutil
import signal
import sys
from pathlib import Path

import pytest

from bot.settings import Settings
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {name.upper() for name in Settings.model_fields}

pytestmark = pytest.mark.timeout(240)


def clean_environ(tmp_path: Path, **env: str) -> dict[str, str]:
    """This machine's environment without any Tapis setting, plus `env`."""
    environ = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS}
    environ.update(PYTHONPATH=str(ROOT), NO_PROXY="127.0.0.1,localhost", **env)
    return environ


async def python_m_bot(tmp_path: Path, *args: str, typed: str = "",
                       **env: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=tmp_path, env=clean_environ(tmp_path, **env),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(typed.encode()), timeout=60)
    finally:
        if proc.returncode is None:
            proc.kill()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_env_example_copied_as_it_is_starts_the_bot(tmp_path):
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    status, out, err = await python_m_bot(tmp_path, "--game", "ochs-esel", "--bots", "2",
                                          typed="/quit\n")
    # No token in .env.example: a console table, started and saved.
    assert status == 0, err
    assert "Traceback" not in err and not err.strip(), err
    assert "Ochs & Esel has started" in out and "Game saved" in out, out
    assert (tmp_path / "tapis.db").exists()  # DATABASE_URL as .env.example gives it


def env_example_with(path: Path, **values: str) -> None:
    """.env.example as the README's quick start has it edited: a few lines filled in."""
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name, value in values.items():
        text, found = re.subn(rf"^{name}=.*$", f"{name}={value}", text, flags=re.M)
        assert found == 1, name
    path.write_text(text, encoding="utf-8")


async def serve_until_sigterm(tmp_path: Path, ready: object) -> str:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=clean_environ(tmp_path),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        await ready  # type: ignore[misc]
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    text = err.decode()
    assert proc.returncode == 0, text[-2000:]
    assert "Traceback" not in text, text
    return text


async def test_the_quick_start_on_telegram_opens_a_table_in_the_group(tmp_path):
    async with FakeTelegram() as fake:
        env_example_with(tmp_path / ".env", TELEGRAM_TOKEN=fake.token,
                         TELEGRAM_API_URL=fake.url, BOT_DELAY="0")

        async def ready() -> None:
            await fake.wait_for_call("getUpdates", timeout=30)
            alice = fake.user(101, "Alice")
            fake.add_chat(-1001, "supergroup", title="Cards")
            fake.send_command(-1001, alice, "/newgame ochs")
            await fake.wait_for(lambda: fake.find(-1001, contains="Ochs & Esel"), timeout=15)

        await serve_until_sigterm(tmp_path, ready())


async def test_the_quick_start_on_discord_registers_the_commands_in_the_server(tmp_path):
    async with FakeDiscord() as fake:
        env_example_with(tmp_path / ".env", DISCORD_TOKEN=fake.token,
                         DISCORD_API_URL=fake.base_url, DISCORD_GUILD_IDS=str(fake.guild.id))

        async def ready() -> None:
            await fake.wait_for(lambda: fake.commands(fake.guild) and fake.shard_connections(),
                                timeout=30, what="the slash commands in the server")
            answered = await fake.slash("newgame", user="alice", channel=fake.channel,
                                        options={"game": "ochs-esel"})
            await fake.wait_for(lambda: answered.acknowledged, timeout=10, what="an answer")
            await fake.wait_for(lambda: any("Ochs & Esel" in m.content for m in
                                            fake.channel_messages(fake.channel)),
                                timeout=10, what="the lobby")

        await serve_until_sigterm(tmp_path, ready())


@pytest.mark.parametrize(("written", "ids"), [
    ("", []), ("123", [123]), ("123,456", [123, 456]), ("123, 456", [123, 456]),
    ("[123,456]", [123, 456]),
])
@pytest.mark.parametrize("source", ["environment", ".env"])
def test_a_list_setting_reads_as_documented_from_both_sources(
        tmp_path, monkeypatch, written, ids, source):
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    lines = {"DISCORD_GUILD_IDS": written, "DISCORD_SHARD_COUNT": "1000",
             "DISCORD_SHARD_IDS": written}
    env_file = tmp_path / ".env"
    if source == ".env":
        env_file.write_text("".join(f"{k}={v}\n" for k, v in lines.items()))
    else:
        env_file.write_text("")
        for name, value in lines.items():
            monkeypatch.setenv(name, value)
    if written == "":  # DISCORD_SHARD_IDS= means every shard
        settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
        assert settings.discord_guild_ids == [] and settings.discord_shard_ids is None
    else:
        settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
        assert settings.discord_guild_ids == ids and settings.discord_shard_ids == ids


# A bad value for every setting, with what else it needs to be used, and a word the line
# must carry besides the setting's name.
def bad_values(discord_url: str, database: str) -> dict[str, tuple[dict[str, str], str]]:
    return {
        "DISCORD_TOKEN": ({"DISCORD_TOKEN": "not-the-token", "DISCORD_API_URL": discord_url},
                          "rejected"),
        "DISCORD_GUILD_IDS": ({"DISCORD_GUILD_IDS": "123,abc"}, "numbers"),
        "DISCORD_API_URL": ({"DISCORD_API_URL": "discord.example/api/v10"}, "http"),
        "TELEGRAM_TOKEN": ({"TELEGRAM_TOKEN": "12345"}, "BotFather"),
        "TELEGRAM_API_URL": ({"TELEGRAM_API_URL": "ftp://telegram.example"}, "http"),
        "TELEGRAM_WEBHOOK_URL": ({"TELEGRAM_WEBHOOK_URL": "https://bot.example:99999/"},
                                 "port"),
        "TELEGRAM_WEBHOOK_SECRET": ({"TELEGRAM_WEBHOOK_SECRET": "a+b/c="}, "openssl"),
        "TELEGRAM_WEBHOOK_PORT": ({"TELEGRAM_WEBHOOK_PORT": "99999"}, "65535"),
        "DATABASE_URL": ({"DATABASE_URL": "postgresql://tapis@127.0.0.1:99999/test"}, "port"),
        "DEFAULT_LANG": ({"DEFAULT_LANG": "xx"}, "de"),
        "LOG_LEVEL": ({"LOG_LEVEL": "LOUD"}, "DEBUG"),
        "TURN_DEADLINE": ({"TURN_DEADLINE": "-1"}, "0"),
        "BOT_DELAY": ({"BOT_DELAY": "inf"}, "finite"),
        "PING_DELAY": ({"PING_DELAY": "soon"}, "number"),
        "AFK_STRIKES": ({"AFK_STRIKES": "0"}, "1"),
        "CACHED_TABLES": ({"CACHED_TABLES": "5"}, "10"),
        "CACHE_IDLE_SECONDS": ({"CACHE_IDLE_SECONDS": "1e400"}, "finite"),
        "METRICS_PORT": ({"METRICS_PORT": "70000"}, "65535"),
        # An address of no interface of this machine (TEST-NET-1).
        "METRICS_HOST": ({"METRICS_HOST": "192.0.2.1", "METRICS_PORT": "0"}, "192.0.2.1"),
        "LOG_FORMAT": ({"LOG_FORMAT": "xml"}, "json"),
        "RETENTION_DAYS": ({"RETENTION_DAYS": "99999999999"}, "100000"),
        "RATING_SEASON": ({"RATING_SEASON": "weekly"}, "quarter"),
        "TELEGRAM_MESSAGES_PER_SECOND": ({"TELEGRAM_MESSAGES_PER_SECOND": "31"}, "30"),
        "TELEGRAM_RECEIVE": ({"TELEGRAM_RECEIVE": "maybe"}, "bool"),
        "REGISTER_COMMANDS": ({"REGISTER_COMMANDS": "sometimes"}, "bool"),
        "DISCORD_SHARD_COUNT": ({"DISCORD_SHARD_COUNT": "0"}, "1"),
        "DISCORD_SHARD_IDS": ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "0,5"},
                              "below"),
        "CLUSTER_POLL": ({"CLUSTER_POLL": "0"}, "0"),
        "WEB_URL": ({"WEB_URL": "tapis.example"}, "https://"),
        "WEB_HOST": ({"WEB_HOST": "two words"}, "address"),
        "WEB_PORT": ({"WEB_PORT": "70000"}, "65535"),
        "WEB_SECRET": ({"WEB_SECRET": "too-short"}, "32"),
        "TELEGRAM_MINIAPP": ({"TELEGRAM_MINIAPP": "t.me/bot/app"}, "BotFather"),
    }


async def test_a_bad_value_of_any_setting_is_said_in_one_line_and_status_2(tmp_path):
    async with FakeDiscord() as discord:
        cases = bad_values(discord.base_url, f"sqlite:///{tmp_path / 'bot.db'}")
        assert set(cases) == SETTINGS, "every setting needs a bad value here"
        # A few at a time: one after another, the starts took a minute of the suite.
        starting = asyncio.Semaphore(4)

        async def refused(name: str, env: dict[str, str], word: str) -> str | None:
            """What is wrong with the refusal of `env`, if anything. Each start has a
            folder and database of its own, as one operator's start would."""
            here = tmp_path / name
            here.mkdir()
            env = {"DATABASE_URL": f"sqlite:///{here / 'bot.db'}", **env}
            async with starting:
                status, _out, err = await python_m_bot(here, **env)
            lines = [line for line in err.splitlines() if line.strip()]
            said = [line for line in lines if line.startswith("tapis:")]
            if (status != 2 or "Traceback" in err or len(said) != 1
                    or name not in said[0] or word.lower() not in said[0].lower()):
                return f"{name}={env[name]}: status {status}\n{err[-1500:]}"
            if name not in ("DISCORD_TOKEN", "METRICS_HOST") and len(lines) != 1:
                # Only a setting used after the start may follow a few log lines.
                return f"{name}: more than one line\n{err[-1500:]}"
            return None

        found = await asyncio.gather(*(refused(name, env, word)
                                       for name, (env, word) in cases.items()))
    failures = [failure for failure in found if failure is not None]
    assert not failures, "\n\n".join(failures)
