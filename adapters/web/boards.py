"""The leaderboard panel of a table's page: its community's ladder for the table's game,
as `/leaderboard <game>` shows it in the table's chat (The Game: the team records).

Asked over the page's own websocket, after the page opened its table: the table is the
page's (its session or public view decided which), and the community is the table's, so
nothing the page sends can name another table or another community's board. A table
without a community (a private chat) or opened with `rated=no` has no board: the panel is
hidden, as the chat's final ranking shows no ratings there either.
"""

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from aiohttp import web

from bot import ratings, ratings_commands
from bot.present import is_rated
from bot.tables import Tables
from db.repository import StorageError


class Opened(Protocol):
    """What `adapters.web.server.Page` holds once it opened a table."""

    ws: web.WebSocketResponse
    person: Any
    tables: Tables | None
    table_id: int | None


P = TypeVar("P", bound=Opened)


async def board(tables: Tables, table_id: int, user_id: str, lang: str) -> str | None:
    """The board's text in `lang`, with `user_id`'s own place when outside the top 10;
    None where the table has no board."""
    live = await tables.live_table(table_id)
    if live is None or not is_rated(live):
        return None
    community = await tables.repo.table_community(table_id)
    if community is None or live.row.game not in ratings.RATED_GAMES + ratings.TEAM_GAMES:
        return None
    answer = await ratings_commands.leaderboard(
        tables.repo, ratings.Rater(tables.settings.rating_season), lang, community,
        [live.row.game], user_id or None)
    return None if answer.refusal else answer.text


async def send(page: P, lang: Callable[[P], Awaitable[str]]) -> None:
    """Answer a page's `{"type": "ladder"}`: nothing before it opened a table."""
    if page.tables is None or page.table_id is None or page.person is None:
        return
    try:
        text = await board(page.tables, page.table_id, page.person.user_id, await lang(page))
    except StorageError:
        text = None
    with contextlib.suppress(ConnectionError, RuntimeError):
        await page.ws.send_json({"type": "ladder", "text": text})
