"""Mutation score of the engine, per module, on a seeded sample of mutants.

Why a sample: mutmut makes about 4,500 mutants of `engine/`, and a surviving mutant
costs a run of every engine test that reaches its function; the whole set takes hours on
two cores. A fixed seed picks the same mutants again as long as the code does not change,
so two runs on one commit compare like for like.

    .venv/bin/python bench/mutation.py                    # 200 per module, seed 1
    .venv/bin/python bench/mutation.py --per-module 50 --module engine.michigan
    .venv/bin/python bench/mutation.py --survivors         # print each survivor's diff
    .venv/bin/python bench/mutation.py --open              # re-run only the sample's
                                                           # survivors and unrun mutants
    .venv/bin/python bench/mutation.py --report            # figures from stored results

`--open` is the loop for writing tests: a mutant a test killed stays killed while tests
are only added, so only the survivors (and mutants a stopped run never reached) need
running again. mutmut traces which tests reach which function once per test name: a test
whose name is new is traced, but an existing test given new assertions is not.

mutmut works in `mutants/` (a copy of the tree, git-ignored); its settings are in
`pyproject.toml` under `[tool.mutmut]`. Not part of the test run.

Modules: each game module, `engine/core` as one, and `engine/bots` as one once it exists.
A mutant counts as killed when a test failed or timed out (an endless loop is a change a
player would notice); survived when every test passed or no test reached it.
"""

import argparse
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
MUTMUT = [sys.executable, "-m", "mutmut"]
KILLED = {1, 3, 36, -24, 24, 152, 255}
SURVIVED = {0, 5, 33}
# mutmut names a mutant `engine.michigan.x_apply__mutmut_12`; the module is what stands
# before the function part. `engine.core.*` and `engine.bots.*` are grouped.
GROUPS = ("engine.core", "engine.bots")


def module_of(mutant: str) -> str:
    module = mutant.rsplit(".", 1)[0]
    for group in GROUPS:
        if module == group or module.startswith(group + "."):
            return group
    return module


def exit_codes() -> dict[str, int | None]:
    codes: dict[str, int | None] = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        codes.update(json.loads(meta.read_text())["exit_code_by_key"])
    return codes


def mutmut(*names: str, children: int) -> None:
    env = {**os.environ, "NO_PROXY": "127.0.0.1,localhost"}
    done = subprocess.run([*MUTMUT, "run", "--max-children", str(children), *names],
                          cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=False)
    if done.returncode not in (0, 1):
        sys.exit(f"mutmut stopped with status {done.returncode}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-module", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--module", action="append", help="only these modules")
    parser.add_argument("--children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--survivors", action="store_true", help="show each survivor")
    parser.add_argument("--open", action="store_true",
                        help="run only sampled mutants not yet killed")
    parser.add_argument("--report", action="store_true",
                        help="run nothing: figures from the results stored in mutants/")
    args = parser.parse_args()

    # The registry's few mutants are cheap: running them makes mutmut generate every
    # mutant and collect which tests reach which function.
    if not args.report:
        mutmut("engine.games.*", children=args.children)
    codes = exit_codes()
    by_module: dict[str, list[str]] = {}
    for name in sorted(codes):
        by_module.setdefault(module_of(name), []).append(name)
    modules = sorted(m for m in by_module if m != "engine.games" and m != "engine")
    # Every module is sampled, in one order, before --module picks some: one generator
    # serves them all, so a module's sample would otherwise depend on which others were
    # asked for. It still depends on how many mutants the modules before it have.
    rng = random.Random(args.seed)
    sample = {m: sorted(rng.sample(by_module[m], min(args.per_module, len(by_module[m]))))
              for m in modules}
    if args.module:
        modules = [m for m in modules if m in args.module]
        sample = {m: sample[m] for m in modules}
    chosen = [name for names in sample.values() for name in names
              if not (args.open and codes[name] in KILLED)]
    if chosen and not args.report:
        mutmut(*chosen, children=args.children)
    codes = exit_codes()

    print(f"{'module':<24} {'mutants':>8} {'sampled':>8} {'killed':>7} {'survived':>9}"
          f" {'other':>6} {'not run':>8} {'score':>7}")
    survivors: list[str] = []
    for module in modules:
        outcome = Counter(
            "killed" if codes[n] in KILLED else "survived" if codes[n] in SURVIVED
            else "not run" if codes[n] is None else "other"
            for n in sample[module])
        survivors += [n for n in sample[module] if codes[n] in SURVIVED]
        judged = outcome["killed"] + outcome["survived"]
        score = outcome["killed"] / judged if judged else 0.0
        print(f"{module:<24} {len(by_module[module]):>8} {len(sample[module]):>8}"
              f" {outcome['killed']:>7} {outcome['survived']:>9} {outcome['other']:>6}"
              f" {outcome['not run']:>8} {score:>7.1%}")
    print(f"seed {args.seed}; {len(survivors)} survivors"
          + ("" if args.survivors else " (--survivors shows them)"))
    if args.survivors:
        for name in survivors:
            shown = subprocess.run([*MUTMUT, "show", name], cwd=ROOT, capture_output=True,
                                   text=True, check=False)
            print(f"\n## {name}\n{shown.stdout.strip()}")


if __name__ == "__main__":
    main()
