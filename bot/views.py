"""The commands that only show: `/hand`, `/table`, `/scores` and `/stats`.

None of them changes a game. `/table` posts the table message again, and a table closed
when the bot lost its channel comes back when someone asks for it there: the asking shows
that the bot can write there again.
"""

import contextlib
from typing import Any, Protocol

from bot import present
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.render import Rendering
from bot.showing import rated_lines
from bot.table import Table
from db.repository import FINISHED, PLAYING, Repository, StorageError
from engine import games


class Forgets(Protocol):
    def forget(self, table_id: int) -> None: ...


class Asked(Protocol):
    """What showing on request asks of the tables around it."""

    repo: Repository
    platform: str

    @property
    def outbox(self) -> Forgets: ...

    async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...

    async def refuse(self, actor: Actor, channel: str | None, key: str, /,
                     **params: Any) -> Reply: ...

    async def in_channel(self, channel: str) -> Table | None: ...

    async def live_table(self, table_id: int) -> Live | None: ...

    async def channel_back(self, channel: str) -> list[int]: ...


async def hand(tables: Asked, actor: Actor, channel: str) -> Reply:
    table = await tables.in_channel(channel)
    if table is None or table.live.row.status != PLAYING:
        return await tables.refuse(actor, channel, "no_game")
    return await table.hand_for(actor)


async def hand_rendering(tables: Asked, actor: Actor, table_id: int) -> Rendering | None:
    """The presser's hand at the table, drawn in what they read, for an adapter to show
    in place: None when they hold no seat in a game there."""
    live = await tables.live_table(table_id)
    if live is None or live.state is None or live.row.status != PLAYING:
        return None
    seat = live.seat_of(actor.user_id)
    if seat is None:
        return None
    return present.hand(live, seat.seat, await tables.lang_of(actor.user_id, live.row.channel))


async def show(tables: Asked, actor: Actor, channel: str) -> Reply:
    """`/table`: post the table again (a new message) and remember it as the one to edit."""
    table = await tables.in_channel(channel)
    if table is None and await tables.channel_back(channel):
        # A table closed when the bot lost this channel: asking for it shows it works.
        table = await tables.in_channel(channel)
    if table is None:
        return await tables.refuse(actor, channel, "no_table")
    with contextlib.suppress(StorageError):
        await tables.repo.delete_message(table.id, "table")
    tables.outbox.forget(table.id)
    await table.show_table()
    drawn = present.table(table.live, await tables.lang_of(actor.user_id, channel))
    return Reply(drawn.text, table_id=table.id, rendering=drawn)


async def scores(tables: Asked, actor: Actor, channel: str) -> Reply:
    """The running scores; once the game is over (and no new table was opened there),
    the finished game's final ranking, which is what people ask for right after it."""
    table = await tables.in_channel(channel)
    live = table.live if table is not None else None
    lang = await tables.lang_of(actor.user_id, channel)
    if live is None:
        newest = await tables.repo.newest_tables_in(tables.platform, channel)
        if newest and newest[0].status == FINISHED:
            live = await tables.live_table(newest[0].id)
    if live is None or live.state is None:
        return Reply(t(lang, "no_game"), ok=False)
    result = live.game.outcome(live.state)
    if live.row.status == FINISHED and result is not None:
        ranking = present.final_ranking(live, result, lang)
        ranking += await rated_lines(tables.repo, live, lang)
        return Reply("\n".join(ranking), table_id=live.id)
    return Reply("\n".join(present.score_lines(live, lang)), table_id=live.id)


async def stats(tables: Asked, actor: Actor, channel: str | None) -> Reply:
    """`/stats`: the person's games on this platform, game by game."""
    lang = await tables.lang_of(actor.user_id, channel)
    rows = await tables.repo.stats(tables.platform, actor.user_id)
    if not rows:
        return Reply(t(lang, "stats_none"))
    lines = [t(lang, "stats_title", name=actor.name)]
    for row in rows:
        known_game = games.get(row.game) if row.game in games.ids() else None
        name = known_game.NAME if known_game else row.game
        # A cooperative game has no places to average, only games won and lost.
        key = "stats_line_team" if known_game and known_game.CAPABILITIES.cooperative \
            else "stats_line"
        lines.append(t(lang, key, game=name, played=row.played, wins=row.wins,
                       lost=row.played - row.wins, rank=round(float(row.average_rank), 1)))
    return Reply("\n".join(lines))


__all__ = ["Asked", "hand", "hand_rendering", "scores", "show", "stats"]
