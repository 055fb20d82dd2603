"""One table's whole life in this process: its lock, its state, its timers, its deliveries.

A `Table` is the unit `bot.tables.Tables` routes every event to: a command typed in its
channel, a press on one of its buttons, a timer of its own, a change another process
made to it. Everything that happens to one table happens here, in this order:

- loading: the stored row, its seats and the engine state, checked once against the
  move log (the truth; the snapshot is a cache);
- the lobby: seats, options, the host, starting, cancelling, rematches (decided by
  `bot.lobby_decisions`, stored and shown by `bot.lobby`);
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
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot import changes, lobby, metrics, news, present
from bot import lobby_decisions as decisions
from bot.authority import MemberCheck
from bot.deliveries import Notice
from bot.driving import SHOWING_CHANGE
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.loading import Loading, stamp
from bot.lobby import LobbyMoved
from bot.present import bot_level
from bot.render import Button
from bot.scheduler import Job
from bot.showing import Showing
from db.repository import (
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    Deadline,
    ResultRow,
    SeatRow,
    StorageError,
    TableRow,
    Unstorable,
    VersionConflict,
)
from engine import IllegalMove, bots
from engine.core.rng import rng_for
from engine.core.types import Move

if TYPE_CHECKING:
    from bot.tables import Tables

log = logging.getLogger(__name__)

# The longest move of any game (The Game: a hand of eight plays with their piles) is under
# 100 characters; a longer text is no move, and is not handed to a parser.
MAX_MOVE_CHARS = 300
MAX_AFK_MOVES = 200  # an expired turn is finished by the bot; a turn is never longer
RETRY_SECONDS = 5.0  # after a storage fault, when a timed job tries again
CHECKED_JOBS = frozenset({"bot", "expire", "redraw"})  # jobs that move or draw the table


class Table:
    """One table, as this process knows it; `Tables` keeps one per table id it meets.

    It exists before its state is read (a job or a lock may name it first): `live` is
    its state once `load` has read it. `Tables` lets go of the object when it is idle
    (never while its lock is held); whoever still holds it then finishes with its copy,
    and the next event reads the table afresh into a new one.
    """

    __slots__ = (
        "_talk",
        "clock",
        "deadline_resumed",
        "id",
        "live",
        "loading",
        "lock",
        "outbox",
        "platform",
        "redraw_due",
        "repo",
        "resuming",
        "resuming_seats",
        "scheduler",
        "settings",
        "showing",
        "stale",
        "tables",
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
        self.loading = Loading(self)  # its reads, checks and catch-ups
        self.showing = Showing(self)  # its screens and announcements
        # `_bot_talk`'s last answer and what it was worked out from (see there).
        self._talk: tuple[Any, list[SeatRow], int, str, tuple[int, Move] | None] | None = None
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

    @property
    def kept(self) -> Live | None:
        """Its state if read already (`live` is only asked for once `load` gave it)."""
        return getattr(self, "live", None)

    @property
    def loaded(self) -> bool:
        return hasattr(self, "live")

    def busy(self) -> bool:
        """Something is under way for it here: it may not be dropped or handed on."""
        return self.lock.locked() or self.loading.busy()

    # --- loading (bot/loading.py) ---------------------------------------------------------

    async def load(self, *, check: bool = True) -> Live | None:
        return await self.loading.load(check=check)

    async def reload(self) -> None:
        await self.loading.reload()

    async def _read_again(self) -> Live | None:
        return await self.loading.read_again()

    # --- answers --------------------------------------------------------------------------

    async def refuse(self, actor: Actor, key: str, /, **params: Any) -> Reply:
        return await self.tables.refuse(actor, self.live.row.channel, key, **params)

    async def _answer(self, actor: Actor, key: str, /, **params: Any) -> Reply:
        lang = await self.tables.lang_of(actor.user_id, self.live.row.channel)
        return Reply(t(lang, key, **params), table_id=self.id)

    # --- the lobby (its rules: bot.lobby_decisions; applied: bot.lobby) -------------------

    async def options_text(self, actor: Actor) -> Reply:
        return await lobby.options_text(self, actor)

    async def set_options(self, actor: Actor, words: list[str]) -> Reply:
        return await lobby.act(self, actor, decisions.set_options, words)

    async def join(self, actor: Actor) -> Reply:
        return await lobby.act(self, actor, decisions.join)

    async def leave(self, actor: Actor, *, forgotten: bool = False) -> Reply:
        return await lobby.act(self, actor, decisions.leave, forgotten=forgotten)

    async def add_bot(self, actor: Actor) -> Reply:
        return await lobby.act(self, actor, decisions.add_bot)

    async def remove_bot(self, actor: Actor) -> Reply:
        return await lobby.act(self, actor, decisions.remove_bot)

    async def start(self, actor: Actor) -> Reply:
        return await lobby.act(self, actor, decisions.start)

    async def cancel(self, actor: Actor) -> Reply:
        return await lobby.act(self, actor, decisions.cancel)

    async def kick(self, actor: Actor, target: str) -> Reply:
        return await lobby.act(self, actor, decisions.kick, target)

    async def rematch(self, actor: Actor, is_member: MemberCheck | None = None) -> Reply:
        return await lobby.rematch(self, actor, is_member)

    def bot_name(self, index: int) -> str:
        return decisions.bot_name(self.live.seats, index)

    def unseated(self, actor: Actor) -> str:
        return decisions.unseated(self.live, actor)

    async def _save_lobby(self, *, seats: list[SeatRow] | None = None,
                          host: str | None = None, settings: dict[str, Any] | None = None,
                          status: str | None = None) -> bool:
        return await lobby.save(self, seats=seats, host=host, settings=settings,
                                status=status)

    async def _save_seat(self, seat: SeatRow) -> bool:
        return await lobby.save_seat(self, seat)

    async def set_status(self, status: str, *,
                         settings: dict[str, Any] | None = None) -> bool:
        return await lobby.set_status(self, status, settings=settings)

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
        deadline = None if result else self._next_deadline(
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
            await self.showing.show_change(events, mover=mover, notify_turn=notify_turn)
        except Exception:
            log.exception("table %s: showing the change failed", live.id)
        finally:
            SHOWING_CHANGE.reset(showing)
        if live.row.status != PLAYING or live.state is None:
            return
        to_act = live.game.to_act(live.state)
        try:
            await self._set_deadline(to_act)
        except Exception:
            log.exception("table %s: deadline not set", live.id)
        self._schedule_bot()

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

    # --- showing (bot/showing.py) ---------------------------------------------------------

    async def show_table(self) -> None:
        await self.showing.show_table()

    async def show_in_channel_lang(self) -> None:
        await self.showing.show_in_channel_lang()

    async def show_hands_of(self, user_id: str) -> None:
        await self.showing.show_hands_of(user_id)

    async def show_hand(self, seat_no: int, *, to_former: bool = False,
                        kicked: str | None = None) -> None:
        await self.showing.show_hand(seat_no, to_former=to_former, kicked=kicked)

    async def announce(self, key: str, /, **params: Any) -> None:
        await self.showing.announce(key, **params)

    async def announce_lines(self, lines: list[str], buttons: list[list[Button]] | None = None,
                             kind: str = "info", mentions: list[str] | None = None) -> None:
        await self.showing.announce_lines(lines, buttons, kind, mentions)

    async def hand_for(self, actor: Actor) -> Reply:
        return await self.showing.hand_for(actor)

    async def redraw(self) -> None:
        await self.showing.redraw()

    # --- timers: turn calls, deadlines, bots ----------------------------------------------

    async def _ping(self, to_act: list[int], *, goes_on: bool = False) -> None:
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
                              self.id, self.live.row.version)
        elif not goes_on:
            await self._call(to_act)

    def _people(self, to_act: list[int]) -> list[SeatRow]:
        """The seats of `to_act` that a call can reach: people's, not bots'."""
        seats = self.live.seats
        return [seats[s] for s in to_act
                if s < len(seats) and not seats[s].is_bot and seats[s].user_id is not None]

    async def _call(self, to_act: list[int], key: str = "your_turn") -> None:
        live = self.live
        for seat in self._people(to_act):
            assert seat.user_id is not None  # a person's seat
            if not (await self.tables.user_settings(seat.user_id)).mentions:
                continue
            lang = await self.tables.channel_lang(live.row.channel)
            await self.announce_lines([t(lang, key, name=seat.name, game=live.game.NAME)],
                                      kind="turn", mentions=[seat.user_id])

    def _deadline_seconds(self, row: TableRow) -> float:
        return float(row.settings.get("deadline", self.settings.turn_deadline) or 0)

    def _next_deadline(self, to_act: list[int], version: int, *,
                       talk: bool = False) -> Deadline | None:
        """The deadline of the turn that `to_act` starts at `version`; None without one.

        Talk (a signal) does not start a turn: the seat keeps the time it had."""
        live = self.live
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

    async def _set_deadline(self, to_act: list[int]) -> None:
        """Store the turn's deadline, unless the move's own transaction did, and arm it."""
        live = self.live
        deadline = live.deadline
        if deadline is None or deadline.version != live.row.version:
            deadline = self._next_deadline(to_act, live.row.version)
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
        self.scheduler.at(self.clock.now(), "resume", row.id, row.version)
        self.resuming = row
        if row.status == LOBBY or deadline is None or deadline.version != row.version:
            return False  # a lobby has no deadline: its resume only redraws it
        self.deadline_resumed = deadline
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
        live = self.kept
        if live is None or live.touched > quiet_since or live.row.status != PLAYING \
                or live.state is None or self.busy() or self.scheduler.has_jobs(self.id):
            return False
        to_act = live.game.to_act(live.state)
        return any(live.seats[s].is_bot for s in to_act) \
            or (bool(to_act) and self._deadline_seconds(live.row) > 0)

    async def rearrange(self) -> bool:
        """Read the table again and arrange its next turn (`Tables.unstick`); True when
        that armed a timer, i.e. the game was indeed waiting on nothing."""
        async with self.lock:
            if self.scheduler.has_jobs(self.id):
                return False
            live = await self._read_again()
            if live is None or live.row.status != PLAYING or live.state is None \
                    or self.scheduler.has_jobs(self.id):  # arranged while it was read
                return False
            self.scheduler.moved(self.id, live.row.version)
            await self.after_change([])
            arranged = self.scheduler.has_jobs(self.id)
        if arranged:
            log.warning("table %s: nothing was arranged for its next turn (version %s);"
                        " arranged now", self.id, live.row.version)
        return arranged

    def _schedule_bot(self) -> None:
        live = self.live
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
        try:
            return bots.get(self.live.row.game, bot_level(self.live))
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
        live = self.live
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
        said = None if speak is None else self._speak(speak)
        self._talk = (live.state, live.seats, live.row.version, level, said)
        return said

    def _speak(self, speak: Callable[..., Move | None]) -> tuple[int, Move] | None:
        live = self.live
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

    async def run(self, job: Job) -> None:
        """A timer of this table fired: do its work if the table is still where it was."""
        try:
            # Its log is replayed before its next move or redraw (jobs that change or
            # draw it), not for every table resumed at start-up, nor for a turn call.
            live = await self.load(check=job.kind in CHECKED_JOBS)
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
            await self.close_broken("table_unrestorable")
            return
        if live is not None and self.unarranged:
            # Its load took in a change made elsewhere (the table was let go of and read
            # again): arrange it now. A reminder or an expiry finding a bot where a
            # person was would otherwise end quietly, and the bot never play. A resume
            # arranges the turn itself, without calling anyone again.
            if job.kind == "resume":
                self.unarranged = False
            else:
                await self.catch_up()
                live = self.kept
        if live is not None and live.row.version < job.version:
            # A job armed for a later version than this copy: another copy of the table
            # moved it on (a press that began on an object let go of since, as idle
            # tables are), so this one is stale, not the job. Dropping the job would
            # leave the game waiting.
            async with self.lock:
                if live.row.version < job.version:
                    live = await self._read_again()
        if live is None or live.row.version != job.version:
            log.debug("table %s: %s job for version %s is stale", self.id, job.kind,
                      job.version)
            return  # the table moved on: this job is stale
        if job.kind == "redraw":
            # Loaded with its log checked: the last moves it shows come from the log.
            if live.row.status in (LOBBY, PLAYING, FINISHED, CANCELLED):
                await self.redraw()
            return
        if job.kind == "resume" and self.redraw_due:
            # Redrawn by a job of its own, after every table's resume: a restart makes
            # every table playable first, then brings the screens up to date.
            self.redraw_due = False
            self.scheduler.at(self.clock.now(), "redraw", self.id, job.version)
        if live.row.status != PLAYING:
            return
        if job.kind == "resume":
            if self.deadline_resumed is None:
                # No deadline survived for this turn (never stored, or the bot stopped
                # between the move and its deadline): a human's turn gets a fresh one.
                await self._set_deadline(live.game.to_act(live.state))
            self._schedule_bot()
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
        live = self.live
        async with self.lock:
            if live.row.version != version or live.row.status != PLAYING:
                return
            talk = self._bot_talk()
            acting = [s for s in live.game.to_act(live.state) if live.seats[s].is_bot]
            if talk is None and not acting:
                return
            seat = talk[0] if talk is not None else acting[0]
            try:
                if talk is not None:
                    events = await self.commit(seat, talk[1], "bot")
                else:
                    events = await self._bot_commit(seat, "bot")
            except VersionConflict:
                # Another process moved the table on: take its state, arrange what is next.
                await self.reload()
                events = []
            except Unstorable:
                log.exception("table %s: the bot's move can never be stored", live.id)
                await self.close_broken("table_unstorable")
                return
            except StorageError:
                # Try again shortly: a game must never stall on a passing storage fault.
                self.scheduler.at(self.clock.now() + RETRY_SECONDS, "bot", live.id, version)
                return
        await self.after_change(events, mover=seat)

    async def _bot_commit(self, seat: int, purpose: str) -> list[Any]:
        """Commit the table's bot's move, or the first legal move if the bot itself fails.

        The bot sees the seat's view only. Seeded by table and version, so a replayed or
        resumed game makes the same choice. A strong bot thinks in a worker thread: its
        search must not hold up the other tables. An easy bot decides in a tenth of a
        millisecond, less than the hand-over to a thread costs, so it decides here. A bot
        bug is logged and never stalls the game.
        """
        live = self.live
        rng = rng_for(live.row.seed, purpose, live.row.version)
        try:
            level = bot_level(live)
            bot = bots.get(live.row.game, level)
            view = live.seat_view(seat)
            if level == "easy":
                move = bot.choose(view, rng)
            else:
                move = await asyncio.to_thread(bot.choose, view, rng)
            return await self.commit(seat, move, purpose)
        except (VersionConflict, StorageError):
            raise
        except Exception:
            log.exception("table %s: the bot failed; playing the first legal move", live.id)
        first = next(iter(live.game.legal_moves(live.state, seat)), None)
        if first is None:  # not this seat's turn after all: nothing to play, nothing stuck
            log.error("table %s: seat %s has no move to play for the bot", live.id, seat)
            return []
        return await self.commit(seat, first, purpose)

    async def _remind(self, version: int) -> None:
        live = self.live
        to_act = live.game.to_act(live.state)
        humans = [live.seats[s] for s in to_act if not live.seats[s].is_bot]
        if not humans:
            return
        lang = await self.tables.channel_lang(live.row.channel)
        seconds = int(max(0, self._remaining()))
        for seat in humans:  # the job ran only because the table is still at `version`
            await self.announce_lines(
                [t(lang, "reminder", name=seat.name, seconds=seconds)], kind="reminder",
                mentions=[seat.user_id] if seat.user_id else [])
        if live.deadline is not None and live.deadline.version == version:
            live.deadline.reminded = True  # a signal keeping this turn's time keeps this too
        # Marked in the background: the reminder is out, and after a restart hundreds go
        # out at once; their marks then share a commit instead of holding the timers.
        self.tables.in_background(self._mark_reminded(version))

    async def _mark_reminded(self, version: int) -> None:
        try:
            await self.repo.mark_reminded(self.id, version)
        except StorageError:
            log.warning("table %s: reminder not marked", self.id)

    def _remaining(self) -> float:
        version = self.live.row.version
        jobs = [j for j in self.scheduler.jobs_of(self.id)
                if j.kind == "expire" and j.version == version]
        return (min(j.due for j in jobs) - self.clock.now()) if jobs else 0.0

    async def _expire(self, version: int) -> None:
        """AFK policy: the bot finishes the turn; after repeated expiries it keeps the seat."""
        live = self.live
        events: list[Any] = []
        async with self.lock:
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
                    await self.reload()
                    stopped = True
                    break
                except Unstorable:
                    log.exception("table %s: the AFK move can never be stored", live.id)
                    await self.close_broken("table_unstorable")
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
                    new = SeatRow(seat=seat_no, user_id=None, name=self.bot_name(seat_no),
                                  is_bot=True, former_user_id=seat.user_id)
                else:
                    new = SeatRow(seat=seat_no, user_id=seat.user_id, name=seat.name,
                                  afk_strikes=strikes)
                try:
                    await self._save_seat(new)
                except LobbyMoved:
                    new = None  # the seat changed meanwhile (its player came back, left)
        if new is None:
            # Interrupted: what was played is still shown and the next turn arranged
            # (the retry just scheduled, or a deadline for what is left to play).
            await self.after_change(events, mover=seat_no)
            return
        lang = await self.tables.channel_lang(live.row.channel)
        if new.is_bot:
            await self.announce("seat_to_bot_afk", name=seat.name, bot=new.name)
            await self.show_hand(seat_no, to_former=True)
            if seat.user_id:
                ulang = await self.tables.lang_of(seat.user_id, live.row.channel)
                self.outbox.put(Notice(user_id=seat.user_id, table_id=live.id,
                                       text=t(ulang, "you_were_replaced", game=live.game.NAME,
                                              title=live.row.settings.get("title", ""))))
        else:
            await self.announce_lines([t(lang, "afk_move", name=seat.name)])
        await self.after_change(events, mover=seat_no)

    # --- several processes: changes made elsewhere (bot/loading.py) -----------------------

    async def catch_up(self) -> None:
        await self.loading.catch_up()

    # --- the platform's news (bot/news.py) ------------------------------------------------

    async def close_broken(self, key: str) -> None:
        await news.close_broken(self, key)

    async def channel_gone(self) -> None:
        await news.channel_gone(self)

    async def unreachable(self, user_id: str) -> None:
        with contextlib.suppress(LobbyMoved):  # unsaid: see `news.unreachable`
            await news.unreachable(self, user_id)

    async def revive(self) -> Live | None:
        return await news.revive(self)

    async def give_up_seat(self, actor: Actor) -> None:
        await news.give_up_seat(self, actor)

    def names_person(self, user_id: str) -> bool:
        return news.names_person(self, user_id)

    async def forgotten(self, user_id: str) -> None:
        await news.forgotten(self, user_id)



__all__ = ["LobbyMoved", "Table", "stamp"]
