"""Pacing the bot's messages to Telegram's flood limits, one chat at a time.

Telegram allows about one message a second in a chat and 20 a minute in a group, edits
included; over that it answers 429 with `retry_after`. PTB's `AIORateLimiter` lets a
group burst 20 messages before it slows down (a sliding minute then sees up to 40), does
not pace private chats, and on a 429 pauses *every* request of the bot, button answers
included, which Telegram expires after a few seconds ("query is too old").

This limiter sends one message or edit at a time per chat, each `chat_gap` seconds (in a
group `group_gap`, so no minute ever holds more than 20) after Telegram answered the
previous one; it pauses only the chat a 429 was about, and never makes a request that is
not a message wait: button answers, chat actions and reads go straight through.

`turn(chat)` lets the outbox wait for a chat's turn *before* it picks what to send, so
the table drawn when the slot comes is the newest one: a burst of moves costs one edit.
"""

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

# Seconds from Telegram's answer to one message until the next in the same chat (Telegram:
# about 1 a second), and in a group (20 a minute, so no sliding minute holds 21).
CHAT_GAP = 1.02
GROUP_GAP = 3.05
OVERALL_PER_SECOND = 25  # Telegram: about 30 messages per second over all chats
RETRIES = 3
PACED_PREFIXES = ("send", "edit", "copy", "forward")
NOT_PACED = frozenset({"sendChatAction"})
FORGET_AFTER = 10_000  # chats remembered before idle ones are dropped


class ChatPacer(BaseRateLimiter[int]):
    def __init__(self, *, chat_gap: float = CHAT_GAP, group_gap: float = GROUP_GAP,
                 overall_per_second: float = OVERALL_PER_SECOND,
                 max_retries: int = RETRIES, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.chat_gap = chat_gap
        self.group_gap = group_gap
        self.max_retries = max_retries
        self._clock = clock
        self._overall = AsyncLimiter(overall_per_second, 1) if overall_per_second else None
        self._next: dict[int | str, float] = {}  # chat -> when its next message may go
        self._locks: dict[int | str, asyncio.Lock] = {}  # one request at a time per chat
        self.retried = 0  # 429s met and waited out (none expected: they mean a bad guess)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""

    async def turn(self, chat_id: int | str) -> None:
        """Wait until `chat_id` may receive a message: the request that follows goes at once
        (unless another one for the chat took the slot first; then it waits its turn)."""
        async with self._lock(chat_id):
            await self._until_free(chat_id)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat = _chat_of(data)
        if chat is None or not endpoint.startswith(PACED_PREFIXES) or endpoint in NOT_PACED:
            return await callback(*args, **kwargs)
        retries = self.max_retries if rate_limit_args is None else rate_limit_args
        gap = self.group_gap if _is_group(chat) else self.chat_gap
        async with self._lock(chat):
            for attempt in range(retries + 1):
                await self._until_free(chat)
                try:
                    if self._overall is None:
                        return await callback(*args, **kwargs)
                    async with self._overall:
                        return await callback(*args, **kwargs)
                except RetryAfter as exc:
                    if attempt == retries:
                        raise
                    self.retried += 1
                    pause = exc.retry_after if isinstance(exc.retry_after, int | float) \
                        else exc.retry_after.total_seconds()
                    log.warning("chat %s: flood limit hit, %s retried after %.1f s", chat,
                                endpoint, pause)
                    # Only this chat waits; other chats and every button answer carry on.
                    self._next[chat] = self._clock() + pause + 0.1
                finally:
                    # The gap runs from the answer: Telegram saw the request before it
                    # answered, so however the network or a busy loop delays requests, two
                    # never reach it closer than the gap.
                    self._next[chat] = max(self._next.get(chat, 0.0), self._clock() + gap)
        raise AssertionError("unreachable")

    def _lock(self, chat: int | str) -> asyncio.Lock:
        lock = self._locks.get(chat)
        if lock is None:
            if len(self._locks) > FORGET_AFTER:
                now = self._clock()
                for idle in [c for c, held in self._locks.items()
                             if not held.locked() and self._next.get(c, 0.0) < now]:
                    del self._locks[idle]
                    self._next.pop(idle, None)
            lock = self._locks[chat] = asyncio.Lock()
        return lock

    async def _until_free(self, chat: int | str) -> None:
        wait = self._next.get(chat, 0.0) - self._clock()
        if wait > 0:
            await asyncio.sleep(wait)


def _chat_of(data: dict[str, Any]) -> int | str | None:
    chat = data.get("chat_id")
    if isinstance(chat, str):
        try:
            return int(chat)
        except ValueError:
            return chat  # "@channel": a channel, paced like a group
    return chat if isinstance(chat, int) else None


def _is_group(chat: int | str) -> bool:
    return isinstance(chat, str) or chat < 0
