"""Types every game shares: moves, events and the final outcome."""

from dataclasses import dataclass
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
