"""The bots' decisions for a seed, pinned: a heuristic that changes is a change of play.

The other bot tests hold the contract (legal moves only, the view alone decides, the
strong bot beats the easy one on a sample); a weight or a threshold of a heuristic can
change under them without any of these noticing. Here a mixed table (strong bots on the
even seats, easy bots on the odd ones, and every seat's signals in The Game) plays a
seeded game, and the digest of every decision is compared with the one recorded.

When a change to a bot is meant to alter its play, these digests change with it: print
the new ones with `python -m tests.engine.test_bots_pinned` and say so in the commit.
(Bots decide live; a stored table replays its move log, never the bots, so no stored
game depends on these.)
"""

import hashlib
import random
import sys
from typing import Any

import pytest

from engine import bots, games

# game, seats, options, seed, decisions at most
TABLES: list[tuple[str, int, dict[str, Any], int, int]] = [
    ("ochs-esel", 4, {"rounds": 1}, 11, 80),
    ("ochs-esel", 3, {"rounds": 1, "ox": True}, 12, 80),
    ("the-game", 3, {}, 11, 400),
    ("the-game", 2, {"min_play": 3}, 12, 400),
    ("the-game", 2, {}, 13, 400),  # reaches the end searched at 2 players
    ("the-game", 2, {}, 18, 400),  # and the last cards to draw searched
    ("nix-fur-ungut", 3, {"rounds": 2}, 11, 80),
    ("nix-fur-ungut", 2, {"rounds": 1, "personne": True}, 12, 80),
    ("nix-fur-ungut", 4, {"rounds": 4}, 13, 100),
    ("nix-fur-ungut", 3, {"rounds": 3, "personne": True}, 14, 100),
    ("michigan", 3, {"chips": 20, "hands_per_player": 1}, 11, 60),
]


def decisions(game_id: str, seats: int, options: dict[str, Any], seed: int,
              limit: int) -> tuple[str, int]:
    """The digest of every move the table's bots choose, and how many they chose."""
    game = games.get(game_id)
    state = game.new_game(seats, options, seed=seed)
    players = [bots.get(game_id, "strong" if seat % 2 == 0 else "easy")
               for seat in range(seats)]
    rng = random.Random(seed)
    hashed = hashlib.sha256()
    made = 0
    while made < limit and game.outcome(state) is None:
        seat = game.to_act(state)[0]
        move = players[seat].choose(game.view(state, seat), rng)
        hashed.update(f"{seat}:{move}\n".encode())
        state, _ = game.apply(state, seat, move)
        made += 1
        for talker in range(seats):
            bot = players[talker]
            if not isinstance(bot, bots.Talker):
                continue
            for _ in range(8):
                if game.outcome(state) is not None:
                    break
                said = bot.speak(game.view(state, talker), rng)
                if said is None:
                    break
                hashed.update(f"{talker}:{said}\n".encode())
                state, _ = game.apply(state, talker, said)
    return hashed.hexdigest()[:16], made


EXPECTED: dict[str, tuple[str, int]] = {
    "ochs-esel-4-11": ("5a46b5e1fde1b4ac", 80),
    "ochs-esel-3-12": ("9c2ae7bb1eccce58", 45),
    "the-game-3-11": ("50b947fbf2cac492", 66),
    "the-game-2-12": ("c536bca05c9a3149", 64),
    "the-game-2-13": ("493fd334c20c66f8", 117),
    "the-game-2-18": ("b983ca6cf7c8282a", 97),
    "nix-fur-ungut-3-11": ("de46eb8c8bb5c0ca", 30),
    "nix-fur-ungut-2-12": ("ddbdec50f12dc115", 10),
    "nix-fur-ungut-4-13": ("dd9b0d4fa769fbce", 80),
    "nix-fur-ungut-3-14": ("cc19fc4a80f37afc", 45),
    "michigan-3-11": ("5d4f2e27d5b10979", 44),
}


@pytest.mark.parametrize(("game_id", "seats", "options", "seed", "limit"), TABLES,
                         ids=[f"{g}-{s}-{n}" for g, s, _, n, _ in TABLES])
def test_a_table_of_bots_decides_exactly_as_before_for_a_seed(
    game_id: str, seats: int, options: dict[str, Any], seed: int, limit: int,
) -> None:
    assert decisions(game_id, seats, options, seed, limit) == \
        EXPECTED[f"{game_id}-{seats}-{seed}"]


if __name__ == "__main__":
    for game_id, seats, options, seed, limit in TABLES:
        digest, made = decisions(game_id, seats, options, seed, limit)
        sys.stdout.write(f'    "{game_id}-{seats}-{seed}": ("{digest}", {made}),\n')
