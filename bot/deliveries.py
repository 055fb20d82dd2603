"""What `bot/` asks an adapter to show, and the errors an adapter reports back."""

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.live import Told
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
