"""Tables: lobbies, seats, moves, deadlines and bot players, for any game of the engine.

Every platform adapter calls the same methods here; each returns a `Reply` (a sentence
for the person who acted, already in their language) and queues deliveries (table
message, hands, announcements) on the outbox. Rules are the engine's: this module only
decides who may act for which seat and when.
"""

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

from bot import changes, logs, metrics, present
from bot.authority import (
    MANAGING,
    Press,
    RightsUnknown,
    is_move,
    is_signal,
    private_action,
)
from bot.clock import Clock, RealClock
from bot.deliveries import Announcement, HandMessage, TableMessage
from bot.driving import SHOWING_CHANGE, Driving
from bot.i18n import LANGS, t
from bot.live import NARRATION_LINES, Actor, Live, Reply
from bot.lobby import Lobby
from bot.outbox import Outbox, Sink
from bot.privacy import Privacy, decode_privacy
from bot.render import TAG_LENGTH, Button, Payload, decode_payload, encode_ref
from bot.scheduler import Scheduler
from bot.settings import Settings
from bot.tables_base import LobbyMoved, answers_storage_faults
from bot.turns import Turns
from db.repository import (
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    Deadline,
    Repository,
    ResultRow,
    SeatRow,
    StorageError,
    TableRow,
    Unstorable,
    UserSettings,
    VersionConflict,
)
from engine import IllegalMove, games
from engine.core.protocol import Game

log = logging.getLogger(__name__)

__all__ = ["Actor", "Live", "Press", "Reply", "RightsUnknown", "Tables"]

# The longest move of any game (The Game: a hand of eight plays with their piles) is under
# 100 characters; a longer text is no move, and is not handed to a parser.
MAX_MOVE_CHARS = 300
# Seconds before the newest stored change within which a table is redrawn at start-up:
# longer than any delivery waits in the outbox and the rate limiter.
REDRAW_WINDOW = 600.0
# The stored secret that keys table references (`Tables.ref`): generated on first run.
REFERENCE_SECRET = "table-references"




class Tables(Lobby, Turns, Privacy):
    def __init__(
        self, repo: Repository, sink: Sink, *, platform: str, settings: Settings | None = None,
        clock: Clock | None = None, seeds: Callable[[], int] | None = None,
        every_move: bool = False,
    ) -> None:
        self.repo = repo
        # A client with room for every legal move as a button (the console's numbered list).
        self.every_move = every_move
        # Tests fix the seeds to compare runs; in play every table gets a fresh random one.
        self._seeds = seeds or (lambda: secrets.randbelow(2**62))
        self.platform = platform
        self.settings = settings or Settings()
        self.clock = clock or RealClock()
        # With several processes on one database, each drives its share of the tables
        # (bot/driving.py); alone (SQLite), this one drives them all and checks nothing.
        cluster = repo.cluster()
        self.driving = Driving(self, cluster) if cluster is not None else None
        drives = self.driving.drives if self.driving is not None else None
        self.outbox = Outbox(sink, repo, on_channel_gone=self._channel_gone,
                             on_unreachable=self._unreachable, drives=drives,
                             elsewhere=self.driving.elsewhere if self.driving else None)
        self.scheduler = Scheduler(self.clock, self._run_job, accepts=drives)
        metrics.QUEUE.labels(platform).set_function(self.outbox.depth)
        self._live: OrderedDict[int, Live] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._channel_langs: dict[str, str | None] = {}
        self._users: dict[str, UserSettings] = {}
        # user -> their app's language as last seen (None: one we don't speak); stored too
        self._locales: dict[str, str | None] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._loading: dict[int, asyncio.Future[Live | None]] = {}  # loads under way
        self._checking: dict[int, asyncio.Future[bool]] = {}  # logs being replayed
        self._storing_locale: set[str] = set()  # users whose app language is being written
        self._verified: set[int] = set()
        self._resuming: dict[int, TableRow] = {}  # rows read by start(), until first loaded
        self._resuming_seats: dict[int, list[SeatRow]] = {}  # their seats, read with them
        # Tables whose stored deadline start() re-armed, with that deadline.
        self._deadline_resumed: dict[int, Deadline] = {}
        self._redraw_due: set[int] = set()  # tables start() found recently changed
        self.repaired: list[int] = []  # tables whose snapshot was rebuilt from the move log
        self._reference_key: bytes | None = None

    # --- life cycle -----------------------------------------------------------------------

    async def start(self, *, run_scheduler: bool = True) -> None:
        """Resume every unfinished table: deadlines at once, everything else as a job.

        Start-up only reads rows and schedules: each table is loaded, verified against
        its move log and given its next bot move by a `resume` job, so a restart with
        thousands of tables is quick and players are served while the rest resumes.

        Tables that changed shortly before the previous process stopped (within
        `REDRAW_WINDOW` of the newest stored change) are redrawn too, lobbies and games
        finished then included (see `Turns._redraw`): only their deliveries can have been
        in flight. Older ones were delivered, or given up, long before; redrawing them
        would cost a request per message for nothing, all queued before the players'
        own moves under the platform's rate limit.
        """
        if self.driving is not None:
            await self.driving.join()  # its share first: it resumes only the tables it drives
        deadlines = {d.table_id: d for d in await self.repo.deadlines()}
        now = self.clock.now()
        newest = await self.repo.newest_change()
        since = (newest or 0.0) - REDRAW_WINDOW
        seats = await self.repo.open_tables_seats()
        moved: list[Deadline] = []  # past due: moved on by a grace, all in one write
        for row in await self.repo.unfinished_tables():
            if row.platform != self.platform or row.status not in (LOBBY, PLAYING):
                continue
            if not self.drives(row.id):
                continue
            if row.updated_at >= since:
                self._redraw_due.add(row.id)
            elif row.status == LOBBY:
                continue  # an idle lobby has nothing to resume
            self._resuming_seats[row.id] = seats.get(row.id, [])
            deadline = deadlines.get(row.id)
            if self._resume_later(row, deadline) and deadline is not None:
                moved.append(deadline)
        try:
            await self.repo.set_deadlines(moved)
        except StorageError:
            log.exception("extended deadlines not stored; they still run in memory")
        # Their channels' languages at once, for the turn calls and redraws to come.
        channels = sorted({row.channel for row in self._resuming.values()}
                          - set(self._channel_langs))
        langs = await self.repo.channel_langs(self.platform, channels)
        self._channel_langs.update({channel: langs.get(channel) for channel in channels})
        # A game's last move (or its cancelling) may have been stored just before the process
        # stopped, not yet shown: without a redraw it would look stuck for good.
        for row in await self.repo.just_ended_tables(REDRAW_WINDOW):
            if row.platform == self.platform and self.driving is None:
                self._redraw_due.add(row.id)
                self.scheduler.at(now, "resume", row.id, row.version)
                self._resuming[row.id] = row
        if run_scheduler:
            self.scheduler.start()
            if self.driving is not None:
                self.driving.start()

    async def close(self) -> None:
        await self.scheduler.stop()
        await self._background_done()
        await self.outbox.close()
        if self.driving is not None:
            await self.driving.stop()

    # --- driving (several processes on one database) ----------------------------------------

    def drives(self, table_id: int) -> bool:
        """Whether this process runs the table's timers and makes its deliveries."""
        return self.driving is None or self.driving.drives(table_id)

    def idle(self, table_id: int) -> bool:
        """Nothing under way for the table here: it can be handed to another process."""
        lock = self._locks.get(table_id)
        return (lock is None or not lock.locked()) and not self.outbox.busy(table_id)

    async def _adopt(self, table_id: int) -> None:
        if self.driving is not None:
            await self.driving.adopt(table_id)

    def let_go(self, table_id: int) -> None:
        """Another process drives the table now: no timer or copy of it stays here."""
        self.scheduler.drop(table_id)
        self.outbox.forget(table_id)
        self._live.pop(table_id, None)
        self._redraw_due.discard(table_id)

    async def take_over(self, table_id: int) -> None:
        """Drive a table from now on, as a restart resumes one: its stored deadline armed
        (with the grace a restart gives), its bot's move scheduled, and its screens redrawn:
        its last driver may have died with deliveries in flight, and a change made while
        it had none was told to nobody."""
        self.let_go(table_id)  # whatever this process knew of it is stale
        log.info("table %s: driven here from now on", table_id)
        row = await self.repo.get_table(table_id)
        if row is None or row.status not in (LOBBY, PLAYING):
            return
        self._deadline_resumed.pop(table_id, None)
        self._redraw_due.add(table_id)
        deadline = next(iter(await self.repo.deadlines(table_id)), None)
        if self._resume_later(row, deadline) and deadline is not None:
            with contextlib.suppress(StorageError):
                await self.repo.set_deadline(deadline)

    def _resume_later(self, row: TableRow, deadline: Deadline | None) -> bool:
        """Schedule the table's `resume` job (from `row`, read already) and arm its stored
        deadline if it is this turn's; True when that deadline was moved on by the grace a
        restart gives and must be stored again."""
        self.scheduler.at(self.clock.now(), "resume", row.id, row.version)
        self._resuming[row.id] = row
        if row.status == LOBBY or deadline is None or deadline.version != row.version:
            return False  # a lobby has no deadline: its resume only redraws it
        self._deadline_resumed[row.id] = deadline
        return self._resume_deadline(row, deadline)

    async def catch_up(self, table_id: int) -> None:
        """Show a change another process made to a table this one drives.

        The moves it logged are played on this process's copy, which gives the events that
        process narrated (a round's end, the final ranking); what else changed (seats, a
        lobby, a start) is shown from the stored table. Then the next turn is arranged.
        """
        if not self.drives(table_id):
            return
        async with self._lock(table_id):
            live = self._live.get(table_id)
            log.debug("table %s: catching up from version %s", table_id,
                      live.row.version if live else None)
            row = await self.repo.get_table(table_id)
            if row is None or (live is not None and _stamp(row) == _stamp(live.row)):
                return
            self.scheduler.moved(table_id, row.version)
            events, mover = await self._logged_events(live, row)
            if events is not None and live is not None:
                live.row, live.seats = row, await self.repo.get_seats(table_id)
                await self._after_change(live, events, mover=mover)
                return
            was_playing = live is not None and live.row.status == PLAYING
            self._live.pop(table_id, None)
            self._resuming.pop(table_id, None)  # rows read before this change: stale
            self._resuming_seats.pop(table_id, None)
            fresh = await self._load(table_id)
            if fresh is None:
                return
            if live is not None and fresh.state is not None and live.state is not None:
                # What this process last showed of it: the table's last moves, whose turn
                # was called (not called again), the turn's deadline if still that turn's.
                fresh.narration.extend(live.narration)
                fresh.hand_sizes, fresh.last_to_act = live.hand_sizes, live.last_to_act
                fresh.deadline, fresh.deadline_stored = live.deadline, live.deadline_stored
            if fresh.row.status == LOBBY or fresh.state is None:
                await self._show_table(fresh)
            elif fresh.row.status == PLAYING:
                await self._after_change(fresh, [], notify_turn=live is None)
            elif fresh.row.status == FINISHED and was_playing:
                await self._redraw(fresh)
                result = fresh.game.outcome(fresh.state)
                if result is not None:
                    await self._announce_ranking(fresh, result,
                                                 await self.channel_lang(fresh.row.channel))

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

    async def settle(self) -> None:
        """Run what is due now and deliver everything queued: tests and shutdown wait on it."""
        while True:
            ran = await self.scheduler.run_due()
            await self.outbox.flush()
            await self._background_done()
            if not ran:
                return

    async def _background_done(self) -> None:
        if self._background:
            for result in await asyncio.gather(*self._background, return_exceptions=True):
                if isinstance(result, Exception):
                    log.error("a background write failed", exc_info=result)

    # --- loading --------------------------------------------------------------------------

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load(self, table_id: int, *, check: bool = True) -> Live | None:
        """The table in memory, read if need be. With `check`, a table resumed from its
        snapshot is first checked against its move log (once); a table whose log no
        longer replays is closed with a word in its channel, and None returned."""
        live = await self._load_unchecked(table_id)
        if live is None or not check or table_id in self._verified or live.state is None:
            return live
        return live if await self._check(live) else None

    async def _check(self, live: Live) -> bool:
        pending = self._checking.get(live.id)
        if pending is not None:
            return await asyncio.shield(pending)
        checking: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._checking[live.id] = checking
        restorable = False
        try:
            await self._verify(live)
            restorable = True
        except StorageError as exc:
            checking.set_exception(exc)
            checking.exception()  # retrieved: those waiting get it, or nobody needs to
            raise
        except Exception:
            log.exception("table %s cannot be restored; closing it", live.id)
            await self._close_broken(live.id, "table_unrestorable")
        finally:
            del self._checking[live.id]
            if not checking.done():
                checking.set_result(restorable)
        return restorable

    async def _load_unchecked(self, table_id: int) -> Live | None:
        live = self._live.get(table_id)
        if live is not None and not self.drives(table_id):
            # Another process drives it and moves it on: a copy kept here may be old.
            row = await self.repo.get_table(table_id)
            current = self._live.get(table_id)
            if current is not live:
                live = current  # read afresh meanwhile by another request, or dropped
            elif row is None or _stamp(row) != _stamp(live.row):
                self._live.pop(table_id, None)
                live = None
        if live is not None:
            self._live.move_to_end(table_id)
            live.touched = self.clock.now()
            return live
        # One load per table at a time: two copies of one table (a press and a job arriving
        # together) would each take moves the other never sees.
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        loading: asyncio.Future[Live | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = loading
        try:
            live = await self._read(table_id)
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
            del self._loading[table_id]

    async def _read(self, table_id: int) -> Live | None:
        # A table resumed at start-up was read with all the others; read it again only later.
        row = self._resuming.pop(table_id, None)
        seats = self._resuming_seats.pop(table_id, None)
        if row is None:
            row = await self.repo.get_table(table_id)
            if row is None:
                return None
        if seats is None:
            seats = await self.repo.get_seats(table_id)
        try:
            live = Live(row=row, seats=seats, game=games.get(row.game), state=None,
                        ref=await self.ref(row.id))
            deadline = self._deadline_resumed.get(table_id)
            if deadline is not None and deadline.version == row.version:
                live.deadline = deadline
            if row.snapshot is not None:
                # Checked against its log before its next move (`_commit`) or its redraw
                # after a restart: thousands of tables do not replay every log up front.
                live.state = live.game.load(row.snapshot)
        except StorageError:
            raise
        except Exception:
            # A game this version no longer has, or a log its rules no longer replay (a
            # rules fix between versions): it cannot go on, so its channel hears why and
            # is free at once. Its rows stay for a developer to look at.
            log.exception("table %s cannot be restored; closing it", table_id)
            if row.status in (LOBBY, PLAYING):
                await self._close_broken(table_id, "table_unrestorable")
            return None
        live.touched = self.clock.now()
        self._live[table_id] = live
        self._evict()
        return live

    async def _verify(self, live: Live) -> None:
        """The move log is the truth and the snapshot a cache: check it once per process."""
        row, game = live.row, live.game
        # Most moves yield a line, some none: a few times NARRATION_LINES moves fill the list.
        recent: deque[list[Any]] = deque(maxlen=4 * NARRATION_LINES)
        replayed = await self._replay(row, game, len(live.seats), recent)
        if live.row.version != row.version or row.id in self._verified:
            return  # moved on meanwhile: the log was read before that move
        dumped = game.dump(replayed)
        live.state = replayed  # equal to the snapshot's state when they agree
        # The table's "last moves" as they were before the restart, for its redraw: told
        # newest first until the list is full, so only the moves it shows are narrated.
        try:
            lang = await self.channel_lang(row.channel)
            told: list[list[str]] = []
            for events in reversed(recent):
                told.append(present.narrate(live, events, lang))
                if sum(map(len, told)) >= NARRATION_LINES:
                    break
            shown = list(live.narration)  # lines of moves made since it was loaded
            live.narration.clear()
            live.narration.extend([line for lines in reversed(told) for line in lines])
            live.narration.extend(shown)
        except Exception:  # a narration bug costs the lines, never the table
            log.exception("table %s: last moves not narrated", row.id)
        if dumped != row.snapshot:
            log.error("table %s: snapshot differs from its move log; using the log", row.id)
            live.row = await self.repo.update_table(row.id, expected_version=row.version,
                                                    snapshot=dumped)
            self.repaired.append(row.id)
        self._verified.add(row.id)

    async def _replay(self, row: TableRow, game: Game, seats: int,
                      recent: deque[list[Any]] | None = None) -> Any:
        """The state the move log gives; `recent` receives the events of its last moves."""
        state = game.new_game(seats, row.options, row.seed)
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

    def _evict(self) -> None:
        """Drop tables nobody touched for `cache_idle_seconds`, and the least recently used
        past `cached_tables`. Idleness, not a count: however many tables are in play at
        once, none of them reloads on every move; the count only bounds memory.

        `_live` is kept in order of use, so the idle ones are at its front."""
        idle_since = self.clock.now() - self.settings.cache_idle_seconds
        while self._live:
            oldest = next(iter(self._live.values()))
            if len(self._live) <= self.settings.cached_tables and oldest.touched >= idle_since:
                break
            table_id, _ = self._live.popitem(last=False)
            lock = self._locks.get(table_id)
            if lock is not None and not lock.locked():
                del self._locks[table_id]
            self.outbox.forget(table_id)

    async def _with_table(self, actor: Actor, channel: str,
                          handler: Callable[[Live, Actor], Awaitable[Reply]]) -> Reply:
        """Commands typed in a channel act on its open table; buttons name theirs."""
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        return await handler(live, actor)

    async def _in_channel(self, channel: str) -> Live | None:
        logs.bind(platform=self.platform, channel=channel)
        row = await self.repo.open_table_in(self.platform, channel)
        if row is None:
            return None
        logs.bind(table_id=row.id)
        return await self._load(row.id)

    # --- table references -----------------------------------------------------------------

    async def ref(self, table_id: int) -> str:
        """How buttons and links name a table: its id and a tag only this bot can make (an
        HMAC under a secret stored in the database on first run), so no one can name a
        table they were never shown by counting ids."""
        if self._reference_key is None:
            stored = await self.repo.secret(REFERENCE_SECRET, secrets.token_urlsafe(32))
            self._reference_key = stored.encode()
        digest = hmac.new(self._reference_key, f"table:{table_id}".encode(),
                          hashlib.sha256).digest()
        return encode_ref(table_id, base64.urlsafe_b64encode(digest).decode()[:TAG_LENGTH])

    async def _genuine(self, table_id: int, tag: str) -> bool:
        # Checked before the table is loaded: a forged reference costs no database read.
        expected = await self.ref(table_id)
        return hmac.compare_digest(expected.encode(), encode_ref(table_id, tag).encode())

    # --- languages and settings -----------------------------------------------------------

    async def channel_lang(self, channel: str) -> str:
        if channel not in self._channel_langs:
            self._channel_langs[channel] = await self.repo.channel_lang(self.platform, channel)
        return self._channel_langs[channel] or self.settings.default_lang

    async def user_settings(self, user_id: str) -> UserSettings:
        if user_id not in self._users:
            self._users[user_id] = await self.repo.user_settings(self.platform, user_id)
        return self._users[user_id]

    def remember_locale(self, user_id: str, locale: str | None) -> None:
        """The language the user's app runs in (`fr-FR`, `en-US`), as the platform says.

        Adapters call this on every event, from code that cannot wait: a change is
        stored in the background, so hands sent after a restart (before the person
        does anything) still come in their language. An event without a language says
        nothing about it and changes nothing.
        """
        if not locale:
            return
        code = locale.split("-")[0].split("_")[0].lower()
        known = code if code in LANGS else None
        if user_id in self._locales and self._locales[user_id] == known:
            return
        self._locales[user_id] = known
        if user_id not in self._storing_locale:  # that write takes the latest value
            self._storing_locale.add(user_id)
            self._in_background(self._store_locale(user_id))

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` without waiting for it; `settle` and `close` do wait for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _store_locale(self, user_id: str) -> None:
        try:
            while True:
                stored = await self.user_settings(user_id)
                latest = self._locales.get(user_id, stored.locale)
                if stored.locale == latest:
                    return
                await self.repo.set_user_locale(self.platform, user_id, latest)
                self._users[user_id] = replace(self._users.get(user_id, stored), locale=latest)
        except StorageError as exc:  # only a preference: the next event tries again
            self._locales.pop(user_id, None)
            log.warning("could not store the app language of %s: %s", user_id, exc)
        finally:
            self._storing_locale.discard(user_id)

    async def lang_of(self, user_id: str, channel: str | None = None) -> str:
        """What a person reads privately: their /lang, else their app's language, else the
        channel's (public messages always follow the channel)."""
        stored = await self.user_settings(user_id)
        own = stored.lang or self._locales.get(user_id, stored.locale)
        if own:
            return own
        return await self.channel_lang(channel) if channel else self.settings.default_lang

    @answers_storage_faults
    async def set_lang(self, actor: Actor, channel: str, lang: str, *, personal: bool) -> Reply:
        lang = lang.strip().lower()[:2]
        if lang not in LANGS:
            return await self._refuse(actor, channel, "lang_unknown", langs=", ".join(LANGS))
        if personal:
            current = await self.user_settings(actor.user_id)
            new = replace(current, lang=lang)
            try:
                await self.repo.set_user_settings(self.platform, actor.user_id, new)
                changes.note()
            except StorageError:
                return await self._refuse(actor, channel, "storage_failed")
            self._users[actor.user_id] = new
            return Reply(t(lang, "lang_set_personal"))
        if not actor.is_admin:
            return await self._refuse(actor, channel, "admin_only")
        try:
            await self.repo.set_channel_lang(self.platform, channel, lang)
            changes.note()
        except StorageError:
            return await self._refuse(actor, channel, "storage_failed")
        self._channel_langs[channel] = lang
        live = await self._in_channel(channel)
        if live is not None:
            await self._show_table(live)
        return Reply(t(lang, "lang_set_channel"))

    @answers_storage_faults
    async def set_mentions(self, actor: Actor, on: bool) -> Reply:
        current = await self.user_settings(actor.user_id)
        new = replace(current, mentions=on)
        try:
            await self.repo.set_user_settings(self.platform, actor.user_id, new)
            changes.note()
        except StorageError:
            return await self._refuse(actor, None, "storage_failed")
        self._users[actor.user_id] = new
        lang = await self.lang_of(actor.user_id)
        return Reply(t(lang, "mentions_on" if on else "mentions_off"))

    async def _refuse(self, actor: Actor, channel: str | None, key: str, /,
                      **params: Any) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, key, **params), ok=False, reason=key)

    # --- moves ----------------------------------------------------------------------------

    @answers_storage_faults
    async def play(self, actor: Actor, channel: str, text: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None or live.row.status != PLAYING:
            metrics.REFUSED.labels(self.platform, "no_game").inc()
            return await self._refuse(actor, channel, "no_game")
        return await self._play(live, actor, text, expected_version=None)

    @answers_storage_faults
    async def press(self, actor: Actor, press: Press) -> Reply:
        """A button press from anywhere (channel or private chat), validated from scratch.

        Who may do what comes from the platform's facts in `press`, never from the
        payload nor from `actor.is_admin`: see `bot.authority`.
        """
        privacy = decode_privacy(press.payload)
        if privacy is not None:  # the /forgetme question: it acts for whoever pressed
            return await self.privacy_press(actor, *privacy)
        found = await self.pressed(actor, press)
        if isinstance(found, Reply):
            return found
        live, payload = found
        action, channel = payload.action, live.row.channel
        logs.bind(platform=self.platform, table_id=live.id, channel=channel)
        actor = Actor(actor.user_id, actor.name)
        if action in MANAGING and live.row.host != actor.user_id:
            try:
                # The press is in the table's own chat (checked above): its rights are asked.
                actor = Actor(actor.user_id, actor.name, is_admin=await press.is_admin())
            except RightsUnknown:
                return await self._refuse(actor, channel, "rights_unknown")
        lang = await self.lang_of(actor.user_id, channel)
        if is_move(action):
            if live.row.status != PLAYING or not live.current(payload.version):
                metrics.REFUSED.labels(self.platform, "out_of_date").inc()
                return Reply(t(lang, "out_of_date"), ok=False)
            return await self._play(live, actor, action[2:], expected_version=payload.version)
        if is_signal(action):
            # Talk (The Game's signals): valid whatever happened since the button was drawn.
            if live.row.status != PLAYING:
                metrics.REFUSED.labels(self.platform, "out_of_date").inc()
                return Reply(t(lang, "out_of_date"), ok=False)
            return await self._play(live, actor, action[2:], expected_version=None,
                                    talk_only=True)
        handlers = {"join": self._join, "leave": self._leave, "addbot": self._add_bot,
                    "start": self._start, "rematch": self._rematch, "hand": self._hand_for,
                    "options": self._options_text, "removebot": self._remove_bot}
        handler = handlers.get(action)
        if handler is None:
            return Reply(t(lang, "bad_button"), ok=False)
        if action == "rematch":
            if live.row.status != FINISHED:
                return Reply(t(lang, "out_of_date"), ok=False)
            return await self._rematch(live, actor, press.is_member)
        return await handler(live, actor)

    async def pressed(self, actor: Actor, press: Press) -> tuple[Live, Payload] | Reply:
        """The table a press may act on, or the refusal: the payload must be one we drew,
        and the pressed message must be in that table's chat, or be the presser's own hand
        message of that table in their private chat. Adapters that answer some presses
        themselves (a hand shown in place, a deep link) ask this first."""
        decoded = decode_payload(press.payload)
        try:
            genuine = decoded is not None and await self._genuine(decoded.table_id, decoded.tag)
        except StorageError:  # the key could not be read
            return await self._refuse(actor, press.channel, "storage_failed")
        if decoded is None or not genuine:
            return await self._refuse(actor, press.channel, "bad_button")
        live = await self._load(decoded.table_id)
        if live is None or live.row.platform != self.platform:
            return await self._refuse(actor, press.channel, "bad_button")
        if press.channel is not None:
            if press.channel != live.row.channel:
                return await self._refuse(actor, press.channel, "button_elsewhere")
            return live, decoded
        if not private_action(decoded.action):
            return await self._refuse(actor, None, "button_elsewhere")
        seat = live.seat_of(actor.user_id)
        if seat is None:
            return await self._refuse(actor, live.row.channel, "not_seated")
        key = f"hand:{seat.seat}"
        shown = self.outbox.ref(live.id, key)
        if shown is None:
            try:
                shown = (await self.repo.messages(live.id)).get(key)
            except StorageError:
                return await self._refuse(actor, live.row.channel, "storage_failed")
        if shown is None or shown.message_id != press.message_id \
                or shown.extra.get("user") not in (None, actor.user_id):
            return await self._refuse(actor, live.row.channel, "button_not_your_hand")
        return live, decoded

    async def _play(self, live: Live, actor: Actor, text: str, *,
                    expected_version: int | None, talk_only: bool = False) -> Reply:
        started = time.perf_counter()
        reply = await self._play_move(live, actor, text, expected_version=expected_version,
                                      talk_only=talk_only)
        metrics.MOVE_SECONDS.labels(self.platform).observe(time.perf_counter() - started)
        if not reply.ok:
            metrics.REFUSED.labels(self.platform, reply.reason or "other").inc()
        return reply

    async def _play_move(self, live: Live, actor: Actor, text: str, *,
                         expected_version: int | None, talk_only: bool = False) -> Reply:
        channel = live.row.channel
        if len(text) > MAX_MOVE_CHARS:
            return await self._refuse(actor, channel, "move_too_long", max=MAX_MOVE_CHARS)
        async with self._lock(live.id):
            if live.row.status != PLAYING or live.state is None:
                return await self._refuse(actor, channel, "no_game")
            if expected_version is not None and not live.current(expected_version):
                return await self._refuse(actor, channel, "out_of_date")
            seat = live.seat_of(actor.user_id)
            if seat is None:
                former = any(s.former_user_id == actor.user_id for s in live.seats)
                return await self._refuse(actor, channel,
                                          "seat_taken_by_bot" if former else "not_seated")
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
                            return await self._refuse(actor, channel, "bad_button")
                        if exc.code in {"bad_notation", "unknown_card"}:
                            raise IllegalMove("not_your_turn") from None
                        raise
                is_talk = getattr(game, "is_talk", None)
                if talk_only and not (is_talk is not None and is_talk(move)):
                    # A forged `s:` payload carrying a play: plays need a current button.
                    return await self._refuse(actor, channel, "bad_button")
                events = await self._commit(live, seat.seat, move, "player")
            except IllegalMove as exc:
                lang = await self.lang_of(actor.user_id, channel)
                return Reply(present.refusal(live, exc, lang), ok=False, reason=exc.code)
            except VersionConflict:
                await self._reload(live)
                return await self._refuse(actor, channel, "out_of_date")
            except Unstorable:
                log.exception("table %s: move %r can never be stored", live.id, text)
                await self._close_broken(live.id, "table_unstorable")
                return await self._refuse(actor, channel, "move_unstorable")
            except StorageError:
                return await self._refuse(actor, channel, "storage_failed")
            if seat.afk_strikes:
                with contextlib.suppress(LobbyMoved):  # only a count; the move is stored
                    await self._save_seat(live, SeatRow(seat=seat.seat, user_id=seat.user_id,
                                                        name=seat.name))
        await self._after_change(live, events, mover=seat.seat)
        return Reply(t(await self.lang_of(actor.user_id, channel), "move_done"),
                     table_id=live.id)

    async def _commit(self, live: Live, seat: int, move: Any, actor_kind: str) -> list[Any]:
        """Apply and store one move; the state in memory changes only once it is stored."""
        game = live.game
        new_state, events = game.apply(live.state, seat, move)
        result = game.outcome(new_state)
        results = None
        if result is not None:
            # A cooperative game places the whole team alike, so its ranking says nothing:
            # the team's place is 1 when it won, 2 when the deck beat it (for /stats).
            team = 1 if getattr(game, "won", bool)(new_state) else 2
            cooperative = getattr(game, "COOPERATIVE", False)
            results = [ResultRow(seat=s.seat, user_id=s.user_id or s.former_user_id,
                                 name=s.name, is_bot=s.is_bot and not s.former_user_id,
                                 score=result.scores[s.seat],
                                 rank=team if cooperative else result.ranking[s.seat])
                       for s in live.seats]
        before = live.row.version
        is_talk = getattr(game, "is_talk", None)
        talk = is_talk is not None and is_talk(move)
        # The next turn's deadline goes in the move's own transaction: one durable write.
        deadline = None if result else self._next_deadline(
            live, game.to_act(new_state), before + 1, talk=talk)
        live.row = await self.repo.commit_move(
            live.id, seq=before + 1, seat=seat, move=str(move), actor=actor_kind,
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
        metrics.MOVES.labels(self.platform, live.row.game, actor_kind).inc()
        return events

    async def _reload(self, live: Live) -> None:
        """Another process moved this table on: take its state from the database."""
        self._live.pop(live.id, None)
        fresh = await self._load(live.id)
        if fresh is not None:
            live.row, live.seats, live.state = fresh.row, fresh.seats, fresh.state
            self._live[live.id] = live

    async def _after_change(self, live: Live, events: list[Any], *, mover: int | None = None,
                            notify_turn: bool = False) -> None:
        """Show what changed, then arrange what happens next (deadline or bot move).

        Whatever goes wrong while showing, the next turn is still arranged: a rendering
        bug may make a message late, never a game stuck.
        """
        showing = SHOWING_CHANGE.set(True)
        try:
            await self._show_change(live, events, mover=mover, notify_turn=notify_turn)
        except Exception:
            log.exception("table %s: showing the change failed", live.id)
        finally:
            SHOWING_CHANGE.reset(showing)
        if live.row.status != PLAYING or live.state is None:
            return
        to_act = live.game.to_act(live.state)
        try:
            await self._set_deadline(live, to_act)
        except Exception:
            log.exception("table %s: deadline not set", live.id)
        self._schedule_bot(live)

    async def _show_change(self, live: Live, events: list[Any], *, mover: int | None,
                           notify_turn: bool) -> None:
        lang = await self.channel_lang(live.row.channel)
        lines = present.narrate(live, events, lang)
        live.narration.extend(lines)
        if lines:
            live.newest = len(lines)
        before = live.hand_sizes
        view = live.game.view(live.state)
        live.hand_sizes = list(view.get("hand_sizes", []))
        round_changed = any(e.get("type") in {"round_over", "round_started"} for e in events)
        if round_changed:
            await self._apply_takeovers(live)
        await self._show_table(live, news=lines)
        to_act = view.get("to_act", [])
        for seat in live.seats:
            if seat.is_bot:
                continue
            changed = (before is None or round_changed or seat.seat == mover
                       or seat.seat in to_act or seat.seat in (live.last_to_act or [])
                       or before[seat.seat:seat.seat + 1]
                       != live.hand_sizes[seat.seat:seat.seat + 1])
            if changed:
                await self._show_hand(live, seat.seat)
        result = live.game.outcome(live.state)
        summaries = [present.round_summary(live, ev, lang) for ev in events
                     if present.round_ended(live, ev)
                     and not (result is not None and present.round_was_whole_game(live, ev))]
        if result is None:
            for lines in summaries:
                await self._announce_lines(live, lines, kind="result")
        else:
            if live.deadline_stored:
                await self.repo.clear_deadline(live.id)
                live.deadline_stored = False
            # The last round and the ranking in one message, with one rematch button.
            lines = [line for summary in summaries for line in [*summary, ""]]
            await self._announce_ranking(live, result, lang, lines)
            return
        if to_act != live.last_to_act or (notify_turn and mover is None):
            await self._ping(live, to_act)
        elif mover is not None and mover in to_act and not live.seats[mover].is_bot:
            await self._ping(live, to_act, goes_on=True)
        live.last_to_act = list(to_act)

    async def _announce_ranking(self, live: Live, result: Any, lang: str,
                                lines: list[str] | None = None) -> None:
        """The final ranking (after `lines`, the last round's), with the rematch button."""
        await self._announce_lines(live, [*(lines or []), *present.final_ranking(live, result,
                                                                                lang)],
                                   buttons=[[Button(t(lang, "btn_rematch"), "rematch",
                                                    "primary")]], kind="result")

    async def _close_broken(self, table_id: int, key: str) -> None:
        """Close a table that can never go on (a result the database cannot hold, a log
        that no longer replays), say so in its channel, and free the channel at once.

        Its rows stay for a developer to look at; no job of it runs again, so nothing
        retries what cannot succeed.
        """
        self.scheduler.drop(table_id)
        live = self._live.pop(table_id, None)
        self.outbox.forget(table_id)
        try:
            row = await self.repo.get_table(table_id)
            if row is None or row.status not in (LOBBY, PLAYING):
                return
            row = await self.repo.update_table(
                table_id, expected_version=row.version, status=CLOSED,
                settings={**row.settings, "broken": key})
            with contextlib.suppress(StorageError):
                await self.repo.clear_deadline(table_id)
        except StorageError:
            log.exception("table %s: could not be closed", table_id)
            return
        self._resuming.pop(table_id, None)
        self._resuming_seats.pop(table_id, None)
        lang = await self.channel_lang(row.channel)
        if live is not None:
            live.row = row  # a caller still holding it sees the table closed, as players do
            try:
                await self._show_table(live)
            except Exception:
                log.exception("table %s: the closed table could not be shown", table_id)
        self.outbox.put(Announcement(table_id=table_id, channel=row.channel, text=t(lang, key),
                                     version=row.version))

    # --- showing --------------------------------------------------------------------------

    async def _show_table(self, live: Live, *, news: list[str] | None = None) -> None:
        lang = await self.channel_lang(live.row.channel)
        self.outbox.put(TableMessage(table_id=live.id, channel=live.row.channel,
                                     draw=lambda: present.table(live, lang),
                                     news=None if news is None else list(news)))

    async def _show_hand(self, live: Live, seat_no: int) -> None:
        seat = live.seats[seat_no]
        if seat.is_bot or seat.user_id is None or live.state is None:
            return
        lang = await self.lang_of(seat.user_id, live.row.channel)
        every_move = self.every_move
        self.outbox.put(HandMessage(table_id=live.id, channel=live.row.channel, seat=seat_no,
                                    user_id=seat.user_id,
                                    draw=lambda: present.hand(live, seat_no, lang,
                                                              every_move=every_move)))

    async def _announce(self, live: Live, key: str, /, **params: Any) -> None:
        lang = await self.channel_lang(live.row.channel)
        await self._announce_lines(live, [t(lang, key, **params)])

    async def _announce_lines(self, live: Live, lines: list[str],
                              buttons: list[list[Button]] | None = None,
                              kind: str = "info", mentions: list[str] | None = None) -> None:
        if lines:
            self.outbox.put(Announcement(table_id=live.id, channel=live.row.channel,
                                         text="\n".join(lines), buttons=buttons or [],
                                         version=live.row.version, ref=live.ref, kind=kind,
                                         mentions=mentions or []))

    @answers_storage_faults
    async def hand(self, actor: Actor, channel: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None or live.row.status != PLAYING:
            return await self._refuse(actor, channel, "no_game")
        return await self._hand_for(live, actor)

    async def _hand_for(self, live: Live, actor: Actor) -> Reply:
        seat = live.seat_of(actor.user_id)
        if seat is None or live.state is None:
            return await self._refuse(actor, live.row.channel, "not_seated")
        await self._show_hand(live, seat.seat)
        lang = await self.lang_of(actor.user_id, live.row.channel)
        return Reply(present.hand(live, seat.seat, lang).text, table_id=live.id)

    async def hand_rendering(self, actor: Actor, channel: str) -> Any:
        """The hand as a rendering, for adapters that show it in place (ephemeral fallback)."""
        live = await self._in_channel(channel)
        if live is None or live.state is None:
            return None
        seat = live.seat_of(actor.user_id)
        if seat is None:
            return None
        return present.hand(live, seat.seat, await self.lang_of(actor.user_id, channel))

    async def hand_rendering_for_table(self, actor: Actor, table_id: int) -> Any:
        live = await self._load(table_id)
        if live is None or live.state is None or live.row.status != PLAYING:
            return None
        seat = live.seat_of(actor.user_id)
        if seat is None:
            return None
        return present.hand(live, seat.seat,
                            await self.lang_of(actor.user_id, live.row.channel))

    @answers_storage_faults
    async def show(self, actor: Actor, channel: str) -> Reply:
        """`/table`: post the table again (a new message) and remember it as the one to edit."""
        live = await self._in_channel(channel)
        if live is None and await self.channel_back(channel):
            # A table closed when the bot lost this channel: asking for it shows it works.
            live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        with contextlib.suppress(StorageError):
            await self.repo.delete_message(live.id, "table")
        self.outbox.forget(live.id)
        await self._show_table(live)
        drawn = present.table(live, await self.lang_of(actor.user_id, channel))
        return Reply(drawn.text, table_id=live.id, rendering=drawn)

    @answers_storage_faults
    async def scores(self, actor: Actor, channel: str) -> Reply:
        """The running scores; once the game is over (and no new table was opened there),
        the finished game's final ranking, which is what people ask for right after it."""
        live = await self._in_channel(channel)
        lang = await self.lang_of(actor.user_id, channel)
        if live is None:
            newest = await self.repo.newest_tables_in(self.platform, channel)
            if newest and newest[0].status == FINISHED:
                live = await self._load(newest[0].id)
        if live is None or live.state is None:
            return Reply(t(lang, "no_game"), ok=False)
        result = live.game.outcome(live.state)
        if live.row.status == FINISHED and result is not None:
            return Reply("\n".join(present.final_ranking(live, result, lang)), table_id=live.id)
        return Reply("\n".join(present.score_lines(live, lang)), table_id=live.id)

    @answers_storage_faults
    async def stats(self, actor: Actor, channel: str | None = None) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        rows = await self.repo.stats(self.platform, actor.user_id)
        if not rows:
            return Reply(t(lang, "stats_none"))
        lines = [t(lang, "stats_title", name=actor.name)]
        for row in rows:
            known_game = games.get(row.game) if row.game in games.ids() else None
            name = known_game.NAME if known_game else row.game
            # A cooperative game has no places to average, only games won and lost.
            key = "stats_line_team" if getattr(known_game, "COOPERATIVE", False) \
                else "stats_line"
            lines.append(t(lang, key, game=name, played=row.played, wins=row.wins,
                           lost=row.played - row.wins, rank=f"{row.average_rank:.1f}"))
        return Reply("\n".join(lines))

    # --- platform events ------------------------------------------------------------------

    async def _channel_gone(self, table_id: int) -> None:
        """The channel vanished or the bot lost access: close the table, keep its state.

        Often the loss is not for good (a topic closed, rights taken, the bot removed by
        mistake), so the table notes what it was (`lost`) and `channel_back` resumes it.
        """
        log.warning("table %s: channel unreachable; closing it", table_id)
        async with self._lock(table_id):
            live = self._live.get(table_id)
            try:
                row = live.row if live else await self.repo.get_table(table_id)
            except StorageError:
                log.exception("table %s: not closed", table_id)
                return
            if row is None or row.status not in (LOBBY, PLAYING):
                return  # a finished table keeps its rematch button for when it is back
            await self._set_status(table_id, CLOSED,
                                   settings={**row.settings, "lost": row.status})
            if live is not None:
                live.deadline = None  # cleared below; coming back starts a fresh one
            try:
                await self.repo.clear_deadline(table_id)
            except StorageError:
                log.exception("table %s: deadline not cleared", table_id)

    async def _unreachable(self, table_id: int, user_id: str) -> None:
        """A player blocked the bot: say so in the channel once; deadlines keep the game going."""
        live = await self._load(table_id)
        if live is None:
            return
        async with self._lock(table_id):  # settings change only under the table lock
            seat = live.seat_of(user_id)
            warned = set(live.row.settings.get("unreachable", []))
            if seat is None or user_id in warned:
                return
            warned.add(user_id)
            try:
                await self._save_lobby(live, settings={**live.row.settings,
                                                       "unreachable": sorted(warned)})
            except LobbyMoved:
                return  # the next hand that cannot reach them warns on the stored table
        # Mentioned, so the player hears of it; without deadlines the table waits for them.
        key = "cannot_reach" if live.row.settings.get("deadline") else "cannot_reach_waits"
        lang = await self.channel_lang(live.row.channel)
        await self._announce_lines(live, [t(lang, key, name=seat.name)], mentions=[user_id])

    async def chat_closed(self, chat: str) -> None:
        """The bot left a whole chat: close its table and those of its topics/threads."""
        for row in await self.repo.unfinished_tables():
            if row.platform == self.platform and (row.channel == chat
                                                  or row.channel.startswith(f"{chat}:")):
                await self._channel_gone(row.id)

    async def chat_moved(self, old_chat: str, new_chat: str) -> None:
        """A chat got a new id (a Telegram group became a supergroup): its tables follow,
        keep their state and language, and post their table message in the new chat."""
        try:
            moved = await self.repo.move_chat(self.platform, old_chat, new_chat)
            lang = await self.repo.channel_lang(self.platform, old_chat)
            if lang and moved:
                await self.repo.set_channel_lang(self.platform, new_chat, lang)
                self._channel_langs[new_chat] = lang
        except StorageError:
            log.exception("tables of chat %s could not follow it to %s", old_chat, new_chat)
            return
        for table_id in moved:
            self._live.pop(table_id, None)  # reloaded with its new channel
            self.outbox.forget(table_id)
            live = await self._load(table_id)
            if live is not None:
                await self._show_table(live)

    async def channel_back(self, channel: str, *, with_topics: bool = False) -> list[int]:
        """The bot can write in `channel` again (a topic reopened, the bot added back or
        given its rights): a table closed there for losing it carries on, with a fresh
        deadline, if it is still the channel's newest table. Returns their ids."""
        try:
            rows = await self.repo.newest_tables_in(self.platform, channel,
                                                    with_topics=with_topics)
        except StorageError:
            log.exception("tables of %s could not be read", channel)
            return []
        back: list[int] = []
        for row in rows:
            if row.status == CLOSED and row.settings.get("lost") in (LOBBY, PLAYING) \
                    and await self._revive(row.id) is not None:
                back.append(row.id)
        return back

    async def _revive(self, table_id: int) -> Live | None:
        async with self._lock(table_id):
            try:
                # Read again under the lock: two triggers at once bring a table back once.
                row = await self.repo.get_table(table_id)
                if row is None or row.status != CLOSED or "lost" not in row.settings:
                    return None
                settings = {k: v for k, v in row.settings.items() if k != "lost"}
                row = await self.repo.update_table(
                    table_id, expected_version=row.version, status=row.settings["lost"],
                    settings=settings)
                changes.note()
            except StorageError as exc:  # a table opened there meanwhile, or a fault
                log.info("table %s could not come back: %s", table_id, exc)
                return None
            # Its version did not change: the jobs it had (a reminder, an expiry) would look
            # current again, though its deadline was cleared on closing.
            self.scheduler.drop(table_id)
            self._deadline_resumed.pop(table_id, None)
            self.outbox.revive(table_id)
            # A closed table takes no move, so a cached copy only needs its row: keeping it
            # (not loading a second copy) means a press racing with this sees the same one.
            live = self._live.get(table_id)
            if live is not None:
                live.row = row
            else:
                live = await self._load(table_id)
            if live is None:
                return None
            log.info("table %s: channel %s is back; resuming", table_id, live.row.channel)
            await self._show_table(live)  # these only queue deliveries and jobs
            if live.row.status == PLAYING:
                await self._announce(live, "table_back")
                for seat in live.seats:  # hands queued when the channel went were dropped
                    await self._show_hand(live, seat.seat)
                self.scheduler.at(self.clock.now(), "resume", table_id, live.row.version)
                await self._ping(live, live.game.to_act(live.state))
        return live

    async def channel_closed(self, channel: str) -> None:
        """An adapter learnt that a channel is gone (e.g. the bot was removed from a group)."""
        row = await self.repo.open_table_in(self.platform, channel)
        if row is not None:
            await self._channel_gone(row.id)

    async def table_for_channel(self, channel: str) -> TableRow | None:
        live = await self._in_channel(channel)
        return None if live is None else live.row

    async def live_table(self, table_id: int) -> Live | None:
        return await self._load(table_id)


def _stamp(row: TableRow) -> tuple[int, str, float]:
    """What changes with every stored change of a table (seats and settings do not all
    move its version)."""
    return row.version, row.status, row.updated_at
