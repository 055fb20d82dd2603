"""Three `python -m bot` processes lose PostgreSQL for 10 seconds and must come back alone.

The processes of tests/cluster/test_cluster.py (Telegram behind one webhook, Discord on
three shards) reach PostgreSQL through a TCP proxy of the test's own (tests/tcp_cut.py),
never the server itself. A move is made at every table and, while its deliveries are on
their way under the platforms' limits, the proxy closes every connection and refuses new
ones for 10 seconds, as a PostgreSQL restart or a network cut does; then it lets them
through again.

Checked afterwards: every process joined again and every open table had a live driver
within 10 seconds of the return; every table and hand message shows its table's stored
version (its buttons are of that version: what a press of it would be checked against)
and each Telegram hand the cards the stored game gives its seat;
no delivery was given up; after the return each message was edited by one process at a
time (no message went back to a process it had left); the games play on and finish, each
snapshot equal to the replay of its move log; each process ends within a few seconds of
SIGTERM.
"""

import asyncio
import contextlib
import json
import os
import signal
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlparse

import asyncpg
import pytest

from bot import renderers
from bot.render import decode_payload
from db.postgres import DRIVER_LOCK_SPACE
from engine import games
from tests.cluster.test_cluster import PROCESSES, TOKEN, DiscordWorld, cluster, until
from tests.db.conftest import POSTGRES_URL, postgres_schema
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram, FakeUser
from tests.tcp_cut import TcpCut

TABLES = int(os.environ.get("TAPIS_OUTAGE_TABLES", "15"))
DISCORD_TABLES = PROCESSES  # one per shard
ALL = TABLES + DISCORD_TABLES
OUTAGE = 10.0
PHASE = 60.0
pytestmark = pytest.mark.timeout(420)

_LIVE = f"""SELECT w.id FROM workers w JOIN pg_locks l
  ON l.locktype = 'advisory' AND l.classid = {DRIVER_LOCK_SPACE} AND l.objsubid = 2
 AND l.objid = w.lock_key::oid AND l.granted
 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"""
LIVE_WORKERS = f"SELECT COUNT(*) FROM ({_LIVE}) live"
NO_LIVE_DRIVER = (f"SELECT COUNT(*) FROM tables WHERE status IN ('lobby', 'playing')"
                  f" AND (driver IS NULL OR driver NOT IN ({_LIVE}))")


def via_proxy(port: int) -> str:
    """POSTGRES_URL with the proxy's address in place of the server's."""
    url = urlparse(POSTGRES_URL)
    credentials = url.netloc.rsplit("@", 1)[0] + "@" if "@" in url.netloc else ""
    return url._replace(netloc=f"{credentials}127.0.0.1:{port}").geturl()


class Screens:
    """What the players see of each table: its table message and its hands, found by the
    references the processes stored."""

    def __init__(self, db: asyncpg.Connection, fake: FakeTelegram, discord: FakeDiscord
                 ) -> None:
        self.db, self.fake, self.discord = db, fake, discord
        self.hands_read = 0  # Telegram hands whose cards the last look compared

    def _payloads(self, platform: str, chat: str, message_id: str) -> list[str]:
        if platform == "telegram":
            message = self.fake.chat(int(chat)).message(int(message_id))
            return [b.get("callback_data", "") for b in message.buttons]
        return self.discord.message(int(message_id)).custom_ids()

    async def stale(self) -> list[str]:
        """Each message that does not show its table's stored version, and each table
        without a table message."""
        # Hands of the people still seated (one who left keeps the hand they last saw).
        rows = await self.db.fetch(
            "SELECT t.id, t.platform, t.version, t.game, t.snapshot, m.key, m.chat,"
            " m.message_id FROM tables t"
            " LEFT JOIN messages m ON m.table_id = t.id AND (m.key = 'table' OR EXISTS ("
            " SELECT 1 FROM seats s WHERE s.table_id = t.id AND NOT s.is_bot"
            " AND m.key = 'hand:' || s.seat AND s.user_id = (m.extra::json ->> 'user')))"
            " ORDER BY t.id, m.key")
        tables = {row["id"] for row in rows}
        drawn = {row["id"] for row in rows if row["key"] == "table"}
        stale = [f"table {t}: no table message" for t in sorted(tables - drawn)]
        self.hands_read = 0
        for row in rows:
            if row["key"] is None:
                continue
            payloads = self._payloads(row["platform"], row["chat"], row["message_id"])
            versions = {p.version for d in payloads if (p := decode_payload(d))}
            # A table message always has a button (a hand's has none while it waits).
            if versions - {row["version"]} or (row["key"] == "table" and not versions):
                stale.append(f"table {row['id']} {row['key']}: shows {sorted(versions)},"
                             f" stored {row['version']}")
            elif row["key"] != "table" and row["platform"] == "telegram" and row["snapshot"]:
                # The cards the stored game gives the seat, as the player reads them.
                game = games.get(row["game"])
                view = game.view(game.load(row["snapshot"]), int(row["key"].split(":")[1]))
                cards = renderers.for_game(row["game"]).hand_lines(view, "en")[0]
                text = self.fake.chat(int(row["chat"])).message(int(row["message_id"])).text
                self.hands_read += 1
                if cards not in text:
                    stale.append(f"table {row['id']} {row['key']}: shows {text!r},"
                                 f" stored {cards!r}")
        return stale

    async def current(self, timeout: float) -> None:
        started = time.monotonic()
        while stale := await self.stale():
            assert time.monotonic() - started < timeout, stale[:10]
            await asyncio.sleep(0.5)

    async def move_everywhere(self, people: list[FakeUser], world: DiscordWorld) -> None:
        """A move at every Telegram table (whose bot may be about to move first) and at
        every Discord table where a person is to move."""
        await world.press_hands(self.db)
        pressed: set[int] = set()
        started = time.monotonic()
        while len(pressed) < TABLES:
            pressed |= await self.press_moves(people, skip=pressed)
            assert time.monotonic() - started < 20, f"moves at {len(pressed)} tables only"
            await asyncio.sleep(0.2)

    async def press_moves(self, people: list[FakeUser], skip: set[int] | None = None
                          ) -> set[int]:
        """Every person on Telegram whose hand shows moves of the stored version presses
        one (a pass when they may) in their chat with the bot: the tables pressed at."""
        versions = {row["id"]: row["version"] for row in await self.db.fetch(
            "SELECT id, version FROM tables WHERE status = 'playing'")}
        hands = await self.db.fetch(
            "SELECT table_id, chat, message_id, extra FROM messages"
            " WHERE key LIKE 'hand:%' AND table_id IN (SELECT id FROM tables"
            " WHERE platform = 'telegram' AND status = 'playing')")
        by_id = {person.id: person for person in people}
        pressed: set[int] = set()
        for hand in hands:
            if hand["table_id"] in (skip or set()) | pressed:
                continue
            person = by_id.get(int(json.loads(hand["extra"]).get("user", 0)))
            if person is None:
                continue
            message = self.fake.chat(int(hand["chat"])).message(int(hand["message_id"]))
            moves = [d for b in message.buttons if (d := b.get("callback_data", ""))
                     and (p := decode_payload(d)) and p.version == versions.get(p.table_id)
                     and p.action.startswith("m:")]
            if moves:
                choice = next((d for d in moves if d.endswith(".m:pass")), moves[0])
                self.fake.press(message.chat_id, message.message_id, person, choice)
                pressed.add(hand["table_id"])
        return pressed


def alternating(senders: dict[object, list[str]]) -> dict[object, list[str]]:
    return {key: who for key, who in senders.items() if len(who) != len(set(who))}


def edits_since(fake: FakeTelegram, discord: FakeDiscord, since: float
                ) -> dict[object, list[str]]:
    """The processes that edited each message from `since` on, in order, runs of one
    process counted once."""
    senders: dict[object, list[str]] = defaultdict(list)

    def add(key: object, sender: str) -> None:
        if not senders[key] or senders[key][-1] != sender:
            senders[key].append(sender)

    for call in fake.calls:
        if call.method == "editMessageText" and call.ok and call.time >= since:
            add((call.params.get("chat_id"), call.params.get("message_id")), call.sender)
    for request in discord.requests:
        if (request.method == "PATCH" and request.status == 200 and request.at >= since
                and request.route == "/channels/{channel_id}/messages/{message_id}"):
            add(request.path.rsplit("/", 1)[1], request.sender)
    return senders


async def test_the_cluster_comes_back_after_a_database_outage(tmp_path: Path) -> None:
    async with contextlib.AsyncExitStack() as stack:
        schema = await stack.enter_async_context(postgres_schema())
        server = urlparse(POSTGRES_URL)
        cut = TcpCut(server.hostname or "127.0.0.1", server.port or 5432)
        await cut.start()
        stack.push_async_callback(cut.stop)
        fake = await stack.enter_async_context(FakeTelegram(token=TOKEN, pace=0.2))
        discord = FakeDiscord(pace=0.2)
        await discord.start()
        stack.push_async_callback(discord.close)
        world = DiscordWorld(discord, DISCORD_TABLES)
        db = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
        stack.push_async_callback(db.close)
        screens = Screens(db, fake, discord)
        # No turn deadline: the games wait for their people, so the screens can be
        # compared with the stored tables once everything is delivered.
        async with cluster(fake, discord, schema, tmp_path, database_url=via_proxy(cut.port),
                           settings={"TURN_DEADLINE": "0"}) as (procs, _proxy):
            await until(db, "SELECT COUNT(*) FROM pg_catalog.pg_tables"
                        " WHERE schemaname = $1 AND tablename = 'workers'", 1, 60, schema)
            await until(db, LIVE_WORKERS, 2 * PROCESSES, 60)
            await fake.wait_for(lambda: fake.webhook is not None, timeout=30)
            await discord.wait_for(lambda: len(discord.shard_connections()) == PROCESSES
                                   and discord.global_commands, timeout=60)
            groups = [-(10_000 + i) for i in range(TABLES)]
            hosts = [fake.user(100_000 + i, f"Host{i}") for i in range(TABLES)]
            guests = [fake.user(200_000 + i, f"Guest{i}") for i in range(TABLES)]
            for group in groups:
                fake.add_chat(group, "supergroup", title=f"Table {group}")
            for user in hosts + guests:
                fake.start_bot(user)
            for group, host in zip(groups, hosts, strict=True):
                fake.send_command(group, host, "/newgame ochs-esel rounds=1")
            await world.each("newgame", world.hosts, game="ochs-esel", options="rounds=1")
            await until(db, "SELECT COUNT(*) FROM tables WHERE status = 'lobby'", ALL, PHASE)
            for group, guest in zip(groups, guests, strict=True):
                fake.send_command(group, guest, "/join")
            for group, host in zip(groups, hosts, strict=True):
                fake.send_command(group, host, "/addbot")
            await world.each("join", world.guests)
            await world.each("addbot", world.hosts)
            await until(db, "SELECT COUNT(*) FROM (SELECT table_id FROM seats"
                        " GROUP BY table_id HAVING COUNT(*) = 3) full_tables", ALL, PHASE)
            for group, host in zip(groups, hosts, strict=True):
                fake.send_command(group, host, "/start")
            await world.each("start", world.hosts)
            await until(db, "SELECT COUNT(*) FROM tables WHERE status = 'playing'", ALL, PHASE)
            await screens.current(PHASE)
            people = hosts + guests

            # A move at every table, and the cut while its deliveries are on their way.
            await screens.move_everywhere(people, world)
            await asyncio.sleep(0.5)
            await cut.cut()
            await asyncio.sleep(OUTAGE / 2)
            await screens.press_moves(people)  # refused: the database is down
            await world.press_hands(db)
            await asyncio.sleep(OUTAGE / 2)
            await cut.restore()
            back = time.monotonic()

            # Every process joins again; every open table has a live driver.
            try:
                await until(db, LIVE_WORKERS, 2 * PROCESSES, 30)
                await until(db, NO_LIVE_DRIVER, 0, 30)
            except AssertionError as late:
                workers = [dict(r) for r in await db.fetch("SELECT * FROM workers")]
                raise AssertionError(f"not recovered: workers {workers}") from late
            recovered = time.monotonic() - back
            # Every screen shows the stored table once the deliveries are made.
            await screens.current(PHASE)
            assert screens.hands_read == 2 * TABLES  # a host's and a guest's at each
            # The games play on: a move everywhere, then the people leave to bots.
            await screens.move_everywhere(people, world)
            await asyncio.sleep(1)
            for group, host, guest in zip(groups, hosts, guests, strict=True):
                fake.send_command(group, host, "/leave")
                fake.send_command(group, guest, "/leave")
            await world.each("leave", world.hosts)
            await world.each("leave", world.guests)
            await until(db, "SELECT COUNT(*) FROM tables WHERE status = 'finished'",
                        ALL, 3 * PHASE)
            await screens.current(PHASE)
            # SIGTERM ends every process within a few seconds.
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            stopping = time.monotonic()
            await asyncio.wait_for(asyncio.gather(*(proc.wait() for proc in procs)), 30)
            stopped = time.monotonic() - stopping
        # Consistency: each snapshot is its log replayed.
        for row in await db.fetch("SELECT id, game, options, seed, snapshot FROM tables"):
            game = games.get(row["game"])
            seats = await db.fetchval("SELECT COUNT(*) FROM seats WHERE table_id = $1",
                                      row["id"])
            state = game.new_game(seats, json.loads(row["options"]), row["seed"])
            for move in await db.fetch("SELECT seat, move FROM moves WHERE table_id = $1"
                                       " ORDER BY seq", row["id"]):
                state, _ = game.apply(state, move["seat"],
                                      game.parse_move(state, move["seat"], move["move"]))
            assert game.dump(state) == row["snapshot"], row["id"]
    logs = "".join((tmp_path / f"p{n}.log").read_text(errors="replace")
                   for n in range(PROCESSES))
    assert "delivery given up" not in logs
    assert "joined again" in logs  # the processes did lose PostgreSQL
    # After the return, no message goes back to a process it had left.
    edits = edits_since(fake, discord, back)
    assert len(edits) >= ALL
    assert not alternating(edits), list(alternating(edits).items())[:5]
    print(f"recovered {recovered:.1f} s after the return; stopped {stopped:.1f} s"
          f" after SIGTERM")
    assert recovered < 10
    assert stopped < 10
