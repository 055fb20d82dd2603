"""Every setting the bot reads, from the environment or `.env` (listed in .env.example)."""

import logging
import re
from typing import Annotated, Literal, Self
from urllib.parse import urlsplit

from pydantic import Field, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

TELEGRAM_TOKEN = re.compile(r"[0-9]+:[A-Za-z0-9_-]+")
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
# Discord ids (snowflakes) are positive and fit in 63 bits.
SNOWFLAKE_MAX = 2**63 - 1
DAY = 86_400


class StartupError(Exception):
    """A platform refused to start (token rejected, server unreachable): one line for the
    operator, no traceback (`python -m bot` prints it and exits with status 2)."""


class Settings(BaseSettings):
    # allow_inf_nan: `BOT_DELAY=inf` would pass every bound and hang a table for ever.
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      allow_inf_nan=False)

    discord_token: str | None = None
    # NoDecode: pydantic-settings would read a list as JSON, and `1,2` or an empty value
    # (how .env.example writes them) are not JSON; _split_ids reads them.
    discord_guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    discord_api_url: str | None = None
    telegram_token: str | None = None
    telegram_api_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: str | None = None
    telegram_webhook_port: int = Field(8443, ge=1, le=65535)
    database_url: str = "sqlite:///tapis.db"
    default_lang: str = "en"
    log_level: str = "INFO"
    # Upper bounds as the table options have them (deadline 24 h, bot_delay 30 s): a
    # larger value is a typo, and past a point asyncio's timers overflow.
    turn_deadline: int = Field(300, ge=0, le=DAY,
                               description="seconds per turn; 0 turns deadlines off")
    bot_delay: float = Field(1.5, ge=0, le=30,
                             description="seconds a bot player waits before moving")
    ping_delay: float = Field(20, ge=0, le=DAY, description="seconds before a player whose "
                              "turn started is called by a mention (0: at once)")
    afk_strikes: int = Field(2, ge=1, le=1000,
                             description="expired turns in a row before a bot takes over")
    cached_tables: int = Field(50_000, ge=10, le=100_000_000, description="most tables kept "
                               "in memory; past that the least recently used are reloaded")
    cache_idle_seconds: float = Field(900, ge=0, le=365 * DAY, description="a table untouched "
                                      "this long leaves memory, and is reloaded when needed")
    metrics_port: int | None = Field(None, ge=0, le=65535, description="serve /healthz and "
                                     "/metrics on this port; unset: off")
    metrics_host: str = "127.0.0.1"
    log_format: Literal["text", "json"] = "text"
    retention_days: int | None = Field(None, ge=1, le=100_000, description="delete finished "
                                       "and cancelled tables older than this; unset: keep them")
    # Rating seasons (docs/ratings.md): a change takes effect at the next boundary.
    rating_season: Literal["off", "month", "quarter"] = "quarter"
    # Several processes on one PostgreSQL database (docs: "Running at scale").
    telegram_messages_per_second: float = Field(
        25, gt=0, le=30, description="this process's share of Telegram's ~30 messages a "
        "second over all chats: divide by the number of processes sharing the bot")
    telegram_receive: bool = Field(True, description="take Telegram updates (long polling or "
                                   "the webhook); off: this process only drives tables")
    register_commands: bool = Field(True, description="register the slash commands with the "
                                    "platforms at start; one process of a cluster is enough")
    discord_shard_count: int | None = Field(
        None, ge=1, le=10_000, description="Discord shards of the whole bot; with "
        "DISCORD_SHARD_IDS, the shards this process connects (docs: Running at scale)")
    discord_shard_ids: Annotated[list[int] | None, NoDecode] = None
    cluster_poll: float = Field(1.0, gt=0, le=3, description="seconds between a cluster "
                                "process's looks for tables whose driver died")

    @field_validator("metrics_port", "retention_days", "discord_shard_count", mode="before")
    @classmethod
    def _empty_is_off(cls, value: object) -> object:
        # `METRICS_PORT=` as .env.example writes it means "not set".
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("discord_guild_ids", "discord_shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object, info: ValidationInfo) -> object:
        # A comma-separated list is what an operator writes in .env; `[1,2]` (JSON, which
        # pydantic-settings used to require) is read too.
        if isinstance(value, str):
            text = value.replace(" ", "")
            if text.startswith("[") and text.endswith("]"):
                text = text[1:-1]
            parts = [part for part in text.split(",") if part]
            if not parts and info.field_name == "discord_shard_ids":
                return None  # `DISCORD_SHARD_IDS=` means "not set": every shard
            if not all(part.isascii() and part.isdecimal() for part in parts):
                raise ValueError(f"{value!r} is not a comma-separated list of numbers")
            ids = [int(part) for part in parts]
            if info.field_name == "discord_guild_ids" and not all(
                    0 < i <= SNOWFLAKE_MAX for i in ids):
                raise ValueError(f"{value!r} holds a number that is no Discord server id")
            return ids
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: object) -> object:
        # logging would refuse an unknown name only when the bot sets it up, with a traceback.
        if isinstance(value, str):
            level = value.strip().upper()
            if level not in logging.getLevelNamesMapping() or level == "NOTSET":
                raise ValueError("LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
            return level
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url_parts(cls, value: str) -> str:
        # A port out of range or not a number would surface deep in the driver, as an
        # OverflowError; the scheme and file name are checked where the URL is opened.
        try:
            urlsplit(value.strip()).port  # noqa: B018  (raises ValueError when out of range)
        except ValueError as exc:
            raise ValueError(f"DATABASE_URL has a bad port ({exc})") from None
        return value.strip()


    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        # Discord refuses a connection whose shard id is not below the count (close code
        # 4010); said here, at start, in the operator's terms.
        count, ids = self.discord_shard_count, self.discord_shard_ids
        if ids is not None and count is None:
            raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (the bot's total "
                             "number of shards)")
        if ids is not None and count is not None:
            if not ids:
                raise ValueError("DISCORD_SHARD_IDS is empty: leave it unset for all shards")
            wrong = [i for i in ids if i >= count]
            if wrong:
                raise ValueError(f"DISCORD_SHARD_IDS {wrong} not below DISCORD_SHARD_COUNT "
                                 f"{count} (shard ids go from 0 to {count - 1})")
            if len(set(ids)) != len(ids):
                raise ValueError("DISCORD_SHARD_IDS lists a shard twice")
        return self

    @field_validator("discord_token", "telegram_token", "telegram_api_url", "discord_api_url",
                     "telegram_webhook_url", "telegram_webhook_secret")
    @classmethod
    def _empty_is_unset(cls, value: str | None) -> str | None:
        # `TELEGRAM_WEBHOOK_SECRET=` in .env.example means "not set", not "the empty secret".
        return value.strip() or None if value is not None else None

    @field_validator("telegram_token")
    @classmethod
    def _telegram_token_shape(cls, value: str | None) -> str | None:
        # @BotFather's tokens are "<bot id>:<secret>"; anything else is a copy-paste slip
        # Telegram would only refuse after a network round trip.
        if value is not None and not TELEGRAM_TOKEN.fullmatch(value):
            raise ValueError("TELEGRAM_TOKEN must look like 123456789:ABC-def_ghi (from "
                             "@BotFather)")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret_chars(cls, value: str | None) -> str | None:
        # Telegram's setWebhook refuses any other secret_token, and the bot would die at
        # start; `openssl rand -base64` output (+ / =) is the usual mistake.
        if value is not None and not WEBHOOK_SECRET.fullmatch(value):
            raise ValueError("TELEGRAM_WEBHOOK_SECRET must be 1 to 256 characters of A-Z a-z "
                             "0-9 _ - (e.g. openssl rand -hex 32)")
        return value

    @field_validator("default_lang")
    @classmethod
    def _known_lang(cls, value: str) -> str:
        from bot.i18n import LANGS

        if value not in LANGS:
            raise ValueError(f"DEFAULT_LANG must be one of {', '.join(LANGS)}")
        return value

    @field_validator("telegram_api_url", "discord_api_url", "telegram_webhook_url")
    @classmethod
    def _http_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        # After _empty_is_unset (declared earlier, so run first): only a set value is looked at.
        if value is None:
            return None
        name = (info.field_name or "").upper()
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018  (raises ValueError for a port out of range)
        except ValueError as exc:
            raise ValueError(f"{name} is no URL ({exc})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{name} must be an http:// or https:// URL with a host name")
        return value
