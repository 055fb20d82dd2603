"""Nix für Ungut's board: does one plan dominate? (issue #36)

Run from the project root:
`python bench/nix_board.py [--games 2000] [--players 3 --players 4] [--board JSON]`.

For a board (default: the engine's `DEFAULT_BOARD`; `--board` gives rows to change, as
the table option does) and each player count, one **`none`-first** seat plays among
**strong** seats (`engine.bots.nix_fur_ungut.Strong`). Game `g` uses seed `seed + g`
for the deal and the bots' `random.Random`, and puts the `none`-first seat in seat
`g % players`, so every seat gets its turn.

The `none`-first seat always aims to empty its hand early and play `none`, as well as
it can: among its legal plays it keeps those after which its hand can still be laid
out in time (the fewest combinations a hand splits into, jokers one per combination, is
worked out exactly), holding its super chip back for `none` in turn 4 while its hand
can still be emptied by turn 3; among those it picks by the strong bot's own search.
When `none` is out of reach this round it plays as the strong bot does. So it differs
from its opponents only in the plan, not in skill.

Printed per player count (and every 100 games on stderr, so a run stopped early still
leaves its figures): each row's share of all points scored (every seat; the
rows' chips counted when a round is scored), how often the `none`-first seat laid
`none` (per round), its mean score against the strong seats', and its win share (a
first place shared by k seats counts 1/k) beside the fair share 1/players and their
ratio (issue #36's bar: at most 1.2). `--seconds` bounds each row; the table says how
many games it completed.
"""

import argparse
import json
import platform
import random
import sys
import time
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# After the path fix, so the script runs from anywhere.
from engine import nix_fur_ungut as nix
from engine.bots import nix_fur_ungut as bots
from engine.bots.search import must_act, pimc
from engine.core.types import Move

BAR = 1.2
_INDEX = {nix.JOKER: 0, **{n: int(n) for n in nix.NUMBERS}}
# Every combination one play can lay, as counts (index 0 the joker, 1-7 the numbers):
# a hand to empty splits into these.
_SHAPES: list[tuple[int, ...]] = sorted({
    tuple(Counter(_INDEX[c] for c in cards)[i] for i in range(8))
    for row, cards in nix._combinations([*"1234567" * 4, "J"], 1)  # every shape
}, key=lambda s: -sum(s))


@cache
def fewest_plays(hand: tuple[int, ...]) -> int:
    """The fewest combinations `hand` (counts) splits into, each of the engine's shapes
    (at most one joker), or a large number when it cannot be split (never: a single
    card is a combination)."""
    if not any(hand):
        return 0
    # The lowest card held must go in some combination: try only those containing it,
    # so each split is counted once.
    low = next(i for i in range(1, 8) if hand[i]) if any(hand[1:]) else 0
    best = 99
    for shape in _SHAPES:
        if not shape[low]:
            continue
        if all(h >= s for h, s in zip(hand, shape, strict=True)):
            rest = tuple(h - s for h, s in zip(hand, shape, strict=True))
            best = min(best, 1 + fewest_plays(rest))
    return best


def _counts(cards: list[str] | tuple[str, ...]) -> list[int]:
    counts = [0] * 8
    for card in cards:
        counts[_INDEX[card]] += 1
    return counts


def _after(hand: list[int], cards: tuple[str, ...]) -> tuple[int, ...]:
    rest = list(hand)
    for card in cards:
        rest[_INDEX[card]] -= 1
    return tuple(rest)


class NoneFirst:
    """Aims to empty its hand early and lay `none`; the strong bot's search decides among
    the plays that keep that plan alive, and everything once it is lost."""

    def __init__(self) -> None:
        self.strong = bots.Strong()

    def plan(self, view: dict[str, Any]) -> list[nix.Play]:
        """The legal plays that keep `none` reachable, best plan first (empty by turn 3,
        `none` with the super chip in turn 4); empty when `none` is out of reach."""
        seat: int = view["seat"]
        turn: int = view["turn"]
        hand = _counts(view["hand"])
        super_ready = not view["super_used"][seat]
        options = nix.plays(view["hand"], turn, view["super_used"][seat])
        if not any(hand):
            # The super chip on the turn-4 `none`: laid earlier, this seat's own later
            # `none` chips would push it down the row.
            return [nix.Play(r, c, s) for r, c, s in options
                    if s == (super_ready and turn == nix.SUPER_LAST_TURN)]
        # `none` in turn 4 with the super chip: empty after turn 3, super chip kept.
        if super_ready and turn <= 3:
            best = [nix.Play(r, c, s) for r, c, s in options
                    if not s and fewest_plays(_after(hand, c)) <= 3 - turn]
            if best:
                return best
        if turn <= 4:
            return [nix.Play(r, c, s) for r, c, s in options
                    if fewest_plays(_after(hand, c)) <= 4 - turn]
        return []

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        seat: int = view["seat"]
        must_act(view["to_act"], seat)
        keep = self.plan(view)
        if not keep:
            return self.strong.choose(view, rng)
        if len(keep) == 1:
            return keep[0]
        known = bots.world(view, None)
        rows: dict[tuple[str, bool], float] = {}
        ranked = sorted(keep, key=lambda m: (-bots._worth(known, seat, m, rows), rng.random()))
        return pimc(ranked[:self.strong.candidates], lambda r: bots._Sim(bots.world(view, r)),
                    lambda sim, m, r: bots._rollout(sim, seat, m, r), rng,
                    self.strong.rollouts)


def play_row(players: int, games_: int, seed: int, board: dict[str, list[int]],
             seconds: float | None = None, progress: bool = False) -> dict[str, Any]:
    """One `none`-first seat among strong seats over `games_` seeded games (fewer if
    `seconds` runs out)."""
    options: dict[str, Any] = {"board": board}
    planner, strong = NoneFirst(), bots.Strong()
    row_points = dict.fromkeys(nix.ROWS, 0)
    nones = 0
    plan_scores: list[int] = []
    strong_scores: list[int] = []
    wins = 0.0
    deadline = None if seconds is None else time.monotonic() + seconds
    played = 0
    started = time.process_time()
    for g in range(games_):
        if deadline is not None and time.monotonic() > deadline:
            break
        plan_seat = g % players
        state = nix.new_game(players, options, seed=seed + g)
        rng = random.Random(seed + g)
        while acting := nix.to_act(state):
            seat = acting[0]
            bot = planner if seat == plan_seat else strong
            move = bot.choose(nix.view(state, seat), rng)
            state, events = nix.apply(state, seat, move)
            for e in events:
                if e["type"] == "played" and e["seat"] == plan_seat and e["row"] == "none":
                    nones += 1
                if e["type"] == "round_over":
                    for row, cells in e["board"].items():
                        for cell, chip in enumerate(cells):
                            if chip is not None:
                                row_points[row] += (state.board_values[row][cell]
                                                    * (2 if chip["super"] else 1))
        outcome = nix.outcome(state)
        assert outcome is not None
        firsts = [s for s, place in enumerate(outcome.ranking) if place == 1]
        if plan_seat in firsts:
            wins += 1 / len(firsts)
        plan_scores.append(outcome.scores[plan_seat])
        strong_scores.extend(s for i, s in enumerate(outcome.scores) if i != plan_seat)
        played += 1
        if progress and played % 100 == 0 and played < games_:
            print(format_row(_figures(players, played, row_points, nones, plan_scores,
                                      strong_scores, wins, state.rounds, started)),
                  file=sys.stderr, flush=True)
    return _figures(players, played, row_points, nones, plan_scores, strong_scores, wins,
                    options.get("rounds", 4), started)


def _figures(players: int, played: int, row_points: dict[str, int], nones: int,
             plan_scores: list[int], strong_scores: list[int], wins: float, rounds: int,
             started: float) -> dict[str, Any]:
    total = sum(row_points.values()) or 1
    rate = wins / played if played else 0.0
    return {
        "players": players, "games": played,
        "row_share": {row: row_points[row] / total for row in nix.ROWS},
        "nones_per_round": nones / max(1, played * rounds),
        "plan_mean_score": sum(plan_scores) / max(1, len(plan_scores)),
        "strong_mean_score": sum(strong_scores) / max(1, len(strong_scores)),
        "plan_win_rate": rate, "fair_share": 1 / players, "ratio": rate * players,
        "cpu_s_per_game": (time.process_time() - started) / max(1, played),
    }


def format_row(row: dict[str, Any]) -> str:
    shares = " ".join(f"{100 * row['row_share'][r]:>5.1f}" for r in nix.ROWS)
    verdict = "ok" if row["ratio"] <= BAR else "above"
    return (f"{row['players']:>2} {row['games']:>5}  {shares}  {row['nones_per_round']:>5.2f} "
            f"{row['plan_mean_score']:>6.1f} {row['strong_mean_score']:>6.1f} "
            f"{100 * row['plan_win_rate']:>5.1f}% {100 * row['fair_share']:>5.1f}% "
            f"{row['ratio']:>5.2f} {verdict:<5} {row['cpu_s_per_game']:>5.2f}")


HEADER = (f"{'n':>2} {'games':>5}  " + " ".join(f"{r[:5]:>5}" for r in nix.ROWS)
          + f"  {'none/r':>5} {'plan':>6} {'strong':>6} {'win':>6} {'fair':>6} "
            f"{'ratio':>5} {'bar':<5} {'s/g':>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, action="append",
                        help="player count (repeatable; default 3 and 4)")
    parser.add_argument("--board", type=json.loads, default={},
                        help='rows to change, e.g. \'{"none": [8, 5, 2]}\'')
    parser.add_argument("--seconds", type=float, default=None,
                        help="time limit per player count; the table shows the games completed")
    args = parser.parse_args()
    board = {row: list(args.board.get(row, nix.DEFAULT_BOARD[row])) for row in nix.ROWS}
    print(f"Nix board, {time.strftime('%Y-%m-%d %H:%M')}, Python {platform.python_version()}, "
          f"one core; up to {args.games} games per row from seed {args.seed}; board "
          + " ".join(f"{r}={'/'.join(map(str, v))}" for r, v in board.items()))
    print("row columns: % of all points scored; none/r: `none` laid by the plan seat per "
          "round; plan/strong: mean final score; win: plan seat's win share; s/g: CPU s a game")
    print(HEADER)
    for n in args.players or [3, 4]:
        row = play_row(n, args.games, args.seed, board, args.seconds, progress=True)
        print(format_row(row), flush=True)


if __name__ == "__main__":
    main()
