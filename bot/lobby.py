"""The lobby side of a table: opening, seats, hosts, starting, cancelling, rematches.

A mixin of `bot.tables.Tables`, which owns the storage, the outbox and the table cache;
kept apart so the rules of who may sit where read in one place.
"""

import logging
from typing import Any

from bot import changes, clean, present
from bot import options as table_options
from bot.authority import MemberCheck, RightsUnknown
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.render import decode_ref
from bot.tables_base import LobbyMoved, TablesBase, answers_storage_faults, retried_when_moved
from db.repository import (
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    SeatRow,
    StorageError,
    TableExists,
    VersionConflict,
)
from engine import BadOptions, bots, games
from engine.core.options import parse_options
from engine.core.protocol import Game

log = logging.getLogger(__name__)

BOT_NAMES = ["Ada", "Boole", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper",
             "Ising", "Jacobi", "Knuth", "Lovelace"]


class Lobby(TablesBase):
    """Lobby commands of `Tables`; `TablesBase` declares what they use of it."""

    @answers_storage_faults
    async def new_game(self, actor: Actor, channel: str, game_text: str,
                       option_words: list[str] | None = None, *, title: str = "") -> Reply:
        if not (game_text or "").strip():
            lang = await self.lang_of(actor.user_id, channel)
            return Reply(present.games_overview(lang), ok=False)
        game_id = table_options.resolve_game(game_text or "")
        if game_id is None:
            return await self._refuse(actor, channel, "unknown_game",
                                      text=clean.echo(game_text or ""),
                                      games=", ".join(games.ids()))
        game = games.get(game_id)
        try:
            game_opts, table_settings = table_options.parse(option_words or [])
            parse_options(game.Options, game_opts)
        except table_options.OptionsError as exc:
            return await self._refuse(actor, channel, exc.code, **exc.params)
        except BadOptions as exc:
            return await self._bad_options(actor, channel, exc, game)
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
                    platform=self.platform, channel=channel, game=game_id, options=game_opts,
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
                return await self._refuse(actor, channel, "table_exists", game=name,
                                          status=t(lang, f"status_{status}"))
            except StorageError:
                return await self._refuse(actor, channel, "storage_failed")
        await self._adopt(row.id)
        live = await self._load(row.id)
        assert live is not None
        await self._show_table(live)
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, "lobby_opened", game=game.NAME), table_id=row.id)

    @answers_storage_faults
    @retried_when_moved
    async def set_options(self, actor: Actor, channel: str, words: list[str]) -> Reply:
        """`/options key=value …`: the host changes options before the game starts; the
        engine validates the result exactly as it did at /newgame."""
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        if not words:
            return await self._options_text(live, actor)
        async with self._lock(live.id):
            refused = await self._lobby_refusal(live, actor)
            if refused is not None:
                return refused
            try:
                game_opts, table_settings = table_options.parse(words)
                merged = {**live.row.options, **game_opts}
                parse_options(live.game.Options, merged)
            except table_options.OptionsError as exc:
                return await self._refuse(actor, channel, exc.code, **exc.params)
            except BadOptions as exc:
                return await self._bad_options(actor, channel, exc, live.game)
            try:
                live.row = await self.repo.update_table(
                    live.id, expected_version=live.row.version, options=merged,
                    settings={**live.row.settings, **table_settings},
                    expected_row=live.row)
                changes.note()
            except VersionConflict:
                await self._reload(live)
                raise LobbyMoved(live.id) from None
            except StorageError:
                return await self._refuse(actor, channel, "storage_failed")
        await self._show_table(live)
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, "options_changed", options=present.options_line(live, lang)),
                     table_id=live.id)

    async def _options_text(self, live: Live, actor: Actor) -> Reply:
        """The Options button: what this table plays with and how the host changes it."""
        lang = await self.lang_of(actor.user_id, live.row.channel)
        return Reply(t(lang, "options_now", options=present.options_line(live, lang)),
                     table_id=live.id)

    @answers_storage_faults
    async def join(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._join)

    @retried_when_moved
    async def _join(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        if actor.user_id in live.row.settings.get("kicked", []):
            return await self._refuse(actor, channel, "kicked_out")
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

    @answers_storage_faults
    async def leave(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._leave)

    @retried_when_moved
    async def _leave(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        lang = await self.lang_of(actor.user_id, channel)
        async with self._lock(live.id):
            seat = live.seat_of(actor.user_id)
            if seat is None:
                waiting = live.row.settings.get("takeovers", [])
                if any(w[0] == actor.user_id for w in waiting):
                    rest = [w for w in waiting if w[0] != actor.user_id]
                    if not await self._save_lobby(live, settings={**live.row.settings,
                                                                  "takeovers": rest}):
                        return await self._refuse(actor, channel, "storage_failed")
                    return Reply(t(lang, "left"))
                return await self._refuse(actor, channel, "not_seated")
            if live.row.status == LOBBY:
                return await self._leave_lobby(live, actor, seat, lang)
            if live.row.status != PLAYING:
                return await self._refuse(actor, channel, "no_table")
            bot = SeatRow(seat=seat.seat, user_id=None, name=self._bot_name(live, seat.seat),
                          is_bot=True, former_user_id=actor.user_id)
            seats = [bot if s.seat == seat.seat else s for s in live.seats]
            heir = next((s for s in seats if not s.is_bot), None)
            new_host = live.row.host == actor.user_id and heir is not None
            if not await self._save_lobby(live, seats=seats,
                                          host=heir.user_id if new_host and heir else None):
                return await self._refuse(actor, channel, "storage_failed")
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
            if not await self._save_lobby(live, status=CANCELLED):
                return Reply(t(lang, "storage_failed"), ok=False)
            await self._show_table(live)
            return Reply(t(lang, "left_closed"))
        seats = _without(live.seats, seat.seat)
        was_host = live.row.host == actor.user_id
        # The host left: the longest-seated human hosts from now on.
        host = (humans[0].user_id or live.row.host) if was_host else live.row.host
        if not await self._save_lobby(live, seats=seats, host=host):
            return Reply(t(lang, "storage_failed"), ok=False)
        await self._show_table(live)
        if was_host:
            await self._announce(live, "host_moved", name=humans[0].name)
        return Reply(t(lang, "left"))

    @answers_storage_faults
    async def add_bot(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._add_bot)

    @retried_when_moved
    async def _add_bot(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        async with self._lock(live.id):
            refused = await self._lobby_refusal(live, actor)
            if refused is not None:
                return refused
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

    @answers_storage_faults
    async def remove_bot(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._remove_bot)

    @retried_when_moved
    async def _remove_bot(self, live: Live, actor: Actor) -> Reply:
        channel = live.row.channel
        async with self._lock(live.id):
            refused = await self._lobby_refusal(live, actor)
            if refused is not None:
                return refused
            bots = [s for s in live.seats if s.is_bot]
            if not bots:
                return await self._refuse(actor, channel, "no_bot")
            seats = _without(live.seats, bots[-1].seat)
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

    async def _lobby_refusal(self, live: Live, actor: Actor) -> Reply | None:
        """Seats and options change only in the lobby, and only by the host or an admin."""
        if live.row.status != LOBBY:
            return await self._refuse(actor, live.row.channel, "not_in_lobby")
        if not self._may_manage(live, actor):
            return await self._refuse(actor, live.row.channel, "host_only")
        return None

    @answers_storage_faults
    async def start_game(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, self._start)

    @retried_when_moved
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
                # One message whose plural variant follows `count` (CLDR rules per language).
                return await self._refuse(actor, channel, "player_count", count=count,
                                          low=seats_range.start, high=seats_range.stop - 1)
            try:
                state = live.game.new_game(count, live.row.options, live.row.seed)
            except BadOptions as exc:
                return await self._bad_options(actor, channel, exc, live.game)
            try:
                # Dealt for these seats: stored only if they are still the stored ones.
                live.row = await self.repo.update_table(
                    live.id, expected_version=live.row.version, status=PLAYING,
                    snapshot=live.game.dump(state), reset_moves=True,
                    expected_row=live.row, expected_seats=live.seats)
                changes.note()
            except VersionConflict:
                await self._reload(live)
                raise LobbyMoved(live.id) from None
            except StorageError:
                return await self._refuse(actor, channel, "storage_failed")
            live.state = state
            live.narration.clear()
            self._verified.add(live.id)  # its whole log was written by this process
        await self._show_table(live)
        for seat in live.seats:  # bots have no hand message: _show_hand skips them
            await self._show_hand(live, seat.seat)
        await self._after_change(live, [], notify_turn=True)
        return Reply(t(await self.lang_of(actor.user_id, channel), "started",
                       game=live.game.NAME), table_id=live.id)

    @answers_storage_faults
    async def cancel(self, actor: Actor, channel: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        async with self._lock(live.id):
            if not self._may_manage(live, actor):
                return await self._refuse(actor, channel, "host_or_admin_only")
            if not await self._set_status(live.id, CANCELLED):
                return await self._refuse(actor, channel, "storage_failed")
            live.deadline = None
            try:
                await self.repo.clear_deadline(live.id)
            except StorageError:
                # The table is cancelled; a leftover deadline of a cancelled table is inert.
                log.warning("table %s: deadline of the cancelled table not cleared", live.id)
        await self._show_table(live)
        await self._announce(live, "cancelled_by", name=actor.name)
        return Reply(t(await self.lang_of(actor.user_id, channel), "cancelled"))

    @answers_storage_faults
    @retried_when_moved
    async def kick(self, actor: Actor, channel: str, target: str) -> Reply:
        live = await self._in_channel(channel)
        if live is None:
            return await self._refuse(actor, channel, "no_table")
        async with self._lock(live.id):
            if not self._may_manage(live, actor):
                return await self._refuse(actor, channel, "host_or_admin_only")
            victim = self._find_seat(live, target)
            if victim is None:
                return await self._refuse(actor, channel, "no_such_player",
                                          name=clean.echo(target))
            if victim.user_id == actor.user_id:
                return await self._refuse(actor, channel, "cannot_kick_self")
            if live.row.status not in (LOBBY, PLAYING):
                return await self._refuse(actor, channel, "no_table")
            # A kicked player does not come back by /join, and does not keep hosting.
            kicked = sorted({*live.row.settings.get("kicked", []), victim.user_id or ""})
            heir = next((s for s in live.seats
                         if not s.is_bot and s.seat != victim.seat), None)
            host = heir.user_id if live.row.host == victim.user_id and heir else None
            if live.row.status == LOBBY:
                seats = _without(live.seats, victim.seat)
            else:
                bot = SeatRow(seat=victim.seat, user_id=None,
                              name=self._bot_name(live, victim.seat), is_bot=True)
                seats = [bot if s.seat == victim.seat else s for s in live.seats]
            if not await self._save_lobby(live, seats=seats, host=host,
                                          settings={**live.row.settings, "kicked": kicked}):
                return await self._refuse(actor, channel, "storage_failed")
        await self._announce(live, "kicked", name=victim.name)
        if host is not None and heir is not None:
            await self._announce(live, "host_moved", name=heir.name)
        if live.row.status == PLAYING:
            await self._after_change(live, [])
        else:
            await self._show_table(live)
        return Reply(t(await self.lang_of(actor.user_id, channel), "kick_done", name=victim.name))

    def _find_seat(self, live: Live, target: str) -> SeatRow | None:
        """By user id, name (as the table shows it) or place number from 1."""
        target = target.strip().lstrip("@")
        shown = clean.name(target, fallback="")
        for seat in live.seats:
            if seat.is_bot:
                continue
            if target == seat.user_id or shown.lower() == seat.name.lower():
                return seat
        try:
            place = clean.number(target, max_digits=3)
        except clean.NumberTooLong:
            return None
        if place is not None and 1 <= place <= len(live.seats):
            seat = live.seats[place - 1]
            return None if seat.is_bot else seat
        return None

    async def _save_lobby(self, live: Live, *, seats: list[SeatRow] | None = None,
                          host: str | None = None, settings: dict[str, Any] | None = None,
                          status: str | None = None) -> bool:
        """Store a change computed from `live`, only if the stored table is still `live`.

        Raises LobbyMoved (after taking the stored table into `live`) when it is not: the
        caller's decision rested on seats or settings that are no longer there, so
        `retried_when_moved` makes it again. False: a storage fault, nothing stored.
        """
        try:
            live.row = await self.repo.update_table(
                live.id, expected_version=live.row.version, seats=seats, host=host,
                settings=settings, status=status, expected_row=live.row,
                expected_seats=live.seats)
        except VersionConflict:
            await self._reload(live)
            raise LobbyMoved(live.id) from None
        except StorageError:
            return False
        changes.note()
        if seats is not None:
            live.seats = seats
        return True

    async def _save_seat(self, live: Live, seat: SeatRow) -> bool:
        """One seat changes (a bot takes it, its player comes back): `_save_lobby`'s rules."""
        seats = [seat if s.seat == seat.seat else s for s in live.seats]
        return await self._save_lobby(live, seats=seats)

    async def _bad_options(self, actor: Actor, channel: str, exc: BadOptions, game: Game
                           ) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, "bad_options", message=present.option_problems(exc, game, lang)),
                     ok=False)

    async def _set_status(self, table_id: int, status: str, *,
                          settings: dict[str, Any] | None = None) -> bool:
        live = self._live.get(table_id)
        row = live.row if live else await self.repo.get_table(table_id)
        if row is None:
            return False
        try:
            new = await self.repo.update_table(table_id, expected_version=row.version,
                                               status=status, settings=settings)
        except StorageError:
            return False
        changes.note()
        if live is not None:
            live.row = new
        return True

    async def _rematch(self, live: Live, actor: Actor, is_member: MemberCheck | None = None
                       ) -> Reply:
        """Same options, same seats: the people still seated play again, bots the rest.

        Someone who left or whose seat a bot kept is not pulled back into a new game; they
        can take a bot's seat between rounds with /join like anyone else. Nor is someone
        the platform says has left the table's chat (`is_member`) since the game began.
        """
        channel = live.row.channel
        if live.row.status != FINISHED:
            return await self._refuse(actor, channel, "out_of_date")
        if live.seat_of(actor.user_id) is None:
            return await self._refuse(actor, channel, "not_seated")
        stays: dict[str, bool] = {}
        try:
            for seat in live.seats:
                if not seat.is_bot and seat.user_id is not None:
                    stays[seat.user_id] = is_member is None \
                        or await is_member(seat.user_id, channel)
        except RightsUnknown:
            return await self._refuse(actor, channel, "rights_unknown")
        if not stays.get(actor.user_id):
            return await self._refuse(actor, channel, "not_a_member")
        # Bots keep their seats and their names: the same table, played again; a person
        # no longer in the chat is replaced by a bot.
        seats = [SeatRow(seat=s.seat, user_id=s.user_id, name=s.name)
                 if not s.is_bot and stays.get(s.user_id or "")
                 else SeatRow(seat=s.seat, user_id=None,
                              name=s.name if s.is_bot else self._bot_name(live, s.seat),
                              is_bot=True)
                 for s in live.seats]
        per_game = {"takeovers", "kicked", "unreachable"}  # bookkeeping of the last game
        try:
            row = await self.repo.create_table(
                platform=self.platform, channel=channel, game=live.row.game,
                options=live.row.options,
                settings={k: v for k, v in live.row.settings.items() if k not in per_game},
                seed=self._seeds(), host=actor.user_id, seats=seats)
            changes.note()
        except TableExists:
            return await self._refuse(actor, channel, "table_exists_short")
        except StorageError:
            return await self._refuse(actor, channel, "storage_failed")
        await self._adopt(row.id)
        new = await self._load(row.id)
        assert new is not None
        return await self._start(new, Actor(actor.user_id, actor.name, is_admin=True))

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
            return await self._refuse(actor, None, "storage_failed")
        if decoded is None or not genuine:
            return await self._refuse(actor, None, "bad_link")
        live = await self._load(decoded[0])
        if live is None or live.row.platform != self.platform or live.row.status not in (
                LOBBY, PLAYING):
            return await self._refuse(actor, None, "no_table")
        try:
            member = await is_member(actor.user_id, live.row.channel)
        except RightsUnknown:
            return await self._refuse(actor, live.row.channel, "rights_unknown")
        if not member:
            return await self._refuse(actor, live.row.channel, "not_a_member")
        return await self._join(live, actor)


def _without(seats: list[SeatRow], seat_no: int) -> list[SeatRow]:
    """The lobby's seats less one, renumbered: seat numbers are places at the table."""
    return [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot)
            for i, s in enumerate(x for x in seats if x.seat != seat_no)]
