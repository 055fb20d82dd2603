"""PostgreSQL's short way for a rated game's end (docs/ratings.md, "Cost").

The long way (`store_ratings.rate_game`) is a transaction of a dozen statements, each a
round trip to the server. The short way computes the ratings first, from what this
process remembers of the community's ratings (`InHand`) or else from one read outside
any transaction, and hands them to `rate_end` (db/migrations_pg/0009) inside the very
statement that stores the move. That function checks, under the community's lock, that
every input of the computation is still what it was; if one moved (another process ended
a game, a /forgetme, a rebuild), the statement fails whole and the end is tried again from
a fresh read, then the long way. So what is written is always what the long way would
have written, in the log's order.
"""

from dataclasses import dataclass
from typing import Any

from db.ratings import PERSON, RatedGame
from db.store_ratings import rate

# What the short way computes from, read in one statement: the table's community,
# whether entries wait, the log's newest entry (the season), and the people's ratings in
# this game in every season (the season is decided from the newest entry, afterwards).
RATED_END_INPUTS = """
SELECT t.community, s.applied_seq, s.logged_seq, n.seq, n.season, n.finished_at,
       r.players, r.seasons, r.mus, r.sigmas
FROM tables AS t
LEFT JOIN rating_state AS s ON s.community = t.community
LEFT JOIN LATERAL (SELECT seq, season, finished_at FROM rating_log
                   ORDER BY seq DESC LIMIT 1) AS n ON true
CROSS JOIN LATERAL (SELECT array_agg(player) AS players, array_agg(season) AS seasons,
                           array_agg(mu) AS mus, array_agg(sigma) AS sigmas
                    FROM ratings WHERE community = t.community AND game = $2
                      AND player = ANY($3::text[])) AS r
WHERE t.id = $1
"""
# `rate_end`'s arguments after the move's ($1 to $19 of the move's statement).
RATE_END_CALL = (
    "rate_end(moved.id, $20::text, $21::bigint, $22::text, $23::text, $5::double precision,"
    " $24::integer, $25::text[], $26::integer[], $27::text[], $28::text[], $29::text[],"
    " $30::double precision[], $31::double precision[], $32::text[],"
    " $33::double precision[], $34::double precision[], $35::integer[], $36::integer[])")
# Beyond these, what is remembered starts again from nothing: a bound, not a policy.
MOST_TABLES = 10_000
MOST_RATINGS = 100_000

Skill = tuple[float, float]


Newest = tuple[int, str, float] | None  # the log's newest entry: seq, season, time
Ladder = dict[tuple[str, str, str], Skill | None]  # (game, season, player): None, absent


@dataclass(frozen=True)
class Plan:
    """One end's short way: `rate_end`'s arguments, and what to remember once stored."""

    community: str
    season: str
    arguments: list[Any]
    rated: list[tuple[str, float, float, int, int]]


def people_of(rated: RatedGame) -> list[str]:
    return sorted({who for who, _ in rated.participants if not who.startswith("bot:")})


class InHand:
    """What this process remembers of the ratings it read and wrote, so that an end in a
    community it knows needs no read before its one statement. Never trusted: `rate_end`
    checks every value taken from here."""

    def __init__(self) -> None:
        self.communities: dict[int, str] = {}  # table id: community
        self.ladders: dict[str, Ladder] = {}
        # The log's newest entry as this process last saw it, whatever the community: an
        # end in another community moves it, and a process ending the games of several
        # communities sees it move by its own ends.
        self.newest: Newest = None
        self.newest_known = False

    def table(self, table_id: int, community: str | None) -> None:
        if community is None:
            return
        if len(self.communities) >= MOST_TABLES:
            self.communities.clear()
        self.communities[table_id] = community

    def plan(self, table_id: int, now: float, rated: RatedGame) -> Plan | None:
        """From memory; None when something is not known."""
        community = self.communities.get(table_id)
        ladder = None if community is None else self.ladders.get(community)
        if community is None or ladder is None or not self.newest_known:
            return None
        return _plan(community, ladder, self.newest, now, rated)

    def learn(self, table_id: int, now: float, rated: RatedGame, row: Any) -> Plan | None:
        """From `RATED_END_INPUTS`' row; None when the end must go the long way: no
        community, entries waiting, a team game, or a model that fails."""
        (community, applied, logged, newest, newest_season, newest_at,
         players, seasons, mus, sigmas) = row
        if community is None or applied != logged:
            return None
        self.table(table_id, community)
        if sum(len(known) for known in self.ladders.values()) >= MOST_RATINGS:
            self.ladders.clear()
        ladder = self.ladders.setdefault(community, {})
        last = None if newest is None else (newest, newest_season, float(newest_at))
        self.newest, self.newest_known = last, True
        season = rated.rater.season(now, None if last is None else last[1:])
        for player in people_of(rated):
            ladder[rated.game, season, player] = None
        for player, in_season, mu, sigma in zip(players or (), seasons or (), mus or (),
                                                sigmas or (), strict=True):
            ladder[rated.game, in_season, player] = (mu, sigma)
        return _plan(community, ladder, last, now, rated)

    def stored(self, plan: Plan, entry: int, now: float, game: str) -> None:
        self.newest, self.newest_known = (entry, plan.season, now), True
        ladder = self.ladders.get(plan.community)
        if ladder is not None:
            for who, mu, sigma, _, _ in plan.rated:
                ladder[game, plan.season, who] = (mu, sigma)

    def forget(self, community: str) -> None:
        """After a failed check: which input moved is not said, so all of the
        community's is read again."""
        self.ladders.pop(community, None)
        self.newest_known = False


def _plan(community: str, ladder: Ladder, newest: Newest, now: float, rated: RatedGame
          ) -> Plan | None:
    if rated.rules is not None and rated.score is not None:
        return None  # a team game: its records go the long way
    season = rated.rater.season(now, None if newest is None else newest[1:])
    people = people_of(rated)
    keys = [(rated.game, season, player) for player in people]
    if any(key not in ladder for key in keys):
        return None
    before = [ladder[key] for key in keys]
    current = {player: skill for player, skill in zip(people, before, strict=True)
               if skill is not None}
    try:
        changes = rate(rated.rater, rated.game, list(rated.participants), current)
    except Exception:
        return None  # the long way logs the entry, and the failure
    if not changes:
        return None
    names = [(who, name) for who, name in rated.names.items() if who.startswith(PERSON)]
    arguments = [
        community, None if newest is None else newest[0], rated.game, season, rated.players,
        [who for who, _ in rated.participants], [place for _, place in rated.participants],
        [who for who, _ in names], [name for _, name in names],
        people, [None if skill is None else skill[0] for skill in before],
        [None if skill is None else skill[1] for skill in before],
        *(list(column) for column in zip(*changes, strict=True))]
    return Plan(community, season, arguments, changes)
