"""The suite's longest tests first, and its compiled Python kept between runs.

A two-minute test that starts when the others are nearly done makes the whole run wait
for it alone. Started first, each runs beside the many short ones, and the run ends about
when the work does. pyproject's `--dist loadgroup` hands tests out a few at a time in
collection order (plain `load` gives each worker a quarter of its share as one block, so
the first worker took every long test); every worker collects in this same order, as
xdist requires.

The seconds are a quiet run's `--durations` (2026-11-27, `-n 4` on two cores); only their
order matters. A test that grows long belongs here; one that left is harmless (its prefix
matches nothing). Not the web modules: their browser is module-scoped, and a test moved
away from its module's others would start a browser of its own.
"""

import os
import sys
from pathlib import Path

import pytest

# With PYTHONDONTWRITEBYTECODE (set in many containers) nothing is compiled once: every
# xdist worker rewrote and compiled each test module (about 9 s of CPU a worker), and every
# `python -m bot` a test starts compiled the whole bot (about 0.1 s of its start). The
# bytecode goes to a cache folder of the user's instead, never into the source tree, which
# is what that setting protects; workers and child processes inherit the two variables.
if sys.dont_write_bytecode and not sys.pycache_prefix:
    _cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"] = str(_cache / "tapis" / "pycache")
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

SLOW = {
    "tests/cluster/test_cluster.py::test_three_processes_share_the_tables_and_survive_a_kill": 133,
    "tests/adapters/test_settings_process.py::test_a_bad_value_of_any_setting": 64,
    "tests/cluster/test_outage.py::": 49,
    "tests/cluster/test_forget.py::": 42,
    "tests/reliability/test_crash.py::test_killed_at_random_moments": 40,
    "tests/adapters/test_telegram_flood.py::test_every_game_runs_four_handed": 37,
    "tests/console/test_screen.py::test_bot_moves_are_one_line_each": 34,
    "tests/adapters/test_discord_pacing.py::": 32,
    "tests/reliability/test_crash_screens.py::": 28,
    "tests/console/test_console.py::test_a_game_against_bots_is_rated": 27,
    "tests/adapters/test_main_process.py::": 22,
    "tests/console/test_console.py::test_a_short_game_played_from_stdin": 20,
    "tests/test_types.py::": 18,
    "tests/adapters/test_settings_process.py::test_the_quick_start_on_telegram": 17,
    "tests/bot/test_driving_shards.py::": 15,
    "tests/console/test_screen.py::test_a_rounds_end_shows_its_summary": 13,
    "tests/adapters/test_discord_german.py::": 13,
    "tests/adapters/test_service_process.py::": 12,
    "tests/adapters/test_telegram_flood.py::test_a_flood_pause_in_one_group": 11,
    "tests/adapters/test_telegram_answers.py::test_a_reachability_check_without_answer": 11,
    "tests/adapters/test_discord_privacy.py::test_forgetme_removes_her_name": 10,
    "tests/engine/test_bots.py::test_the_strong_bot_beats_the_easy_one": 10,
    "tests/console/test_screen.py::test_a_deal_summary_never_buries_your_moves": 9,
}


def _seconds(item: pytest.Item) -> int:
    return max((s for prefix, s in SLOW.items() if item.nodeid.startswith(prefix)), default=0)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_seconds, reverse=True)  # stable: the rest keep their order
    for item in items:
        # Handed out one by one, a module's browser tests would each start the browser
        # (seconds each) on whichever worker they reach: they go to one worker together.
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(f"browser-{item.path.stem}"))
