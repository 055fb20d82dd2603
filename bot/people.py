"""People: the language each person reads, their settings, and what is kept of them here.

A person reads privately in their /lang, else in their app's language as the platform last
said it, else in the channel's; public messages follow the channel's /lang. Every table asks
this on every message it draws, so what is read is kept in memory: the stored settings of
each person and channel met, and the app language of each person seen.

When what a person reads changes (a /lang of theirs, or their app's language while they
chose none), `on_lang_changed` is called once for them: the hands they hold are drawn again
in the language they now read. That redraw needs the tables, which this module does not
know; whoever holds the tables passes it in.
"""

import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import replace
from typing import Any

from bot import changes
from bot.i18n import LANGS
from bot.settings import Settings
from db.repository import Repository, StorageError, UserSettings

log = logging.getLogger(__name__)


class People:
    def __init__(
        self, repo: Repository, *, platform: str, settings: Settings,
        in_background: Callable[[Coroutine[Any, Any, None]], None],
        on_lang_changed: Callable[[str], Awaitable[None]],
    ) -> None:
        self.repo = repo
        self.platform = platform
        self.settings = settings
        # Runs the storing of an app language without the adapter waiting for it (and
        # lets shutdown and tests wait for it all the same).
        self._in_background = in_background
        self._on_lang_changed = on_lang_changed
        self._channel_langs: dict[str, str | None] = {}
        self._users: dict[str, UserSettings] = {}
        # user -> their app's language as last seen (None: one we don't speak); stored too
        self._locales: dict[str, str | None] = {}
        self._storing_locale: set[str] = set()  # users whose app language is being written

    # --- what is read -----------------------------------------------------------------------

    async def channel_lang(self, channel: str) -> str:
        if channel not in self._channel_langs:
            self._channel_langs[channel] = await self.repo.channel_lang(self.platform, channel)
        return self._channel_langs[channel] or self.settings.default_lang

    async def read_channel_langs(self, channels: Iterable[str]) -> None:
        """The languages of many channels in one read (start-up, for the turn calls and
        redraws of every table it resumes), but for those already known."""
        unknown = sorted(set(channels) - set(self._channel_langs))
        langs = await self.repo.channel_langs(self.platform, unknown)
        self._channel_langs.update({channel: langs.get(channel) for channel in unknown})

    async def user_settings(self, user_id: str) -> UserSettings:
        if user_id not in self._users:
            self._users[user_id] = await self.repo.user_settings(self.platform, user_id)
        return self._users[user_id]

    async def lang_of(self, user_id: str, channel: str | None = None) -> str:
        """What a person reads privately: their /lang, else their app's language, else the
        channel's (public messages always follow the channel)."""
        own = await self.own_lang(user_id)
        if own:
            return own
        return await self.channel_lang(channel) if channel else self.settings.default_lang

    async def own_lang(self, user_id: str) -> str | None:
        """A person's /lang, else their app's language; None when they follow the channel."""
        stored = await self.user_settings(user_id)
        return stored.lang or self._locales.get(user_id, stored.locale)

    # --- what the platform says -------------------------------------------------------------

    def remember_locale(self, user_id: str, locale: str | None) -> None:
        """The language the user's app runs in (`fr-FR`, `en-US`), as the platform says.

        Adapters call this on every event, from code that cannot wait: a change is
        stored in the background, so hands sent after a restart (before the person
        does anything) still come in their language. An event without a language says
        nothing about it and changes nothing.
        """
        if not locale:
            return
        code = locale.split("-")[0].split("_")[0].lower()
        known = code if code in LANGS else None
        if user_id in self._locales and self._locales[user_id] == known:
            return
        self._locales[user_id] = known
        if user_id not in self._storing_locale:  # that write takes the latest value
            self._storing_locale.add(user_id)
            self._in_background(self._store_locale(user_id))

    async def _store_locale(self, user_id: str) -> None:
        """Stores the app's language; a person with no /lang reads their hands in it, so
        the hands shown before the change are drawn again (once, whatever the events)."""
        redraw = False
        try:
            while True:
                stored = await self.user_settings(user_id)
                latest = self._locales.get(user_id, stored.locale)
                if stored.locale == latest:
                    break
                await self.repo.set_user_locale(self.platform, user_id, latest)
                self._users[user_id] = replace(self._users.get(user_id, stored), locale=latest)
                redraw = redraw or stored.lang is None
        except StorageError as exc:  # only a preference: the next event tries again
            self._locales.pop(user_id, None)
            log.warning("could not store the app language of %s: %s", user_id, exc)
        finally:
            self._storing_locale.discard(user_id)
        if redraw:
            await self._on_lang_changed(user_id)

    async def channel_moved(self, old: str, new: str) -> None:
        """A chat got a new id (a Telegram group became a supergroup): its /lang follows."""
        lang = await self.repo.channel_lang(self.platform, old)
        if lang:
            await self.repo.set_channel_lang(self.platform, new, lang)
            self._channel_langs[new] = lang

    # --- what a person chooses --------------------------------------------------------------
    # Each stores first and raises StorageError with nothing changed, here or stored; the
    # command around it words the refusal.

    async def set_lang(self, user_id: str, lang: str) -> None:
        """Their /lang (one of `LANGS`): their hands are drawn again if they now read
        another language than before."""
        current = await self.user_settings(user_id)
        read_before = await self.own_lang(user_id)
        new = replace(current, lang=lang)
        await self.repo.set_user_settings(self.platform, user_id, new)
        changes.note()
        self._users[user_id] = new
        if read_before != lang:
            await self._on_lang_changed(user_id)

    async def set_channel_lang(self, channel: str, lang: str) -> None:
        """A channel's /lang (one of `LANGS`). Its tables' public messages are redrawn by
        the caller: they are the tables', not a person's."""
        await self.repo.set_channel_lang(self.platform, channel, lang)
        changes.note()
        self._channel_langs[channel] = lang

    async def set_mentions(self, user_id: str, on: bool) -> None:
        current = await self.user_settings(user_id)
        new = replace(current, mentions=on)
        await self.repo.set_user_settings(self.platform, user_id, new)
        changes.note()
        self._users[user_id] = new

    def forget(self, user_id: str) -> None:
        """Drop what is kept in memory of a person's settings (they asked to be forgotten)."""
        self._users.pop(user_id, None)
        self._locales.pop(user_id, None)
