"""Who may act on which table: decided from what the platform says, never from a payload.

A button's payload only names a table (by a reference nobody can guess, see
`bot.render`) and an action. Whether the press may act comes from facts the adapter
reads from the platform and hands over in a `Press`: in which chat, topic or channel
the pressed message lives, which message it is, and whether the presser is an admin
there. A press acts only on the table of that chat; the one exception is a player's
hand message in their private chat, which acts only for their own seat at the table
that hand belongs to.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.live import Acted
from bot.privacy import decode_privacy
from bot.render import Payload, decode_payload

# Lobby buttons that change the table for everyone: the host's, or an admin's.
MANAGING = frozenset({"start", "addbot", "removebot"})
# What a hand message (in a private chat) carries: moves, signals, and a redraw of the hand.
HAND_ACTIONS = frozenset({"hand"})
MOVE_PREFIX = "m:"
SIGNAL_PREFIX = "s:"  # The Game's signals: talk, valid at any version, never a play


class RightsUnknown(Exception):
    """The platform could not tell (a network error, a timeout): the bot refuses and
    changes nothing, rather than treating a real admin or member as a stranger."""


Check = Callable[[], Awaitable[bool]]
# Whether a user (by id) is a member of the chat of a table's channel, as the platform
# says; raises `RightsUnknown` when it cannot say.
MemberCheck = Callable[[str, str], Awaitable[bool]]


async def _nobody() -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Press:
    """A button press as the platform reports it.

    `channel` is the channel key (as tables store it) of the chat, topic or channel where
    the pressed message lives, None in a private chat with the bot. `message_id` is the
    platform's id of that message. `is_admin` asks the platform whether the presser is an
    admin of that chat; it is only called when it matters, and raises `RightsUnknown`
    when the platform cannot say. `is_member` asks whether someone is still a member of
    a table's chat (a rematch seats again only those who are); None where the platform
    has no such notion (the console).
    """

    payload: str
    channel: str | None
    message_id: str | None = None
    is_admin: Check = _nobody
    is_member: MemberCheck | None = None
    # Whether the bot may write to the presser privately, where a join needs it (their
    # hand must reach them) and the platform can tell; None where it never asks.
    can_reach: Check | None = None
    # The adapter answers this press in place (Discord: a hand shown where it was asked
    # for, a move's new hand in the message pressed, the table in place of its lobby): the
    # reply then carries what to show (`Reply.shown`).
    in_place: bool = False
    # What the adapter does once the press is checked, before it acts (Discord: the hand
    # message pressed takes its fresh token, through which the move's new hand is drawn).
    before: Callable[[Acted], None] | None = field(default=None, compare=False)
    # The payload read once, when the press is made: what a table's button says (None
    # for anything we could not have drawn), or what the /forgetme question's says.
    button: Payload | None = field(init=False, default=None, compare=False)
    privacy: tuple[int, str] | None = field(init=False, default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "button", decode_payload(self.payload))
        if isinstance(self.payload, str):
            object.__setattr__(self, "privacy", decode_privacy(self.payload))

    @property
    def action(self) -> str:
        """What the button asks for, "" for a payload we could not have drawn."""
        return self.button.action if self.button is not None else ""


def is_move(action: str) -> bool:
    return action.startswith(MOVE_PREFIX)


def is_signal(action: str) -> bool:
    return action.startswith(SIGNAL_PREFIX)


def private_action(action: str) -> bool:
    """What a press in a private chat may do: act on a hand, never on a lobby."""
    return is_move(action) or is_signal(action) or action in HAND_ACTIONS


__all__ = ["MANAGING", "Check", "MemberCheck", "Press", "RightsUnknown", "is_move",
           "is_signal", "private_action"]
