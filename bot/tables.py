"""Tables: where every event of a platform finds the table it is for.

Every platform adapter calls the same methods here; each finds the table the event is
for (by channel, by a button's reference, by a timer) and hands it to that table's
`bot.table.Table`, which owns its lock, its state, its timers and its deliveries. What
is not one table's stays here: which tables this process keeps in memory and drives,
start-up and shutdown, references, languages and settings (kept by `bot.people`), and a
person's own data (`bot.privacy`). Each method returns a `Reply` (a sentence for the person
who acted, already in their language).
"""

import asyncio
import base64
import contextlib
import functools
import gc
import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from bot import changes, clean, logs, metrics, present, presses
from bot import options as table_options
from bot.authority import (
    MemberCheck,
    Press,
    RightsUnknown,
    private_action,
)
from bot.clock import Clock, RealClock
from bot.deliveries import Announcement, Called, Delivery, calls_someone, names_at
from bot.driving import Driving
from bot.host import Host
from bot.i18n import LANGS, t
from bot.live import Acted, Actor, Live, Reply
from bot.outbox import Outbox, Sink
from bot.people import People
from bot.presses import Pressed
from bot.privacy import Privacy
from bot.render import TAG_LENGTH, Payload, Rendering, decode_ref, encode_ref
from bot.scheduler import Job, Scheduler
from bot.settings import Settings
from bot.table import MAX_MOVE_CHARS, LobbyMoved, Table, stamp
from db.repository import (
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    Deadline,
    MessageRef,
    Repository,
    SeatRow,
    StorageError,
    TableExists,
    TableRow,
)
from engine import BadOptions, bots, games
from engine.core.options import parse_options
from engine.core.protocol import Game

log = logging.getLogger(__name__)

__all__ = [
    "MAX_MOVE_CHARS",
    "Actor",
    "Live",
    "LobbyMoved",
    "Press",
    "Reply",
    "RightsUnknown",
    "Table",
    "Tables",
]

# Seconds before the newest stored change within which a table is redrawn at start-up:
# longer than any delivery waits in the outbox and the rate limiter.
REDRAW_WINDOW = 600.0
# The stored secret that keys table references (`Tables.ref`): generated on first run.
REFERENCE_SECRET = "table-references"
# Seconds between looks for tables in memory waiting on nothing (`Tables.unstick`), and
# how long such a table has gone untouched before it counts: a move's own arranging of
# the next turn takes well under a second, and a table is only taken for stuck when two
# looks in a row find it so, unchanged.
STUCK_CHECK_SECONDS = 30.0

P = ParamSpec("P")
S = TypeVar("S", bound="Tables")


def answers_storage_faults(
    method: Callable[Concatenate[S, Actor, P], Awaitable[Reply]],
) -> Callable[Concatenate[S, Actor, P], Awaitable[Reply]]:
    """A command whose storage read or write fails answers the storage sentence.

    Each command already says "I couldn't save that" where it writes; this catches the
    rest (a damaged page on a read, a full disk under a preference) so that nobody reads
    "Something went wrong", and nothing half done is kept: every repository call is
    atomic.
    """

    @functools.wraps(method)
    async def answered(self: S, actor: Actor, /, *args: P.args, **kwargs: P.kwargs) -> Reply:
        try:
            return await method(self, actor, *args, **kwargs)
        except StorageError:
            log.exception("%s for %s: storage failed", method.__name__, actor.user_id)
            lang = self.settings.default_lang
            with contextlib.suppress(StorageError):
                lang = await self.lang_of(actor.user_id)
            # Once something was stored for this request, "nothing changed" is untrue.
            key = "error_after_change" if changes.stored() else "storage_unavailable"
            return Reply(t(lang, key), ok=False)

    return answered


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


class Tables:
    # The class of each table's driver: benchmarks count moves with a subclass.
    table_type: type[Table] = Table

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
                             elsewhere=self.driving.elsewhere if self.driving else None,
                             queued=self.stamp)
        self.scheduler = Scheduler(self.clock, self._run_job, accepts=drives)
        metrics.QUEUE.labels(platform).set_function(self.outbox.depth)
        self.privacy = Privacy(self)
        # Languages and settings, for this process's tables and commands alike.
        self.people = People(repo, platform=platform, settings=self.settings,
                             in_background=self.in_background,
                             on_lang_changed=self._show_hands_of)
        # Every table this process holds something of (its state, a lock, a resume), and
        # those whose state is in memory, least recently used first (`_evict`).
        self._tables: dict[int, Table] = {}
        self._loaded: OrderedDict[int, Table] = OrderedDict()
        self._background: set[asyncio.Task[None]] = set()
        self._watching: asyncio.Task[None] | None = None  # `unstick`, now and then
        # Tables the last look found waiting on nothing, with the stamp they had then.
        self._suspects: dict[int, tuple[int, str, float]] = {}
        # Tables whose move log this process checked against their snapshot (once each).
        self.verified: set[int] = set()
        self.repaired: list[int] = []  # tables whose snapshot was rebuilt from the move log
        self._reference_key: bytes | None = None
        # All a table needs of the rest of the bot: each table is given this, never `self`.
        # A person's language is asked of `self.lang_of` at each call: whatever stands in
        # for it (the adapters' tests put a storage fault there) must word a table's
        # replies as it words the commands'.
        self.host: Host[Table] = Host(
            repo=repo, outbox=self.outbox, scheduler=self.scheduler, clock=self.clock,
            settings=self.settings, platform=platform, every_move=every_move,
            lang_of=lambda user_id, channel: self.lang_of(user_id, channel),
            channel_lang=self.people.channel_lang, own_lang=self.people.own_lang,
            user_settings=self.people.user_settings,
            refuse=self.refuse, bad_options=self.bad_options,
            used=self.used, read=self.read, opened=self.opened, drives=self.drives,
            verified=self.verified, repaired=self.repaired,
            ref=self.ref, new_seed=self.new_seed, in_background=self.in_background)

    # --- life cycle -----------------------------------------------------------------------

    async def start(self, *, run_scheduler: bool = True) -> None:
        """Resume every unfinished table: deadlines at once, everything else as a job.

        Start-up only reads rows and schedules: each table is loaded, verified against
        its move log and given its next bot move by a `resume` job, so a restart with
        thousands of tables is quick and players are served while the rest resumes.

        Tables that changed shortly before the previous process stopped (within
        `REDRAW_WINDOW` of the newest stored change) are redrawn too, lobbies and games
        finished then included (see `Showing.redraw`): only their deliveries can have been
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
        resumed: list[Table] = []
        for row in await self.repo.unfinished_tables():
            if row.platform != self.platform or row.status not in (LOBBY, PLAYING):
                continue
            if not self.drives(row.id):
                continue
            table = self.table(row.id)
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
            await self.repo.set_deadlines(moved)
        except StorageError:
            log.exception("extended deadlines not stored; they still run in memory")
        # Their channels' languages at once, for the turn calls and redraws to come.
        await self.people.read_channel_langs(
            t.resuming.channel for t in resumed if t.resuming is not None)
        # A game's last move (or its cancelling) may have been stored just before the process
        # stopped, not yet shown: without a redraw it would look stuck for good.
        for row in await self.repo.just_ended_tables(REDRAW_WINDOW):
            if row.platform == self.platform and self.driving is None:
                table = self.table(row.id)
                table.redraw_due = True
                table.resuming = row
                self.scheduler.at(now, "resume", row.id, row.version)
        _freeze_start_up_heap()
        if run_scheduler:
            self.scheduler.start()
            self._watching = asyncio.get_running_loop().create_task(self._watch())
            if self.driving is not None:
                self.driving.start()

    async def close(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watching
            self._watching = None
        await self.scheduler.stop()
        await self._background_done()
        await self.outbox.close()
        if self.driving is not None:
            await self.driving.stop()

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

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` without waiting for it; `settle` and `close` do wait for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def new_seed(self) -> int:
        return self._seeds()

    # --- the tables in memory -------------------------------------------------------------

    def table(self, table_id: int) -> Table:
        """The one object of this table here, made on first need (nothing is read yet)."""
        table = self._tables.get(table_id)
        if table is None:
            table = self._tables[table_id] = self.table_type(self.host, table_id)
        return table

    def in_memory(self, table_id: int) -> Table | None:
        """The table if its state is in memory here, else None (nothing is read)."""
        table = self._loaded.get(table_id)
        return table if table is not None and table.loaded else None

    async def _loaded_table(self, table_id: int, *, check: bool = True) -> Table | None:
        """The table with its state read (and its log checked, with `check`), up to date
        for a person's command or press; None when there is no such table, or it could
        not be restored.

        With several processes, a change made at another one reaches the driver by a
        notice, which may still be on its way: the driver looks first (one read), so it
        never answers from a copy older than what the person saw happen."""
        table = self.table(table_id)
        if await table.load(check=check) is None:
            self._let_go_if_unused(table)
            return None
        if self.driving is not None and self.drives(table_id):
            await table.catch_up()
        return table

    async def _load(self, table_id: int, *, check: bool = True) -> Live | None:
        return await self.table(table_id).load(check=check)

    def used(self, table: Table) -> None:
        """A table's state in memory was used: the last to be let go."""
        if self._tables.get(table.id) is table:  # else let go already: its holder finishes
            self._loaded.move_to_end(table.id)
            table.live.touched = self.clock.now()

    def read(self, table: Table) -> None:
        """A table's state was read into memory: kept, and the idle ones let go now."""
        if self._tables.get(table.id) is not table:
            return  # let go already: its holder finishes with it, nobody else sees it
        self._loaded[table.id] = table
        self._loaded.move_to_end(table.id)
        table.live.touched = self.clock.now()
        self._evict()

    def _evict(self) -> None:
        """Let go of tables nobody touched for `cache_idle_seconds`, and the least recently
        used past `cached_tables`. Idleness, not a count: however many tables are in play at
        once, none of them reloads on every move; the count only bounds memory. A table
        whose lock is held stays, however old: one object per table, one copy.

        `_loaded` is kept in order of use, so the idle ones are at its front."""
        idle_since = self.clock.now() - self.settings.cache_idle_seconds
        for _ in range(len(self._loaded)):
            oldest = next(iter(self._loaded.values()))
            if len(self._loaded) <= self.settings.cached_tables and oldest.loaded \
                    and oldest.live.touched >= idle_since:
                break
            if oldest.busy():
                self._loaded.move_to_end(oldest.id)
                continue
            self.drop(oldest.id)

    def drop(self, table_id: int) -> None:
        """Forget the table here: the next event for it reads it from storage."""
        self._tables.pop(table_id, None)
        self._loaded.pop(table_id, None)
        self.outbox.forget(table_id)

    def _let_go_if_unused(self, table: Table) -> None:
        # A table whose lock is held, or that is being read or resumed, stays: a second
        # object of it would take moves the first never sees.
        if not table.loaded and not table.busy() and table.resuming is None \
                and self._tables.get(table.id) is table:
            self.drop(table.id)

    async def _in_channel(self, channel: str) -> Table | None:
        logs.bind(platform=self.platform, channel=channel)
        row = await self.repo.open_table_in(self.platform, channel)
        if row is None:
            return None
        logs.bind(table_id=row.id)
        return await self._loaded_table(row.id)

    async def _with_table(self, actor: Actor, channel: str,
                          handler: Callable[[Table, Actor], Awaitable[Reply]]) -> Reply:
        """Commands typed in a channel act on its open table; buttons name theirs."""
        table = await self._in_channel(channel)
        if table is None:
            return await self.refuse(actor, channel, "no_table")
        return await handler(table, actor)

    async def opened(self, table_id: int) -> Table:
        """A table this process just created: it drives it, and its state is read."""
        if self.driving is not None:
            await self.driving.adopt(table_id)
        table = await self._loaded_table(table_id)
        assert table is not None
        return table

    async def _run_job(self, job: Job) -> None:
        logs.bind(platform=self.platform, table_id=job.table_id)
        table = self.table(job.table_id)
        await table.turns.run(job)
        self._let_go_if_unused(table)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(STUCK_CHECK_SECONDS)
            try:
                await self.unstick()
            except Exception:
                log.exception("looking for tables waiting on nothing failed")

    async def unstick(self) -> int:
        """Arrange the next turn of every table in memory that waits on nothing: a bot or a
        deadline due, no timer armed, untouched for `STUCK_CHECK_SECONDS`. A safety net:
        no known path leaves a game so, but one unknown must not stop it for good. Each
        one found is logged as a warning, to be fixed at its cause. How many were.

        Only a table found so by the last look too, unchanged, counts: a change stored and
        not yet shown (the next turn is arranged after the showing) looks the same, and on
        a machine slow enough its showing can take seconds. Arranged by the net meanwhile,
        its players would hear "your turn" twice."""
        quiet_since = self.clock.now() - STUCK_CHECK_SECONDS
        found = 0
        seen, suspects = self._suspects, {}
        for table in [each for each in list(self._loaded.values())
                      if self.drives(each.id) and each.turns.waits_on_nothing(quiet_since)]:
            now = stamp(table.live.row)
            if seen.get(table.id) != now:
                suspects[table.id] = now
                continue
            try:
                found += await table.turns.rearrange()
            except StorageError:
                suspects[table.id] = now
                log.warning("table %s: its next turn not arranged; tried again later",
                            table.id, exc_info=True)
        self._suspects = suspects
        return found

    # --- driving (several processes on one database) ----------------------------------------

    def drives(self, table_id: int) -> bool:
        """Whether this process runs the table's timers and makes its deliveries."""
        return self.driving is None or self.driving.drives(table_id)

    def idle(self, table_id: int) -> bool:
        """Nothing under way for the table here: it can be handed to another process."""
        table = self._tables.get(table_id)
        return (table is None or not table.busy()) and not self.outbox.busy(table_id)

    def let_go(self, table_id: int) -> None:
        """Another process drives the table now: no timer of it stays here, and its copy
        is read again before it is used."""
        self.scheduler.drop(table_id)
        self.outbox.forget(table_id)
        self.read_again(table_id)

    def read_again(self, table_id: int) -> None:
        """The table's copy here may be behind what is stored: its next use reads it.

        The object stays. Replacing it would leave two copies whenever something already
        held the old one (a press between its first look and the lock, a change under the
        lock): that one's move, seats and timers would land on a copy nobody else reads,
        and the game would wait for good."""
        table = self._tables.get(table_id)
        if table is None:
            return
        table.stale = True
        table.resuming = table.resuming_seats = None
        table.deadline_resumed = None

    async def take_over(self, table_id: int) -> None:
        """Drive a table from now on, as a restart resumes one: its stored deadline armed
        (with the grace a restart gives), its bot's move scheduled, and its screens redrawn:
        its last driver may have died with deliveries in flight, and a change made while
        it had none was told to nobody."""
        self.let_go(table_id)  # whatever this process knew of it is stale
        log.info("table %s: driven here from now on", table_id)
        # The deadline before the table, as a restart reads them: a move stored elsewhere
        # in between then leaves an older turn's deadline beside a newer table (a fresh
        # deadline is set for the turn), never a newer deadline beside an older table,
        # which armed no timer for either and left the game waiting for good.
        deadline = next(iter(await self.repo.deadlines(table_id)), None)
        row = await self.repo.get_table(table_id)
        if row is None or row.status not in (LOBBY, PLAYING):
            return
        table = self.table(table_id)
        table.deadline_resumed = None
        table.redraw_due = True
        if table.turns.resume_later(row, deadline) and deadline is not None:
            with contextlib.suppress(StorageError):
                await self.repo.set_deadline(deadline)

    async def catch_up(self, table_id: int) -> None:
        """Show a change another process made to a table this one drives."""
        if self.drives(table_id):
            await self.table(table_id).catch_up()

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
    # Kept by `self.people`; these are what the adapters, bot/queries.py and bot/privacy.py
    # ask here (tables ask their host).

    async def channel_lang(self, channel: str) -> str:
        return await self.people.channel_lang(channel)

    def remember_locale(self, user_id: str, locale: str | None) -> None:
        self.people.remember_locale(user_id, locale)

    async def lang_of(self, user_id: str, channel: str | None = None) -> str:
        return await self.people.lang_of(user_id, channel)

    @answers_storage_faults
    async def set_lang(self, actor: Actor, channel: str, lang: str, *, personal: bool) -> Reply:
        lang = lang.strip().lower()[:2]
        if lang not in LANGS:
            return await self.refuse(actor, channel, "lang_unknown", langs=", ".join(LANGS))
        if personal:
            try:
                await self.people.set_lang(actor.user_id, lang)
            except StorageError:
                return await self.refuse(actor, channel, "storage_failed")
            return Reply(t(lang, "lang_set_personal"))
        if not actor.is_admin:
            return await self.refuse(actor, channel, "admin_only")
        try:
            await self.people.set_channel_lang(channel, lang)
        except StorageError:
            return await self.refuse(actor, channel, "storage_failed")
        table = await self._in_channel(channel)
        if table is not None:
            await table.show_in_channel_lang()
        return Reply(t(lang, "lang_set_channel"))

    async def _show_hands_of(self, user_id: str) -> None:
        """Their hand at every table in play where they hold a seat, drawn again: in the
        language they now read (`People` calls this when that changed). Their choice is
        stored already: a hand not redrawn for a storage fault follows at its next change."""
        try:
            for table_id in await self.repo.playing_tables_of(self.platform, user_id):
                table = await self._loaded_table(table_id)
                if table is not None:
                    await table.show_hands_of(user_id)
        except StorageError:
            log.warning("the hands of %s not redrawn in their new language", user_id,
                        exc_info=True)

    @answers_storage_faults
    async def set_mentions(self, actor: Actor, on: bool) -> Reply:
        try:
            await self.people.set_mentions(actor.user_id, on)
        except StorageError:
            return await self.refuse(actor, None, "storage_failed")
        lang = await self.lang_of(actor.user_id)
        return Reply(t(lang, "mentions_on" if on else "mentions_off"))

    async def refuse(self, actor: Actor, channel: str | None, key: str, /,
                      **params: Any) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, key, **params), ok=False, reason=key)

    async def give_up_seat(self, table_id: int, actor: Actor) -> None:
        """/forgetme: leave the table as /leave does."""
        table = self.table(table_id)
        await table.give_up_seat(actor)
        self._let_go_if_unused(table)

    def forget_settings(self, user_id: str) -> None:
        self.people.forget(user_id)

    def naming(self, user_id: str) -> list[Table]:
        """The tables in memory here whose copy names the person, in id order."""
        return sorted((table for table in self._loaded.values()
                       if table.loaded and table.names_person(user_id)), key=lambda t: t.id)

    async def forget_everywhere(self, user_id: str) -> bool:
        """The person was forgotten in the database: every other process serving this
        platform drops them from what it holds; False if one did not say it had in time."""
        if self.driving is None:
            return True
        return await self.driving.forget_everywhere(user_id)

    async def forgotten_here(self, user_id: str) -> None:
        """Another process forgot the person: this one's copies, settings and hand message
        ids stop naming them (each table under its lock, as the forgetting process did)."""
        self.forget_settings(user_id)
        for table in self.naming(user_id):
            async with table.lock:
                await table.forgotten(user_id)
            self.outbox.forget(table.id)

    # --- commands: the lobby --------------------------------------------------------------

    @answers_storage_faults
    async def new_game(self, actor: Actor, channel: str, game_text: str,
                       option_words: list[str] | None = None, *, title: str = "") -> Reply:
        if not (game_text or "").strip():
            lang = await self.lang_of(actor.user_id, channel)
            return Reply(present.games_overview(lang), ok=False)
        game_text, option_words = table_options.split_game(game_text, option_words or [])
        game_id = table_options.resolve_game(game_text)
        if game_id is None:
            return await self.refuse(actor, channel, "unknown_game",
                                     text=clean.echo(game_text or ""),
                                     games=", ".join(games.ids()))
        game = games.get(game_id)
        try:
            game_opts, table_settings = table_options.parse(option_words or [])
            parse_options(game.Options, game_opts)
        except table_options.OptionsError as exc:
            return await self.refuse(actor, channel, exc.code, **exc.params)
        except BadOptions as exc:
            return await self.bad_options(actor, channel, exc, game)
        settings = {
            "deadline": table_settings.get("deadline", self.settings.turn_deadline),
            "bot_delay": table_settings.get("bot_delay", self.settings.bot_delay),
            "bots": table_settings.get("bots", bots.DEFAULT_LEVEL),
            "title": clean.text(title, clean.MAX_NAME * 2) or channel,
        }
        host = SeatRow(seat=0, user_id=actor.user_id, name=actor.name)
        for attempt in range(2):
            try:
                row = await self.repo.create_table(
                    platform=self.platform, channel=channel, game=game_id,
                    options=table_options.opened(game, game_opts),
                    settings=settings, seed=self._seeds(), host=actor.user_id,
                    seats=[host])
                changes.note()
                break
            except TableExists as exc:
                other = await self._load(exc.table_id)
                if other is None and attempt == 0:
                    continue  # it could not be restored and loading closed it: try again
                name = other.game.NAME if other else "?"
                status = other.row.status if other else LOBBY
                lang = await self.channel_lang(channel)
                return await self.refuse(actor, channel, "table_exists", game=name,
                                         status=t(lang, f"status_{status}"))
            except StorageError:
                return await self.refuse(actor, channel, "storage_failed")
        table = await self.opened(row.id)
        await table.show_table()
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, "lobby_opened", game=game.NAME), table_id=row.id)

    async def bad_options(self, actor: Actor, channel: str, exc: BadOptions, game: Game
                          ) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, "bad_options", message=present.option_problems(exc, game, lang)),
                     ok=False)

    @answers_storage_faults
    async def set_options(self, actor: Actor, channel: str, words: list[str]) -> Reply:
        table = await self._in_channel(channel)
        if table is None:
            return await self.refuse(actor, channel, "no_table")
        if not words:
            return await table.options_text(actor)
        return await table.set_options(actor, words)

    @answers_storage_faults
    async def join(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.join)

    @answers_storage_faults
    async def leave(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.leave)

    @answers_storage_faults
    async def add_bot(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.add_bot)

    @answers_storage_faults
    async def remove_bot(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.remove_bot)

    @answers_storage_faults
    async def start_game(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.start)

    @answers_storage_faults
    async def cancel(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.cancel)

    @answers_storage_faults
    async def kick(self, actor: Actor, channel: str, target: str) -> Reply:
        table = await self._in_channel(channel)
        if table is None:
            return await self.refuse(actor, channel, "no_table")
        return await table.kick(actor, target)

    @answers_storage_faults
    async def join_link(self, actor: Actor, text: str, is_member: MemberCheck) -> Reply:
        """A deep link's table reference, opened in a private chat: seat its user if the
        reference is one we made, the table still takes players, and the platform says
        they are a member of the table's chat (`is_member(user, channel)`, which raises
        `RightsUnknown` when it cannot say)."""
        decoded = decode_ref(text)
        try:
            genuine = decoded is not None and await self._genuine(*decoded)
        except StorageError:  # the key could not be read
            return await self.refuse(actor, None, "storage_failed")
        if decoded is None or not genuine:
            return await self.refuse(actor, None, "bad_link")
        table = await self._loaded_table(decoded[0])
        if table is None or table.live.row.platform != self.platform \
                or table.live.row.status not in (LOBBY, PLAYING):
            return await self.refuse(actor, None, "no_table")
        channel = table.live.row.channel
        try:
            member = await is_member(actor.user_id, channel)
        except RightsUnknown:
            return await self.refuse(actor, channel, "rights_unknown")
        if not member:
            return await self.refuse(actor, channel, "not_a_member")
        return await table.join(actor)

    # --- commands and presses: moves ------------------------------------------------------

    @answers_storage_faults
    async def play(self, actor: Actor, channel: str, text: str) -> Reply:
        table = await self._in_channel(channel)
        if table is None or table.live.row.status != PLAYING:
            metrics.REFUSED.labels(self.platform, "no_game").inc()
            return await self.refuse(actor, channel, "no_game")
        return await table.play(actor, text, expected_version=None)

    @answers_storage_faults
    async def press(self, actor: Actor, press: Press) -> Reply:
        """A button press from anywhere (channel or private chat), validated from scratch:
        the one entry point of presses. The table is checked and read once (`pressed`); the
        reply says where the press acted and, for an adapter that answers it in place, what
        to show (`Reply.shown`).

        Who may do what comes from the platform's facts in `press`, never from the
        payload nor from `actor.is_admin`: see `bot.authority`.
        """
        if press.privacy is not None:  # the /forgetme question: it acts for whoever pressed
            return await self.privacy.privacy_press(actor, *press.privacy)
        found = await self.pressed(actor, press)
        if isinstance(found, Reply):
            return found
        return await presses.act(self, actor, press, found)

    async def hand_message(self, table_id: int, seat: int, user_id: str) -> MessageRef | None:
        """The message that shows `user_id` their hand at `seat`, as last sent or stored:
        None when there is none, or when it was somebody else's (the seat changed hands)."""
        key = f"hand:{seat}"
        ref = self.outbox.ref(table_id, key)
        if ref is None:
            ref = (await self.repo.messages(table_id)).get(key)
        if ref is not None and ref.extra.get("user") not in (None, user_id):
            return None
        return ref

    async def pressed(self, actor: Actor, press: Press) -> Pressed | Reply:
        """The table a press may act on, read once, or the refusal: the payload must be one
        we drew, and the pressed message must be in that table's chat, or be the
        presser's own hand message of that table in their private chat."""
        found = await self._pressed(actor, press)
        if isinstance(found, Reply):
            return found
        table, payload = found
        live = table.live
        seat = live.seat_of(actor.user_id) if live.row.status == PLAYING else None
        return Pressed(table, payload, Acted(live.id, live.ref, live.row.channel,
                                             None if seat is None else seat.seat))

    async def _pressed(self, actor: Actor, press: Press) -> tuple[Table, Payload] | Reply:
        decoded = press.button
        try:
            genuine = decoded is not None and await self._genuine(decoded.table_id, decoded.tag)
        except StorageError:  # the key could not be read
            return await self.refuse(actor, press.channel, "storage_failed")
        if decoded is None or not genuine:
            return await self.refuse(actor, press.channel, "bad_button")
        table = await self._loaded_table(decoded.table_id)
        if table is None or table.live.row.platform != self.platform:
            return await self.refuse(actor, press.channel, "bad_button")
        live = table.live
        if press.channel is not None:
            if press.channel != live.row.channel:
                return await self.refuse(actor, press.channel, "button_elsewhere")
            return table, decoded
        if not private_action(decoded.action):
            return await self.refuse(actor, None, "button_elsewhere")
        seat = live.seat_of(actor.user_id)
        if seat is None:
            # A hand message kept from a seat a bot has taken since: how to come back, if
            # they may.
            return await self.refuse(actor, live.row.channel, table.unseated(actor))
        try:
            shown = await self.hand_message(live.id, seat.seat, actor.user_id)
        except StorageError:
            return await self.refuse(actor, live.row.channel, "storage_failed")
        if shown is None or shown.message_id != press.message_id:
            return await self.refuse(actor, live.row.channel, "button_not_your_hand")
        return table, decoded

    # --- commands: what the table shows ---------------------------------------------------

    @answers_storage_faults
    async def hand(self, actor: Actor, channel: str) -> Reply:
        table = await self._in_channel(channel)
        if table is None or table.live.row.status != PLAYING:
            return await self.refuse(actor, channel, "no_game")
        return await table.hand_for(actor)

    async def hand_rendering_for_table(self, actor: Actor, table_id: int) -> Rendering | None:
        """The presser's hand at the table, drawn in what they read, for an adapter to show
        in place: None when they hold no seat in a game there."""
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
        table = await self._in_channel(channel)
        if table is None and await self.channel_back(channel):
            # A table closed when the bot lost this channel: asking for it shows it works.
            table = await self._in_channel(channel)
        if table is None:
            return await self.refuse(actor, channel, "no_table")
        with contextlib.suppress(StorageError):
            await self.repo.delete_message(table.id, "table")
        self.outbox.forget(table.id)
        await table.show_table()
        drawn = present.table(table.live, await self.lang_of(actor.user_id, channel))
        return Reply(drawn.text, table_id=table.id, rendering=drawn)

    @answers_storage_faults
    async def scores(self, actor: Actor, channel: str) -> Reply:
        """The running scores; once the game is over (and no new table was opened there),
        the finished game's final ranking, which is what people ask for right after it."""
        table = await self._in_channel(channel)
        live = table.live if table is not None else None
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
            key = "stats_line_team" if known_game and known_game.CAPABILITIES.cooperative \
                else "stats_line"
            lines.append(t(lang, key, game=name, played=row.played, wins=row.wins,
                           lost=row.played - row.wins, rank=round(float(row.average_rank), 1)))
        return Reply("\n".join(lines))

    # --- platform events ------------------------------------------------------------------

    async def _channel_gone(self, table_id: int) -> None:
        table = self.table(table_id)
        await table.channel_gone()
        self._let_go_if_unused(table)  # closed without being read: nothing to keep

    async def _unreachable(self, table_id: int, user_id: str) -> None:
        table = self.table(table_id)
        await table.unreachable(user_id)
        self._let_go_if_unused(table)

    def stamp(self, delivery: Delivery) -> None:
        """An announcement queued here learns whom it calls (`Announcement.called`), to be
        asked when it is sent: the sink asks it, never the table."""
        if isinstance(delivery, Announcement) and delivery.called is None:
            delivery.called = functools.partial(self._called, delivery.table_id,
                                                delivery.calls, list(delivery.mentions))

    async def _called(self, table_id: int, calls: bool, mentions: list[str]) -> Called:
        # The table is read only when there is something to judge.
        live = await self._load(table_id) if calls or mentions else None
        if calls and not calls_someone(live, mentions):
            return Called(False, {})
        return Called(True, names_at(live, mentions))

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
            if moved:
                await self.people.channel_moved(old_chat, new_chat)
        except StorageError:
            log.exception("tables of chat %s could not follow it to %s", old_chat, new_chat)
            return
        for table_id in moved:
            self.read_again(table_id)  # with its new channel
            table = await self._loaded_table(table_id)
            if table is not None:
                await table.show_table()

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
            if row.status == CLOSED and row.settings.get("lost") in (LOBBY, PLAYING):
                table = self.table(row.id)
                if await table.revive() is not None:
                    back.append(row.id)
                self._let_go_if_unused(table)
        return back

    async def channel_closed(self, channel: str) -> None:
        """An adapter learnt that a channel is gone (e.g. the bot was removed from a group)."""
        row = await self.repo.open_table_in(self.platform, channel)
        if row is not None:
            await self._channel_gone(row.id)

    async def table_for_channel(self, channel: str) -> TableRow | None:
        table = await self._in_channel(channel)
        return None if table is None else table.live.row

    async def live_table(self, table_id: int) -> Live | None:
        return await self._load(table_id)
