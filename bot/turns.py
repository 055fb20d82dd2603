"""What the clock drives at a table: turn calls, deadlines, the AFK policy, bot players.

A mixin of `bot.tables.Tables`; every entry point here is a scheduler job or is called
after a change, and all of them re-check the table's version before acting.
"""

import asyncio
import logging
from typing import Any

from bot import logs
from bot.deliveries import Notice
from bot.i18n import t
from bot.live import Live
from bot.present import bot_level
from bot.scheduler import Job
from bot.tables_base import LobbyMoved, TablesBase
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


class Turns(TablesBase):
    """Timed behaviour of `Tables`; `TablesBase` declares what it uses of it."""

    async def _ping(self, live: Live, to_act: list[int], *, goes_on: bool = False) -> None:
        """Call the players whose turn starts, after `ping_delay` if they have not played.

        Someone watching the table plays within seconds and needs no call; a group channel
        allows only ~20 messages a minute, so calls go to those who are not watching.
        A turn that goes on after a play (The Game: play on, or end the turn) gets the
        same delayed call, so a player who forgot to end it hears of it before the
        deadline; with no delay that would be a message per play, so there is none.
        """
        delay = float(self.settings.ping_delay)
        if delay > 0:
            self.scheduler.at(self.clock.now() + delay, "nudge" if goes_on else "ping",
                              live.id, live.row.version)
        elif not goes_on:
            await self._call(live, to_act)

    async def _call(self, live: Live, to_act: list[int], key: str = "your_turn") -> None:
        for seat_no in to_act:
            seat = live.seats[seat_no]
            if seat.is_bot or seat.user_id is None:
                continue
            if not (await self.user_settings(seat.user_id)).mentions:
                continue
            lang = await self.channel_lang(live.row.channel)
            await self._announce_lines(live, [t(lang, key, name=seat.name, game=live.game.NAME)],
                                       kind="turn", mentions=[seat.user_id])

    async def _apply_takeovers(self, live: Live) -> None:
        """'A human may take over a bot seat between rounds': queued joins sit down now.

        Under the table lock, like every other change of its settings, so a /join queued
        at this moment is not lost; a join whose seat could not be saved stays queued.
        """
        taken: list[tuple[str, str]] = []
        async with self._lock(live.id):
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
                if not await self._save_lobby(live, seats=seats,
                                              settings={**live.row.settings,
                                                        "takeovers": waiting}):
                    return  # a storage fault: they stay queued for the next round
            except LobbyMoved:
                return  # changed meanwhile: the queue as stored waits for the next round
        for name, bot in taken:
            await self._announce(live, "took_over", name=name, bot=bot)

    # --- deadlines and bots ---------------------------------------------------------------

    def _deadline_seconds(self, live: Live) -> float:
        return float(live.row.settings.get("deadline", self.settings.turn_deadline) or 0)

    def _next_deadline(self, live: Live, to_act: list[int], version: int, *,
                       talk: bool = False) -> Deadline | None:
        """The deadline of the turn that `to_act` starts at `version`; None without one.

        Talk (a signal) does not start a turn: the seat keeps the time it had."""
        humans = [s for s in to_act if not live.seats[s].is_bot]
        seconds = self._deadline_seconds(live)
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

    async def _set_deadline(self, live: Live, to_act: list[int]) -> None:
        """Store the turn's deadline, unless the move's own transaction did, and arm it."""
        deadline = live.deadline
        if deadline is None or deadline.version != live.row.version:
            deadline = self._next_deadline(live, to_act, live.row.version)
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

    def _resume_deadline(self, row: TableRow, deadline: Deadline) -> bool:
        """Arm a stored deadline again; True when it moved (its caller stores it)."""
        now = self.clock.now()
        seconds = float(row.settings.get("deadline", self.settings.turn_deadline) or 0)
        # Time the bot was down is not the player's fault: a little grace after a restart.
        due = max(deadline.due_at, now + min(60.0, seconds or 60.0))
        if not deadline.reminded and deadline.remind_at is not None:
            deadline.remind_at = min(deadline.remind_at, due)
            self.scheduler.at(deadline.remind_at, "remind", row.id, deadline.version)
        self.scheduler.at(due, "expire", row.id, deadline.version)
        moved = due != deadline.due_at
        deadline.due_at = due
        return moved

    def _schedule_bot(self, live: Live) -> None:
        if live.row.status != PLAYING or live.state is None:
            return
        if self._bot_talk(live) is not None:
            # Said at once, so the signal is on the table before anyone plays on.
            self.scheduler.at(self.clock.now(), "bot", live.id, live.row.version)
        elif any(live.seats[s].is_bot for s in live.game.to_act(live.state)):
            delay = float(live.row.settings.get("bot_delay", self.settings.bot_delay))
            self.scheduler.at(self.clock.now() + delay, "bot", live.id, live.row.version)

    def _bot_for(self, live: Live) -> bots.Bot | None:
        """The table's level of bot for its game; None for a game without bot module."""
        try:
            return bots.get(live.row.game, bot_level(live))
        except bots.NoBot:
            return None

    def _bot_talk(self, live: Live) -> tuple[int, Move] | None:
        """The first bot seat with something to say out of turn, and what.

        The Game's signals are "at any time": a bot says them as soon as its hand or the
        piles change, and takes them back as soon as they no longer hold. A bot's wishes
        depend on its view alone, so once said they stay quiet: no endless talk.
        """
        # An attribute, not `isinstance(bot, bots.Talker)`: a runtime protocol check walks
        # the protocol's members on every call, twice a bot move.
        speak = getattr(self._bot_for(live), "speak", None)
        if speak is None or live.state is None:
            return None
        for seat in live.seats:
            if not seat.is_bot:
                continue
            rng = rng_for(live.row.seed, "talk", live.row.version, seat.seat)
            try:
                move = speak(live.game.view(live.state, seat.seat), rng)
            except Exception:
                log.exception("table %s: a bot failed to speak; it stays quiet", live.id)
                return None
            if move is not None:
                return seat.seat, move
        return None

    async def _run_job(self, job: Job) -> None:
        logs.bind(platform=self.platform, table_id=job.table_id)
        try:
            # Its log is replayed before its next move or redraw (jobs that change or
            # draw it), not for every table resumed at start-up, nor for a turn call.
            live = await self._load(job.table_id, check=job.kind in CHECKED_JOBS)
        except StorageError:
            # A passing storage fault: try again shortly, the game must not end over it.
            log.warning("table %s could not be loaded; trying again", job.table_id)
            self.scheduler.at(self.clock.now() + RETRY_SECONDS, job.kind, job.table_id,
                              job.version)
            return
        except Exception:
            # Loading closes a table it cannot restore; anything else that breaks it
            # closes it the same way, with a word in its channel.
            log.exception("table %s could not be loaded; closing it", job.table_id)
            await self._close_broken(job.table_id, "table_unrestorable")
            return
        if live is None or live.row.version != job.version:
            log.debug("table %s: %s job for version %s is stale", job.table_id, job.kind,
                      job.version)
            return  # the table moved on: this job is stale
        if job.kind == "redraw":
            await self._redraw_job(live, job.version)
            return
        if job.kind == "resume" and job.table_id in self._redraw_due:
            # Redrawn by a job of its own, after every table's resume: a restart makes
            # every table playable first, then brings the screens up to date.
            self._redraw_due.discard(job.table_id)
            self.scheduler.at(self.clock.now(), "redraw", job.table_id, job.version)
        if live.row.status != PLAYING:
            return
        if job.kind == "resume":
            if job.table_id not in self._deadline_resumed:
                # No deadline survived for this turn (never stored, or the bot stopped
                # between the move and its deadline): a human's turn gets a fresh one.
                await self._set_deadline(live, live.game.to_act(live.state))
            self._schedule_bot(live)
        elif job.kind == "ping":
            await self._call(live, live.game.to_act(live.state))
        elif job.kind == "nudge":
            await self._call(live, live.game.to_act(live.state), "your_turn_goes_on")
        elif job.kind == "bot":
            await self._bot_move(live, job.version)
        elif job.kind == "remind":
            await self._remind(live, job.version)
        elif job.kind == "expire":
            await self._expire(live, job.version)

    async def _redraw_job(self, live: Live, version: int) -> None:
        # Loaded with its log checked: the last moves it shows come from the log.
        if live.row.status in (LOBBY, PLAYING, FINISHED, CANCELLED):
            await self._redraw(live)

    async def _redraw(self, live: Live) -> None:
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

        A game whose last move was stored just before the stop (see `REDRAW_WINDOW`) gets
        its final table and hands the same way; its final ranking message, if it was lost,
        is dropped too: the table message shows the final scores and the rematch button,
        and /scores gives the ranking. A table cancelled then gets its table message.
        """
        await self._show_table(live)
        if live.state is None or live.row.status == CANCELLED:
            return  # a cancelled game's hands are left as cancelling leaves them
        for seat in live.seats:
            await self._show_hand(live, seat.seat)
        if live.row.status != PLAYING:
            return  # a finished game: its final ranking was announced, or is dropped
        to_act = live.game.to_act(live.state)
        live.last_to_act = list(to_act)
        await self._ping(live, to_act)

    async def _bot_move(self, live: Live, version: int) -> None:
        async with self._lock(live.id):
            if live.row.version != version or live.row.status != PLAYING:
                return
            talk = self._bot_talk(live)
            acting = [s for s in live.game.to_act(live.state) if live.seats[s].is_bot]
            if talk is None and not acting:
                return
            seat = talk[0] if talk is not None else acting[0]
            try:
                if talk is not None:
                    events = await self._commit(live, seat, talk[1], "bot")
                else:
                    events = await self._bot_commit(live, seat, "bot")
            except VersionConflict:
                # Another process moved the table on: take its state, arrange what is next.
                await self._reload(live)
                events = []
            except Unstorable:
                log.exception("table %s: the bot's move can never be stored", live.id)
                await self._close_broken(live.id, "table_unstorable")
                return
            except StorageError:
                # Try again shortly: a game must never stall on a passing storage fault.
                self.scheduler.at(self.clock.now() + RETRY_SECONDS, "bot", live.id, version)
                return
        await self._after_change(live, events, mover=seat)

    async def _bot_commit(self, live: Live, seat: int, purpose: str) -> list[Any]:
        """Commit the table's bot's move, or the first legal move if the bot itself fails.

        The bot sees the seat's view only. Seeded by table and version, so a replayed or
        resumed game makes the same choice. A strong bot thinks in a worker thread: its
        search must not hold up the other tables. An easy bot decides in a tenth of a
        millisecond, less than the hand-over to a thread costs, so it decides here. A bot
        bug is logged and never stalls the game.
        """
        rng = rng_for(live.row.seed, purpose, live.row.version)
        try:
            level = bot_level(live)
            bot = bots.get(live.row.game, level)
            view = live.game.view(live.state, seat)
            if level == "easy":
                move = bot.choose(view, rng)
            else:
                move = await asyncio.to_thread(bot.choose, view, rng)
            return await self._commit(live, seat, move, purpose)
        except (VersionConflict, StorageError):
            raise
        except Exception:
            log.exception("table %s: the bot failed; playing the first legal move", live.id)
        move = next(iter(live.game.legal_moves(live.state, seat)))
        return await self._commit(live, seat, move, purpose)

    async def _remind(self, live: Live, version: int) -> None:
        to_act = live.game.to_act(live.state)
        humans = [live.seats[s] for s in to_act if not live.seats[s].is_bot]
        if not humans:
            return
        lang = await self.channel_lang(live.row.channel)
        seconds = int(max(0, self._remaining(live)))
        for seat in humans:  # the job ran only because the table is still at `version`
            await self._announce_lines(
                live, [t(lang, "reminder", name=seat.name, seconds=seconds)], kind="reminder",
                mentions=[seat.user_id] if seat.user_id else [])
        if live.deadline is not None and live.deadline.version == version:
            live.deadline.reminded = True  # a signal keeping this turn's time keeps this too
        # Marked in the background: the reminder is out, and after a restart hundreds go
        # out at once; their marks then share a commit instead of holding the timers.
        self._in_background(self._mark_reminded(live.id, version))

    async def _mark_reminded(self, table_id: int, version: int) -> None:
        try:
            await self.repo.mark_reminded(table_id, version)
        except StorageError:
            log.warning("table %s: reminder not marked", table_id)

    def _remaining(self, live: Live) -> float:
        jobs = [j for j in self.scheduler.jobs_of(live.id)
                if j.kind == "expire" and j.version == live.row.version]
        return (min(j.due for j in jobs) - self.clock.now()) if jobs else 0.0

    async def _expire(self, live: Live, version: int) -> None:
        """AFK policy: the bot finishes the turn; after repeated expiries it keeps the seat."""
        events: list[Any] = []
        async with self._lock(live.id):
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
                    events += await self._bot_commit(live, seat_no, "afk")
                except VersionConflict:
                    await self._reload(live)
                    stopped = True
                    break
                except Unstorable:
                    log.exception("table %s: the AFK move can never be stored", live.id)
                    await self._close_broken(live.id, "table_unstorable")
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
                    new = SeatRow(seat=seat_no, user_id=None,
                                  name=self._bot_name(live, seat_no), is_bot=True,
                                  former_user_id=seat.user_id)
                else:
                    new = SeatRow(seat=seat_no, user_id=seat.user_id, name=seat.name,
                                  afk_strikes=strikes)
                try:
                    await self._save_seat(live, new)
                except LobbyMoved:
                    new = None  # the seat changed meanwhile (its player came back, left)
        if new is None:
            # Interrupted: what was played is still shown and the next turn arranged
            # (the retry just scheduled, or a deadline for what is left to play).
            await self._after_change(live, events, mover=seat_no)
            return
        lang = await self.channel_lang(live.row.channel)
        if new.is_bot:
            await self._announce(live, "seat_to_bot_afk", name=seat.name, bot=new.name)
            if seat.user_id:
                ulang = await self.lang_of(seat.user_id, live.row.channel)
                self.outbox.put(Notice(user_id=seat.user_id, table_id=live.id,
                                       text=t(ulang, "you_were_replaced", game=live.game.NAME,
                                              title=live.row.settings.get("title", ""))))
        else:
            await self._announce_lines(live, [t(lang, "afk_move", name=seat.name)])
        await self._after_change(live, events, mover=seat_no)
