"""Tables: lobbies, seats, moves, deadlines and bot players, for any game of the engine.

Every platform adapter calls the same methods here; each returns a `Reply` (a sentence
for the person who acted, already in their language) and queues deliveries (table
message, hands, announcements) on the outbox. Rules are the engine's: this module only
decides who may act for which seat and when.
"""

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import options as table_options
from bot import present
from bot.clock import Clock, RealClock
from bot.deliveries import Announcement, HandMessage, Notice, TableMessage
from bot.i18n import LANGS, t
from bot.outbox import Outbox, Sink
from bot.render import Button, decode_payload
from bot.scheduler import Job, Scheduler
from bot.settings import Settings
from db.repository import (
    CANCELLED,
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    Deadline,
    Repository,
    ResultRow,
    SeatRow,
    StorageError,
    TableExists,
    TableRow,
    UserSettings,
    VersionConflict,
)
from engine import BadOptions, IllegalMove, games
from engine.core.options import parse_options
from engine.core.protocol import Game
from engine.core.rng import rng_for

log = logging.getLogger(__name__)

BOT_NAMES = ["Ada", "Boole", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper",
             "Ising", "Jacobi", "Knuth", "Lovelace"]
MAX_AFK_MOVES = 200  # an expired turn is finished by the bot; a turn is never longer
NARRATION_LINES = 6


@dataclass(frozen=True, slots=True)
class Actor:
    user_id: str
    name: str
    is_admin: bool = False  # a channel admin may cancel and kick like the host


@dataclass(slots=True)
class Reply:
    text: str
    ok: bool = True
    table_id: int | None = None


@dataclass
class Live:
    """A table as kept in memory: its row, seats and the engine state after `row.version`."""

    row: TableRow
    seats: list[SeatRow]
    game: Game
    state: Any | None
    narration: deque[str] = field(default_factory=lambda: deque(maxlen=NARRATION_LINES))
    hand_sizes: list[int] | None = None  # as last shown, to know whose hand changed
    # Whether a deadline row may exist: bot-only turns then need no write to clear it.
    deadline_stored: bool = True
    last_to_act: list[int] | None = None  # as last announced, to ping only new turns

    @property
    def id(self) -> int:
        return self.row.id

    def seat_of(self, user_id: str) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.is_bot), None)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]


class Tables:
    def __init__(
        self, repo: Repository, sink: Sink, *, platform: str, settings: Settings | None = None,
        clock: Clock | None = None, seeds: Callable[[], int] | None = None,
    ) -> None:
        self.repo = repo
        # Tests fix the seeds to compare runs; in play every table gets a fresh random one.
        self._seeds = seeds or (lambda: secrets.randbelow(2**62))
        self.platform = platform
        self.settings = settings or Settings()
        self.clock = clock or RealClock()
        self.outbox = Outbox(sink, repo, on_channel_gone=self._channel_gone,
                             on_unreachable=self._unreachable)
        self.scheduler = Scheduler(self.clock, self._run_job)
        self._live: OrderedDict[int, Live] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._channel_langs: dict[str, str | None] = {}
        self._users: dict[str, UserSettings] = {}
        self._verified: set[int] = set()
        self._resuming: dict[int, TableRow] = {}  # rows read by start(), until first loaded
        self.repaired: list[int] = []  # tables whose snapshot was rebuilt from the move log

    # --- life cycle -----------------------------------------------------------------------

    async def start(self, *, run_scheduler: bool = True) -> None:
        """Resume every unfinished table: deadlines at once, everything else as a job.

        Start-up only reads rows and schedules: each table is loaded, verified against
        its move log and given its next bot move by a `resume` job, so a restart with
        thousands of tables is quick and players are served while the rest resumes.
        """
        deadlines = {d.table_id: d for d in await self.repo.deadlines()}
        now = self.clock.now()
        for row in await self.repo.unfinished_tables():
            if row.platform != self.platform or row.status != PLAYING:
                continue
            self.scheduler.at(now, "resume", row.id, row.version)
            self._resuming[row.id] = row
            deadline = deadlines.get(row.id)
            if deadline is not None and deadline.version == row.version:
                await self._resume_deadline(row, deadline)
        if run_scheduler:
            self.scheduler.start()

    async def close(self) -> None:
        await self.scheduler.stop()
        await self.outbox.close()

    async def settle(self) -> None:
        """Run what is due now and deliver everything queued: tests and shutdown wait on it."""
        while True:
            ran = await self.scheduler.run_due()
            await self.outbox.flush()
            if not ran:
                return

    # --- loading --------------------------------------------------------------------------

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load(self, table_id: int) -> Live | None:
        live = self._live.get(table_id)
        if live is not None:
            self._live.move_to_end(table_id)
            return live
        # A table resumed at start-up was read with all the others; read it again only later.
        row = self._resuming.pop(table_id, None) or await self.repo.get_table(table_id)
        if row is None:
            return None
        try:
            game = games.get(row.game)
        except KeyError:
            log.error("table %s plays unknown game %s", table_id, row.game)
            return None
        seats = await self.repo.get_seats(table_id)
        live = Live(row=row, seats=seats, game=game, state=None)
        if row.snapshot is not None:
            if table_id in self._verified:
                live.state = game.load(row.snapshot)
            else:
                await self._verify(live)
        self._live[table_id] = live
        self._evict()
        return live

    async def _verify(self, live: Live) -> None:
        """The move log is the truth and the snapshot a cache: check it once per process."""
        row, game = live.row, live.game
        replayed = await self._replay(row, game, len(live.seats))
        dumped = game.dump(replayed)
        live.state = replayed  # equal to the snapshot's state when they agree
        if dumped != row.snapshot:
            log.error("table %s: snapshot differs from its move log; using the log", row.id)
            live.row = await self.repo.update_table(row.id, expected_version=row.version,
                                                    snapshot=dumped)
            self.repaired.append(row.id)
        self._verified.add(row.id)

    async def _replay(self, row: TableRow, game: Game, seats: int) -> Any:
        state = game.new_game(seats, row.options, row.seed)
        if row.version == 0:
            return state  # nothing logged yet: no need to read the log
        for move in await self.repo.moves(row.id):
            state, _ = game.apply(state, move.seat, game.parse_move(state, move.seat, move.move))
        return state

    def _evict(self) -> None:
        while len(self._live) > self.settings.cached_tables:
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
        row = await self.repo.open_table_in(self.platform, channel)
        return None if row is None else await self._load(row.id)

    # --- languages and settings -----------------------------------------------------------

    async def channel_lang(self, channel: str) -> str:
        if channel not in self._channel_langs:
            self._channel_langs[channel] = await self.repo.channel_lang(self.platform, channel)
        return self._channel_langs[channel] or self.settings.default_lang

    async def user_settings(self, user_id: str) -> UserSettings:
        if user_id not in self._users:
            self._users[user_id] = await self.repo.user_settings(self.platform, user_id)
        return self._users[user_id]

    async def lang_of(self, user_id: str, channel: str | None = None) -> str:
        own = (await self.user_settings(user_id)).lang
        if own:
            return own
        return await self.channel_lang(channel) if channel else self.settings.default_lang

    async def set_lang(self, actor: Actor, channel: str, lang: str, *, personal: bool) -> Reply:
        lang = lang.strip().lower()[:2]
        if lang not in LANGS:
            return await self._refuse(actor, channel, "lang_unknown", langs=", ".join(LANGS))
        if personal:
            current = await self.user_settings(actor.user_id)
            new = UserSettings(lang=lang, mentions=current.mentions)
            await self.repo.set_user_settings(self.platform, actor.user_id, new)
            self._users[actor.user_id] = new
            return Reply(t(lang, "lang_set_personal"))
        if not actor.is_admin:
            return await self._refuse(actor, channel, "admin_only")
        await self.repo.set_channel_lang(self.platform, channel, lang)
        self._channel_langs[channel] = lang
        live = await self._in_channel(channel)
        if live is not None:
            await self._show_table(live)
        return Reply(t(lang, "lang_set_channel"))

    async def set_mentions(self, actor: Actor, on: bool) -> Reply:
        current = await self.user_settings(actor.user_id)
        new = UserSettings(lang=current.lang, mentions=on)
        await self.repo.set_user_settings(self.platform, actor.user_id, new)
        self._users[actor.user_id] = new
        lang = await self.lang_of(actor.user_id)
        return Reply(t(lang, "mentions_on" if on else "mentions_off"))

    async def _refuse(self, actor: Actor, channel: str | None, key: str, /,
                      **params: Any) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, key, **params), ok=False)

    # --- lobby ----------------------------------------------------------------------------

    async def new_game(self, actor: Actor, channel: str, game_text: str,
                       option_words: list[str] | None = None, *, title: str = "") -> Reply:
        if not (game_text or "").strip():
            lang = await self.lang_of(actor.user_id, channel)
            return Reply(present.games_overview(lang), ok=False)
        game_id = table_options.resolve_game(game_text or "")
        if game_id is None:
            return await self._refuse(actor, channel, "unknown_game", text=game_text or "",
                                      games=", ".join(games.ids()))
        game = games.get(game_id)
        try:
            game_opts, table_settings = table_options.parse(option_words or [])
            parse_options(game.Options, game_opts)
        except table_options.OptionsError as exc:
            return await self._refuse(actor, channel, exc.code, **exc.params)
        except BadOptions as exc:
            return await self._refuse(actor, channel, "bad_options", message=str(exc))
        settings = {
            "deadline": table_settings.get("deadline", self.settings.turn_deadline),
            "bot_delay": table_settings.get("bot_delay", self.settings.bot_delay),
            "title": title or channel,
        }
        host = SeatRow(seat=0, user_id=actor.user_id, name=actor.name)
        try:
            row = await self.repo.create_table(
                platform=self.platform, channel=channel, game=game_id, options=game_opts,
                settings=settings, seed=self._seeds(), host=actor.user_id,
                seats=[host])
        except TableExists as exc:
            other = await self._load(exc.table_id)
            name = other.game.NAME if other else "?"
            status = other.row.status if other else LOBBY
            lang = await self.channel_lang(channel)
            return await self._refuse(actor, channel, "table_exists", game=name,
                                      status=t(lang, f"status_{status}"))
        except StorageError:
            return await self._refuse(actor, channel, "storage_failed")
        live = await self._load(row.id)
        assert live is not None
        await self._show_table(live)
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, "lobby_opened", game=game.NAME), table_id=row.id)

    async def join(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._join)

    async def _join(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        async with self._lock(live.id):
            if live.row.status == PLAYING:
                return await self._join_playing(live, actor)
            if live.row.status != LOBBY:
                return await self._refuse(actor, channel, "no_table")
            if live.seat_of(actor.user_id):
                return await self._refuse(actor, channel, "already_seated")
            if len(live.seats) >= live.game.SEATS.stop - 1:
                return await self._refuse(actor, channel, "table_full",
                                          max=live.game.SEATS.stop - 1)
            seats = [*live.seats, SeatRow(seat=len(live.seats), user_id=actor.user_id,
                                          name=actor.name)]
            if not await self._save_lobby(live, seats=seats):
                return await self._refuse(actor, channel, "storage_failed")
        await self._show_table(live)
        return Reply(t(await self.lang_of(actor.user_id, channel), "joined",
                       game=live.game.NAME), table_id=live.id)

    async def _join_playing(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        mine = next((s for s in live.seats if s.former_user_id == actor.user_id), None)
        if mine is not None and mine.is_bot:
            # A player whose seat a bot took (AFK or leaving) takes it straight back.
            seat = SeatRow(seat=mine.seat, user_id=actor.user_id, name=actor.name)
            if not await self._save_seat(live, seat):
                return await self._refuse(actor, channel, "storage_failed")
            await self._announce(live, "seat_reclaimed", name=actor.name)
            await self._after_change(live, [], notify_turn=True)
            return Reply(t(await self.lang_of(actor.user_id, channel), "reclaimed"),
                         table_id=live.id)
        if live.seat_of(actor.user_id):
            return await self._refuse(actor, channel, "already_seated")
        if not any(s.is_bot for s in live.seats):
            return await self._refuse(actor, channel, "game_running")
        waiting = list(live.row.settings.get("takeovers", []))
        if actor.user_id not in [w[0] for w in waiting]:
            waiting.append([actor.user_id, actor.name])
            if not await self._save_lobby(live, settings={**live.row.settings,
                                                          "takeovers": waiting}):
                return await self._refuse(actor, channel, "storage_failed")
        return Reply(t(await self.lang_of(actor.user_id, channel), "takeover_queued"),
                     table_id=live.id)

    async def leave(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._leave)

    async def _leave(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        lang = await self.lang_of(actor.user_id, channel)
        async with self._lock(live.id):
            seat = live.seat_of(actor.user_id)
            if seat is None:
                waiting = live.row.settings.get("takeovers", [])
                if any(w[0] == actor.user_id for w in waiting):
                    rest = [w for w in waiting if w[0] != actor.user_id]
                    await self._save_lobby(live, settings={**live.row.settings,
                                                           "takeovers": rest})
                    return Reply(t(lang, "left"))
                return await self._refuse(actor, channel, "not_seated")
            if live.row.status == LOBBY:
                return await self._leave_lobby(live, actor, seat, lang)
            if live.row.status != PLAYING:
                return await self._refuse(actor, channel, "no_table")
            bot = SeatRow(seat=seat.seat, user_id=None, name=self._bot_name(live, seat.seat),
                          is_bot=True, former_user_id=actor.user_id)
            if not await self._save_seat(live, bot):
                return await self._refuse(actor, channel, "storage_failed")
            heir = next((s for s in live.seats if not s.is_bot), None)
            new_host = live.row.host == actor.user_id and heir is not None
            if new_host and heir is not None:
                await self._save_lobby(live, host=heir.user_id)
        await self._announce(live, "seat_to_bot_left", name=seat.name, bot=bot.name)
        if new_host and heir is not None:
            await self._announce(live, "host_moved", name=heir.name)
        await self._after_change(live, [])
        return Reply(t(lang, "left_game"))

    async def _leave_lobby(self, live: Live, actor: Actor, seat: SeatRow, lang: str) -> Reply:
        seats = [s for s in live.seats if s.seat != seat.seat]
        humans = [s for s in seats if not s.is_bot]
        if not humans:
            # The last human leaving closes the lobby: a table of bots alone is pointless.
            if await self._set_status(live.id, CANCELLED):
                await self._show_table(live)
            return Reply(t(lang, "left_closed"))
        seats = [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot)
                 for i, s in enumerate(seats)]
        was_host = live.row.host == actor.user_id
        # The host left: the longest-seated human hosts from now on.
        host = (humans[0].user_id or live.row.host) if was_host else live.row.host
        if not await self._save_lobby(live, seats=seats, host=host):
            return Reply(t(lang, "storage_failed"), ok=False)
        await self._show_table(live)
        if was_host:
            await self._announce(live, "host_moved", name=humans[0].name)
        return Reply(t(lang, "left"))

    async def add_bot(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._add_bot)

    async def _add_bot(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        async with self._lock(live.id):
            if live.row.status != LOBBY:
                return await self._refuse(actor, channel, "not_in_lobby")
            if not self._may_manage(live, actor):
                return await self._refuse(actor, channel, "host_only")
            if len(live.seats) >= live.game.SEATS.stop - 1:
                return await self._refuse(actor, channel, "table_full",
                                          max=live.game.SEATS.stop - 1)
            index = len(live.seats)
            seats = [*live.seats, SeatRow(seat=index, user_id=None,
                                          name=self._bot_name(live, index), is_bot=True)]
            if not await self._save_lobby(live, seats=seats):
                return await self._refuse(actor, channel, "storage_failed")
        await self._show_table(live)
        return Reply(t(await self.lang_of(actor.user_id, channel), "bot_added"))

    async def remove_bot(self, actor: Actor, channel: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        async with self._lock(live.id):
            if live.row.status != LOBBY:
                return await self._refuse(actor, channel, "not_in_lobby")
            if not self._may_manage(live, actor):
                return await self._refuse(actor, channel, "host_only")
            bots = [s for s in live.seats if s.is_bot]
            if not bots:
                return await self._refuse(actor, channel, "no_bot")
            seats = [s for s in live.seats if s.seat != bots[-1].seat]
            seats = [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot)
                     for i, s in enumerate(seats)]
            if not await self._save_lobby(live, seats=seats):
                return await self._refuse(actor, channel, "storage_failed")
        await self._show_table(live)
        return Reply(t(await self.lang_of(actor.user_id, channel), "bot_removed"))

    def _bot_name(self, live: Live, index: int) -> str:
        taken = {s.name for s in live.seats}
        for name in BOT_NAMES[index % len(BOT_NAMES):] + BOT_NAMES:
            label = f"🤖 {name}"
            if label not in taken:
                return label
        return f"🤖 Bot {index + 1}"

    def _may_manage(self, live: Live, actor: Actor) -> bool:
        return actor.is_admin or live.row.host == actor.user_id

    async def start_game(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._start)

    async def _start(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        async with self._lock(live.id):
            if live.row.status == PLAYING:
                return await self._refuse(actor, channel, "already_started")
            if live.row.status != LOBBY:
                return await self._refuse(actor, channel, "no_table")
            if not self._may_manage(live, actor):
                return await self._refuse(actor, channel, "host_only")
            count, seats_range = len(live.seats), live.game.SEATS
            if count not in seats_range:
                return await self._refuse(actor, channel, "player_count", count=count,
                                          low=seats_range.start, high=seats_range.stop - 1)
            try:
                state = live.game.new_game(count, live.row.options, live.row.seed)
            except BadOptions as exc:
                return await self._refuse(actor, channel, "bad_options", message=str(exc))
            try:
                live.row = await self.repo.update_table(
                    live.id, expected_version=live.row.version, status=PLAYING,
                    snapshot=live.game.dump(state), reset_moves=True)
            except StorageError:
                return await self._refuse(actor, channel, "storage_failed")
            live.state = state
            live.narration.clear()
            self._verified.add(live.id)  # its whole log was written by this process
        await self._show_table(live)
        for seat in live.seats:
            if not seat.is_bot:
                await self._show_hand(live, seat.seat)
        await self._after_change(live, [], notify_turn=True)
        return Reply(t(await self.lang_of(actor.user_id, channel), "started",
                       game=live.game.NAME), table_id=live.id)

    async def cancel(self, actor: Actor, channel: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        async with self._lock(live.id):
            if not self._may_manage(live, actor):
                return await self._refuse(actor, channel, "host_or_admin_only")
            if not await self._set_status(live.id, CANCELLED):
                return await self._refuse(actor, channel, "storage_failed")
            await self.repo.clear_deadline(live.id)
        await self._show_table(live)
        await self._announce(live, "cancelled_by", name=actor.name)
        return Reply(t(await self.lang_of(actor.user_id, channel), "cancelled"))

    async def kick(self, actor: Actor, channel: str, target: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        async with self._lock(live.id):
            if not self._may_manage(live, actor):
                return await self._refuse(actor, channel, "host_or_admin_only")
            victim = self._find_seat(live, target)
            if victim is None:
                return await self._refuse(actor, channel, "no_such_player", name=target)
            if victim.user_id == actor.user_id:
                return await self._refuse(actor, channel, "cannot_kick_self")
            if live.row.status == LOBBY:
                seats = [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot)
                         for i, s in enumerate(x for x in live.seats if x.seat != victim.seat)]
                if not await self._save_lobby(live, seats=seats):
                    return await self._refuse(actor, channel, "storage_failed")
            elif live.row.status == PLAYING:
                bot = SeatRow(seat=victim.seat, user_id=None,
                              name=self._bot_name(live, victim.seat), is_bot=True)
                if not await self._save_seat(live, bot):
                    return await self._refuse(actor, channel, "storage_failed")
            else:
                return await self._refuse(actor, channel, "no_table")
        await self._announce(live, "kicked", name=victim.name)
        if live.row.status == PLAYING:
            await self._after_change(live, [])
        else:
            await self._show_table(live)
        return Reply(t(await self.lang_of(actor.user_id, channel), "kick_done", name=victim.name))

    def _find_seat(self, live: Live, target: str) -> SeatRow | None:
        target = target.strip().lstrip("@")
        for seat in live.seats:
            if seat.is_bot:
                continue
            if target in {seat.user_id, seat.name} or target.lower() == seat.name.lower():
                return seat
        if target.isdigit() and 1 <= int(target) <= len(live.seats):
            seat = live.seats[int(target) - 1]
            return None if seat.is_bot else seat
        return None

    async def _save_lobby(self, live: Live, *, seats: list[SeatRow] | None = None,
                          host: str | None = None, settings: dict[str, Any] | None = None,
                          ) -> bool:
        try:
            live.row = await self.repo.update_table(
                live.id, expected_version=live.row.version, seats=seats, host=host,
                settings=settings)
        except StorageError:
            return False
        if seats is not None:
            live.seats = seats
        return True

    async def _save_seat(self, live: Live, seat: SeatRow) -> bool:
        try:
            await self.repo.update_seat(live.id, seat)
        except StorageError:
            return False
        live.seats[seat.seat] = seat
        return True

    async def _set_status(self, table_id: int, status: str) -> bool:
        live = self._live.get(table_id)
        row = live.row if live else await self.repo.get_table(table_id)
        if row is None:
            return False
        try:
            new = await self.repo.update_table(table_id, expected_version=row.version,
                                               status=status)
        except StorageError:
            return False
        if live is not None:
            live.row = new
        return True

    # --- moves ----------------------------------------------------------------------------

    async def play(self, actor: Actor, channel: str, text: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None or live.row.status != PLAYING:
            return await self._refuse(actor, channel, "no_game")
        return await self._play(live, actor, text, expected_version=None)

    async def press(self, actor: Actor, payload: str) -> Reply:
        """A button press from anywhere (channel or private chat), validated from scratch."""
        decoded = decode_payload(payload)
        lang = await self.lang_of(actor.user_id)
        if decoded is None:
            return Reply(t(lang, "bad_button"), ok=False)
        table_id, version, action = decoded
        live = await self._load(table_id)
        if live is None or live.row.platform != self.platform:
            return Reply(t(lang, "bad_button"), ok=False)
        lang = await self.lang_of(actor.user_id, live.row.channel)
        if action.startswith("m:"):
            if live.row.status != PLAYING or version != live.row.version:
                return Reply(t(lang, "out_of_date"), ok=False)
            return await self._play(live, actor, action[2:], expected_version=version)
        handlers = {"join": self._join, "leave": self._leave, "addbot": self._add_bot,
                    "start": self._start, "rematch": self._rematch, "hand": self._hand_for}
        handler = handlers.get(action)
        if handler is None:
            return Reply(t(lang, "bad_button"), ok=False)
        if action == "rematch" and live.row.status != FINISHED:
            return Reply(t(lang, "out_of_date"), ok=False)
        return await handler(live, actor)

    async def _play(self, live: Live, actor: Actor, text: str, *,
                    expected_version: int | None) -> Reply:
        channel = live.row.channel
        async with self._lock(live.id):
            if live.row.status != PLAYING or live.state is None:
                return await self._refuse(actor, channel, "no_game")
            if expected_version is not None and expected_version != live.row.version:
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
                if seat.seat not in game.to_act(state):
                    raise IllegalMove("not_your_turn")
                move = game.parse_move(state, seat.seat, text)
                events = await self._commit(live, seat.seat, move, "player")
            except IllegalMove as exc:
                lang = await self.lang_of(actor.user_id, channel)
                return Reply(present.refusal(live, exc, lang), ok=False)
            except VersionConflict:
                await self._reload(live)
                return await self._refuse(actor, channel, "out_of_date")
            except StorageError:
                return await self._refuse(actor, channel, "storage_failed")
            if seat.afk_strikes:
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
            results = [ResultRow(seat=s.seat, user_id=s.user_id or s.former_user_id,
                                 name=s.name, is_bot=s.is_bot and not s.former_user_id,
                                 score=result.scores[s.seat], rank=result.ranking[s.seat])
                       for s in live.seats]
        live.row = await self.repo.commit_move(
            live.id, seq=live.row.version + 1, seat=seat, move=str(move), actor=actor_kind,
            snapshot=game.dump(new_state), status=FINISHED if result else PLAYING,
            results=results)
        live.state = new_state
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
        try:
            await self._show_change(live, events, mover=mover, notify_turn=notify_turn)
        except Exception:
            log.exception("table %s: showing the change failed", live.id)
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
        before = live.hand_sizes
        view = live.game.view(live.state)
        live.hand_sizes = list(view.get("hand_sizes", []))
        round_changed = any(e.get("type") in {"round_over", "round_started"} for e in events)
        if round_changed:
            await self._apply_takeovers(live)
        await self._show_table(live)
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
        for ev in events:
            if present.round_ended(live, ev):
                await self._announce_lines(live, present.round_summary(live, ev, lang),
                                           kind="result")
        result = live.game.outcome(live.state)
        if result is not None:
            if live.deadline_stored:
                await self.repo.clear_deadline(live.id)
                live.deadline_stored = False
            await self._announce_lines(live, present.final_ranking(live, result, lang),
                                       buttons=[[Button(t(lang, "btn_rematch"), "rematch",
                                                        "primary")]], kind="result")
            return
        # A turn that goes on (The Game's several plays) is not a new turn: no second ping.
        if to_act != live.last_to_act or (notify_turn and mover is None):
            await self._ping(live, to_act)
        live.last_to_act = list(to_act)

    async def _ping(self, live: Live, to_act: list[int]) -> None:
        """Call the players whose turn starts, after `ping_delay` if they have not played.

        Someone watching the table plays within seconds and needs no call; a group channel
        allows only ~20 messages a minute, so calls go to those who are not watching.
        """
        delay = float(self.settings.ping_delay)
        if delay > 0:
            self.scheduler.at(self.clock.now() + delay, "ping", live.id, live.row.version)
            return
        await self._call(live, to_act)

    async def _call(self, live: Live, to_act: list[int]) -> None:
        for seat_no in to_act:
            seat = live.seats[seat_no]
            if seat.is_bot or seat.user_id is None:
                continue
            if not (await self.user_settings(seat.user_id)).mentions:
                continue
            lang = await self.channel_lang(live.row.channel)
            self.outbox.put(Announcement(
                table_id=live.id, channel=live.row.channel,
                text=t(lang, "your_turn", name=seat.name, game=live.game.NAME),
                mentions=[seat.user_id], version=live.row.version, kind="turn"))

    async def _apply_takeovers(self, live: Live) -> None:
        """'A human may take over a bot seat between rounds': queued joins sit down now."""
        waiting = list(live.row.settings.get("takeovers", []))
        if not waiting:
            return
        for seat in list(live.seats):
            if not waiting or not seat.is_bot:
                continue
            user_id, name = waiting.pop(0)
            if await self._save_seat(live, SeatRow(seat=seat.seat, user_id=user_id, name=name)):
                await self._announce(live, "took_over", name=name, bot=seat.name)
        await self._save_lobby(live, settings={**live.row.settings, "takeovers": waiting})

    # --- deadlines and bots ---------------------------------------------------------------

    def _deadline_seconds(self, live: Live) -> float:
        return float(live.row.settings.get("deadline", self.settings.turn_deadline) or 0)

    async def _set_deadline(self, live: Live, to_act: list[int]) -> None:
        humans = [s for s in to_act if not live.seats[s].is_bot]
        seconds = self._deadline_seconds(live)
        if not humans or seconds <= 0:
            if live.deadline_stored:
                await self.repo.clear_deadline(live.id)
                live.deadline_stored = False
            return
        now = self.clock.now()
        remind = now + seconds - min(60.0, seconds / 4)
        deadline = Deadline(table_id=live.id, seat=humans[0], version=live.row.version,
                            due_at=now + seconds, remind_at=remind)
        live.deadline_stored = True
        try:
            await self.repo.set_deadline(deadline)
        except StorageError:
            log.exception("table %s: deadline not stored; it still runs in memory", live.id)
        self.scheduler.at(remind, "remind", live.id, live.row.version)
        self.scheduler.at(deadline.due_at, "expire", live.id, live.row.version)

    async def _resume_deadline(self, row: TableRow, deadline: Deadline) -> None:
        now = self.clock.now()
        seconds = float(row.settings.get("deadline", self.settings.turn_deadline) or 0)
        # Time the bot was down is not the player's fault: a little grace after a restart.
        due = max(deadline.due_at, now + min(60.0, seconds or 60.0))
        if not deadline.reminded and deadline.remind_at is not None:
            self.scheduler.at(min(deadline.remind_at, due), "remind", row.id, deadline.version)
        if due != deadline.due_at:
            deadline.due_at = due
            try:
                await self.repo.set_deadline(deadline)
            except StorageError:
                log.exception("table %s: extended deadline not stored", row.id)
        self.scheduler.at(due, "expire", row.id, deadline.version)

    def _schedule_bot(self, live: Live) -> None:
        if live.row.status != PLAYING or live.state is None:
            return
        if any(live.seats[s].is_bot for s in live.game.to_act(live.state)):
            delay = float(live.row.settings.get("bot_delay", self.settings.bot_delay))
            self.scheduler.at(self.clock.now() + delay, "bot", live.id, live.row.version)

    async def _run_job(self, job: Job) -> None:
        try:
            live = await self._load(job.table_id)
        except Exception:
            # A table that cannot even be loaded is closed, its rows kept for a developer.
            log.exception("table %s could not be loaded; closing it", job.table_id)
            await self._set_status(job.table_id, CLOSED)
            return
        if live is None or live.row.status != PLAYING or live.row.version != job.version:
            return  # the table moved on: this job is stale
        if job.kind == "resume":
            self._schedule_bot(live)
        elif job.kind == "ping":
            await self._call(live, live.game.to_act(live.state))
        elif job.kind == "bot":
            await self._bot_move(live, job.version)
        elif job.kind == "remind":
            await self._remind(live, job.version)
        elif job.kind == "expire":
            await self._expire(live, job.version)

    async def _bot_move(self, live: Live, version: int) -> None:
        async with self._lock(live.id):
            if live.row.version != version or live.row.status != PLAYING:
                return
            bots = [s for s in live.game.to_act(live.state) if live.seats[s].is_bot]
            if not bots:
                return
            seat = bots[0]
            try:
                events = await self._bot_commit(live, seat, "bot")
            except VersionConflict:
                await self._reload(live)
                self._schedule_bot(live)
                return
            except StorageError:
                # Try again shortly: a game must never stall on a passing storage fault.
                self.scheduler.at(self.clock.now() + 5, "bot", live.id, version)
                return
        await self._after_change(live, events, mover=seat)

    async def _bot_commit(self, live: Live, seat: int, purpose: str) -> list[Any]:
        """Commit the baseline bot's move, or the first legal move if the bot itself fails.

        Seeded by table and version, so a replayed or resumed game makes the same choice.
        A bot bug is logged and never stalls the game.
        """
        rng = rng_for(live.row.seed, purpose, live.row.version)
        try:
            move = live.game.choose(live.state, seat, rng)
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
        for seat in humans:
            self.outbox.put(Announcement(
                table_id=live.id, channel=live.row.channel,
                text=t(lang, "reminder", name=seat.name, seconds=seconds),
                mentions=[seat.user_id] if seat.user_id else [], version=version,
                kind="reminder"))
        try:
            await self.repo.mark_reminded(live.id, version)
        except StorageError:
            log.warning("table %s: reminder not marked", live.id)

    def _remaining(self, live: Live) -> float:
        jobs = [j for j in self.scheduler._heap
                if j.table_id == live.id and j.kind == "expire" and j.version == live.row.version]
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
            for _ in range(MAX_AFK_MOVES):
                if live.game.outcome(live.state) is not None:
                    break
                if seat_no not in live.game.to_act(live.state):
                    break
                try:
                    events += await self._bot_commit(live, seat_no, "afk")
                except VersionConflict:
                    await self._reload(live)
                    return
                except StorageError:
                    self.scheduler.at(self.clock.now() + 5, "expire", live.id, live.row.version)
                    return
            strikes = seat.afk_strikes + 1
            if strikes >= self.settings.afk_strikes:
                new = SeatRow(seat=seat_no, user_id=None, name=self._bot_name(live, seat_no),
                              is_bot=True, former_user_id=seat.user_id)
            else:
                new = SeatRow(seat=seat_no, user_id=seat.user_id, name=seat.name,
                              afk_strikes=strikes)
            await self._save_seat(live, new)
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

    # --- showing --------------------------------------------------------------------------

    async def _show_table(self, live: Live) -> None:
        lang = await self.channel_lang(live.row.channel)
        rendering = present.table(live, lang)
        self.outbox.put(TableMessage(table_id=live.id, channel=live.row.channel,
                                     rendering=rendering))

    async def _show_hand(self, live: Live, seat_no: int) -> None:
        seat = live.seats[seat_no]
        if seat.is_bot or seat.user_id is None or live.state is None:
            return
        lang = await self.lang_of(seat.user_id, live.row.channel)
        self.outbox.put(HandMessage(table_id=live.id, channel=live.row.channel, seat=seat_no,
                                    user_id=seat.user_id,
                                    rendering=present.hand(live, seat_no, lang)))

    async def _announce(self, live: Live, key: str, /, **params: Any) -> None:
        lang = await self.channel_lang(live.row.channel)
        await self._announce_lines(live, [t(lang, key, **params)])

    async def _announce_lines(self, live: Live, lines: list[str],
                              buttons: list[list[Button]] | None = None,
                              kind: str = "info") -> None:
        if lines:
            self.outbox.put(Announcement(table_id=live.id, channel=live.row.channel,
                                         text="\n".join(lines), buttons=buttons or [],
                                         version=live.row.version, kind=kind))

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

    async def show(self, actor: Actor, channel: str) -> Reply:
        """`/table`: post the table again (a new message) and remember it as the one to edit."""
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        with contextlib.suppress(StorageError):
            await self.repo.delete_message(live.id, "table")
        self.outbox.forget(live.id)
        await self._show_table(live)
        return Reply(present.table(live, await self.lang_of(actor.user_id, channel)).text,
                     table_id=live.id)

    async def scores(self, actor: Actor, channel: str) -> Reply:
        live = await self._in_channel(channel)
        lang = await self.lang_of(actor.user_id, channel)
        if live is None or live.state is None:
            return Reply(t(lang, "no_game"), ok=False)
        return Reply("\n".join(present.score_lines(live, lang)), table_id=live.id)

    async def stats(self, actor: Actor, channel: str | None = None) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        rows = await self.repo.stats(self.platform, actor.user_id)
        if not rows:
            return Reply(t(lang, "stats_none"))
        lines = [t(lang, "stats_title", name=actor.name)]
        for row in rows:
            name = games.get(row.game).NAME if row.game in games.ids() else row.game
            lines.append(t(lang, "stats_line", game=name, played=row.played, wins=row.wins,
                           rank=f"{row.average_rank:.1f}"))
        return Reply("\n".join(lines))

    async def _rematch(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        if live.row.status != FINISHED:
            return await self._refuse(actor, channel, "out_of_date")
        if live.seat_of(actor.user_id) is None and not any(
                s.former_user_id == actor.user_id for s in live.seats):
            return await self._refuse(actor, channel, "not_seated")
        seats = []
        for s in live.seats:
            owner = s.user_id if not s.is_bot else s.former_user_id
            if owner:
                seats.append(SeatRow(seat=s.seat, user_id=owner,
                                     name=s.name if not s.is_bot else owner))
            else:
                seats.append(SeatRow(seat=s.seat, user_id=None, name=s.name, is_bot=True))
        for s in seats:
            if s.user_id and s.name == s.user_id:
                s.name = next((r.name for r in await self.repo.results(live.id)
                               if r.user_id == s.user_id and not r.is_bot), s.user_id)
        try:
            row = await self.repo.create_table(
                platform=self.platform, channel=channel, game=live.row.game,
                options=live.row.options,
                settings={k: v for k, v in live.row.settings.items() if k != "takeovers"},
                seed=self._seeds(), host=actor.user_id, seats=seats)
        except TableExists:
            return await self._refuse(actor, channel, "table_exists_short")
        except StorageError:
            return await self._refuse(actor, channel, "storage_failed")
        new = await self._load(row.id)
        assert new is not None
        return await self._start(new, Actor(actor.user_id, actor.name, is_admin=True))

    # --- platform events ------------------------------------------------------------------

    async def _channel_gone(self, table_id: int) -> None:
        """The channel vanished or the bot lost access: close the table, keep its state."""
        log.warning("table %s: channel unreachable; closing it", table_id)
        async with self._lock(table_id):
            await self._set_status(table_id, CLOSED)
            try:
                await self.repo.clear_deadline(table_id)
            except StorageError:
                log.exception("table %s: deadline not cleared", table_id)

    async def _unreachable(self, table_id: int, user_id: str) -> None:
        """A player blocked the bot: say so in the channel once; deadlines keep the game going."""
        live = await self._load(table_id)
        if live is None:
            return
        seat = live.seat_of(user_id)
        warned = set(live.row.settings.get("unreachable", []))
        if seat is None or user_id in warned:
            return
        warned.add(user_id)
        await self._save_lobby(live, settings={**live.row.settings,
                                               "unreachable": sorted(warned)})
        await self._announce(live, "cannot_reach", name=seat.name)

    async def join_table(self, actor: Actor, table_id: int) -> Reply:
        """Join a table named by id (a deep link from a private chat), if it is still open."""
        live = await self._load(table_id)
        if live is None or live.row.platform != self.platform or live.row.status not in (
                LOBBY, PLAYING):
            return await self._refuse(actor, None, "no_table")
        return await self._join(live, actor)

    async def chat_closed(self, chat: str) -> None:
        """The bot left a whole chat: close its table and those of its topics/threads."""
        for row in await self.repo.unfinished_tables():
            if row.platform == self.platform and (row.channel == chat
                                                  or row.channel.startswith(f"{chat}:")):
                await self._channel_gone(row.id)

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
