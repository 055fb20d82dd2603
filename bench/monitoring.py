"""What monitoring costs: the metric updates of one move, a /metrics scrape, a log line.

Prints figures; not a test. `python bench/monitoring.py [--tables N]`.

- per move: the counter, histogram and timer calls `Tables._play` and `_commit` add, timed
  alone (a stored move itself costs about a millisecond: bench/service.py);
- /metrics: one scrape over HTTP with N tables in a SQLite file (the GROUP BY is the only
  database work), and the rendering of the registry alone;
- a log line through the redacting JSON and text formatters, versus the plain formatter.
"""

import argparse
import asyncio
import io
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from prometheus_client import generate_latest

from bot import logs, metrics, monitor
from bot.settings import Settings
from db.repository import SeatRow
from db.sqlite import SqliteRepository

TOKEN = "7712345678:AAHkQ9xZ3v_w-Lr8TqPnYb2mC4dE6fG7hJk"


def per_call(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e6


def move_metrics() -> None:
    started = time.perf_counter()
    metrics.MOVES.labels("telegram", "ochs-esel", "player").inc()
    metrics.MOVE_SECONDS.labels("telegram").observe(time.perf_counter() - started)


async def scrape(tables: int) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        async with SqliteRepository(Path(tmp) / "bench.db") as repo:
            for i in range(tables):
                await repo.create_table(platform="telegram", channel=f"c{i}",
                                        game=("ochs-esel", "the-game", "michigan")[i % 3],
                                        options={}, settings={}, seed=i, host="u",
                                        seats=[SeatRow(0, "u", "Ann")])
            runner = await monitor.serve(monitor.Health(repo, []), "127.0.0.1", 0)
            url = f"http://127.0.0.1:{monitor.bound_port(runner)}/metrics"
            try:
                async with aiohttp.ClientSession() as session:
                    rounds, size = 50, 0
                    start = time.perf_counter()
                    for _ in range(rounds):
                        async with session.get(url) as answer:
                            size = len(await answer.read())
                    http = (time.perf_counter() - start) / rounds * 1e3
            finally:
                await runner.cleanup()
    render = per_call(lambda: generate_latest(metrics.REGISTRY), 200) / 1e3
    return http, render, size


def log_line_costs(n: int) -> dict[str, float]:
    record = logging.LogRecord("telegram.ext", logging.DEBUG, __file__, 1,
                               "HTTP Request: POST https://api.telegram.org/bot%s/sendMessage",
                               (TOKEN,), None)
    record.table_id, record.platform, record.channel = "17", "telegram", "-1001"
    plain = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    costs = {"plain text, no redaction": per_call(lambda: plain.format(record), n)}
    for fmt in ("text", "json"):
        handler = logs.setup(Settings(_env_file=None, telegram_token=TOKEN,  # type: ignore[call-arg]
                                      log_format=fmt), stream=io.StringIO())
        for f in handler.filters:
            f.filter(record)  # type: ignore[union-attr]
        formatter = handler.formatter
        assert formatter is not None
        line = formatter.format(record)
        assert TOKEN not in line
        costs[f"LOG_FORMAT={fmt}, redacted"] = per_call(lambda f=formatter: f.format(record), n)
    logging.getLogger().handlers.clear()
    return costs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=10_000)
    args = parser.parse_args()
    print(f"monitoring bench, {time.strftime('%Y-%m-%d %H:%M')}, Python "
          f"{sys.version.split()[0]}")
    print(f"metric updates per move: {per_call(move_metrics, 200_000):.2f} µs")
    http, render, size = asyncio.run(scrape(args.tables))
    print(f"/metrics over HTTP with {args.tables:,} tables: {http:.2f} ms per scrape "
          f"({size:,} bytes); registry rendering alone {render:.2f} ms")
    for name, cost in log_line_costs(20_000).items():
        print(f"log line, {name}: {cost:.1f} µs")


if __name__ == "__main__":
    main()
