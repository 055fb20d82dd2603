"""`/leaderboard` and `/rating` as commands: who asks, where, in which community.

The words are `bot.ratings_commands`'; this module hands them what the platform said (the
community of the place asked in, the person a reply, a mention or a user option named)
and what the person reads. Who a player is comes from the platform, or from a name the
community's tables showed: never from a user id typed as an argument.
"""

from typing import Protocol

from bot import clean, ratings, ratings_commands
from bot.faults import answers_storage_faults
from bot.i18n import t
from bot.live import Actor, Reply
from bot.settings import Settings
from db.repository import Repository

# A name longer than any name a table shows (`clean.MAX_NAME`, and a display name's
# platform limits) names nobody: it is refused without being looked up.
MAX_NAME = 128


class Asked(Protocol):
    repo: Repository
    settings: Settings

    async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...


def _reply(answer: ratings_commands.Answer) -> Reply:
    return Reply(answer.text, ok=not answer.refusal)


@answers_storage_faults
async def leaderboard(tables: Asked, actor: Actor, channel: str | None,
                      community: str | None, words: list[str]) -> Reply:
    lang = await tables.lang_of(actor.user_id, channel)
    return _reply(await ratings_commands.leaderboard(
        tables.repo, ratings.Rater(tables.settings.rating_season), lang, community,
        list(words), actor.user_id))


@answers_storage_faults
async def rating(tables: Asked, actor: Actor, channel: str | None, community: str | None,
                 player: str | None, name: str) -> Reply:
    """`player`: the user id the platform named (None: look `name` up among the names the
    community's tables showed; neither: the asker)."""
    lang = await tables.lang_of(actor.user_id, channel)
    rater = ratings.Rater(tables.settings.rating_season)
    if player is None and name.strip():
        if community is None:
            return _reply(ratings_commands.refuse(lang, "private_chat"))
        shown = name.strip().removeprefix("@")
        found = [] if len(shown) > MAX_NAME else await ratings_commands.find_player(
            tables.repo, community, shown)
        if len(found) > 1:
            return Reply(t(lang, "ratings.several", name=clean.echo(shown)), ok=False)
        if not found:
            return _reply(ratings_commands.refuse(lang, "not_in_community",
                                                  name=clean.echo(shown)))
        player, name = found[0], shown
    if player is None:
        player, name = actor.user_id, actor.name
    return _reply(await ratings_commands.rating(tables.repo, rater, lang, community, player,
                                                name or player))


__all__ = ["leaderboard", "rating"]
