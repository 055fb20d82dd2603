"""The bot's Prometheus metrics, counted where the events happen, served by bot/monitor.py.

One registry of the bot's own (not prometheus-client's global one), so that tests and
benchmarks running several bots in one process read only what Tapis counts, and
`/metrics` carries nothing a library registered behind our back. Counters are
process-wide like any Prometheus client's: a scrape reads totals since the start.
"""

import time
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
)

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)

TABLES = Gauge(
    "tapis_tables", "Tables stored, by game and status (read from the database at each scrape)",
    ["game", "status"], registry=REGISTRY)
MOVES = Counter(
    "tapis_moves_accepted", "Moves stored, by platform, game and who made them "
    "(player, bot, afk)", ["platform", "game", "actor"], registry=REGISTRY)
REFUSED = Counter(
    "tapis_moves_refused", "Moves refused, by platform and reason (the engine's code, or "
    "not_seated, out_of_date, no_game, storage_failed)", ["platform", "reason"],
    registry=REGISTRY)
MOVE_SECONDS = Histogram(
    "tapis_move_latency_seconds", "From a player's move arriving to its answer (stored, "
    "deliveries queued), by platform", ["platform"], registry=REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0))
QUEUE = Gauge(
    "tapis_delivery_queue_depth", "Deliveries waiting for the platform (table and hand "
    "edits, announcements, notices), by platform", ["platform"], registry=REGISTRY)
REQUESTS = Counter(
    "tapis_platform_requests", "Calls made to the platform's API, by platform and method",
    ["platform", "method"], registry=REGISTRY)
ERRORS = Counter(
    "tapis_platform_errors", "Platform calls that failed, by platform, method and HTTP "
    "status (429 is a rate limit; 'network' when no answer came)",
    ["platform", "method", "status"], registry=REGISTRY)
SINCE_SUCCESS = Gauge(
    "tapis_platform_seconds_since_success", "Seconds since the platform last answered a "
    "call successfully (NaN before the first)", ["platform"], registry=REGISTRY)

_last_success: dict[str, float] = {}
_moves: dict[tuple[str, str, str], Any] = {}


def moved(platform: str, game: str, actor: str) -> None:
    """One move stored. Its counter is found once per label set: `labels` checks, converts
    and locks at every call, and it is called at every move."""
    key = (platform, game, actor)
    child = _moves.get(key)
    if child is None:
        child = _moves[key] = MOVES.labels(platform, game, actor)
    child.inc()


def platform_call(platform: str, method: str, status: int | None) -> None:
    """One API call finished: `status` is the HTTP status, None when no answer came."""
    REQUESTS.labels(platform, method).inc()
    if status is None or status >= 400:
        ERRORS.labels(platform, method, "network" if status is None else str(status)).inc()
        return
    if platform not in _last_success:
        SINCE_SUCCESS.labels(platform).set_function(lambda: _since(platform))
    _last_success[platform] = time.monotonic()


def _since(platform: str) -> float:
    last = _last_success.get(platform)
    return float("nan") if last is None else time.monotonic() - last


def last_success(platform: str) -> float | None:
    """`time.monotonic()` of the platform's last successful call, if any."""
    return _last_success.get(platform)
