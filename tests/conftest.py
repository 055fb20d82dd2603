"""The suite's longest tests first, and its compiled Python kept between runs.

A two-minute test that starts when the others are nearly done makes the whole run wait
for it alone; several long tests handed to one worker run one after another. Each worker
starts on its share of the long tests (see pytest_collection_modifyitems), so they run
beside each other and beside the many short ones, and the run ends about when the work
does. Every worker computes this same order, as xdist requires.

The seconds are a quiet run's `--durations` (2026-11-27, `-n 4` on two cores), used to
share the long tests out evenly. A test that grows long belongs here; one that left is
harmless (its prefix matches nothing). Not the web modules' tests: their browser is
module-scoped, and a test moved away from its module's others starts a browser of its own.
"""

import itertools
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
    "tests/cluster/test_outage.py::": 49,
    "tests/cluster/test_forget.py::": 42,
    "tests/reliability/test_crash.py::test_killed_at_random_moments": 40,
    "tests/adapters/test_telegram_flood.py::test_every_game_runs_four_handed": 37,
    "tests/console/test_screen.py::test_bot_moves_are_one_line_each": 34,
    "tests/adapters/test_discord_pacing.py::test_four_people_cost_the_channel_at_most_one_"
    "request_per_move[michigan": 32,
    "tests/reliability/test_crash_screens.py::test_killed_with_a_moves_edits": 28,
    "tests/console/test_console.py::test_a_game_against_bots_is_rated": 27,
    "tests/adapters/test_main_process.py::test_a_sigterm_keeps_the_database": 22,
    "tests/console/test_console.py::test_a_short_game_played_from_stdin": 20,
    "tests/adapters/test_discord_pacing.py::": 20,
    "tests/adapters/test_main_process.py::test_a_sigterm_ends_the_process": 19,
    "tests/reliability/test_crash_screens.py::": 18,
    "tests/test_types.py::": 18,
    "tests/adapters/test_main_process.py::test_with_web_url": 17,
    "tests/adapters/test_settings_process.py::test_the_quick_start_on_telegram": 17,
    "tests/adapters/test_main_process.py::test_python_m_bot_serves_telegram": 16,
    "tests/bot/test_driving_shards.py::test_a_table_goes_home": 15,
    "tests/console/test_screen.py::test_a_rounds_end_shows_its_summary": 13,
    "tests/adapters/test_discord_german.py::test_a_whole_game_in_german": 13,
    "tests/adapters/test_settings_process.py::test_a_bad_value_of_any_setting": 12,
    "tests/adapters/test_service_process.py::test_json_logs": 12,
    "tests/adapters/test_service_process.py::test_text_logs": 12,
    "tests/adapters/test_telegram_flood.py::test_a_flood_pause_in_one_group": 11,
    "tests/adapters/test_telegram_answers.py::test_a_reachability_check_without_answer": 11,
    "tests/adapters/test_discord_privacy.py::test_forgetme_removes_her_name": 10,
    "tests/engine/test_bots.py::test_the_strong_bot_beats_the_easy_one": 10,
    "tests/console/test_screen.py::test_a_deal_summary_never_buries_your_moves": 9,
}


def _seconds(item: pytest.Item) -> int:
    return max((s for prefix, s in SLOW.items() if item.nodeid.startswith(prefix)), default=0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = getattr(config, "workerinput", {}).get("workercount")
    if not workers:  # no xdist worker: nothing is handed out
        return
    # xdist's `load` first gives each worker a block of (tests / workers / 4) tests in a
    # row. Each block starts with its share of the long tests, shared longest first to the
    # worker with the fewest seconds so far; short tests in collection order fill the
    # blocks and follow them, so a module's tests stay together (the web modules' browser
    # and test_words' games are module-scoped: set up once per run of their tests).
    block = max(len(items) // workers // 4, 2)
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for item in sorted((i for i in items if _seconds(i)), key=_seconds, reverse=True):
        least = loads.index(min(loads))
        shares[least].append(item)
        loads[least] += _seconds(item)
    rest = iter([item for item in items if not _seconds(item)])
    ordered: list[pytest.Item] = []
    for share in shares:
        ordered += share + list(itertools.islice(rest, max(block - len(share), 0)))
    items[:] = ordered + list(rest)
