"""The repository's methods written once, for both databases.

Each method's work is a *body*: a generator that yields statements (`db.statements`) and
is sent each one's answer. A driver runs it: SQLite's as one synchronous job on its
connection's thread (one hand-off for the whole transaction), PostgreSQL's as awaited
calls on a pooled connection. The bodies are module-level functions of plain arguments,
so a batch of them can also be pickled to SQLite's writer process.

How a body runs is its mode: READ (no transaction), WRITE (one statement, atomic on its
own: SQLite still takes its write lock for it, in a transaction), TRANSACTION (several
statements that commit together or not at all).
"""

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal, TypeVar

import db.statements as S
from db.repository import (
    CANCELLED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    Deadline,
    GameStats,
    MessageRef,
    MoveRow,
    Repository,
    ResultRow,
    SeatRow,
    StorageError,
    TableExists,
    TableNotFound,
    TableRow,
    UserSettings,
    VersionConflict,
    lobby_of,
)
from db.rows import dumps, seat_row, table_row
from db.statements import (
    Body,
    Clash,
    execute,
    execute_many,
    fetch,
    fetch_one,
    fetch_one_fenced,
)
from db.store_privacy import PrivacyStore
from db.store_ratings import RatingStore

T = TypeVar("T")
Mode = Literal["read", "write", "transaction", "wipe"]
READ: Mode = "read"
# A TRANSACTION that also leaves nothing it removed in the database's files (SQLite's
# WAL is copied back and emptied).
WIPE: Mode = "wipe"
WRITE: Mode = "write"
TRANSACTION: Mode = "transaction"


class Store(RatingStore, PrivacyStore, Repository):
    """What both repositories share: each method names its body and how it runs; the
    subclass runs it (`_do`) on its own connection."""

    async def _do(self, mode: Mode, body: Callable[..., Body[T]], *args: Any) -> T:
        raise NotImplementedError

    def _now(self) -> float:
        """The repository's clock (tests set one)."""
        raise NotImplementedError

    # ------------------------------------------------------------------- tables

    async def create_table(
        self, *, platform: str, channel: str, game: str, options: dict[str, Any],
        settings: dict[str, Any], seed: int, host: str, seats: list[SeatRow],
        community: str | None = None,
    ) -> TableRow:
        return await self._do(TRANSACTION, create_table, {
            "platform": platform, "channel": channel, "game": game, "options": dumps(options),
            "settings": dumps(settings), "seed": seed, "status": LOBBY, "host": host,
            "now": self._now()}, seats, community)

    async def update_table(
        self, table_id: int, *, expected_version: int, status: str | None = None,
        options: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
        host: str | None = None, seats: list[SeatRow] | None = None,
        snapshot: str | None = None, reset_moves: bool = False,
        expected_row: TableRow | None = None, expected_seats: list[SeatRow] | None = None,
    ) -> TableRow:
        values = {column: value for column, value in (
            ("status", status),
            ("options", None if options is None else dumps(options)),
            ("settings", None if settings is None else dumps(settings)),
            ("host", host),
            ("snapshot", snapshot),
        ) if value is not None or (column == "snapshot" and reset_moves)}
        return await self._do(TRANSACTION, update_table, table_id, expected_version,
                              self._now(), values, reset_moves, seats, expected_row,
                              expected_seats)

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> list[int]:
        return await self._do(TRANSACTION, move_chat, platform, old_chat, new_chat,
                              self._now())

    async def get_table(self, table_id: int) -> TableRow | None:
        return await self._do(READ, get_table, table_id)

    async def open_table_in(self, platform: str, channel: str) -> TableRow | None:
        return await self._do(READ, open_table_in, platform, channel)

    async def newest_tables_in(self, platform: str, channel: str, *,
                               with_topics: bool = False) -> list[TableRow]:
        return await self._do(READ, newest_tables_in, platform, channel, with_topics)

    async def unfinished_tables(self) -> list[TableRow]:
        return await self._do(READ, tables, S.UNFINISHED_TABLES, {})

    async def newest_change(self) -> float | None:
        return await self._do(READ, newest_change)

    async def just_ended_tables(self, window: float) -> list[TableRow]:
        return await self._do(READ, tables, S.JUST_ENDED_TABLES, {
            "finished": FINISHED, "cancelled": CANCELLED, "window": window})

    # -------------------------------------------------------------------- seats

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        return await self._do(READ, get_seats, table_id)

    async def open_tables_seats(self) -> dict[int, list[SeatRow]]:
        return await self._do(READ, open_tables_seats)

    async def update_seat(self, table_id: int, seat: SeatRow) -> None:
        await self._do(WRITE, update_seat, table_id, seat)

    async def playing_tables_of(self, platform: str, user_id: str) -> list[int]:
        return await self._do(READ, playing_tables_of, platform, user_id)

    # -------------------------------------------------------- moves and messages

    async def moves(self, table_id: int, *, after: int = 0) -> list[MoveRow]:
        return await self._do(READ, moves, table_id, after)

    async def set_message(self, table_id: int, ref: MessageRef) -> None:
        await self._do(WRITE, set_message, table_id, ref.key, ref.chat, ref.message_id,
                       dumps(ref.extra))

    async def messages(self, table_id: int) -> dict[str, MessageRef]:
        return await self._do(READ, messages, table_id)

    async def delete_message(self, table_id: int, key: str) -> None:
        await self._do(WRITE, change, S.DELETE_MESSAGE, {"table_id": table_id, "key": key})

    # ---------------------------------------------------------------- deadlines

    async def set_deadline(self, deadline: Deadline) -> None:
        await self.set_deadlines([deadline])

    async def set_deadlines(self, deadlines: list[Deadline]) -> None:
        if deadlines:
            await self._do(TRANSACTION, set_deadlines, list(deadlines))

    async def mark_reminded(self, table_id: int, version: int) -> None:
        """Only the deadline set for `version`: a reminder for a stale turn changes nothing."""
        await self._do(WRITE, change, S.MARK_REMINDED,
                       {"table_id": table_id, "version": version})

    async def clear_deadline(self, table_id: int) -> None:
        await self._do(WRITE, change, S.CLEAR_DEADLINE, {"table_id": table_id})

    async def deadlines(self, table_id: int | None = None) -> list[Deadline]:
        """Soonest first; a finished or cancelled table's leftover deadline is not one."""
        return await self._do(READ, deadlines, table_id)

    # ------------------------------------------------------- people and places

    async def user_settings(self, platform: str, user_id: str) -> UserSettings:
        return await self._do(READ, user_settings, platform, user_id)

    async def set_user_settings(self, platform: str, user_id: str,
                                settings: UserSettings) -> None:
        await self._do(WRITE, change, S.SET_USER_SETTINGS, {
            "platform": platform, "user_id": user_id, "lang": settings.lang,
            "mentions": bool(settings.mentions)})

    async def set_user_locale(self, platform: str, user_id: str, locale: str | None) -> None:
        await self._do(WRITE, change, S.SET_USER_LOCALE, {
            "platform": platform, "user_id": user_id, "locale": locale})

    async def channel_lang(self, platform: str, channel: str) -> str | None:
        return await self._do(READ, channel_lang, platform, channel)

    async def channel_langs(self, platform: str, channels: list[str]) -> dict[str, str]:
        return await self._do(READ, channel_langs, platform, list(channels))

    async def set_channel_lang(self, platform: str, channel: str, lang: str) -> None:
        await self._do(WRITE, change, S.SET_CHANNEL_LANG, {
            "platform": platform, "channel": channel, "lang": lang})

    # ------------------------------------------------------------------ secrets

    async def secret(self, name: str, new_value: str) -> str:
        # Read first: a database (or role) that went read-only still yields the secret
        # it holds.
        stored = await self._do(READ, secret, name)
        return stored if stored is not None else await self._do(
            WRITE, add_secret, name, new_value)

    # ------------------------------------------------------------------ results

    async def results(self, table_id: int) -> list[ResultRow]:
        return await self._do(READ, results, table_id)

    async def stats(self, platform: str, user_id: str) -> list[GameStats]:
        """Per game, most played first. A result counts for the user it names."""
        return await self._do(READ, stats, platform, user_id)

    # ------------------------------------------------------------------ service

    async def ping(self) -> None:
        await self._do(READ, fetch_rows, S.PING, {})

    async def table_counts(self) -> dict[tuple[str, str], int]:
        return await self._do(READ, table_counts)


# ------------------------------------------------------------------------------- bodies


def change(sql: S.Sql, params: dict[str, Any]) -> Body[int]:
    """One change; how many rows it changed."""
    changed: int = yield execute(sql, **params)
    return changed


def fetch_rows(sql: S.Sql, params: dict[str, Any]) -> Body[list[Any]]:
    rows: list[Any] = yield fetch(sql, **params)
    return rows


def tables(sql: S.Sql, params: dict[str, Any]) -> Body[list[TableRow]]:
    rows = yield fetch(sql, **params)
    return [table_row(row) for row in rows]


def create_table(params: dict[str, Any], seats: list[SeatRow], community: str | None,
                 ) -> Body[TableRow]:
    # ON CONFLICT waits (PostgreSQL) for a concurrent /newgame in the channel to commit,
    # then skips the insert; the SELECT sees that table.
    row = yield fetch_one(S.CREATE_TABLE, **params)
    if row is None:
        existing = yield fetch_one(S.OPEN_TABLE_ID, platform=params["platform"],
                                   channel=params["channel"])
        if existing is None:
            raise StorageError(
                f"channel {params['channel']!r} changed while its table was being created")
        raise TableExists(existing[0])
    yield from insert_seats(row[0], seats)
    if community is not None:
        yield execute(S.SET_COMMUNITY, community=community, table_id=row[0])
    return table_row(row)


def insert_seats(table_id: int, seats: list[SeatRow]) -> Body[None]:
    if seats:
        yield execute_many(S.INSERT_SEAT, [seat_params(table_id, seat) for seat in seats])


def seat_params(table_id: int, seat: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": seat.seat, "user_id": seat.user_id,
            "name": seat.name, "is_bot": bool(seat.is_bot), "afk_strikes": seat.afk_strikes,
            "former_user_id": seat.former_user_id}


def update_table(table_id: int, expected_version: int, now: float, values: dict[str, Any],
                 reset_moves: bool, seats: list[SeatRow] | None,
                 expected_row: TableRow | None, expected_seats: list[SeatRow] | None,
                 ) -> Body[TableRow]:
    if expected_row is not None or expected_seats is not None:
        yield from check_unchanged(table_id, expected_row, expected_seats)
    sql = S.update_table(tuple(values), reset_moves)
    params = {**values, "now": now, "table_id": table_id, "expected_version": expected_version}
    try:
        row = yield fetch_one_fenced(sql, **params)
    except Clash as clash:
        if clash.foreign_key or values.get("status") not in OPEN_STATUSES:
            raise
        # Reopening a table in a channel that has since got another open one.
        other = yield fetch_one(S.OTHER_OPEN_TABLE, table_id=table_id)
        if other is None:
            raise
        raise TableExists(other[0]) from None
    if row is None:
        raise (yield from refusal(table_id, f"an edit expecting version {expected_version}"))
    if reset_moves:
        # A new game at this table: the old log and results belong to the old game.
        yield execute(S.DELETE_MOVES, table_id=table_id)
        yield execute(S.DELETE_RESULTS, table_id=table_id)
    if seats is not None:
        yield execute(S.DELETE_SEATS, table_id=table_id)
        yield from insert_seats(table_id, seats)
    return table_row(row)


def check_unchanged(table_id: int, row: TableRow | None, seats: list[SeatRow] | None,
                    ) -> Body[None]:
    """Refuse an edit made from a table (or seats) that another edit changed since."""
    stored = yield fetch_one(S.TABLE_TO_CHECK, table_id=table_id)
    if stored is None:
        raise TableNotFound(table_id)
    if row is not None and lobby_of(table_row(stored)) != lobby_of(row):
        raise VersionConflict(f"table {table_id} changed since it was read")
    if seats is not None:
        stored_seats = yield fetch(S.SEATS, table_id=table_id)
        if [seat_row(seat) for seat in stored_seats] != seats:
            raise VersionConflict(f"the seats of table {table_id} changed since they were read")


def refusal(table_id: int, what: str) -> Body[StorageError]:
    """Why a guarded UPDATE matched no row; only read on that failure path."""
    row = yield fetch_one(S.VERSION_STATUS, table_id=table_id)
    if row is None:
        return TableNotFound(table_id)
    version, status = row
    return VersionConflict(f"table {table_id} is at version {version} ({status}); {what} refused")


def stored_move(table_id: int, seq: int, seat: int, move: str, actor: str, now: float,
                snapshot: str, status: str) -> Body[TableRow | None]:
    """What a commit of this move returned, if it was committed after all (its answer lost
    with a connection or SQLite's writer): None when that very move is not stored.

    The move row names its commit: same seq, seat, notation, actor and timestamp. A table
    moved on since (by another process) is given back as that commit left it."""
    stored = yield fetch_one(S.TABLE_TO_SHARE, table_id=table_id)
    found = yield fetch_one(S.STORED_MOVE, table_id=table_id, seq=seq, seat=seat, move=move,
                            actor=actor, now=now)
    if stored is None or found is None:
        return None  # not stored, or the table deleted since: nobody can be told otherwise
    row = table_row(stored)
    return row if row.version == seq else replace(
        row, version=seq, snapshot=snapshot, status=status, updated_at=now)


def move_chat(platform: str, old_chat: str, new_chat: str, now: float) -> Body[list[int]]:
    prefix = f"{old_chat}:"
    rows = yield fetch(S.CHATS_TABLES, platform=platform, old_chat=old_chat,
                       length=len(prefix), prefix=prefix)
    for table_id, channel in rows:
        yield execute(S.MOVE_TABLE, channel=new_chat + channel[len(old_chat):], now=now,
                      table_id=table_id)
        yield execute(S.DELETE_MESSAGE, table_id=table_id, key="table")
    return [row[0] for row in rows]


def update_seat(table_id: int, seat: SeatRow) -> Body[None]:
    changed = yield execute(S.UPDATE_SEAT, **seat_params(table_id, seat))
    if changed == 0:
        if (yield fetch_one(S.TABLE_EXISTS, table_id=table_id)) is None:
            raise TableNotFound(table_id)
        raise StorageError(f"table {table_id} has no seat {seat.seat}")


def set_message(table_id: int, key: str, chat: str, message_id: str, extra: str,
                ) -> Body[None]:
    try:
        yield execute(S.SET_MESSAGE, table_id=table_id, key=key, chat=chat,
                      message_id=message_id, extra=extra)
    except Clash as clash:
        if clash.foreign_key:  # the table id is the only foreign key: no such table
            raise TableNotFound(table_id) from None
        raise


def set_deadlines(deadlines: list[Deadline]) -> Body[None]:
    for deadline in deadlines:
        try:
            yield execute(S.SET_DEADLINE, **deadline_values(deadline))
        except Clash as clash:
            if clash.foreign_key:
                raise TableNotFound(deadline.table_id) from None
            raise


def deadline_values(deadline: Deadline) -> dict[str, Any]:
    return {"table_id": deadline.table_id, "seat": deadline.seat,
            "version": deadline.version, "due_at": deadline.due_at,
            "remind_at": deadline.remind_at, "reminded": bool(deadline.reminded)}


def get_table(table_id: int) -> Body[TableRow | None]:
    row = yield fetch_one(S.GET_TABLE, table_id=table_id)
    return None if row is None else table_row(row)


def open_table_in(platform: str, channel: str) -> Body[TableRow | None]:
    row = yield fetch_one(S.OPEN_TABLE_IN, platform=platform, channel=channel)
    return None if row is None else table_row(row)


def newest_tables_in(platform: str, channel: str, with_topics: bool) -> Body[list[TableRow]]:
    rows = list((yield fetch(S.NEWEST_TABLE_IN, platform=platform, channel=channel)))
    if with_topics:  # rare (the bot added back): a scan of the platform's rows
        prefix = f"{channel}:"
        rows += yield fetch(S.NEWEST_TABLES_UNDER, platform=platform, length=len(prefix),
                            prefix=prefix)
    return [table_row(row) for row in rows]


def newest_change() -> Body[float | None]:
    (newest,) = yield fetch_one(S.NEWEST_CHANGE)
    return None if newest is None else float(newest)


def get_seats(table_id: int) -> Body[list[SeatRow]]:
    rows = yield fetch(S.SEATS, table_id=table_id)
    return [seat_row(row) for row in rows]


def open_tables_seats() -> Body[dict[int, list[SeatRow]]]:
    seats: dict[int, list[SeatRow]] = {}
    for row in (yield fetch(S.OPEN_TABLES_SEATS)):
        seats.setdefault(row[0], []).append(seat_row(row, 1))
    return seats


def playing_tables_of(platform: str, user_id: str) -> Body[list[int]]:
    rows = yield fetch(S.PLAYING_TABLES_OF, platform=platform, status=PLAYING, user_id=user_id)
    return [row[0] for row in rows]


def moves(table_id: int, after: int) -> Body[list[MoveRow]]:
    rows = yield fetch(S.MOVES, table_id=table_id, after=after)
    return [MoveRow(*row) for row in rows]


def messages(table_id: int) -> Body[dict[str, MessageRef]]:
    rows = yield fetch(S.MESSAGES, table_id=table_id)
    return {key: MessageRef(key, chat, message_id, json.loads(extra))
            for key, chat, message_id, extra in rows}


def deadlines(table_id: int | None) -> Body[list[Deadline]]:
    rows = yield fetch(S.DEADLINES, table_id=table_id)
    return [Deadline(table_id, seat, version, due_at, remind_at, bool(reminded))
            for table_id, seat, version, due_at, remind_at, reminded in rows]


def user_settings(platform: str, user_id: str) -> Body[UserSettings]:
    row = yield fetch_one(S.USER_SETTINGS, platform=platform, user_id=user_id)
    return UserSettings() if row is None else UserSettings(row[0], bool(row[1]), row[2])


def channel_lang(platform: str, channel: str) -> Body[str | None]:
    row = yield fetch_one(S.CHANNEL_LANG, platform=platform, channel=channel)
    return None if row is None else row[0]


def channel_langs(platform: str, channels: list[str]) -> Body[dict[str, str]]:
    rows = yield fetch(S.CHANNEL_LANGS, platform=platform, channels=channels)
    return {row[0]: row[1] for row in rows}


def secret(name: str) -> Body[str | None]:
    row = yield fetch_one(S.SECRET, name=name)
    return None if row is None else str(row[0])


def add_secret(name: str, value: str) -> Body[str]:
    yield execute(S.ADD_SECRET, name=name, value=value)
    row = yield fetch_one(S.SECRET, name=name)
    return str(row[0])


def results(table_id: int) -> Body[list[ResultRow]]:
    rows = yield fetch(S.RESULTS, table_id=table_id)
    return [ResultRow(seat, user_id, name, bool(is_bot), score, rank)
            for seat, user_id, name, is_bot, score, rank in rows]


def stats(platform: str, user_id: str) -> Body[list[GameStats]]:
    rows = yield fetch(S.STATS, user_id=user_id, platform=platform)
    return [GameStats(game, played, wins, average_rank)
            for game, played, wins, average_rank in rows]


def table_counts() -> Body[dict[tuple[str, str], int]]:
    rows = yield fetch(S.TABLE_COUNTS)
    return {(game, status): count for game, status, count in rows}
