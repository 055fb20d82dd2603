"""RETENTION_DAYS: finished and cancelled tables are deleted once that old, once a day."""

import asyncio
import logging
import time

from db.repository import Repository, StorageError

log = logging.getLogger(__name__)

DAY = 86400.0


async def sweep(repo: Repository, days: int, *, now: float | None = None) -> int:
    """Delete what is older than `days` now; the count, 0 when the database failed (the
    next day's sweep takes what this one could not)."""
    before = (time.time() if now is None else now) - days * DAY
    try:
        deleted = await repo.delete_tables_before(before)
    except StorageError as exc:
        log.warning("retention: old tables not deleted this time: %s", exc)
        return 0
    if deleted:
        log.info("retention: deleted %d tables finished over %d days ago", deleted, days)
    return deleted


async def daily(repo: Repository, days: int) -> None:
    """At start-up, then every 24 hours, until cancelled."""
    while True:
        await sweep(repo, days)
        await asyncio.sleep(DAY)
