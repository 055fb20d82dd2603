"""Option and setup validation shared by the games."""

from collections.abc import Iterable
from typing import Any, TypeVar

import annotated_types
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
        message = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'options'}: {err['msg']}"
            for err in exc.errors()
        )
        problems = [_problem(model, err) for err in exc.errors()]
        raise BadOptions(message, problems) from exc


_KINDS = {"extra_forbidden": "unknown_option", "bool_parsing": "not_yes_no",
          "bool_type": "not_yes_no", "int_parsing": "not_a_number", "int_type": "not_a_number",
          "int_from_float": "not_a_number", "int_parsing_size": "not_a_number",
          "greater_than_equal": "out_of_range", "less_than_equal": "out_of_range"}


def _problem(model: type[BaseModel], error: Any) -> dict[str, Any]:
    """pydantic's error as values a player's sentence can be built from, in any language."""
    key = str(error["loc"][0]) if error["loc"] else "options"
    kind = _KINDS.get(error["type"], "invalid")
    problem: dict[str, Any] = {"key": key, "kind": kind}
    field = model.model_fields.get(key)
    if kind == "out_of_range" and field is not None:
        for bound in field.metadata:
            if isinstance(bound, annotated_types.Ge):
                problem["low"] = bound.ge
            elif isinstance(bound, annotated_types.Le):
                problem["high"] = bound.le
    if kind == "out_of_range" and not {"low", "high"} <= problem.keys():
        # A bound inside the option (a Nix board cell): pydantic names the one crossed.
        context = error.get("ctx") or {}
        if "le" in context:
            problem.update(kind="too_high", high=context["le"])
        elif "ge" in context:
            problem.update(kind="too_low", low=context["ge"])
        else:
            problem["kind"] = "invalid"  # a bound the sentence cannot name
    return problem


def check_seats(seats: int, low: int, high: int) -> None:
    if not isinstance(seats, int) or not low <= seats <= high:
        raise BadOptions(f"this game takes {low} to {high} players, not {seats}")


def check_setup_keys(setup: dict[str, Any], allowed: Iterable[str]) -> None:
    extra = sorted(set(setup) - set(allowed))
    if extra:
        raise BadOptions(f"setup keys not used by this game: {', '.join(extra)}")
