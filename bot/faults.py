"""A command whose storage fails answers so, in the person's language: never "Something
went wrong", and never "nothing changed" once something was stored."""

import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from bot import changes
from bot.i18n import t
from bot.live import Actor, Reply
from bot.settings import Settings
from db.repository import StorageError

log = logging.getLogger(__name__)


class Answering(Protocol):
    settings: Settings

    async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...


P = ParamSpec("P")
S = TypeVar("S", bound=Answering)


def answers_storage_faults(
    method: Callable[Concatenate[S, Actor, P], Awaitable[Reply]],
) -> Callable[Concatenate[S, Actor, P], Awaitable[Reply]]:
    """A command whose storage read or write fails answers the storage sentence.

    Each command already says "I couldn't save that" where it writes; this catches the
    rest (a damaged page on a read, a full disk under a preference) so that nobody reads
    "Something went wrong", and nothing half done is kept: every repository call is
    atomic.
    """

    @functools.wraps(method)
    async def answered(self: S, actor: Actor, /, *args: P.args, **kwargs: P.kwargs) -> Reply:
        try:
            return await method(self, actor, *args, **kwargs)
        except StorageError:
            log.exception("%s for %s: storage failed", method.__name__, actor.user_id)
            lang = self.settings.default_lang
            with contextlib.suppress(StorageError):
                lang = await self.lang_of(actor.user_id)
            # Once something was stored for this request, "nothing changed" is untrue.
            key = "error_after_change" if changes.stored() else "storage_unavailable"
            return Reply(t(lang, key), ok=False)

    return answered


__all__ = ["answers_storage_faults"]
