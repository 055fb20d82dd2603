"""The bots' fixed ratings, measured from seeded bot-against-bot games.

Run from the project root: `python bench/bot_ratings.py [--games 300] [--seed 0]
[--game michigan]`. It prints, per game, each level's (μ, σ), then the `BOT_SKILLS`
literal that `bot/bot_ratings.py` ships.

Method (docs/ratings.md says why):
- Game `g` of a game uses seed `seed + g` for the deal and the bots' `random.Random`,
  a player count cycling through the game's counts, and levels drawn from
  `random.Random(seed + g)` with at least one seat of each level.
- Each level is one openskill Plackett–Luce player, starting at μ 25, σ 25/3. After a
  game, every seat is a team of one at its level's rating; a level's μ then moves by the
  mean of its seats' changes, and its σ becomes the mean of their new σ.
- Ratings only tell levels apart; the scale is anchored by moving every level so the
  easy bot sits at μ 25, where a new person starts: a newcomer is presumed to play like
  the easy bot until games say otherwise.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce

from engine import bots, games

GAMES = {"ochs-esel": (3, 4, 5, 6), "nix-fur-ungut": (2, 3, 4, 5), "michigan": (3, 4, 5, 6)}
ANCHOR = "easy"


def levels_for(players: int, rng: random.Random) -> list[str]:
    while True:
        chosen = [rng.choice(bots.LEVELS) for _ in range(players)]
        if len(set(chosen)) == len(bots.LEVELS):
            return chosen


def play(game_id: str, players: int, levels: list[str], seed: int) -> list[int]:
    """One seeded game; each seat's place among the seats."""
    game = games.get(game_id)
    players_by_level = {level: bots.get(game_id, level) for level in set(levels)}
    state = game.new_game(players, {}, seed=seed)
    rng = random.Random(seed)
    while acting := game.to_act(state):
        seat = acting[0]
        move = players_by_level[levels[seat]].choose(game.view(state, seat), rng)
        state, _ = game.apply(state, seat, move)
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome.places(players)


def measure(game_id: str, count: int, seed: int, seconds: float | None,
            ) -> tuple[dict[str, tuple[float, float]], int]:
    model = PlackettLuce()
    skill = {level: (model.mu, model.sigma) for level in bots.LEVELS}
    deadline = None if seconds is None else time.monotonic() + seconds
    played = 0
    counts = GAMES[game_id]
    for g in range(count):
        if deadline is not None and time.monotonic() > deadline:
            break
        players = counts[g % len(counts)]
        levels = levels_for(players, random.Random(seed + g))
        places = play(game_id, players, levels, seed + g)
        teams = [[model.rating(mu=skill[level][0], sigma=skill[level][1])] for level in levels]
        after = model.rate(teams, ranks=[float(place) for place in places])
        for level in set(levels):
            seats = [i for i, one in enumerate(levels) if one == level]
            mu = skill[level][0] + sum(after[i][0].mu - skill[level][0] for i in seats) / len(
                seats)
            sigma = sum(after[i][0].sigma for i in seats) / len(seats)
            skill[level] = (mu, sigma)
        played += 1
    shift = model.mu - skill[ANCHOR][0]
    return {level: (round(mu + shift, 2), round(sigma, 2))
            for level, (mu, sigma) in skill.items()}, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--seconds", type=float, default=None,
                        help="time limit per game; the table says how many were played")
    args = parser.parse_args()
    table: dict[str, dict[str, Any]] = {}
    print(f"bot ratings, {time.strftime('%Y-%m-%d %H:%M')}, up to {args.games} games per game"
          f" from seed {args.seed}; easy anchored at mu 25")
    for game_id in args.game or list(GAMES):
        skills, played = measure(game_id, args.games, args.seed, args.seconds)
        table[game_id] = skills
        line = "  ".join(f"{level} mu {mu:.2f} sigma {sigma:.2f}"
                         for level, (mu, sigma) in skills.items())
        print(f"{game_id:<14} {played:>5} games  {line}", flush=True)
    print("BOT_SKILLS = " + json.dumps(table).replace("[", "(").replace("]", ")"))


if __name__ == "__main__":
    main()
