"""The ratings part of the storage interface: its row types and methods.

A rated game's end writes one rating log entry (its sequence number, game, community,
season and participants with their placings) in the transaction that stores the game's
result, and applies it to the derived ratings there too. What a rating *is* (the model,
the seasons) is not storage's business: the caller hands a `Rater`, plain module-level
code (`bot.ratings.Rater`), which the body calls inside the transaction.

Participants are text: `u:<platform user id>` for a person, `bot:<level>`, and
`gone:<random>` for a person /forgetme replaced in the log.
"""

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

PERSON = "u:"
STAND_IN = "gone:"


def person_key(user_id: str) -> str:
    return PERSON + user_id


class Rater(Protocol):
    """The rating model, as storage uses it (`bot.ratings.Rater`)."""

    def rate(self, game: str, placings: Sequence[tuple[str, int]],
             current: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        """New (μ, σ) of the people among `placings`; `current` holds those known."""
        ...

    def shown(self, mu: float, sigma: float) -> int: ...

    def season(self, now: float, newest: tuple[str, float] | None) -> str:
        """The season of a game ending `now`, given the log's newest (season, time)."""
        ...

    @property
    def new(self) -> tuple[float, float]:
        """A new person's (μ, σ)."""
        ...


@dataclass(frozen=True)
class RatedGame:
    """What `commit_move` needs to rate the game its move ends.

    `participants`: each with their placing (`bot.ratings.participants`). `names`: the
    name each person played under, for leaderboards. A cooperative game gives `rules`
    and `score` (its team records); the others leave them None. The table's community,
    stored when it opened, is read in the transaction: a table without one is not rated.
    """

    game: str
    players: int
    participants: list[tuple[str, int]]
    rater: Rater
    names: dict[str, str] = field(default_factory=dict)
    rules: str | None = None
    score: int | None = None


@dataclass(frozen=True)
class RatingChange:
    player: str
    shown: int
    delta: int


@dataclass(frozen=True)
class Standing:
    place: int  # 1 + the listed players with a higher number: ties share a place
    player: str
    name: str
    shown: int
    games: int


@dataclass(frozen=True)
class Leaderboard:
    top: list[Standing]
    own: Standing | None  # the asker's own line when listed outside the top
    listed: int  # how many players are listed (3 rated games or more)


@dataclass(frozen=True)
class PlayerRating:
    community: str
    game: str
    season: str
    shown: int
    games: int
    history: list[int]  # the shown number after each of the season's games, oldest first


@dataclass(frozen=True)
class TeamRecord:
    players: int
    rules: str
    games: int
    best_score: int
    perfect: int
    under_ten: int
    streak: int
    best_streak: int
    best_team: list[str]  # names of the record-setting game's people, as last known


class Ratings(ABC):
    @abstractmethod
    async def replay_ratings(self, rater: Rater) -> int:
        """At start-up: apply every log entry the derived ratings have not taken in yet
        (an interrupted rebuild, a process that stored entries and stopped); how many."""

    @abstractmethod
    async def rebuild_ratings(self, rater: Rater) -> int:
        """Recompute every derived rating and record from the log, in sequence order, in
        one transaction; how many entries it applied."""

    @abstractmethod
    async def game_ratings(self, table_id: int) -> list[RatingChange]:
        """The changes the table's last rated game made, for its final ranking."""

    @abstractmethod
    async def leaderboard(self, community: str, game: str, season: str, player: str | None,
                          *, size: int = 10, listed_after: int = 3) -> Leaderboard:
        """The top `size` of those with `listed_after` rated games or more, and `player`'s
        own line when listed outside it."""

    @abstractmethod
    async def player_ratings(self, community: str, player: str, season: str,
                             ) -> list[PlayerRating]:
        """A person's rating per game in a community and season, with its history."""

    @abstractmethod
    async def user_ratings(self, platform: str, user_id: str) -> list[PlayerRating]:
        """Every rating a person holds on a platform (for /mydata), without history."""

    @abstractmethod
    async def team_records(self, community: str, game: str) -> list[TeamRecord]: ...

    @abstractmethod
    async def rating_seasons(self, community: str) -> list[str]:
        """The seasons the community has rated games in, oldest first."""

    @abstractmethod
    async def newest_rating(self) -> tuple[str, float] | None:
        """The log's newest entry's season and time: what decides the current season."""

    @abstractmethod
    async def community_players(self, community: str, name: str) -> list[str]:
        """The people of a community who last played under `name` (case as stored)."""

    @abstractmethod
    async def table_community(self, table_id: int) -> str | None:
        """The community a table was opened for (a new game at the same table keeps it)."""

    @abstractmethod
    async def is_community_player(self, community: str, player: str) -> bool: ...
