"""Row shapes both databases share: the column lists every statement names, and the
mapping of a fetched row (a SQLite tuple or an asyncpg Record) to the repository's types.

Columns are read by position, so a query may add columns after the ones named here.
"""

import json
from typing import Any

from db.repository import OPEN_STATUSES, Deadline, SeatRow, TableRow

# Literals rather than bound parameters: SQLite only uses the partial index
# `tables_one_open_per_channel` when a query repeats its WHERE term (and PostgreSQL's
# ON CONFLICT names that index's predicate the same way).
IS_OPEN = f"status IN ({', '.join(map(repr, OPEN_STATUSES))})"

TABLE_COLUMNS = (
    "id, platform, channel, game, options, settings, seed, status, host, version, snapshot,"
    " created_at, updated_at"
)
SEAT_COLUMNS = "seat, user_id, name, is_bot, afk_strikes, former_user_id"
RESULT_COLUMNS = "seat, user_id, name, is_bot, score, rank"
DEADLINE_COLUMNS = "table_id, seat, version, due_at, remind_at, reminded"


def dumps(value: dict[str, Any]) -> str:
    """JSON as stored: compact, and UTF-8 rather than escapes (names are people's)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def table_row(row: Any) -> TableRow:
    """A row that starts with TABLE_COLUMNS."""
    return TableRow(
        id=row[0], platform=row[1], channel=row[2], game=row[3],
        options=json.loads(row[4]), settings=json.loads(row[5]), seed=row[6],
        status=row[7], host=row[8], version=row[9], snapshot=row[10],
        created_at=row[11], updated_at=row[12],
    )


def seat_row(row: Any, start: int = 0) -> SeatRow:
    """A row with SEAT_COLUMNS from `start` on (SQLite's booleans are 0 and 1)."""
    return SeatRow(row[start], row[start + 1], row[start + 2], bool(row[start + 3]),
                   row[start + 4], row[start + 5])


def deadline_params(deadline: Deadline) -> tuple[Any, ...]:
    """A deadline's values in DEADLINE_COLUMNS order."""
    return (deadline.table_id, deadline.seat, deadline.version, deadline.due_at,
            deadline.remind_at, deadline.reminded)
