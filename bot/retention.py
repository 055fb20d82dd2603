"""The daily sweep: what can never come back is deleted.

Always, closed tables (paused when the bot lost their channel) that a newer table of the
same channel rules out: only a channel's newest table comes back with it. With
RETENTION_DAYS, also finished and cancelled tables once that old.
"""

import asyncio
import logging
import time

from db.repository import Repository, StorageError

log = logging.getLogger(__name__)

DAY = 86400.0


async def sweep(repo: Repository, days: int | None, *, now: float | None = None) -> int:
    """Delete what can never come back, and with `days` what is older than that now; the
    count, 0 when the database failed (the next day's sweep takes what this one could not)."""
    before = None if days is None else (time.time() if now is None else now) - days * DAY
    try:
        deleted = await repo.delete_tables_before(before)
    except StorageError as exc:
        log.warning("retention: old tables not deleted this time: %s", exc)
        return 0
    if deleted and days is not None:
        log.info("retention: deleted %d tables finished over %d days ago or ruled out by a "
                 "newer one", deleted, days)
    elif deleted:
        log.info("retention: deleted %d paused tables ruled out by a newer one", deleted)
    return deleted


async def daily(repo: Repository, days: int | None) -> None:
    """At start-up, then every 24 hours, until cancelled."""
    while True:
        await sweep(repo, days)
        await asyncio.sleep(DAY)
