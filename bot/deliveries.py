"""What `bot/` asks an adapter to show, and the errors an adapter reports back."""

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.live import Live, Told
from bot.render import Button, Rendering


class _DrawnWhenSent:
    """`rendering` is drawn by `draw` on first use, which is when the adapter sends it."""

    draw: Callable[[], Rendering]
    _drawn: Rendering | None

    @property
    def rendering(self) -> Rendering:
        if self._drawn is None:
            self._drawn = self.draw()
        return self._drawn


@dataclass(slots=True, eq=False)
class TableMessage(_DrawnWhenSent):
    """Create or edit in place the one public message of a table (lobby, then game).

    `draw` makes the rendering when the adapter first asks for it, at send time: a
    message replaced by a newer one while it waited (a burst of bot moves, the platform's
    rate limit) is never drawn, and the one sent shows the table as it is then."""

    table_id: int
    channel: str
    draw: Callable[[], Rendering]
    # After moves, what they narrated (one `Told` per move; None for a redraw with no
    # move): a client that prints a running log (the console) shows these lines instead.
    news: list[Told] | None = None
    _drawn: Rendering | None = field(default=None, init=False, repr=False)


@dataclass(slots=True, eq=False)
class HandMessage(_DrawnWhenSent):
    """Create or edit in place a player's private hand message; drawn at send time too."""

    table_id: int
    channel: str
    seat: int
    user_id: str
    draw: Callable[[], Rendering]
    _drawn: Rendering | None = field(default=None, init=False, repr=False)


@dataclass(slots=True)
class Announcement:
    """A new message in the channel: round results, final ranking, turn pings, seat changes."""

    table_id: int
    channel: str
    text: str
    buttons: list[list[Button]] = field(default_factory=list)
    version: int = 0
    ref: str = ""  # the table's reference, which the buttons' payloads carry
    mentions: list[str] = field(default_factory=list)  # user ids to notify
    # "turn" (a turn starts), "reminder", "result" (round or final ranking), "info":
    # adapters may treat them differently, e.g. replace the previous turn ping.
    kind: str = "info"
    # Whom it calls as the table is when it is sent (set by bot/ as it is queued): a sink
    # that holds back what no longer calls anyone asks this, never the table.
    called: "Callable[[], Awaitable[Called]] | None" = field(default=None, compare=False,
                                                            repr=False)

    @property
    def calls(self) -> bool:
        """A call to act: a turn ping or a reminder, pointless once nobody it names acts."""
        return self.kind in CALLS


CALLS = frozenset({"turn", "reminder"})


@dataclass(frozen=True, slots=True)
class Called:
    """What a sink needs to judge an announcement when it sends it: whether it still calls
    someone (always so for one that is not a call to act), and the names the people it
    mentions sit under at the table ("" for one who holds no seat)."""

    still: bool
    names: dict[str, str]


def calls_someone(live: Live | None, user_ids: list[str]) -> bool:
    """Whether a call to act naming `user_ids` is still worth sending: not once the game is
    over, nor once none of them is to act. A table that cannot be read (None) is given
    the benefit of the doubt."""
    if live is None or live.state is None:
        return True
    if live.game.outcome(live.state) is not None:
        return False
    to_act = {live.seats[s].user_id for s in live.game.to_act(live.state)}
    return bool(to_act & set(user_ids))


def names_at(live: Live | None, user_ids: list[str]) -> dict[str, str]:
    """The names `user_ids` sit under at the table ("" for one who holds no seat)."""
    names = dict.fromkeys(user_ids, "")
    for seat in live.seats if live else []:
        if seat.user_id in names:
            names[seat.user_id] = seat.name
    return names


def with_called(delivery: "Delivery", load: Callable[[int], Awaitable[Live | None]]) -> None:
    """An announcement being queued learns whom it calls (`Announcement.called`), to be
    asked when it is sent, from its table as `load` reads it then: the sink asks it, never
    the table."""
    if isinstance(delivery, Announcement) and delivery.called is None:
        delivery.called = functools.partial(_called, load, delivery.table_id, delivery.calls,
                                            list(delivery.mentions))


async def _called(load: Callable[[int], Awaitable[Live | None]], table_id: int, calls: bool,
                  mentions: list[str]) -> Called:
    # The table is read only when there is something to judge.
    live = await load(table_id) if calls or mentions else None
    if calls and not calls_someone(live, mentions):
        return Called(False, {})
    return Called(True, names_at(live, mentions))


@dataclass(slots=True)
class Notice:
    """A private line to one user (e.g. 'a bot took your seat')."""

    user_id: str
    text: str
    table_id: int | None = None


Delivery = TableMessage | HandMessage | Announcement | Notice


class DeliveryError(Exception):
    """Base for what an adapter reports when a delivery cannot be made."""


class ChannelGone(DeliveryError):
    """The channel no longer exists or the bot lost access: close the table, do not retry."""


class UserUnreachable(DeliveryError):
    """The platform will not let the bot write to this user privately (blocked, DMs closed)."""


class MessageGone(DeliveryError):
    """The message to edit was deleted (or can no longer be edited): send a new one."""
