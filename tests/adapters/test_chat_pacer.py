"""The Telegram rate limiter on its own: spacing per chat, pauses per chat, answers free."""

import asyncio
import itertools
import time
from typing import Any

from telegram.error import RetryAfter

from adapters.telegram.limits import ChatPacer

GROUP, OTHER, ALICE = -1001, -1002, 42


class Telegram:
    """Records when each request reached 'Telegram'; answers after `latency` seconds."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.arrivals: list[tuple[str, Any, float]] = []
        self.refuse: dict[Any, float] = {}  # chat -> retry_after for its next request

    def call(self, endpoint: str, chat: Any):
        async def request() -> bool:
            self.arrivals.append((endpoint, chat, time.monotonic()))
            await asyncio.sleep(self.latency)
            if chat in self.refuse:
                raise RetryAfter(self.refuse.pop(chat))
            return True
        return request


async def send(pacer: ChatPacer, api: Telegram, endpoint: str, chat: Any) -> Any:
    data = {} if chat is None else {"chat_id": chat}
    return await pacer.process_request(api.call(endpoint, chat), (), {}, endpoint, data, None)


def times(api: Telegram, chat: Any) -> list[float]:
    return [at for _endpoint, c, at in api.arrivals if c == chat]


async def test_messages_to_one_chat_arrive_a_gap_apart_counted_from_the_answer():
    pacer, api = ChatPacer(chat_gap=0.2, group_gap=0.4), Telegram(latency=0.1)
    await asyncio.gather(*[send(pacer, api, "editMessageText", ALICE) for _ in range(3)],
                         *[send(pacer, api, "sendMessage", GROUP) for _ in range(2)])
    alice, group = times(api, ALICE), times(api, GROUP)
    assert len(alice) == 3 and len(group) == 2
    assert all(b - a >= 0.2 + 0.1 - 0.01 for a, b in itertools.pairwise(alice))
    assert group[1] - group[0] >= 0.4 + 0.1 - 0.01


async def test_a_429_pauses_its_chat_only_and_button_answers_never_wait():
    pacer, api = ChatPacer(chat_gap=0.05, group_gap=0.05), Telegram()
    api.refuse[GROUP] = 1
    started = time.monotonic()
    flooded = asyncio.ensure_future(send(pacer, api, "editMessageText", GROUP))
    await asyncio.sleep(0.05)
    assert await send(pacer, api, "answerCallbackQuery", None)
    assert await send(pacer, api, "sendMessage", OTHER)
    assert time.monotonic() - started < 0.5  # neither waited for the group's pause
    assert await flooded  # retried after retry_after
    assert time.monotonic() - started >= 1.0
    assert pacer.retried == 1


async def test_a_chat_action_is_not_paced():
    pacer, api = ChatPacer(chat_gap=5.0), Telegram()
    await send(pacer, api, "sendMessage", ALICE)
    started = time.monotonic()
    await send(pacer, api, "sendChatAction", ALICE)
    assert time.monotonic() - started < 0.5
