"""What storage deletes or forgets: old tables (retention) and a person who asked to be
forgotten (/forgetme), with the statements only they use. Part of `db.store.Store`, the
same way as its ratings (`db.store_ratings`): each method names its body and how it runs.
"""

import json
from collections.abc import Callable
from typing import Any, TypeVar

from db.repository import TableRow, settings_without
from db.rows import IS_OPEN, TABLE_COLUMNS, dumps, table_row
from db.statements import Body, Sql, execute, fetch
from db.store_ratings import forget_ratings, stand_in

T = TypeVar("T")

# Closed tables (the bot lost their channel) that a newer table of the same channel rules
# out for good: a channel's closed table comes back only if it is the channel's newest.
DELETE_SUPERSEDED = Sql(
    "DELETE FROM tables WHERE status = 'closed' AND EXISTS (SELECT 1 FROM tables AS newer"
    " WHERE newer.platform = tables.platform AND newer.channel = tables.channel"
    " AND newer.id > tables.id)")
DELETE_ENDED_BEFORE = Sql("DELETE FROM tables WHERE status IN ('finished', 'cancelled')"
                          " AND updated_at < :before")

# The ids of every table naming a person, each part through an index (the migrations'
# `people`): their seats, seats a bot took over from them, results, tables they host, and
# the user lists of tables' settings.
_PERSON_TABLES = (
    "SELECT table_id FROM seats WHERE user_id = :user_id"
    " UNION SELECT table_id FROM seats WHERE former_user_id = :user_id"
    " UNION SELECT table_id FROM results WHERE user_id = :user_id"
    " UNION SELECT id FROM tables WHERE host = :user_id"
    " UNION SELECT table_id FROM settings_people WHERE user_id = :user_id")


def _platform_is(text: str) -> Sql:
    """`text` with its `{platform}` term spelled per database: SQLite's `+platform` keeps
    it off an index on the platform, or SQLite would read all the platform's tables."""
    return Sql(text.format(platform="+platform"), postgres=text.format(platform="platform"))


USER_TABLES = _platform_is(
    f"SELECT {TABLE_COLUMNS},"
    " EXISTS (SELECT 1 FROM seats AS s WHERE s.table_id = t.id"
    " AND (s.user_id = :user_id OR s.former_user_id = :user_id))"
    " OR EXISTS (SELECT 1 FROM results AS r WHERE r.table_id = t.id"
    " AND r.user_id = :user_id) AS named"
    " FROM tables AS t WHERE {platform} = :platform AND id IN (" + _PERSON_TABLES
    + ") ORDER BY id")
OPEN_TABLES_NAMING = _platform_is(
    "SELECT id FROM tables WHERE {platform} = :platform AND " + IS_OPEN
    + " AND id IN (" + _PERSON_TABLES + ")")
# Each statement finds the person's rows through an index, then checks the table's
# platform row by row: the cost follows their own tables, not everybody's.
_OF_PLATFORM = "(SELECT platform FROM tables AS p WHERE p.id = table_id) = :platform"
FORGET_SEAT = Sql("UPDATE seats SET name = :name, user_id = NULL, former_user_id = NULL,"
                  " is_bot = TRUE WHERE table_id = :table_id AND user_id = :user_id")
FORGET_RESULT = Sql("UPDATE results SET name = :name, user_id = NULL"
                    " WHERE table_id = :table_id AND user_id = :user_id")
FORGET_SEATS = Sql("UPDATE seats SET name = :name, user_id = NULL, former_user_id = NULL,"
                   f" is_bot = TRUE WHERE user_id = :user_id AND {_OF_PLATFORM}")
FORGET_RESULTS = Sql("UPDATE results SET name = :name, user_id = NULL"
                     f" WHERE user_id = :user_id AND {_OF_PLATFORM}")
FORGET_FORMER_SEATS = Sql("UPDATE seats SET former_user_id = NULL"
                          f" WHERE former_user_id = :user_id AND {_OF_PLATFORM}")
FORGET_HOST = Sql("UPDATE tables SET host = '' WHERE host = :user_id AND platform = :platform")
SETTINGS_NAMING = _platform_is(
    "SELECT id, settings FROM tables WHERE {platform} = :platform AND id IN"
    " (SELECT table_id FROM settings_people WHERE user_id = :user_id)")
SET_SETTINGS = Sql("UPDATE tables SET settings = :settings WHERE id = :table_id")
FORGET_HANDS = Sql(
    "DELETE FROM messages WHERE key LIKE 'hand:%'"
    f" AND json_extract(extra, '$.user') = :user_id AND {_OF_PLATFORM}",
    postgres="DELETE FROM messages WHERE key LIKE 'hand:%'"
    f" AND (extra::json ->> 'user') = :user_id AND {_OF_PLATFORM}")
FORGET_USER_SETTINGS = Sql("DELETE FROM user_settings WHERE platform = :platform"
                           " AND user_id = :user_id")
MARK_CHANGED = Sql(
    "UPDATE tables SET updated_at = max(:now, updated_at + 0.001)"
    " WHERE id IN (SELECT value FROM json_each(:table_ids))",
    postgres="UPDATE tables SET updated_at = GREATEST(:now, updated_at + 0.001)"
    " WHERE id = ANY(:table_ids::bigint[])")


class PrivacyStore:
    """The retention and privacy methods of `db.store.Store`."""

    async def _do(self, mode: Any, body: Callable[..., Body[T]], *args: Any) -> T:
        raise NotImplementedError

    def _now(self) -> float:
        raise NotImplementedError

    async def delete_tables_before(self, before: float | None) -> int:
        return await self._do("wipe", delete_tables_before, before)

    async def user_tables(self, platform: str, user_id: str) -> list[TableRow]:
        return await self._do("read", user_tables, platform, user_id)

    async def spend_login(self, key: str, until: float, now: float) -> bool:
        return await self._do("transaction", spend_login, key, until, now)

    async def forget_user(self, platform: str, user_id: str, *, names: dict[int, str],
                          default_name: str) -> None:
        await self._do("wipe", forget_user, platform, user_id, dict(names), default_name,
                       self._now(), stand_in())


def delete_tables_before(before: float | None) -> Body[int]:
    # ON DELETE CASCADE takes seats, moves, messages, deadlines and results along. Closed
    # tables that can never come back go first, while the newer tables that rule them out
    # are still there to say so.
    deleted: int = yield execute(DELETE_SUPERSEDED)
    if before is not None:
        deleted += yield execute(DELETE_ENDED_BEFORE, before=before)
    return deleted


DELETE_SPENT_LOGINS = Sql("DELETE FROM spent_logins WHERE until < :now")
SPEND_LOGIN = Sql("INSERT INTO spent_logins (key, until) VALUES (:key, :until)"
                  " ON CONFLICT (key) DO NOTHING")


def spend_login(key: str, until: float, now: float) -> Body[bool]:
    yield execute(DELETE_SPENT_LOGINS, now=now)
    inserted: int = yield execute(SPEND_LOGIN, key=key, until=until)
    return inserted == 1


def user_tables(platform: str, user_id: str) -> Body[list[TableRow]]:
    rows = yield fetch(USER_TABLES, platform=platform, user_id=user_id)
    # A settings list only says the id is there somewhere: keep exact matches.
    found = [(table_row(row), row[13]) for row in rows]
    return [table for table, named in found if named or table.host == user_id
            or settings_without(table.settings, user_id) is not None]


def forget_user(platform: str, user_id: str, names: dict[int, str], default_name: str,
                now: float, anonymous: str) -> Body[None]:
    person = {"platform": platform, "user_id": user_id}
    # Open tables that name them, read before anything changes: marked as changed.
    named = [row[0] for row in (yield fetch(OPEN_TABLES_NAMING, **person))]
    for table_id, name in names.items():
        yield execute(FORGET_SEAT, name=name, table_id=table_id, user_id=user_id)
        yield execute(FORGET_RESULT, name=name, table_id=table_id, user_id=user_id)
    # Tables joined since `names` was read, if any.
    yield execute(FORGET_SEATS, name=default_name, **person)
    yield execute(FORGET_RESULTS, name=default_name, **person)
    yield execute(FORGET_FORMER_SEATS, **person)
    yield execute(FORGET_HOST, **person)
    for table_id, text in (yield fetch(SETTINGS_NAMING, **person)):
        cleaned = settings_without(json.loads(text), user_id)
        if cleaned is not None:
            yield execute(SET_SETTINGS, settings=dumps(cleaned), table_id=table_id)
    yield execute(FORGET_HANDS, **person)
    yield execute(FORGET_USER_SETTINGS, **person)
    # Before the ratings (PostgreSQL): a game of theirs that is ending holds its table's
    # row until it commits, then its community's and their rating's, and its log entry
    # is not seen before. Marking the table first waits for it (the other way round, the
    # two deadlocked), and then that entry is anonymised too.
    if named:
        yield execute(MARK_CHANGED, now=now, table_ids=named)
    yield from forget_ratings(platform, user_id, anonymous)
