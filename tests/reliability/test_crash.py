"""SIGKILL at random moments: no move is lost half-way, every game still reaches its end.

docs/architecture.md: a move is one transaction (move row + snapshot), and start-up resumes every
unfinished table. A process killed between any two instructions must leave each table
either before or after a move, never in between, and a restart must carry every game on.
"""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.reliability.checks import assert_consistent, stored_tables
from tests.reliability.crash_worker import PLAN

ROOT = Path(__file__).resolve().parents[2]
TABLES = 100
KILLS = 20


def worker(path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.crash_worker", str(path), str(TABLES)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_killed_at_random_moments_every_game_still_ends_with_snapshot_equal_to_its_log(
    tmp_path,
):
    path = tmp_path / "crash.db"
    rng = random.Random(20_240_611)
    outputs: list[str] = []
    progress: list[int] = []
    for kill in range(KILLS):
        process = worker(path)
        if kill % 4 == 0:
            # During start-up: imports, migrations, the scheduling of resumes.
            time.sleep(rng.uniform(0.05, 0.6))
        else:
            # While tables are being opened and bots are playing (the first bot move
            # comes some 0.1-0.3 s after `started`, once every table is resumed).
            assert process.stdout is not None
            assert process.stdout.readline() == "started\n"
            time.sleep(rng.uniform(0.1, 0.4))
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate(timeout=10)
        assert process.returncode == -signal.SIGKILL, f"finished before kill {kill}: {err}"
        outputs.append(out)
        if path.exists():
            tables = stored_tables(path)
            for table in tables:
                assert_consistent(table)
            progress.append(sum(t.version for t in tables))

    process = worker(path)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert out.rstrip().endswith("done")
    outputs.append(out)

    # Kills landed while games were being played, not only before or after.
    assert len(set(progress)) >= KILLS // 2, str(progress)
    assert not [line for text in outputs for line in text.splitlines()
                if line.startswith("repaired")], "a snapshot disagreed with its move log"
    tables = stored_tables(path)
    assert sorted(t.channel for t in tables) == sorted(f"crash-{i}" for i in range(TABLES))
    for table in tables:
        assert_consistent(table)
        assert table.status == "finished", (table.id, table.status)
        assert table.finished, f"table {table.id} is marked finished but its game goes on"
        game, seats, _ = PLAN[int(table.channel.split("-")[1]) % len(PLAN)]
        assert table.game == game
        assert table.results == seats
