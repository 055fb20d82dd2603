"""What every game module offers. `bot/` relies only on this surface.

Beyond the contract functions, each game module has:
- `ID`, `NAME` and `SEATS` (a `range` of allowed player counts);
- `Options`, the pydantic model of its options (field descriptions are user-facing help);
- `CAPABILITIES`, what it has beyond this surface (rounds, a team against the game, moves
  any seat may make at any time): declared, so `bot/` never probes for optional names.

Its bots live apart, in `engine.bots`, and see only views.
"""

from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.capabilities import Capabilities
from engine.core.types import Event, Move, Outcome


class Game(Protocol):
    ID: str
    NAME: str
    SEATS: range
    Options: type[BaseModel]
    CAPABILITIES: Capabilities

    def new_game(
        self, seats: int, options: dict[str, Any] | None = None, seed: int = 0,
        setup: dict[str, Any] | None = None,
    ) -> Any: ...

    def to_act(self, state: Any) -> list[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    def apply(self, state: Any, seat: int, move: Move) -> tuple[Any, list[Event]]: ...

    def parse_move(self, state: Any, seat: int, text: str) -> Move: ...

    # `public`: the public view of the same state, already made, for a seat's view to
    # extend (`bot.live.Live.seat_view`); it is copied, never changed.
    def view(self, state: Any, seat: int | None = None,
             public: dict[str, Any] | None = None) -> dict[str, Any]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def dump(self, state: Any) -> str: ...

    def load(self, text: str) -> Any: ...
