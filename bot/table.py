"""One table's life in this process: its lock, its copy in memory, and the one pipeline
every change goes through (decide, commit, show, arrange the next turn).

A `Table` is what `bot.tables.Tables` hands a request to once it has found the table: a
command typed in its channel, a press on one of its buttons, a timer of its own, a change
another process made to it. The table keeps the lock and the pipeline (`play`, `commit`,
`after_change`); the work around them is done by parts, each in its own file:

- `bot.loading` (held as `loading`): reading the table in, checking its snapshot once
  against the move log (the truth; the snapshot is a cache), catching up with changes
  made elsewhere;
- `bot.lobby`: seats, options, the host, starting, cancelling, rematches, decided by
  `bot.lobby_decisions` and stored and shown there;
- `bot.turns` (held as `turns`): turn calls, reminders, deadlines, the AFK policy and
  bots' moves, each a timer re-checked against the table's version when it fires;
- `bot.showing` (held as `showing`): the table message, each player's hand and
  announcements, queued on the outbox;
- `bot.news`: what the platform and the privacy requests tell it, and closing a table
  that can never go on.

Rules are the engine's: a table only decides who may act for which seat and when. It
reaches the rest of the bot only through the `Host` it is given (bot/host.py), never
through `Tables`, and so do its parts: each holds the table, and goes to the host and to
the other parts through it (`table.host.repo`, `table.showing.announce`).
"""

import asyncio
import contextlib
import logging
import time
from typing import Any

from bot import changes, lobby, metrics, news, present, ratings
from bot import lobby_decisions as decisions
from bot.authority import MemberCheck
from bot.driving import SHOWING_CHANGE
from bot.host import Host
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.loading import Loading, stamp
from bot.lobby import LobbyMoved
from bot.showing import Showing
from bot.turns import Turns
from db.repository import (
    FINISHED,
    PLAYING,
    Deadline,
    ResultRow,
    SeatRow,
    StorageError,
    TableRow,
    Unstorable,
    VersionConflict,
)
from engine import IllegalMove

log = logging.getLogger(__name__)

# The longest move of any game (The Game: a hand of eight plays with their piles) is under
# 100 characters; a longer text is no move, and is not handed to a parser.
MAX_MOVE_CHARS = 300


class Table:
    """One table, as this process knows it; `Tables` keeps one per table id it meets.

    It exists before its state is read (a job or a lock may name it first): `live` is
    its state once `load` has read it. `Tables` lets go of the object when it is idle
    (never while its lock is held); whoever still holds it then finishes with its copy,
    and the next event reads the table afresh into a new one.
    """

    __slots__ = (
        "__weakref__",
        "deadline_resumed",
        "host",
        "id",
        "live",
        "loading",
        "lock",
        "redraw_due",
        "resuming",
        "resuming_seats",
        "showing",
        "stale",
        "turns",
        "unarranged",
    )
    live: Live  # its state: set by its first read, unset until then

    def __init__(self, host: Host["Table"], table_id: int) -> None:
        self.id = table_id
        self.host = host  # all it may ask of the rest of the bot
        # One change at a time: a press, a job and a catch-up each hold it while they
        # decide and store.
        self.lock = asyncio.Lock()
        self.loading = Loading(self)  # its reads, checks and catch-ups
        self.showing = Showing(self)  # its screens and announcements
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
        return self.lock.locked() or self.loading.busy()

    # --- what `Tables` asks of it (the parts do the work) -----------------------------------

    async def load(self, *, check: bool = True) -> Live | None:
        return await self.loading.load(check=check)

    async def catch_up(self) -> None:
        await self.loading.catch_up()

    async def show_table(self) -> None:
        await self.showing.show_table()

    async def show_in_channel_lang(self) -> None:
        await self.showing.show_in_channel_lang()

    async def show_hands_of(self, user_id: str) -> None:
        await self.showing.show_hands_of(user_id)

    async def hand_for(self, actor: Actor) -> Reply:
        return await self.showing.hand_for(actor)

    # --- answers --------------------------------------------------------------------------

    async def refuse(self, actor: Actor, key: str, /, **params: Any) -> Reply:
        return await self.host.refuse(actor, self.live.row.channel, key, **params)

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

    def unseated(self, actor: Actor) -> str:
        return decisions.unseated(self.live, actor)

    # --- moves ----------------------------------------------------------------------------

    async def play(self, actor: Actor, text: str, *, expected_version: int | None,
                   talk_only: bool = False) -> Reply:
        started = time.perf_counter()
        reply = await self._play_move(actor, text, expected_version=expected_version,
                                      talk_only=talk_only)
        metrics.MOVE_SECONDS.labels(self.host.platform).observe(time.perf_counter() - started)
        if not reply.ok:
            metrics.REFUSED.labels(self.host.platform, reply.reason or "other").inc()
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
                lang = await self.host.lang_of(actor.user_id, live.row.channel)
                return Reply(present.refusal(live, exc, lang), ok=False, reason=exc.code)
            except VersionConflict:
                await self.loading.reload()
                return await self.refuse(actor, "out_of_date")
            except Unstorable:
                log.exception("table %s: move %r can never be stored", live.id, text)
                await self.close_broken("table_unstorable")
                return await self.refuse(actor, "move_unstorable")
            except StorageError:
                return await self.refuse(actor, "storage_failed")
            if seat.afk_strikes:
                with contextlib.suppress(LobbyMoved):  # only a count; the move is stored
                    await lobby.save_seat(self, SeatRow(seat=seat.seat, user_id=seat.user_id,
                                                        name=seat.name))
        await self.after_change(events, mover=seat.seat)
        lang = await self.host.lang_of(actor.user_id, live.row.channel)
        return Reply(t(lang, "move_done"), table_id=self.id)

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
        results = rated = None
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
            # Rated in the very transaction that stores the end (docs/ratings.md): a game
            # that finished is rated, and a friendly one (`rated=no`) never is.
            if present.is_rated(live):
                rated = ratings.rated_game(
                    live.row.game, live.row.options, result, live.seats,
                    present.bot_level(live), ratings.Rater(self.host.settings.rating_season))
        before = live.row.version
        talk = game.CAPABILITIES.is_talk(move)
        # The next turn's deadline goes in the move's own transaction: one durable write.
        deadline = None if result else self.turns.next_deadline(
            game.to_act(new_state), before + 1, talk=talk)
        live.row = await self.host.repo.commit_move(
            live.id, seq=before + 1, seat=seat, move=notation, actor=actor_kind,
            snapshot=game.dump(new_state), status=FINISHED if result else PLAYING,
            results=results, deadline=deadline,
            clear_deadline=deadline is None and live.deadline_stored,
            expected_updated_at=live.row.updated_at, rating=rated)
        changes.note()
        live.state = new_state
        live.deadline, live.deadline_stored = deadline, deadline is not None
        self.host.scheduler.moved(live.id, live.row.version)  # its jobs for the last turn are moot
        if talk:
            if live.talk_top != before:
                live.talk_base = before
            live.talk_top = live.row.version
        metrics.moved(self.host.platform, live.row.game, actor_kind)
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
            await self.turns.set_deadline(to_act)
        except Exception:
            log.exception("table %s: deadline not set", live.id)
        self.turns.schedule_bot()

    async def apply_takeovers(self) -> None:
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
                if not await lobby.save(self, seats=seats,
                                        settings={**live.row.settings, "takeovers": waiting}):
                    return  # a storage fault: they stay queued for the next round
            except LobbyMoved:
                return  # changed meanwhile: the queue as stored waits for the next round
        for name, bot in taken:
            await self.showing.announce("took_over", name=name, bot=bot)

    # --- for the AFK policy (bot/turns.py) ------------------------------------------------

    async def save_seat_unless_moved(self, seat: SeatRow) -> bool:
        """`lobby.save_seat` for the AFK policy, which does not decide again: False when
        the seats changed meanwhile (its player came back, or left), and nothing was stored."""
        try:
            await lobby.save_seat(self, seat)
        except LobbyMoved:
            return False
        return True

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
