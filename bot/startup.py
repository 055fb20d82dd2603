"""Start-up: every unfinished table of this process resumed, and a table taken over from
another process resumed the same way.

Start-up only reads rows and schedules: each table is loaded, verified against its move
log and given its next bot move by a `resume` job, so a restart with thousands of tables
is quick and players are served while the rest resumes.
"""

import contextlib
import gc
import logging
from collections.abc import Iterable
from typing import Protocol

from bot.clock import Clock
from bot.scheduler import Scheduler
from bot.table import Table
from db.repository import LOBBY, PLAYING, Deadline, Repository, StorageError

log = logging.getLogger(__name__)

# Seconds before the newest stored change within which a table is redrawn at start-up:
# longer than any delivery waits in the outbox and the rate limiter.
REDRAW_WINDOW = 600.0


class Langs(Protocol):
    async def read_channel_langs(self, channels: Iterable[str]) -> None: ...


class Resuming(Protocol):
    """What resuming asks of the tables around it."""

    repo: Repository
    clock: Clock
    platform: str
    scheduler: Scheduler

    @property
    def people(self) -> Langs: ...

    def drives(self, table_id: int) -> bool: ...

    def table(self, table_id: int) -> Table: ...

    def let_go(self, table_id: int) -> None: ...


async def resume(tables: Resuming, *, alone: bool) -> None:
    """Resume every unfinished table: deadlines at once, everything else as a job.

    Tables that changed shortly before the previous process stopped (within
    `REDRAW_WINDOW` of the newest stored change) are redrawn too, lobbies and games
    finished then included (see `Table.redraw`): only their deliveries can have been
    in flight. Older ones were delivered, or given up, long before; redrawing them
    would cost a request per message for nothing, all queued before the players'
    own moves under the platform's rate limit. `alone`: no other process shares the
    database, so a game that ended just before the stop is this one's to redraw.
    """
    repo = tables.repo
    deadlines = {d.table_id: d for d in await repo.deadlines()}
    now = tables.clock.now()
    newest = await repo.newest_change()
    since = (newest or 0.0) - REDRAW_WINDOW
    seats = await repo.open_tables_seats()
    moved: list[Deadline] = []  # past due: moved on by a grace, all in one write
    resumed: list[Table] = []
    for row in await repo.unfinished_tables():
        if row.platform != tables.platform or row.status not in (LOBBY, PLAYING):
            continue
        if not tables.drives(row.id):
            continue
        table = tables.table(row.id)
        if row.updated_at >= since:
            table.redraw_due = True
        elif row.status == LOBBY:
            continue  # an idle lobby has nothing to resume
        table.resuming_seats = seats.get(row.id, [])
        deadline = deadlines.get(row.id)
        if table.turns.resume_later(row, deadline) and deadline is not None:
            moved.append(deadline)
        resumed.append(table)
    try:
        await repo.set_deadlines(moved)
    except StorageError:
        log.exception("extended deadlines not stored; they still run in memory")
    # Their channels' languages at once, for the turn calls and redraws to come.
    await tables.people.read_channel_langs(
        t.resuming.channel for t in resumed if t.resuming is not None)
    # A game's last move (or its cancelling) may have been stored just before the process
    # stopped, not yet shown: without a redraw it would look stuck for good.
    for row in await repo.just_ended_tables(REDRAW_WINDOW):
        if row.platform == tables.platform and alone:
            table = tables.table(row.id)
            table.redraw_due = True
            table.resuming = row
            tables.scheduler.at(now, "resume", row.id, row.version)
    _freeze_start_up_heap()


async def take_over(tables: Resuming, table_id: int) -> None:
    """Drive a table from now on, as a restart resumes one: its stored deadline armed
    (with the grace a restart gives), its bot's move scheduled, and its screens redrawn:
    its last driver may have died with deliveries in flight, and a change made while
    it had none was told to nobody."""
    tables.let_go(table_id)  # whatever this process knew of it is stale
    log.info("table %s: driven here from now on", table_id)
    # The deadline before the table, as a restart reads them: a move stored elsewhere
    # in between then leaves an older turn's deadline beside a newer table (a fresh
    # deadline is set for the turn), never a newer deadline beside an older table,
    # which armed no timer for either and left the game waiting for good.
    deadline = next(iter(await tables.repo.deadlines(table_id)), None)
    row = await tables.repo.get_table(table_id)
    if row is None or row.status not in (LOBBY, PLAYING):
        return
    table = tables.table(table_id)
    table.deadline_resumed = None
    table.redraw_due = True
    if table.turns.resume_later(row, deadline) and deadline is not None:
        with contextlib.suppress(StorageError):
            await tables.repo.set_deadline(deadline)


_heap_frozen = False
YOUNG_OBJECTS = 50_000  # new objects between two collections of the youngest generation


def _freeze_start_up_heap() -> None:
    """Leave what start-up made (modules, libraries, sentences: about 100,000 objects) out
    of the cycle collector's full passes, once per process.

    A move replaces its table's state, so new objects keep reaching the oldest generation,
    and each full pass walked the whole heap: a tenth of a bot move's CPU time in the
    service bench, two thirds of it spent on objects that live as long as the process.
    Objects frozen here are still freed by reference counting; only a cycle among them
    would stay, and what exists at start-up lives until the process ends anyway. Once: a
    process running two platforms, or many tests, must not freeze each other's garbage.

    The youngest generation is also collected after 50,000 new objects, not 700: a bot
    move leaves a few dozen behind (sentences remembered, narration, the states of the
    moves in flight), so the collector ran every dozen moves and passed the survivors on
    to the older generations it then walked too. 0.06-0.08 ms of CPU a move went to it
    (gc callbacks, 1,000 bot tables), 0.02-0.03 ms at 10,000. The count is of objects made
    less objects freed, old ones included: a move frees its table's last state, so the
    young generation a pass walks is every table's state and view made since the last
    pass, about 80,000 objects at 1,000 busy tables, whatever the threshold. So fewer
    passes cost less in all (10,000: 12 us of CPU a bot move, passes of up to 56 ms;
    50,000: 4 us, passes of up to 90 ms and a rare older-generation pass of up to 0.2 s,
    below what a chat user can tell from a platform's own delay).
    """
    global _heap_frozen
    if not _heap_frozen:
        _heap_frozen = True
        gc.collect()  # what start-up left as garbage goes first: frozen, it would stay
        gc.freeze()
        gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])


__all__ = ["REDRAW_WINDOW", "Resuming", "resume", "take_over"]
