"""The one async storage interface `bot/` talks to.

SQLite (aiosqlite) is the embedded default; a PostgreSQL implementation of the same
interface is the scale-out path, so nothing here may assume SQLite. All SQL lives in
the implementations.
"""

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from db.ratings import RatedGame, Ratings

LOBBY, PLAYING, FINISHED, CANCELLED, CLOSED = "lobby", "playing", "finished", "cancelled", "closed"
OPEN_STATUSES = (LOBBY, PLAYING)


class StorageError(Exception):
    """The database refused or failed a write; nothing of that write was kept."""


class Unreachable(StorageError):
    """The database cannot be reached now (its server restarts, the network is cut):
    unlike a refusal, the same call succeeds once it is back, so what waits on it (a
    delivery) waits rather than gives up."""


class Unstorable(StorageError):
    """The database can never store this write (a number past 64 bits, text it cannot
    encode): unlike a passing fault, trying again cannot help."""


class VersionConflict(StorageError):
    """The table moved on: the move's `seq` is not `version + 1` (another press won)."""


class TableNotFound(StorageError):
    """No table has this id."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id


class TableExists(StorageError):
    """The channel already has an open (lobby or playing) table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel already has open table {table_id}")
        self.table_id = table_id


@dataclass
class TableRow:
    id: int
    platform: str  # "console", "telegram", "discord"
    channel: str  # the platform's key for the channel/thread/topic
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]  # table settings owned by bot/ (deadline, bot delay, ...)
    seed: int
    status: str
    host: str  # user key of the host
    version: int  # number of moves applied; the next move's seq is version + 1
    snapshot: str | None  # engine dump after `version` moves; None in the lobby
    created_at: float
    updated_at: float


def lobby_of(row: TableRow) -> tuple[Any, ...]:
    """What a lobby write depends on, besides the seats: `update_table(expected_row=…)`
    refuses when any of it changed since the caller read it."""
    return (row.status, row.host, row.options, row.settings, row.version, row.game)


@dataclass
class SeatRow:
    seat: int
    user_id: str | None  # None for a bot seat that nobody owns
    name: str
    is_bot: bool = False
    afk_strikes: int = 0  # consecutive expired deadlines
    # The human who sat here before a bot took over (reclaim with /join); None otherwise.
    former_user_id: str | None = None


@dataclass
class MoveRow:
    seq: int
    seat: int
    move: str  # canonical notation, `str(move)`; replay is `parse_move` + `apply`
    actor: str  # "player", "bot" or "afk"
    created_at: float


@dataclass
class MessageRef:
    key: str  # "table", "lobby", "hand:<seat>", ...
    chat: str
    message_id: str
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. interaction token + expiry


@dataclass
class Deadline:
    table_id: int
    seat: int
    version: int  # the table version the deadline was set for; stale if the table moved on
    due_at: float
    remind_at: float | None
    reminded: bool = False


@dataclass
class UserSettings:
    lang: str | None = None  # None: follow the channel
    mentions: bool = True
    locale: str | None = None  # the app's language as the platform last said, if we speak it


@dataclass
class ResultRow:
    seat: int
    user_id: str | None
    name: str
    is_bot: bool
    score: int
    rank: int


@dataclass
class GameStats:
    game: str
    played: int
    wins: int  # first places, ties included
    average_rank: float


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards a process holds gateway connections for: Discord sends a guild's
    events only to shard `(guild_id >> 22) % count`."""

    count: int
    ids: tuple[int, ...]

    def holds(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


# How a worker stands to one of the open tables it drives (`Census.mine`).
HOME = "home"  # its channel's guild is on this worker's shards
ASTRAY = "astray"  # its guild is on another live worker's shards: to be handed back
SHARED = "shared"  # no live worker is home for it (Telegram, or a shard nobody holds)


@dataclass(frozen=True, slots=True)
class Census:
    shared: int  # open tables of the platform no live worker is home for
    workers: int  # live workers of the platform
    mine: dict[int, str]  # the open tables this worker drives: HOME, ASTRAY or SHARED


class Cluster(ABC):
    """Which process drives which table, when several processes share one database.

    A process joins as a worker; it is alive for the others exactly while the database
    says so (for PostgreSQL, while its session holds its advisory lock: the lock goes with
    the connection when the process dies). Each open table has at most one driver, the
    worker that runs its timers and edits its messages; a table whose driver is gone is
    claimed by another. Any worker may change any table (the version guards every
    write) and then tells the table's driver, which shows the change.

    A worker may be *home* for some tables: a sharded Discord process for the tables of
    the guilds on its shards (their presses reach it first). Such tables go to their home
    worker while it lives; the others (and those whose home is dead) are shared evenly.
    """

    worker: int | None  # this process's worker id once joined

    @abstractmethod
    async def join(self, name: str, on_notice: Callable[[str], None],
                   on_lost: Callable[[], None], *, platform: str | None = None,
                   shards: Shards | None = None) -> int:
        """Register and stay alive; `on_notice` gets what other workers send this one,
        `on_lost` is called if the database connection that keeps it alive drops (its
        tables may then be claimed by others: it must stop driving them). `platform` and
        `shards` say what it serves and is home for."""

    @abstractmethod
    async def leave(self) -> None:
        """Stop being a worker: its tables go to the others at once."""

    @abstractmethod
    async def census(self, platform: str) -> Census:
        """The platform's open tables and live workers, as this worker's share needs."""

    @abstractmethod
    async def claim(self, platform: str, limit: int, *, home: bool = False
                    ) -> list[tuple[int, bool]]:
        """Drive up to `limit` open tables of `platform` that have no live driver: with
        `home`, those this worker is home for; without, those no live worker is home for.
        Each claimed table with whether its driver died (its screens may be behind)."""

    @abstractmethod
    async def adopt(self, table_id: int) -> bool:
        """Drive `table_id` unless a live worker does (a table this worker just made)."""

    @abstractmethod
    async def release(self, table_ids: list[int]) -> None:
        """Stop driving these tables, for other workers to claim."""

    @abstractmethod
    async def tell_driver(self, table_id: int, notice: str) -> bool:
        """Send `notice` to the table's live driver; False when it has none."""

    @abstractmethod
    async def tell_workers(self, platform: str, notice: str) -> int:
        """Send `notice` to every other live worker of `platform`; how many it was sent to."""

    @abstractmethod
    async def tell_worker(self, worker: int, notice: str) -> bool:
        """Send `notice` to one worker (an answer); False when it is gone."""

    @abstractmethod
    async def note_home(self, platform: str, channel: str, home: int) -> None:
        """Remember the guild `home` of a channel (its tables' home is that guild's shard)."""


class Repository(Ratings, ABC):
    """Every method is atomic: it commits as a whole or raises and changes nothing."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending numbered migrations."""

    @abstractmethod
    async def close(self) -> None: ...

    def cluster(self) -> Cluster | None:
        """The coordination of several processes on this storage; None where only one
        process can use it (SQLite), which then drives every table itself."""
        return None

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # tables
    @abstractmethod
    async def create_table(
        self, *, platform: str, channel: str, game: str, options: dict[str, Any],
        settings: dict[str, Any], seed: int, host: str, seats: list[SeatRow],
        community: str | None = None,
    ) -> TableRow:
        """Raises TableExists when the channel has an open table. `community` (a Telegram
        chat, a Discord server, the console: `<platform>:<id>`) is what its games are
        rated in; a table without one is not rated."""

    @abstractmethod
    async def get_table(self, table_id: int) -> TableRow | None: ...

    @abstractmethod
    async def open_table_in(self, platform: str, channel: str) -> TableRow | None: ...

    @abstractmethod
    async def update_table(
        self, table_id: int, *, expected_version: int, status: str | None = None,
        options: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
        host: str | None = None, seats: list[SeatRow] | None = None,
        snapshot: str | None = None, reset_moves: bool = False,
        expected_row: TableRow | None = None, expected_seats: list[SeatRow] | None = None,
    ) -> TableRow:
        """Lobby edits and status changes; bumps `updated_at`.

        Guarded like a move: raises VersionConflict unless the stored version equals
        `expected_version`. `seats`, when given, replaces every seat row. `reset_moves`
        (starting a game) deletes the move log and sets version 0 with `snapshot`.

        Lobby changes (joins, leaves, bots, kicks, options, start) are computed from the
        table as the caller last read it, which another process, or a second copy after
        the cache let the first go, may have changed since: with `expected_row` and
        `expected_seats` the write also raises VersionConflict unless `lobby_of` the stored
        row and the stored seats still equal them, checked under the write's own lock.
        """

    @abstractmethod
    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> list[int]:
        """A chat got a new id (Telegram upgrades a group to a supergroup): its open tables,
        and those of its topics (`<chat>:<topic>`), follow to `new_chat`. Their stored table
        message refers to the old chat and is forgotten. Returns the moved tables' ids."""

    @abstractmethod
    async def newest_tables_in(self, platform: str, channel: str, *,
                               with_topics: bool = False) -> list[TableRow]:
        """The newest table of a channel (and, `with_topics`, of each `<channel>:<topic>`),
        whatever its status: one closed for losing its channel comes back only if no
        table was opened there since."""

    @abstractmethod
    async def unfinished_tables(self) -> list[TableRow]:
        """Every table in the lobby or playing, oldest first, for resuming at start-up."""

    @abstractmethod
    async def newest_change(self) -> float | None:
        """When any table last changed (`updated_at`), None without tables: at start-up,
        the moment the previous process stopped storing, however long ago that was."""

    @abstractmethod
    async def just_ended_tables(self, window: float) -> list[TableRow]:
        """Tables finished or cancelled at most `window` seconds before the newest change of
        any table:
        those whose last deliveries a stopped process may not have made, however long it
        stayed down. One scan, at start-up only (no index, so no cost on every move)."""

    # seats
    @abstractmethod
    async def get_seats(self, table_id: int) -> list[SeatRow]: ...

    @abstractmethod
    async def open_tables_seats(self) -> dict[int, list[SeatRow]]:
        """The seats of every lobby and playing table, by table: read once at start-up
        instead of once per table."""

    @abstractmethod
    async def playing_tables_of(self, platform: str, user_id: str) -> list[int]:
        """The ids of `platform`'s tables in play (not lobbies, not over) where the user
        holds a seat, oldest first: those with a hand of theirs to redraw."""

    @abstractmethod
    async def update_seat(self, table_id: int, seat: SeatRow) -> None: ...

    # moves
    @abstractmethod
    async def commit_move(
        self, table_id: int, *, seq: int, seat: int, move: str, actor: str, snapshot: str,
        status: str = PLAYING, results: list[ResultRow] | None = None,
        deadline: Deadline | None = None, clear_deadline: bool = False,
        expected_updated_at: float | None = None, rating: RatedGame | None = None,
    ) -> TableRow:
        """Append move `seq` and store `snapshot` in one transaction.

        With `results` and `rating`, the game is also logged for ratings and the ratings
        updated in that transaction (`db.store_ratings.rate_game`).

        With `expected_updated_at`, also VersionConflict when the table changed otherwise
        since (a seat or setting: these do not move the version), so a move decided on
        seats that are no longer there (a player who left through another process) is
        refused and decided again.

        Raises VersionConflict unless the table's version is `seq - 1`. With `results`
        the game's final results are stored in the same transaction (status finished).
        The next turn's `deadline` replaces the table's, or `clear_deadline` removes it,
        in that transaction too: a person's move costs one durable write, not two.

        A commit whose answer was lost (the SQLite writer process died, the PostgreSQL
        connection dropped, after COMMIT) is read back: when this very move is stored, the
        row is returned as the commit would have; StorageError means it is not stored (or,
        the store unreadable too, that this could not be told).
        """

    @abstractmethod
    async def moves(self, table_id: int, *, after: int = 0) -> list[MoveRow]:
        """The table's move log in order; with `after`, only the moves past that seq."""

    # platform message ids
    @abstractmethod
    async def set_message(self, table_id: int, ref: MessageRef) -> None: ...

    @abstractmethod
    async def messages(self, table_id: int) -> dict[str, MessageRef]: ...

    @abstractmethod
    async def delete_message(self, table_id: int, key: str) -> None: ...

    # deadlines
    @abstractmethod
    async def set_deadline(self, deadline: Deadline) -> None:
        """One deadline per table: replaces the previous one."""

    @abstractmethod
    async def set_deadlines(self, deadlines: list[Deadline]) -> None:
        """Several tables' deadlines in one transaction (a restart moving past-due ones)."""

    @abstractmethod
    async def clear_deadline(self, table_id: int) -> None: ...

    @abstractmethod
    async def deadlines(self, table_id: int | None = None) -> list[Deadline]:
        """Every open table's deadline, or only `table_id`'s."""

    @abstractmethod
    async def mark_reminded(self, table_id: int, version: int) -> None: ...

    # people and places
    @abstractmethod
    async def user_settings(self, platform: str, user_id: str) -> UserSettings: ...

    @abstractmethod
    async def set_user_settings(
        self, platform: str, user_id: str, settings: UserSettings
    ) -> None: ...

    @abstractmethod
    async def set_user_locale(self, platform: str, user_id: str, locale: str | None) -> None:
        """Apart from `set_user_settings`, so a locale noticed in passing never overwrites a
        /lang or /mentions choice made at the same moment."""

    @abstractmethod
    async def channel_lang(self, platform: str, channel: str) -> str | None: ...

    @abstractmethod
    async def channel_langs(self, platform: str, channels: list[str]) -> dict[str, str]:
        """The languages set for any of `channels`, at once (a restart's thousands)."""

    @abstractmethod
    async def set_channel_lang(self, platform: str, channel: str, lang: str) -> None: ...

    # secrets
    @abstractmethod
    async def secret(self, name: str, new_value: str) -> str:
        """The stored secret `name`; stored as `new_value` if there is none yet. Two
        processes starting together both get the value that was stored first."""

    # results
    @abstractmethod
    async def results(self, table_id: int) -> list[ResultRow]: ...

    @abstractmethod
    async def stats(self, platform: str, user_id: str) -> list[GameStats]: ...

    # service: health, metrics, retention
    @abstractmethod
    async def ping(self) -> None:
        """Raise StorageError unless the database answers a trivial query (for /healthz)."""

    @abstractmethod
    async def table_counts(self) -> dict[tuple[str, str], int]:
        """How many tables there are per (game, status), for /metrics."""

    @abstractmethod
    async def delete_tables_before(self, before: float | None) -> int:
        """The retention sweep: delete what can never come back, with its seats, moves,
        messages and results; count it. Always: closed tables whose channel has a newer
        table (only a channel's newest comes back). With `before` (a UNIX time, from
        RETENTION_DAYS), also finished and cancelled tables last changed before it. Open
        tables stay, and so does a channel's newest closed one: it may come back when its
        channel does. SQLite keeps no copy of what was deleted (as `forget_user`)."""

    @abstractmethod
    async def spend_login(self, key: str, until: float, now: float) -> bool:
        """Mark a single-use web sign-in (`key`: a launch's hash, a link's nonce) used until
        `until`; False if any process marked it already. Those past their time at `now`
        (the caller's clock, the one `until` is of) go."""

    # privacy: /mydata and /forgetme
    @abstractmethod
    async def user_tables(self, platform: str, user_id: str) -> list[TableRow]:
        """Every table of `platform` that names the user: a seat (theirs, or one a bot
        took over from them), a result, as host, or in the table's settings (waiting to
        take a seat over, kicked, unreachable). Oldest first."""

    @abstractmethod
    async def forget_user(self, platform: str, user_id: str, *, names: dict[int, str],
                          default_name: str) -> None:
        """Remove what names the user, in one transaction, keeping every score.

        Their seats and results keep their scores and places under `names[table_id]` (or
        `default_name`) with no user id; a seat of theirs becomes a bot's; a bot seat they
        could have claimed back no longer remembers them; tables they hosted have no host;
        their id leaves tables' settings (a kicked list too); their hand messages are
        forgotten; their settings are deleted. Every open table that named them counts as
        changed (`updated_at`): a process whose copy of it still names them cannot store a
        move from that copy (`commit_move` expects the `updated_at` it read), so it reads
        the table again rather than write their id back. SQLite keeps no
        copy of what was removed (secure_delete, then a WAL checkpoint); PostgreSQL's old
        row versions last until its vacuum reuses their space.
        """


# Settings keys of a table (owned by bot/) that hold user ids, and whether each is
# [user_id, name] pairs or plain ids. "kicked" keeps a kicked player out until the game
# ends; a person who is forgotten leaves it at once too (nothing may keep their id, not
# even as someone barred): they may /join again, and the host kick them again.
USER_LISTS = {"takeovers": "pairs", "unreachable": "ids", "kicked": "ids"}


def settings_without(settings: dict[str, Any], user_id: str) -> dict[str, Any] | None:
    """A table's settings with `user_id` taken out, or None when it was not in them."""
    changed = dict(settings)
    for key, kind in USER_LISTS.items():
        values = settings.get(key)
        if not isinstance(values, list):
            continue
        if kind == "pairs":
            kept = [v for v in values if not (isinstance(v, list) and v and v[0] == user_id)]
        else:
            kept = [v for v in values if v != user_id]
        if len(kept) != len(values):
            changed[key] = kept
    return None if changed == settings else changed
