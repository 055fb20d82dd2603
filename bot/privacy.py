"""/mydata and /forgetme: what the bot stores about a person, and removing it.

A person's own data is their settings (language, mentions, their app's language) and
their name and id in tables' seats and results. Forgetting keeps every score under "a
former player", so the statistics of the people they played with stay whole; a seat in
a game under way passes to a bot first, as when someone leaves.

Each costs the database in proportion to the person's own tables (indexed lookups), and one
person may ask for each once a minute, counted in this process: someone sending /mydata
over and over gets told when they may ask again instead of holding the database's one
connection (SQLite) from everybody's moves.

The confirmation button carries no user: whoever presses it forgets themselves, so a
forged or forwarded button can never act on somebody else. It names the minute it was
drawn, only so that an old one left in a chat expires.
"""

import asyncio
import contextlib
import logging
import math
from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.clock import Clock
from bot.i18n import t
from bot.live import Actor, Reply
from bot.outbox import Outbox
from bot.render import Button, Rendering, number
from bot.settings import Settings
from db.repository import OPEN_STATUSES, Repository, StorageError, TableRow

log = logging.getLogger(__name__)

FORGET, KEEP = "forget", "keep"
# What a privacy button names in place of a table reference: no table (a reference is
# `<id>_<tag>`, so it can never read as one).
PRIVACY_REF = "privacy"
CONFIRM_MINUTES = 10
ASK_EVERY = 60.0  # seconds between one person's exports, and between their forgettings


def decode_privacy(payload: str) -> tuple[int, str] | None:
    """(minute, action) of a /forgetme button's payload, None for any other payload."""
    ref, _, rest = payload.partition(".")
    minute_text, _, action = rest.partition(".")
    minute = number(minute_text)
    if ref != PRIVACY_REF or minute is None or action not in (FORGET, KEEP):
        return None
    return minute, action


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


class OncePer:
    """When each person last did one costly thing, in this process: once a `period`.

    Entries older than the period are dropped as new ones come, oldest first, so memory
    follows the people who asked in the last period, not everybody who ever asked."""

    def __init__(self, period: float) -> None:
        self.period = period
        self._last: OrderedDict[str, float] = OrderedDict()

    def wait(self, who: str, now: float) -> int:
        """0, counting this one, when `who` may go ahead now; else the whole seconds
        (at least 1) until they may."""
        while self._last:
            oldest, first = next(iter(self._last.items()))
            if now - first < self.period:
                break
            del self._last[oldest]
        last = self._last.get(who)
        if last is not None:
            left = min(self.period, self.period - (now - last))
            if left > 0:
                return max(1, math.ceil(left))
        self._last[who] = now
        self._last.move_to_end(who)
        return 0

    def release(self, who: str) -> None:
        """The costly thing failed before it was done: it does not count."""
        self._last.pop(who, None)


class Held(Protocol):
    """A table whose copy is in memory here (`bot.table.Table`), as forgetting goes
    through it: under its lock, it stops naming the person."""

    @property
    def id(self) -> int: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    async def forgotten(self, user_id: str) -> None: ...


class Bot(Protocol):
    """What /mydata and /forgetme ask of the bot around them (`bot.tables.Tables`): the
    person's words, their seats given up, and the copies here and elsewhere that still
    name them."""

    @property
    def repo(self) -> Repository: ...

    @property
    def platform(self) -> str: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def outbox(self) -> Outbox: ...

    async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...

    async def channel_lang(self, channel: str) -> str: ...

    async def give_up_seat(self, table_id: int, actor: Actor) -> None: ...

    def naming(self, user_id: str) -> Sequence[Held]: ...

    def in_memory(self, table_id: int) -> Held | None: ...

    def forget_settings(self, user_id: str) -> None: ...

    async def forget_everywhere(self, user_id: str) -> bool: ...


class Privacy:
    """A person's own data, across every table of this platform (`Tables.privacy`)."""

    def __init__(self, tables: Bot) -> None:
        self.tables = tables
        self.repo, self.platform, self.clock = tables.repo, tables.platform, tables.clock
        self.exports, self.forgettings = OncePer(ASK_EVERY), OncePer(ASK_EVERY)

    # --- /mydata --------------------------------------------------------------------------

    async def my_data(self, actor: Actor) -> dict[str, Any] | Reply:
        """Everything stored that names the person, as a JSON-able document; a refusal
        saying when they may ask again if they asked less than `ASK_EVERY` ago.

        Raises StorageError when the database cannot be read: an incomplete export would
        tell the person less than the truth.
        """
        wait = self.exports.wait(actor.user_id, self.clock.now())
        if wait:
            lang = await self.tables.lang_of(actor.user_id)
            return Reply(t(lang, "mydata_too_soon", seconds=wait), ok=False)
        try:
            settings = await self.repo.user_settings(self.platform, actor.user_id)
            tables = []
            for row in await self.repo.user_tables(self.platform, actor.user_id):
                tables.append(await self._table_data(row, actor.user_id))
            rated = await self.repo.user_ratings(self.platform, actor.user_id)
        except StorageError:
            self.exports.release(actor.user_id)  # "try again" must be true
            raise
        return {
            "about": "What Tapis stores about you. Send /forgetme in a private chat with the "
                     "bot to delete it.",
            "platform": self.platform,
            "user_id": actor.user_id,
            "exported_at": _when(self.clock.now()),
            "settings": {"language": settings.lang, "mentions": settings.mentions,
                         "app_language": settings.locale},
            "tables": tables,
            # Their numbers per group, game and season (docs/ratings.md); the rating log
            # itself names them only by their id, as each of these does.
            "ratings": [{"community": r.community, "game": r.game, "season": r.season,
                         "rating": r.shown, "rated_games": r.games} for r in rated],
        }

    async def _table_data(self, row: TableRow, user_id: str) -> dict[str, Any]:
        seats = await self.repo.get_seats(row.id)
        results = await self.repo.results(row.id)
        lists = {key: any((v[0] if isinstance(v, list) and v else v) == user_id
                          for v in row.settings.get(key, []))
                 for key in ("takeovers", "kicked", "unreachable")}
        return {
            "table": row.id, "game": row.game, "channel": row.channel, "status": row.status,
            "created_at": _when(row.created_at), "last_change": _when(row.updated_at),
            "you_host": row.host == user_id,
            "seats": [{"seat": s.seat + 1, "name": s.name,
                       "played_by_a_bot_for_you": s.former_user_id == user_id}
                      for s in seats if user_id in (s.user_id, s.former_user_id)],
            "results": [{"seat": r.seat + 1, "name": r.name, "score": r.score, "rank": r.rank}
                        for r in results if r.user_id == user_id],
            "waiting_to_take_a_seat": lists["takeovers"],
            "kicked": lists["kicked"],
            "could_not_be_reached": lists["unreachable"],
        }

    # --- /forgetme ------------------------------------------------------------------------

    async def forget_prompt(self, actor: Actor) -> Rendering:
        """The question and its two buttons; nothing changes until "yes" is pressed."""
        lang = await self.tables.lang_of(actor.user_id)
        minute = int(self.clock.now() // 60)
        return Rendering(title=t(lang, "forget_ask"), lines=[], buttons=[[
            Button(t(lang, "btn_forget"), FORGET, "danger"),
            Button(t(lang, "btn_keep"), KEEP)]], version=minute)

    async def privacy_press(self, actor: Actor, minute: int, action: str) -> Reply:
        """A press on the /forgetme question: it acts for whoever pressed, if still fresh."""
        lang = await self.tables.lang_of(actor.user_id)
        if action == KEEP:
            return Reply(t(lang, "forget_kept"))
        if action != FORGET:
            return Reply(t(lang, "bad_button"), ok=False)
        age = self.clock.now() / 60 - minute
        if not -1 <= age <= CONFIRM_MINUTES:
            return Reply(t(lang, "forget_expired"), ok=False)
        wait = self.forgettings.wait(actor.user_id, self.clock.now())
        if wait:
            return Reply(t(lang, "forget_too_soon", seconds=wait), ok=False)
        reply = await self.forget(actor)
        if not reply.ok:
            self.forgettings.release(actor.user_id)  # "try again" must be true
        return reply

    async def forget(self, actor: Actor) -> Reply:
        lang = await self.tables.lang_of(actor.user_id)  # answered in their language, read first
        user_id = actor.user_id
        try:
            rows = await self.repo.user_tables(self.platform, user_id)
            for row in rows:
                if row.status in OPEN_STATUSES:
                    await self.tables.give_up_seat(row.id, actor)
            names = {row.id: t(await self.tables.channel_lang(row.channel), "former_player")
                     for row in rows}
            # Under the locks of the tables in memory (in id order, so two people forgetting
            # at once cannot deadlock): no seat write from a copy still naming them can
            # land between the database's change and the copies' refresh.
            # The copies in memory include those that only name them in their last moves.
            ids = {row.id for row in rows} | {table.id for table in self.tables.naming(user_id)}
            async with contextlib.AsyncExitStack() as locks:
                held = [table for table in map(self.tables.in_memory, sorted(ids))
                        if table is not None]
                for table in held:
                    await locks.enter_async_context(table.lock)
                await self.repo.forget_user(
                    self.platform, user_id, names=names,
                    default_name=t(self.tables.settings.default_lang, "former_player"))
                for table in held:
                    await table.forgotten(user_id)
        except StorageError:
            log.exception("forgetting a user failed")
            return Reply(t(lang, "storage_failed"), ok=False)
        self.tables.forget_settings(user_id)
        for table_id in ids:
            self.tables.outbox.forget(table_id)  # their hand messages' ids, read again when needed
        # Done once no other process holds them either (the drivers of their tables above
        # all, whose copies would write their id back at the game's end).
        if not await self.tables.forget_everywhere(user_id):
            return Reply(t(lang, "storage_failed"), ok=False)
        log.info("a user asked to be forgotten: %d tables anonymised", len(rows))
        return Reply(t(lang, "forget_done"))


__all__ = ["FORGET", "KEEP", "PRIVACY_REF", "Privacy", "decode_privacy"]
