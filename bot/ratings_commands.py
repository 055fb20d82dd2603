"""/leaderboard, /rating and the final ranking's new ratings, in words: what every
platform's handler calls once it has read who asks, where, and the arguments.

A handler passes the community of the place asked in (None in a private chat) and gets an
`Answer`: the text, and whether it is a refusal (shown privately, as refusals are). Bad
input (an unknown game, a season that does not exist, a player who is not in this
community, a private chat) is refused in words and reads nothing more.
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot import clean, ratings
from bot.i18n import count, number, t
from bot.options import resolve_game
from db.ratings import Leaderboard, PlayerRating, RatingChange, Ratings, Standing, TeamRecord


@dataclass(frozen=True)
class Answer:
    text: str
    refusal: bool = False


def refuse(lang: str, key: str, **params: object) -> Answer:
    return Answer(t(lang, f"ratings.{key}", **params), refusal=True)


def game_names(lang: str, ids: tuple[str, ...] = ratings.RATED_GAMES + ratings.TEAM_GAMES,
               ) -> str:
    return ", ".join(t(lang, f"game.{game_id}") for game_id in ids)


async def current_season(repo: Ratings, rater: ratings.Rater, now: float | None = None,
                         ) -> str:
    """The season a game ending now would be rated in: the one /leaderboard shows."""
    return rater.season(time.time() if now is None else now, await repo.newest_rating())


async def leaderboard(repo: Ratings, rater: ratings.Rater, lang: str, community: str | None,
                      words: list[str], asker: str | None, now: float | None = None,
                      ) -> Answer:
    """`/leaderboard [game] [season]`; without a game, every rated game with a ladder."""
    if community is None:
        return refuse(lang, "private_chat")
    season_word = words[-1] if words and _looks_like_season(words[-1]) else None
    game_words = words[:-1] if season_word is not None else words
    game = None
    if game_words:
        game = resolve_game(" ".join(game_words))
        if game is None or game not in ratings.RATED_GAMES + ratings.TEAM_GAMES:
            return refuse(lang, "unknown_game", text=clean.echo(" ".join(game_words)),
                          games=game_names(lang))
    if game in ratings.TEAM_GAMES:
        return Answer(await records(repo, lang, community, game))
    if season_word is None:
        season = await current_season(repo, rater, now)
    else:
        seasons = await repo.rating_seasons(community)
        if season_word.upper() not in seasons and season_word not in seasons:
            if not seasons:
                return refuse(lang, "no_seasons")
            return refuse(lang, "unknown_season", text=clean.echo(season_word),
                          seasons=", ".join(seasons))
        season = season_word.upper() if season_word.upper() in seasons else season_word
    asked = None if asker is None else ratings.person(asker)
    chosen = [game] if game is not None else list(ratings.RATED_GAMES)
    parts = []
    for game_id in chosen:
        board = await repo.leaderboard(community, game_id, season, asked,
                                       listed_after=ratings.LISTED_AFTER)
        if board.top or game is not None:
            parts.append(board_text(lang, game_id, season, board))
    if not parts:
        parts.append(t(lang, "leaderboard_empty", game=game_names(lang, ratings.RATED_GAMES),
                       season=season, needed=ratings.LISTED_AFTER))
    return Answer("\n\n".join(parts))


def _looks_like_season(word: str) -> bool:
    return ratings.is_season(word.upper()) or any(c.isdigit() for c in word)


def board_text(lang: str, game: str, season: str, board: Leaderboard) -> str:
    name = t(lang, f"game.{game}")
    if not board.top:
        return t(lang, "leaderboard_empty", game=name, season=season,
                 needed=ratings.LISTED_AFTER)
    lines = [t(lang, "leaderboard_title", game=name, season=season)]
    lines += [_line(lang, "leaderboard_line", standing) for standing in board.top]
    if board.own is not None:
        lines.append(_line(lang, "leaderboard_you", board.own))
    lines.append(t(lang, "leaderboard_listed", listed=board.listed,
                   needed=ratings.LISTED_AFTER))
    return "\n".join(lines)


def _line(lang: str, key: str, standing: Standing) -> str:
    return t(lang, key, place=standing.place, name=standing.name, rating=standing.shown,
             games=count(lang, "game", standing.games))


async def records(repo: Ratings, lang: str, community: str, game: str) -> str:
    found = await repo.team_records(community, game)
    name = t(lang, f"game.{game}")
    if not found:
        return t(lang, "records_none", game=name)
    return "\n".join([t(lang, "records_title", game=name),
                      *(record_text(lang, record) for record in found)])


def record_text(lang: str, record: TeamRecord) -> str:
    rules = (t(lang, f"rules.{record.rules}") if record.rules in ("standard", "expert")
             else record.rules)
    line = t(lang, "records_line", players=record.players, rules=rules, best=record.best_score,
             perfect=record.perfect, under=record.under_ten, streak=record.streak,
             best_streak=record.best_streak, games=record.games)
    if record.best_team:
        line += "\n" + t(lang, "records_team", names=", ".join(record.best_team))
    return line


async def rating(repo: Ratings, rater: ratings.Rater, lang: str, community: str | None,
                 player: str, name: str, now: float | None = None) -> Answer:
    """`/rating [player]`: `player` is the person the platform named (the asker, a reply,
    a mention, a user option), `name` how to call them."""
    if community is None:
        return refuse(lang, "private_chat")
    who = ratings.person(player)
    if not await repo.is_community_player(community, who):
        return refuse(lang, "not_in_community", name=clean.echo(name))
    season = await current_season(repo, rater, now)
    found = await repo.player_ratings(community, who, season)
    if not found:
        return Answer(t(lang, "rating_none", name=name, season=season))
    return Answer("\n".join([t(lang, "rating_title", name=name, season=season),
                             *(rating_line(lang, one) for one in found)]))


def rating_line(lang: str, one: PlayerRating) -> str:
    # The trend: where the season has taken the player, from the 1,500 it starts everyone.
    trend = one.shown - ratings.CENTRE
    return t(lang, "rating_line", game=t(lang, f"game.{one.game}"), rating=one.shown,
             games=count(lang, "game", one.games), trend=number(trend, signed=True, lang=lang))


async def find_player(repo: Ratings, community: str, name: str) -> list[str]:
    """People of the community who played under `name` (Telegram's "the name the tables
    show"): user ids, several when names clash."""
    found = await repo.community_players(community, name.strip())
    return [user for user in map(ratings.user_of, found) if user is not None]


def final_lines(lang: str, changes: list[RatingChange], names: dict[str, str]) -> list[str]:
    """"Ana 1,512 (+14)" for each person a finished game rated, best first."""
    return [t(lang, "final_rating", name=names.get(change.player, "?"), rating=change.shown,
              change=number(change.delta, signed=True, lang=lang))
            for change in changes]


class Seated(Protocol):
    @property
    def user_id(self) -> str | None: ...

    @property
    def is_bot(self) -> bool: ...

    @property
    def name(self) -> str: ...


async def game_lines(repo: Ratings, table_id: int, seats: Sequence[Seated], lang: str,
                     ) -> list[str]:
    """The final ranking's ratings: each person seated at the end with their new number
    and its change; nothing for a game that rated nobody (friendly, not rated here)."""
    names = {ratings.person(seat.user_id): seat.name for seat in seats
             if seat.user_id and not seat.is_bot}
    found = [change for change in await repo.game_ratings(table_id) if change.player in names]
    if not found:
        return []
    return [t(lang, "final_ratings"), *final_lines(lang, found, names)]


def help_text(lang: str) -> str:
    return t(lang, "help_ratings", start=ratings.CENTRE)
