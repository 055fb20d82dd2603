"""What a platform reports about its places, as values: a channel (or a whole chat) the
bot lost, one it can write to again, a chat that got a new id. Adapters hand each to one
entry point, `happened`, whatever the platform calls it (Discord's deleted channel or
thread, Telegram's bot removed from a group or topic reopened...)."""

from dataclasses import dataclass

from bot.tables import Tables


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


PlatformEvent = ChannelLost | ChannelBack | ChatMoved


async def happened(tables: Tables, event: PlatformEvent) -> None:
    """The tables concerned carry on, close or follow: see the `Tables` method each event
    comes to."""
    match event:
        case ChannelLost(channel, whole_chat=True):
            await tables.chat_closed(channel)
        case ChannelLost(channel):
            await tables.channel_closed(channel)
        case ChannelBack(channel, with_topics):
            await tables.channel_back(channel, with_topics=with_topics)
        case ChatMoved(old_chat, new_chat):
            await tables.chat_moved(old_chat, new_chat)


__all__ = ["ChannelBack", "ChannelLost", "ChatMoved", "PlatformEvent", "happened"]
