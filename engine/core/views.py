"""What the games' views share."""

from collections.abc import Callable
from typing import Any, TypeVar

S = TypeVar("S")


def public_part(make: Callable[[S], dict[str, Any]], state: S,
                public: dict[str, Any] | None) -> dict[str, Any]:
    """The public part a seat's view starts from: `public`, the public view of this same
    state when the caller made it already (the service draws the table, then a bot's or a
    person's hand, from one state), copied shallowly so that the seat's keys stay its own;
    else made now."""
    return make(state) if public is None else dict(public)
