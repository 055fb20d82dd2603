"""A table service on a real SQLite file, a fake clock and a sink that records deliveries."""

import itertools
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.authority import Press
from bot.clock import FakeClock
from bot.deliveries import (
    Announcement,
    ChannelGone,
    HandMessage,
    Notice,
    TableMessage,
    UserUnreachable,
)
from bot.live import Live
from bot.render import encode_payload
from bot.settings import Settings
from bot.tables import Actor, Reply, Tables
from db.repository import FINISHED, MessageRef, Repository
from db.sqlite import SqliteRepository
from tests.botplay import bot_move

ALICE = Actor("u1", "Alice")
BOB = Actor("u2", "Bob")
CAROL = Actor("u3", "Carol")
DAVE = Actor("u4", "Dave")
ADMIN = Actor("u9", "Mod", is_admin=True)
CHANNEL = "chan-1"


def person_at(live: Live, seat: int) -> Actor:
    """Which of Alice, Bob and Carol holds `seat`."""
    return next(a for a in (ALICE, BOB, CAROL) if a.user_id == live.seats[seat].user_id)


async def people_play(tables: Tables, live: Live, people: dict[str, Actor], *,
                      turns: int = 800) -> None:
    """At `live`'s table in CHANNEL, each of `people` (by user id) plays as the easy bot
    would, seeded by the table's version, whenever it is their turn (bots play their own),
    for `turns` turns or until the game is finished."""
    for _ in range(turns):
        await tables.settle()
        if live.row.status == FINISHED:
            return
        seat = live.game.to_act(live.state)[0]
        actor = people.get(live.seats[seat].user_id or "")
        if actor is not None:
            move = bot_move(live.game, live.state, seat, random.Random(live.row.version))
            assert (await tables.play(actor, CHANNEL, str(move))).ok


@dataclass
class RecordingSink:
    """What players would see: the latest table text, each hand, every announcement."""

    tables: dict[int, TableMessage] = field(default_factory=dict)
    hands: dict[tuple[int, str], HandMessage] = field(default_factory=dict)
    announcements: list[Announcement] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    calls: int = 0
    gone_channels: set[str] = field(default_factory=set)
    unreachable: set[str] = field(default_factory=set)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        self.calls += 1
        if msg.channel in self.gone_channels:
            raise ChannelGone(msg.channel)
        _ = msg.rendering  # drawn now, as a platform adapter draws it when it sends
        self.tables[msg.table_id] = msg
        return ref or MessageRef(key="table", chat=msg.channel, message_id=str(next(self._ids)))

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        self.calls += 1
        if msg.user_id in self.unreachable:
            raise UserUnreachable(msg.user_id)
        _ = msg.rendering  # drawn now, as a platform adapter draws it when it sends
        self.hands[(msg.table_id, msg.user_id)] = msg
        return ref or MessageRef(key=f"hand:{msg.seat}", chat=msg.user_id,
                                 message_id=str(next(self._ids)))

    async def announce(self, msg: Announcement) -> None:
        self.calls += 1
        if msg.channel in self.gone_channels:
            raise ChannelGone(msg.channel)
        self.announcements.append(msg)

    async def notify(self, msg: Notice) -> None:
        self.calls += 1
        self.notices.append(msg)

    def said(self, fragment: str) -> bool:
        return any(fragment in a.text for a in self.announcements)


class Harness:
    def __init__(self, path: Path, settings: Settings,
                 make_repo: Callable[[], Repository] | None = None) -> None:
        self.path = path
        # Another backend (PostgreSQL) in place of the SQLite file at `path`.
        self.make_repo = make_repo or (lambda: SqliteRepository(str(self.path)))
        self.settings = settings
        self.clock = FakeClock()
        self.sink = RecordingSink()
        self.repo: Repository | None = None
        self.tables: Tables | None = None
        self._seeds = itertools.count(1000)

    async def open(self) -> Tables:
        self.repo = self.make_repo()
        await self.repo.open()
        self.tables = Tables(self.repo, self.sink, platform="test", settings=self.settings,
                             clock=self.clock, seeds=lambda: next(self._seeds))
        await self.tables.start(run_scheduler=False)
        await self.tables.settle()
        self.repaired = self.tables.repaired
        return self.tables

    async def close(self) -> None:
        if self.tables is not None:
            await self.tables.close()
        if self.repo is not None:
            await self.repo.close()
        self.tables = self.repo = None

    async def restart(self) -> Tables:
        await self.close()
        return await self.open()

    async def payload(self, table_id: int, version: int, action: str) -> str:
        """The payload of a button the bot draws for that table."""
        assert self.tables is not None
        return encode_payload(await self.tables.ref(table_id), version, action)

    async def press(self, actor: Actor, table_id: int, version: int, action: str, *,
                    channel: str = CHANNEL, admin: bool = False) -> Reply:
        """`actor` presses a button of that table on a message in `channel`, where the
        platform says they are (or are not) an admin."""
        assert self.tables is not None

        async def is_admin() -> bool:
            return admin

        payload = await self.payload(table_id, version, action)
        return await self.tables.press(actor, Press(payload, channel, is_admin=is_admin))

    async def press_on_hand(self, actor: Actor, table_id: int, version: int, action: str
                            ) -> Reply:
        """`actor` presses a button of their own hand message, in their private chat."""
        assert self.tables is not None
        live = await self.tables.live_table(table_id)
        assert live is not None
        seat = live.seat_of(actor.user_id)
        assert seat is not None
        shown = self.tables.outbox.ref(table_id, f"hand:{seat.seat}")
        assert shown is not None, "no hand message was shown"
        payload = await self.payload(table_id, version, action)
        return await self.tables.press(actor, Press(payload, None, shown.message_id))

    async def press_on_hand_kept(self, actor: Actor, table_id: int, seat: int, version: int,
                                 action: str) -> Reply:
        """`actor` presses a button of the hand message they were shown for `seat`, which
        they may no longer play (a bot took it)."""
        assert self.tables is not None
        shown = self.tables.outbox.ref(table_id, f"hand:{seat}")
        assert shown is not None, "no hand message was shown"
        payload = await self.payload(table_id, version, action)
        return await self.tables.press(actor, Press(payload, None, shown.message_id))

    async def start_ochs(self, deadline: str = "deadline=off") -> Live:
        """Alice's Ochs & Esel table of two rounds with Bob and Carol, started and settled:
        the three-person game of the seat and deadline tests."""
        assert self.tables is not None
        await self.tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=2", deadline])
        await self.tables.join(BOB, CHANNEL)
        await self.tables.join(CAROL, CHANNEL)
        reply = await self.tables.start_game(ALICE, CHANNEL)
        await self.tables.settle()
        live = await self.tables.live_table(reply.table_id)
        assert live is not None
        return live

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        assert self.tables is not None
        await self.tables.settle()


@pytest.fixture
def settings() -> Settings:
    return Settings(_env_file=None, turn_deadline=300, bot_delay=0, ping_delay=0,
                    default_lang="en")


@pytest.fixture
async def harness(tmp_path: Path, settings: Settings) -> AsyncIterator[Harness]:
    h = Harness(tmp_path / "tapis.db", settings)
    await h.open()
    yield h
    await h.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def any_harness(request: pytest.FixtureRequest, tmp_path: Path,
                      settings: Settings) -> AsyncIterator[Harness]:
    """The same table service on a SQLite file, then on PostgreSQL (a schema of its own)."""
    if request.param == "sqlite":
        h = Harness(tmp_path / "tapis.db", settings)
        await h.open()
        yield h
        await h.close()
        return
    from tests.db.conftest import postgres_repository, postgres_schema

    async with postgres_schema() as schema:
        h = Harness(tmp_path / "unused.db", settings, lambda: postgres_repository(schema))
        await h.open()
        yield h
        await h.close()
