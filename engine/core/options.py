"""Option and setup validation shared by the games."""

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.core.errors import BadOptions

M = TypeVar("M", bound=BaseModel)


class GameOptions(BaseModel):
    """Base for each game's options: unknown keys are refused, values are checked."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def parse_options(model: type[M], options: dict[str, Any] | None) -> M:
    try:
        return model.model_validate(options or {})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'options'}: {err['msg']}"
            for err in exc.errors()
        )
        raise BadOptions(problems) from exc


def check_seats(seats: int, low: int, high: int) -> None:
    if not isinstance(seats, int) or not low <= seats <= high:
        raise BadOptions(f"this game takes {low} to {high} players, not {seats}")


def check_setup_keys(setup: dict[str, Any], allowed: Iterable[str]) -> None:
    extra = sorted(set(setup) - set(allowed))
    if extra:
        raise BadOptions(f"setup keys not used by this game: {', '.join(extra)}")
