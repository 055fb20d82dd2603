"""What a game has beyond the contract every game keeps, declared by the game itself.

Each game module exports `CAPABILITIES`, one of these: `bot/` reads it and never probes a
module for optional names, so a game says in one line whether it is played as a team,
has rounds, or has moves any seat may make at any time.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.types import Move


@dataclass(frozen=True, slots=True)
class Capabilities:
    # The event that ends a round (Michigan's rounds are deals), the moments a person may
    # take a bot's seat over; None: the game is one long hand (The Game).
    round_end: str | None = None
    # One team plays against the game (The Game against its deck): every seat is placed
    # alike, 1st when `won(state)` says the team won, 2nd when the game beat it.
    cooperative: bool = False
    won: Callable[[Any], bool] | None = None
    # Moves any seat may make at any time, that no later change alters (The Game's
    # signals): the bot accepts them from a button of any age.
    talk: Callable[[Move], bool] | None = None
    # A game whose defaults may change (Nix für Ungut's board) writes them out when a table
    # opens (`opened`), and says what a stored table that wrote nothing out played with
    # (`stored`): a stored game always replays as it was played.
    opened: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    stored: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        if self.cooperative and self.won is None:
            raise ValueError("a cooperative game says whether the team won: give `won`")

    def is_talk(self, move: Move) -> bool:
        return self.talk is not None and self.talk(move)

    def opened_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return self.opened(options) if self.opened is not None else options

    def stored_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return self.stored(options) if self.stored is not None else options

    def team_won(self, state: Any) -> bool:
        """Whether the team beat the game; False in a game not played as a team."""
        return self.cooperative and self.won is not None and self.won(state)
