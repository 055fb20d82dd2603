"""Types every game shares: moves, events and the final outcome."""

import types
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
    of `1` would make the snapshot differ from the replay. `apply` refuses such a move.

    Read from the declarations at each call, not kept per class: a kept answer would be
    worked out once per process, out of reach of the mutation tests."""
    return all(_is(getattr(move, f.name), f.type) for f in fields(move))


def _is(value: Any, kind: Any) -> bool:
    # Plain classes first, and the alias's own attributes rather than `typing.get_origin`:
    # `apply` runs in the bots' searches.
    if isinstance(kind, type):  # NoneType too, in `str | None`
        return type(value) is kind
    origin = getattr(kind, "__origin__", None)
    args: tuple[Any, ...] = getattr(kind, "__args__", ())
    if isinstance(kind, types.UnionType):  # `str | None`
        return any(_is(value, option) for option in args)
    if origin is not tuple:
        raise TypeError(f"a move field of type {kind} cannot be checked")
    if type(value) is not tuple:
        return False
    if len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        return all(_is(one, item) for one in value)
    return len(value) == len(args) and all(map(_is, value, args))


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

    def places(self, seats: int) -> list[int]:
        """Each seat's place among the seats alone, ties shared and the next place skipped.

        An automatic competitor (Monsieur Personne) is ranked after the seats and is
        nobody's opponent in a rating: a seat it beat keeps its place among the people
        and bots at the table."""
        ranking = self.ranking[:seats]
        return [1 + sum(other < mine for other in ranking) for mine in ranking]
