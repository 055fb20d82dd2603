"""What the mixins of `bot.tables.Tables` (`Lobby`, `Turns`) may use of the whole.

Each mixin calls into `Tables` and into the other mixin; declaring those attributes
and methods here lets the type checker hold every call to its real signature. Only
declarations: the methods exist for the checker alone, so at run time every call
still finds the one definition in `Tables`, `Lobby` or `Turns`.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.clock import Clock
from bot.live import Actor, Live, Reply
from bot.outbox import Outbox
from bot.render import Button
from bot.scheduler import Scheduler
from bot.settings import Settings
from db.repository import Repository, SeatRow, UserSettings


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
    _deadline_resumed: set[int]

    if TYPE_CHECKING:
        # Defined in Tables.
        def _lock(self, table_id: int) -> asyncio.Lock: ...

        async def _load(self, table_id: int) -> Live | None: ...

        async def _reload(self, live: Live) -> None: ...

        async def _with_table(self, actor: Actor, channel: str,
                              handler: Callable[[Live, Actor], Awaitable[Reply]]) -> Reply: ...

        async def _in_channel(self, channel: str) -> Live | None: ...

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

        async def _show_hand(self, live: Live, seat_no: int) -> None: ...

        async def _announce(self, live: Live, key: str, /, **params: Any) -> None: ...

        async def _announce_lines(self, live: Live, lines: list[str],
                                  buttons: list[list[Button]] | None = None,
                                  kind: str = "info", mentions: list[str] | None = None
                                  ) -> None: ...

        # Defined in Lobby, used by Turns.
        def _bot_name(self, live: Live, index: int) -> str: ...

        async def _save_lobby(self, live: Live, *, seats: list[SeatRow] | None = None,
                              host: str | None = None,
                              settings: dict[str, Any] | None = None) -> bool: ...

        async def _save_seat(self, live: Live, seat: SeatRow) -> bool: ...

        async def _set_status(self, table_id: int, status: str, *,
                              settings: dict[str, Any] | None = None) -> bool: ...
