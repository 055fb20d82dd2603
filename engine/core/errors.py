"""Refusals as values: `bot/` turns `code` + `params` into a sentence in the player's language."""

from typing import Any


class IllegalMove(Exception):
    """A move the rules refuse. `code` is stable; the text a player reads lives in `bot/`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        if not self.params:
            return self.code
        details = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({details})"


class BadOptions(ValueError):
    """Options or a `setup` the game cannot start with; the message says which and why.

    `problems` says it again as values, one per option, for `bot/` to translate: `key`,
    `kind` (one of OPTION_PROBLEMS) and, for `out_of_range`, `low` and `high`. A `setup`
    (tests, replays) is no player's input: its refusals have no problems listed.
    """

    def __init__(self, message: str, problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


# What can be wrong with one option a player typed.
# The last five name what is wrong inside an option made of parts (Nix für Ungut's board):
# `item` the entry, with `allowed`, `length`, `low` or `example` as the kind needs.
OPTION_PROBLEMS = ("unknown_option", "not_a_number", "not_yes_no", "out_of_range", "invalid",
                   "too_high", "too_low", "bad_entry", "wrong_length", "too_small", "bad_shape",
                   "entry_not_a_number")
