"""The ratings' repository methods and bodies, written once for both databases
(`db.store` says how a body runs).

`rate_game` runs inside the transaction that stores a game's end (each driver's
`commit_move` calls it), so a finished game and its rating are never separated. It logs
the game, then applies every entry of the community the derived tables have not taken in
(normally just this one) under the community's lock: two games ending at once in one
community are applied one after the other, in the log's order, as a rebuild would.
"""

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import db.statements as S
from db.ratings import (
    PERSON,
    STAND_IN,
    Leaderboard,
    PlayerRating,
    RatedGame,
    Rater,
    RatingChange,
    Ratings,
    Standing,
    TeamRecord,
    person_key,
)
from db.statements import Body, execute, execute_many, fetch, fetch_one

T = TypeVar("T")
logger = logging.getLogger(__name__)
# The Game's team records count the games the team finished with fewer than this many
# cards left, as its rulebook praises them.
UNDER = 10


class RatingStore(Ratings):
    """The ratings' methods of `db.store.Store`."""

    async def _do(self, mode: Any, body: Callable[..., Body[T]], *args: Any) -> T:
        raise NotImplementedError

    async def replay_ratings(self, rater: Rater) -> int:
        behind = await self._do("read", fetch_column, S.BEHIND_COMMUNITIES, {})
        applied = 0
        for community in behind:
            applied += await self._do("transaction", catch_up, community, rater)
        return applied

    async def rebuild_ratings(self, rater: Rater) -> int:
        return await self._do("transaction", rebuild, rater)

    async def game_ratings(self, table_id: int) -> list[RatingChange]:
        rows = await self._do("read", fetch_all, S.GAME_RATINGS, {"table_id": table_id})
        return [RatingChange(player, shown, delta) for player, shown, delta in rows]

    async def leaderboard(self, community: str, game: str, season: str, player: str | None,
                          *, size: int = 10, listed_after: int = 3) -> Leaderboard:
        return await self._do("read", leaderboard, {
            "community": community, "game": game, "season": season,
            "listed_after": listed_after}, size, player)

    async def player_ratings(self, community: str, player: str, season: str,
                             ) -> list[PlayerRating]:
        return await self._do("read", player_ratings, community, player, season)

    async def user_ratings(self, platform: str, user_id: str) -> list[PlayerRating]:
        prefix = f"{platform}:"
        rows = await self._do("read", fetch_all, S.USER_RATINGS, {
            "player": person_key(user_id), "length": len(prefix), "prefix": prefix})
        return [PlayerRating(community, game, season, shown, games, [])
                for community, game, season, shown, games in rows]

    async def team_records(self, community: str, game: str) -> list[TeamRecord]:
        return await self._do("read", team_records, community, game)

    async def rating_seasons(self, community: str) -> list[str]:
        seasons = await self._do("read", fetch_column, S.RATING_SEASONS,
                                 {"community": community})
        return sorted(seasons)

    async def newest_rating(self) -> tuple[str, float] | None:
        rows = await self._do("read", fetch_all, S.NEWEST_RATING, {})
        return (rows[0][0], float(rows[0][1])) if rows else None

    async def community_players(self, community: str, name: str) -> list[str]:
        return await self._do("read", fetch_column, S.PLAYERS_NAMED,
                              {"community": community, "name": name})

    async def table_community(self, table_id: int) -> str | None:
        found = await self._do("read", fetch_column, S.TABLE_COMMUNITY, {"table_id": table_id})
        return found[0] if found else None

    async def is_community_player(self, community: str, player: str) -> bool:
        rows = await self._do("read", fetch_all, S.IS_PLAYER,
                              {"community": community, "player": player})
        return bool(rows)


def stand_in() -> str:
    """A forgotten person's anonymous stand-in in the log: random, so it says nothing
    about them, and one per /forgetme, so that their games still rate as one player's."""
    return STAND_IN + secrets.token_hex(8)


# ------------------------------------------------------------------------------ bodies


def fetch_all(sql: S.Sql, params: dict[str, Any]) -> Body[list[Any]]:
    rows: list[Any] = yield fetch(sql, **params)
    return rows


def fetch_column(sql: S.Sql, params: dict[str, Any]) -> Body[list[Any]]:
    rows = yield fetch(sql, **params)
    return [row[0] for row in rows]


def rate_game(table_id: int, now: float, rated: RatedGame) -> Body[int | None]:
    """Log a finished game and apply it; its log sequence number, or None when its table
    has no community (opened before communities were stored): not rated."""
    row = yield fetch_one(S.LOCK_TABLE_COMMUNITY, table_id=table_id)
    if row is None:
        return None
    community, applied, logged = row
    newest = yield fetch_one(S.NEWEST_RATING)
    season = rated.rater.season(now, None if newest is None else (newest[0], float(newest[1])))
    (seq,) = yield fetch_one(
        S.INSERT_RATING_LOG, table_id=table_id, community=community, game=rated.game,
        season=season, now=now, players=rated.players, rules=rated.rules, score=rated.score)
    yield execute_many(S.INSERT_ENTRANT, [
        {"seq": seq, "pos": pos, "participant": who, "place": place}
        for pos, (who, place) in enumerate(rated.participants)])
    names = [{"community": community, "player": who, "name": name}
             for who, name in rated.names.items() if who.startswith(PERSON)]
    if names:
        yield execute_many(S.SET_RATING_NAME, names)
    if applied != logged:  # entries wait (see `apply_pending`): this one after them
        yield execute(S.SET_LOGGED, seq=seq, community=community)
        yield from apply_pending(community, applied, rated.rater)
        return int(seq)
    # The usual case: nothing waits, and this entry is applied from what is in hand.
    entry = Entry(seq, community, rated.game, season, rated.players, rated.rules, rated.score,
                  list(rated.participants))
    done = yield from apply_entry(entry, rated.rater)
    yield execute(S.SET_BOTH if done else S.SET_LOGGED, seq=seq, community=community)
    return int(seq)


@dataclass(frozen=True)
class Entry:
    seq: int
    community: str
    game: str
    season: str
    players: int
    rules: str | None
    score: int | None
    placings: list[tuple[str, int]]


def catch_up(community: str, rater: Rater) -> Body[int]:
    applied, _ = yield fetch_one(S.LOCK_COMMUNITY, community=community)
    count: int = yield from apply_pending(community, applied, rater)
    return count


def apply_pending(community: str, after: int, rater: Rater) -> Body[int]:
    """Apply the community's entries past `after` in sequence order, as far as the model
    can; how many. The caller holds the community's lock (`LOCK_COMMUNITY`).

    A model that fails on an entry (a bug) stops the community's ratings there, before
    that entry changed anything: the game that ended still ended, its entry stays in the
    log, and the replay at the next start (or `python -m bot ratings replay`) goes on from
    it once the model is fixed."""
    rows = yield fetch(S.PENDING_ENTRIES, community=community, after=after)
    entrants: dict[int, list[tuple[str, int]]] = {}
    if rows:  # all at once: a rebuild reads a community's whole log in two statements
        for seq, who, place in (yield fetch(S.PENDING_ENTRANTS, community=community,
                                            after=after)):
            entrants.setdefault(seq, []).append((who, place))
    applied = 0
    last = after
    for seq, game, season, players, rules, score in rows:
        placings = entrants.get(seq, [])
        entry = Entry(seq, community, game, season, players, rules, score, placings)
        if not (yield from apply_entry(entry, rater)):
            break
        applied += 1
        last = seq
    if last != after:
        yield execute(S.SET_APPLIED, seq=last, community=community)
    return applied


def apply_entry(entry: Entry, rater: Rater) -> Body[bool]:
    """Apply one entry; False, with nothing changed, when the model fails on it."""
    if entry.rules is not None and entry.score is not None:
        yield from apply_team(entry.seq, {
            "community": entry.community, "game": entry.game, "players": entry.players,
            "rules": entry.rules}, entry.score)
        return True
    key = {"community": entry.community, "game": entry.game, "season": entry.season}
    people = sorted({who for who, _ in entry.placings if not who.startswith("bot:")})
    rows = yield fetch(S.CURRENT_RATINGS, players=people, **key)
    try:
        rated = rate(rater, entry.game, entry.placings,
                     {player: (mu, sigma) for player, mu, sigma in rows})
    except Exception:
        logger.exception("rating log entry %s failed; the replay takes it up", entry.seq)
        return False
    ratings = []
    changes = []
    for who, mu, sigma, shown, delta in rated:
        ratings.append({**key, "player": who, "mu": mu, "sigma": sigma, "shown": shown})
        changes.append({**key, "seq": entry.seq, "player": who, "shown": shown,
                        "delta": delta})
    if ratings:
        yield execute_many(S.SET_RATING, ratings)
        yield execute_many(S.INSERT_RATING_CHANGE, changes)
    return True


def rate(rater: Rater, game: str, placings: list[tuple[str, int]],
         current: dict[str, tuple[float, float]]) -> list[tuple[str, float, float, int, int]]:
    """One game's arithmetic, shared by every way of applying it: each rated person's
    (player, μ, σ, shown, change), by player. Raises what the model raises."""
    new = rater.rate(game, placings, current)
    rated = []
    for who in sorted(new):
        mu, sigma = new[who]
        shown = rater.shown(mu, sigma)
        rated.append((who, mu, sigma, shown, shown - rater.shown(*current.get(who, rater.new))))
    return rated


def apply_team(seq: int, key: dict[str, Any], score: int) -> Body[None]:
    row = yield fetch_one(S.TEAM_RECORD, **key)
    yield execute(S.SET_TEAM_RECORD, **key, **next_record(row, seq, score))


def next_record(row: Any, seq: int, score: int) -> dict[str, Any]:
    """A team record (its TEAM_RECORD row, None for the first game) after one more game."""
    games, best, best_seq, perfect, under, streak, best_streak = row if row is not None else (
        0, None, seq, 0, 0, 0, 0)
    won = score == 0
    streak = streak + 1 if won else 0
    if best is None or score < best:  # the first to reach a score holds the record
        best, best_seq = score, seq
    return {"games": games + 1, "best_score": best, "best_seq": best_seq,
            "perfect": perfect + won, "under_ten": under + (score < UNDER), "streak": streak,
            "best_streak": max(best_streak, streak)}


def rebuild(rater: Rater) -> Body[int]:
    """Every derived row again from the log. The same arithmetic as the games' own updates
    (`apply_entry`, `next_record`), on values kept in memory instead of read back row by
    row: a community's log is read in two statements and its ratings written in three,
    whatever its length."""
    communities = yield fetch(S.LOCK_ALL_COMMUNITIES)
    yield execute(S.CLEAR_RATINGS)
    yield execute(S.CLEAR_RATING_CHANGES)
    yield execute(S.CLEAR_TEAM_RECORDS)
    yield execute(S.RESET_APPLIED)
    applied = 0
    for (community,) in communities:
        applied += yield from rebuild_community(community, rater)
    yield fetch(S.ANALYZE_RATINGS)
    return applied


def rebuild_community(community: str, rater: Rater) -> Body[int]:
    rows = yield fetch(S.PENDING_ENTRIES, community=community, after=0)
    entrants: dict[int, list[tuple[str, int]]] = {}
    for seq, who, place in (yield fetch(S.PENDING_ENTRANTS, community=community, after=0)):
        entrants.setdefault(seq, []).append((who, place))
    ratings: dict[tuple[str, str, str], list[Any]] = {}  # (game, season, player): row
    changes: list[dict[str, Any]] = []
    records: dict[tuple[str, int, str], Any] = {}
    last = 0
    for seq, game, season, players, rules, score in rows:
        placings = entrants.get(seq, [])
        if rules is not None and score is not None:
            found = records.get((game, players, rules))
            records[game, players, rules] = tuple(next_record(found, seq, score).values())
            last = seq
            continue
        people = {who for who, _ in placings if not who.startswith("bot:")}
        current = {who: (ratings[game, season, who][0], ratings[game, season, who][1])
                   for who in people if (game, season, who) in ratings}
        try:
            new = rater.rate(game, placings, current)
            before = {who: rater.shown(*current.get(who, rater.new)) for who in new}
            after = {who: rater.shown(*skill) for who, skill in new.items()}
        except Exception:
            logger.exception("rating log entry %s failed; the replay takes it up", seq)
            break
        for who in sorted(new):
            games = ratings[game, season, who][3] + 1 if (game, season, who) in ratings else 1
            ratings[game, season, who] = [*new[who], after[who], games]
            changes.append({"community": community, "game": game, "season": season,
                            "seq": seq, "player": who, "shown": after[who],
                            "delta": after[who] - before[who]})
        last = seq
    # A stand-in rated like the person it replaced, so that everyone else's numbers come
    # out the same; it is nobody's to show, and /forgetme left none behind.
    kept = [{"community": community, "game": game, "season": season, "player": who,
             "mu": mu, "sigma": sigma, "shown": shown, "games": games}
            for (game, season, who), (mu, sigma, shown, games) in ratings.items()
            if not who.startswith(STAND_IN)]
    if kept:
        yield execute_many(S.INSERT_RATING, kept)
    shown_changes = [change for change in changes if not change["player"].startswith(STAND_IN)]
    if shown_changes:
        yield execute_many(S.INSERT_RATING_CHANGE, shown_changes)
    if records:
        yield execute_many(S.SET_TEAM_RECORD, [
            {"community": community, "game": game, "players": players, "rules": rules,
             **dict(zip(("games", "best_score", "best_seq", "perfect", "under_ten", "streak",
                         "best_streak"), record, strict=True))}
            for (game, players, rules), record in records.items()])
    if last:
        yield execute(S.SET_APPLIED, seq=last, community=community)
    return sum(1 for row in rows if row[0] <= last)


def leaderboard(key: dict[str, Any], size: int, player: str | None) -> Body[Leaderboard]:
    rows = yield fetch(S.BOARD, size=size, player=player, **key)
    top: list[Standing] = []
    own = None
    listed = 0
    for kind, who, name, shown, games, counted, above in rows:
        if kind == 1:
            listed = counted
            if who is not None and all(s.player != who for s in top):
                own = Standing(above + 1, who, name, shown, games)
            continue
        # Ties share a place: 1 + the listed players with a higher number.
        place = next((s.place for s in top if s.shown == shown), len(top) + 1)
        top.append(Standing(place, who, name, shown, games))
    return Leaderboard(top, own, listed)


def player_ratings(community: str, player: str, season: str) -> Body[list[PlayerRating]]:
    key = {"community": community, "player": player, "season": season}
    rows = yield fetch(S.PLAYER_RATINGS, **key)
    history: dict[str, list[int]] = {}
    for game, shown in (yield fetch(S.PLAYER_HISTORY, **key)):
        history.setdefault(game, []).append(shown)
    return [PlayerRating(community, game, season, shown, games, history.get(game, []))
            for game, shown, games in rows]


def team_records(community: str, game: str) -> Body[list[TeamRecord]]:
    rows = yield fetch(S.TEAM_RECORDS, community=community, game=game)
    records = []
    for players, rules, games, best, perfect, under, streak, best_streak, best_seq in rows:
        team = yield fetch(S.RECORD_TEAM, seq=best_seq)
        records.append(TeamRecord(players, rules, games, best, perfect, under, streak,
                                  best_streak, [name for (name,) in team if name]))
    return records


def forget_ratings(platform: str, user_id: str, stand_in: str) -> Body[None]:
    """/forgetme's part in the ratings: in the log the person becomes `stand_in`, so a
    rebuild gives everyone else the same numbers; their ratings and name go."""
    prefix = f"{platform}:"
    person = {"player": person_key(user_id), "length": len(prefix), "prefix": prefix}
    yield execute(S.FORGET_ENTRANTS, stand_in=stand_in, **person)
    yield execute(S.FORGET_RATINGS, **person)
    yield execute(S.FORGET_RATING_CHANGES, **person)
    yield execute(S.FORGET_RATING_NAMES, **person)

