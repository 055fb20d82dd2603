"""The Game's baseline bot over seeded games: average score, win rate and apply speed.

Run from the project root: `python bench/the_game_bot.py [--games 1000] [--expert]`.
Game `i` uses seed `i` for the deal and `random.Random(i)` for the bot, so the table is
the same on every run.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import games  # after the path fix, so the script runs from anywhere


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--expert", action="store_true", help="min_play 3 and hand_minus_one")
    parser.add_argument("--min-play", type=int, default=None)
    parser.add_argument("--hand-minus-one", action="store_true")
    args = parser.parse_args()
    options: dict[str, object] = {}
    if args.expert:
        options = {"min_play": 3, "hand_minus_one": True}
    if args.min_play is not None:
        options["min_play"] = args.min_play
    if args.hand_minus_one:
        options["hand_minus_one"] = True

    game = games.get("the-game")
    print(f"The Game, baseline bot, {args.games} seeded games, options {options or 'default'}")
    print(f"{'players':>7} {'avg score':>9} {'wins':>7} {'best':>5} {'worst':>5} "
          f"{'moves/game':>10} {'apply/s':>8}")
    for seats in range(1, 6):
        scores: list[int] = []
        moves = 0
        in_apply = 0.0
        for seed in range(args.games):
            state = game.new_game(seats, options=options, seed=seed)
            rng = random.Random(seed)
            while True:
                acting = game.to_act(state)
                if not acting:
                    break
                move = game.choose(state, acting[0], rng)
                started = time.perf_counter()
                state, _ = game.apply(state, acting[0], move)
                in_apply += time.perf_counter() - started
                moves += 1
            outcome = game.outcome(state)
            assert outcome is not None
            scores.append(outcome.scores[0])
        wins = sum(score == 0 for score in scores)
        print(f"{seats:>7} {sum(scores) / len(scores):>9.2f} {100 * wins / len(scores):>6.1f}% "
              f"{min(scores):>5} {max(scores):>5} {moves / len(scores):>10.1f} "
              f"{moves / in_apply:>8.0f}")


if __name__ == "__main__":
    main()
