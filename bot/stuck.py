"""A safety net for games: a table in memory whose next step is a bot's move or a turn's
deadline, with no timer of it armed, has its next turn arranged.

No known path leaves a game so, but one unknown must not stop it for good. Each one found
is logged as a warning, to be fixed at its cause.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from bot.loading import stamp
from bot.table import Table
from db.repository import StorageError

log = logging.getLogger(__name__)

# Seconds between looks for tables in memory waiting on nothing, and how long such a
# table has gone untouched before it counts: a move's own arranging of the next turn
# takes well under a second, and a table is only taken for stuck when two looks in a row
# find it so, unchanged.
STUCK_CHECK_SECONDS = 30.0

# A table found waiting on nothing by a look, with the stamp it had then.
Suspects = dict[int, tuple[int, str, float]]


async def watch(look: Callable[[], Awaitable[int]]) -> None:
    """Look every `STUCK_CHECK_SECONDS`, until cancelled."""
    while True:
        await asyncio.sleep(STUCK_CHECK_SECONDS)
        try:
            await look()
        except Exception:
            log.exception("looking for tables waiting on nothing failed")


async def unstick(tables: Iterable[Table], suspects: Suspects, now: float
                  ) -> tuple[int, Suspects]:
    """Arrange the next turn of each of `tables` (those in memory this process drives)
    that waits on nothing: a bot or a deadline due, no timer armed, untouched for
    `STUCK_CHECK_SECONDS`. How many were, and the suspects for the next look.

    Only a table found so by the last look too (`suspects`), unchanged, counts: a change
    stored and not yet shown (the next turn is arranged after the showing) looks the same,
    and on a machine slow enough its showing can take seconds. Arranged by the net
    meanwhile, its players would hear "your turn" twice."""
    quiet_since = now - STUCK_CHECK_SECONDS
    found = 0
    seen: Suspects = {}
    for table in [each for each in tables if each.turns.waits_on_nothing(quiet_since)]:
        current = stamp(table.live.row)
        if suspects.get(table.id) != current:
            seen[table.id] = current
            continue
        try:
            found += await table.turns.rearrange()
        except StorageError:
            seen[table.id] = current
            log.warning("table %s: its next turn not arranged; tried again later",
                        table.id, exc_info=True)
    return found, seen


__all__ = ["STUCK_CHECK_SECONDS", "Suspects", "unstick", "watch"]
