"""`python bench/ratings.py --json` still runs, on both databases, and its last line is
the object the lead's runs read. A handful of games, not a measurement."""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.db.conftest import POSTGRES_URL, postgres_unreachable

ROOT = Path(__file__).resolve().parents[2]


def test_the_ratings_bench_prints_its_figures_as_json(tmp_path):
    run = subprocess.run(
        [sys.executable, "bench/ratings.py", "--games", "60", "--players", "12", "--ends", "4",
         "--queries", "5", "--postgres", POSTGRES_URL, "--dir", str(tmp_path), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert {"leaderboard_p99_ms", "game_end_extra_ms"} <= set(figures)
    assert set(figures["sqlite"]) >= {"rebuild_s", "leaderboard_p99_ms", "game_end_extra_ms"}
    # The bench leaves PostgreSQL out when it cannot reach it; CI always has it.
    if os.environ.get("CI") == "true" or asyncio.run(postgres_unreachable()) is None:
        assert set(figures["postgres"]) >= {"leaderboard_p99_ms", "game_end_extra_ms"}
