"""Three `python -m bot` processes on one PostgreSQL database, serving Telegram behind
one webhook and Discord on three shards, one shard each.

The topologies the README describes. Telegram: every process serves the webhook on its
own port, and a reverse proxy (here a small one in the test) spreads Telegram's updates
over them, so the commands of one table reach all three. Discord: process n holds shard
n of 3, so a guild's commands reach the process of its shard only, and every DM press
reaches shard 0's. Each process reaches the fake Bot API and the fake Discord under its
own name, which the fakes record with every call. One process is killed with SIGKILL
while the games are played; its tables must be taken over, those of its Discord shard
included (their guilds' commands then reach nobody: their players' turns run out and
bots finish their games, on timers the new drivers run).

Checked afterwards: every table's snapshot equals the replay of its move log; no join was
lost; every game reached its end; each message was edited by one process at a time; the
dead process's tables had a new driver within 10 seconds; commands were registered by
one process; each Discord table was driven by its shard's process while it lived.
"""

import asyncio
import contextlib
import itertools
import json
import os
import signal
import socket
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import asyncpg
import pytest
from aiohttp import web

from bot.render import decode_payload
from engine import games
from tests.db.conftest import POSTGRES_URL, postgres_schema
from tests.fakes.discord_api import FakeDiscord, FakeInteraction, FakeUser
from tests.fakes.telegram_api import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "7712345678:AAHkQ9xZ3v_w-Lr8TqPnYb2mC4dE6fG7hJk"
SECRET = "cluster-test-secret"
PROCESSES = 3
# For a quicker look while working on it: fewer tables, a shorter wait, DEBUG logs (the
# processes' logs are in the test's tmp_path).
# 300 tables: about 2.5 minutes on two shared cores, every command's answer paced by
# Telegram's limits as in production. PHASE: the longest wait for one step of all tables.
TABLES = int(os.environ.get("TAPIS_CLUSTER_TABLES", "300"))
DISCORD_TABLES = int(os.environ.get("TAPIS_CLUSTER_DISCORD_TABLES", "30"))
ALL = TABLES + DISCORD_TABLES
PHASE = max(60.0, 1.5 * ALL)
WAIT = float(os.environ.get("TAPIS_CLUSTER_WAIT", str(2 * PHASE)))
pytestmark = pytest.mark.timeout(int(5 * PHASE + WAIT + 60))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Proxy:
    """A reverse proxy as an operator would put in front of the processes: each update
    goes to the next backend in turn; a backend that does not answer is skipped."""

    def __init__(self, backends: list[str]) -> None:
        self.backends = backends
        self.down: set[str] = set()
        self._turn = itertools.count()
        self.forwarded: dict[str, int] = defaultdict(int)
        self.port = free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/tg", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")}
        assert self._session is not None
        for _ in range(len(self.backends)):
            backend = self.backends[next(self._turn) % len(self.backends)]
            if backend in self.down:
                continue
            try:
                async with self._session.post(backend, data=body, headers=headers) as answer:
                    self.forwarded[backend] += 1
                    return web.Response(status=answer.status)
            except aiohttp.ClientConnectorError:
                self.down.add(backend)  # refuses connections: gone, as a health check says
            except (aiohttp.ClientError, TimeoutError):
                continue  # busy or cut off: the next one; Telegram retries what fails
        return web.Response(status=502)


@contextlib.asynccontextmanager
async def cluster(fake: FakeTelegram, discord: FakeDiscord, schema: str, tmp_path: Path, *,
                  database_url: str = POSTGRES_URL, settings: dict[str, str] | None = None
                  ) -> AsyncIterator[tuple[list[asyncio.subprocess.Process], Proxy]]:
    """The processes, each with `settings` over the defaults here, on `database_url`."""
    ports = [free_port() for _ in range(PROCESSES)]
    proxy = Proxy([f"http://127.0.0.1:{port}/tg" for port in ports])
    await proxy.start()
    procs = []
    logs = []
    try:
        for n, port in enumerate(ports):
            env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
            env.update(
                DISCORD_TOKEN=discord.token, DISCORD_API_URL=discord.base_url_via(f"p{n}"),
                DISCORD_SHARD_COUNT=str(PROCESSES), DISCORD_SHARD_IDS=str(n),
                # A player whose commands reach no process (their guild's shard died)
                # leaves their seat to a bot at their first turn that runs out.
                TURN_DEADLINE="10", AFK_STRIKES="1",
                TELEGRAM_TOKEN=TOKEN, TELEGRAM_API_URL=f"{fake.url}/via/p{n}",
                TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{proxy.port}/tg",
                TELEGRAM_WEBHOOK_PORT=str(port), TELEGRAM_WEBHOOK_SECRET=SECRET,
                DATABASE_URL=f"{database_url}?search_path={schema}",
                REGISTER_COMMANDS="true" if n == 0 else "false",
                PYTHONPATH=str(ROOT), NO_PROXY="127.0.0.1,localhost", BOT_DELAY="0.05",
                PING_DELAY="0", CLUSTER_POLL="1",
                TELEGRAM_MESSAGES_PER_SECOND=str(25 / PROCESSES),
                LOG_LEVEL=os.environ.get("TAPIS_CLUSTER_LOG", "WARNING"))
            env.update(settings or {})
            log = open(tmp_path / f"p{n}.log", "wb")  # noqa: SIM115 (closed after the process)
            logs.append(log)
            procs.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=log, stderr=log))
        yield procs, proxy
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 30)
            if proc.returncode is None:
                proc.kill()
        await proxy.stop()
        for log in logs:
            log.close()


async def until(db: asyncpg.Connection, query: str, want: int, timeout: float,
                *args: object) -> float:
    started = time.monotonic()
    while True:
        got = await db.fetchval(query, *args)
        if got == want:
            return time.monotonic() - started
        assert time.monotonic() - started < timeout, f"{query}: {got}, not {want}"
        await asyncio.sleep(0.25)


class DiscordWorld:
    """Guilds spread evenly over the three shards, one table channel each, a host and a
    guest in each; what they do is sent as Discord would send it."""

    def __init__(self, fake: FakeDiscord, count: int = DISCORD_TABLES) -> None:
        self.fake = fake
        self.hosts = [fake.add_user(f"dhost{i}") for i in range(count)]
        self.guests = [fake.add_user(f"dguest{i}") for i in range(count)]
        self.shard = [i % PROCESSES for i in range(count)]
        self.channels = [fake.add_channel(fake.add_guild(
            f"Guild {i}", [self.hosts[i], self.guests[i]], shard=(self.shard[i], PROCESSES)),
            "cards") for i in range(count)]

    async def each(self, command: str, users: list[FakeUser], **options: str
                   ) -> list[FakeInteraction]:
        """`command` by users[i] in table channel i, for every i."""
        return [await self.fake.slash(command, user=user, channel=channel, options=options)
                for user, channel in zip(users, self.channels, strict=True)]

    async def press_hands(self, db: asyncpg.Connection) -> list[FakeInteraction]:
        """Every player who can move presses a move in the hand Discord shows them in
        their DM with the bot (passing when they may)."""
        versions = {row["channel"]: row["version"] for row in await db.fetch(
            "SELECT channel, version FROM tables WHERE platform = 'discord'"
            " AND status = 'playing'")}
        pressed = []
        for n, channel in enumerate(self.channels):
            version = versions.get(str(channel.id))
            for user in (self.hosts[n], self.guests[n]):
                hand = next((m for m in reversed(self.fake.dms(user)) if m.custom_ids()), None)
                if version is None or hand is None:
                    continue
                moves = [c for c in hand.custom_ids() if (d := decode_payload(c))
                         and d.version == version and d.action.startswith("m:")]
                if moves:
                    choice = next((c for c in moves if c.endswith(".m:pass")), moves[0])
                    pressed.append(await self.fake.click(hand, choice, user=user))
        return pressed


def edits_by_sender(fake: FakeDiscord) -> dict[str, list[str]]:
    """The processes that edited each message, in order, runs of one process counted once:
    the channel and DM messages edited by REST, and those a button press's answer edited
    (UPDATE_MESSAGE)."""
    senders: dict[str, list[str]] = defaultdict(list)
    for call in fake.requests:
        if call.status != 200 and call.status != 204:
            continue
        key = None
        if call.method == "PATCH" and call.route == "/channels/{channel_id}/messages/{message_id}":
            key = call.path.rsplit("/", 1)[1]
        elif call.route == "/interactions/{interaction_id}/{token}/callback" and isinstance(
                call.body, dict) and call.body.get("type") == 7:
            inter = fake.interactions[int(call.path.split("/")[2])]
            key = str(inter.message_id)
        if key is not None and (not senders[key] or senders[key][-1] != call.sender):
            senders[key].append(call.sender)
    return senders


async def test_three_processes_share_the_tables_and_survive_a_kill(tmp_path: Path) -> None:
    async with contextlib.AsyncExitStack() as stack:
        schema = await stack.enter_async_context(postgres_schema())
        fake = await stack.enter_async_context(FakeTelegram(token=TOKEN, pace=0.2))
        # A fifth of Discord's rate-limit windows, as for Telegram: the games' messages in
        # seconds rather than minutes, under the same rules.
        discord = FakeDiscord(pace=0.2)
        await discord.start()
        stack.push_async_callback(discord.close)
        world = DiscordWorld(discord)
        db = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
        stack.push_async_callback(db.close)
        async with cluster(fake, discord, schema, tmp_path) as (procs, proxy):
            await until(db, "SELECT COUNT(*) FROM pg_catalog.pg_tables"
                        " WHERE schemaname = $1 AND tablename = 'workers'", 1, 60, schema)
            await until(db, "SELECT COUNT(*) FROM workers", 2 * PROCESSES, 60)
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
            made = await world.each("newgame", world.hosts, game="ochs-esel", options="rounds=1")
            # Each guild's command reaches the process of its shard, and no other.
            assert [i.delivered_to for i in made] == [f"p{n}" for n in world.shard]
            open_tables = "SELECT COUNT(*) FROM tables WHERE status = 'lobby'"
            await until(db, open_tables, ALL, PHASE)
            for group, guest in zip(groups, guests, strict=True):
                fake.send_command(group, guest, "/join")
            for group, host in zip(groups, hosts, strict=True):
                fake.send_command(group, host, "/addbot")
            await world.each("join", world.guests)
            await world.each("addbot", world.hosts)
            seated = ("SELECT COUNT(*) FROM (SELECT table_id FROM seats GROUP BY table_id"
                      " HAVING COUNT(*) = 3) full_tables")
            await until(db, seated, ALL, PHASE)
            # Shares even out: a process that made many tables hands some to the others.
            await until(db, "SELECT COUNT(DISTINCT driver) FROM tables"
                        " WHERE platform = 'telegram'", PROCESSES, 30)
            # Each Discord table is driven by the process of its guild's shard.
            at_home = ("SELECT COUNT(*) FROM tables t JOIN channel_homes h"
                       " ON h.platform = t.platform AND h.channel = t.channel"
                       " JOIN workers w ON w.id = t.driver WHERE t.platform = 'discord'"
                       " AND ((h.home >> 22) % w.shard_count)::int = ANY(w.shard_ids)"
                       " AND t.status IN ('lobby', 'playing')")
            await until(db, at_home, DISCORD_TABLES, 30)
            for group, host in zip(groups, hosts, strict=True):
                fake.send_command(group, host, "/start")
            await world.each("start", world.hosts)
            try:
                await until(db, "SELECT COUNT(*) FROM tables WHERE status <> 'lobby'",
                            ALL, PHASE)
            except AssertionError as late:
                waiting = await db.fetch("SELECT id, channel FROM tables"
                                         " WHERE status = 'lobby' AND platform = 'telegram'"
                                         " LIMIT 3")
                said = {row["channel"]: [m.text[:80] for m in fake.chat(
                    int(row["channel"])).bot_messages[-4:]] for row in waiting}
                raise AssertionError(f"not started: {said}") from late
            # Hand presses come in DMs, which Discord sends to shard 0 alone: applied there
            # and shown by each table's driver.
            await discord.wait_for(lambda: all(discord.dms(u) for u in world.hosts),
                                   timeout=PHASE, what="the hands in DMs")
            pressed = await world.press_hands(db)
            assert pressed and {i.delivered_to for i in pressed} == {"p0"}
            # Kill one while the games are played; the people leave their seats to bots,
            # through whichever process the proxy picks (Telegram) or their shard's
            # (Discord, where the dead shard's guilds reach nobody).
            victim = procs[1]
            dead = [row["id"] for row in await db.fetch(
                "SELECT id FROM workers WHERE name LIKE $1", f"%:{victim.pid}:%")]
            assert len(dead) == 2
            victim.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            # Watched on a connection of its own while the players act.
            watcher = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
            stack.push_async_callback(watcher.close)
            moved_at: list[float] = []

            async def watch() -> None:
                try:
                    await until(watcher, "SELECT COUNT(*) FROM tables WHERE driver = ANY($1)"
                                " AND status IN ('lobby', 'playing')", 0, 30, dead)
                except AssertionError as late:
                    # What the live processes' shares were made of: the tables left over,
                    # their channel's home, and the workers.
                    left = await watcher.fetch(
                        "SELECT t.id, t.platform, t.status, t.version, t.driver, h.home"
                        " FROM tables t LEFT JOIN channel_homes h ON h.platform = t.platform"
                        " AND h.channel = t.channel WHERE t.driver = ANY($1)"
                        " AND t.status IN ('lobby', 'playing')", dead)
                    shares = await watcher.fetch(
                        "SELECT platform, driver, COUNT(*) FROM tables"
                        " WHERE status IN ('lobby', 'playing') GROUP BY platform, driver")
                    workers = await watcher.fetch("SELECT * FROM workers")
                    raise AssertionError(
                        f"not taken over: {[dict(r) for r in left]}; open tables per"
                        f" driver {[dict(r) for r in shares]}; workers"
                        f" {[dict(w) for w in workers]}") from late
                moved_at.append(time.monotonic())

            moved = asyncio.create_task(watch())
            for group, host, guest in zip(groups, hosts, guests, strict=True):
                fake.send_command(group, host, "/leave")
                fake.send_command(group, guest, "/leave")
            # Discord sees the dead process's connection drop (at once here: the system
            # closes its socket; Discord's own notice may take a heartbeat or two).
            await victim.wait()
            await discord.wait_for(lambda: (1, PROCESSES) not in discord.shard_connections(),
                                   timeout=30, what="shard 1's connection to drop")
            pressed_after = await world.press_hands(db)
            assert {i.delivered_to for i in pressed_after} <= {"p0"}
            left = await world.each("leave", world.hosts) + await world.each(
                "leave", world.guests)
            assert [i.delivered_to for i in left] == 2 * [
                None if n == 1 else f"p{n}" for n in world.shard]
            await moved
            takeover = moved_at[0] - killed
            try:
                await until(db, "SELECT COUNT(*) FROM tables WHERE status = 'finished'",
                            ALL, WAIT)
            except AssertionError as late:
                stuck = await db.fetch(
                    "SELECT t.id, t.platform, t.status, t.version, t.driver, t.settings,"
                    " array_agg(s.user_id || ':' || s.is_bot ORDER BY s.seat) AS seats"
                    " FROM tables t JOIN seats s ON s.table_id = t.id"
                    " WHERE t.status <> 'finished' GROUP BY t.id")
                workers = await db.fetch("SELECT * FROM workers")
                ids = [r["id"] for r in stuck]
                # What a stuck table's driver had to go on: its log, deadline and screens.
                trail = [dict(r) for query in (
                    "SELECT * FROM moves WHERE table_id = ANY($1) ORDER BY table_id, seq",
                    "SELECT * FROM deadlines WHERE table_id = ANY($1)",
                    "SELECT * FROM messages WHERE table_id = ANY($1)")
                    for r in await db.fetch(query, ids)]
                raise AssertionError(f"not finished: {[dict(r) for r in stuck]}; "
                                     f"workers {[dict(w) for w in workers]}, dead {dead}; "
                                     f"trail {trail}") from late
        # Consistency: each snapshot is its log replayed.
        for row in await db.fetch("SELECT id, game, options, seed, snapshot, version"
                                  " FROM tables"):
            game = games.get(row["game"])
            seats = await db.fetchval("SELECT COUNT(*) FROM seats WHERE table_id = $1",
                                      row["id"])
            state = game.new_game(seats, json.loads(row["options"]), row["seed"])
            moves = await db.fetch("SELECT seq, seat, move FROM moves WHERE table_id = $1"
                                   " ORDER BY seq", row["id"])
            for move in moves:
                state, _ = game.apply(state, move["seat"],
                                      game.parse_move(state, move["seat"], move["move"]))
            assert game.dump(state) == row["snapshot"], row["id"]
        # No join lost: both people of every table were seated (each left, or ran out of
        # time, and a bot took the seat over).
        people = await db.fetchval(
            "SELECT COUNT(*) FROM seats WHERE former_user_id IS NOT NULL OR NOT is_bot")
        assert people == 2 * ALL
        formers = await db.fetchval(
            "SELECT COUNT(*) FROM seats WHERE former_user_id IS NOT NULL")
        assert formers == 2 * ALL
    assert not fake.webhook_given_up, "updates the processes never took"
    assert discord.server_errors == [] and discord.unhandled == []
    # The commands were registered once, by the one process told to.
    assert {c.sender for c in fake.calls if c.method == "setMyCommands"} == {"p0"}
    assert {c.sender for c in discord.requests if c.method == "PUT"
            and c.route.startswith("/applications/")} == {"p0"}
    # One process at a time per message: the senders of its edits never alternate.
    senders: dict[tuple[object, object], list[str]] = defaultdict(list)
    for call in fake.calls:
        if call.method == "editMessageText" and call.ok:
            key = (call.params.get("chat_id"), call.params.get("message_id"))
            if not senders[key] or senders[key][-1] != call.sender:
                senders[key].append(call.sender)
    alternating = {k: v for k, v in senders.items() if len(v) != len(set(v))}
    assert not alternating, list(alternating.items())[:5]
    discord_edits = edits_by_sender(discord)
    assert len(discord_edits) >= DISCORD_TABLES  # each table message at least
    alternating_d = {k: v for k, v in discord_edits.items() if len(v) != len(set(v))}
    assert not alternating_d, list(alternating_d.items())[:5]
    print(f"takeover {takeover:.1f} s; "
          f"updates per process {dict(proxy.forwarded)}; Discord presses sent to no "
          f"process {len(discord.undelivered)}")
    assert takeover < 10
