"""Every setting the bot reads, from the environment or `.env` (listed in .env.example)."""

from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = None
    discord_guild_ids: list[int] = Field(default_factory=list)
    telegram_token: str | None = None
    telegram_api_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: str | None = None
    telegram_webhook_port: int = 8443
    database_url: str = "sqlite:///tapis.db"
    default_lang: str = "en"
    log_level: str = "INFO"
    turn_deadline: int = Field(300, ge=0, description="seconds per turn; 0 turns deadlines off")
    bot_delay: float = Field(1.5, ge=0, description="seconds a bot player waits before moving")
    ping_delay: float = Field(20, ge=0, description="seconds before a player whose turn "
                              "started is called by a mention (0: at once)")
    afk_strikes: int = Field(2, ge=1, description="expired turns in a row before a bot takes over")
    cached_tables: int = Field(2000, ge=10, description="tables kept in memory; others reload")
    metrics_port: int | None = Field(None, ge=0, le=65535, description="serve /healthz and "
                                     "/metrics on this port; unset: off")
    metrics_host: str = "127.0.0.1"
    log_format: Literal["text", "json"] = "text"
    retention_days: int | None = Field(None, ge=1, description="delete finished and cancelled "
                                       "tables older than this; unset: keep them")

    @field_validator("metrics_port", "retention_days", mode="before")
    @classmethod
    def _empty_is_off(cls, value: object) -> object:
        # `METRICS_PORT=` as .env.example writes it means "not set".
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("discord_guild_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        # A comma-separated list is what an operator writes in .env.
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("default_lang")
    @classmethod
    def _known_lang(cls, value: str) -> str:
        from bot.i18n import LANGS

        if value not in LANGS:
            raise ValueError(f"DEFAULT_LANG must be one of {', '.join(LANGS)}")
        return value
