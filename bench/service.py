"""The table service on a real SQLite file: move rate, latency, memory and restart time.

Run from the project root: `python bench/service.py [--quick] [--dir /var/tmp]`.
The database goes in a fresh directory under --dir, which must be a real disk (not
/dev/shm): every commit is durable (WAL, synchronous=FULL), so the disk's fsync sets
the pace. Four measurements, targets beside them:

1. raw: the equivalent SQLite transaction with the standard sqlite3 module and the
   repository's pragmas (BEGIN IMMEDIATE; UPDATE the table row with a snapshot of the
   size the games really store; INSERT the move row; COMMIT), back to back.
2. service: 1,000 tables of bot players (bot_delay 0) played by `Tables` itself: its
   scheduler runs the bot jobs, each choosing, applying, committing through the
   repository, rendering and queueing deliveries for a null sink. Accepted moves/s
   over a fixed time, the ratio to (1), and per move the latency of the bot job from
   its start to its return, the move committed and the next job scheduled.
3. memory: resident memory before and after loading idle tables (humans to play, so
   they wait), with the default cache (Settings.cached_tables) and without eviction.
4. restart: 10,000 unfinished tables; `Tables.start()` alone (it only schedules a
   `resume` job per table), then the time for every resume job to run (load, verify
   against the move log, schedule the next bot move).
Tables for 3 and 4 are written straight into the file with sqlite3 (set-up, not
measured); 1 and 2 use the bot's own code paths.
"""

import argparse
import asyncio
import json
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.scheduler import Job
from bot.settings import Settings
from bot.tables import Tables
from db.sqlite import SqliteRepository
from engine import bots, games
from tests.fakes.null_sink import NullSink

# (game, seats, options): every game, its usual table sizes.
MIX: list[tuple[str, int, dict[str, Any]]] = [
    ("ochs-esel", 4, {"rounds": 5}),
    ("the-game", 3, {}),
    ("nix-fur-ungut", 4, {"rounds": 4}),
    ("michigan", 5, {}),
]
TARGET_RATIO = 0.25
TARGET_P99_MS = 10.0
TARGET_KB_PER_IDLE_TABLE = 50.0
TARGET_RESUME_S = 5.0


class TimedTables(Tables):
    """Times every bot job that commits a move (the scheduler's own call into Tables)."""

    latencies: list[float]

    async def _run_job(self, job: Job) -> None:
        if job.kind != "bot":
            await super()._run_job(job)
            return
        live = self._live.get(job.table_id)
        before = live.row.version if live else None
        started = time.perf_counter()
        await super()._run_job(job)
        live = self._live.get(job.table_id)
        if live is not None and before is not None and live.row.version == before + 1:
            self.latencies.append(time.perf_counter() - started)


def rss_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def percentile(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=1000)[int(p * 10) - 1] if len(values) > 1 else 0.0


def sample_snapshot() -> str:
    """A snapshot of the size the service stores: the mix's games 20 bot moves in."""
    import random

    sizes = []
    for game_id, seats, options in MIX:
        game = games.get(game_id)
        state, rng = game.new_game(seats, options, 1), random.Random(1)
        for _ in range(20):
            acting = game.to_act(state)
            if not acting:
                break
            move = bots.move_for(game, state, acting[0], rng, "easy")
            state, _ = game.apply(state, acting[0], move)
        sizes.append(len(game.dump(state)))
    return "x" * (sum(sizes) // len(sizes))


def raw_rate(path: Path, seconds: float, snapshot: str) -> float:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, version INTEGER, snapshot TEXT,"
               " status TEXT, updated_at REAL)")
    db.execute("CREATE TABLE m (table_id INTEGER REFERENCES t (id), seq INTEGER, seat INTEGER,"
               " move TEXT, actor TEXT, created_at REAL, PRIMARY KEY (table_id, seq))"
               " WITHOUT ROWID")
    db.executemany("INSERT INTO t VALUES (?, 0, ?, 'playing', 0)",
                   [(i, snapshot) for i in range(1, 1001)])
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        table = count % 1000 + 1
        seq = count // 1000 + 1
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE t SET version = ?, snapshot = ?, updated_at = ? WHERE id = ?"
                   " AND version = ?", (seq, snapshot, time.time(), table, seq - 1))
        db.execute("INSERT INTO m VALUES (?, ?, 0, 'play 7H', 'bot', ?)",
                   (table, seq, time.time()))
        db.execute("COMMIT")
        count += 1
    rate = count / (time.perf_counter() - started)
    db.close()
    return rate


def bulk_tables(path: Path, count: int, *, bots: bool, platform_name: str) -> None:
    """Write `count` started tables (version 0) straight into the file: set-up only."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    now = time.time()
    for i in range(count):
        game_id, seats, options = MIX[i % len(MIX)]
        game = games.get(game_id)
        seed = 10_000 + i
        snapshot = game.dump(game.new_game(seats, options, seed))
        settings = {"deadline": 0, "bot_delay": 0, "title": f"bench {i}"}
        (table_id,) = db.execute(
            "INSERT INTO tables (platform, channel, game, options, settings, seed, status,"
            " host, version, snapshot, created_at, updated_at) VALUES"
            " (?, ?, ?, ?, ?, ?, 'playing', 'h0', 0, ?, ?, ?) RETURNING id",
            (platform_name, f"c{i}", game_id, json.dumps(options), json.dumps(settings), seed,
             snapshot, now, now)).fetchone()
        db.executemany(
            "INSERT INTO seats (table_id, seat, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
            [(table_id, s, None if bots else f"h{i}-{s}", f"P{s}", int(bots))
             for s in range(seats)])
    db.execute("COMMIT")
    db.close()


async def repository_with(path: Path, count: int, *, bots: bool,
                          platform_name: str) -> SqliteRepository:
    """A migrated file holding `count` tables written straight in (set-up, not measured)."""
    repo = SqliteRepository(path)
    await repo.open()
    await repo.close()
    bulk_tables(path, count, bots=bots, platform_name=platform_name)
    repo = SqliteRepository(path)
    await repo.open()
    return repo


async def service_run(path: Path, seconds: float, tables_count: int) -> dict[str, float]:
    repo = await repository_with(path, tables_count, bots=True, platform_name="bench")
    settings = Settings(_env_file=None, bot_delay=0, turn_deadline=0)
    tables = TimedTables(repo, NullSink(), platform="bench", settings=settings)
    tables.latencies = []
    await tables.start()
    # The first pass loads and verifies every table; count from when bots are playing.
    while len(tables.latencies) < tables_count:
        await asyncio.sleep(0.01)
    done_before, started = len(tables.latencies), time.perf_counter()
    await asyncio.sleep(seconds)
    moves = len(tables.latencies) - done_before
    elapsed = time.perf_counter() - started
    measured = tables.latencies[done_before:]
    await tables.close()
    await repo.close()
    finished = sqlite3.connect(path).execute(
        "SELECT COUNT(*) FROM tables WHERE status = 'finished'").fetchone()[0]
    return {"rate": moves / elapsed, "moves": moves, "finished": finished,
            "p50": 1000 * percentile(measured, 50), "p95": 1000 * percentile(measured, 95),
            "p99": 1000 * percentile(measured, 99), "max": 1000 * max(measured)}


async def memory_and_restart(path: Path, count: int, cached: int) -> dict[str, float]:
    repo = await repository_with(path, count, bots=False, platform_name="idle")
    settings = Settings(_env_file=None, bot_delay=0, turn_deadline=0, cached_tables=cached)
    tables = Tables(repo, NullSink(), platform="idle", settings=settings)
    before = rss_kb()
    started = time.perf_counter()
    await tables.start(run_scheduler=False)
    start_s = time.perf_counter() - started
    pending = tables.scheduler.pending()
    started = time.perf_counter()
    await tables.settle()
    resume_s = time.perf_counter() - started
    after = rss_kb()
    await tables.close()
    await repo.close()
    return {"start": start_s, "resume": resume_s, "jobs": pending,
            "kb_per_table": (after - before) / count, "cached": len(tables._live)}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer idle tables")
    parser.add_argument("--dir", default="/var/tmp", help="where the database files go")
    parser.add_argument("--seconds", type=float, default=20.0, help="service run length")
    args = parser.parse_args()
    seconds = 5.0 if args.quick else args.seconds
    idle = 2_000 if args.quick else 10_000
    workdir = Path(tempfile.mkdtemp(prefix="tapis-bench-", dir=args.dir))
    try:
        print(f"service bench, {time.strftime('%Y-%m-%d %H:%M')}, Python "
              f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
              f"{os.cpu_count()} cores, files in {workdir}")
        snapshot = sample_snapshot()
        raw = raw_rate(workdir / "raw.db", min(seconds, 5.0), snapshot)
        print(f"raw sqlite3 transaction (update {len(snapshot)}-byte snapshot + insert move):"
              f" {raw:,.0f} tx/s")
        result = await service_run(workdir / "service.db", seconds, 1_000)
        ratio = result["rate"] / raw
        print(f"service, 1,000 bot tables, {seconds:.0f} s: {result['rate']:,.0f} accepted"
              f" moves/s ({result['moves']:,.0f} moves, {result['finished']:.0f} games over)")
        print(f"  ratio service/raw {ratio:.2f}   target >= {TARGET_RATIO}  "
              f"{'ok' if ratio >= TARGET_RATIO else 'MISSED'}")
        print(f"  bot move latency ms: p50 {result['p50']:.2f}  p95 {result['p95']:.2f}  "
              f"p99 {result['p99']:.2f}  max {result['max']:.2f}   target p99 < "
              f"{TARGET_P99_MS:.0f}  {'ok' if result['p99'] < TARGET_P99_MS else 'MISSED'}")
        for label, cached in (("default cache", Settings(_env_file=None).cached_tables),
                              ("no eviction", idle + 1)):
            mem = await memory_and_restart(workdir / f"idle-{cached}.db", idle, cached)
            print(f"{idle:,} unfinished tables, {label} (cached_tables={cached}, "
                  f"{mem['cached']:.0f} kept):")
            print(f"  start() {mem['start']:.2f} s scheduling {mem['jobs']:.0f} jobs; resume "
                  f"jobs {mem['resume']:.2f} s; total {mem['start'] + mem['resume']:.2f} s   "
                  f"target < {TARGET_RESUME_S:.0f} s  "
                  f"{'ok' if mem['start'] + mem['resume'] < TARGET_RESUME_S else 'MISSED'}")
            print(f"  resident memory growth {mem['kb_per_table']:.1f} KB per idle table   "
                  f"target <= {TARGET_KB_PER_IDLE_TABLE:.0f}  "
                  f"{'ok' if mem['kb_per_table'] <= TARGET_KB_PER_IDLE_TABLE else 'MISSED'}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
