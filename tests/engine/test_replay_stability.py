"""Stored games replay the same after an update.

A table's move log is replayed from `new_game(seats, options, seed)` when it is loaded,
and must give the stored snapshot again byte for byte; a table whose log no longer
replays is closed. So any change to how a seed deals, to what a move does, or to what a
view or an event says changes games already stored. These digests pin whole seeded games
(every state, event and view along the way). When a change is meant to alter play, the
digests change with it: print the new ones with `python -m tests.engine.test_replay_stability`
and say in the commit why stored tables may no longer replay.
"""

import hashlib
import json
import random
import sys
from typing import Any

import pytest

from engine import games
from engine import nix_fur_ungut as nix
from engine.core import fit_for

GAMES: list[tuple[str, int, dict[str, Any], int]] = [
    ("ochs-esel", 3, {"rounds": 2}, 1),
    ("ochs-esel", 5, {"rounds": 2, "ox": True}, 2),
    ("the-game", 1, {}, 3),
    ("the-game", 3, {"min_play": 3, "hand_minus_one": True}, 4),
    # A Nix table stores the board it was opened with (tables stored before it did replay
    # with the first board: `stored_options`), so a stored game names its board.
    ("nix-fur-ungut", 2, {"rounds": 2, "board": nix.FIRST_BOARD}, 5),
    ("nix-fur-ungut", 4, {"rounds": 1, "personne": True, "board": nix.FIRST_BOARD}, 6),
    ("michigan", 3, {"chips": 20, "hands_per_player": 1}, 7),
    ("michigan", 5, {"chips": 10, "hands_per_player": 1}, 8),
]


def digest(game_id: str, seats: int, options: dict[str, Any], seed: int) -> str:
    """Plays seeded random legal moves to the end and hashes everything a player sees."""
    game = games.get(game_id)
    state = game.new_game(seats, options, seed=seed)
    rng = random.Random(seed)
    hashed = hashlib.sha256()

    def add(value: Any) -> None:
        hashed.update(json.dumps(value, sort_keys=True, default=str).encode())

    add(game.dump(state))
    for _ in range(5000):
        add([game.view(state)] + [game.view(state, seat) for seat in range(seats)])
        if game.outcome(state) is not None:
            add(game.outcome(state).scores)
            add(game.outcome(state).ranking)
            return hashed.hexdigest()[:16]
        seat = game.to_act(state)[0]
        moves = list(game.legal_moves(state, seat))
        add([str(move) for move in moves])
        state, events = game.apply(state, seat, rng.choice(moves))
        add(fit_for(events, None))
        add(game.dump(state))
    raise AssertionError("the game did not end")


EXPECTED = {
    "ochs-esel-3-1": "b7dbe2fe47f9b97e",
    "ochs-esel-5-2": "942311afba11f17c",
    "the-game-1-3": "156b322660a53aa0",
    "the-game-3-4": "46accaa6bf94e698",
    "nix-fur-ungut-2-5": "000bed1b58857257",
    "nix-fur-ungut-4-6": "319868a5f13dfe00",
    "michigan-3-7": "1b01ebca52aacbec",
    "michigan-5-8": "31a24ea5446efc41",
}


@pytest.mark.parametrize(("game_id", "seats", "options", "seed"), GAMES,
                         ids=[f"{g}-{s}-{n}" for g, s, _, n in GAMES])
def test_a_seeded_game_plays_exactly_as_before(game_id: str, seats: int,
                                               options: dict[str, Any], seed: int) -> None:
    assert digest(game_id, seats, options, seed) == EXPECTED[f"{game_id}-{seats}-{seed}"]


if __name__ == "__main__":
    for game_id, seats, options, seed in GAMES:
        sys.stdout.write(f'    "{game_id}-{seats}-{seed}": '
                         f'"{digest(game_id, seats, options, seed)}",\n')
