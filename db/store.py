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
from typing import Any, Literal, TypeVar

from db import statements as S
from db.repository import (
    CANCELLED,
    FINISHED,
    PLAYING,
    Deadline,
    GameStats,
    MessageRef,
    MoveRow,
    Repository,
    ResultRow,
    SeatRow,
    TableRow,
    UserSettings,
)
from db.rows import seat_row, table_row
from db.statements import Body, execute, fetch, fetch_one

T = TypeVar("T")
Mode = Literal["read", "write", "transaction"]
READ: Mode = "read"
WRITE: Mode = "write"
TRANSACTION: Mode = "transaction"


class Store(Repository):
    """What both repositories share: each method names its body and how it runs; the
    subclass runs it (`_do`) on its own connection."""

    async def _do(self, mode: Mode, body: Callable[..., Body[T]], *args: Any) -> T:
        raise NotImplementedError

    # ------------------------------------------------------------------- tables

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

    async def playing_tables_of(self, platform: str, user_id: str) -> list[int]:
        return await self._do(READ, playing_tables_of, platform, user_id)

    # -------------------------------------------------------- moves and messages

    async def moves(self, table_id: int, *, after: int = 0) -> list[MoveRow]:
        return await self._do(READ, moves, table_id, after)

    async def messages(self, table_id: int) -> dict[str, MessageRef]:
        return await self._do(READ, messages, table_id)

    async def delete_message(self, table_id: int, key: str) -> None:
        await self._do(WRITE, change, S.DELETE_MESSAGE, {"table_id": table_id, "key": key})

    # ---------------------------------------------------------------- deadlines

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
