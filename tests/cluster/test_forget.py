"""/forgetme with two `python -m bot` processes on one PostgreSQL database (Telegram).

Process one drives two tables; Alice's /forgetme reaches process two. At one table she
had left already (process one's copy still remembered her on the seat a bot took over);
at the other she still plays. Her forget must reach process one before she is told it
is done: its table messages stop showing her name at once, though nothing else happens
at the tables, and when the games end process one writes nothing of her back. Each
update goes to the process the test names, as a reverse proxy could send it.
"""

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import asyncpg
import pytest
from aiohttp import web

from bot.i18n import t
from bot.render import decode_payload
from tests.cluster.test_cluster import free_port, until
from tests.db.conftest import POSTGRES_URL, postgres_schema
from tests.fakes.telegram_api import FakeTelegram, FakeUser

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "7712345678:AAHkQ9xZ3v_w-Lr8TqPnYb2mC4dE6fG7hJk"
SECRET = "forget-test-secret"
NAME = "Quokkazyx"
pytestmark = pytest.mark.timeout(240)


class Router:
    """The webhook both processes register: each update goes to `target`."""

    def __init__(self, backends: list[str]) -> None:
        self.backends = backends
        self.target = 0
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
        try:
            async with self._session.post(self.backends[self.target], data=body,
                                           headers=headers) as answer:
                return web.Response(status=answer.status)
        except (aiohttp.ClientError, TimeoutError):
            return web.Response(status=502)  # Telegram sends it again


@contextlib.asynccontextmanager
async def two_processes(fake: FakeTelegram, schema: str, tmp_path: Path
                        ) -> AsyncIterator[tuple[list[asyncio.subprocess.Process], Router]]:
    ports = [free_port() for _ in range(2)]
    router = Router([f"http://127.0.0.1:{port}/tg" for port in ports])
    await router.start()
    procs = []
    logs = []
    try:
        for n, port in enumerate(ports):
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith(("DISCORD_", "TELEGRAM_"))}
            env.update(
                TELEGRAM_TOKEN=TOKEN, TELEGRAM_API_URL=f"{fake.url}/via/p{n}",
                TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{router.port}/tg",
                TELEGRAM_WEBHOOK_PORT=str(port), TELEGRAM_WEBHOOK_SECRET=SECRET,
                DATABASE_URL=f"{POSTGRES_URL}?search_path={schema}",
                REGISTER_COMMANDS="true" if n == 0 else "false",
                PYTHONPATH=str(ROOT), NO_PROXY="127.0.0.1,localhost", BOT_DELAY="0.05",
                PING_DELAY="0", CLUSTER_POLL="1", DEFAULT_LANG="en",
                LOG_LEVEL=os.environ.get("TAPIS_CLUSTER_LOG", "WARNING"))
            log = open(tmp_path / f"p{n}.log", "wb")  # noqa: SIM115 (closed after the process)
            logs.append(log)
            procs.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=log, stderr=log))
        yield procs, router
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 30)
            if proc.returncode is None:
                proc.kill()
        await router.stop()
        for log in logs:
            log.close()


async def serving(url: str, timeout: float = 30) -> None:
    port = int(url.rsplit(":", 1)[1].split("/", 1)[0])
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            assert asyncio.get_running_loop().time() < deadline, f"{url} not served"
            await asyncio.sleep(0.2)
            continue
        writer.close()
        return


def table_text(fake: FakeTelegram, group: int) -> str:
    """The group's table message as its members see it now."""
    return next((m.text for m in reversed(fake.chat(group).bot_messages)
                 if "Ochs & Esel —" in (m.text or "")), "")


def last_moves(fake: FakeTelegram, group: int) -> str:
    """The lines of the table message that tell its last moves."""
    text = table_text(fake, group)
    return text.split("Last moves:", 1)[1] if "Last moves:" in text else ""


async def play_until_moved(fake: FakeTelegram, db: asyncpg.Connection, table_id: int,
                           people: list[FakeUser], mover: FakeUser | None) -> None:
    """Whoever of `people` is to play presses their first move button (in their private
    chat) until `mover` has played, then until the table waits for a person again; with
    no `mover`, until the game is over."""
    moved = False
    for _ in range(400):
        version, status = await db.fetchrow("SELECT version, status FROM tables WHERE id = $1",
                                            table_id)
        if mover is None and status == "finished":
            return
        pressable = []
        for person in people:
            for hand in fake.chat(person.id).bot_messages:
                moves = [b["callback_data"] for b in hand.buttons if (d := decode_payload(
                    b.get("callback_data", ""))) and d.table_id == table_id
                    and d.version == version and d.action.startswith("m:")]
                if moves:
                    pressable.append((person, hand, moves[0]))
        if pressable and moved:
            return
        if pressable:
            person, hand, data = pressable[0]
            fake.press(person.id, hand.message_id, person, data)
            await until(db, "SELECT version > $2 FROM tables WHERE id = $1", True, 20,
                        table_id, version)
            moved = moved or person is mover
        else:
            await asyncio.sleep(0.2)
    raise AssertionError(f"{mover.first_name} never played" if mover else "no end")


async def open_table(fake: FakeTelegram, db: asyncpg.Connection, group: int,
                     host: FakeUser, guest: FakeUser) -> int:
    fake.add_chat(group, "supergroup", title=f"Table {group}")
    fake.send_command(group, host, "/newgame ochs-esel rounds=1 deadline=off")
    query = "SELECT COUNT(*) FROM tables WHERE channel = $1 AND status = 'lobby'"
    await until(db, query, 1, 30, str(group))
    fake.send_command(group, guest, "/join")
    fake.send_command(group, host, "/addbot")
    await until(db, "SELECT COUNT(*) FROM seats s JOIN tables t ON t.id = s.table_id"
                " WHERE t.channel = $1", 3, 30, str(group))
    fake.send_command(group, host, "/start")
    await until(db, "SELECT COUNT(*) FROM tables WHERE channel = $1 AND status = 'playing'",
                1, 30, str(group))
    return int(await db.fetchval("SELECT id FROM tables WHERE channel = $1", str(group)))


async def test_a_forget_reaches_the_driving_process_before_it_is_done(tmp_path: Path) -> None:
    async with contextlib.AsyncExitStack() as stack:
        schema = await stack.enter_async_context(postgres_schema())
        fake = await stack.enter_async_context(FakeTelegram(token=TOKEN, pace=0.2))
        db = await asyncpg.connect(POSTGRES_URL, server_settings={"search_path": schema})
        stack.push_async_callback(db.close)
        procs, router = await stack.enter_async_context(two_processes(fake, schema, tmp_path))
        await until(db, "SELECT COUNT(*) FROM pg_catalog.pg_tables"
                    " WHERE schemaname = $1 AND tablename = 'workers'", 1, 60, schema)
        await until(db, "SELECT COUNT(*) FROM workers", 2, 60)
        await fake.wait_for(lambda: fake.webhook is not None, timeout=30)
        for backend in router.backends:  # both serve their webhook port
            await serving(backend)
        alice, bob = fake.user(101, NAME), fake.user(102, "Bob")
        for person in (alice, bob):
            fake.start_bot(person)

        router.target = 0
        left_at = await open_table(fake, db, -1001, alice, bob)
        plays_at = await open_table(fake, db, -1002, alice, bob)
        # The two processes share the tables out between them: whichever drives the table
        # she leaves takes everything at the tables; her forget goes to the other one.
        driver = await db.fetchval(
            "SELECT w.name FROM tables AS t JOIN workers AS w ON w.id = t.driver"
            " WHERE t.id = $1", left_at)
        drives = next(i for i, proc in enumerate(procs) if f":{proc.pid}:" in driver)
        router.target = drives
        for table_id in (left_at, plays_at):
            await play_until_moved(fake, db, table_id, [alice, bob], alice)
        # Her move is among the last lines of both tables.
        await fake.wait_for(lambda: NAME in last_moves(fake, -1001)
                            and NAME in last_moves(fake, -1002), timeout=20)
        fake.send_command(-1001, alice, "/leave")
        await until(db, "SELECT COUNT(*) FROM seats WHERE table_id = $1"
                    " AND former_user_id = $2", 1, 20, left_at, str(alice.id))
        await asyncio.sleep(2)  # the bot on her seat plays until it is Bob's turn

        router.target = 1 - drives  # her forget reaches the process not driving that table
        fake.send_command(alice.id, alice, "/forgetme", chat_type="private")
        question = await fake.wait_for(lambda: next(
            (m for m in fake.chat(alice.id).bot_messages
             if t("en", "btn_forget") in m.button_texts), None), timeout=20)
        fake.press_button(alice.id, question.message_id, alice, t("en", "btn_forget"))
        done = t("en", "forget_done")
        await fake.wait_for(lambda: any(done in json.dumps(c.params, ensure_ascii=False)
                                        for c in fake.calls if c.sender == f"p{1 - drives}"),
                                timeout=30)

        # Told before she was: both tables were drawn again, though no one moved.
        await fake.wait_for(lambda: NAME not in table_text(fake, -1001)
                            and NAME not in table_text(fake, -1002), timeout=10)
        assert t("en", "former_player") in table_text(fake, -1001)
        router.target = drives
        # Bob plays both games to their end with the bots, at the driver: nothing but
        # moves (no seat changes there, which would make it read the tables again).
        for table_id in (left_at, plays_at):
            await play_until_moved(fake, db, table_id, [bob], None)
        await asyncio.sleep(1)  # what process one would still write, written

        her = str(alice.id)
        traces = await db.fetchval(
            "SELECT (SELECT COUNT(*) FROM seats WHERE user_id = $1 OR former_user_id = $1)"
            " + (SELECT COUNT(*) FROM results WHERE user_id = $1 OR name = $2)"
            " + (SELECT COUNT(*) FROM tables WHERE host = $1 OR strpos(settings, $3) > 0)"
            " + (SELECT COUNT(*) FROM user_settings WHERE user_id = $1)",
            her, NAME, json.dumps(her))
        assert traces == 0
        for group in (-1001, -1002):
            assert NAME not in table_text(fake, group)
