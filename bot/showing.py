"""What one table shows: its message, each player's hand, its announcements.

A change is stored first (`bot.table`), then shown from the state in memory. Everything
here is queued on the outbox and drawn when it is sent, so an edit merged with a later
one costs no drawing.
"""

import logging
from typing import Any, Protocol

from bot import present, ratings_commands
from bot.deliveries import Announcement, HandMessage, TableMessage
from bot.host import Host
from bot.i18n import t
from bot.live import Actor, Live, Reply, Told
from bot.render import Button
from bot.replay import replay_url
from db.repository import FINISHED, PLAYING, Repository, StorageError

log = logging.getLogger(__name__)


class Calls(Protocol):
    """The turn calls a shown change may set off (`bot.turns.Turns`, which shows through
    this module: named here by what it does, not imported)."""

    async def ping(self, to_act: list[int], *, goes_on: bool = False) -> None: ...


class Shown(Protocol):
    """The table as showing sees it (`bot.table.Table`)."""

    @property
    def id(self) -> int: ...

    @property
    def live(self) -> Live: ...

    @property
    def host(self) -> Host[Any]: ...

    @property
    def turns(self) -> Calls: ...

    # The lobby's part of a change (a round's end seats those waiting for a bot's seat).
    async def apply_takeovers(self) -> None: ...


class Showing:
    """The table's screens and voice, drawn from its state in memory."""

    __slots__ = ("_table",)

    def __init__(self, table: Shown) -> None:
        self._table = table

    async def show_change(self, events: list[Any], *, mover: int | None,
                          notify_turn: bool) -> None:
        """A stored change on the screens: the table message, the hands it changed, a
        round's summary or the final ranking, and the call of whoever is to act now."""
        table = self._table
        live = table.live
        if live.state is None:  # a lobby (or a table closed before its deal): its message
            await self.show_table()
            return
        lang = await table.host.channel_lang(live.row.channel)
        # Read before anything is queued: a game's end must reach the outbox with the
        # table's last edit, which its ranking rides in on Discord.
        rated = await rated_lines(table.host.repo, live, lang)
        news = _news(live, events, lang)
        live.told.extend(news)
        before = live.hand_sizes
        view = live.public_view()
        live.hand_sizes = list(view.get("hand_sizes", []))
        # A round's end in the game's own words (Michigan's rounds are deals).
        round_changed = any(e.get("type") == "round_started" or present.round_ended(live, e)
                            for e in events)
        if round_changed:
            await table.apply_takeovers()
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
                await table.host.repo.clear_deadline(live.id)
                live.deadline_stored = False
            # The last round and the ranking in one message, with one rematch button.
            lines = [line for summary in summaries for line in [*summary, ""]]
            await self.announce_ranking(result, lang, lines, rated=rated)
            return
        if to_act != live.last_to_act or (notify_turn and mover is None):
            await table.turns.ping(to_act)
        elif mover is not None and mover in to_act and not live.seats[mover].is_bot:
            await table.turns.ping(to_act, goes_on=True)
        live.last_to_act = list(to_act)

    async def announce_ranking(self, result: Any, lang: str, lines: list[str] | None = None,
                               *, rated: list[str] | None = None) -> None:
        """The final ranking (after `lines`, the last round's) and the people's new ratings
        (`rated`, read here if not given), with the rematch button."""
        live = self._table.live
        ranking = present.final_ranking(live, result, lang)
        ranking += await rated_lines(self._table.host.repo, live, lang) if rated is None \
            else rated
        url = replay_url(self._table.host.settings.web_url, live.ref)
        if url is not None:
            ranking.append(t(lang, "replay_link", url=url))
        await self.announce_lines([*(lines or []), *ranking],
                                  buttons=[[Button(t(lang, "btn_rematch"), "rematch",
                                                   "primary")]], kind="result")

    async def show_table(self, *, news: list[Told] | None = None) -> None:
        live = self._table.live
        self.queue_table(live, await self._table.host.channel_lang(live.row.channel), news)

    def queue_table(self, live: Live, lang: str, news: list[Told] | None = None) -> None:
        """The table message of `live` in `lang`, with nothing left to look up: a table
        just closed as broken is shown from the copy its caller still holds."""
        # Drawn when it is sent: an edit merged with a later one costs no drawing.
        self._table.host.outbox.put(TableMessage(table_id=live.id, channel=live.row.channel,
                                            draw=lambda: present.table(live, lang),
                                            news=None if news is None else list(news)))

    async def show_in_channel_lang(self) -> None:
        """The channel's language changed: its table message, and the hands of the players
        who read what the channel reads (no language of their own), are drawn in it."""
        await self.show_table()
        for seat in self._table.live.seats:
            if seat.user_id is not None \
                    and await self._table.host.own_lang(seat.user_id) is None:
                await self.show_hand(seat.seat)

    async def show_hands_of(self, user_id: str) -> None:
        """The person chose a language of their own: their hands here are drawn in it."""
        for seat in self._table.live.seats:
            if seat.user_id == user_id:
                await self.show_hand(seat.seat)

    async def show_hand(self, seat_no: int, *, to_former: bool = False,
                        kicked: str | None = None) -> None:
        """A person's hand message for that seat. A bot's seat has none, except once with
        `to_former`, when the bot has just taken it: the person who played it then sees
        their message say so instead of inviting them to play a seat they left; or once
        for `kicked`, the person just kicked from it, whose message says they were."""
        table = self._table
        live = table.live
        seat = live.seats[seat_no]
        user_id = kicked or (seat.former_user_id if to_former and seat.is_bot
                             else seat.user_id)
        if (seat.is_bot and not (to_former or kicked)) or user_id is None \
                or live.state is None:
            return
        lang = await table.host.lang_of(user_id, live.row.channel)
        every_move = table.host.every_move
        table.host.outbox.put(HandMessage(table_id=live.id, channel=live.row.channel, seat=seat_no,
                                     user_id=user_id,
                                     draw=lambda: present.hand(live, seat_no, lang,
                                                               every_move=every_move,
                                                               kicked=kicked is not None)))

    async def announce(self, key: str, /, **params: Any) -> None:
        lang = await self._table.host.channel_lang(self._table.live.row.channel)
        await self.announce_lines([t(lang, key, **params)])

    async def announce_lines(self, lines: list[str], buttons: list[list[Button]] | None = None,
                             kind: str = "info", mentions: list[str] | None = None) -> None:
        live = self._table.live
        if lines:
            self._table.host.outbox.put(Announcement(
                table_id=live.id, channel=live.row.channel, text="\n".join(lines),
                buttons=buttons or [], version=live.row.version, ref=live.ref, kind=kind,
                mentions=mentions or []))

    async def hand_for(self, actor: Actor) -> Reply:
        table = self._table
        live = table.live
        seat = live.seat_of(actor.user_id)
        if seat is None or live.state is None:
            return await table.host.refuse(actor, live.row.channel, "not_seated")
        await self.show_hand(seat.seat)
        lang = await table.host.lang_of(actor.user_id, live.row.channel)
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
        `bot.startup`) gets its final table and hands the same way; its final ranking
        message, if it was lost, is dropped too: the table message shows the final scores
        and the rematch button, and /scores gives the ranking. A table cancelled then gets
        its table message, and its hands are closed (no move button left on them).
        """
        live = self._table.live
        await self.show_table()
        if live.state is None:
            return  # a lobby, or a table closed before its deal: no hands
        for seat in live.seats:
            await self.show_hand(seat.seat)
        if live.row.status != PLAYING:
            return  # a finished game: its final ranking was announced, or is dropped
        to_act = live.game.to_act(live.state)
        live.last_to_act = list(to_act)
        await self._table.turns.ping(to_act)


async def rated_lines(repo: Repository, live: Live, lang: str) -> list[str]:
    """Below a finished game's ranking, each person's new rating ("Ana 1,512 (+14)").
    A rating that cannot be read leaves the ranking shown without it: it is stored, and
    /rating shows it."""
    if live.row.status != FINISHED or not present.is_rated(live):
        return []
    try:
        lines = await ratings_commands.game_lines(repo, live.id, live.seats, lang)
    except StorageError:
        log.warning("table %s: its ratings could not be read for its ranking", live.id)
        return []
    return ["", *lines] if lines else []


def _news(live: Live, events: list[Any], lang: str) -> list[Told]:
    """A move's lines, those of a round it started apart (`Told.new_round`). A change with
    no events (a seat taken, a redraw) tells nothing, and must not push the last moves'
    lines out of those kept."""
    cut = next((i for i, e in enumerate(events) if e.get("type") == "round_started"), None)
    if cut is None or cut == 0:
        return [present.told(live, events, lang, new_round=cut == 0)] if events else []
    return [present.told(live, events[:cut], lang),
            present.told(live, events[cut:], lang, new_round=True)]
