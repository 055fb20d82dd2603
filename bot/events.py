"""What a platform reports about its places and people, as values: a channel (or a whole
chat) the bot lost, one it can write to again, a chat that got a new id, the language a
person's app runs in. Adapters hand each to one entry point, `happened`, whatever the
platform calls it (Discord's deleted channel or thread, Telegram's bot removed from a
group or topic reopened, an interaction's locale or a user's `language_code`...)."""

import logging
from dataclasses import dataclass
from typing import Protocol

from bot.table import Table
from db.repository import CLOSED, LOBBY, PLAYING, Repository, StorageError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ChannelLost:
    """The bot can no longer write in `channel` (deleted, or the bot removed). With
    `whole_chat`, `channel` is a chat: its table and those of its topics close."""

    channel: str
    whole_chat: bool = False


@dataclass(frozen=True, slots=True)
class ChannelBack:
    """The bot can write in `channel` again; with `with_topics`, in its topics too."""

    channel: str
    with_topics: bool = False


@dataclass(frozen=True, slots=True)
class ChatMoved:
    """A chat got a new id (a Telegram group became a supergroup): its tables follow."""

    old_chat: str
    new_chat: str


@dataclass(frozen=True, slots=True)
class LocaleSeen:
    """An event of `user_id` said their app runs in `locale` (`fr-FR`, `en_US`; None or
    empty when it did not say). Adapters report it with every command and press."""

    user_id: str
    locale: str | None


PlatformEvent = ChannelLost | ChannelBack | ChatMoved | LocaleSeen


class Channels(Protocol):
    async def channel_moved(self, old: str, new: str) -> None: ...


class Places(Protocol):
    """What platform events ask of the tables around them."""

    repo: Repository
    platform: str

    @property
    def people(self) -> Channels: ...

    def table(self, table_id: int) -> Table: ...

    async def loaded_table(self, table_id: int) -> Table | None: ...

    def read_again(self, table_id: int) -> None: ...

    def let_go_if_unused(self, table: Table) -> None: ...

    def remember_locale(self, user_id: str, locale: str | None) -> None: ...


async def happened(places: Places, event: PlatformEvent) -> None:
    """The tables concerned carry on, close or follow; a person's app language is
    remembered."""
    match event:
        case LocaleSeen(user_id, locale):
            locale_seen(places, user_id, locale)
        case ChannelLost(channel, whole_chat=True):
            await chat_closed(places, channel)
        case ChannelLost(channel):
            await channel_closed(places, channel)
        case ChannelBack(channel, with_topics):
            await channel_back(places, channel, with_topics=with_topics)
        case ChatMoved(old_chat, new_chat):
            await chat_moved(places, old_chat, new_chat)


def locale_seen(places: Places, user_id: str, locale: str | None) -> None:
    """Remembered at once, and stored in the background (`People.remember_locale`): the
    command or press that carried it does not wait on storage. A person's language is a
    preference: its failure is logged, never put in the way of what they asked."""
    try:
        places.remember_locale(user_id, locale)
    except Exception:
        log.exception("the app language of %s could not be remembered", user_id)


async def channel_gone(places: Places, table_id: int) -> None:
    """The table's channel is gone: the table closes, and is kept as lost there."""
    table = places.table(table_id)
    await table.channel_gone()
    places.let_go_if_unused(table)  # closed without being read: nothing to keep


async def chat_closed(places: Places, chat: str) -> None:
    """The bot left a whole chat: close its table and those of its topics/threads."""
    for row in await places.repo.unfinished_tables():
        if row.platform == places.platform and (row.channel == chat
                                                or row.channel.startswith(f"{chat}:")):
            await channel_gone(places, row.id)


async def channel_closed(places: Places, channel: str) -> None:
    """An adapter learnt that a channel is gone (e.g. the bot was removed from a group)."""
    row = await places.repo.open_table_in(places.platform, channel)
    if row is not None:
        await channel_gone(places, row.id)


async def chat_moved(places: Places, old_chat: str, new_chat: str) -> None:
    """A chat got a new id (a Telegram group became a supergroup): its tables follow,
    keep their state and language, and post their table message in the new chat."""
    try:
        moved = await places.repo.move_chat(places.platform, old_chat, new_chat)
        if moved:
            await places.people.channel_moved(old_chat, new_chat)
    except StorageError:
        log.exception("tables of chat %s could not follow it to %s", old_chat, new_chat)
        return
    for table_id in moved:
        places.read_again(table_id)  # with its new channel
        table = await places.loaded_table(table_id)
        if table is not None:
            await table.show_table()


async def channel_back(places: Places, channel: str, *, with_topics: bool = False
                       ) -> list[int]:
    """The bot can write in `channel` again (a topic reopened, the bot added back or
    given its rights): a table closed there for losing it carries on, with a fresh
    deadline, if it is still the channel's newest table. Returns their ids."""
    try:
        rows = await places.repo.newest_tables_in(places.platform, channel,
                                                  with_topics=with_topics)
    except StorageError:
        log.exception("tables of %s could not be read", channel)
        return []
    back: list[int] = []
    for row in rows:
        if row.status == CLOSED and row.settings.get("lost") in (LOBBY, PLAYING):
            table = places.table(row.id)
            if await table.revive() is not None:
                back.append(row.id)
            places.let_go_if_unused(table)
    return back


__all__ = ["ChannelBack", "ChannelLost", "ChatMoved", "LocaleSeen", "Places", "PlatformEvent",
           "channel_back", "channel_gone", "happened"]
