"""What a table needs from the rest of the bot, and nothing more.

A `Table` (bot/table.py) used to reach into `Tables` for whatever it needed, 44 times
through 16 members, so `tables` and `table` imported each other and any member of
`Tables` could be called from a move. `Host` is the list of those needs, handed to each
table: what it may call is what is written here, and this module imports neither
`bot.table` nor `bot.tables`. It is generic in the table's type so that the members that
take or give a table (`used`, `read`, `opened`) are typed without naming `Table` here.

`Tables` builds one (`Tables.host`) and hands it to every `Table` it makes; a table's
parts (loading, showing, turns, the lobby, the news) reach it as `table.host`.
"""

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.clock import Clock
from bot.live import Actor, Reply
from bot.outbox import Outbox
from bot.scheduler import Scheduler
from bot.settings import Settings
from db.repository import Repository, UserSettings
from engine import BadOptions
from engine.core.protocol import Game

T = TypeVar("T")


class Refuse(Protocol):
    """A refusal worded for the person who acted: `t(key, **params)` in their language."""

    def __call__(self, actor: Actor, channel: str | None, key: str, /,
                 **params: Any) -> Awaitable[Reply]: ...


@dataclass(frozen=True)
class Host(Generic[T]):
    # --- what every table of this process shares --------------------------------------------
    repo: Repository  # where its rows, seats, moves, deadlines and message ids are stored
    outbox: Outbox  # its table and hand messages and announcements, delivered in order
    scheduler: Scheduler  # its timers: deadlines, reminders, bot moves, redraws
    clock: Clock  # one clock for all, so tests move time for every table at once
    settings: Settings  # default deadline, bot delay, reminders, default language
    platform: str  # which platform's tables these are: rows of another are not ours
    every_move: bool  # the client shows every legal move as a button (the console)

    # --- people: what each person and channel reads (bot.people) ----------------------------
    lang_of: Callable[[str, str | None], Awaitable[str]]  # a person's private language
    channel_lang: Callable[[str], Awaitable[str]]  # public messages: the channel's /lang
    own_lang: Callable[[str], Awaitable[str | None]]  # None: their hand follows the channel
    user_settings: Callable[[str], Awaitable[UserSettings]]  # /mentions off: turn not called

    # --- words for the person who acted, as every command words them ------------------------
    refuse: Refuse
    bad_options: Callable[[Actor, str, BadOptions, Game], Awaitable[Reply]]  # which option

    # --- the tables this process holds and drives -------------------------------------------
    used: Callable[[T], None]  # its state was used: the last to be let go of
    read: Callable[[T], None]  # its state was read into memory: kept, idle ones let go
    opened: Callable[[int], Awaitable[T]]  # a rematch's new table, driven here and loaded
    drives: Callable[[int], bool]  # whether this process runs the table's timers (cluster)
    # Tables whose move log was checked against their snapshot (once each, shared by all
    # tables here), and those whose snapshot had to be rebuilt from it (start-up report).
    verified: set[int]
    repaired: list[int]

    # --- odds and ends ----------------------------------------------------------------------
    ref: Callable[[int], Awaitable[str]]  # the tagged reference its buttons and links carry
    new_seed: Callable[[], int]  # a rematch's shuffle (fixed by tests to compare runs)
    in_background: Callable[[Coroutine[Any, Any, None]], None]  # writes nobody waits on,
    # which shutdown and `settle` still wait for (a reminder marked as sent)
