"""The one place a move's events are made fit for whoever reads them.

An event may carry what only one seat may know (the cards The Game's player drew) under
`SECRET`: fields only the event's `seat` may see. `fit_for` is the only way events leave
for a reader, a seat or the public (the table's message, its narration, what is kept of
a move): the owner gets the secret fields merged in, everyone else the event without
them. So a game states what is hidden where it makes the event, and no narration keeps it
out by habit.
"""

from collections.abc import Iterable

from engine.core.types import Event

SECRET = "secret"

Recipient = int | None
"""A seat, or None: the public, every reader at once."""


def fit_for(events: Iterable[Event], recipient: Recipient) -> list[Event]:
    """What `recipient` may see of a move's events: each one, without what it hides from
    them. Events are copied where they hide something, never changed."""
    return [_fit(ev, recipient) if SECRET in ev else ev for ev in events]


def _fit(ev: Event, recipient: Recipient) -> Event:
    public = {name: value for name, value in ev.items() if name != SECRET}
    owner = ev.get("seat")
    if recipient is None or owner is None or recipient != owner:
        return public
    return {**public, **ev[SECRET]}
