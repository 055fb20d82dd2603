"""Log lines: one JSON object per line with LOG_FORMAT=json, the table, platform and
channel they concern, and no secret in either format, tracebacks included."""

import asyncio
import io
import json
import logging

import pytest

from bot import logs
from bot.settings import Settings

TELEGRAM = "7712345678:AAHkQ9xZ3v_w-Lr8TqPnYb2mC4dE6fG7hJk"
DISCORD = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.mNoPqRsTuVwXyZaBcDeFgHiJkLmNoPqRsTuVwX"
PASSWORD = "s3cr3t-pw"


@pytest.fixture
def capture():
    """`logs.setup` on a string, the root logger as pytest had it put back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    httpx_level = logging.getLogger("httpx").level
    stream = io.StringIO()

    def setup(fmt):
        logs.setup(Settings(_env_file=None, telegram_token=TELEGRAM, discord_token=DISCORD,
                            database_url=f"postgresql://tapis:{PASSWORD}@db/tapis",
                            log_format=fmt), stream=stream)
        return stream

    yield setup
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(httpx_level)


def log_everything():
    log = logging.getLogger("tests.logs")
    log.info("GET https://api.telegram.org/bot%s/getMe", TELEGRAM)
    log.info("discord login with %s", DISCORD)
    log.info("callback /api/v10/interactions/123456789/aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEy/cb")
    try:
        raise RuntimeError(f"cannot connect to postgresql://tapis:{PASSWORD}@db/tapis")
    except RuntimeError:
        log.exception("database down")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_secret_reaches_a_log_line_tracebacks_included(capture, fmt):
    stream = capture(fmt)
    log_everything()
    text = stream.getvalue()
    for secret in (TELEGRAM, TELEGRAM.split(":")[1], DISCORD, PASSWORD,
                   "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEy"):
        assert secret not in text, secret
    assert text.count(logs.MASK) >= 5 and "Traceback" in text


async def test_json_lines_parse_and_carry_what_the_task_works_on(capture):
    stream = capture("json")

    async def handle(table_id, channel):
        logs.bind(platform="telegram", channel=channel)
        logs.bind(table_id=table_id)
        await asyncio.sleep(0)
        logging.getLogger("tests.logs").warning("move refused")

    logging.getLogger("tests.logs").info("no table here")
    await asyncio.gather(handle(5, "-1001"), handle(6, "-1002"))

    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [r["message"] for r in records] == ["no table here", "move refused", "move refused"]
    assert "table_id" not in records[0]
    # Each task's line names its own table: the context does not leak between tasks.
    assert sorted((r["table_id"], r["channel"], r["platform"]) for r in records[1:]) == [
        ("5", "-1001", "telegram"), ("6", "-1002", "telegram")]
    assert all(r["level"] in ("INFO", "WARNING") and r["logger"] == "tests.logs"
               for r in records)


def test_every_configured_secret_is_masked_however_short_and_no_url_keeps_credentials():
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        logs.setup(Settings(_env_file=None, telegram_token=TELEGRAM,
                            telegram_webhook_secret="Zq9_x", log_level="DEBUG",
                            telegram_api_url="http://tapis:BasicAuthPw123@127.0.0.1:9/bot"),
                   stream=stream)
        log = logging.getLogger("tests.logs")
        log.debug("setWebhook with {'secret_token': 'Zq9_x'}")
        log.warning("calling http://tapis:BasicAuthPw123@127.0.0.1:9/bot/getMe")
        log.warning("the password alone: BasicAuthPw123; a token in a URL: "
                    "https://sometoken@example.org/x")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    text = stream.getvalue()
    for secret in ("Zq9_x", "BasicAuthPw123", "tapis:", "sometoken"):
        assert secret not in text, text
    assert "127.0.0.1:9" in text and "example.org" in text and "setWebhook" in text
