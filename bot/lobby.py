"""The lobby applied to a table: a decision stored onto the table it was made on, then shown.

The rules are `bot.lobby_decisions`: each action is decided under the table's lock, on
its state as held here, into a refusal or a change. A change is written only if the
stored table is still the one it was decided on (`save`); when it is not (another
process, or another copy of it here after the cache let one go, changed it), the copy
takes in the stored table and the action is decided again (`act`). Only then is it
shown: announcements, the table message, hands, and the next turn arranged.
"""

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, Protocol

from bot import changes, present
from bot import lobby_decisions as decisions
from bot.authority import MemberCheck, RightsUnknown
from bot.host import Host
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.loading import Loading
from bot.lobby_decisions import Arrange, Change, Refusal, Said, ShowHand, ShowTable
from bot.showing import Showing
from db.repository import (
    CANCELLED,
    SeatRow,
    StorageError,
    TableExists,
    VersionConflict,
)

log = logging.getLogger(__name__)

# Each attempt after the first follows a change that did get stored: a join can lose to
# each of the other changes made at the same moment, so this many outlast a group of
# friends joining at once from two processes (five there: one lost attempt each).
LOBBY_ATTEMPTS = 8

P = ParamSpec("P")


class LobbyMoved(Exception):
    """The stored table changed since this process read it (another process, or another
    copy of it here after the cache let one go); the copy now holds the stored table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} changed meanwhile")
        self.table_id = table_id


class LobbyTable(Protocol):
    """What the lobby uses of a table (`bot.table.Table`): its state and lock, the host,
    its loading (a copy found stale) and its showing."""

    @property
    def id(self) -> int: ...

    @property
    def live(self) -> Live: ...

    @property
    def kept(self) -> Live | None: ...

    @property
    def stale(self) -> bool: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def host(self) -> Host[Any]: ...

    @property
    def loading(self) -> Loading: ...

    @property
    def showing(self) -> Showing: ...

    async def refuse(self, actor: Actor, key: str, /, **params: Any) -> Reply: ...

    async def after_change(self, events: list[Any], *, notify_turn: bool = False) -> None: ...


Decision = Callable[Concatenate[Live, Actor, P], Change | Refusal]


async def act(table: LobbyTable, actor: Actor, decision: Decision[P], /,
              *args: P.args, **kwargs: P.kwargs) -> Reply:
    """Decide on the table as held, store the change onto that table only, show it.

    A join decided on a stale copy would overwrite the seat another join just took;
    refused by the conditional write, it is decided again on what is stored now, so both
    seats stay. Each retry follows a change that was stored, so a few attempts only run
    out under a storm of changes; the person is then asked to try again.
    """
    for _ in range(LOBBY_ATTEMPTS):
        try:
            async with table.lock:
                decided = decision(table.live, actor, *args, **kwargs)
                if isinstance(decided, Change) and not await store(table, decided):
                    return await table.refuse(actor, "storage_failed")
        except LobbyMoved as moved:
            log.info("%s: %s; deciding again", decision.__name__, moved)
            continue
        if isinstance(decided, Refusal):
            return await refusal(table, actor, decided)
        await show(table, decided)
        return await answer(table, actor, decided)
    return await table.refuse(actor, "lobby_busy")


async def refusal(table: LobbyTable, actor: Actor, refused: Refusal) -> Reply:
    live = table.live
    if refused.problems is not None:
        return await table.host.bad_options(actor, live.row.channel, refused.problems,
                                            live.game)
    return await table.refuse(actor, refused.key, **refused.params)


async def answer(table: LobbyTable, actor: Actor, change: Change) -> Reply:
    live = table.live
    lang = await table.host.lang_of(actor.user_id, live.row.channel)
    params = dict(change.answer.params)
    if change.options is not None:
        params["options"] = present.options_line(live, lang)
    return Reply(t(lang, change.answer.key, **params), table_id=live.id)


async def show(table: LobbyTable, change: Change) -> None:
    for step in change.then:
        match step:
            case Said(key=key, params=params):
                await table.showing.announce(key, **params)
            case ShowTable():
                await table.showing.show_table()
            case ShowHand(seat=seat, to_former=to_former, kicked=kicked):
                await table.showing.show_hand(seat, to_former=to_former, kicked=kicked)
            case Arrange(notify_turn=notify_turn):
                await table.after_change([], notify_turn=notify_turn)


async def store(table: LobbyTable, change: Change) -> bool:
    """Write a change onto the table it was decided on (`save`'s rules); a started game
    becomes the state here, a cancelled one keeps no deadline."""
    if not change.writes:
        return True
    live, dealt = table.live, change.dealt
    if not await save(table, seats=change.seats, host=change.host, settings=change.settings,
                      status=change.status, options=change.options,
                      snapshot=None if dealt is None else live.game.dump(dealt)):
        return False
    if dealt is not None:
        live.state = dealt
        live.told.clear()
        table.host.verified.add(live.id)  # its whole log was written by this process
    if change.status == CANCELLED:
        live.deadline = None
        try:
            await table.host.repo.clear_deadline(live.id)
        except StorageError:
            # The table is cancelled; a leftover deadline of a cancelled table is inert.
            log.warning("table %s: deadline of the cancelled table not cleared", live.id)
    return True


async def save(table: LobbyTable, *, seats: list[SeatRow] | None = None,
               host: str | None = None, settings: dict[str, Any] | None = None,
               status: str | None = None, options: dict[str, Any] | None = None,
               snapshot: str | None = None) -> bool:
    """Store a change computed from its state, only if the stored table is still that.

    Raises LobbyMoved (after taking the stored table in) when it is not: the caller's
    decision rested on seats or settings that are no longer there, so it is to be made
    again. False: a storage fault, nothing stored. A `snapshot` starts the game (its
    deal is for these very seats): the move log starts again from it.
    """
    live = table.live
    try:
        live.row = await table.host.repo.update_table(
            live.id, expected_version=live.row.version, seats=seats, host=host,
            settings=settings, status=status, options=options, snapshot=snapshot,
            reset_moves=snapshot is not None, expected_row=live.row,
            expected_seats=live.seats)
    except VersionConflict:
        await table.loading.reload()
        raise LobbyMoved(live.id) from None
    except StorageError:
        return False
    changes.note()
    if seats is not None:
        live.seats = seats
    return True


async def save_seat(table: LobbyTable, seat: SeatRow) -> bool:
    """One seat changes (a bot takes it, its player comes back): `save`'s rules."""
    return await save(table, seats=decisions.replaced(table.live.seats, seat))


async def set_status(table: LobbyTable, status: str, *,
                     settings: dict[str, Any] | None = None) -> bool:
    """A status the table takes whatever its lobby holds (its channel lost, say)."""
    live = table.kept
    row = live.row if live and not table.stale else await table.host.repo.get_table(table.id)
    if row is None:
        return False
    try:
        new = await table.host.repo.update_table(table.id, expected_version=row.version,
                                            status=status, settings=settings)
    except StorageError:
        return False
    changes.note()
    if live is not None:
        live.row = new
    return True


async def options_text(table: LobbyTable, actor: Actor) -> Reply:
    """The Options button: what this table plays with and how the host changes it."""
    live = table.live
    lang = await table.host.lang_of(actor.user_id, live.row.channel)
    return Reply(t(lang, "options_now", options=present.options_line(live, lang)),
                 table_id=live.id)


async def rematch(table: LobbyTable, actor: Actor, is_member: MemberCheck | None = None
                  ) -> Reply:
    """The finished game again, at a new table (`lobby_decisions.rematch`); the platform
    says who is still in the table's chat (`is_member`), once the rest allows it."""
    live = table.live
    channel = live.row.channel
    early = decisions.rematch_refusal(live, actor)
    if early is not None:
        return await refusal(table, actor, early)
    stays: dict[str, bool] = {}
    try:
        for seat in live.seats:
            if not seat.is_bot and seat.user_id is not None:
                stays[seat.user_id] = is_member is None \
                    or await is_member(seat.user_id, channel)
    except RightsUnknown:
        return await table.refuse(actor, "rights_unknown")
    decided = decisions.rematch(live, actor, stays)
    if isinstance(decided, Refusal):
        return await refusal(table, actor, decided)
    try:
        # The same group's game again: it is rated where the first one was.
        community = await table.host.repo.table_community(live.id)
        row = await table.host.repo.create_table(
            platform=table.host.platform, channel=channel, game=live.row.game,
            options=decided.options, settings=decided.settings,
            seed=table.host.new_seed(), host=actor.user_id, seats=decided.seats,
            community=community)
        changes.note()
    except TableExists:
        return await table.refuse(actor, "table_exists_short")
    except StorageError:
        return await table.refuse(actor, "storage_failed")
    new = await table.host.opened(row.id)
    return await act(new, Actor(actor.user_id, actor.name, is_admin=True), decisions.start)
