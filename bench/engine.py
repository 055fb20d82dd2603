"""Engine speed: seeded playouts of every game, and what each contract call costs.

Run from the project root: `python bench/engine.py [--quick] [--seconds 2.0]`.

For every game and every allowed player count (a few counts with --quick), two kinds of
playout: random legal moves (`random.Random(seed)` picks from `legal_moves`) and the
easy bot (`engine.bots`, from views). Figures are for one core (one process, no threads):

- moves/s   applied moves per second of `apply` alone (the target: >= 10,000 per game);
- games/s   whole games per second, everything in the playout loop included;
- and per call, in microseconds: legal_moves, apply, view (public and for the mover),
  dump and load of the state after each move.

Game `g` of a run uses seed `g` for the deal and for the move picker, so the figures of
two runs are comparable on the same machine.
"""

import argparse
import platform
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import bots, games  # after the path fix, so the script runs from anywhere

TARGET_MOVES_PER_S = 10_000
# Short options keep a playout a game, not an evening; the per-move costs do not depend on
# how many rounds follow.
OPTIONS: dict[str, dict[str, Any]] = {
    "ochs-esel": {"rounds": 1},
    "the-game": {},
    "nix-fur-ungut": {"rounds": 1},
    "michigan": {"chips": 20, "hands_per_player": 1},
}
MAX_MOVES = 20_000  # a playout that never ends is a bug, not a benchmark


@dataclass
class Costs:
    games: int = 0
    moves: int = 0
    wall: float = 0.0
    time: dict[str, float] = field(default_factory=lambda: dict.fromkeys(
        ("legal_moves", "apply", "view", "dump", "load"), 0.0))
    calls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("legal_moves", "apply", "view", "dump", "load"), 0))

    def add(self, name: str, seconds: float) -> None:
        self.time[name] += seconds
        self.calls[name] += 1

    def per_call_us(self, name: str) -> float:
        return 1e6 * self.time[name] / self.calls[name] if self.calls[name] else 0.0


def playout(game: Any, seats: int, seed: int, picker: str, costs: Costs) -> None:
    clock = time.perf_counter
    rng = random.Random(seed)
    state = game.new_game(seats, OPTIONS[game.ID], seed)
    for _ in range(MAX_MOVES):
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        started = clock()
        moves = game.legal_moves(state, seat)
        costs.add("legal_moves", clock() - started)
        move = (rng.choice(moves) if picker == "random"
                else bots.move_for(game, state, seat, rng, "easy"))
        started = clock()
        state, _ = game.apply(state, seat, move)
        costs.add("apply", clock() - started)
        costs.moves += 1
        started = clock()
        game.view(state)
        game.view(state, seat)
        costs.add("view", clock() - started)
        started = clock()
        text = game.dump(state)
        costs.add("dump", clock() - started)
        started = clock()
        state = game.load(text)  # keep playing from the loaded state: round trips must hold
        costs.add("load", clock() - started)
    else:
        raise RuntimeError(f"{game.ID} with {seats} seats, seed {seed}: no end")
    if game.outcome(state) is None:
        raise RuntimeError(f"{game.ID} with {seats} seats, seed {seed}: no outcome")
    costs.games += 1


def seat_counts(game: Any, quick: bool) -> list[int]:
    counts = list(game.SEATS)
    if quick and len(counts) > 3:
        return [counts[0], counts[len(counts) // 2], counts[-1]]
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="three player counts per game and a quarter of the time")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time per game, player count and move picker (default 2.0)")
    args = parser.parse_args()
    budget = args.seconds / 4 if args.quick else args.seconds
    print(f"engine bench, {time.strftime('%Y-%m-%d %H:%M')}, Python {platform.python_version()}"
          f", {platform.machine()}, one core; {budget:.2f} s per row")
    print(f"target: >= {TARGET_MOVES_PER_S:,} applied moves/s per game")
    header = (f"{'game':<14}{'n':>3} {'picker':<7}{'games':>6}{'moves/g':>8}{'moves/s':>9}"
              f"{'games/s':>9} {'legal':>7}{'apply':>7}{'view':>7}{'dump':>7}{'load':>7}"
              "  (µs per call)")
    print(header)
    worst: dict[str, float] = {}
    for game_id in games.ids():
        game = games.get(game_id)
        for seats in seat_counts(game, args.quick):
            for picker in ("random", "bot"):
                costs = Costs()
                seed = 0
                started = time.perf_counter()
                while time.perf_counter() - started < budget or costs.games < 3:
                    playout(game, seats, seed, picker, costs)
                    seed += 1
                costs.wall = time.perf_counter() - started
                rate = costs.moves / costs.time["apply"]
                worst[game_id] = min(worst.get(game_id, rate), rate)
                print(f"{game_id:<14}{seats:>3} {picker:<7}{costs.games:>6}"
                      f"{costs.moves / costs.games:>8.0f}{rate:>9,.0f}"
                      f"{costs.games / costs.wall:>9.1f} "
                      + "".join(f"{costs.per_call_us(name):>7.1f}"
                                for name in ("legal_moves", "apply", "view", "dump", "load")),
                      flush=True)
    print()
    print(f"{'game':<14}{'slowest apply rate':>20}  target {TARGET_MOVES_PER_S:,}/s")
    for game_id, rate in worst.items():
        verdict = "ok" if rate >= TARGET_MOVES_PER_S else "MISSED"
        print(f"{game_id:<14}{rate:>18,.0f}/s  {verdict}")


if __name__ == "__main__":
    main()
