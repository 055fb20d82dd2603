"""Bot API calls counted for /metrics: by method, with the HTTP status of failures.

Counted below python-telegram-bot's rate limiter and retries, at the HTTP request itself,
so a 429 the limiter then waits out still shows, and getUpdates long polls count too.
"""

from typing import Any

from telegram.request import HTTPXRequest

from bot import metrics

PLATFORM = "telegram"


class MeteredRequest(HTTPXRequest):
    """`HTTPXRequest` that counts each call; `failing` says whether the last one failed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.failing: str | None = None  # why the last call failed, None if it did not

    async def do_request(self, url: str, method: str, *args: Any, **kwargs: Any
                         ) -> tuple[int, bytes]:
        # The URL is {base}{token}/{method}: only the method is a label, never the URL.
        api_method = url.rsplit("/", 1)[-1] or "?"
        try:
            status, payload = await super().do_request(url, method, *args, **kwargs)
        except Exception as exc:
            metrics.platform_call(PLATFORM, api_method, None)
            self.failing = f"{api_method}: {type(exc).__name__}"
            raise
        metrics.platform_call(PLATFORM, api_method, status)
        # A refusal (400, 403, 429) is an answer: the server is there and knows the bot.
        self.failing = (f"{api_method}: HTTP {status}" if status >= 500 or status in (401, 404)
                        else None)
        return status, payload
