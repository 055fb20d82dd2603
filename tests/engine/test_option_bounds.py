"""Every option of every game is bounded above, so no option can carry a score or a chip
count out of the 64-bit integers the database stores (a Nix board cell of 2**63 once
jammed its table forever)."""

from typing import Any

import pytest

from engine import BadOptions, games

INT64 = 2**63 - 1


def unbounded(schema: dict[str, Any], path: str) -> list[str]:
    """Where in an option's JSON schema a value may grow without limit."""
    found = []
    if schema.get("type") == "integer" and not (
            "maximum" in schema and "minimum" in schema
            and -INT64 < schema["minimum"] <= schema["maximum"] < INT64 // 10**6):
        found.append(f"{path}: an integer without tight bounds")
    if schema.get("type") == "array":
        if "maxItems" not in schema:
            found.append(f"{path}: a list without a length limit")
        found += unbounded(schema.get("items", {}), f"{path}[]")
    if schema.get("type") == "object" and path:
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            if "enum" not in schema.get("propertyNames", {}):
                found.append(f"{path}: an object whose keys are free")
            found += unbounded(extra, f"{path}.*")
    if schema.get("type") == "string" and "maxLength" not in schema and "enum" not in schema:
        found.append(f"{path}: text without a length limit")
    for index, choice in enumerate(schema.get("anyOf", [])):
        found += unbounded(choice, f"{path}|{index}")
    return found


@pytest.mark.parametrize("game_id", games.ids())
def test_every_option_has_an_upper_bound(game_id):
    schema = games.get(game_id).Options.model_json_schema()
    assert schema.get("additionalProperties") is False
    problems = [problem for name, field in schema["properties"].items()
                for problem in unbounded(field, name)]
    assert problems == []


@pytest.mark.parametrize(("game_id", "option"), [
    ("ochs-esel", "rounds"), ("nix-fur-ungut", "rounds"), ("michigan", "chips"),
    ("michigan", "hands_per_player"), ("the-game", "min_play")])
def test_a_yes_or_no_is_no_count(game_id, option):
    """`rounds=yes` (or a bare `rounds`, read as yes) is refused: pydantic would read
    True as 1 and play one round."""
    game = games.get(game_id)
    for flag in (True, False):
        with pytest.raises(BadOptions) as refused:
            game.new_game(game.SEATS.start, {option: flag}, seed=1)
        assert refused.value.problems == [{"key": option, "kind": "not_a_number"}]


def test_a_yes_or_no_in_a_nix_board_cell_is_no_count():
    """`board={"pair":[yes,3,1]}` (JSON true, as the chat reads yes) is no cell value:
    pydantic would read True as 1."""
    game = games.get("nix-fur-ungut")
    for cell in (True, False, "yes", 1.0):
        with pytest.raises(BadOptions) as refused:
            game.new_game(2, {"board": {"pair": [cell, 3, 1]}}, seed=1)
        assert refused.value.problems == [
            {"key": "board", "kind": "entry_not_a_number", "item": "pair"}]
