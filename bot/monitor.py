"""`/healthz` and `/metrics` on METRICS_HOST:METRICS_PORT, for a supervisor and a scraper.

Served by aiohttp (already a dependency through discord.py) on the bot's own event loop,
so a health check sees the same database connection and platform clients the bot uses:
a loop too busy to answer is itself a failed check.
"""

import asyncio
import logging
from collections.abc import Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot import metrics
from db.repository import Repository

log = logging.getLogger(__name__)

PING_TIMEOUT = 2.0  # seconds: a database slower than this to answer SELECT 1 is unwell

# A platform's check: None when connected, else the reason in a few words.
Check = Callable[[], str | None]


class Health:
    """Healthy once the database answers and every configured platform is connected."""

    def __init__(self, repo: Repository, platforms: list[str]) -> None:
        self.repo = repo
        self._expected = list(platforms)
        self._checks: dict[str, Check] = {}

    def watch(self, platform: str, check: Check) -> None:
        """An adapter that started reports how to tell whether it is still connected."""
        self._checks[platform] = check

    async def problem(self) -> str | None:
        try:
            await asyncio.wait_for(self.repo.ping(), PING_TIMEOUT)
        except TimeoutError:
            return f"database: no answer within {PING_TIMEOUT:g} s"
        except Exception as exc:
            return f"database: {_one_line(exc)}"
        for platform in self._expected:
            check = self._checks.get(platform)
            if check is None:
                return f"{platform}: not started yet"
            reason = check()
            if reason:
                return f"{platform}: {reason}"
        return None


HEALTH = web.AppKey("health", Health)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]


async def _healthz(request: web.Request) -> web.Response:
    problem = await request.app[HEALTH].problem()
    if problem is None:
        return web.Response(text="ok\n")
    return web.Response(status=503, text=f"{problem}\n")


async def _metrics(request: web.Request) -> web.Response:
    health = request.app[HEALTH]
    try:
        counts = await asyncio.wait_for(health.repo.table_counts(), PING_TIMEOUT)
    except Exception as exc:  # the other metrics still tell an operator something
        log.warning("tables not counted for /metrics: %s", _one_line(exc))
        metrics.TABLES.clear()
    else:
        metrics.TABLES.clear()
        for (game, status), count in counts.items():
            metrics.TABLES.labels(game, status).set(count)
    body = generate_latest(metrics.REGISTRY)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


async def serve(health: Health, host: str, port: int) -> web.AppRunner:
    """Start serving; `await runner.cleanup()` stops. Port 0 picks a free one (tests)."""
    app = web.Application()
    app[HEALTH] = health
    app.router.add_get("/healthz", _healthz)
    app.router.add_get("/metrics", _metrics)
    runner = web.AppRunner(app, access_log=None)  # a scrape every 15 s is no news
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port actually listened on (for METRICS_PORT=0)."""
    for address in runner.addresses:
        if isinstance(address, tuple):
            return int(address[1])
    raise RuntimeError("the metrics server listens on no TCP port")
