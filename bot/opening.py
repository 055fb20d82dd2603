"""Opening a table (`/newgame`) and taking a seat at one through a deep link.

Both come before there is a table to hand the request to: `/newgame` makes it, and a
deep link, opened in a private chat, names it by a reference that must first prove to be
one the bot made.
"""

from typing import Any, Protocol

from bot import changes, clean, present
from bot import options as table_options
from bot.authority import MemberCheck, RightsUnknown
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.render import decode_ref
from bot.settings import Settings
from bot.table import Table
from db.repository import LOBBY, PLAYING, Repository, SeatRow, StorageError, TableExists
from engine import BadOptions, bots, games
from engine.core.options import parse_options
from engine.core.protocol import Game


class ChannelLangs(Protocol):
    async def channel_lang(self, channel: str) -> str: ...


class Opening(Protocol):
    """What opening a table asks of the tables around it."""

    repo: Repository
    settings: Settings
    platform: str

    @property
    def people(self) -> ChannelLangs: ...

    async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...

    async def refuse(self, actor: Actor, channel: str | None, key: str, /,
                     **params: Any) -> Reply: ...

    async def bad_options(self, actor: Actor, channel: str, exc: BadOptions, game: Game
                          ) -> Reply: ...

    def new_seed(self) -> int: ...

    async def opened(self, table_id: int) -> Table: ...

    async def live_table(self, table_id: int) -> Live | None: ...

    async def genuine(self, table_id: int, tag: str) -> bool: ...

    async def loaded_table(self, table_id: int) -> Table | None: ...


async def new_game(tables: Opening, actor: Actor, channel: str, game_text: str,
                   option_words: list[str], title: str, community: str | None = None
                   ) -> Reply:
    """A lobby for `game_text` in `channel`, its opener seated as host; refused with the
    games known, the options' problem, or the table already open there. `community` (the
    platform's group or server, `bot.ratings.community`) is what its games are rated in."""
    if not (game_text or "").strip():
        lang = await tables.lang_of(actor.user_id, channel)
        return Reply(present.games_overview(lang), ok=False)
    game_text, option_words = table_options.split_game(game_text, option_words)
    game_id = table_options.resolve_game(game_text)
    if game_id is None:
        return await tables.refuse(actor, channel, "unknown_game",
                                   text=clean.echo(game_text or ""),
                                   games=", ".join(games.ids()))
    game = games.get(game_id)
    try:
        game_opts, table_settings = table_options.parse(option_words or [])
        parse_options(game.Options, game_opts)
    except table_options.OptionsError as exc:
        return await tables.refuse(actor, channel, exc.code, **exc.params)
    except BadOptions as exc:
        return await tables.bad_options(actor, channel, exc, game)
    settings = {
        "deadline": table_settings.get("deadline", tables.settings.turn_deadline),
        "bot_delay": table_settings.get("bot_delay", tables.settings.bot_delay),
        "bots": table_settings.get("bots", bots.DEFAULT_LEVEL),
        "rated": table_settings.get("rated", True),
        "title": clean.text(title, clean.MAX_NAME * 2) or channel,
    }
    host = SeatRow(seat=0, user_id=actor.user_id, name=actor.name)
    for attempt in range(2):
        try:
            row = await tables.repo.create_table(
                platform=tables.platform, channel=channel, game=game_id,
                options=table_options.opened(game, game_opts),
                settings=settings, seed=tables.new_seed(), host=actor.user_id,
                seats=[host], community=community)
            changes.note()
            break
        except TableExists as exc:
            other = await tables.live_table(exc.table_id)
            if other is None and attempt == 0:
                continue  # it could not be restored and loading closed it: try again
            name = other.game.NAME if other else "?"
            status = other.row.status if other else LOBBY
            lang = await tables.people.channel_lang(channel)
            return await tables.refuse(actor, channel, "table_exists", game=name,
                                       status=t(lang, f"status_{status}"))
        except StorageError:
            return await tables.refuse(actor, channel, "storage_failed")
    table = await tables.opened(row.id)
    await table.show_table()
    lang = await tables.lang_of(actor.user_id, channel)
    return Reply(t(lang, "lobby_opened", game=game.NAME), table_id=row.id)


async def join_link(tables: Opening, actor: Actor, text: str, is_member: MemberCheck
                    ) -> Reply:
    """A deep link's table reference, opened in a private chat: seat its user if the
    reference is one we made, the table still takes players, and the platform says
    they are a member of the table's chat (`is_member(user, channel)`, which raises
    `RightsUnknown` when it cannot say)."""
    decoded = decode_ref(text)
    try:
        genuine = decoded is not None and await tables.genuine(*decoded)
    except StorageError:  # the key could not be read
        return await tables.refuse(actor, None, "storage_failed")
    if decoded is None or not genuine:
        return await tables.refuse(actor, None, "bad_link")
    table = await tables.loaded_table(decoded[0])
    if table is None or table.live.row.platform != tables.platform \
            or table.live.row.status not in (LOBBY, PLAYING):
        return await tables.refuse(actor, None, "no_table")
    channel = table.live.row.channel
    try:
        member = await is_member(actor.user_id, channel)
    except RightsUnknown:
        return await tables.refuse(actor, channel, "rights_unknown")
    if not member:
        return await tables.refuse(actor, channel, "not_a_member")
    return await table.join(actor)


__all__ = ["Opening", "join_link", "new_game"]
