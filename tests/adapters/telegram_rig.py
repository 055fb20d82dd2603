"""The Telegram adapter on the fake Bot API and a real SQLite file, and helpers to play."""

import asyncio
import itertools
import math
import time
from collections.abc import Iterable
from pathlib import Path

from telegram.ext import AIORateLimiter, BaseRateLimiter

from adapters.telegram.app import TelegramBot
from adapters.telegram.limits import CHAT_GAP, GROUP_GAP, OVERALL_PER_SECOND, ChatPacer
from bot.render import decode_payload
from bot.settings import Settings
from bot.tables import Tables
from db.repository import FINISHED
from db.sqlite import SqliteRepository
from tests.fakes.telegram_api import FakeMessage, FakeTelegram, FakeUser

GROUP = -1001234567890
FORUM = -1009876543210
HAND_MARK = "🂠"  # hand_title starts with it
TABLE_MARK = "🃏"  # lobby_title and table_title start with it


class Rig:
    """One run of the bot process: start, stop, start again on the same database file."""

    def __init__(self, fake: FakeTelegram, db: Path, *, production_limiter: bool = False,
                 **settings: object) -> None:
        """`production_limiter`: the rate limiter exactly as `python -m bot` builds it.
        Else, on a strict fake, the same limiter with its gaps scaled by the fake's `pace`
        (Telegram's rules, sooner over); on a lenient fake, one that never throttles and
        retries a 429 as in play."""
        self.fake = fake
        self.db = db
        self.production_limiter = production_limiter
        chosen: dict[str, object] = {"bot_delay": 0, "turn_deadline": 0, "ping_delay": 0,
                                      "default_lang": "en", **settings}
        self.settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            telegram_token=fake.token, telegram_api_url=fake.url, **chosen)
        self._seeds = itertools.count(1000)
        self.bot: TelegramBot | None = None
        self.repo: SqliteRepository | None = None

    @property
    def tables(self) -> Tables:
        assert self.bot is not None
        return self.bot.tables

    async def start(self) -> TelegramBot:
        self.repo = SqliteRepository(str(self.db))
        await self.repo.open()
        limiter: BaseRateLimiter[int] | None = None
        if self.production_limiter:
            pass  # as `python -m bot` builds it
        elif self.fake.strict:
            pace = self.fake.pace
            limiter = ChatPacer(chat_gap=CHAT_GAP * pace, group_gap=GROUP_GAP * pace,
                                overall_per_second=OVERALL_PER_SECOND / pace)
        else:
            limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
        self.bot = TelegramBot(self.repo, self.settings, seeds=lambda: next(self._seeds),
                               rate_limiter=limiter, listen="127.0.0.1", poll_timeout=2)
        await self.bot.start()
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.stop()
        if self.repo is not None:
            await self.repo.close()
        self.bot = self.repo = None


def hand_messages(fake: FakeTelegram, user: FakeUser) -> list[FakeMessage]:
    return [m for m in fake.find(user.id) if m.text.startswith(HAND_MARK)]


def table_messages(fake: FakeTelegram, chat: int, thread: int | None = None) -> list[FakeMessage]:
    return [m for m in fake.find(chat, thread_id=thread) if m.text.startswith(TABLE_MARK)]


def move_button(fake: FakeTelegram, user: FakeUser, table_id: int, version: int
                ) -> tuple[FakeMessage, str] | None:
    """A move button of the user's hand drawn for `version`: a card set rather than a pass,
    so that rounds end."""
    def for_this(data: str) -> bool:
        found = decode_payload(data)
        return found is not None and (found.table_id, found.version) == (table_id, version) \
            and found.action.startswith("m:")

    for message in hand_messages(fake, user):
        data = [b["callback_data"] for b in message.buttons
                if for_this(b.get("callback_data", ""))]
        if data:
            plays = [d for d in data if not d.endswith("m:pass")]
            return message, (plays or data)[0]
    return None


async def press_for_next_player(rig: Rig, table_id: int, users: dict[str, FakeUser]) -> bool:
    """The player to act presses a move on their hand message; False once the game is over."""
    live = await rig.tables.live_table(table_id)
    assert live is not None
    if live.row.status == FINISHED:
        return False
    seat = live.game.to_act(live.state)[0]
    user = users[live.seats[seat].user_id or ""]
    version = live.row.version
    message, data = await rig.fake.wait_for(
        lambda: move_button(rig.fake, user, table_id, version))
    press = rig.fake.press(user.id, message.message_id, user, data)
    await rig.fake.wait_for(lambda: press.answer is not None)
    assert press.answer is not None and not press.answer.get("show_alert"), press.answer
    return True


async def play_moves(rig: Rig, table_id: int, users: Iterable[FakeUser], limit: int) -> int:
    """Press up to `limit` moves; the number pressed (fewer when the game ended)."""
    by_id = {str(u.id): u for u in users}
    for done in range(limit):
        if not await press_for_next_player(rig, table_id, by_id):
            return done
    return limit


async def open_table(rig: Rig, chat: int, host: FakeUser, others: list[FakeUser],
                     game: str = "ochs-esel rounds=1", thread: int | None = None) -> int:
    """The host opens a table by /newgame, the others /join; players have started the bot."""
    fake = rig.fake
    for user in [host, *others]:
        fake.start_bot(user)
    fake.send_command(chat, host, f"/newgame {game}", thread_id=thread)
    lobby = await fake.wait_for(lambda: table_messages(fake, chat, thread))
    for user in others:
        fake.send_command(chat, user, "/join@tapis_test_bot", thread_id=thread)
    names = [u.first_name for u in others]
    await fake.wait_for(lambda: all(n in lobby[0].text for n in names))
    row = await rig.tables.table_for_channel(str(chat) if thread is None else f"{chat}:{thread}")
    assert row is not None
    return row.id


async def start_with(rig: Rig, players: tuple[FakeUser, ...], command: str) -> int:
    """Alice opens a table in the group, Bob and Carol join, `command` starts it."""
    alice, bob, carol = players
    table_id = await open_table(rig, GROUP, alice, [bob, carol])
    rig.fake.send_command(GROUP, alice, command)
    await rig.fake.wait_for(lambda: all(hand_messages(rig.fake, p) for p in players))
    return table_id


async def play_with_bots(rig: Rig, table_id: int, users: list[FakeUser], *,
                         settle: bool = True) -> None:
    """People press their buttons until the game ends; bot seats are left to the bot.
    `settle`: wait for every delivery after each move (else only for the mover's hand, as a
    person would, while the table message catches up at its own pace)."""
    by_id = {str(u.id): u for u in users}
    for _ in range(20_000):
        if settle:
            await rig.tables.settle()
        live = await rig.tables.live_table(table_id)
        assert live is not None
        if live.row.status != "playing":
            return
        seat = live.game.to_act(live.state)[0]
        if live.seats[seat].is_bot:
            await asyncio.sleep(0.01)
            continue
        await play_moves(rig, table_id, [by_id[live.seats[seat].user_id or ""]], 1)
    raise AssertionError("the game did not end")


GROUP_METHODS = ("sendmessage", "editmessagetext", "editmessagereplymarkup", "deletemessage")


async def group_figures(rig: Rig, table_id: int, first_call: int, chat: int = GROUP
                        ) -> dict[str, float]:
    """What a move costs the group chat, from the fake's record after `first_call`:
    requests per move, and how long the table message took to show each move (the last
    one: how long until it caught up once the game ended)."""
    fake, repo = rig.fake, rig.repo
    assert repo is not None
    live = await rig.tables.live_table(table_id)
    assert live is not None
    moves = await repo.moves(table_id)
    calls = [c for c in fake.calls[first_call:]
             if c.chat_id == chat and c.method.lower() in GROUP_METHODS]
    wall = time.time() - time.monotonic()
    shown: list[tuple[float, int]] = []
    for call in calls:
        markup = call.params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []) if call.ok else []:
            for button in row:
                decoded = decode_payload(str(button.get("callback_data", "")))
                if decoded is not None and decoded.table_id == table_id:
                    shown.append((call.time + wall, decoded.version))
    first_version = live.row.version - len(moves)
    lags = []
    for n, move in enumerate(moves, start=1):
        seen = [at for at, version in shown if version >= first_version + n]
        lags.append(min(seen) - move.created_at if seen else math.inf)
    return {"moves": len(moves), "group_requests": len(calls),
            "group_per_move": len(calls) / max(1, len(moves)),
            "lag_max": max(lags, default=0.0), "catch_up": lags[-1] if lags else 0.0,
            "group_per_min_max": fake.max_in_window(chat, 60.0, methods=GROUP_METHODS)}
