"""Option and setup validation shared by the games."""

import json
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
    nested = _nested_problem(field, error)
    if nested is not None:
        problem.update(nested)
    return problem


def _nested_problem(field: Any, error: Any) -> dict[str, Any] | None:
    """What exactly is wrong inside an option made of parts (Nix für Ungut's `board`):
    which entry, and what it should be, rather than "cannot take that value"."""
    loc, kind, ctx = error["loc"], error["type"], error.get("ctx") or {}
    examples = getattr(field, "examples", None) or []
    example = json.dumps(examples[0]) if examples else ""
    if len(loc) == 1 and kind in {"dict_type", "list_type"}:
        return {"kind": "bad_shape", "example": example}
    if len(loc) < 2:
        return None
    item = str(loc[1])[:20]  # typed by a player: clipped before it is said back
    if kind == "literal_error":
        return {"kind": "bad_entry", "item": item, "allowed": ctx.get("expected", "")}
    if kind in {"too_short", "too_long"}:
        length = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        return {"kind": "wrong_length", "item": item, "length": length}
    if kind == "greater_than_equal":
        return {"kind": "too_small", "item": item, "low": ctx.get("ge")}
    if kind in {"dict_type", "list_type"}:
        return {"kind": "bad_shape", "item": item, "example": example}
    if _KINDS.get(kind) == "not_a_number":
        return {"kind": "entry_not_a_number", "item": item}
    return None


def check_seats(seats: int, low: int, high: int) -> None:
    if not isinstance(seats, int) or not low <= seats <= high:
        raise BadOptions(f"this game takes {low} to {high} players, not {seats}")


def check_setup_keys(setup: dict[str, Any], allowed: Iterable[str]) -> None:
    extra = sorted(set(setup) - set(allowed))
    if extra:
        raise BadOptions(f"setup keys not used by this game: {', '.join(extra)}")
