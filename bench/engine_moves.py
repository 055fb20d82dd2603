"""CPU a bot move of the engine and the easy bots, as the table service spends it,
old code against new in the same run (issue #15).

Run from the project root: `python bench/engine_moves.py [--old main] [--runs 5]
[--games 6] [--wide] [--profile FILE]` (`--profile`: the new code's loop under cProfile,
into FILE; `--wide`: see `wide`).

A move is what the service does for a bot's turn, and only that: `game.view(state,
seat)`, `bots.get(game_id, "easy").choose(view, rng)`, `game.apply`, `game.dump`,
`game.to_act`, `game.outcome`. The games are `bench/service.py`'s MIX (Ochs & Esel 4
seats rounds=5, The Game 3 seats, Nix für Ungut 4 seats rounds=20, Michigan 5 seats 6
deals a player; until 2026-11-24 Nix rounds=4 and Michigan 1 deal a player),
each played to its end from seeds 0..games-1 with `random.Random(seed)` for the bots.
CPU is the process's (`time.process_time`) over the whole loop, divided by its moves.

The old code is `git archive <old> engine` unpacked into a temporary directory, the new
is this tree's `engine/`. Each run is a child process per version (imports and warm-up
left out of the timing: every game is played once first, untimed; `-P` keeps `bench/`,
whose `engine.py` would shadow the package, off the path); the versions run
alternately, `--runs` times each, and the median of each game's CPU a move is printed.
The children also digest every move, event list, snapshot, `to_act`, outcome and the
bots' generator state after each move (the same draws, not only the same moves), and
the parent refuses figures whose two versions did not play the very same games.
"""

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# bench/service.py's MIX, written again: importing it would import the service.
MIX: list[tuple[str, int, dict[str, Any]]] = [
    ("ochs-esel", 4, {"rounds": 5}),
    ("the-game", 3, {}),
    ("nix-fur-ungut", 4, {"rounds": 20}),
    ("michigan", 5, {"hands_per_player": 6}),
]


def play(game_id: str, seats: int, options: dict[str, Any], seed: int,
         digest: Any) -> int:
    """One game to its end as the service plays a table of easy bots; its moves."""
    from engine import bots, games

    game = games.get(game_id)
    rng = random.Random(seed)
    state = game.new_game(seats, options, seed)
    moves = 0
    while True:
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        view = game.view(state, seat)
        move = bots.get(game_id, "easy").choose(view, rng)
        state, events = game.apply(state, seat, move)
        snapshot = game.dump(state)
        outcome = game.outcome(state)
        moves += 1
        if digest is not None:
            digest.update(f"{seat} {move} {json.dumps(events, sort_keys=True)} "
                          f"{game.to_act(state)} {outcome} {rng.getstate()}\n".encode())
            digest.update(snapshot.encode())
    return moves


# `--wide`: beyond the MIX, every player count and a variant of each game's options.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "ochs-esel": [{"rounds": 1}, {"rounds": 1, "ox": True}],
    "the-game": [{}, {"min_play": 3}],
    "nix-fur-ungut": [{"rounds": 1}, {"rounds": 1, "personne": True}],
    "michigan": [{"chips": 20}, {"chips": 3, "hands_per_player": 2}],
}


def wide() -> dict[str, str]:
    """A digest per game of many games, each move's seat and public views, move, events,
    snapshot, next legal moves, `to_act`, outcome and generator state: easy bots at every
    seat (seeds 0-2), then strong bots at the even seats (seed 0, 150 moves at most), for
    every player count and option variant. The strong bots share code with the easy ones."""
    from engine import bots, games

    out = {}
    for game_id, variants in VARIANTS.items():
        game = games.get(game_id)
        digest = hashlib.sha256()
        for options, seats, seed, strong in (
                (o, n, s, mixed) for mixed in (False, True) for o in variants
                for n in game.SEATS for s in range(1 if mixed else 3)):
            state, rng, moves = game.new_game(seats, options, seed), random.Random(seed), 0
            while game.to_act(state) and (moves < 150 or not strong):
                seat = game.to_act(state)[0]
                view, public = game.view(state, seat), game.view(state)
                level = "strong" if strong and seat % 2 == 0 else "easy"
                move = bots.get(game_id, level).choose(view, rng)
                state, events = game.apply(state, seat, move)
                after = game.to_act(state)
                legal = game.legal_moves(state, after[0]) if after else []
                digest.update(json.dumps(
                    [view, public, str(move), events, game.dump(state), [str(m) for m in legal],
                     after, str(game.outcome(state)), str(rng.getstate())],
                    sort_keys=True).encode())
                moves += 1
        out[game_id] = digest.hexdigest()
    return out


def child(games_per: int, check: bool) -> dict[str, Any]:
    """The figures of one version: CPU µs a move per game, and the digests."""
    for game_id, seats, options in MIX:  # warm-up: imports, caches, the first calls
        play(game_id, seats, options, 0, None)
    import engine

    out: dict[str, Any] = {"engine": engine.__file__}
    for game_id, seats, options in MIX:
        digest = hashlib.sha256() if check else None
        moves = 0
        start = time.process_time()
        for seed in range(games_per):
            moves += play(game_id, seats, options, seed, digest)
        cpu = time.process_time() - start
        out[game_id] = {"moves": moves, "cpu": cpu,
                        "digest": digest.hexdigest() if digest else ""}
    return out


def old_tree(ref: str, into: Path) -> Path:
    archive = into / "old.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), ref, "engine"],
                   check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def run(root: Path, games_per: int, check: bool, *extra: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    done = subprocess.run(
        ["nice", "-n", "15", sys.executable, "-P", __file__, "--child", str(games_per),
         *(["--check"] if check else []), *extra],
        env=env, cwd=root, check=True, stdout=subprocess.PIPE, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="main", help="git ref of the old engine")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=6, help="seeds a game, from 0")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", help="profile the new code's loop into this file")
    parser.add_argument("--wide", action="store_true",
                        help="also compare the versions' play beyond the MIX (about a minute)")
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(wide() if args.wide else child(args.child, args.check)))
        return
    if args.profile:
        import cProfile

        sys.path.insert(0, str(ROOT))
        cProfile.runctx("child(args.games, False)", globals(), {"args": args},
                        args.profile)
        return
    with tempfile.TemporaryDirectory() as tmp:
        roots = {"old": old_tree(args.old, Path(tmp)), "new": ROOT}
        checks = {name: run(root, args.games, True) for name, root in roots.items()}
        for check in checks.values():
            check.pop("engine")
        if args.wide:
            wides = {name: run(root, 0, False, "--wide") for name, root in roots.items()}
        same = {g: checks["old"][g]["digest"] == checks["new"][g]["digest"] for g in checks["old"]}
        per_move: dict[str, dict[str, list[float]]] = {n: {} for n in roots}
        totals: dict[str, list[float]] = {n: [] for n in roots}
        for _ in range(args.runs):
            for name, root in roots.items():
                result = run(root, args.games, False)
                assert result.pop("engine").startswith(str(root)), "the wrong engine ran"
                for game_id, row in result.items():
                    per_move[name].setdefault(game_id, []).append(1e6 * row["cpu"] / row["moves"])
                totals[name].append(1e6 * sum(r["cpu"] for r in result.values())
                                    / sum(r["moves"] for r in result.values()))
    moves = {g: checks["new"][g]["moves"] for g in checks["new"]}
    old_commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.old],
                                check=True, capture_output=True, text=True).stdout.strip()
    new_commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                check=True, capture_output=True, text=True).stdout.strip()
    print(f"engine_moves {time.strftime('%Y-%m-%d %H:%M')}, old={args.old} ({old_commit}), "
          f"new=this tree (HEAD {new_commit}), "
          f"{args.games} games a game, {args.runs} alternating runs, medians; "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'game':<15}{'moves':>7}{'old µs':>9}{'new µs':>9}{'new/old':>9}  same play")
    for game_id in moves:
        old = statistics.median(per_move["old"][game_id])
        new = statistics.median(per_move["new"][game_id])
        print(f"{game_id:<15}{moves[game_id]:>7}{old:>9.1f}{new:>9.1f}{new / old:>9.2f}  "
              f"{'yes' if same[game_id] else 'NO'}")
    old, new = statistics.median(totals["old"]), statistics.median(totals["new"])
    print(f"{'all (by moves)':<15}{sum(moves.values()):>7}{old:>9.1f}{new:>9.1f}"
          f"{new / old:>9.2f}  {'yes' if all(same.values()) else 'NO'}")
    if args.wide:
        print("wide check (every player count, option variants, strong bots at even seats): "
              + ", ".join(f"{g} {'same' if wides['old'][g] == wides['new'][g] else 'DIFFERENT'}"
                          for g in wides["new"]))
        same.update({f"wide {g}": wides["old"][g] == wides["new"][g] for g in wides["new"]})
    print(f"all, run by run: old {min(totals['old']):.1f}-{max(totals['old']):.1f} µs, "
          f"new {min(totals['new']):.1f}-{max(totals['new']):.1f} µs")
    if not all(same.values()):
        sys.exit("the two versions did not play the same games")


if __name__ == "__main__":
    main()
