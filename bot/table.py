"""One table's whole life in this process: its lock, its state, its timers, its deliveries.

A `Table` is the unit `bot.tables.Tables` routes every event to: a command typed in its
channel, a press on one of its buttons, a timer of its own, a change another process
made to it. Everything that happens to one table happens here, in this order:

- loading: the stored row, its seats and the engine state, checked once against the
  move log (the truth; the snapshot is a cache);
- the lobby: seats, options, the host, starting, cancelling, rematches;
- moves: a person's, a bot's, an absent player's (the AFK policy), each one stored
  before anything else sees it;
- timers: turn calls, reminders, deadlines and bot moves, all re-checked against the
  table's version when they fire;
- showing: the table message, each player's hand, announcements, queued on the outbox;
- the platform's news: its channel lost or back, a player who cannot be reached.

Rules are the engine's: a table only decides who may act for which seat and when.
"""

import asyncio
import contextlib
import functools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from bot import changes, clean, metrics, present
from bot import options as table_options
from bot.authority import MemberCheck, RightsUnknown
from bot.deliveries import Announcement, HandMessage, TableMessage
from bot.driving import SHOWING_CHANGE
from bot.i18n import t
from bot.live import TOLD_MOVES, Actor, Live, Reply, Told
from bot.render import Button
from bot.turns import Turns
from db.repository import (
    CANCELLED,
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    Deadline,
    ResultRow,
    SeatRow,
    StorageError,
    TableExists,
    TableRow,
    Unstorable,
    VersionConflict,
    settings_without,
)
from engine import BadOptions, IllegalMove, games
from engine.core.options import parse_options
from engine.core.protocol import Game

if TYPE_CHECKING:
    from bot.tables import Tables

log = logging.getLogger(__name__)

# The longest move of any game (The Game: a hand of eight plays with their piles) is under
# 100 characters; a longer text is no move, and is not handed to a parser.
MAX_MOVE_CHARS = 300
# Each attempt after the first follows a change that did get stored: a join can lose to
# each of the other changes made at the same moment, so this many outlast a group of
# friends joining at once from two processes (five there: one lost attempt each).
LOBBY_ATTEMPTS = 8
BOT_NAMES = ["Ada", "Boole", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper",
             "Ising", "Jacobi", "Knuth", "Lovelace"]

P = ParamSpec("P")
R = TypeVar("R")


class LobbyMoved(Exception):
    """The stored table changed since this process read it (another process, or another
    copy of it here after the cache let one go); the copy now holds the stored table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} changed meanwhile")
        self.table_id = table_id


def retried_when_moved(
    method: Callable[Concatenate["Table", Actor, P], Awaitable[Reply]],
) -> Callable[Concatenate["Table", Actor, P], Awaitable[Reply]]:
    """Decide again, on the stored table, when a lobby write finds it changed.

    A join decided on a stale copy would overwrite the seat another join just took;
    refused by the conditional write, it is made again on what is stored now, so both
    seats stay. Each retry follows a change that was stored, so a few attempts only run
    out under a storm of changes; the person is then asked to try again.
    """

    @functools.wraps(method)
    async def retried(table: "Table", actor: Actor, /, *args: P.args,
                      **kwargs: P.kwargs) -> Reply:
        for _ in range(LOBBY_ATTEMPTS - 1):
            try:
                return await method(table, actor, *args, **kwargs)
            except LobbyMoved as moved:
                log.info("%s: %s; deciding again", method.__name__, moved)
        try:
            return await method(table, actor, *args, **kwargs)
        except LobbyMoved:
            return await table.refuse(actor, "lobby_busy")

    return retried


def stamp(row: TableRow) -> tuple[int, str, float]:
    """What changes with every stored change of a table (seats and settings do not all
    move its version)."""
    return row.version, row.status, row.updated_at


class Table:
    """One table, as this process knows it; `Tables` keeps one per table id it meets.

    It exists before its state is read (a job or a lock may name it first): `live` is
    its state once `load` has read it. `Tables` lets go of the object when it is idle
    (never while its lock is held); whoever still holds it then finishes with its copy,
    and the next event reads the table afresh into a new one.
    """

    __slots__ = (
        "__weakref__",
        "_checking",
        "_loading",
        "clock",
        "deadline_resumed",
        "id",
        "live",
        "lock",
        "outbox",
        "platform",
        "redraw_due",
        "repo",
        "resuming",
        "resuming_seats",
        "scheduler",
        "settings",
        "stale",
        "tables",
        "turns",
        "unarranged",
    )
    live: Live  # its state: set by its first read, unset until then

    def __init__(self, tables: "Tables", table_id: int) -> None:
        self.id = table_id
        self.tables = tables
        # What every table shares, held here so a move does not look it up on `Tables`.
        self.repo, self.outbox, self.scheduler = tables.repo, tables.outbox, tables.scheduler
        self.clock, self.settings, self.platform = tables.clock, tables.settings, tables.platform
        # One change at a time: a press, a job and a catch-up each hold it while they
        # decide and store.
        self.lock = asyncio.Lock()
        self._loading: asyncio.Future[Live | None] | None = None  # a read under way
        self._checking: asyncio.Future[bool] | None = None  # its log being replayed
        # Read by `Tables.start` with all the others, until it is first loaded.
        self.resuming: TableRow | None = None
        self.resuming_seats: list[SeatRow] | None = None
        self.deadline_resumed: Deadline | None = None  # a stored deadline re-armed at resume
        self.redraw_due = False  # changed shortly before the last stop: redrawn on resume
        # Its copy may be behind what is stored (this process stopped driving it for a
        # while): read again at the next load that is not inside a change. The object
        # itself stays: a press that already holds it must change the one copy everyone
        # here reads, or its move and the timers it arms land where nobody looks.
        self.stale = False
        # Its copy took in a change made elsewhere (read again after being let go of) that
        # nothing here has arranged yet: the next catch-up arranges it, though the copy
        # now looks current.
        self.unarranged = False
        # Its deadlines, reminders, turn calls, AFK policy and bots (weakly holding it).
        self.turns = Turns(self)

    @property
    def kept(self) -> Live | None:
        """Its state if read already (`live` is only asked for once `load` gave it)."""
        return getattr(self, "live", None)

    @property
    def loaded(self) -> bool:
        return hasattr(self, "live")

    def busy(self) -> bool:
        """Something is under way for it here: it may not be dropped or handed on."""
        return self.lock.locked() or self._loading is not None or self._checking is not None

    # --- loading --------------------------------------------------------------------------

    async def load(self, *, check: bool = True) -> Live | None:
        """Its state, read if need be. With `check`, a table resumed from its snapshot is
        first checked against its move log (once per process); a table whose log no
        longer replays is closed with a word in its channel, and None returned."""
        live = await self._load_unchecked()
        if live is None or not check or self.id in self.tables.verified \
                or live.state is None:
            return live
        return live if await self._check(live) else None

    async def _check(self, live: Live) -> bool:
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
            log.exception("table %s cannot be restored; closing it", self.id)
            await self.close_broken("table_unrestorable")
        finally:
            self._checking = None
            if not checking.done():
                checking.set_result(restorable)
        return restorable

    async def _load_unchecked(self) -> Live | None:
        live = self.kept
        if live is not None and self.stale and not self.lock.locked():
            live = None  # read afresh below, into the same copy
            self.resuming = self.resuming_seats = None  # what is stored now, not then
        elif live is not None and not self.tables.drives(self.id) \
                and not self.lock.locked():
            # Another process drives it and moves it on: a copy kept here may be old. (While
            # a change is being decided here, the copy stays as it is: that change's write is
            # conditional, and a refused one reads the table again under the lock.)
            row = await self.repo.get_table(self.id)
            if row is None or stamp(row) != stamp(live.row):
                live = None  # read afresh below, into the same copy
        if live is not None:
            self.tables.used(self)
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
            elif self.kept is not None and self.lock.locked():
                live = self.kept  # a change is being decided on the copy: see above
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
        live = self.kept
        self.stale = False
        if live is None:
            self.live = fresh
            self.tables.read(self)
            return fresh
        if stamp(fresh.row) != stamp(live.row) and self.tables.drives(self.id):
            # Whoever reads it (a reminder's job, a look at a hand) may arrange nothing;
            # the change's notice, arriving after, would find the copy current.
            self.unarranged = True
        live.row, live.seats, live.state = fresh.row, fresh.seats, fresh.state
        if fresh.deadline is not None:  # as stored for this turn, re-armed by a take-over
            live.deadline = fresh.deadline
        self.tables.used(self)
        return live

    async def _fetch(self) -> Live | None:
        """The stored table, as a new copy (`_take` makes it this table's state)."""
        # A table resumed at start-up was read with all the others; read it again only later.
        row, seats = self.resuming, self.resuming_seats
        self.resuming = self.resuming_seats = None
        if row is None:
            row = await self.repo.get_table(self.id)
            if row is None:
                return None
        if seats is None:
            seats = await self.repo.get_seats(self.id)
        try:
            live = Live(row=row, seats=seats, game=games.get(row.game), state=None,
                        ref=await self.tables.ref(row.id))
            deadline = self.deadline_resumed
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
            log.exception("table %s cannot be restored; closing it", self.id)
            if row.status in (LOBBY, PLAYING):
                await self.close_broken("table_unrestorable")
            return None
        return live

    async def _verify(self, live: Live) -> None:
        """The move log is the truth and the snapshot a cache: check it once per process."""
        row, game = live.row, live.game
        recent: deque[list[Any]] = deque(maxlen=TOLD_MOVES)
        replayed = await self._replay(row, game, len(live.seats), recent)
        if live.row.version != row.version or row.id in self.tables.verified:
            return  # moved on meanwhile: the log was read before that move
        dumped = game.dump(replayed)
        live.state = replayed  # equal to the snapshot's state when they agree
        # The table's "last moves" as they were before the restart, for its redraw: put
        # into words when drawn, newest first until the list is full (`Live.last_lines`).
        try:
            lang = await self.tables.channel_lang(row.channel)
            made = list(live.told)  # moves made since it was loaded
            live.told.clear()
            live.told.extend(present.told(live, events, lang) for events in recent)
            live.told.extend(made)
        except Exception:  # a narration bug costs the lines, never the table
            log.exception("table %s: last moves not narrated", row.id)
        if dumped != row.snapshot:
            log.error("table %s: snapshot differs from its move log; using the log", row.id)
            live.row = await self.repo.update_table(row.id, expected_version=row.version,
                                                    snapshot=dumped)
            self.tables.repaired.append(row.id)
        self.tables.verified.add(row.id)

    async def _replay(self, row: TableRow, game: Game, seats: int,
                      recent: deque[list[Any]] | None = None) -> Any:
        """The state the move log gives; `recent` receives the events of its last moves."""
        state = game.new_game(seats, table_options.stored(game, row.options), row.seed)
        if row.version == 0:
            return state  # nothing logged yet: no need to read the log
        for move in await self.repo.moves(row.id):
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
        stale = self.stale
        live = await self._read_again()
        if live is None or stale or not self.unarranged:
            return
        self.scheduler.moved(self.id, live.row.version)
        await self.after_change([])

    async def _read_again(self) -> Live | None:
        """The stored table, read afresh (and checked) into the copy held here (the caller
        holds the lock); None when it is gone or cannot be restored."""
        self.resuming = self.resuming_seats = None  # rows read before: stale
        fresh = await self._fetch()
        if fresh is None:
            return None
        live = self._take(fresh)
        if self.id in self.tables.verified or live.state is None:
            return live
        return live if await self._check(live) else None

    # --- answers --------------------------------------------------------------------------

    async def refuse(self, actor: Actor, key: str, /, **params: Any) -> Reply:
        return await self.tables.refuse(actor, self.live.row.channel, key, **params)

    async def _answer(self, actor: Actor, key: str, /, **params: Any) -> Reply:
        lang = await self.tables.lang_of(actor.user_id, self.live.row.channel)
        return Reply(t(lang, key, **params), table_id=self.id)

    # --- the lobby ------------------------------------------------------------------------

    async def options_text(self, actor: Actor) -> Reply:
        """The Options button: what this table plays with and how the host changes it."""
        live = self.live
        lang = await self.tables.lang_of(actor.user_id, live.row.channel)
        return Reply(t(lang, "options_now", options=present.options_line(live, lang)),
                     table_id=live.id)

    @retried_when_moved
    async def set_options(self, actor: Actor, words: list[str]) -> Reply:
        """`/options key=value …`: the host changes options before the game starts; the
        engine validates the result exactly as it did at /newgame."""
        live = self.live
        async with self.lock:
            refused = await self._lobby_refusal(actor)
            if refused is not None:
                return refused
            try:
                game_opts, table_settings = table_options.parse(words)
                # The stored options as played (a lobby opened before a default changed
                # keeps it), then the host's changes, written out for good.
                merged = table_options.opened(live.game, {
                    **table_options.stored(live.game, live.row.options), **game_opts})
                parse_options(live.game.Options, merged)
            except table_options.OptionsError as exc:
                return await self.refuse(actor, exc.code, **exc.params)
            except BadOptions as exc:
                return await self.tables.bad_options(actor, live.row.channel, exc, live.game)
            try:
                live.row = await self.repo.update_table(
                    live.id, expected_version=live.row.version, options=merged,
                    settings={**live.row.settings, **table_settings},
                    expected_row=live.row)
                changes.note()
            except VersionConflict:
                await self.reload()
                raise LobbyMoved(live.id) from None
            except StorageError:
                return await self.refuse(actor, "storage_failed")
        await self.show_table()
        lang = await self.tables.lang_of(actor.user_id, live.row.channel)
        return Reply(t(lang, "options_changed", options=present.options_line(live, lang)),
                     table_id=live.id)

    @retried_when_moved
    async def join(self, actor: Actor) -> Reply:
        live = self.live
        if actor.user_id in live.row.settings.get("kicked", []):
            return await self.refuse(actor, "kicked_out")
        async with self.lock:
            if live.row.status == PLAYING:
                return await self._join_playing(actor)
            if live.row.status != LOBBY:
                return await self.refuse(actor, "no_table")
            if live.seat_of(actor.user_id):
                return await self.refuse(actor, "already_seated")
            if len(live.seats) >= live.game.SEATS.stop - 1:
                return await self.refuse(actor, "table_full", max=live.game.SEATS.stop - 1)
            seats = [*live.seats, SeatRow(seat=len(live.seats), user_id=actor.user_id,
                                          name=actor.name)]
            if not await self._save_lobby(seats=seats):
                return await self.refuse(actor, "storage_failed")
        await self.show_table()
        return await self._answer(actor, "joined", game=live.game.NAME)

    async def _join_playing(self, actor: Actor) -> Reply:
        live = self.live
        mine = next((s for s in live.seats if s.former_user_id == actor.user_id), None)
        if mine is not None and mine.is_bot:
            # A player whose seat a bot took (AFK or leaving) takes it straight back.
            seat = SeatRow(seat=mine.seat, user_id=actor.user_id, name=actor.name)
            if not await self._save_seat(seat):
                return await self.refuse(actor, "storage_failed")
            await self.announce("seat_reclaimed", name=actor.name)
            await self.show_hand(mine.seat)  # the bot played on: their cards changed
            await self.after_change([], notify_turn=True)
            return await self._answer(actor, "reclaimed")
        if live.seat_of(actor.user_id):
            return await self.refuse(actor, "already_seated")
        if not any(s.is_bot for s in live.seats):
            return await self.refuse(actor, "game_running")
        if not present.has_rounds(live):
            return await self.refuse(actor, "takeover_no_rounds", game=live.game.NAME)
        if present.in_last_round(live):
            # Not queued: the game would seat them only once it is over.
            return await self.refuse(actor, present.game_key("takeover_last_round",
                                                             live.row.game),
                                     game=live.game.NAME)
        waiting = list(live.row.settings.get("takeovers", []))
        if actor.user_id not in [w[0] for w in waiting]:
            if len(waiting) >= sum(s.is_bot for s in live.seats):
                # Not queued: every bot seat is promised, they would wait for the game's end.
                return await self.refuse(actor, "takeover_full", game=live.game.NAME)
            waiting.append([actor.user_id, actor.name])
            if not await self._save_lobby(settings={**live.row.settings,
                                                    "takeovers": waiting}):
                return await self.refuse(actor, "storage_failed")
        return await self._answer(actor, "takeover_queued")

    @retried_when_moved
    async def leave(self, actor: Actor, *, forgotten: bool = False) -> Reply:
        """/leave; `forgotten`: for /forgetme, whose channel hears that a player left, not
        who (nor that they can come back: the seat no longer remembers them)."""
        live = self.live
        lang = await self.tables.lang_of(actor.user_id, live.row.channel)
        async with self.lock:
            seat = live.seat_of(actor.user_id)
            if seat is None:
                waiting = live.row.settings.get("takeovers", [])
                if any(w[0] == actor.user_id for w in waiting):
                    rest = [w for w in waiting if w[0] != actor.user_id]
                    if not await self._save_lobby(settings={**live.row.settings,
                                                            "takeovers": rest}):
                        return await self.refuse(actor, "storage_failed")
                    return Reply(t(lang, "left"))
                return await self.refuse(actor, "not_seated")
            if live.row.status == LOBBY:
                return await self._leave_lobby(actor, seat, lang)
            if live.row.status != PLAYING:
                return await self.refuse(actor, "no_table")
            bot = SeatRow(seat=seat.seat, user_id=None, name=self.bot_name(seat.seat),
                          is_bot=True, former_user_id=actor.user_id)
            seats = [bot if s.seat == seat.seat else s for s in live.seats]
            heir = next((s for s in seats if not s.is_bot), None)
            new_host = live.row.host == actor.user_id and heir is not None
            if not await self._save_lobby(seats=seats,
                                          host=heir.user_id if new_host and heir else None):
                return await self.refuse(actor, "storage_failed")
        if forgotten:
            await self.announce("seat_to_bot_forgotten", bot=bot.name)
        else:
            await self.announce("seat_to_bot_left", name=seat.name, bot=bot.name)
        await self.show_hand(seat.seat, to_former=True)
        if new_host and heir is not None:
            await self.announce("host_moved", name=heir.name)
        await self.after_change([])
        return Reply(t(lang, "left_game"))

    async def _leave_lobby(self, actor: Actor, seat: SeatRow, lang: str) -> Reply:
        live = self.live
        seats = [s for s in live.seats if s.seat != seat.seat]
        humans = [s for s in seats if not s.is_bot]
        if not humans:
            # The last human leaving closes the lobby: a table of bots alone is pointless.
            if not await self._save_lobby(status=CANCELLED):
                return Reply(t(lang, "storage_failed"), ok=False)
            await self.show_table()
            return Reply(t(lang, "left_closed"))
        seats = _without(live.seats, seat.seat)
        was_host = live.row.host == actor.user_id
        # The host left: the longest-seated human hosts from now on.
        host = (humans[0].user_id or live.row.host) if was_host else live.row.host
        if not await self._save_lobby(seats=seats, host=host):
            return Reply(t(lang, "storage_failed"), ok=False)
        await self.show_table()
        if was_host:
            await self.announce("host_moved", name=humans[0].name)
        return Reply(t(lang, "left"))

    @retried_when_moved
    async def add_bot(self, actor: Actor) -> Reply:
        live = self.live
        async with self.lock:
            refused = await self._lobby_refusal(actor)
            if refused is not None:
                return refused
            if len(live.seats) >= live.game.SEATS.stop - 1:
                return await self.refuse(actor, "table_full", max=live.game.SEATS.stop - 1)
            index = len(live.seats)
            seats = [*live.seats, SeatRow(seat=index, user_id=None,
                                          name=self.bot_name(index), is_bot=True)]
            if not await self._save_lobby(seats=seats):
                return await self.refuse(actor, "storage_failed")
        await self.show_table()
        return Reply(t(await self.tables.lang_of(actor.user_id, live.row.channel),
                       "bot_added"))

    @retried_when_moved
    async def remove_bot(self, actor: Actor) -> Reply:
        live = self.live
        async with self.lock:
            refused = await self._lobby_refusal(actor)
            if refused is not None:
                return refused
            seated_bots = [s for s in live.seats if s.is_bot]
            if not seated_bots:
                return await self.refuse(actor, "no_bot")
            seats = _without(live.seats, seated_bots[-1].seat)
            if not await self._save_lobby(seats=seats):
                return await self.refuse(actor, "storage_failed")
        await self.show_table()
        return Reply(t(await self.tables.lang_of(actor.user_id, live.row.channel),
                       "bot_removed"))

    def bot_name(self, index: int) -> str:
        taken = {s.name for s in self.live.seats}
        for name in BOT_NAMES[index % len(BOT_NAMES):] + BOT_NAMES:
            label = f"🤖 {name}"
            if label not in taken:
                return label
        return f"🤖 Bot {index + 1}"

    def unseated(self, actor: Actor) -> str:
        """Why a person with no seat here cannot play: a bot took theirs (and /join gives
        it back), they were kicked (and it does not), or they never sat here."""
        live = self.live
        if actor.user_id in live.row.settings.get("kicked", []):
            return "kicked_out"
        if any(s.is_bot and s.former_user_id == actor.user_id for s in live.seats):
            return "seat_taken_by_bot"
        return "not_seated"

    def _may_manage(self, actor: Actor) -> bool:
        return actor.is_admin or self.live.row.host == actor.user_id

    async def _lobby_refusal(self, actor: Actor) -> Reply | None:
        """Seats and options change only in the lobby, and only by the host or an admin."""
        if self.live.row.status != LOBBY:
            return await self.refuse(actor, "not_in_lobby")
        if not self._may_manage(actor):
            return await self.refuse(actor, "host_only")
        return None

    @retried_when_moved
    async def start(self, actor: Actor) -> Reply:
        live = self.live
        async with self.lock:
            if live.row.status == PLAYING:
                return await self.refuse(actor, "already_started")
            if live.row.status != LOBBY:
                return await self.refuse(actor, "no_table")
            if not self._may_manage(actor):
                return await self.refuse(actor, "host_only")
            count, seats_range = len(live.seats), live.game.SEATS
            if count not in seats_range:
                # One message whose plural variant follows `count` (CLDR rules per language).
                return await self.refuse(actor, "player_count", count=count,
                                         low=seats_range.start, high=seats_range.stop - 1)
            try:
                state = live.game.new_game(
                    count, table_options.stored(live.game, live.row.options), live.row.seed)
            except BadOptions as exc:
                return await self.tables.bad_options(actor, live.row.channel, exc, live.game)
            try:
                # Dealt for these seats: stored only if they are still the stored ones.
                live.row = await self.repo.update_table(
                    live.id, expected_version=live.row.version, status=PLAYING,
                    snapshot=live.game.dump(state), reset_moves=True,
                    expected_row=live.row, expected_seats=live.seats)
                changes.note()
            except VersionConflict:
                await self.reload()
                raise LobbyMoved(live.id) from None
            except StorageError:
                return await self.refuse(actor, "storage_failed")
            live.state = state
            live.told.clear()
            self.tables.verified.add(live.id)  # its whole log was written by this process
        await self.show_table()
        for seat in live.seats:  # bots have no hand message: show_hand skips them
            await self.show_hand(seat.seat)
        await self.after_change([], notify_turn=True)
        return await self._answer(actor, "started", game=live.game.NAME)

    async def cancel(self, actor: Actor) -> Reply:
        live = self.live
        async with self.lock:
            if not self._may_manage(actor):
                return await self.refuse(actor, "host_or_admin_only")
            if not await self.set_status(CANCELLED):
                return await self.refuse(actor, "storage_failed")
            live.deadline = None
            try:
                await self.repo.clear_deadline(live.id)
            except StorageError:
                # The table is cancelled; a leftover deadline of a cancelled table is inert.
                log.warning("table %s: deadline of the cancelled table not cleared", live.id)
        await self.show_table()
        for seat in live.seats:  # no hand goes on inviting its player to play
            await self.show_hand(seat.seat)
        await self.announce("cancelled_by", name=actor.name)
        return Reply(t(await self.tables.lang_of(actor.user_id, live.row.channel),
                       "cancelled"))

    @retried_when_moved
    async def kick(self, actor: Actor, target: str) -> Reply:
        live = self.live
        async with self.lock:
            if not self._may_manage(actor):
                return await self.refuse(actor, "host_or_admin_only")
            victim = self._find_seat(target)
            if victim is None:
                return await self.refuse(actor, "no_such_player", name=clean.echo(target))
            if victim.user_id == actor.user_id:
                return await self.refuse(actor, "cannot_kick_self")
            if live.row.status not in (LOBBY, PLAYING):
                return await self.refuse(actor, "no_table")
            # A kicked player does not come back by /join, and does not keep hosting.
            kicked = sorted({*live.row.settings.get("kicked", []), victim.user_id or ""})
            heir = next((s for s in live.seats
                         if not s.is_bot and s.seat != victim.seat), None)
            host = heir.user_id if live.row.host == victim.user_id and heir else None
            if live.row.status == LOBBY:
                seats = _without(live.seats, victim.seat)
            else:
                bot = SeatRow(seat=victim.seat, user_id=None,
                              name=self.bot_name(victim.seat), is_bot=True)
                seats = [bot if s.seat == victim.seat else s for s in live.seats]
            if not await self._save_lobby(seats=seats, host=host,
                                          settings={**live.row.settings, "kicked": kicked}):
                return await self.refuse(actor, "storage_failed")
        await self.announce("kicked", name=victim.name)
        if host is not None and heir is not None:
            await self.announce("host_moved", name=heir.name)
        if live.row.status == PLAYING:
            # Their hand message stops offering moves; /join does not bring them back.
            await self.show_hand(victim.seat, kicked=victim.user_id)
            await self.after_change([])
        else:
            await self.show_table()
        return Reply(t(await self.tables.lang_of(actor.user_id, live.row.channel),
                       "kick_done", name=victim.name))

    def _find_seat(self, target: str) -> SeatRow | None:
        """By user id, name (as the table shows it) or place number from 1."""
        seats = self.live.seats
        target = target.strip().lstrip("@")
        shown = clean.name(target, fallback="")
        for seat in seats:
            if seat.is_bot:
                continue
            if target == seat.user_id or shown.lower() == seat.name.lower():
                return seat
        try:
            place = clean.number(target, max_digits=3)
        except clean.NumberTooLong:
            return None
        if place is not None and 1 <= place <= len(seats):
            seat = seats[place - 1]
            return None if seat.is_bot else seat
        return None

    async def _save_lobby(self, *, seats: list[SeatRow] | None = None,
                          host: str | None = None, settings: dict[str, Any] | None = None,
                          status: str | None = None) -> bool:
        """Store a change computed from its state, only if the stored table is still that.

        Raises LobbyMoved (after taking the stored table in) when it is not: the caller's
        decision rested on seats or settings that are no longer there, so
        `retried_when_moved` makes it again. False: a storage fault, nothing stored.
        """
        live = self.live
        try:
            live.row = await self.repo.update_table(
                live.id, expected_version=live.row.version, seats=seats, host=host,
                settings=settings, status=status, expected_row=live.row,
                expected_seats=live.seats)
        except VersionConflict:
            await self.reload()
            raise LobbyMoved(live.id) from None
        except StorageError:
            return False
        changes.note()
        if seats is not None:
            live.seats = seats
        return True

    async def _save_seat(self, seat: SeatRow) -> bool:
        """One seat changes (a bot takes it, its player comes back): `_save_lobby`'s rules."""
        seats = [seat if s.seat == seat.seat else s for s in self.live.seats]
        return await self._save_lobby(seats=seats)

    async def set_status(self, status: str, *,
                         settings: dict[str, Any] | None = None) -> bool:
        live = self.kept
        row = live.row if live and not self.stale else await self.repo.get_table(self.id)
        if row is None:
            return False
        try:
            new = await self.repo.update_table(self.id, expected_version=row.version,
                                               status=status, settings=settings)
        except StorageError:
            return False
        changes.note()
        if live is not None:
            live.row = new
        return True

    async def rematch(self, actor: Actor, is_member: MemberCheck | None = None) -> Reply:
        """Same options, same seats: the people still seated play again, bots the rest.

        Someone who left or whose seat a bot kept is not pulled back into a new game; they
        can take a bot's seat between rounds with /join like anyone else. Nor is someone
        the platform says has left the table's chat (`is_member`) since the game began.
        """
        live = self.live
        channel = live.row.channel
        if live.row.status != FINISHED:
            return await self.refuse(actor, "out_of_date")
        if live.seat_of(actor.user_id) is None:
            return await self.refuse(actor, "not_seated")
        stays: dict[str, bool] = {}
        try:
            for seat in live.seats:
                if not seat.is_bot and seat.user_id is not None:
                    stays[seat.user_id] = is_member is None \
                        or await is_member(seat.user_id, channel)
        except RightsUnknown:
            return await self.refuse(actor, "rights_unknown")
        if not stays.get(actor.user_id):
            return await self.refuse(actor, "not_a_member")
        # Bots keep their seats and their names: the same table, played again; a person
        # no longer in the chat is replaced by a bot.
        seats = [SeatRow(seat=s.seat, user_id=s.user_id, name=s.name)
                 if not s.is_bot and stays.get(s.user_id or "")
                 else SeatRow(seat=s.seat, user_id=None,
                              name=s.name if s.is_bot else self.bot_name(s.seat),
                              is_bot=True)
                 for s in live.seats]
        per_game = {"takeovers", "kicked", "unreachable"}  # bookkeeping of the last game
        try:
            row = await self.repo.create_table(
                platform=self.platform, channel=channel, game=live.row.game,
                options=table_options.opened(live.game, live.row.options),
                settings={k: v for k, v in live.row.settings.items() if k not in per_game},
                seed=self.tables.new_seed(), host=actor.user_id, seats=seats)
            changes.note()
        except TableExists:
            return await self.refuse(actor, "table_exists_short")
        except StorageError:
            return await self.refuse(actor, "storage_failed")
        new = await self.tables.opened(row.id)
        return await new.start(Actor(actor.user_id, actor.name, is_admin=True))

    # --- moves ----------------------------------------------------------------------------

    async def play(self, actor: Actor, text: str, *, expected_version: int | None,
                   talk_only: bool = False) -> Reply:
        started = time.perf_counter()
        reply = await self._play_move(actor, text, expected_version=expected_version,
                                      talk_only=talk_only)
        metrics.MOVE_SECONDS.labels(self.platform).observe(time.perf_counter() - started)
        if not reply.ok:
            metrics.REFUSED.labels(self.platform, reply.reason or "other").inc()
        return reply

    async def _play_move(self, actor: Actor, text: str, *, expected_version: int | None,
                         talk_only: bool = False) -> Reply:
        live = self.live
        if len(text) > MAX_MOVE_CHARS:
            return await self.refuse(actor, "move_too_long", max=MAX_MOVE_CHARS)
        async with self.lock:
            if live.row.status != PLAYING or live.state is None:
                return await self.refuse(actor, "no_game")
            if expected_version is not None and not live.current(expected_version):
                return await self.refuse(actor, "out_of_date")
            seat = live.seat_of(actor.user_id)
            if seat is None:
                return await self.refuse(actor, self.unseated(actor))
            game, state = live.game, live.state
            try:
                if live.game.outcome(state) is not None:
                    raise IllegalMove("game_over")
                if seat.seat in game.to_act(state) and not talk_only:
                    move = game.parse_move(state, seat.seat, text)
                else:
                    # Some moves are for any seat at any time (The Game's signals): the
                    # engine's `apply` says which; text that reads as no move at all is
                    # still answered "not your turn", the likelier mistake.
                    try:
                        move = game.parse_move(state, seat.seat, text)
                    except IllegalMove as exc:
                        if talk_only:
                            return await self.refuse(actor, "bad_button")
                        if exc.code in {"bad_notation", "unknown_card"}:
                            raise IllegalMove("not_your_turn") from None
                        raise
                if talk_only and not game.CAPABILITIES.is_talk(move):
                    # A forged `s:` payload carrying a play: plays need a current button.
                    return await self.refuse(actor, "bad_button")
                events = await self.commit(seat.seat, move, "player")
            except IllegalMove as exc:
                lang = await self.tables.lang_of(actor.user_id, live.row.channel)
                return Reply(present.refusal(live, exc, lang), ok=False, reason=exc.code)
            except VersionConflict:
                await self.reload()
                return await self.refuse(actor, "out_of_date")
            except Unstorable:
                log.exception("table %s: move %r can never be stored", live.id, text)
                await self.close_broken("table_unstorable")
                return await self.refuse(actor, "move_unstorable")
            except StorageError:
                return await self.refuse(actor, "storage_failed")
            if seat.afk_strikes:
                with contextlib.suppress(LobbyMoved):  # only a count; the move is stored
                    await self._save_seat(SeatRow(seat=seat.seat, user_id=seat.user_id,
                                                  name=seat.name))
        await self.after_change(events, mover=seat.seat)
        return await self._answer(actor, "move_done")

    async def commit(self, seat: int, move: Any, actor_kind: str) -> list[Any]:
        """Apply and store one move; the state in memory changes only once it is stored."""
        live = self.live
        game = live.game
        new_state, events = game.apply(live.state, seat, move)
        # The log stores the move as its text: one that does not read back as this very
        # move (a bot's buggy move) would leave a table that no longer restores.
        notation = str(move)
        if game.parse_move(live.state, seat, notation) != move:
            raise IllegalMove("bad_notation", text=notation)
        result = game.outcome(new_state)
        results = None
        if result is not None:
            # A cooperative game places the whole team alike, so its ranking says nothing:
            # the team's place is 1 when it won, 2 when the deck beat it (for /stats).
            team = 1 if game.CAPABILITIES.team_won(new_state) else 2
            cooperative = game.CAPABILITIES.cooperative
            results = [ResultRow(seat=s.seat, user_id=s.user_id or s.former_user_id,
                                 name=s.name, is_bot=s.is_bot and not s.former_user_id,
                                 score=result.scores[s.seat],
                                 rank=team if cooperative else result.ranking[s.seat])
                       for s in live.seats]
        before = live.row.version
        talk = game.CAPABILITIES.is_talk(move)
        # The next turn's deadline goes in the move's own transaction: one durable write.
        deadline = None if result else self.turns.next_deadline(
            game.to_act(new_state), before + 1, talk=talk)
        live.row = await self.repo.commit_move(
            live.id, seq=before + 1, seat=seat, move=notation, actor=actor_kind,
            snapshot=game.dump(new_state), status=FINISHED if result else PLAYING,
            results=results, deadline=deadline,
            clear_deadline=deadline is None and live.deadline_stored,
            expected_updated_at=live.row.updated_at)
        changes.note()
        live.state = new_state
        live.deadline, live.deadline_stored = deadline, deadline is not None
        self.scheduler.moved(live.id, live.row.version)  # its jobs for the last turn are moot
        if talk:
            if live.talk_top != before:
                live.talk_base = before
            live.talk_top = live.row.version
        metrics.moved(self.platform, live.row.game, actor_kind)
        return events

    # --- after a change: show it, then arrange what is next --------------------------------

    async def after_change(self, events: list[Any], *, mover: int | None = None,
                           notify_turn: bool = False) -> None:
        """Show what changed, then arrange what happens next (deadline or bot move).

        Whatever goes wrong while showing, the next turn is still arranged: a rendering
        bug may make a message late, never a game stuck.
        """
        live = self.live
        self.unarranged = False  # whatever this copy took in is arranged here
        showing = SHOWING_CHANGE.set(True)
        try:
            await self._show_change(events, mover=mover, notify_turn=notify_turn)
        except Exception:
            log.exception("table %s: showing the change failed", live.id)
        finally:
            SHOWING_CHANGE.reset(showing)
        if live.row.status != PLAYING or live.state is None:
            return
        to_act = live.game.to_act(live.state)
        try:
            await self.turns.set_deadline(to_act)
        except Exception:
            log.exception("table %s: deadline not set", live.id)
        self.turns.schedule_bot()

    async def _show_change(self, events: list[Any], *, mover: int | None,
                           notify_turn: bool) -> None:
        live = self.live
        if live.state is None:  # a lobby (or a table closed before its deal): its message
            await self.show_table()
            return
        lang = await self.tables.channel_lang(live.row.channel)
        news = _news(live, events, lang)
        live.told.extend(news)
        before = live.hand_sizes
        view = live.public_view()
        live.hand_sizes = list(view.get("hand_sizes", []))
        # A round's end in the game's own words (Michigan's rounds are deals).
        round_changed = any(e.get("type") == "round_started" or present.round_ended(live, e)
                            for e in events)
        if round_changed:
            await self._apply_takeovers()
        await self.show_table(news=news)
        to_act = view.get("to_act", [])
        for seat in live.seats:
            if seat.is_bot:
                continue
            changed = (before is None or round_changed or seat.seat == mover
                       or seat.seat in to_act or seat.seat in (live.last_to_act or [])
                       or before[seat.seat:seat.seat + 1]
                       != live.hand_sizes[seat.seat:seat.seat + 1])
            if changed:
                await self.show_hand(seat.seat)
        result = live.game.outcome(live.state)
        summaries = [present.round_summary(live, ev, lang, last=result is not None)
                     for ev in events
                     if present.round_ended(live, ev)
                     and not (result is not None and present.round_was_whole_game(live, ev))]
        if result is None:
            for lines in summaries:
                await self.announce_lines(lines, kind="result")
        else:
            if live.deadline_stored:
                await self.repo.clear_deadline(live.id)
                live.deadline_stored = False
            # The last round and the ranking in one message, with one rematch button.
            lines = [line for summary in summaries for line in [*summary, ""]]
            await self.announce_ranking(result, lang, lines)
            return
        if to_act != live.last_to_act or (notify_turn and mover is None):
            await self._ping(to_act)
        elif mover is not None and mover in to_act and not live.seats[mover].is_bot:
            await self._ping(to_act, goes_on=True)
        live.last_to_act = list(to_act)

    async def announce_ranking(self, result: Any, lang: str,
                               lines: list[str] | None = None) -> None:
        """The final ranking (after `lines`, the last round's), with the rematch button."""
        ranking = present.final_ranking(self.live, result, lang)
        await self.announce_lines([*(lines or []), *ranking],
                                  buttons=[[Button(t(lang, "btn_rematch"), "rematch",
                                                   "primary")]], kind="result")

    async def _apply_takeovers(self) -> None:
        """'A human may take over a bot seat between rounds': queued joins sit down now.

        Under the table lock, like every other change of its settings, so a /join queued
        at this moment is not lost; a join whose seat could not be saved stays queued.
        """
        live = self.live
        taken: list[tuple[str, str]] = []
        async with self.lock:
            waiting = list(live.row.settings.get("takeovers", []))
            if not waiting:
                return
            seats = list(live.seats)
            for seat in live.seats:
                if not waiting:
                    break
                if not seat.is_bot:
                    continue
                user_id, name = waiting.pop(0)
                seats[seat.seat] = SeatRow(seat=seat.seat, user_id=user_id, name=name)
                taken.append((name, seat.name))
            try:
                # The seats and the queue in one write: nobody seated twice or lost.
                if not await self._save_lobby(seats=seats,
                                              settings={**live.row.settings,
                                                        "takeovers": waiting}):
                    return  # a storage fault: they stay queued for the next round
            except LobbyMoved:
                return  # changed meanwhile: the queue as stored waits for the next round
        for name, bot in taken:
            await self.announce("took_over", name=name, bot=bot)

    # --- showing --------------------------------------------------------------------------

    async def show_table(self, *, news: list[Told] | None = None) -> None:
        live = self.live
        self._show(live, await self.tables.channel_lang(live.row.channel), news)

    def _show(self, live: Live, lang: str, news: list[Told] | None = None) -> None:
        # Drawn when it is sent: an edit merged with a later one costs no drawing.
        self.outbox.put(TableMessage(table_id=live.id, channel=live.row.channel,
                                     draw=lambda: present.table(live, lang),
                                     news=None if news is None else list(news)))

    async def show_in_channel_lang(self) -> None:
        """The channel's language changed: its table message, and the hands of the players
        who read what the channel reads (no language of their own), are drawn in it."""
        await self.show_table()
        for seat in self.live.seats:
            if seat.user_id is not None and await self.tables.own_lang(seat.user_id) is None:
                await self.show_hand(seat.seat)

    async def show_hands_of(self, user_id: str) -> None:
        """The person chose a language of their own: their hands here are drawn in it."""
        for seat in self.live.seats:
            if seat.user_id == user_id:
                await self.show_hand(seat.seat)

    async def show_hand(self, seat_no: int, *, to_former: bool = False,
                        kicked: str | None = None) -> None:
        """A person's hand message for that seat. A bot's seat has none, except once with
        `to_former`, when the bot has just taken it: the person who played it then sees
        their message say so instead of inviting them to play a seat they left; or once
        for `kicked`, the person just kicked from it, whose message says they were."""
        live = self.live
        seat = live.seats[seat_no]
        user_id = kicked or (seat.former_user_id if to_former and seat.is_bot
                             else seat.user_id)
        if (seat.is_bot and not (to_former or kicked)) or user_id is None \
                or live.state is None:
            return
        lang = await self.tables.lang_of(user_id, live.row.channel)
        every_move = self.tables.every_move
        self.outbox.put(HandMessage(table_id=live.id, channel=live.row.channel, seat=seat_no,
                                    user_id=user_id,
                                    draw=lambda: present.hand(live, seat_no, lang,
                                                              every_move=every_move,
                                                              kicked=kicked is not None)))

    async def announce(self, key: str, /, **params: Any) -> None:
        lang = await self.tables.channel_lang(self.live.row.channel)
        await self.announce_lines([t(lang, key, **params)])

    async def announce_lines(self, lines: list[str], buttons: list[list[Button]] | None = None,
                             kind: str = "info", mentions: list[str] | None = None) -> None:
        live = self.live
        if lines:
            self.outbox.put(Announcement(table_id=live.id, channel=live.row.channel,
                                         text="\n".join(lines), buttons=buttons or [],
                                         version=live.row.version, ref=live.ref, kind=kind,
                                         mentions=mentions or []))

    async def hand_for(self, actor: Actor) -> Reply:
        live = self.live
        seat = live.seat_of(actor.user_id)
        if seat is None or live.state is None:
            return await self.refuse(actor, "not_seated")
        await self.show_hand(seat.seat)
        lang = await self.tables.lang_of(actor.user_id, live.row.channel)
        return Reply(present.hand(live, seat.seat, lang).text, table_id=live.id)

    async def redraw(self) -> None:
        """After a restart, show the table as stored: its message and every human's hand.

        A move is one transaction (move row and snapshot); its deliveries follow it from
        memory, so a process killed in between leaves the screens one move behind. Rather
        than a durable outbox (a second write in every move's transaction), the table is
        redrawn from its state when it resumes: the table message and each hand are edited
        to what they should show, an edit that changes nothing counting as done (Telegram's
        "message is not modified"). Its "last moves" come from replaying the log.

        Announcements of the lost moves are knowingly dropped: a round's summary or a
        seat change is already reflected in the table's scores, seats and last moves, and
        knowing which were delivered would need that second write per move. The one call
        that matters to a player, that it is their turn, is made again: a hand's edit
        notifies nobody, so the turn call is armed afresh (after `ping_delay`, skipped if
        they play first), at most once per restart.

        A game whose last move was stored just before the stop (see `REDRAW_WINDOW` in
        `bot.tables`) gets its final table and hands the same way; its final ranking
        message, if it was lost, is dropped too: the table message shows the final scores
        and the rematch button, and /scores gives the ranking. A table cancelled then gets
        its table message, and its hands are closed (no move button left on them).
        """
        live = self.live
        await self.show_table()
        if live.state is None:
            return  # a lobby, or a table closed before its deal: no hands
        for seat in live.seats:
            await self.show_hand(seat.seat)
        if live.row.status != PLAYING:
            return  # a finished game: its final ranking was announced, or is dropped
        to_act = live.game.to_act(live.state)
        live.last_to_act = list(to_act)
        await self._ping(to_act)

    # --- turns (bot/turns.py) -------------------------------------------------------------

    async def _ping(self, to_act: list[int], *, goes_on: bool = False) -> None:
        """`Turns.ping`, for the showing code that calls a turn when it shows one."""
        await self.turns.ping(to_act, goes_on=goes_on)

    async def save_seat_unless_moved(self, seat: SeatRow) -> bool:
        """`_save_seat` for the AFK policy, which does not decide again: False when the
        seats changed meanwhile (its player came back, or left), and nothing was stored."""
        try:
            await self._save_seat(seat)
        except LobbyMoved:
            return False
        return True

    # --- several processes: changes made elsewhere ----------------------------------------

    async def catch_up(self) -> None:
        """Show a change another process made to this table, which this one drives.

        The moves it logged are played on this process's copy, which gives the events that
        process narrated (a round's end, the final ranking); what else changed (seats, a
        lobby, a start) is shown from the stored table. Then the next turn is arranged.
        """
        async with self.lock:
            await self._catch_up_held()

    async def _catch_up_held(self) -> None:
        """`catch_up`, the caller holding the lock."""
        live = self.kept
        log.debug("table %s: catching up from version %s", self.id,
                  live.row.version if live else None)
        row = await self.repo.get_table(self.id)
        if row is None or (live is not None and stamp(row) == stamp(live.row)
                           and not self.unarranged):
            return
        self.unarranged = False  # arranged below, whichever way
        self.scheduler.moved(self.id, row.version)
        events, mover = await self._logged_events(live, row)
        if events is not None and live is not None:
            live.row, live.seats = row, await self.repo.get_seats(self.id)
            await self.after_change(events, mover=mover)
            return
        was_playing = live is not None and live.row.status == PLAYING
        # Into the same copy: what this process last showed of it stays (the table's last
        # moves, whose turn was called, the turn's deadline if still that turn's).
        fresh = await self._read_again()
        if fresh is None:
            return
        if fresh.row.status == LOBBY or fresh.state is None:
            await self.show_table()
        elif fresh.row.status == PLAYING:
            await self.after_change([], notify_turn=live is None)
        elif fresh.row.status == FINISHED and was_playing:
            await self.redraw()
            result = fresh.game.outcome(fresh.state)
            if result is not None:
                await self.announce_ranking(
                    result, await self.tables.channel_lang(fresh.row.channel))

    async def _logged_events(self, live: Live | None, row: TableRow
                             ) -> tuple[list[Any] | None, int | None]:
        """The events of the moves logged since `live`'s version, with the state they lead
        to taken into `live`; None when they do not lead exactly to `row` (a seat or
        setting changed between them, or this copy is not the one they started from)."""
        if live is None or live.state is None or live.row.status != PLAYING \
                or row.status not in (PLAYING, FINISHED) or row.snapshot is None:
            return None, None
        moves = await self.repo.moves(row.id, after=live.row.version)
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

    # --- the platform's news --------------------------------------------------------------

    async def close_broken(self, key: str) -> None:
        """Close a table that can never go on (a result the database cannot hold, a log
        that no longer replays), say so in its channel, and free the channel at once.

        Its rows stay for a developer to look at; no job of it runs again, so nothing
        retries what cannot succeed.
        """
        self.scheduler.drop(self.id)
        live = self.kept
        self.outbox.forget(self.id)
        try:
            row = await self.repo.get_table(self.id)
            if row is None or row.status not in (LOBBY, PLAYING):
                return
            row = await self.repo.update_table(
                self.id, expected_version=row.version, status=CLOSED,
                settings={**row.settings, "broken": key})
            with contextlib.suppress(StorageError):
                await self.repo.clear_deadline(self.id)
        except StorageError:
            log.exception("table %s: could not be closed", self.id)
            return
        self.resuming = self.resuming_seats = None
        lang = await self.tables.channel_lang(row.channel)
        if live is not None:
            live.row = row  # a caller still holding it sees the table closed, as players do
            try:
                self._show(live, lang)
            except Exception:
                log.exception("table %s: the closed table could not be shown", self.id)
        self.outbox.put(Announcement(table_id=self.id, channel=row.channel, text=t(lang, key),
                                     version=row.version))

    async def channel_gone(self) -> None:
        """The channel vanished or the bot lost access: close the table, keep its state.

        Often the loss is not for good (a topic closed, rights taken, the bot removed by
        mistake), so the table notes what it was (`lost`) and `revive` resumes it.
        """
        log.warning("table %s: channel unreachable; closing it", self.id)
        async with self.lock:
            live = self.kept
            try:
                row = live.row if live and not self.stale \
                    else await self.repo.get_table(self.id)
            except StorageError:
                log.exception("table %s: not closed", self.id)
                return
            if row is None or row.status not in (LOBBY, PLAYING):
                return  # a finished table keeps its rematch button for when it is back
            await self.set_status(CLOSED, settings={**row.settings, "lost": row.status})
            if live is not None:
                live.deadline = None  # cleared below; coming back starts a fresh one
            try:
                await self.repo.clear_deadline(self.id)
            except StorageError:
                log.exception("table %s: deadline not cleared", self.id)

    async def unreachable(self, user_id: str) -> None:
        """A player blocked the bot: say so in the channel once; deadlines keep the game going."""
        live = await self.load()
        if live is None:
            return
        async with self.lock:  # settings change only under the table lock
            seat = live.seat_of(user_id)
            warned = set(live.row.settings.get("unreachable", []))
            if seat is None or user_id in warned:
                return
            warned.add(user_id)
            try:
                await self._save_lobby(settings={**live.row.settings,
                                                 "unreachable": sorted(warned)})
            except LobbyMoved:
                return  # the next hand that cannot reach them warns on the stored table
        # Mentioned, so the player hears of it; without deadlines the table waits for them.
        key = "cannot_reach" if live.row.settings.get("deadline") else "cannot_reach_waits"
        lang = await self.tables.channel_lang(live.row.channel)
        await self.announce_lines([t(lang, key, name=seat.name)], mentions=[user_id])

    async def revive(self) -> Live | None:
        """Its channel is back: a table closed for losing it carries on, with a fresh
        deadline. None when it is not such a table (any more)."""
        async with self.lock:
            try:
                # Read again under the lock: two triggers at once bring a table back once.
                row = await self.repo.get_table(self.id)
                if row is None or row.status != CLOSED or "lost" not in row.settings:
                    return None
                settings = {k: v for k, v in row.settings.items() if k != "lost"}
                row = await self.repo.update_table(
                    self.id, expected_version=row.version, status=row.settings["lost"],
                    settings=settings)
                changes.note()
            except StorageError as exc:  # a table opened there meanwhile, or a fault
                log.info("table %s could not come back: %s", self.id, exc)
                return None
            # Its version did not change: the jobs it had (a reminder, an expiry) would look
            # current again, though its deadline was cleared on closing.
            self.scheduler.drop(self.id)
            self.deadline_resumed = None
            self.outbox.revive(self.id)
            # A closed table takes no move, so a copy kept here only needs its row: keeping
            # it (not loading a second copy) means a press racing with this sees the same.
            live = self.kept
            if live is not None:
                live.row = row
            else:
                live = await self.load()
            if live is None:
                return None
            log.info("table %s: channel %s is back; resuming", self.id, live.row.channel)
            await self.show_table()  # these only queue deliveries and jobs
            if live.row.status == PLAYING:
                await self.announce("table_back")
                for seat in live.seats:  # hands queued when the channel went were dropped
                    await self.show_hand(seat.seat)
                self.scheduler.at(self.clock.now(), "resume", self.id, live.row.version)
                await self._ping(live.game.to_act(live.state))
        return live

    async def give_up_seat(self, actor: Actor) -> None:
        """Leave as /leave does (for /forgetme): out of a lobby, or a bot takes the seat."""
        live = await self.load()
        if live is None or live.row.status not in (LOBBY, PLAYING):
            return
        waiting = any(w[0] == actor.user_id for w in live.row.settings.get("takeovers", []))
        if live.seat_of(actor.user_id) is not None or waiting:
            reply = await self.leave(actor, forgotten=True)
            if not reply.ok:
                raise StorageError(f"table {self.id}: seat not given up ({reply.text})")

    def names_person(self, user_id: str) -> bool:
        """This process's copy names the person: a seat (or one a bot took over from them),
        as host, in the settings' lists, or in the lines of the last moves."""
        live = self.kept
        return live is not None and (
            live.row.host == user_id
            or any(user_id in (s.user_id, s.former_user_id) for s in live.seats)
            or settings_without(live.row.settings, user_id) is not None
            or any(user_id in told.who for told in live.told))

    async def forgotten(self, user_id: str) -> None:
        """After /forgetme (the caller holds the lock): the person's name in the last
        moves' lines replaced by the words the database now has for them, and the copy
        read again, so that it names them no more. The driver takes it in as a change made
        elsewhere (it may have been behind: moves, her seat given to a bot, which it shows
        and arranges) and draws the table again: nothing it shows names them from now on."""
        live = self.kept
        if live is None:
            return
        former = t(await self.tables.channel_lang(live.row.channel), "former_player")
        for told in live.told:
            told.forget(user_id, former)
        try:
            if not self.tables.drives(self.id):
                await self._read_again()
                return
            await self._catch_up_held()
        except StorageError:
            self.stale = True  # read again on next use
            return
        if live.row.status in (LOBBY, PLAYING):
            await self.show_table()

def _without(seats: list[SeatRow], seat_no: int) -> list[SeatRow]:
    """The lobby's seats less one, renumbered: seat numbers are places at the table."""
    return [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot)
            for i, s in enumerate(x for x in seats if x.seat != seat_no)]


__all__ = ["LobbyMoved", "Table", "retried_when_moved", "stamp"]


def _news(live: Live, events: list[Any], lang: str) -> list[Told]:
    """A move's lines, those of a round it started apart (`Told.new_round`). A change with
    no events (a seat taken, a redraw) tells nothing, and must not push the last moves'
    lines out of those kept."""
    cut = next((i for i, e in enumerate(events) if e.get("type") == "round_started"), None)
    if cut is None or cut == 0:
        return [present.told(live, events, lang, new_round=cut == 0)] if events else []
    return [present.told(live, events[:cut], lang),
            present.told(live, events[cut:], lang, new_round=True)]
