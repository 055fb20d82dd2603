"""The table service on real SQLite files: throughput against a raw baseline doing the same
work, a person's press latency with the queue included, resume with real move logs,
throughput when many tables are active, and memory per idle table.

Run from the project root: `python bench/service.py [--quick] [--dir /var/tmp] [--json]`
(`--cpu N [--unpaced]`: only (1)'s service, its CPU time a move in N windows, to compare
code).
Databases go in a fresh directory under --dir, which must be a real disk (not /dev/shm):
every commit is durable (WAL, synchronous=FULL), so the disk's fsync sets the pace, and
this disk's fsync pace varies several-fold within minutes, which is why (1) alternates.

1. ratio_to_batched_raw: 1,000 tables of bot players (`bot_delay=0`) driven by `Tables`
   and its scheduler (load, bot choice, apply, commit, deadline, rendering of the table
   and hands by a sink that draws every message it sends, paces them as the platforms do
   (one a channel a second, 50 a second over all: `DrawingSink`) and answers each request
   in 50 ms like a platform's API, so edits waiting their turn are coalesced;
   announcements), against a
   raw baseline: the repository's own statements (`COMMIT_MOVE`, `INSERT_MOVE`), on the
   real schema (the repository's migrations), with the same grouping as the service
   (each slice of the baseline puts as many moves in a transaction, each in its own
   savepoint, as the service's group commits carried in the slice before), snapshots of
   the size the service stores. The two run in alternating slices in one process (the
   service paused at a gate while the baseline runs); the ratio is taken slice by slice.
   The service commits through its SQLite writer process (`db/sqlite_writer.py`) as it
   does in production; the baseline runs on the bench's own thread.
2. press_p99_ms: 1,000 tables of four people, default settings (turn deadline, turn
   calls), every table resumed and drawn first. Presses arrive on a fixed schedule of
   100 a second, round robin over the tables, each as its own task as an adapter makes
   them; a press is one legal move of the seat to act, as a button payload of the table's
   current version, through `Tables.press` (authority, apply, commit, deadline, table and
   hands drawn, by the sink unpaced: every press's messages drawn). Latency runs from the
   press's scheduled arrival to its reply, so time spent queueing behind other work (or a
   late driver) counts.
3. resume_10k_60_moves_s: a fresh process opens a file of 10,000 unfinished tables of
   people, each with a real move log of 60 moves (legal moves played by the easy bot)
   and its deadline; their last changes spread over the last hour, so the ones changed in
   the last 10 minutes are redrawn and the older ones' deadlines are past due. Time from
   `Tables.start()` until every resume job ran (each table loaded, its timers armed, the
   recent ones redrawn). Afterwards (not timed) every table's snapshot is compared with
   the replay of its log, and every table is checked to be playable.
4. active_10k_over_1k: bot-move throughput (moves/s) with 10,000 tables of bot players all
   active, divided by the same with 1,000, default cache settings; the CPU a move printed
   beside it is the process's and its SQLite writer process's together. Both services run in
   one process on their own files, measured in three alternating 4 s windows each (the
   other held at its gate), and the median window of each is taken: this disk's fsync
   pace varies several-fold within minutes. The sink paces as in (1).
5. rss_kb_per_idle_table: resident memory growth of that fresh process (3) from before
   `start()` to after resume, per table.
Set-up (tables, logs, deadlines) is written straight into the files with sqlite3 and is
not measured.
"""

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.authority import MOVE_PREFIX, Press
from bot.deliveries import Announcement, HandMessage, Notice, TableMessage
from bot.live import Actor, Live
from bot.render import PAYLOAD_LIMIT, encode_payload
from bot.scheduler import Job
from bot.settings import Settings
from bot.tables import Table, Tables
from db.repository import MessageRef
from db.sqlite import COMMIT_MOVE, INSERT_MOVE, SqliteRepository
from db.transactions import each_in_savepoint
from engine import bots, games

# (game, seats, options): every game at a usual table size, long enough that a table is
# still playing at the end of a throughput run (about 130 moves a table at 6,000 moves/s):
# Ochs 5 rounds ~250 moves, Nix 20 rounds ~400, Michigan 6 deals a player ~300. The Game
# cannot be longer than its deck (80-140 moves at 3 players): its tables may end late in a
# run.
MIX: list[tuple[str, int, dict[str, Any]]] = [
    ("ochs-esel", 4, {"rounds": 5}),
    ("the-game", 3, {}),
    ("nix-fur-ungut", 4, {"rounds": 20}),
    ("michigan", 5, {"hands_per_player": 6}),
]
TARGETS = {"ratio_to_batched_raw": (">=", 0.25), "press_p99_ms": ("<", 10.0),
           "resume_10k_60_moves_s": ("<", 5.0), "active_10k_over_1k": (">=", 0.9),
           "rss_kb_per_idle_table": ("<=", 50.0)}


def _wake(sleeping: asyncio.Future[None]) -> None:
    if not sleeping.done():
        sleeping.set_result(None)


class DrawingSink:
    """A platform that draws every message it is asked to show (so a rendering left for
    send time is paid for here) and answers each request after `latency` seconds, as a
    platform's API does (tens to hundreds of milliseconds): messages that wait behind a
    request in flight are coalesced as they would be in production.

    `paced`: as strict as the platforms about how fast messages may go, as the adapters
    are: one request a channel (or a user's DMs) per `CHANNEL_GAP` seconds, the Discord
    adapter's pacing (Discord allows 5 in 5 s; Telegram's groups one in 3 s), and at most
    `PER_SECOND` requests a second over all channels (Discord's global limit; Telegram's
    is about 30). Like the adapters' own pacing, `turn` lets the outbox wait for the
    channel's slot before it takes the newest rendering. Unpaced, the sink takes any
    number of edits a second, which no platform does."""

    CHANNEL_GAP = 1.0
    PER_SECOND = 50

    def __init__(self, latency: float = 0.05, *, paced: bool = False) -> None:
        self.latency = latency
        self.requests = 0
        self.paced = paced
        self._next_in: dict[str, float] = {}  # channel or user -> its next slot
        self._next_any = 0.0  # the next slot over all channels
        self._sleeping: set[asyncio.Future[None]] = set()

    def stop_pacing(self) -> None:
        """The run is over: what is still queued is handed over at once, so closing the
        service does not wait out the platform's pace for thousands of tables."""
        self.paced = False
        for sleeping in self._sleeping:
            _wake(sleeping)

    async def _until(self, slot: float) -> None:
        loop = asyncio.get_running_loop()
        if slot <= loop.time():
            return
        woken: asyncio.Future[None] = loop.create_future()
        timer = loop.call_at(slot, _wake, woken)
        self._sleeping.add(woken)
        try:
            await woken
        finally:
            self._sleeping.discard(woken)
            timer.cancel()

    async def turn(self, delivery: Any) -> None:
        if not self.paced:
            return
        place = delivery.user_id if isinstance(delivery, HandMessage | Notice) \
            else delivery.channel
        slot = max(asyncio.get_running_loop().time(), self._next_in.get(place, 0.0))
        self._next_in[place] = slot + self.CHANNEL_GAP
        await self._until(slot)

    async def _request(self) -> None:
        self.requests += 1
        if self.paced:
            slot = max(asyncio.get_running_loop().time(), self._next_any)
            self._next_any = slot + 1 / self.PER_SECOND
            await self._until(slot)
        await asyncio.sleep(self.latency)

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        len(msg.rendering.text)
        await self._request()
        return ref or MessageRef(key="table", chat=msg.channel, message_id="1")

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        len(msg.rendering.text)
        await self._request()
        return ref or MessageRef(key=f"hand:{msg.seat}", chat=msg.user_id, message_id="1")

    async def announce(self, msg: Announcement) -> None:
        len(msg.text)
        await self._request()

    async def notify(self, msg: Notice) -> None:
        len(msg.text)
        await self._request()


def counted_table(metered: "MeteredTables") -> type[Table]:
    """Tables that count their committed moves on `metered` (a table knows only its host,
    not the `Tables` that made it)."""

    class CountedTable(Table):
        __slots__ = ()

        async def commit(self, seat: int, move: Any, actor_kind: str) -> list[Any]:
            events = await super().commit(seat, move, actor_kind)
            metered.committed += 1
            return events

    return CountedTable


class MeteredTables(Tables):
    """Counts committed moves, times bot jobs from their due time, and can be paused."""

    def __init__(self, repo: SqliteRepository, sink: DrawingSink, **kwargs: Any) -> None:
        super().__init__(repo, sink, **kwargs)
        self.table_type = counted_table(self)
        self.drawing = sink
        self.gate = asyncio.Event()
        self.gate.set()
        self.committed = 0
        self.bot_latencies: list[float] = []

    async def close(self) -> None:
        self.drawing.stop_pacing()
        await super().close()

    async def _run_job(self, job: Job) -> None:
        await self.gate.wait()  # paused: nothing starts; what runs finishes
        before = self.committed
        await super()._run_job(job)
        if job.kind == "bot" and self.committed > before:
            self.bot_latencies.append(self.clock.now() - job.due)


def writer_cpu(repo: SqliteRepository) -> float:
    """CPU seconds the repository's writer process (`db.sqlite_writer`) has used: part of
    the service's CPU, which `time.process_time` does not count."""
    writer = getattr(repo, "_writer", None)  # None too in code from before the writer process
    child = writer._child if writer is not None else None
    if child is None:
        return 0.0
    try:
        fields = Path(f"/proc/{child.pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def percentile(values: list[float], p: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=1000)[int(p * 10) - 1]


# --- set-up: files written straight with sqlite3 (not measured) ----------------------------

def play_log(game_id: str, seats: int, options: dict[str, Any], seed: int, moves: int
             ) -> tuple[list[tuple[int, str]], str, list[int]]:
    """Up to `moves` legal moves chosen by the easy bot, stopping before the game would
    end: (seat, move) pairs, the snapshot after them, and who is to act."""
    game = games.get(game_id)
    bot = bots.get(game_id, "easy")
    rng = random.Random(seed)
    state = game.new_game(seats, options, seed)
    log: list[tuple[int, str]] = []
    while len(log) < moves:
        seat = game.to_act(state)[0]
        move = bot.choose(game.view(state, seat), rng)
        after, _ = game.apply(state, seat, move)
        if game.outcome(after) is not None:
            break
        state = after
        log.append((seat, str(move)))
    return log, game.dump(state), list(game.to_act(state))


async def new_file(path: Path) -> None:
    repo = SqliteRepository(path)
    await repo.open()  # the repository's own migrations: the real schema
    await repo.close()


def populate(path: Path, count: int, *, people: bool, moves: int, platform_name: str,
             spread: float = 0.0, deadline: float = 300.0, distinct: int = 200) -> None:
    """`count` started tables. People's tables get a deadline row as the bot stores it.
    Logs are made for `distinct` seeds per game and shared by tables of the same seed
    (each table replays its own log: nothing is shared at run time)."""
    logs: dict[int, tuple[list[tuple[int, str]], str, list[int]]] = {}
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    now = time.time()
    rng = random.Random(7)
    for i in range(count):
        game_id, seats, options = MIX[i % len(MIX)]
        # As a table opening stores them: a game's defaults that may change written out
        # (Nix für Ungut's board), or the stored table would replay under older ones.
        options = games.get(game_id).CAPABILITIES.opened_options(options)
        seed = 10_000 + i % (distinct * len(MIX))
        if seed not in logs:
            logs[seed] = play_log(game_id, seats, options, seed, moves)
        log, snapshot, to_act = logs[seed]
        changed = now - rng.random() * spread
        # Easy bots: what is measured is the service around a move, not a search's thinking
        # (the strong bots think in a worker thread; bench/bots*.py time them).
        settings = {"title": f"bench {i}"} if people else {"title": f"bench {i}", "bots": "easy",
                                                              "deadline": 0, "bot_delay": 0}
        (table_id,) = db.execute(
            "INSERT INTO tables (platform, channel, game, options, settings, seed, status,"
            " host, version, snapshot, created_at, updated_at) VALUES"
            " (?, ?, ?, ?, ?, ?, 'playing', ?, ?, ?, ?, ?) RETURNING id",
            (platform_name, f"c{i}", game_id, json.dumps(options), json.dumps(settings), seed,
             f"h{i}-0", len(log), snapshot, changed, changed)).fetchone()
        db.executemany(
            "INSERT INTO seats (table_id, seat, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
            [(table_id, s, f"h{i}-{s}" if people else None, f"Player {s}", int(not people))
             for s in range(seats)])
        db.executemany(
            "INSERT INTO moves (table_id, seq, seat, move, actor, created_at)"
            " VALUES (?, ?, ?, ?, 'player', ?)",
            [(table_id, n + 1, seat, move, changed) for n, (seat, move) in enumerate(log)])
        if people:
            db.execute("INSERT INTO deadlines (table_id, seat, version, due_at, remind_at,"
                       " reminded) VALUES (?, ?, ?, ?, ?, 0)",
                       (table_id, to_act[0], len(log), changed + deadline,
                        changed + deadline - 60))
    db.execute("COMMIT")
    db.close()


def settings_for(**overrides: Any) -> Settings:
    return Settings(_env_file=None, **overrides)


# --- 1. throughput against the batched raw baseline ----------------------------------------

class RawBaseline:
    """The service's storage work without the service: the repository's statements on the
    real schema, the moves of `group` tables per transaction, each in a savepoint."""

    def __init__(self, path: Path, tables: int) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON",
                       "secure_delete = ON"):
            self.db.execute(f"PRAGMA {pragma}")
        rows = self.db.execute("SELECT id, version, snapshot FROM tables").fetchall()
        self.tables = [(table_id, version, snapshot) for table_id, version, snapshot in rows]
        self.tables = self.tables[:tables]
        self.next = 0

    def run(self, seconds: float, group: int) -> float:
        count, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            bodies = []
            for _ in range(group):
                index = self.next % len(self.tables)
                self.next += 1
                table_id, version, snapshot = self.tables[index]
                self.tables[index] = (table_id, version + 1, snapshot)
                bodies.append(self._body(table_id, version + 1, snapshot))
            self.db.execute("BEGIN IMMEDIATE")
            each_in_savepoint(self.db, bodies)
            self.db.execute("COMMIT")
            count += group
        return count / (time.perf_counter() - started)

    @staticmethod
    def _body(table_id: int, seq: int, snapshot: str) -> Any:
        def body(db: sqlite3.Connection) -> None:
            now = time.time()
            rows = db.execute(COMMIT_MOVE, (seq, snapshot, "playing", now, table_id,
                                             seq - 1, None, None)).fetchall()
            assert rows, "the baseline's table moved on under it"
            db.execute(INSERT_MOVE, (table_id, seq, 0, "play 7H", "bot", now))
        return body


async def service_tables(path: Path, *, paced: bool = True, **overrides: Any
                         ) -> tuple[MeteredTables, SqliteRepository]:
    repo = SqliteRepository(path)
    await repo.open()
    tables = MeteredTables(repo, DrawingSink(paced=paced), platform="bench",
                           settings=settings_for(**overrides))
    return tables, repo


async def warm_up(tables: MeteredTables, count: int) -> None:
    """Until every table has made a move (each loaded once): what is measured is play."""
    while tables.committed < count:
        await asyncio.sleep(0.02)


async def ratio_run(workdir: Path, slices: int, seconds: float) -> dict[str, Any]:
    service_db, raw_db = workdir / "ratio-service.db", workdir / "ratio-raw.db"
    for path in (service_db, raw_db):
        await new_file(path)
        populate(path, 1_000, people=False, moves=20, platform_name="bench")
    raw = RawBaseline(raw_db, 1_000)
    tables, repo = await service_tables(service_db, bot_delay=0, turn_deadline=0)
    await tables.start()
    await warm_up(tables, 1_000)
    ratios, service_rates, raw_rates, groups = [], [], [], []
    try:
        for _ in range(slices):
            # The service's slice, then the baseline's with the service's own grouping in
            # that slice (the moves its group commits carried per transaction, rounded).
            before, started = tables.committed, time.perf_counter()
            commits, writes = repo.group_commits, repo.grouped_writes
            await asyncio.sleep(seconds)
            rate = (tables.committed - before) / (time.perf_counter() - started)
            group = max(1, round((repo.grouped_writes - writes)
                                 / max(1, repo.group_commits - commits)))
            tables.gate.clear()
            await asyncio.sleep(0.2)  # what was running finishes; the rest waits
            raw_rate = raw.run(seconds, group)
            tables.gate.set()
            raw_rates.append(raw_rate)
            service_rates.append(rate)
            groups.append(group)
            ratios.append(rate / raw_rate)
        latencies = tables.bot_latencies[1_000:]
    finally:
        await tables.close()
        await repo.close()
        raw.db.close()
    return {"ratios": ratios, "service": service_rates, "raw": raw_rates, "groups": groups,
            "bot_p50": 1000 * percentile(latencies, 50),
            "bot_p99": 1000 * percentile(latencies, 99)}



async def cpu_run(workdir: Path, windows: int, seconds: float, *, paced: bool = True
                  ) -> list[tuple[float, float, float, float]]:
    """A measuring aid, not a target: (1)'s service alone, after the same warm-up, in
    `windows` windows of `seconds`: moves/s, and the main thread's, the process's and its
    writer process's CPU time a committed move (`time.thread_time`, `time.process_time`,
    the writer's /proc stat). The machine's load
    moves these figures by tens of percent from minute to minute: compare two copies of
    the code run at the same time, not runs made apart."""
    path = workdir / "cpu-service.db"
    await new_file(path)
    populate(path, 1_000, people=False, moves=20, platform_name="bench")
    tables, repo = await service_tables(path, paced=paced, bot_delay=0, turn_deadline=0)
    await tables.start()
    await warm_up(tables, 1_000)
    found = []
    try:
        for _ in range(windows):
            before, thread, process = tables.committed, time.thread_time(), time.process_time()
            writer, started = writer_cpu(repo), time.perf_counter()
            await asyncio.sleep(seconds)
            moves = max(1, tables.committed - before)
            found.append((moves / (time.perf_counter() - started),
                          1000 * (time.thread_time() - thread) / moves,
                          1000 * (time.process_time() - process) / moves,
                          1000 * (writer_cpu(repo) - writer) / moves))
    finally:
        await tables.close()
        await repo.close()
    return found

# --- 2. a person's press, queue included ----------------------------------------------------

def a_press(live: Live, rng: random.Random) -> tuple[Actor, str] | None:
    """What the player to act presses: one of their legal moves that fits a button."""
    game, state = live.game, live.state
    to_act = game.to_act(state)
    if not to_act:
        return None
    seat = to_act[0]
    chosen = str(bots.get(live.row.game, "easy").choose(game.view(state, seat), rng))
    options = [chosen] + [str(m) for m in game.legal_moves(state, seat)]
    for move in options:
        payload = encode_payload_or_none(live, MOVE_PREFIX + move)
        if payload is not None:
            user = live.seats[seat]
            assert user.user_id is not None
            return Actor(user.user_id, user.name), payload
    return None


def encode_payload_or_none(live: Live, action: str) -> str | None:
    payload = f"{live.ref}.{live.row.version}.{action}"
    if len(payload.encode()) > PAYLOAD_LIMIT:
        return None
    return encode_payload(live.ref, live.row.version, action)


async def press_run(workdir: Path, seconds: float, rate: float) -> dict[str, Any]:
    path = workdir / "people.db"
    await new_file(path)
    populate(path, 1_000, people=True, moves=10, platform_name="bench")
    # Default settings (deadlines, turn calls), and a sink that takes every request at once:
    # every press's table and hands are drawn.
    tables, repo = await service_tables(path, paced=False)
    await tables.start()
    await tables.settle()  # every table resumed and drawn before the first press
    ids = sorted(tables._loaded)
    rng = random.Random(3)
    latencies: list[float] = []
    refused: list[str] = []
    tasks: set[asyncio.Task[None]] = set()

    async def press(due: float, live: Live, actor: Actor, payload: str) -> None:
        reply = await tables.press(actor, Press(payload, live.row.channel))
        latencies.append(time.monotonic() - due)
        if not reply.ok:
            refused.append(reply.text)

    started = time.monotonic()
    count = int(seconds * rate)
    try:
        for k in range(count):
            live = await tables.live_table(ids[k % len(ids)])
            assert live is not None
            chosen = a_press(live, rng)  # the person's decision: before the press arrives
            due = started + k / rate
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if chosen is None:
                continue
            task = asyncio.create_task(press(due, live, *chosen))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)
    finally:
        await tables.close()
        await repo.close()
    return {"presses": len(latencies), "refused": len(refused),
            "refusals": sorted(set(refused))[:3],
            "p50": 1000 * percentile(latencies, 50), "p99": 1000 * percentile(latencies, 99),
            "max": 1000 * max(latencies)}


# --- 3 and 5. resume and memory, in a fresh process -----------------------------------------

class ResumeTimed(Tables):
    """Notes when the last resume job finished, and the CPU time until then."""

    last_resume = 0.0
    resume_cpu = 0.0
    _cpu_start: float | None = None

    async def _run_job(self, job: Job) -> None:
        if self._cpu_start is None:
            self._cpu_start = time.process_time()
        await super()._run_job(job)
        if job.kind == "resume":
            self.last_resume = time.perf_counter()
            self.resume_cpu = time.process_time() - self._cpu_start

async def resume_child(path: Path) -> dict[str, Any]:
    """Run in a fresh process: time `start()` and every resume job; then check."""
    repo = SqliteRepository(path)
    await repo.open()
    sink = DrawingSink(latency=0.0)
    tables = ResumeTimed(repo, sink, platform="bench", settings=settings_for())
    before = rss_kb()
    started, tables._cpu_start = time.perf_counter(), time.process_time()
    await tables.start(run_scheduler=False)
    # Every job due now: each table's resume (loaded, timers armed), then the redraws of
    # the tables changed in the last 10 minutes (log checked, table and hands drawn and
    # handed to a platform answering at once; on a real one its rate limit sets their
    # pace: Telegram takes ~30 messages a second).
    await tables.scheduler.run_due()
    await tables.outbox.flush()
    redrawn_s = time.perf_counter() - started
    ready_s = tables.last_resume - started
    cpu_s = tables.resume_cpu
    after = rss_kb()
    count = len(tables._loaded)
    playable = sum(1 for live in (t.live for t in tables._loaded.values())
                   if live.state is not None and live.game.to_act(live.state)
                   and tables.scheduler.jobs_of(live.id))
    jobs = tables.scheduler.pending()
    await tables.close()
    await repo.close()
    return {"tables": count, "cached": count, "resume_s": ready_s, "cpu_s": cpu_s,
            "redrawn_s": redrawn_s,
            "redraw_requests": sink.requests, "kb_per_table": (after - before) / count,
            "playable": playable, "mismatched": snapshots_against_logs(path), "jobs": jobs}


def snapshots_against_logs(path: Path) -> int:
    """How many unfinished tables' snapshots differ from the replay of their move log
    (the check a table gets before its next move), read in bulk: set-up speed, not the
    service's."""
    db = sqlite3.connect(path)
    seats = dict(db.execute("SELECT table_id, COUNT(*) FROM seats GROUP BY table_id"))
    logs: dict[int, list[tuple[int, str]]] = {}
    for table_id, seat, move in db.execute(
            "SELECT table_id, seat, move FROM moves ORDER BY table_id, seq"):
        logs.setdefault(table_id, []).append((seat, move))
    mismatched = 0
    for table_id, game_id, options, seed, snapshot in db.execute(
            "SELECT id, game, options, seed, snapshot FROM tables WHERE status = 'playing'"):
        game = games.get(game_id)
        state = game.new_game(seats[table_id],
                              game.CAPABILITIES.stored_options(json.loads(options)), seed)
        for seat, move in logs.get(table_id, []):
            state, _ = game.apply(state, seat, game.parse_move(state, seat, move))
        mismatched += game.dump(state) != snapshot
    db.close()
    return mismatched


async def resume_run(workdir: Path, count: int, moves: int) -> dict[str, Any]:
    path = workdir / "resume.db"
    await new_file(path)
    populate(path, count, people=True, moves=moves, platform_name="bench", spread=3600.0)
    out = subprocess.run([sys.executable, __file__, "--child-resume", str(path)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- 4. many active tables ------------------------------------------------------------------

async def active_run(workdir: Path, counts: tuple[int, int], seconds: float, windows: int
                     ) -> dict[int, dict[str, Any]]:
    """Both sizes at once, in alternating windows (one held at its gate while the other
    is measured), so that both meet the disk's same moods; the median window of each."""
    services = {}
    for count in counts:
        path = workdir / f"active-{count}.db"
        await new_file(path)
        populate(path, count, people=False, moves=20, platform_name="bench")
        services[count] = await service_tables(path, bot_delay=0, turn_deadline=0)
    try:
        # One after the other, each held at its gate once warm: a service left playing
        # while the other warms up would play its games to their end.
        for count, (tables, _) in services.items():
            await tables.start()
            await warm_up(tables, count)
            tables.gate.clear()
        rates: dict[int, list[float]] = {count: [] for count in counts}
        cpus: dict[int, list[float]] = {count: [] for count in counts}
        for _ in range(windows):
            for count, (tables, _) in services.items():
                for other, (others, _) in services.items():
                    if other != count:
                        others.gate.clear()
                tables.gate.set()
                await asyncio.sleep(0.3)  # what the other had in flight finishes
                before, started = tables.committed, time.perf_counter()
                repo = services[count][1]
                cpu = time.process_time() + writer_cpu(repo)
                await asyncio.sleep(seconds)
                moves = tables.committed - before
                rates[count].append(moves / (time.perf_counter() - started))
                cpus[count].append(
                    1000 * (time.process_time() + writer_cpu(repo) - cpu) / max(moves, 1))
    finally:
        for tables, repo in services.values():
            tables.gate.set()
            await tables.close()
            await repo.close()
    return {count: {"rate": statistics.median(rates[count]), "rates": rates[count],
                    "cpu_ms_per_move": statistics.median(cpus[count]),
                    "cached": len(services[count][0]._loaded)} for count in counts}


# --- the report -----------------------------------------------------------------------------

def verdict(key: str, value: float) -> str:
    op, target = TARGETS[key]
    ok = {"<": value < target, "<=": value <= target, ">=": value >= target}[op]
    return f"target {op} {target:g}  {'ok' if ok else 'MISSED'}"


async def main(args: argparse.Namespace) -> dict[str, float]:
    quick = args.quick
    workdir = Path(tempfile.mkdtemp(prefix="tapis-bench-", dir=args.dir))
    figures: dict[str, float] = {}
    try:
        print(f"service bench, {time.strftime('%Y-%m-%d %H:%M')}, Python "
              f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
              f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, files in {workdir}")
        ratio = await ratio_run(workdir, 3 if quick else 6, 2.0 if quick else 3.0)
        figures["ratio_to_batched_raw"] = statistics.median(ratio["ratios"])
        print("1. throughput, 1,000 bot tables, alternating slices (service, then raw grouped "
              "as the service's commits were in that slice):")
        for service, raw, group, r in zip(ratio["service"], ratio["raw"], ratio["groups"],
                                          ratio["ratios"], strict=True):
            print(f"   service {service:7,.0f} moves/s   raw {raw:7,.0f} moves/s ({group} a "
                  f"transaction)   ratio {r:.2f}")
        print(f"   ratio_to_batched_raw (median) {figures['ratio_to_batched_raw']:.2f}   "
              f"{verdict('ratio_to_batched_raw', figures['ratio_to_batched_raw'])}")
        print(f"   bot move from due time to committed and shown: p50 {ratio['bot_p50']:.1f} "
              f"ms, p99 {ratio['bot_p99']:.1f} ms (a queue of 1,000 tables always due)")

        press = await press_run(workdir, 6.0 if quick else 20.0, 100.0)
        figures["press_p99_ms"] = press["p99"]
        print(f"2. presses at 100/s over 1,000 tables of people: {press['presses']:,} presses,"
              f" {press['refused']} refused {press['refusals']}")
        print(f"   arrival to reply ms: p50 {press['p50']:.2f}  p99 {press['p99']:.2f}  max "
              f"{press['max']:.1f}   {verdict('press_p99_ms', press['p99'])}")

        count, moves = (2_000, 60) if quick else (10_000, 60)
        resume = await resume_run(workdir, count, moves)
        figures["resume_10k_60_moves_s"] = resume["resume_s"] * 10_000 / resume["tables"]
        figures["rss_kb_per_idle_table"] = resume["kb_per_table"]
        print(f"3. resume, fresh process, {resume['tables']:,} tables with {moves}-move logs: "
              f"{resume['resume_s']:.2f} s, {resume['cpu_s']:.2f} s of CPU "
              f"({resume['playable']:,} ready to play with their timers armed, "
              f"{resume['jobs']:,} timers; {resume['mismatched']} snapshots differing from "
              f"their log)")
        print(f"   the {resume['redraw_requests']:,} messages of the tables changed in the "
              f"last 10 minutes redrawn and handed to the platform by "
              f"{resume['redrawn_s']:.2f} s")
        print(f"   resume_10k_60_moves_s {figures['resume_10k_60_moves_s']:.2f}   "
              f"{verdict('resume_10k_60_moves_s', figures['resume_10k_60_moves_s'])}")
        print(f"5. rss_kb_per_idle_table {resume['kb_per_table']:.1f} ({resume['cached']:,} "
              f"in memory)   {verdict('rss_kb_per_idle_table', resume['kb_per_table'])}")

        sizes = (1_000, 2_000 if quick else 10_000)
        active = await active_run(workdir, sizes, 3.0 if quick else 4.0, 3)
        small, large = active[sizes[0]], active[sizes[1]]
        figures["active_10k_over_1k"] = large["rate"] / small["rate"]
        print(f"4. bot tables all active: 1,000: {small['rate']:,.0f} moves/s "
              f"({small['cpu_ms_per_move']:.2f} ms CPU a move); "
              f"{'2,000' if quick else '10,000'}: {large['rate']:,.0f} moves/s "
              f"({large['cpu_ms_per_move']:.2f} ms CPU a move, {large['cached']:,} in memory)")
        print("   windows (moves/s): " + "; ".join(
            f"{n:,}: " + ", ".join(f"{r:,.0f}" for r in active[n]["rates"]) for n in sizes))
        print(f"   active_10k_over_1k {figures['active_10k_over_1k']:.2f}   "
              f"{verdict('active_10k_over_1k', figures['active_10k_over_1k'])}")
        figures["service_cpu_ms_per_move"] = small["cpu_ms_per_move"]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child-resume":
        print(json.dumps(asyncio.run(resume_child(Path(sys.argv[2])))))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="shorter runs, 2,000 tables where 10,000 (figures scaled)")
    parser.add_argument("--dir", default="/var/tmp", help="where the database files go")
    parser.add_argument("--json", action="store_true",
                        help="print the figures as one JSON object on the last line")
    parser.add_argument("--cpu", type=int, metavar="WINDOWS", default=0,
                        help="only (1)'s service, WINDOWS windows of 4 s: its CPU a move")
    parser.add_argument("--unpaced", action="store_true",
                        help="with --cpu: a sink that takes every request at once")
    arguments = parser.parse_args()
    if arguments.cpu:
        cpu_dir = Path(tempfile.mkdtemp(prefix="tapis-bench-", dir=arguments.dir))
        try:
            windows = asyncio.run(cpu_run(cpu_dir, arguments.cpu, 4.0,
                                          paced=not arguments.unpaced))
        finally:
            shutil.rmtree(cpu_dir, ignore_errors=True)
        for rate, thread, process, writer in windows:
            print(f"{rate:7,.0f} moves/s   main thread {thread:.3f} ms   process {process:.3f}"
                  f" ms   writer process {writer:.3f} ms CPU a move")
        print(json.dumps({"moves_s": statistics.median(w[0] for w in windows),
                          "main_ms_per_move": statistics.median(w[1] for w in windows),
                          "process_ms_per_move": statistics.median(w[2] for w in windows),
                          "writer_ms_per_move": statistics.median(w[3] for w in windows)}))
        sys.exit(0)
    result = asyncio.run(main(arguments))
    if arguments.json:
        print(json.dumps({k: round(v, 3) for k, v in result.items()}))
