"""Bots over seeded games: scores, win rates, strong against easy, decision times.

Run from the project root: `python bench/bots.py [--games 2000] [--seed 0] [--players 1,2,3,4,5]
[--min-play 2,3] [--skip-others]`. The Game: every seat plays the same level, game `i`
uses deal seed `seed + i` and `random.Random(seed + i)` for the bots, so the table is the
same on every run; the published anchors (RobertWeinmeister/TheGameSimulation, best rule
set with communication, 10,000 games per setting) are printed next to ours. The other
games come from `bench/bots_strong.py` (`report(games, seed)`), when it is there.

Decision time is the time of one `choose` on one core: a whole turn for the strong The
Game bot, which sends its plays as one message, then its `end` (a signal check, `speak`,
costs a few microseconds and is not counted).
"""

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import bots, games  # after the path fix, so the script runs from anywhere

# players -> (perfect games, under 10 cards left), as published
ANCHORS = {1: (0.04, 0.28), 2: (0.24, 0.88), 3: (0.10, 0.83), 4: (0.08, 0.94), 5: (0.05, 0.92)}


def play_the_game(seats: int, level: str, seed: int,
                  options: dict[str, Any] | None = None) -> tuple[int, list[float]]:
    """One game, every seat at `level`: the cards left, and the time of each decision.

    After every move each seat may speak (give or withdraw a signal), as the table does
    for its bot seats: signals are "at any time".
    """
    game = games.get("the-game")
    state = game.new_game(seats, options=options or {}, seed=seed)
    bot = bots.get("the-game", level)
    talker = bot if isinstance(bot, bots.Talker) else None
    rng = random.Random(seed)
    times: list[float] = []
    while True:
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        started = time.perf_counter()
        move = bot.choose(game.view(state, seat), rng)
        times.append(time.perf_counter() - started)
        state, _ = game.apply(state, seat, move)
        if talker is None:
            continue
        for other in range(seats):
            while game.outcome(state) is None:
                signal = talker.speak(game.view(state, other), rng)
                if signal is None:
                    break
                state, _ = game.apply(state, other, signal)
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome.scores[0], times


def the_game_rows(games_count: int, seed: int, players: list[int], min_play: int,
                  levels: tuple[str, ...] = bots.LEVELS,
                  progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    rows = []
    for seats in players:
        for level in levels:
            scores: list[int] = []
            times: list[float] = []
            for i in range(games_count):
                score, spent = play_the_game(seats, level, seed + i, {"min_play": min_play})
                scores.append(score)
                times += spent
            times.sort()
            row = {
                "game": "the-game", "players": seats, "level": level, "min_play": min_play,
                "games": games_count, "mean_left": statistics.fmean(scores),
                "perfect": sum(s == 0 for s in scores) / games_count,
                "under_10": sum(s < 10 for s in scores) / games_count,
                "p50_ms": 1000 * times[len(times) // 2],
                "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
                "max_ms": 1000 * times[-1],
            }
            rows.append(row)
            if progress is not None:
                progress(the_game_line(row))
    return rows


def the_game_line(row: dict[str, Any]) -> str:
    perfect, under = ANCHORS[row["players"]] if row["min_play"] == 2 else (None, None)
    anchor = (f"{100 * perfect:>5.0f}% {100 * under:>5.0f}%" if perfect is not None
              else f"{'-':>6} {'-':>6}")
    return (f"{row['players']:>7} {row['min_play']:>8} {row['level']:>6} "
            f"{row['mean_left']:>9.2f} {100 * row['perfect']:>7.1f}% "
            f"{100 * row['under_10']:>7.1f}% "
            f"{anchor} {row['p50_ms']:>7.2f} {row['p99_ms']:>7.2f} {row['max_ms']:>7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="1,2,3,4,5")
    parser.add_argument("--min-play", default="2,3")
    parser.add_argument("--skip-others", action="store_true",
                        help="only The Game (the other games take long)")
    args = parser.parse_args()
    players = [int(p) for p in args.players.split(",")]

    print(f"The Game, every seat one level, {args.games} seeded games from seed {args.seed}")
    print(f"{'players':>7} {'min_play':>8} {'level':>6} {'mean left':>9} {'perfect':>8} "
          f"{'<10 left':>8} {'anchor: perfect <10':>13} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7}")
    for min_play in (int(m) for m in args.min_play.split(",")):
        the_game_rows(args.games, args.seed, players, min_play,
                      progress=lambda line: print(line, flush=True))

    if args.skip_others:
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import bots_strong  # bench/bots_strong.py, written with the other games' strong bots
    except ImportError:
        print("\nOchs & Esel, Nix für Ungut, Michigan: bench/bots_strong.py is not there yet")
        return
    print("\nOchs & Esel, Nix für Ungut, Michigan (bench/bots_strong.py)")
    for row in bots_strong.report(args.games, args.seed):
        print("  " + ", ".join(f"{key}={_fmt(value)}" for key, value in row.items()), flush=True)


def _fmt(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    main()
