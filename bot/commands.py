"""What a person typed, as a value: the one door through which every adapter's commands
reach the tables.

An adapter reads a platform's command (a Telegram `/join`, a Discord slash command, a line
typed at the console) into one of these values and hands it to `run` with who typed it
(from the platform) and where (the channel key, as tables store it). What each command
does, and every check and sentence, is `Tables`'; the values only say what was asked, so
a new client (a web table) adds no new path into the bot. Answers the adapters word
themselves (`/rules`, `/help`) and a person's own data (`bot.privacy`) are not here.
"""

from dataclasses import dataclass, field
from typing import assert_never

from bot import standings
from bot.authority import MemberCheck
from bot.live import Actor, Reply
from bot.tables import Tables


@dataclass(frozen=True, slots=True)
class NewGame:
    """`/newgame <game> [options]`; `title` names the table where the platform gives one,
    `community` the group or server its games are rated in (`bot.ratings.community`, from
    the platform: None in a private chat)."""

    game: str
    options: list[str] = field(default_factory=list)
    title: str = ""
    community: str | None = None


@dataclass(frozen=True, slots=True)
class Join:
    pass


@dataclass(frozen=True, slots=True)
class Leave:
    pass


@dataclass(frozen=True, slots=True)
class AddBot:
    pass


@dataclass(frozen=True, slots=True)
class RemoveBot:
    pass


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Cancel:
    pass


@dataclass(frozen=True, slots=True)
class Kick:
    """`target`: a user id or the name a seat is held under, as typed."""

    target: str


@dataclass(frozen=True, slots=True)
class Options:
    """`/options`: without words, what they are; with words, a change."""

    words: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Play:
    """`/play 7 7 J`, and `/pass` (the move "pass"). `table_id`: a client that shows one
    table (a web page) plays at that table, not at whichever is the channel's now, so a
    page of a table that ended cannot play at the next one."""

    move: str
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Hand:
    pass


@dataclass(frozen=True, slots=True)
class Show:
    """`/table`: the table posted again."""


@dataclass(frozen=True, slots=True)
class Scores:
    pass


@dataclass(frozen=True, slots=True)
class Stats:
    pass


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """`/leaderboard [game] [season]`, in `community` (from the platform: None in a
    private chat, which has no ladder)."""

    community: str | None
    words: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Rating:
    """`/rating [player]`, in `community`. `player` is a user id only the platform names
    (a reply, a mention, a user option); `name` is how to call them, or, without a
    `player`, a name the community's tables showed, to look up. Neither: the asker."""

    community: str | None
    player: str | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Lang:
    """`/lang`: the person's own language, or (`personal=False`) the channel's."""

    lang: str
    personal: bool


@dataclass(frozen=True, slots=True)
class Mentions:
    on: bool


@dataclass(frozen=True, slots=True)
class JoinLink:
    """A deep link's table reference, opened in a private chat. Whether the person is a
    member of the table's chat the platform says (`is_member`), never the link."""

    ref: str
    is_member: MemberCheck = field(compare=False)


Command = (NewGame | Join | Leave | AddBot | RemoveBot | Start | Cancel | Kick | Options | Play
           | Hand | Show | Scores | Stats | Leaderboard | Rating | Lang | Mentions | JoinLink)


async def run(tables: Tables, actor: Actor, channel: str, command: Command) -> Reply:
    """The answer to `command`, typed by `actor` in `channel`: a command acts on the
    channel's open table, whatever it names."""
    match command:
        case NewGame(game, options, title, community):
            return await tables.new_game(actor, channel, game, list(options), title=title,
                                         community=community)
        case Join():
            return await tables.join(actor, channel)
        case Leave():
            return await tables.leave(actor, channel)
        case AddBot():
            return await tables.add_bot(actor, channel)
        case RemoveBot():
            return await tables.remove_bot(actor, channel)
        case Start():
            return await tables.start_game(actor, channel)
        case Cancel():
            return await tables.cancel(actor, channel)
        case Kick(target):
            return await tables.kick(actor, channel, target)
        case Options(words):
            return await tables.set_options(actor, channel, list(words))
        case Play(move, table_id):
            if table_id is None:
                return await tables.play(actor, channel, move)
            return await tables.play_at(actor, table_id, move)
        case Hand():
            return await tables.hand(actor, channel)
        case Show():
            return await tables.show(actor, channel)
        case Scores():
            return await tables.scores(actor, channel)
        case Stats():
            return await tables.stats(actor, channel)
        case Leaderboard(community, words):
            return await standings.leaderboard(tables, actor, channel, community, list(words))
        case Rating(community, player, name):
            return await standings.rating(tables, actor, channel, community, player, name)
        case Lang(lang, personal):
            return await tables.set_lang(actor, channel, lang, personal=personal)
        case Mentions(on):
            return await tables.set_mentions(actor, on)
        case JoinLink(ref, is_member):
            return await tables.join_link(actor, ref, is_member)
        case _:
            assert_never(command)


__all__ = ["AddBot", "Cancel", "Command", "Hand", "Join", "JoinLink", "Kick", "Lang",
           "Leaderboard", "Leave", "Mentions", "NewGame", "Options", "Play", "Rating",
           "RemoveBot", "Scores", "Show", "Start", "Stats", "run"]
