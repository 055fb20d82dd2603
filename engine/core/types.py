"""Types every game shares: moves, events and the final outcome."""

import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

Event = dict[str, Any]
"""What happened, JSON-able, `{"type": "played", "seat": 2, ...}`: `bot/` narrates these."""


def event(kind: str, **fields: Any) -> Event:
    return {"type": kind, **fields}


@dataclass(frozen=True, slots=True)
class Move:
    """Base of every game's moves.

    `str(move)` is the move's canonical chat notation, and `parse_move` of that text in
    the same state gives the move back: the move log, buttons and replays all carry
    this text, so it is the one serialisation a move has.
    """

    def __str__(self) -> str:
        raise NotImplementedError


def well_typed(move: Move) -> bool:
    """Whether every field of `move` holds exactly the type it is declared with (a bool is
    no int, an int no bool). A move built by code, a bot's, is not checked by any parser:
    `Bid(2.5)` would be stored as "bid 2.5", which no longer reads back, and a chip flag
    of `1` would make the snapshot differ from the replay. `apply` refuses such a move."""
    kind = type(move)
    checks = _CHECKS.get(kind)
    if checks is None:  # worked out once per class: `apply` runs in the bots' searches
        hints = typing.get_type_hints(kind)
        checks = _CHECKS[kind] = tuple((f.name, _check(hints[f.name])) for f in fields(kind))
    return all(check(getattr(move, name)) for name, check in checks)


_CHECKS: dict[type, tuple[tuple[str, Callable[[Any], bool]], ...]] = {}


def _check(kind: Any) -> Callable[[Any], bool]:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        options = [_check(option) for option in args]
        return lambda value: any(check(value) for check in options)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _check(args[0])
        return lambda value: type(value) is tuple and all(map(item, value))
    if origin is tuple:
        items = [_check(arg) for arg in args]
        return lambda value: (type(value) is tuple and len(value) == len(items)
                              and all(check(v) for check, v in zip(items, value, strict=True)))
    if kind is None or kind is type(None):
        return lambda value: value is None
    if origin is not None:
        raise TypeError(f"a move field of type {kind} cannot be checked")
    return lambda value: type(value) is kind


@dataclass(frozen=True, slots=True)
class Outcome:
    scores: list[int]
    ranking: list[int]

    @classmethod
    def from_scores(cls, scores: list[int], *, lower_wins: bool) -> "Outcome":
        """Place = 1 + seats strictly better, so ties share a place and the next is skipped."""
        if lower_wins:
            ranking = [1 + sum(other < mine for other in scores) for mine in scores]
        else:
            ranking = [1 + sum(other > mine for other in scores) for mine in scores]
        return cls(scores=list(scores), ranking=ranking)
