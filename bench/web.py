"""The web page's live pushes under load: 1,000 open pages watching 100 tables while
people play 100 moves a second.

Run from the project root: `python bench/web.py [--pages 1000] [--seconds 10] [--json]`.

- push_p50_ms / push_p99_ms: from a move's commit (the moment the web server is told the
  table changed, right after the move's transaction) to its frame handed to the socket of
  each page that shows the table (10 pages a table: spectators, the public view), at 100
  moves a second round robin over the tables.
- rss_kb_per_page: the server process's resident memory with the pages open, less before,
  per page (the pages' own side runs in a child process).
- press_p99_ms with and without the pages, and their ratio: a move played through
  `Tables.play` (authority, apply, commit, deliveries), from its scheduled arrival to its
  reply (time waiting for the event loop included); the target is a ratio under 1.2.
  Both are measured in the same run, in alternating phases of `--phase` seconds, the same
  moves at the same rate: "with" the 1,000 pages are told of every change and sent it;
  "without" the same sockets stay open but no page is told (so nothing is drawn or sent),
  as if no page were open. Alternating keeps a busy neighbour's load on both sides.

With `--json` the last line is one JSON object with these figures.
"""

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from adapters.web.auth import Person, Signer
from adapters.web.server import COOKIE, Page, WebServer
from bot.live import Actor, Live
from bot.settings import Settings
from bot.tables import Tables
from bot.web_view import Watchers
from db.sqlite import SqliteRepository
from tests.fakes.null_sink import NullSink

ORIGIN = "https://bench.example"
TABLES = 100
RATE = 100.0


class Timed(Watchers):
    """Notes when each table's change was first told: the move's commit, as pages see it."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: Tables | None = None
        self.told: dict[tuple[int, int], float] = {}
        self.muted = False

    def changed(self, table_id: int | None) -> None:
        if self.muted:  # the phases "without pages": no page hears of anything
            return
        if table_id is not None and self.tables is not None:
            table = self.tables.in_memory(table_id)
            if table is not None:
                self.told.setdefault((table_id, table.live.row.version), time.perf_counter())
        super().changed(table_id)


class TimedServer(WebServer):
    def __init__(self, *args: Any, timed: Timed, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timed = timed
        self.pushes: list[float] = []
        self.measuring = False

    async def _frame(self, page: Page, read: dict[tuple[str, int], Live | None] | None = None
                     ) -> tuple[tuple[object, ...], str] | None:
        drawn = await super()._frame(page, read)
        if drawn is not None and self.measuring and drawn[0] != page.last:  # to be sent
            key = drawn[0]
            told = self.timed.told.get((int(key[1]), int(key[2])))  # type: ignore[call-overload]
            if told is not None:
                # Sent once this returns: the send itself is queued on the socket.
                self.pushes.append(time.perf_counter() - told)
        return drawn


def rss_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


async def setup(directory: Path) -> tuple[Tables, Timed, list[tuple[int, str]]]:
    repo = SqliteRepository(directory / "web.db")
    await repo.open()
    timed = Timed()
    settings = Settings(_env_file=None, turn_deadline=0)  # type: ignore[call-arg]
    tables = Tables(repo, NullSink(), platform="telegram", settings=settings)
    timed.tables = tables
    await tables.start(run_scheduler=True)
    made = []
    for i in range(TABLES):
        people = [Actor(f"p{i}-{s}", f"P{s}") for s in range(4)]
        reply = await tables.new_game(people[0], f"c{i}", "ochs-esel", ["rounds=20"])
        for person in people[1:]:
            await tables.join(person, f"c{i}")
        await tables.start_game(people[0], f"c{i}")
        made.append((reply.table_id or 0, await tables.ref(reply.table_id or 0)))
    await tables.settle()
    return tables, timed, made


async def drive(tables: Tables, made: list[tuple[int, str]], seconds: float,
                first: int = 0) -> list[float]:
    """100 moves a second, round robin from table `first`, each its own task: the press
    latency of each."""
    latencies: list[float] = []
    start = time.perf_counter()
    tasks = []

    async def one(table_id: int, due: float) -> None:
        live = await tables.live_table(table_id)
        if live is None or live.state is None or live.game.outcome(live.state) is not None:
            return
        seat = live.game.to_act(live.state)[0]
        move = str(live.game.legal_moves(live.state, seat)[0])
        person = live.seats[seat]
        reply = await tables.play(Actor(person.user_id, person.name), live.row.channel, move)
        if reply.ok:
            latencies.append(time.perf_counter() - due)

    n = 0
    while (now := time.perf_counter()) - start < seconds:
        due = start + n / RATE
        if due > now:
            await asyncio.sleep(due - now)
        tasks.append(asyncio.create_task(one(made[(first + n) % len(made)][0], due)))
        n += 1
    await asyncio.gather(*tasks)
    return latencies


def p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def clients(port: int, plan: Path) -> None:
    """The pages' side, in a child process: open every socket, then read what comes."""
    pages = json.loads(plan.read_text())
    # No bound on connections: aiohttp's default (100) would hold the 101st page for ever.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        sockets = []
        for ref, cookie in pages:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers={
                "Origin": ORIGIN, "Cookie": f"{COOKIE}={cookie}"})
            await ws.send_json({"type": "open", "ref": ref})
            sockets.append(ws)
        print("open", flush=True)

        async def read(ws: aiohttp.ClientWebSocketResponse) -> None:
            async for _ in ws:
                pass

        await asyncio.gather(*(read(ws) for ws in sockets))


async def main(pages: int, seconds: float, phase: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/var/tmp")) as tmp:
        tables, timed, made = await setup(Path(tmp))

        async def member(person: Person, table_id: int) -> bool:
            return True

        server = TimedServer({"telegram": tables}, timed, Signer(b"b" * 32),
                             public_url=ORIGIN, is_member=member, timed=timed)
        port = await server.start("127.0.0.1", 0)
        await drive(tables, made, 1.0)  # warm: every table loaded, its first moves made
        without: list[float] = []
        with_pages: list[float] = []
        plan = Path(tmp) / "pages.json"
        plan.write_text(json.dumps([
            (made[i % len(made)][1], server.signer.session(
                Person("telegram", f"w{i}", "Watcher"), time.time())) for i in range(pages)]))
        before = rss_kb()
        child = subprocess.Popen([sys.executable, __file__, "--clients", str(port), str(plan)],
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            await asyncio.get_running_loop().run_in_executor(None, child.stdout.readline)
            while sum(1 for page in server.pages if page.last) < pages:
                await asyncio.sleep(0.1)
            per_page = (rss_kb() - before) / pages
            moved = 0
            for turn in range(max(1, round(seconds / phase))):
                for pushing in ((False, True) if turn % 2 else (True, False)):
                    timed.muted = not pushing
                    server.measuring = pushing
                    # Each phase carries the round robin on from the last one's.
                    (with_pages if pushing else without).extend(
                        await drive(tables, made, phase, moved))
                    moved += round(phase * RATE)
                    server.measuring = False
                    timed.muted = False
                    await asyncio.sleep(0.05)  # the last phase's pushes are out
        finally:
            child.terminate()
            child.wait()
            await server.close()
            await tables.close()
            with contextlib.suppress(Exception):
                await tables.repo.close()
    return {"push_p50_ms": p(server.pushes, 0.5), "push_p99_ms": p(server.pushes, 0.99),
            "pushes": float(len(server.pushes)), "rss_kb_per_page": per_page,
            "press_p99_ms_without_pages": p(without, 0.99),
            "press_p99_ms_with_pages": p(with_pages, 0.99),
            "press_p99_ratio_with_pages": p(with_pages, 0.99) / p(without, 0.99)}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--clients"]:
        asyncio.run(clients(int(sys.argv[2]), Path(sys.argv[3])))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--phase", type=float, default=0.5,
                        help="seconds of each alternating phase, with and without pages")
    parser.add_argument("--json", action="store_true", help="last line: one JSON object")
    arguments = parser.parse_args()
    result = asyncio.run(main(arguments.pages, arguments.seconds, arguments.phase))
    for name, value in result.items():
        print(f"{name}: {value:.3f}")
    if arguments.json:
        print(json.dumps({k: round(v, 3) for k, v in result.items()}))
