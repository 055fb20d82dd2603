"""Strong bots against easy ones: Ochs & Esel, Nix für Ungut and Michigan.

Run from the project root: `python bench/bots_strong.py [--games 200] [--seed 0]`.

One strong seat plays among easy seats. Game `g` of a row uses seed `seed + g` for the
deal and for the bots' `random.Random`, and puts the strong bot in seat `g % players`,
so every seat (and so every first player and dealer) gets its turn. Per game and
player count:

- mean score of the strong seat and of the easy seats (the game's own unit: penalty
  points in Ochs & Esel, lower is better; points in Nix für Ungut and chips in
  Michigan, higher is better);
- the strong seat's win rate (a first place shared by k seats counts 1/k) beside its
  fair share 1/players, and their ratio (the goal: at least 1.5);
- decision time p50 and p99 of the strong bot and of the easy bot, in ms of CPU time
  of this one-threaded process (`time.process_time`), so the figure is one core's
  work even on a shared machine, where the wall clock also counts the waits for a
  core; the strong bot's wall-clock p99 is printed beside it. `choose(view, rng)`
  only, the view built beforehand.

`--seconds` bounds a run: each row stops after its share of the time, and the table
says how many games it completed.
"""

import argparse
import importlib
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import games  # after the path fix, so the script runs from anywhere

MODULES = {"ochs-esel": "ochs_esel", "nix-fur-ungut": "nix_fur_ungut", "michigan": "michigan"}
PLAYERS = {"ochs-esel": (3, 4, 5, 6), "nix-fur-ungut": (2, 3, 4, 5), "michigan": (3, 4, 5, 6)}
LOWER_WINS = {"ochs-esel": True, "nix-fur-ungut": False, "michigan": False}
GOAL = 1.5


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play_row(game_id: str, players: int, games_: int, seed: int,
             options: dict[str, Any] | None = None, seconds: float | None = None,
             ) -> dict[str, Any]:
    """One strong seat among easy seats over `games_` seeded games (fewer if `seconds`
    runs out)."""
    game = games.get(game_id)
    bots = importlib.import_module(f"engine.bots.{MODULES[game_id]}")
    easy, strong = bots.Easy(), bots.Strong()
    strong_scores: list[int] = []
    easy_scores: list[int] = []
    wins = 0.0
    times: dict[str, list[float]] = {"strong": [], "easy": []}
    wall: list[float] = []
    deadline = None if seconds is None else time.monotonic() + seconds
    played = 0
    for g in range(games_):
        if deadline is not None and time.monotonic() > deadline:
            break
        strong_seat = g % players
        state = game.new_game(players, options or {}, seed=seed + g)
        rng = random.Random(seed + g)
        while acting := game.to_act(state):
            seat = acting[0]
            view = game.view(state, seat)
            level = "strong" if seat == strong_seat else "easy"
            started, cpu = time.perf_counter(), time.process_time()
            move = (strong if level == "strong" else easy).choose(view, rng)
            times[level].append(time.process_time() - cpu)
            if level == "strong":
                wall.append(time.perf_counter() - started)
            state, _ = game.apply(state, seat, move)
        outcome = game.outcome(state)
        assert outcome is not None
        firsts = [s for s, place in enumerate(outcome.ranking) if place == 1]
        if strong_seat in firsts:
            wins += 1 / len(firsts)
        strong_scores.append(outcome.scores[strong_seat])
        easy_scores.extend(score for s, score in enumerate(outcome.scores[:players])
                           if s != strong_seat)
        played += 1
    fair = 1 / len(outcome.scores) if played else 1 / players
    rate = wins / played if played else 0.0
    return {
        "game": game_id, "players": players, "options": options or {}, "games": played,
        "strong_mean_score": sum(strong_scores) / max(1, len(strong_scores)),
        "easy_mean_score": sum(easy_scores) / max(1, len(easy_scores)),
        "lower_wins": LOWER_WINS[game_id],
        "strong_win_rate": rate, "fair_share": fair, "ratio": rate / fair,
        "strong_p50_ms": 1000 * _percentile(times["strong"], 0.50),
        "strong_p99_ms": 1000 * _percentile(times["strong"], 0.99),
        "strong_wall_p99_ms": 1000 * _percentile(wall, 0.99),
        "easy_p50_ms": 1000 * _percentile(times["easy"], 0.50),
        "easy_p99_ms": 1000 * _percentile(times["easy"], 0.99),
        "decisions": len(times["strong"]),
    }


def report(games: int, seed: int, players: dict[str, tuple[int, ...]] | None = None,
           seconds: float | None = None) -> list[dict[str, Any]]:
    """One dict per game and player count (default options), for `bench/bots.py`."""
    counts = players or PLAYERS
    rows = [(g, n) for g, ns in counts.items() for n in ns]
    share = None if seconds is None else seconds / len(rows)
    return [play_row(g, n, games, seed, seconds=share) for g, n in rows]


def format_row(row: dict[str, Any]) -> str:
    options = ",".join(f"{k}={v}" for k, v in row["options"].items()) or "default"
    verdict = "ok" if row["ratio"] >= GOAL else "below"
    return (f"{row['game']:<14}{row['players']:>3} {options:<14}{row['games']:>6} "
            f"{row['strong_mean_score']:>8.1f} {row['easy_mean_score']:>8.1f} "
            f"{100 * row['strong_win_rate']:>6.1f}% {100 * row['fair_share']:>5.1f}% "
            f"{row['ratio']:>5.2f} {verdict:<5} "
            f"{row['strong_p50_ms']:>6.1f} {row['strong_p99_ms']:>6.1f} "
            f"{row['strong_wall_p99_ms']:>6.1f} "
            f"{row['easy_p50_ms']:>5.2f} {row['easy_p99_ms']:>5.2f}")


HEADER = (f"{'game':<14}{'n':>3} {'options':<14}{'games':>6} {'strong':>8} {'easy':>8} "
          f"{'win':>7} {'fair':>6} {'ratio':>5} {'goal':<5} {'s p50':>6} {'s p99':>6} "
          f"{'wall99':>6} "
          f"{'e p50':>5} {'e p99':>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=sorted(MODULES),
                        help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append",
                        help="only this player count (repeatable)")
    parser.add_argument("--variants", action="store_true",
                        help="also the Ochs variant and Monsieur Personne")
    parser.add_argument("--seconds", type=float, default=None,
                        help="time limit per row; the table shows the games completed")
    args = parser.parse_args()
    print(f"strong vs easy, {time.strftime('%Y-%m-%d %H:%M')}, Python "
          f"{platform.python_version()}, {platform.machine()}, one core; up to "
          f"{args.games} games per row from seed {args.seed}; score: mean per seat "
          f"(Ochs & Esel lower is better); times in ms per decision")
    print(HEADER)
    for game_id in args.game or list(MODULES):
        variants: list[dict[str, Any]] = [{}]
        if args.variants:
            variants.append({"ochs-esel": {"ox": True}, "nix-fur-ungut": {"personne": True},
                             "michigan": {"hands_per_player": 2}}[game_id])
        for options in variants:
            for n in PLAYERS[game_id]:
                if args.players and n not in args.players:
                    continue
                row = play_row(game_id, n, args.games, args.seed, options, args.seconds)
                print(format_row(row), flush=True)


if __name__ == "__main__":
    main()
