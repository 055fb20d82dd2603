"""Every SQL statement of the repository, written once with named parameters (`:name`)
and rendered per database: `?` for SQLite, `$1`, `$2`… for PostgreSQL. Those only
retention and /forgetme use are beside their bodies, in `db.store_privacy`.

A statement the two databases spell differently (`json_each` against `unnest`, a row
lock SQLite has no words for, a collation) carries its PostgreSQL spelling beside it.
A body (`db.store`) yields `Op`s and is sent back each one's answer, so the same body
runs as one synchronous job on SQLite's thread and as awaited calls on asyncpg.

Parameter values are the same for both, with one rule: a list is bound as a PostgreSQL
array, or as JSON text on SQLite (read there with `json_each`).
"""

import functools
import json
import re
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from db.rows import DEADLINE_COLUMNS, IS_OPEN, RESULT_COLUMNS, SEAT_COLUMNS, TABLE_COLUMNS

T = TypeVar("T")
Dialect = Literal["sqlite", "postgres"]
# What a body asks for: all rows, the first row (or None), a change (answered with the
# rows changed), or the same change for each of a list of parameter sets.
Kind = Literal["all", "one", "run", "many"]

_NAME = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@dataclass(frozen=True)
class Sql:
    """One statement; `postgres` only where PostgreSQL spells it differently."""

    text: str
    postgres: str | None = None
    # Rendered once per dialect: (text with placeholders, parameter names in order).
    _rendered: dict[str, tuple[str, tuple[str, ...]]] = field(
        default_factory=dict, compare=False, repr=False)

    def render(self, dialect: Dialect) -> tuple[str, tuple[str, ...]]:
        rendered = self._rendered.get(dialect)
        if rendered is None:
            rendered = self._rendered[dialect] = _render(
                self.postgres if dialect == "postgres" and self.postgres else self.text,
                dialect)
        return rendered


def _render(text: str, dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    names: list[str] = []
    if dialect == "sqlite":
        def placeholder(match: re.Match[str]) -> str:
            names.append(match[1])
            return "?"
    else:
        def placeholder(match: re.Match[str]) -> str:
            if match[1] not in names:
                names.append(match[1])
            return f"${names.index(match[1]) + 1}"
    return _NAME.sub(placeholder, text), tuple(names)


class Clash(Exception):
    """A statement broke a constraint of the schema; thrown into the body that yielded
    it, which may answer it. One it lets through leaves as the driver's own error.
    `foreign_key`: a row it refers to (the table, always) is not there."""

    def __init__(self, message: str, *, foreign_key: bool) -> None:
        super().__init__(message)
        self.foreign_key = foreign_key


@dataclass(frozen=True, slots=True)
class Op:
    kind: Kind
    sql: Sql
    params: dict[str, Any]
    many: tuple[dict[str, Any], ...] = ()
    # A statement whose failure the body answers: on PostgreSQL, where a failed statement
    # aborts the whole transaction, it runs in a savepoint of its own (SQLite undoes a
    # failed statement alone anyway).
    fenced: bool = False

    def bind(self, dialect: Dialect) -> tuple[str, tuple[Any, ...]]:
        """The statement's text and its arguments in placeholder order."""
        text, names = self.sql.render(dialect)
        return text, _values(self.params, names, dialect)

    def bind_many(self, dialect: Dialect) -> tuple[str, list[tuple[Any, ...]]]:
        text, names = self.sql.render(dialect)
        return text, [_values(params, names, dialect) for params in self.many]


def _values(params: dict[str, Any], names: tuple[str, ...], dialect: Dialect,
            ) -> tuple[Any, ...]:
    if dialect == "sqlite":
        return tuple(json.dumps(value) if isinstance(value, list) else value
                     for value in (params[name] for name in names))
    return tuple(params[name] for name in names)


def fetch(sql: Sql, **params: Any) -> Op:
    """All rows."""
    return Op("all", sql, params)


def fetch_one(sql: Sql, **params: Any) -> Op:
    """The first row, or None."""
    return Op("one", sql, params)


def execute(sql: Sql, **params: Any) -> Op:
    """A change: answered with how many rows it changed."""
    return Op("run", sql, params)


def fetch_one_fenced(sql: Sql, **params: Any) -> Op:
    """`fetch_one` of a statement whose failure (a Clash) the body answers."""
    return Op("one", sql, params, fenced=True)


def execute_many(sql: Sql, rows: list[dict[str, Any]]) -> Op:
    """The same change once for each parameter set in `rows`."""
    return Op("many", sql, {}, tuple(rows))


# A repository method's body: yields statements, is sent each one's answer, returns T.
Body = Generator[Op, Any, T]


# ------------------------------------------------------------------- tables and seats

CREATE_TABLE = Sql(
    "INSERT INTO tables (platform, channel, game, options, settings, seed, status, host,"
    " created_at, updated_at) VALUES (:platform, :channel, :game, :options, :settings,"
    f" :seed, :status, :host, :now, :now) ON CONFLICT (platform, channel) WHERE {IS_OPEN}"
    f" DO NOTHING RETURNING {TABLE_COLUMNS}")
OPEN_TABLE_ID = Sql(f"SELECT id FROM tables WHERE platform = :platform AND channel = :channel"
                    f" AND {IS_OPEN}")
TABLE_EXISTS = Sql("SELECT 1 FROM tables WHERE id = :table_id")
INSERT_SEAT = Sql(f"INSERT INTO seats (table_id, {SEAT_COLUMNS}) VALUES (:table_id, :seat,"
                  " :user_id, :name, :is_bot, :afk_strikes, :former_user_id)")
UPDATE_SEAT = Sql(
    "UPDATE seats SET user_id = :user_id, name = :name, is_bot = :is_bot,"
    " afk_strikes = :afk_strikes, former_user_id = :former_user_id"
    " WHERE table_id = :table_id AND seat = :seat")
_CHATS_TABLES = (f"SELECT id, channel FROM tables WHERE platform = :platform AND {IS_OPEN}"
                 " AND (channel = :old_chat OR substr(channel, 1, :length) = :prefix)")
CHATS_TABLES = Sql(_CHATS_TABLES, postgres=_CHATS_TABLES + " FOR UPDATE")
MOVE_TABLE = Sql("UPDATE tables SET channel = :channel, updated_at = :now WHERE id = :table_id")
_TABLE_TO_CHECK = f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = :table_id"
# FOR UPDATE holds the row until the commit (PostgreSQL): writers of this table (each
# UPDATEs its row first) wait, and the seats read next are the committed ones. SQLite's
# transaction holds the write lock from its start.
TABLE_TO_CHECK = Sql(_TABLE_TO_CHECK, postgres=_TABLE_TO_CHECK + " FOR UPDATE")
VERSION_STATUS = Sql("SELECT version, status FROM tables WHERE id = :table_id")
OTHER_OPEN_TABLE = Sql(
    "SELECT other.id FROM tables AS other JOIN tables AS this"
    " ON other.platform = this.platform AND other.channel = this.channel"
    f" WHERE this.id = :table_id AND other.id != this.id AND other.{IS_OPEN}")
DELETE_MOVES = Sql("DELETE FROM moves WHERE table_id = :table_id")
DELETE_RESULTS = Sql("DELETE FROM results WHERE table_id = :table_id")
DELETE_SEATS = Sql("DELETE FROM seats WHERE table_id = :table_id")


@functools.cache
def update_table(columns: tuple[str, ...], reset_moves: bool) -> Sql:
    """The guarded UPDATE of a table's `columns` (each set from the parameter of its name)."""
    assignments = ["updated_at = :now", *(f"{column} = :{column}" for column in columns)]
    if reset_moves:
        assignments.append("version = 0")
    return Sql(f"UPDATE tables SET {', '.join(assignments)} WHERE id = :table_id"
               f" AND version = :expected_version RETURNING {TABLE_COLUMNS}")


GET_TABLE = Sql(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = :table_id")
OPEN_TABLE_IN = Sql(f"SELECT {TABLE_COLUMNS} FROM tables"
                    f" WHERE platform = :platform AND channel = :channel AND {IS_OPEN}")
NEWEST_TABLE_IN = Sql(f"SELECT {TABLE_COLUMNS} FROM tables"
                      " WHERE platform = :platform AND channel = :channel"
                      " ORDER BY id DESC LIMIT 1")
NEWEST_TABLES_UNDER = Sql(
    f"SELECT {TABLE_COLUMNS} FROM tables AS t"
    " WHERE platform = :platform AND substr(channel, 1, :length) = :prefix AND id = (SELECT"
    " max(id) FROM tables WHERE platform = t.platform AND channel = t.channel)")
UNFINISHED_TABLES = Sql(f"SELECT {TABLE_COLUMNS} FROM tables WHERE {IS_OPEN}"
                        " ORDER BY created_at, id")
NEWEST_CHANGE = Sql("SELECT max(updated_at) FROM tables")
JUST_ENDED_TABLES = Sql(
    f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN (:finished, :cancelled)"
    " AND updated_at >= (SELECT max(updated_at) FROM tables) - :window ORDER BY id")
SEATS = Sql(f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = :table_id ORDER BY seat")
OPEN_TABLES_SEATS = Sql(f"SELECT s.table_id, {SEAT_COLUMNS} FROM seats AS s"
                        f" JOIN tables AS t ON t.id = s.table_id WHERE t.{IS_OPEN}"
                        " ORDER BY s.table_id, s.seat")
PLAYING_TABLES_OF = Sql(
    "SELECT DISTINCT t.id FROM tables AS t JOIN seats AS s ON s.table_id = t.id"
    " WHERE t.platform = :platform AND t.status = :status AND s.user_id = :user_id"
    " ORDER BY t.id")
TABLE_COUNTS = Sql("SELECT game, status, COUNT(*) FROM tables GROUP BY game, status")
PING = Sql("SELECT 1")

# --------------------------------------------------------------------- moves, messages

# The hot path (SQLite's; PostgreSQL makes the whole commit one statement of its own, in
# db/postgres.py): one guarded UPDATE that also hands back the row, one INSERT. Only a
# playing table takes moves, so a move racing a /cancel cannot revive the table.
COMMIT_MOVE = Sql(
    "UPDATE tables SET version = :seq, snapshot = :snapshot, status = :status,"
    " updated_at = :now WHERE id = :table_id AND version = :previous AND status = 'playing'"
    " AND (:expected_updated_at IS NULL OR updated_at = :expected_updated_at)"
    f" RETURNING {TABLE_COLUMNS}")
INSERT_MOVE = Sql("INSERT INTO moves (table_id, seq, seat, move, actor, created_at)"
                  " VALUES (:table_id, :seq, :seat, :move, :actor, :now)")
INSERT_RESULT = Sql(f"INSERT INTO results (table_id, {RESULT_COLUMNS}) VALUES (:table_id,"
                    " :seat, :user_id, :name, :is_bot, :score, :rank)")
# FOR SHARE (PostgreSQL) waits for a lost session's transaction, if it still runs, to end.
_TABLE_TO_SHARE = f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = :table_id"
TABLE_TO_SHARE = Sql(_TABLE_TO_SHARE, postgres=_TABLE_TO_SHARE + " FOR SHARE")
STORED_MOVE = Sql("SELECT 1 FROM moves WHERE table_id = :table_id AND seq = :seq"
                  " AND seat = :seat AND move = :move AND actor = :actor AND created_at = :now")
MOVES = Sql("SELECT seq, seat, move, actor, created_at FROM moves WHERE table_id = :table_id"
            " AND seq > :after ORDER BY seq")
MESSAGES = Sql("SELECT key, chat, message_id, extra FROM messages WHERE table_id = :table_id")
SET_MESSAGE = Sql(
    "INSERT INTO messages (table_id, key, chat, message_id, extra)"
    " VALUES (:table_id, :key, :chat, :message_id, :extra) ON CONFLICT (table_id, key)"
    " DO UPDATE SET chat = excluded.chat, message_id = excluded.message_id,"
    " extra = excluded.extra")
DELETE_MESSAGE = Sql("DELETE FROM messages WHERE table_id = :table_id AND key = :key")

# ---------------------------------------------------------------------------- deadlines

SET_DEADLINE = Sql(
    f"INSERT INTO deadlines ({DEADLINE_COLUMNS}) VALUES (:table_id, :seat, :version, :due_at,"
    " :remind_at, :reminded) ON CONFLICT (table_id) DO UPDATE SET seat = excluded.seat,"
    " version = excluded.version, due_at = excluded.due_at,"
    " remind_at = excluded.remind_at, reminded = excluded.reminded")
MARK_REMINDED = Sql("UPDATE deadlines SET reminded = TRUE WHERE table_id = :table_id"
                    " AND version = :version")
CLEAR_DEADLINE = Sql("DELETE FROM deadlines WHERE table_id = :table_id")
DEADLINES = Sql(
    "SELECT d.table_id, d.seat, d.version, d.due_at, d.remind_at, d.reminded"
    " FROM deadlines AS d JOIN tables AS t ON t.id = d.table_id"
    f" WHERE t.{IS_OPEN} AND (:table_id IS NULL OR d.table_id = :table_id)"
    " ORDER BY d.due_at, d.table_id",
    postgres="SELECT d.table_id, d.seat, d.version, d.due_at, d.remind_at, d.reminded"
    " FROM deadlines AS d JOIN tables AS t ON t.id = d.table_id"
    f" WHERE t.{IS_OPEN} AND (:table_id::bigint IS NULL OR d.table_id = :table_id)"
    " ORDER BY d.due_at, d.table_id")

# ------------------------------------------------------------------- people and places

USER_SETTINGS = Sql("SELECT lang, mentions, locale FROM user_settings"
                    " WHERE platform = :platform AND user_id = :user_id")
SET_USER_SETTINGS = Sql(
    "INSERT INTO user_settings (platform, user_id, lang, mentions)"
    " VALUES (:platform, :user_id, :lang, :mentions) ON CONFLICT (platform, user_id)"
    " DO UPDATE SET lang = excluded.lang, mentions = excluded.mentions")
SET_USER_LOCALE = Sql(
    "INSERT INTO user_settings (platform, user_id, locale) VALUES (:platform, :user_id,"
    " :locale) ON CONFLICT (platform, user_id) DO UPDATE SET locale = excluded.locale")
CHANNEL_LANG = Sql("SELECT lang FROM channel_settings"
                   " WHERE platform = :platform AND channel = :channel")
CHANNEL_LANGS = Sql(
    "SELECT channel, lang FROM channel_settings WHERE platform = :platform AND lang IS NOT"
    " NULL AND channel IN (SELECT value FROM json_each(:channels))",
    postgres="SELECT channel, lang FROM channel_settings WHERE platform = :platform AND lang"
    " IS NOT NULL AND channel = ANY(:channels::text[])")
SET_CHANNEL_LANG = Sql(
    "INSERT INTO channel_settings (platform, channel, lang) VALUES (:platform, :channel,"
    " :lang) ON CONFLICT (platform, channel) DO UPDATE SET lang = excluded.lang")

# ------------------------------------------------------------------ secrets and results

SECRET = Sql("SELECT value FROM secrets WHERE name = :name")
ADD_SECRET = Sql("INSERT INTO secrets (name, value) VALUES (:name, :value)"
                 " ON CONFLICT (name) DO NOTHING")
RESULTS = Sql(f"SELECT {RESULT_COLUMNS} FROM results WHERE table_id = :table_id"
              " ORDER BY rank, seat")
STATS = Sql(
    "SELECT t.game, COUNT(*), SUM(r.rank = 1), AVG(r.rank)"
    " FROM results AS r JOIN tables AS t ON t.id = r.table_id"
    " WHERE r.user_id = :user_id AND t.platform = :platform AND t.status = 'finished'"
    " GROUP BY t.game ORDER BY COUNT(*) DESC, t.game",
    postgres="SELECT t.game, COUNT(*), COUNT(*) FILTER (WHERE r.rank = 1),"
    " AVG(r.rank)::double precision"
    " FROM results AS r JOIN tables AS t ON t.id = r.table_id"
    " WHERE r.user_id = :user_id AND t.platform = :platform AND t.status = 'finished'"
    " GROUP BY t.game ORDER BY COUNT(*) DESC, t.game COLLATE \"C\"")

# ----------------------------------------------------------------------------- ratings

SET_COMMUNITY = Sql("UPDATE tables SET community = :community WHERE id = :table_id")
TABLE_COMMUNITY = Sql("SELECT community FROM tables WHERE id = :table_id")
NEWEST_RATING = Sql("SELECT season, finished_at FROM rating_log ORDER BY seq DESC LIMIT 1")
# The community's row, locked until the commit (PostgreSQL: the UPDATE of the conflict
# takes the row lock), so that two games ending at once in one community are logged and
# applied one after the other, in sequence order. SQLite's write lock does it anyway.
LOCK_COMMUNITY = Sql(
    "INSERT INTO rating_state (community, applied_seq, logged_seq) VALUES (:community, 0, 0)"
    " ON CONFLICT (community) DO UPDATE SET applied_seq = rating_state.applied_seq"
    " RETURNING applied_seq, logged_seq")
# The same for the community of a table, read in the same statement; no row when the table
# has none (opened before communities were stored: not rated).
LOCK_TABLE_COMMUNITY = Sql(
    "INSERT INTO rating_state (community, applied_seq, logged_seq) SELECT community, 0, 0"
    " FROM tables WHERE id = :table_id AND community IS NOT NULL"
    " ON CONFLICT (community) DO UPDATE SET applied_seq = rating_state.applied_seq"
    " RETURNING community, applied_seq, logged_seq")
LOCK_ALL_COMMUNITIES = Sql("SELECT community FROM rating_state ORDER BY community",
                           postgres="SELECT community FROM rating_state ORDER BY community"
                           " FOR UPDATE")
INSERT_RATING_LOG = Sql(
    "INSERT INTO rating_log (table_id, community, game, season, finished_at, players, rules,"
    " score) VALUES (:table_id, :community, :game, :season, :now, :players, :rules, :score)"
    " RETURNING seq")
INSERT_ENTRANT = Sql("INSERT INTO rating_entrants (seq, pos, participant, place)"
                     " VALUES (:seq, :pos, :participant, :place)")
SET_RATING_NAME = Sql(
    "INSERT INTO rating_names (community, player, name) VALUES (:community, :player, :name)"
    " ON CONFLICT (community, player) DO UPDATE SET name = excluded.name"
    " WHERE rating_names.name <> excluded.name")  # the same name: nothing rewritten
PENDING_ENTRIES = Sql(
    "SELECT seq, game, season, players, rules, score FROM rating_log"
    " WHERE community = :community AND seq > :after ORDER BY seq")
PENDING_ENTRANTS = Sql(
    "SELECT e.seq, e.participant, e.place FROM rating_entrants AS e JOIN rating_log AS l"
    " ON l.seq = e.seq WHERE l.community = :community AND l.seq > :after"
    " ORDER BY e.seq, e.pos")
SET_APPLIED = Sql("UPDATE rating_state SET applied_seq = :seq WHERE community = :community")
SET_LOGGED = Sql("UPDATE rating_state SET logged_seq = :seq WHERE community = :community")
SET_BOTH = Sql("UPDATE rating_state SET applied_seq = :seq, logged_seq = :seq"
               " WHERE community = :community")
BEHIND_COMMUNITIES = Sql("SELECT community FROM rating_state WHERE logged_seq > applied_seq"
                         " ORDER BY community")
CURRENT_RATINGS = Sql(
    "SELECT player, mu, sigma FROM ratings WHERE community = :community AND game = :game"
    " AND season = :season AND player IN (SELECT value FROM json_each(:players))",
    postgres="SELECT player, mu, sigma FROM ratings WHERE community = :community"
    " AND game = :game AND season = :season AND player = ANY(:players::text[])")
SET_RATING = Sql(
    "INSERT INTO ratings (community, game, season, player, mu, sigma, shown, games)"
    " VALUES (:community, :game, :season, :player, :mu, :sigma, :shown, 1)"
    " ON CONFLICT (community, game, season, player) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, shown = excluded.shown, games = ratings.games + 1")
INSERT_RATING = Sql(
    "INSERT INTO ratings (community, game, season, player, mu, sigma, shown, games)"
    " VALUES (:community, :game, :season, :player, :mu, :sigma, :shown, :games)")
INSERT_RATING_CHANGE = Sql(
    "INSERT INTO rating_changes (seq, player, community, game, season, shown, delta)"
    " VALUES (:seq, :player, :community, :game, :season, :shown, :delta)")
TEAM_RECORD = Sql(
    "SELECT games, best_score, best_seq, perfect, under_ten, streak, best_streak"
    " FROM team_records WHERE community = :community AND game = :game"
    " AND players = :players AND rules = :rules")
SET_TEAM_RECORD = Sql(
    "INSERT INTO team_records (community, game, players, rules, games, best_score, best_seq,"
    " perfect, under_ten, streak, best_streak) VALUES (:community, :game, :players, :rules,"
    " :games, :best_score, :best_seq, :perfect, :under_ten, :streak, :best_streak)"
    " ON CONFLICT (community, game, players, rules) DO UPDATE SET games = excluded.games,"
    " best_score = excluded.best_score, best_seq = excluded.best_seq,"
    " perfect = excluded.perfect, under_ten = excluded.under_ten, streak = excluded.streak,"
    " best_streak = excluded.best_streak")
CLEAR_RATINGS = Sql("DELETE FROM ratings")
CLEAR_RATING_CHANGES = Sql("DELETE FROM rating_changes")
CLEAR_TEAM_RECORDS = Sql("DELETE FROM team_records")
RESET_APPLIED = Sql("UPDATE rating_state SET applied_seq = 0")

GAME_RATINGS = Sql(
    "SELECT player, shown, delta FROM rating_changes WHERE seq = (SELECT max(seq)"
    " FROM rating_log WHERE table_id = :table_id) ORDER BY shown DESC, player")
# A leaderboard in one statement, one round trip: the top `size` rows (kind 0, in order),
# then one row (kind 1) with how many are listed, and the asker's own rating, name and
# how many listed players rank above it (all NULL when the asker is not listed). The top
# reads `ratings_board` backwards and stops after `size` entries; the counting reads the
# listed players once.
_BOARD = (
    "SELECT * FROM (SELECT 0 AS kind, r.player, coalesce(n.name, '') AS name, r.shown,"
    " r.games, 0 AS listed, 0 AS above FROM (SELECT community, player, shown, games"
    " FROM ratings WHERE community = :community AND game = :game AND season = :season"
    " AND games >= :listed_after ORDER BY shown DESC, {inner} DESC LIMIT :size) AS r"
    " LEFT JOIN rating_names AS n ON n.community = r.community AND n.player = r.player"
    " UNION ALL SELECT 1, m.player, coalesce(n.name, ''), m.shown, m.games, c.listed,"
    " c.above FROM (SELECT count(*) AS listed, {above} AS above FROM ratings"
    " WHERE community = :community AND game = :game AND season = :season"
    " AND games >= :listed_after) AS c LEFT JOIN ratings AS m ON m.community = :community"
    " AND m.game = :game AND m.season = :season AND m.player = :player"
    " AND m.games >= :listed_after LEFT JOIN rating_names AS n"
    " ON n.community = m.community AND n.player = m.player) AS board"
    " ORDER BY kind, shown DESC, {outer} DESC")
_MINE = ("(SELECT shown FROM ratings WHERE community = :community AND game = :game"
         " AND season = :season AND player = :player)")
BOARD = Sql(_BOARD.format(inner="player", outer="player",
                          above=f"coalesce(sum(shown > {_MINE}), 0)"),
            postgres=_BOARD.format(inner='player COLLATE "C"', outer='player COLLATE "C"',
                                   above=f"count(*) FILTER (WHERE shown > {_MINE})"))
# Statistics for PostgreSQL's planner after a rebuild rewrote the tables (SQLite keeps
# none: its plans here follow the indexes alone).
ANALYZE_RATINGS = Sql("SELECT 1", postgres="ANALYZE ratings, rating_changes, rating_names")
PLAYER_RATINGS = Sql(
    "SELECT game, shown, games FROM ratings WHERE player = :player AND community = :community"
    " AND season = :season ORDER BY game")
PLAYER_HISTORY = Sql(
    "SELECT game, shown FROM rating_changes WHERE player = :player AND community = :community"
    " AND season = :season ORDER BY game, seq")
USER_RATINGS = Sql(
    "SELECT community, game, season, shown, games FROM ratings WHERE player = :player"
    " AND substr(community, 1, :length) = :prefix ORDER BY community, game, season")
TEAM_RECORDS = Sql(
    "SELECT players, rules, games, best_score, perfect, under_ten, streak, best_streak,"
    " best_seq FROM team_records WHERE community = :community AND game = :game"
    " ORDER BY players, rules")
RECORD_TEAM = Sql(
    "SELECT coalesce(n.name, '') FROM rating_entrants AS e JOIN rating_log AS l"
    " ON l.seq = e.seq LEFT JOIN rating_names AS n ON n.community = l.community"
    " AND n.player = e.participant WHERE e.seq = :seq AND e.participant LIKE 'u:%'"
    " AND e.place = 1 ORDER BY e.pos")
RATING_SEASONS = Sql("SELECT DISTINCT season FROM rating_log WHERE community = :community")
PLAYERS_NAMED = Sql("SELECT player FROM rating_names WHERE community = :community"
                    " AND name = :name ORDER BY player")
IS_PLAYER = Sql("SELECT 1 FROM rating_names WHERE community = :community AND player = :player")

# /forgetme: the person's id leaves the log for a stand-in; their derived rows go.
_IN_PLATFORM = "substr(community, 1, :length) = :prefix"
FORGET_ENTRANTS = Sql(
    "UPDATE rating_entrants SET participant = :stand_in WHERE participant = :player"
    " AND (SELECT substr(l.community, 1, :length) FROM rating_log AS l"
    " WHERE l.seq = rating_entrants.seq) = :prefix")
FORGET_RATINGS = Sql(f"DELETE FROM ratings WHERE player = :player AND {_IN_PLATFORM}")
FORGET_RATING_CHANGES = Sql(
    f"DELETE FROM rating_changes WHERE player = :player AND {_IN_PLATFORM}")
FORGET_RATING_NAMES = Sql(f"DELETE FROM rating_names WHERE player = :player AND {_IN_PLATFORM}")
