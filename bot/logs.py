"""Logging set-up: readable text by default, LOG_FORMAT=json for log collectors.

Each line carries the table, platform and channel it concerns, where there is one: they
are bound in a context variable where an event enters (an adapter's handler, a table
loaded for a command, a scheduled job, a delivery), so every line logged further down
that task carries them, including the libraries' own lines.

No secret ever reaches the output: the formatter's final line goes through `Redactor`,
which removes the configured tokens and anything shaped like one. python-telegram-bot
and httpx log request URLs, and the Telegram token is part of every one of them.
"""

import logging
import re
import sys
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from bot.settings import Settings

FIELDS = ("table_id", "platform", "channel")
_context: ContextVar[dict[str, str] | None] = ContextVar("tapis_log_context", default=None)

MASK = "[secret]"
# Shapes of secrets, whatever their value: a Telegram bot token (digits:35 characters),
# a Discord bot token (three base64url parts), the token in a Discord interaction or
# webhook URL, and the credentials in any URL (user and password: user@ or user:pw@).
PATTERNS = [
    (re.compile(r"\d{5,}:[A-Za-z0-9_-]{30,}"), MASK),
    (re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{20,}"), MASK),
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_.-]{20,}"), r"\1" + MASK),
    (re.compile(r"(\b[A-Za-z][\w+.-]*://)[^/@\s]+@"), r"\1" + MASK + "@"),
]
# The credentials of a URL setting: its password is masked wherever it shows.
_CREDENTIALS = re.compile(r"^[A-Za-z][\w+.-]*://([^/@\s]+)@")


def bind(**fields: object) -> None:
    """Name what the current task works on; None leaves a field as it was.

    Called for every scheduled job and every delivery, most often with what is bound
    already: the context is copied only when a field changes."""
    current = _context.get()
    changed: dict[str, str] | None = None
    for name, value in fields.items():
        if value is None:
            continue
        text = value if type(value) is str else str(value)
        if current is None or current.get(name) != text:
            if changed is None:
                changed = dict(current or ())
            changed[name] = text
    if changed is not None:
        _context.set(changed)


def bound() -> dict[str, str]:
    return dict(_context.get() or {})


class Redactor:
    def __init__(self, secrets: list[str]) -> None:
        # Longest first, so a secret containing another is masked whole. Every one, however
        # short: a short one is still the one that opens the door.
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        for pattern, replacement in PATTERNS:
            text = pattern.sub(replacement, text)
        return text


def secrets_of(settings: Settings) -> list[str]:
    found = [settings.telegram_token or "", settings.discord_token or "",
             settings.telegram_webhook_secret or ""]
    for url in (settings.database_url, settings.telegram_api_url, settings.discord_api_url,
                settings.telegram_webhook_url):
        credentials = _CREDENTIALS.match(url or "")
        if credentials:  # the password; a user name alone is masked only in its URL
            found.append(credentials[1].partition(":")[2])
    return found


def printable(text: str, settings: Settings | None = None) -> str:
    """A line printed without the logging (start-up problems on stderr): masked the same
    way, with the configured secrets when the settings could be read."""
    return Redactor(secrets_of(settings) if settings is not None else [])(text)


class _Context(logging.Filter):
    """Copies the bound fields onto the record (a field given with `extra=` wins)."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _context.get() or {}
        for name in FIELDS:
            if not hasattr(record, name) and name in fields:
                setattr(record, name, fields[name])
        where = " ".join(f"{name}={getattr(record, name)}" for name in FIELDS
                         if hasattr(record, name))
        record.where = f" [{where}]" if where else ""
        return True


class TextFormatter(logging.Formatter):
    def __init__(self, redact: Redactor) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(where)s: %(message)s")
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))


class JsonLineFormatter(JsonFormatter):
    """One JSON object per line: time, level, logger, message, the bound fields, and the
    traceback as `exc_info` when there is one."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__(
            "%(asctime)s %(levelname)s %(name)s %(message)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            reserved_attrs=[*RESERVED_ATTRS, "taskName", "where"], timestamp=False)
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))


def setup(settings: Settings, stream: Any = None) -> logging.Handler:
    """Replace the root logger's handlers with one on stderr in the configured format."""
    redact = Redactor(secrets_of(settings))
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(_Context())
    handler.setFormatter(JsonLineFormatter(redact) if settings.log_format == "json"
                         else TextFormatter(redact))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    level = settings.log_level.upper()
    root.setLevel(level)
    # httpx logs every request at INFO (a long poll every few seconds): kept for DEBUG.
    logging.getLogger("httpx").setLevel(level if level == "DEBUG" else "WARNING")
    return handler
