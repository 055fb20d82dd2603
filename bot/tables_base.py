"""What the mixins of `bot.tables.Tables` (`Lobby`, `Turns`) may use of the whole.

Each mixin calls into `Tables` and into the other mixin; declaring those attributes
and methods here lets the type checker hold every call to its real signature. Only
declarations: the methods exist for the checker alone, so at run time every call
still finds the one definition in `Tables`, `Lobby` or `Turns`.
"""

import asyncio
import contextlib
import functools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from bot import changes
from bot.clock import Clock
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.outbox import Outbox
from bot.render import Button
from bot.scheduler import Scheduler
from bot.settings import Settings
from db.repository import Deadline, Repository, SeatRow, StorageError, UserSettings

log = logging.getLogger(__name__)
P = ParamSpec("P")
S = TypeVar("S", bound="TablesBase")


class TablesBase:
    repo: Repository
    platform: str
    settings: Settings
    clock: Clock
    outbox: Outbox
    scheduler: Scheduler
    _seeds: Callable[[], int]
    _live: OrderedDict[int, Live]
    _verified: set[int]
    _deadline_resumed: dict[int, Deadline]
    _users: dict[str, UserSettings]
    _locales: dict[str, str | None]
    _redraw_due: set[int]

    if TYPE_CHECKING:
        # Defined in Tables.
        def _lock(self, table_id: int) -> asyncio.Lock: ...

        async def _load(self, table_id: int, *, check: bool = True) -> Live | None: ...

        async def _reload(self, live: Live) -> None: ...

        async def _verify(self, live: Live) -> None: ...

        def _in_background(self, work: Coroutine[Any, Any, None]) -> None: ...

        async def _adopt(self, table_id: int) -> None: ...

        async def _with_table(self, actor: Actor, channel: str,
                              handler: Callable[[Live, Actor], Awaitable[Reply]]) -> Reply: ...

        async def _in_channel(self, channel: str) -> Live | None: ...

        async def _genuine(self, table_id: int, tag: str) -> bool: ...

        async def channel_lang(self, channel: str) -> str: ...

        async def user_settings(self, user_id: str) -> UserSettings: ...

        async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...

        async def _refuse(self, actor: Actor, channel: str | None, key: str, /,
                          **params: Any) -> Reply: ...

        async def _commit(self, live: Live, seat: int, move: Any,
                          actor_kind: str) -> list[Any]: ...

        async def _after_change(self, live: Live, events: list[Any], *,
                                mover: int | None = None, notify_turn: bool = False) -> None: ...

        async def _show_table(self, live: Live, *, news: list[str] | None = None) -> None: ...

        async def _close_broken(self, table_id: int, key: str) -> None: ...

        async def _show_hand(self, live: Live, seat_no: int) -> None: ...

        async def _announce(self, live: Live, key: str, /, **params: Any) -> None: ...

        async def _announce_lines(self, live: Live, lines: list[str],
                                  buttons: list[list[Button]] | None = None,
                                  kind: str = "info", mentions: list[str] | None = None
                                  ) -> None: ...

        # Defined in Lobby, used by Turns (and _leave by Privacy).
        def _leave(self, live: Live, actor: Actor) -> Awaitable[Reply]: ...

        def _bot_name(self, live: Live, index: int) -> str: ...

        async def _save_lobby(self, live: Live, *, seats: list[SeatRow] | None = None,
                              host: str | None = None,
                              settings: dict[str, Any] | None = None) -> bool: ...

        async def _save_seat(self, live: Live, seat: SeatRow) -> bool: ...

        async def _set_status(self, table_id: int, status: str, *,
                              settings: dict[str, Any] | None = None) -> bool: ...


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


class LobbyMoved(Exception):
    """The stored table changed since this process read it (another process, or another
    copy of it here after the cache let one go); the copy now holds the stored table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} changed meanwhile")
        self.table_id = table_id


LOBBY_ATTEMPTS = 5  # each attempt follows a change that did get stored


def retried_when_moved(method: Callable[P, Awaitable[Reply]]) -> Callable[P, Awaitable[Reply]]:
    """Decide again, on the stored table, when a lobby write finds it changed.

    A join decided on a stale copy would overwrite the seat another join just took;
    refused by the conditional write, it is made again on what is stored now, so both
    seats stay. Each retry follows a change that was stored, so a few attempts only run
    out under a storm of changes; the person is then asked to try again.
    """

    @functools.wraps(method)
    async def retried(*args: P.args, **kwargs: P.kwargs) -> Reply:
        for _ in range(LOBBY_ATTEMPTS - 1):
            try:
                return await method(*args, **kwargs)
            except LobbyMoved as moved:
                log.info("%s: %s; deciding again", method.__name__, moved)
        try:
            return await method(*args, **kwargs)
        except LobbyMoved:
            tables = args[0]
            actor = next(a for a in args if isinstance(a, Actor))
            assert isinstance(tables, TablesBase)
            return await tables._refuse(actor, None, "lobby_busy")

    return retried
