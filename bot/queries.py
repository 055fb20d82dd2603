"""What an adapter may ask about a table, answered here so that no adapter reads the
engine's state (whose turn it is, which moves are legal) itself: the rules stay behind
bot/, and an adapter only shows what it is told."""

from bot.tables import Tables
from db.repository import PLAYING

SUGGESTIONS = 25  # Discord shows at most 25 choices
SUGGESTION_CHARS = 100  # and none longer than 100 characters


async def move_texts(tables: Tables, user_id: str, channel: str, wanted: str = "", *,
                     limit: int = SUGGESTIONS, longest: int = SUGGESTION_CHARS) -> list[str]:
    """The moves `user_id` may play now at the game in `channel`, written as a player
    types them (`/play 7 7 J`), those containing `wanted` (any case), each once: none when
    there is no game there, they hold no seat or it is not their turn. Suggestions only:
    whatever is then sent, `Tables.play` judges it."""
    row = await tables.table_for_channel(channel)
    if row is None or row.status != PLAYING:
        return []
    live = await tables.live_table(row.id)
    seat = live.seat_of(user_id) if live else None
    if live is None or seat is None or live.state is None:
        return []
    if seat.seat not in live.game.to_act(live.state):
        return []
    wanted = wanted.strip().lower()
    found: list[str] = []
    for move in live.game.legal_moves(live.state, seat.seat):
        text = str(move)
        if wanted in text.lower() and text not in found and len(text) <= longest:
            found.append(text)
            if len(found) == limit:
                break
    return found


async def seated(tables: Tables, table_id: int, user_id: str) -> bool:
    """Whether `user_id` is named at one of the table's seats."""
    live = await tables.live_table(table_id)
    return live is not None and any(s.user_id == user_id for s in live.seats)


async def bots_range(tables: Tables, table_id: int) -> tuple[int, int] | None:
    """How few and how many bots may join the people already at the table's game (one
    seat is the person asking): None when the table cannot be read."""
    live = await tables.live_table(table_id)
    if live is None:
        return None
    return max(0, live.game.SEATS.start - 1), live.game.SEATS.stop - 2


def seat_name(tables: Tables, table_id: int, user_id: str) -> str | None:
    """The name `user_id` plays under at the table, from its copy in memory here (nothing
    is read: a link drawn for a hand, whose table was just shown); None when the table is
    not in memory or they hold no seat at it."""
    table = tables.in_memory(table_id)
    seat = table.live.seat_of(user_id) if table is not None else None
    return seat.name if seat is not None else None


async def channel_of(tables: Tables, table_id: int) -> str | None:
    """Where the table lives (its channel key); None when there is no such table or it
    cannot be read."""
    live = await tables.live_table(table_id)
    return None if live is None else live.row.channel


__all__ = ["bots_range", "channel_of", "move_texts", "seat_name", "seated"]
