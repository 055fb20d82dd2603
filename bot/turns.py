"""A table's turns: who is called, by when they must play, and who plays when they do not.

Once a change is shown, its table arranges what happens next here: the turn call after
`ping_delay`, the turn's deadline and its reminder, the AFK policy when the deadline
passes, and the bots' moves (in turn, and The Game's signals out of turn). Each is a job
on the scheduler, armed for the table's version of that moment; `run` does a job's work
only while the table is still at that version.

A `Turns` moves its table only through the table's own pipeline (`commit`, then
`after_change`), never around it, and knows the table only as `TurnsTable`.
"""

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from bot.deliveries import Notice
from bot.host import Host
from bot.i18n import t
from bot.live import Live
from bot.loading import Loading
from bot.lobby_decisions import bot_name
from bot.present import bot_level
from bot.scheduler import Job
from bot.showing import Showing
from db.repository import (
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    Deadline,
    SeatRow,
    StorageError,
    TableRow,
    Unstorable,
    VersionConflict,
)
from engine import bots
from engine.core.rng import rng_for
from engine.core.types import Move

log = logging.getLogger(__name__)

MAX_AFK_MOVES = 200  # an expired turn is finished by the bot; a turn is never longer
RETRY_SECONDS = 5.0  # after a storage fault, when a timed job tries again
CHECKED_JOBS = frozenset({"bot", "expire", "redraw"})  # jobs that move or draw the table


class TurnsTable(Protocol):
    """What turns need of their table (`bot.table.Table`)."""

    id: int
    live: Live
    lock: asyncio.Lock
    # What a restart left for the table's `resume` job (see `Turns.resume_later`).
    resuming: TableRow | None
    deadline_resumed: Deadline | None
    redraw_due: bool
    unarranged: bool  # its copy took in a change nothing here arranged yet

    @property
    def host(self) -> Host[Any]: ...
    @property
    def loading(self) -> Loading: ...
    @property
    def showing(self) -> Showing: ...
    @property
    def kept(self) -> Live | None: ...
    def busy(self) -> bool: ...
    async def commit(self, seat: int, move: Any, actor_kind: str) -> list[Any]: ...
    async def after_change(self, events: list[Any], *, mover: int | None = None,
                           notify_turn: bool = False) -> None: ...
    async def close_broken(self, key: str) -> None: ...
    async def save_seat_unless_moved(self, seat: SeatRow) -> bool: ...


class Turns:
    """One table's turns, held by the table as `table.turns`.

    It holds its table weakly: a table let go of (`Tables.drop`) is then freed at once,
    state and all, by reference counting, as it was before its turns had an object of
    their own; a cycle would wait for the collector's rare full passes.
    """

    __slots__ = ("_table", "_talk", "clock", "id", "outbox", "repo", "scheduler", "settings")

    def __init__(self, table: TurnsTable) -> None:
        self._table = weakref.ref(table)
        self.id = table.id
        # What every table shares, held here so a turn does not look it up on the table.
        host = table.host
        self.repo, self.outbox, self.scheduler = host.repo, host.outbox, host.scheduler
        self.clock, self.settings = host.clock, host.settings
        # `_bot_talk`'s last answer and what it was worked out from (see there).
        self._talk: tuple[Any, list[SeatRow], int, str, tuple[int, Move] | None] | None = None

    @property
    def table(self) -> TurnsTable:
        table = self._table()
        assert table is not None, "turns reached without their table"
        return table

    # --- turn calls -------------------------------------------------------------------------

    async def ping(self, to_act: list[int], *, goes_on: bool = False) -> None:
        """Call the players whose turn starts, after `ping_delay` if they have not played.

        Someone watching the table plays within seconds and needs no call; a group channel
        allows only ~20 messages a minute, so calls go to those who are not watching.
        A turn that goes on after a play (The Game: play on, or end the turn) gets the
        same delayed call, so a player who forgot to end it hears of it before the
        deadline; with no delay that would be a message per play, so there is none.

        A turn of bots only calls nobody (`_call` passes them over), so it arms nothing: a
        bot table would otherwise push and drop a timer at every move. A person who takes
        such a seat back is called by the change that seats them (`notify_turn`).
        """
        if not self._people(to_act):
            return
        delay = float(self.settings.ping_delay)
        if delay > 0:
            self.scheduler.at(self.clock.now() + delay, "nudge" if goes_on else "ping",
                              self.id, self.table.live.row.version)
        elif not goes_on:
            await self._call(to_act)

    def _people(self, to_act: list[int]) -> list[SeatRow]:
        """The seats of `to_act` that a call can reach: people's, not bots'."""
        seats = self.table.live.seats
        return [seats[s] for s in to_act
                if s < len(seats) and not seats[s].is_bot and seats[s].user_id is not None]

    async def _call(self, to_act: list[int], key: str = "your_turn") -> None:
        table = self.table
        live = table.live
        for seat in self._people(to_act):
            assert seat.user_id is not None  # a person's seat
            if not (await table.host.user_settings(seat.user_id)).mentions:
                continue
            lang = await table.host.channel_lang(live.row.channel)
            await table.showing.announce_lines([t(lang, key, name=seat.name, game=live.game.NAME)],
                                       kind="turn", mentions=[seat.user_id])

    # --- deadlines --------------------------------------------------------------------------

    def _deadline_seconds(self, row: TableRow) -> float:
        return float(row.settings.get("deadline", self.settings.turn_deadline) or 0)

    def next_deadline(self, to_act: list[int], version: int, *,
                      talk: bool = False) -> Deadline | None:
        """The deadline of the turn that `to_act` starts at `version`; None without one.

        Talk (a signal) does not start a turn: the seat keeps the time it had."""
        live = self.table.live
        humans = [s for s in to_act if not live.seats[s].is_bot]
        seconds = self._deadline_seconds(live.row)
        if not humans or seconds <= 0:
            return None
        current = live.deadline
        if talk and current is not None and current.seat == humans[0]:
            return Deadline(table_id=live.id, seat=current.seat, version=version,
                            due_at=current.due_at, remind_at=current.remind_at,
                            reminded=current.reminded)
        now = self.clock.now()
        return Deadline(table_id=live.id, seat=humans[0], version=version,
                        due_at=now + seconds, remind_at=now + seconds - min(60.0, seconds / 4))

    async def set_deadline(self, to_act: list[int]) -> None:
        """Store the turn's deadline, unless the move's own transaction did, and arm it."""
        live = self.table.live
        deadline = live.deadline
        if deadline is None or deadline.version != live.row.version:
            deadline = self.next_deadline(to_act, live.row.version)
            if deadline is None:
                if live.deadline_stored:
                    await self.repo.clear_deadline(live.id)
                    live.deadline_stored = False
                live.deadline = None
                return
            live.deadline, live.deadline_stored = deadline, True
            try:
                await self.repo.set_deadline(deadline)
            except StorageError:
                log.exception("table %s: deadline not stored; it still runs in memory",
                              live.id)
        if not deadline.reminded and deadline.remind_at is not None:
            self.scheduler.at(deadline.remind_at, "remind", live.id, live.row.version)
        self.scheduler.at(deadline.due_at, "expire", live.id, live.row.version)

    def resume_later(self, row: TableRow, deadline: Deadline | None) -> bool:
        """Schedule its `resume` job (from `row`, read already) and arm its stored deadline
        if it is this turn's; True when that deadline was moved on by the grace a restart
        gives and must be stored again."""
        table = self.table
        self.scheduler.at(self.clock.now(), "resume", row.id, row.version)
        table.resuming = row
        if row.status == LOBBY or deadline is None or deadline.version != row.version:
            return False  # a lobby has no deadline: its resume only redraws it
        table.deadline_resumed = deadline
        now = self.clock.now()
        seconds = self._deadline_seconds(row)
        # Time the bot was down is not the player's fault: a little grace after a restart.
        due = max(deadline.due_at, now + min(60.0, seconds or 60.0))
        if not deadline.reminded and deadline.remind_at is not None:
            deadline.remind_at = min(deadline.remind_at, due)
            self.scheduler.at(deadline.remind_at, "remind", row.id, deadline.version)
        self.scheduler.at(due, "expire", row.id, deadline.version)
        moved = due != deadline.due_at
        deadline.due_at = due
        return moved

    def waits_on_nothing(self, quiet_since: float) -> bool:
        """Its copy says a bot's move or a turn's deadline should be under way, yet no
        timer of it is, and nothing touched it since `quiet_since`: a change lost on the
        way (a bug) left the game waiting for good."""
        table = self.table
        live = table.kept
        if live is None or live.touched > quiet_since or live.row.status != PLAYING \
                or live.state is None or table.busy() or self.scheduler.has_jobs(self.id):
            return False
        to_act = live.game.to_act(live.state)
        return any(live.seats[s].is_bot for s in to_act) \
            or (bool(to_act) and self._deadline_seconds(live.row) > 0)

    async def rearrange(self) -> bool:
        """Read the table again and arrange its next turn (`Tables.unstick`); True when
        that armed a timer, i.e. the game was indeed waiting on nothing."""
        table = self.table
        async with table.lock:
            if self.scheduler.has_jobs(self.id):
                return False
            live = await table.loading.read_again()
            if live is None or live.row.status != PLAYING or live.state is None \
                    or self.scheduler.has_jobs(self.id):  # arranged while it was read
                return False
            self.scheduler.moved(self.id, live.row.version)
            await table.after_change([])
            arranged = self.scheduler.has_jobs(self.id)
        if arranged:
            log.warning("table %s: nothing was arranged for its next turn (version %s);"
                        " arranged now", self.id, live.row.version)
        return arranged

    # --- bots -------------------------------------------------------------------------------

    def schedule_bot(self) -> None:
        live = self.table.live
        if live.row.status != PLAYING or live.state is None:
            return
        if self._bot_talk() is not None:
            # Said at once, so the signal is on the table before anyone plays on.
            self.scheduler.at(self.clock.now(), "bot", live.id, live.row.version)
        elif any(live.seats[s].is_bot for s in live.game.to_act(live.state)):
            delay = float(live.row.settings.get("bot_delay", self.settings.bot_delay))
            self.scheduler.at(self.clock.now() + delay, "bot", live.id, live.row.version)

    def _bot(self) -> bots.Bot | None:
        """The table's level of bot for its game; None for a game without bot module."""
        live = self.table.live
        try:
            return bots.get(live.row.game, bot_level(live))
        except bots.NoBot:
            return None

    def _bot_talk(self) -> tuple[int, Move] | None:
        """The first bot seat with something to say out of turn, and what.

        The Game's signals are "at any time": a bot says them as soon as its hand or the
        piles change, and takes them back as soon as they no longer hold. A bot's wishes
        depend on its view alone, so once said they stay quiet: no endless talk.
        """
        # Each bot declares its `speak` (None when it only plays in turn), read as it is:
        # `isinstance(bot, bots.Talker)` would walk the protocol's members twice a bot move.
        live = self.table.live
        if live.state is None:
            return None
        # Asked twice of each state: when a move is shown (is a bot to move?) and when the
        # bot's job runs. The answer depends on nothing else (the state, its seats, version
        # and bot level), and asking every bot seat's view twice was a tenth of The Game's
        # move; a game whose bots never talk is not asked for a bot the second time either.
        level = bot_level(live)
        kept = self._talk
        if (kept is not None and kept[0] is live.state and kept[1] is live.seats
                and kept[2] == live.row.version and kept[3] == level):
            return kept[4]
        bot = self._bot()
        speak = None if bot is None else bot.speak
        said = None if speak is None else self._speak(live, speak)
        self._talk = (live.state, live.seats, live.row.version, level, said)
        return said

    def _speak(self, live: Live, speak: Callable[..., Move | None]) -> tuple[int, Move] | None:
        for seat in live.seats:
            if not seat.is_bot:
                continue
            rng = rng_for(live.row.seed, "talk", live.row.version, seat.seat)
            try:
                move = speak(live.seat_view(seat.seat), rng)
            except Exception:
                log.exception("table %s: a bot failed to speak; it stays quiet", live.id)
                return None
            if move is not None:
                return seat.seat, move
        return None

    # --- the jobs ---------------------------------------------------------------------------

    async def run(self, job: Job) -> None:
        """A timer of this table fired: do its work if the table is still where it was."""
        table = self.table
        try:
            # Its log is replayed before its next move or redraw (jobs that change or
            # draw it), not for every table resumed at start-up, nor for a turn call.
            live = await table.loading.load(check=job.kind in CHECKED_JOBS)
        except StorageError:
            # A passing storage fault: try again shortly, the game must not end over it.
            log.warning("table %s could not be loaded; trying again", self.id)
            self.scheduler.at(self.clock.now() + RETRY_SECONDS, job.kind, self.id,
                              job.version)
            return
        except Exception:
            # Loading closes a table it cannot restore; anything else that breaks it
            # closes it the same way, with a word in its channel.
            log.exception("table %s could not be loaded; closing it", self.id)
            await table.close_broken("table_unrestorable")
            return
        if live is not None and table.unarranged:
            # Its load took in a change made elsewhere (the table was let go of and read
            # again): arrange it now. A reminder or an expiry finding a bot where a
            # person was would otherwise end quietly, and the bot never play. A resume
            # arranges the turn itself, without calling anyone again.
            if job.kind == "resume":
                table.unarranged = False
            else:
                await table.loading.catch_up()
                live = table.kept
        if live is not None and live.row.version < job.version:
            # A job armed for a later version than this copy: another copy of the table
            # moved it on (a press that began on an object let go of since, as idle
            # tables are), so this one is stale, not the job. Dropping the job would
            # leave the game waiting.
            async with table.lock:
                if live.row.version < job.version:
                    live = await table.loading.read_again()
        if live is None or live.row.version != job.version:
            log.debug("table %s: %s job for version %s is stale", self.id, job.kind,
                      job.version)
            return  # the table moved on: this job is stale
        if job.kind == "redraw":
            # Loaded with its log checked: the last moves it shows come from the log.
            if live.row.status in (LOBBY, PLAYING, FINISHED, CANCELLED):
                await table.showing.redraw()
            return
        if job.kind == "resume" and table.redraw_due:
            # Redrawn by a job of its own, after every table's resume: a restart makes
            # every table playable first, then brings the screens up to date.
            table.redraw_due = False
            self.scheduler.at(self.clock.now(), "redraw", self.id, job.version)
        if live.row.status != PLAYING:
            return
        if job.kind == "resume":
            if table.deadline_resumed is None:
                # No deadline survived for this turn (never stored, or the bot stopped
                # between the move and its deadline): a human's turn gets a fresh one.
                await self.set_deadline(live.game.to_act(live.state))
            self.schedule_bot()
        elif job.kind == "ping":
            await self._call(live.game.to_act(live.state))
        elif job.kind == "nudge":
            await self._call(live.game.to_act(live.state), "your_turn_goes_on")
        elif job.kind == "bot":
            await self._bot_move(job.version)
        elif job.kind == "remind":
            await self._remind(job.version)
        elif job.kind == "expire":
            await self._expire(job.version)

    async def _bot_move(self, version: int) -> None:
        table = self.table
        live = table.live
        async with table.lock:
            if live.row.version != version or live.row.status != PLAYING:
                return
            talk = self._bot_talk()
            acting = [s for s in live.game.to_act(live.state) if live.seats[s].is_bot]
            if talk is None and not acting:
                return
            seat = talk[0] if talk is not None else acting[0]
            try:
                if talk is not None:
                    events = await table.commit(seat, talk[1], "bot")
                else:
                    events = await self._bot_commit(seat, "bot")
            except VersionConflict:
                # Another process moved the table on: take its state, arrange what is next.
                await table.loading.reload()
                events = []
            except Unstorable:
                log.exception("table %s: the bot's move can never be stored", live.id)
                await table.close_broken("table_unstorable")
                return
            except StorageError:
                # Try again shortly: a game must never stall on a passing storage fault.
                self.scheduler.at(self.clock.now() + RETRY_SECONDS, "bot", live.id, version)
                return
        await table.after_change(events, mover=seat)

    async def _bot_commit(self, seat: int, purpose: str) -> list[Any]:
        """Commit the table's bot's move, or the first legal move if the bot itself fails.

        The bot sees the seat's view only. Seeded by table and version, so a replayed or
        resumed game makes the same choice. A strong bot thinks in a worker thread: its
        search must not hold up the other tables. An easy bot decides in a tenth of a
        millisecond, less than the hand-over to a thread costs, so it decides here. A bot
        bug is logged and never stalls the game.
        """
        table = self.table
        live = table.live
        rng = rng_for(live.row.seed, purpose, live.row.version)
        try:
            level = bot_level(live)
            bot = bots.get(live.row.game, level)
            view = live.seat_view(seat)
            if level == "easy":
                move = bot.choose(view, rng)
            else:
                move = await asyncio.to_thread(bot.choose, view, rng)
            return await table.commit(seat, move, purpose)
        except (VersionConflict, StorageError):
            raise
        except Exception:
            log.exception("table %s: the bot failed; playing the first legal move", live.id)
        first = next(iter(live.game.legal_moves(live.state, seat)), None)
        if first is None:  # not this seat's turn after all: nothing to play, nothing stuck
            log.error("table %s: seat %s has no move to play for the bot", live.id, seat)
            return []
        return await table.commit(seat, first, purpose)

    # --- reminders and the AFK policy -------------------------------------------------------

    async def _remind(self, version: int) -> None:
        table = self.table
        live = table.live
        to_act = live.game.to_act(live.state)
        humans = [live.seats[s] for s in to_act if not live.seats[s].is_bot]
        if not humans:
            return
        lang = await table.host.channel_lang(live.row.channel)
        seconds = int(max(0, self._remaining(live.row.version)))
        for seat in humans:  # the job ran only because the table is still at `version`
            await table.showing.announce_lines(
                [t(lang, "reminder", name=seat.name, seconds=seconds)], kind="reminder",
                mentions=[seat.user_id] if seat.user_id else [])
        if live.deadline is not None and live.deadline.version == version:
            live.deadline.reminded = True  # a signal keeping this turn's time keeps this too
        # Marked in the background: the reminder is out, and after a restart hundreds go
        # out at once; their marks then share a commit instead of holding the timers.
        table.host.in_background(self._mark_reminded(version))

    async def _mark_reminded(self, version: int) -> None:
        try:
            await self.repo.mark_reminded(self.id, version)
        except StorageError:
            log.warning("table %s: reminder not marked", self.id)

    def _remaining(self, version: int) -> float:
        jobs = [j for j in self.scheduler.jobs_of(self.id)
                if j.kind == "expire" and j.version == version]
        return (min(j.due for j in jobs) - self.clock.now()) if jobs else 0.0

    async def _expire(self, version: int) -> None:
        """AFK policy: the bot finishes the turn; after repeated expiries it keeps the seat."""
        table = self.table
        live = table.live
        events: list[Any] = []
        async with table.lock:
            if live.row.version != version:
                return
            to_act = live.game.to_act(live.state)
            humans = [s for s in to_act if not live.seats[s].is_bot]
            if not humans:
                return
            seat_no = humans[0]
            seat = live.seats[seat_no]
            stopped = False
            for _ in range(MAX_AFK_MOVES):
                if live.game.outcome(live.state) is not None:
                    break
                if seat_no not in live.game.to_act(live.state):
                    break
                try:
                    events += await self._bot_commit(seat_no, "afk")
                except VersionConflict:
                    await table.loading.reload()
                    stopped = True
                    break
                except Unstorable:
                    log.exception("table %s: the AFK move can never be stored", live.id)
                    await table.close_broken("table_unstorable")
                    return
                except StorageError:
                    self.scheduler.at(self.clock.now() + RETRY_SECONDS, "expire", live.id,
                                      live.row.version)
                    stopped = True
                    break
            new: SeatRow | None = None
            if not stopped:
                strikes = seat.afk_strikes + 1
                if strikes >= self.settings.afk_strikes:
                    new = SeatRow(seat=seat_no, user_id=None, name=bot_name(live.seats, seat_no),
                                  is_bot=True, former_user_id=seat.user_id)
                else:
                    new = SeatRow(seat=seat_no, user_id=seat.user_id, name=seat.name,
                                  afk_strikes=strikes)
                if not await table.save_seat_unless_moved(new):
                    new = None  # the seat changed meanwhile (its player came back, left)
        if new is None:
            # Interrupted: what was played is still shown and the next turn arranged
            # (the retry just scheduled, or a deadline for what is left to play).
            await table.after_change(events, mover=seat_no)
            return
        lang = await table.host.channel_lang(live.row.channel)
        if new.is_bot:
            await table.showing.announce("seat_to_bot_afk", name=seat.name, bot=new.name)
            await table.showing.show_hand(seat_no, to_former=True)
            if seat.user_id:
                ulang = await table.host.lang_of(seat.user_id, live.row.channel)
                self.outbox.put(Notice(user_id=seat.user_id, table_id=live.id,
                                       text=t(ulang, "you_were_replaced", game=live.game.NAME,
                                              title=live.row.settings.get("title", ""))))
        else:
            await table.showing.announce_lines([t(lang, "afk_move", name=seat.name)])
        await table.after_change(events, mover=seat_no)
