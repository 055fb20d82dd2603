"""Reading one table into this process, checking it, and catching up with changes made
elsewhere.

The move log is the truth and the snapshot a cache: a table resumed from its snapshot is
checked against its log once per process, before its next move or its redraw, and one
whose log no longer replays is closed. A table is read one at a time, into the one copy
everyone here holds (a press, a job, the lock's holder): two copies would each take moves
the other never sees. A change another process made is caught up by replaying the moves
it logged on this copy, which gives back the events that process narrated.
"""

import asyncio
import logging
from collections import deque
from typing import Any, Protocol

from bot import options as table_options
from bot import present
from bot.host import Host
from bot.live import TOLD_MOVES, Live
from bot.showing import Showing
from db.repository import (
    FINISHED,
    LOBBY,
    PLAYING,
    Deadline,
    SeatRow,
    StorageError,
    TableRow,
)
from engine import games
from engine.core.protocol import Game

log = logging.getLogger(__name__)


def stamp(row: TableRow) -> tuple[int, str, float]:
    """What changes with every stored change of a table (seats and settings do not all
    move its version)."""
    return row.version, row.status, row.updated_at


class Loaded(Protocol):
    """The table as loading sees it (`bot.table.Table`): what it reads into, and the
    bookkeeping of the copy that `Tables` and the timers keep on it."""

    live: Live
    stale: bool
    unarranged: bool
    resuming: TableRow | None
    resuming_seats: list[SeatRow] | None
    deadline_resumed: Deadline | None

    @property
    def id(self) -> int: ...

    @property
    def kept(self) -> Live | None: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def host(self) -> Host[Any]: ...

    @property
    def showing(self) -> Showing: ...

    async def after_change(self, events: list[Any], *, mover: int | None = None,
                           notify_turn: bool = False) -> None: ...

    async def close_broken(self, key: str) -> None: ...


class Loading:
    """How one table's state gets into this process, and stays the stored one."""

    __slots__ = ("_checking", "_loading", "_table")

    def __init__(self, table: Loaded) -> None:
        self._table = table
        self._loading: asyncio.Future[Live | None] | None = None  # a read under way
        self._checking: asyncio.Future[bool] | None = None  # its log being replayed

    def busy(self) -> bool:
        """A read or a check is under way: the table may not be dropped or handed on."""
        return self._loading is not None or self._checking is not None

    async def load(self, *, check: bool = True) -> Live | None:
        """Its state, read if need be. With `check`, a table resumed from its snapshot is
        first checked against its move log (once per process); a table whose log no
        longer replays is closed with a word in its channel, and None returned."""
        table = self._table
        live = await self._load_unchecked()
        if live is None or not check or table.id in table.host.verified \
                or live.state is None:
            return live
        return live if await self._check(live) else None

    async def _check(self, live: Live) -> bool:
        table = self._table
        pending = self._checking
        if pending is not None:
            return await asyncio.shield(pending)
        checking: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._checking = checking
        restorable = False
        try:
            await self._verify(live)
            restorable = True
        except StorageError as exc:
            checking.set_exception(exc)
            checking.exception()  # retrieved: those waiting get it, or nobody needs to
            raise
        except Exception:
            log.exception("table %s cannot be restored; closing it", table.id)
            await table.close_broken("table_unrestorable")
        finally:
            self._checking = None
            if not checking.done():
                checking.set_result(restorable)
        return restorable

    async def _load_unchecked(self) -> Live | None:
        table = self._table
        live = table.kept
        if live is not None and table.stale and not table.lock.locked():
            live = None  # read afresh below, into the same copy
            table.resuming = table.resuming_seats = None  # what is stored now, not then
        elif live is not None and not table.host.drives(table.id) \
                and not table.lock.locked():
            # Another process drives it and moves it on: a copy kept here may be old. (While
            # a change is being decided here, the copy stays as it is: that change's write is
            # conditional, and a refused one reads the table again under the lock.)
            row = await table.host.repo.get_table(table.id)
            if row is None or stamp(row) != stamp(live.row):
                live = None  # read afresh below, into the same copy
        if live is not None:
            table.host.used(table)
            return live
        # One read at a time: two copies of one table (a press and a job arriving together)
        # would each take moves the other never sees.
        pending = self._loading
        if pending is not None:
            return await asyncio.shield(pending)
        loading: asyncio.Future[Live | None] = asyncio.get_running_loop().create_future()
        self._loading = loading
        try:
            fresh = await self._fetch()
            if fresh is None:
                live = None  # gone, or closed as beyond restoring
            elif table.kept is not None and table.lock.locked():
                live = table.kept  # a change is being decided on the copy: see above
            else:
                live = self._take(fresh)
        except asyncio.CancelledError:
            loading.cancel()
            raise
        except Exception as exc:  # those waiting get the same error, e.g. a storage fault
            loading.set_exception(exc)
            loading.exception()  # retrieved here: no "never retrieved" warning if none wait
            raise
        else:
            loading.set_result(live)
            return live
        finally:
            self._loading = None

    def _take(self, fresh: Live) -> Live:
        """The table as just read becomes its state here. Read again, it is taken into the
        copy already held, so that everyone here (a job, a press, the lock's holder) has
        one and the same copy; only the lock's holder, or nobody, may do that."""
        table = self._table
        live = table.kept
        table.stale = False
        if live is None:
            table.live = fresh
            table.host.read(table)
            return fresh
        if stamp(fresh.row) != stamp(live.row) and table.host.drives(table.id):
            # Whoever reads it (a reminder's job, a look at a hand) may arrange nothing;
            # the change's notice, arriving after, would find the copy current.
            table.unarranged = True
        live.row, live.seats, live.state = fresh.row, fresh.seats, fresh.state
        if fresh.deadline is not None:  # as stored for this turn, re-armed by a take-over
            live.deadline = fresh.deadline
        table.host.used(table)
        return live

    async def _fetch(self) -> Live | None:
        """The stored table, as a new copy (`_take` makes it this table's state)."""
        table = self._table
        # A table resumed at start-up was read with all the others; read it again only later.
        row, seats = table.resuming, table.resuming_seats
        table.resuming = table.resuming_seats = None
        if row is None:
            row = await table.host.repo.get_table(table.id)
            if row is None:
                return None
        if seats is None:
            seats = await table.host.repo.get_seats(table.id)
        try:
            live = Live(row=row, seats=seats, game=games.get(row.game), state=None,
                        ref=await table.host.ref(row.id))
            deadline = table.deadline_resumed
            if deadline is not None and deadline.version == row.version:
                live.deadline = deadline
            if row.snapshot is not None:
                # Checked against its log before its next move (`commit`) or its redraw
                # after a restart: thousands of tables do not replay every log up front.
                live.state = live.game.load(row.snapshot)
        except StorageError:
            raise
        except Exception:
            # A game this version no longer has, or a log its rules no longer replay (a
            # rules fix between versions): it cannot go on, so its channel hears why and
            # is free at once. Its rows stay for a developer to look at.
            log.exception("table %s cannot be restored; closing it", table.id)
            if row.status in (LOBBY, PLAYING):
                await table.close_broken("table_unrestorable")
            return None
        return live

    async def _verify(self, live: Live) -> None:
        """The move log is the truth and the snapshot a cache: check it once per process."""
        table = self._table
        row, game = live.row, live.game
        recent: deque[list[Any]] = deque(maxlen=TOLD_MOVES)
        replayed = await self._replay(row, game, len(live.seats), recent)
        if live.row.version != row.version or row.id in table.host.verified:
            return  # moved on meanwhile: the log was read before that move
        dumped = game.dump(replayed)
        live.state = replayed  # equal to the snapshot's state when they agree
        # The table's "last moves" as they were before the restart, for its redraw: put
        # into words when drawn, newest first until the list is full (`Live.last_lines`).
        try:
            lang = await table.host.channel_lang(row.channel)
            made = list(live.told)  # moves made since it was loaded
            live.told.clear()
            live.told.extend(present.told(live, events, lang) for events in recent)
            live.told.extend(made)
        except Exception:  # a narration bug costs the lines, never the table
            log.exception("table %s: last moves not narrated", row.id)
        if dumped != row.snapshot:
            log.error("table %s: snapshot differs from its move log; using the log", row.id)
            live.row = await table.host.repo.update_table(row.id, expected_version=row.version,
                                                     snapshot=dumped)
            table.host.repaired.append(row.id)
        table.host.verified.add(row.id)

    async def _replay(self, row: TableRow, game: Game, seats: int,
                      recent: deque[list[Any]] | None = None) -> Any:
        """The state the move log gives; `recent` receives the events of its last moves."""
        state = game.new_game(seats, table_options.stored(game, row.options), row.seed)
        if row.version == 0:
            return state  # nothing logged yet: no need to read the log
        for move in await self._table.host.repo.moves(row.id):
            if move.seq > row.version:
                break  # logged since `row` was read (by another process): not in its snapshot
            state, events = game.apply(state, move.seat,
                                       game.parse_move(state, move.seat, move.move))
            if recent is not None:
                recent.append(events)
        return state

    async def reload(self) -> None:
        """Another process (or another copy here) moved this table on: take the stored
        table into the copy everyone here holds (the caller holds the lock).

        When this process drives the table, a change the read took in (`unarranged`) is
        also arranged for here (a bot now in the seat to act, the turn's deadline, the
        screens): the notice of it may still be on its way, and its catch-up would then
        find the copy already current. A press refused as out of date after a /leave
        elsewhere left the bot that took the seat waiting for good so. A copy that was
        stale (let go of at a take-over) is left to the next catch-up or job, as ever."""
        table = self._table
        stale = table.stale
        live = await self.read_again()
        if live is None or stale or not table.unarranged:
            return
        table.host.scheduler.moved(table.id, live.row.version)
        await table.after_change([])

    async def read_again(self) -> Live | None:
        """The stored table, read afresh (and checked) into the copy held here (the caller
        holds the lock); None when it is gone or cannot be restored."""
        table = self._table
        table.resuming = table.resuming_seats = None  # rows read before: stale
        fresh = await self._fetch()
        if fresh is None:
            return None
        live = self._take(fresh)
        if table.id in table.host.verified or live.state is None:
            return live
        return live if await self._check(live) else None

    # --- several processes: changes made elsewhere ----------------------------------------

    async def catch_up(self) -> None:
        """Show a change another process made to this table, which this one drives.

        The moves it logged are played on this process's copy, which gives the events that
        process narrated (a round's end, the final ranking); what else changed (seats, a
        lobby, a start) is shown from the stored table. Then the next turn is arranged.
        """
        async with self._table.lock:
            await self.catch_up_held()

    async def catch_up_held(self) -> None:
        """`catch_up`, the caller holding the lock."""
        table = self._table
        live = table.kept
        log.debug("table %s: catching up from version %s", table.id,
                  live.row.version if live else None)
        row = await table.host.repo.get_table(table.id)
        if row is None or (live is not None and stamp(row) == stamp(live.row)
                           and not table.unarranged):
            return
        table.unarranged = False  # arranged below, whichever way
        table.host.scheduler.moved(table.id, row.version)
        events, mover = await self._logged_events(live, row)
        if events is not None and live is not None:
            live.row, live.seats = row, await table.host.repo.get_seats(table.id)
            await table.after_change(events, mover=mover)
            return
        was_playing = live is not None and live.row.status == PLAYING
        # Into the same copy: what this process last showed of it stays (the table's last
        # moves, whose turn was called, the turn's deadline if still that turn's).
        fresh = await self.read_again()
        if fresh is None:
            return
        if fresh.row.status == LOBBY or fresh.state is None:
            await table.showing.show_table()
        elif fresh.row.status == PLAYING:
            await table.after_change([], notify_turn=live is None)
        elif fresh.row.status == FINISHED and was_playing:
            await table.showing.redraw()
            result = fresh.game.outcome(fresh.state)
            if result is not None:
                await table.showing.announce_ranking(
                    result, await table.host.channel_lang(fresh.row.channel))

    async def _logged_events(self, live: Live | None, row: TableRow
                             ) -> tuple[list[Any] | None, int | None]:
        """The events of the moves logged since `live`'s version, with the state they lead
        to taken into `live`; None when they do not lead exactly to `row` (a seat or
        setting changed between them, or this copy is not the one they started from)."""
        if live is None or live.state is None or live.row.status != PLAYING \
                or row.status not in (PLAYING, FINISHED) or row.snapshot is None:
            return None, None
        moves = await self._table.host.repo.moves(row.id, after=live.row.version)
        if not moves or [m.seq for m in moves] != list(range(live.row.version + 1,
                                                             row.version + 1)):
            return None, None
        game, state, events = live.game, live.state, []
        try:
            for move in moves:
                state, more = game.apply(state, move.seat,
                                         game.parse_move(state, move.seat, move.move))
                events.extend(more)
        except Exception:
            log.exception("table %s: the moves logged elsewhere do not replay here", row.id)
            return None, None
        if game.dump(state) != row.snapshot:
            return None, None
        live.state = state
        return events, moves[-1].seat
