"""Several table services on one PostgreSQL database: moves a second with 1, 2 and 3
processes, version conflicts as a share of moves, and the takeover time after a kill.

Run from the project root: `python bench/cluster.py [--tables 1000] [--seconds 15]
[--json]`. PostgreSQL comes from TAPIS_TEST_POSTGRES_URL (default: the local trust-auth
server, database `test`); each run uses a schema of its own, dropped afterwards.

For each process count N, a fresh schema gets `--tables` started tables of bot players
(the mix of `bench/service.py`, 20 moves into their game, `bot_delay=0`, no deadlines),
then N child processes (`python bench/cluster.py --child`) each run `Tables` on it: they
join as workers, share the tables out, and play. After the shares have settled (5 s),
each counts the moves it commits over `--seconds` and the moves the database refused for a
stale version (`VersionConflict`). Figures:

- moves/s: all processes' committed moves over the measured window, added up;
- conflicts: refused moves / committed moves, all processes;
- takeover (3 processes only, after the window): one child is SIGKILLed; the time from the
  kill until no open table names it as driver any more (another process drives each),
  and until each of those tables has committed a move since (play has resumed there).

What each process does per move is the service's whole work (load, bot choice, apply,
commit with the deadline in the same transaction, rendering drawn by a sink that answers
at once). The processes share the machine's cores with PostgreSQL.
"""

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from service import MIX, DrawingSink, play_log

from bot.settings import Settings
from bot.tables import Table, Tables
from db.postgres import PostgresRepository
from db.repository import VersionConflict

URL = os.environ.get("TAPIS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
SETTLE = 5.0


def repository(schema: str) -> PostgresRepository:
    return PostgresRepository(URL, server_settings={"search_path": schema}, max_size=10)


async def populate(schema: str, count: int) -> None:
    repo = repository(schema)
    await repo.open()  # migrations: the real schema
    await repo.close()
    db = await asyncpg.connect(URL, server_settings={"search_path": schema})
    try:
        logs: dict[int, tuple[list[tuple[int, str]], str, list[int]]] = {}
        now = time.time()
        async with db.transaction():
            for i in range(count):
                game_id, seats, options = MIX[i % len(MIX)]
                seed = 10_000 + i % 200
                if seed not in logs:
                    logs[seed] = play_log(game_id, seats, options, seed, 20)
                log, snapshot, _ = logs[seed]
                settings = {"title": f"bench {i}", "bots": "easy", "deadline": 0,
                            "bot_delay": 0}
                table_id = await db.fetchval(
                    "INSERT INTO tables (platform, channel, game, options, settings, seed,"
                    " status, host, version, snapshot, created_at, updated_at) VALUES"
                    " ('bench', $1, $2, $3, $4, $5, 'playing', $6, $7, $8, $9, $9)"
                    " RETURNING id", f"c{i}", game_id, json.dumps(options),
                    json.dumps(settings), seed, f"h{i}", len(log), snapshot, now)
                await db.executemany(
                    "INSERT INTO seats (table_id, seat, user_id, name, is_bot)"
                    " VALUES ($1, $2, NULL, $3, true)",
                    [(table_id, s, f"Bot {s}") for s in range(seats)])
                await db.executemany(
                    "INSERT INTO moves (table_id, seq, seat, move, actor, created_at)"
                    " VALUES ($1, $2, $3, $4, 'bot', $5)",
                    [(table_id, n + 1, seat, move, now) for n, (seat, move) in
                     enumerate(log)])
    finally:
        await db.close()


def counted_table(counted: "Counted") -> type[Table]:
    """Tables that count their moves and version conflicts on `counted` (a table knows
    only its host, not the `Tables` that made it)."""

    class CountedTable(Table):
        __slots__ = ()

        async def commit(self, seat: int, move: Any, actor_kind: str) -> list[Any]:
            try:
                events = await super().commit(seat, move, actor_kind)
            except VersionConflict:
                counted.conflicts += 1
                raise
            counted.committed += 1
            return events

    return CountedTable


class Counted(Tables):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table_type = counted_table(self)
        self.committed = 0
        self.conflicts = 0


async def child(schema: str, seconds: float) -> dict[str, Any]:
    repo = repository(schema)
    await repo.open()
    settings = Settings(_env_file=None, bot_delay=0, turn_deadline=0, cluster_poll=1.0)
    tables = Counted(repo, DrawingSink(latency=0.0), platform="bench", settings=settings)
    await tables.start()
    try:
        await asyncio.sleep(SETTLE)
        moves, conflicts = tables.committed, tables.conflicts
        started = time.perf_counter()
        print("measuring", flush=True)
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - started
        driven = len(tables.driving.driven) if tables.driving else 0
        result = {"moves": tables.committed - moves, "conflicts": tables.conflicts - conflicts,
                  "seconds": elapsed, "driven": driven}
        print(json.dumps(result), flush=True)
        await asyncio.sleep(3600)  # until killed or stopped: the takeover is measured on it
    finally:
        await tables.close()
        await repo.close()
    return result


async def run(processes: int, count: int, seconds: float, takeover: bool
              ) -> dict[str, Any]:
    schema = f"tapis_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(URL)
    await admin.execute(f"CREATE SCHEMA {schema}")
    children: list[subprocess.Popen[str]] = []
    try:
        await populate(schema, count)
        for _ in range(processes):
            children.append(subprocess.Popen(
                [sys.executable, __file__, "--child", schema, str(seconds)],
                stdout=subprocess.PIPE, text=True))
        results = []
        loop = asyncio.get_running_loop()
        for proc in children:
            assert proc.stdout is not None
            while True:
                line = await loop.run_in_executor(None, proc.stdout.readline)
                if not line:
                    raise RuntimeError("a child stopped early")
                if line.startswith("{"):
                    results.append(json.loads(line))
                    break
        moves = sum(r["moves"] for r in results)
        conflicts = sum(r["conflicts"] for r in results)
        rate = sum(r["moves"] / r["seconds"] for r in results)
        figures: dict[str, Any] = {"processes": processes, "moves_per_s": rate,
                                   "conflict_share": conflicts / max(moves, 1),
                                   "driven": [r["driven"] for r in results]}
        if takeover:
            figures.update(await measure_takeover(schema, children[-1]))
        return figures
    finally:
        for proc in children:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in children:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(30)
            if proc.poll() is None:
                proc.kill()
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def measure_takeover(schema: str, victim: subprocess.Popen[str]) -> dict[str, float]:
    db = await asyncpg.connect(URL, server_settings={"search_path": schema})
    try:
        worker = await db.fetchval("SELECT id FROM workers WHERE name LIKE $1",
                                   f"%:{victim.pid}:bench")
        orphans = dict(await db.fetch(
            "SELECT id, version FROM tables WHERE driver = $1 AND status = 'playing'", worker))
        victim.send_signal(signal.SIGKILL)
        killed = time.perf_counter()
        claimed = moved = None
        while time.perf_counter() - killed < 60 and moved is None:
            if claimed is None and not await db.fetchval(
                    "SELECT COUNT(*) FROM tables WHERE driver = $1 AND status = 'playing'",
                    worker):
                claimed = time.perf_counter() - killed
            if claimed is not None:
                rows = await db.fetch("SELECT id, version, status FROM tables"
                                      " WHERE id = ANY($1::bigint[])", list(orphans))
                if all(r["version"] > orphans[r["id"]] or r["status"] != "playing"
                       for r in rows):
                    moved = time.perf_counter() - killed
            await asyncio.sleep(0.05)
        return {"orphaned_tables": len(orphans), "takeover_claimed_s": claimed or -1.0,
                "takeover_playing_s": moved or -1.0}
    finally:
        await db.close()


async def main(args: argparse.Namespace) -> list[dict[str, Any]]:
    print(f"cluster bench, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}, {args.tables:,} bot tables, {args.seconds:g} s windows")
    rows = []
    for processes in (1, 2, 3):
        figures = await run(processes, args.tables, args.seconds, takeover=processes == 3)
        rows.append(figures)
        line = (f"{processes} process{'es' if processes > 1 else ''}: "
                f"{figures['moves_per_s']:7,.0f} moves/s, version conflicts "
                f"{100 * figures['conflict_share']:.2f}% of moves, tables driven "
                f"{figures['driven']}")
        if "takeover_claimed_s" in figures:
            line += (f"; after a SIGKILL, its {figures['orphaned_tables']} tables driven again "
                     f"in {figures['takeover_claimed_s']:.1f} s, all moving again in "
                     f"{figures['takeover_playing_s']:.1f} s")
        print(line, flush=True)
    base = rows[0]["moves_per_s"]
    print("speed-up over one process: " + ", ".join(
        f"{r['processes']}: {r['moves_per_s'] / base:.2f}x" for r in rows))
    print(f"median conflict share {statistics.median(r['conflict_share'] for r in rows):.4f}")
    return rows


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        asyncio.run(child(sys.argv[2], float(sys.argv[3])))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--json", action="store_true", help="a JSON list on the last line")
    arguments = parser.parse_args()
    figures = asyncio.run(main(arguments))
    if arguments.json:
        print(json.dumps(figures))
