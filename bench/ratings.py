"""Ratings: the cost of a game's end with its rating, /leaderboard at scale, the rebuild.

Run from the project root: `python bench/ratings.py [--games 100000] [--players 5000]
[--ends 200] [--queries 2000] [--postgres URL|none] [--dir /var/tmp] [--json]`. Each figure on
a SQLite file (a real disk, WAL, synchronous=FULL) and on PostgreSQL (a schema of its own,
dropped afterwards; skipped when the server cannot be reached):

1. `rebuild_s`: `--games` rated games of one community (3 to 5 of `--players` people,
   and one bot in a game of four, places drawn from a seeded `random.Random`) written
   straight into the rating log (through the repository's own statements, not measured),
   then `rebuild_ratings`: every rating recomputed from the log in one transaction.
2. `leaderboard_p99_ms`: `--queries` leaderboards (top 10 and the asker's own place, asked
   by a random player) of that community's season, one after the other.
3. `game_end_extra_ms`: `--ends` finishing moves with their results (5 seats), stored by
   `commit_move` as a game's end does today, and as many with the rating as well
   (`rating=RatedGame`), alternated; the figure is the difference of the medians.

With `--json`, the last line is one JSON object with each figure per database and, for
`leaderboard_p99_ms` and `game_end_extra_ms`, the worse of the two databases.
"""

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

import db.statements as S
from bot.ratings import Rater, bot, person
from db.ratings import RatedGame
from db.repository import PLAYING, Repository, ResultRow, SeatRow
from db.sqlite import SqliteRepository
from db.statements import Body, execute, execute_many, fetch_one

COMMUNITY = "telegram:-1001"
TARGETS = {"leaderboard_p99_ms": 10.0, "game_end_extra_ms": 2.0}
RATER = Rater("off")  # one season: the whole history on one ladder


def history(games: int, players: int, seed: int) -> list[list[tuple[str, int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        size = rng.randint(3, 5)
        who = [person(str(p)) for p in rng.sample(range(players), size)]
        if size == 4:
            who[-1] = bot(rng.choice(["easy", "strong"]))
        places = [rng.randint(1, size) for _ in who]
        out.append(list(zip(who, places, strict=True)))
    return out


def write_log(entries: list[list[tuple[str, int]]], first_table: int) -> Body[None]:
    yield fetch_one(S.LOCK_COMMUNITY, community=COMMUNITY)
    seq = 0
    for number, placings in enumerate(entries):
        (seq,) = yield fetch_one(
            S.INSERT_RATING_LOG, table_id=first_table + number, community=COMMUNITY,
            game="michigan", season="all", now=1.7e9 + number, players=len(placings),
            rules=None, score=None)
        yield execute_many(S.INSERT_ENTRANT, [
            {"seq": seq, "pos": pos, "participant": who, "place": place}
            for pos, (who, place) in enumerate(placings)])
    names = [{"community": COMMUNITY, "player": who, "name": f"player {who[2:]}"}
             for who in sorted({w for p in entries for w, _ in p if w.startswith("u:")})]
    yield execute_many(S.SET_RATING_NAME, names)
    yield execute(S.SET_LOGGED, seq=seq, community=COMMUNITY)  # the rebuild applies them


async def started_tables(repo: Repository, count: int, offset: int) -> list[int]:
    ids = []
    for number in range(count):
        table = await repo.create_table(
            platform="telegram", channel=f"end{offset + number}", game="michigan",
            options={}, settings={}, seed=1, host="1",
            seats=[SeatRow(s, str(s + 1), f"p{s}") for s in range(5)], community=COMMUNITY)
        await repo.update_table(table.id, expected_version=0, status=PLAYING,
                                reset_moves=True, snapshot="s0")
        ids.append(table.id)
    return ids


async def measure(repo: Repository, args: argparse.Namespace) -> dict[str, float]:
    entries = history(args.games, args.players, args.seed)
    for start in range(0, len(entries), 5000):
        await repo._do("transaction", write_log,  # type: ignore[attr-defined]
                       entries[start:start + 5000], 10_000_000 + start)
    started = time.perf_counter()
    applied = await repo.rebuild_ratings(RATER)
    rebuild_s = time.perf_counter() - started
    assert applied == args.games, applied

    rng = random.Random(args.seed)
    times = []
    for _ in range(args.queries):
        asker = person(str(rng.randrange(args.players)))
        started = time.perf_counter()
        await repo.leaderboard(COMMUNITY, "michigan", "all", asker)
        times.append(time.perf_counter() - started)
    times.sort()
    leaderboard_p99 = 1000 * times[min(len(times) - 1, int(0.99 * len(times)))]

    plain_ids = await started_tables(repo, args.ends, 0)
    rated_ids = await started_tables(repo, args.ends, args.ends)
    places = [1, 2, 3, 4, 5]
    results = [ResultRow(s, str(s + 1), f"p{s}", False, 0, places[s]) for s in range(5)]
    placings = [(person(str(s + 1)), places[s]) for s in range(5)]
    plain, rated = [], []
    for plain_id, rated_id in zip(plain_ids, rated_ids, strict=True):
        for table_id, rating, into in ((plain_id, None, plain), (rated_id, RatedGame(
                "michigan", 5, placings, RATER, {w: w for w, _ in placings}), rated)):
            started = time.perf_counter()
            await repo.commit_move(table_id, seq=1, seat=0, move="end", actor="player",
                                   snapshot="s1", results=results, rating=rating)
            into.append(time.perf_counter() - started)
    extra = 1000 * (statistics.median(rated) - statistics.median(plain))
    return {"rebuild_s": round(rebuild_s, 2), "leaderboard_p99_ms": round(leaderboard_p99, 3),
            "game_end_ms": round(1000 * statistics.median(plain), 3),
            "game_end_extra_ms": round(extra, 3)}


async def on_sqlite(args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        async with SqliteRepository(Path(directory) / "ratings.db") as repo:
            return await measure(repo, args)


async def on_postgres(args: argparse.Namespace) -> dict[str, float] | None:
    from db.postgres import PostgresRepository

    schema = f"tapis_bench_{random.randrange(16**8):08x}"
    try:
        admin = await asyncpg.connect(args.postgres)
    except (OSError, asyncpg.PostgresError) as error:
        print(f"PostgreSQL skipped: {error}", file=sys.stderr)
        return None
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        async with PostgresRepository(args.postgres,
                                      server_settings={"search_path": schema}) as repo:
            return await measure(repo, args)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    figures: dict[str, Any] = {"sqlite": await on_sqlite(args)}
    print(f"sqlite: {figures['sqlite']}", flush=True)
    pg = None if args.postgres == "none" else await on_postgres(args)
    if pg is not None:
        figures["postgres"] = pg
        print(f"postgres: {pg}", flush=True)
    for key, target in TARGETS.items():
        worst = max(figures[db][key] for db in ("sqlite", "postgres") if db in figures)
        figures[key] = worst
        print(f"{key}: {worst} (target < {target:g}: {'ok' if worst < target else 'MISSED'})")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--ends", type=int, default=200)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test",
                        help="its URL, or none to measure SQLite alone")
    parser.add_argument("--dir", default=None, help="where the SQLite file goes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
