"""What one table does when it hears of something other than a move: its channel lost
or back (`channel_gone`, `revive`), a player the bot cannot reach, a person who asked to
be forgotten (/forgetme), a fault that means it can never go on (`close_broken`).

The table's methods of the same names call these on it: `Tables` hands it what the
platform and the privacy requests tell, and a table finds out for itself that it is
broken.
"""

import contextlib
import logging
from collections.abc import Awaitable
from typing import Protocol

from bot import changes, lobby
from bot.deliveries import Announcement
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.lobby import LobbyTable
from bot.turns import Turns
from db.repository import (
    CLOSED,
    LOBBY,
    PLAYING,
    Deadline,
    SeatRow,
    StorageError,
    TableRow,
    settings_without,
)

log = logging.getLogger(__name__)


class Reached(LobbyTable, Protocol):
    """The table as its news reaches it (`bot.table.Table`): a lobby's table (the news
    changes its status and settings as the lobby does), with its turns and what a
    restart or a take-over left on it."""

    stale: bool
    resuming: TableRow | None
    resuming_seats: list[SeatRow] | None
    deadline_resumed: Deadline | None

    @property
    def turns(self) -> Turns: ...

    def leave(self, actor: Actor, *, forgotten: bool = False) -> Awaitable[Reply]: ...


async def close_broken(table: Reached, key: str) -> None:
    """Close a table that can never go on (a result the database cannot hold, a log
    that no longer replays), say so in its channel, and free the channel at once.

    Its rows stay for a developer to look at; no job of it runs again, so nothing
    retries what cannot succeed.
    """
    table.host.scheduler.drop(table.id)
    live = table.kept
    table.host.outbox.forget(table.id)
    try:
        row = await table.host.repo.get_table(table.id)
        if row is None or row.status not in (LOBBY, PLAYING):
            return
        row = await table.host.repo.update_table(
            table.id, expected_version=row.version, status=CLOSED,
            settings={**row.settings, "broken": key})
        with contextlib.suppress(StorageError):
            await table.host.repo.clear_deadline(table.id)
    except StorageError:
        log.exception("table %s: could not be closed", table.id)
        return
    table.resuming = table.resuming_seats = None
    lang = await table.host.channel_lang(row.channel)
    if live is not None:
        live.row = row  # a caller still holding it sees the table closed, as players do
        try:
            table.showing.queue_table(live, lang)
        except Exception:
            log.exception("table %s: the closed table could not be shown", table.id)
    table.host.outbox.put(Announcement(table_id=table.id, channel=row.channel, text=t(lang, key),
                                  version=row.version))


async def channel_gone(table: Reached) -> None:
    """The channel vanished or the bot lost access: close the table, keep its state.

    Often the loss is not for good (a topic closed, rights taken, the bot removed by
    mistake), so the table notes what it was (`lost`) and `revive` resumes it.
    """
    log.warning("table %s: channel unreachable; closing it", table.id)
    async with table.lock:
        live = table.kept
        try:
            row = live.row if live and not table.stale \
                else await table.host.repo.get_table(table.id)
        except StorageError:
            log.exception("table %s: not closed", table.id)
            return
        if row is None or row.status not in (LOBBY, PLAYING):
            return  # a finished table keeps its rematch button for when it is back
        await lobby.set_status(table, CLOSED, settings={**row.settings, "lost": row.status})
        if live is not None:
            live.deadline = None  # cleared below; coming back starts a fresh one
        try:
            await table.host.repo.clear_deadline(table.id)
        except StorageError:
            log.exception("table %s: deadline not cleared", table.id)


async def unreachable(table: Reached, user_id: str) -> None:
    """A player blocked the bot: say so in the channel once; deadlines keep the game going.

    The warning is written as a lobby change: when the stored table moved meanwhile,
    `LobbyMoved` leaves here unsaid, and the next hand that cannot reach them warns on
    the stored table."""
    live = await table.loading.load()
    if live is None:
        return
    async with table.lock:  # settings change only under the table lock
        seat = live.seat_of(user_id)
        warned = set(live.row.settings.get("unreachable", []))
        if seat is None or user_id in warned:
            return
        warned.add(user_id)
        await lobby.save(table, settings={**live.row.settings, "unreachable": sorted(warned)})
    # Mentioned, so the player hears of it; without deadlines the table waits for them.
    key = "cannot_reach" if live.row.settings.get("deadline") else "cannot_reach_waits"
    lang = await table.host.channel_lang(live.row.channel)
    await table.showing.announce_lines([t(lang, key, name=seat.name)], mentions=[user_id])


async def revive(table: Reached) -> Live | None:
    """Its channel is back: a table closed for losing it carries on, with a fresh
    deadline. None when it is not such a table (any more)."""
    async with table.lock:
        try:
            # Read again under the lock: two triggers at once bring a table back once.
            row = await table.host.repo.get_table(table.id)
            if row is None or row.status != CLOSED or "lost" not in row.settings:
                return None
            settings = {k: v for k, v in row.settings.items() if k != "lost"}
            row = await table.host.repo.update_table(
                table.id, expected_version=row.version, status=row.settings["lost"],
                settings=settings)
            changes.note()
        except StorageError as exc:  # a table opened there meanwhile, or a fault
            log.info("table %s could not come back: %s", table.id, exc)
            return None
        # Its version did not change: the jobs it had (a reminder, an expiry) would look
        # current again, though its deadline was cleared on closing.
        table.host.scheduler.drop(table.id)
        table.deadline_resumed = None
        table.host.outbox.revive(table.id)
        # A closed table takes no move, so a copy kept here only needs its row: keeping
        # it (not loading a second copy) means a press racing with this sees the same.
        live = table.kept
        if live is not None:
            live.row = row
        else:
            live = await table.loading.load()
        if live is None:
            return None
        log.info("table %s: channel %s is back; resuming", table.id, live.row.channel)
        showing = table.showing
        await showing.show_table()  # these only queue deliveries and jobs
        if live.row.status == PLAYING:
            await showing.announce("table_back")
            for seat in live.seats:  # hands queued when the channel went were dropped
                await showing.show_hand(seat.seat)
            table.host.scheduler.at(table.host.clock.now(), "resume", table.id, live.row.version)
            await table.turns.ping(live.game.to_act(live.state))
    return live


async def give_up_seat(table: Reached, actor: Actor) -> None:
    """Leave as /leave does (for /forgetme): out of a lobby, or a bot takes the seat."""
    live = await table.loading.load()
    if live is None or live.row.status not in (LOBBY, PLAYING):
        return
    waiting = any(w[0] == actor.user_id for w in live.row.settings.get("takeovers", []))
    if live.seat_of(actor.user_id) is not None or waiting:
        reply = await table.leave(actor, forgotten=True)
        if not reply.ok:
            raise StorageError(f"table {table.id}: seat not given up ({reply.text})")


def names_person(table: Reached, user_id: str) -> bool:
    """This process's copy names the person: a seat (or one a bot took over from them),
    as host, in the settings' lists, or in the lines of the last moves."""
    live = table.kept
    return live is not None and (
        live.row.host == user_id
        or any(user_id in (s.user_id, s.former_user_id) for s in live.seats)
        or settings_without(live.row.settings, user_id) is not None
        or any(user_id in told.who for told in live.told))


async def forgotten(table: Reached, user_id: str) -> None:
    """After /forgetme (the caller holds the lock): the person's name in the last
    moves' lines replaced by the words the database now has for them, and the copy
    read again, so that it names them no more. The driver takes it in as a change made
    elsewhere (it may have been behind: moves, her seat given to a bot, which it shows
    and arranges) and draws the table again: nothing it shows names them from now on."""
    live = table.kept
    if live is None:
        return
    former = t(await table.host.channel_lang(live.row.channel), "former_player")
    for told in live.told:
        told.forget(user_id, former)
    try:
        if not table.host.drives(table.id):
            await table.loading.read_again()
            return
        await table.loading.catch_up_held()
    except StorageError:
        table.stale = True  # read again on next use
        return
    if live.row.status in (LOBBY, PLAYING):
        await table.showing.show_table()
