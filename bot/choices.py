"""What a person chooses for themselves, or an admin for a channel: `/lang` and `/mentions`.

`bot.people` stores the choice and keeps it in memory; here is the command around it (who
may choose, what they are told) and what changes on screen after it: a channel's tables
are drawn again in its new language, and a person's hands in the language they now read.
"""

import logging
from typing import Any, Protocol

from bot.i18n import LANGS, t
from bot.live import Actor, Reply
from bot.table import Table
from db.repository import Repository, StorageError

log = logging.getLogger(__name__)


class Choices(Protocol):
    async def set_lang(self, user_id: str, lang: str) -> None: ...

    async def set_channel_lang(self, channel: str, lang: str) -> None: ...

    async def set_mentions(self, user_id: str, on: bool) -> None: ...


class Choosing(Protocol):
    """What a person's choices ask of the tables around them."""

    repo: Repository
    platform: str

    @property
    def people(self) -> Choices: ...

    async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...

    async def refuse(self, actor: Actor, channel: str | None, key: str, /,
                     **params: Any) -> Reply: ...

    async def in_channel(self, channel: str) -> Table | None: ...

    async def loaded_table(self, table_id: int) -> Table | None: ...


async def set_lang(tables: Choosing, actor: Actor, channel: str, lang: str, *,
                   personal: bool) -> Reply:
    """`/lang`: the person's own language, or (an admin's) the channel's."""
    lang = lang.strip().lower()[:2]
    if lang not in LANGS:
        return await tables.refuse(actor, channel, "lang_unknown", langs=", ".join(LANGS))
    if personal:
        try:
            await tables.people.set_lang(actor.user_id, lang)
        except StorageError:
            return await tables.refuse(actor, channel, "storage_failed")
        return Reply(t(lang, "lang_set_personal"))
    if not actor.is_admin:
        return await tables.refuse(actor, channel, "admin_only")
    try:
        await tables.people.set_channel_lang(channel, lang)
    except StorageError:
        return await tables.refuse(actor, channel, "storage_failed")
    table = await tables.in_channel(channel)
    if table is not None:
        await table.show_in_channel_lang()
    return Reply(t(lang, "lang_set_channel"))


async def show_hands_of(tables: Choosing, user_id: str) -> None:
    """Their hand at every table in play where they hold a seat, drawn again: in the
    language they now read (`People` calls this when that changed). Their choice is
    stored already: a hand not redrawn for a storage fault follows at its next change."""
    try:
        for table_id in await tables.repo.playing_tables_of(tables.platform, user_id):
            table = await tables.loaded_table(table_id)
            if table is not None:
                await table.show_hands_of(user_id)
    except StorageError:
        log.warning("the hands of %s not redrawn in their new language", user_id,
                    exc_info=True)


async def set_mentions(tables: Choosing, actor: Actor, on: bool) -> Reply:
    """`/mentions on|off`: whether their turn is called with a mention."""
    try:
        await tables.people.set_mentions(actor.user_id, on)
    except StorageError:
        return await tables.refuse(actor, None, "storage_failed")
    lang = await tables.lang_of(actor.user_id)
    return Reply(t(lang, "mentions_on" if on else "mentions_off"))


__all__ = ["Choosing", "set_lang", "set_mentions", "show_hands_of"]
