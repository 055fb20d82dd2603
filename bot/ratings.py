"""Skill ratings: who takes part in a finished game, how ratings move, which season.

Pure: no I/O, no clock. The storage (`db.store`'s rated games) calls `Rater` inside the
transaction that stores a game's end, and the rebuild calls it again over the log, so
the same numbers come out of both.

- The model is openskill's Plackett–Luce: free-for-all placings with ties, every player
  a team of one. A rating is a belief (μ, σ): a new player is μ 25, σ 25/3.
- What is shown is the conservative ordinal μ − 3σ, scaled: `1500 + 20 × (μ − 3σ)`.
  Everyone starts at 1,500 (ordinal 0), and a settled player's number tells how good
  the system is sure they are. Because σ shrinks with every game, the shown number of a
  newcomer can rise after a last place: /help and docs/ratings.md say so.
- Bots are opponents with a fixed rating per game and level (`bot/bot_ratings.py`,
  measured by `bench/bot_ratings.py`). They are never updated and never listed.
- A participant is a person (`u:<platform user id>`), a bot level (`bot:<level>`), or a
  forgotten person's stand-in (`gone:<random>`), which replaces their id in the log.
"""

import calendar
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from openskill.models import PlackettLuce

from bot.bot_ratings import BOT_SKILLS
from db.ratings import PERSON, RatedGame
from db.ratings import person_key as person
from engine import games
from engine.core.types import Outcome

CENTRE = 1500
SCALE = 20
# The number of rated games in a community and season before a player is listed.
LISTED_AFTER = 3
# Games rated individually; The Game is cooperative and keeps team records instead.
RATED_GAMES = ("ochs-esel", "nix-fur-ungut", "michigan")
TEAM_GAMES = ("the-game",)

SeasonSetting = Literal["off", "month", "quarter"]
SEASON_SETTINGS: tuple[SeasonSetting, ...] = ("off", "month", "quarter")
DEFAULT_SEASON: SeasonSetting = "quarter"
# The one season of a community while RATING_SEASON is off.
EVERLASTING = "all"

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma


NEW = Skill()


def shown(skill: Skill) -> int:
    """The number players see: the conservative ordinal on a 1,500-centred scale."""
    return round(CENTRE + SCALE * (skill.mu - 3 * skill.sigma))


def bot(level: str) -> str:
    return f"bot:{level}"


def community(platform: str, space: str | None) -> str | None:
    """The community a table plays for, as stored: `telegram:<chat id>` (a forum topic's
    table counts for its whole group), `discord:<server id>`, `console:<anything>`; None
    where there is none (a private chat, a Discord DM), and its games are not rated."""
    return None if not space else f"{platform}:{space}"


def user_of(participant: str) -> str | None:
    """The platform user id of a person participant; None for a bot or a stand-in."""
    return participant.removeprefix(PERSON) if participant.startswith(PERSON) else None


def is_person(participant: str) -> bool:
    return participant.startswith(("u:", "gone:"))


# ----------------------------------------------------------------------- who is rated


class Seat(Protocol):
    """A seat at the game's end, as `db.repository.SeatRow` has it."""

    @property
    def user_id(self) -> str | None: ...

    @property
    def is_bot(self) -> bool: ...

    @property
    def former_user_id(self) -> str | None: ...


def participants(places: Sequence[int], seats: Sequence[Seat], level: str,
                 ) -> list[tuple[str, int]] | None:
    """Who a finished game rates, each with their placing; None when it rates nobody.

    `places` are the engine's (`Outcome.places`), one per seat. A person who left (their
    seat now a bot's, `former_user_id`) places last, after everyone who stayed, and the
    bot that took their seat is not rated for it. A game every person left, or that had
    none, rates nobody."""
    stayed = [(seat, place) for seat, place in zip(seats, places, strict=True)
              if not (seat.is_bot and seat.former_user_id)]
    left = [seat.former_user_id for seat in seats if seat.is_bot and seat.former_user_id]
    people = [(person(seat.user_id), place) for seat, place in stayed
              if not seat.is_bot and seat.user_id]
    if not people:
        return None
    rated = [(bot(level) if seat.is_bot or not seat.user_id else person(seat.user_id), place)
             for seat, place in stayed]
    # Places among those who stayed, so that a leaver's last place is right after them.
    ordered = [place for _, place in rated]
    rated = [(who, 1 + sum(other < place for other in ordered)) for who, place in rated]
    last = len(rated) + 1
    named = {who for who, _ in rated}
    leavers = [who for who in dict.fromkeys(map(person, left)) if who not in named]
    everyone = rated + [(who, last) for who in leavers]
    return everyone if len(everyone) > 1 else None


class NamedSeat(Seat, Protocol):
    @property
    def name(self) -> str: ...


def rated_game(game_id: str, options: Mapping[str, object], outcome: Outcome,
               seats: Sequence[NamedSeat], level: str, rater: "Rater") -> RatedGame | None:
    """What `commit_move(rating=…)` needs for a game's end; None when it rates nobody
    (a game without ratings, one every person left). The caller leaves out a friendly
    game (`rated=no`)."""
    if game_id not in RATED_GAMES + TEAM_GAMES:
        return None
    who = participants(outcome.places(len(seats)), seats, level)
    if who is None:
        return None
    names = {person(seat.user_id): seat.name for seat in seats
             if seat.user_id and not seat.is_bot}
    if game_id in TEAM_GAMES:
        variant = games.get(game_id).variant(dict(options))  # type: ignore[attr-defined]
        return RatedGame(game_id, len(seats), who, rater, names, str(variant),
                         outcome.scores[0])
    return RatedGame(game_id, len(seats), who, rater, names)


# ---------------------------------------------------------------------------- ratings


def bot_skill(game: str, participant: str) -> Skill:
    level = participant.removeprefix("bot:")
    mu, sigma = BOT_SKILLS.get(game, {}).get(level, (NEW.mu, NEW.sigma))
    return Skill(mu, sigma)


def rate(game: str, placings: Sequence[tuple[str, int]], current: Mapping[str, Skill],
         ) -> dict[str, Skill]:
    """The people's new skills after one game: `current` holds what the log made of them
    so far (a person missing from it is new). Bots play at their fixed skill and get no
    new one; a person appears once per game."""
    if len(placings) < 2:
        return {}  # nobody to be measured against
    skills = [bot_skill(game, who) if who.startswith("bot:") else current.get(who, NEW)
              for who, _ in placings]
    teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    after = _MODEL.rate(teams, ranks=[float(place) for _, place in placings])
    return {who: Skill(team[0].mu, team[0].sigma)
            for (who, _), team in zip(placings, after, strict=True) if is_person(who)}


@dataclass(frozen=True, slots=True)
class Rater:
    """What storage needs to rate a game inside its transaction: a plain value of
    module-level code, so it also crosses to SQLite's writer process."""

    season_setting: SeasonSetting = DEFAULT_SEASON

    @property
    def new(self) -> tuple[float, float]:
        return (NEW.mu, NEW.sigma)

    def rate(self, game: str, placings: Sequence[tuple[str, int]],
             current: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        new = rate(game, placings, {who: Skill(*skill) for who, skill in current.items()})
        return {who: (skill.mu, skill.sigma) for who, skill in new.items()}

    def shown(self, mu: float, sigma: float) -> int:
        return shown(Skill(mu, sigma))

    def season(self, now: float, newest: tuple[str, float] | None) -> str:
        return season_for(now, self.season_setting, newest)


# ---------------------------------------------------------------------------- seasons


def season_name(moment: float, setting: SeasonSetting) -> str:
    """The season `moment` (UNIX time) falls in under `setting`: `2026-Q4`, `2026-11`,
    or `all`. Boundaries are midnight UTC on the first day of a month or quarter."""
    if setting == "off":
        return EVERLASTING
    day = time.gmtime(moment)
    if setting == "month":
        return f"{day.tm_year}-{day.tm_mon:02d}"
    return f"{day.tm_year}-Q{(day.tm_mon - 1) // 3 + 1}"


def setting_of(season: str) -> SeasonSetting:
    if season == EVERLASTING:
        return "off"
    return "quarter" if "-Q" in season else "month"


def season_start(season: str) -> float | None:
    """When a dated season begins (UTC); None for the everlasting one."""
    if season == EVERLASTING:
        return None
    year, part = season.split("-")
    month = (int(part[1:]) - 1) * 3 + 1 if part.startswith("Q") else int(part)
    return float(calendar.timegm((int(year), month, 1, 0, 0, 0)))


def next_boundary(moment: float, setting: SeasonSetting) -> float:
    """The first month or quarter start after `moment`; never, for `off`."""
    if setting == "off":
        return math.inf
    day = time.gmtime(moment)
    step = 1 if setting == "month" else 3
    month = ((day.tm_mon - 1) // step) * step + 1 + step
    year = day.tm_year + (month - 1) // 12
    return float(calendar.timegm((year, (month - 1) % 12 + 1, 1, 0, 0, 0)))


def season_for(now: float, setting: SeasonSetting, newest: tuple[str, float] | None) -> str:
    """The season a game finishing at `now` is rated in.

    Decided from the rating log alone: `newest` is its newest entry's season and time.
    A change of RATING_SEASON takes effect at the next boundary: while the season of the
    newest entry has not reached its own end (a dated season), or, for the everlasting
    season, while no boundary of the new setting has passed since that entry, games go
    on into that season. So a switch from quarter to month in mid-November starts
    monthly seasons on 1 January, and one from off to month on the 1st of next month."""
    if newest is None:
        return season_name(now, setting)
    season, at = newest
    if setting_of(season) == setting:
        return season_name(now, setting)
    ends = next_boundary(at, setting) if season == EVERLASTING else next_boundary(
        at, setting_of(season))
    return season if now < ends else season_name(now, setting)


def is_season(text: str) -> bool:
    """Whether `text` is a season name at all (`2026-Q4`, `2026-11`, `all`)."""
    if text == EVERLASTING:
        return True
    year, _, part = text.partition("-")
    if not (len(year) == 4 and year.isdigit()):
        return False
    if part.startswith("Q") and part[1:] in ("1", "2", "3", "4"):
        return True
    return len(part) == 2 and part.isdigit() and 1 <= int(part) <= 12
