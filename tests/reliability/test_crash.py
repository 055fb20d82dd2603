"""SIGKILL at random moments: no move is lost half-way, every game still reaches its end.

DESIGN.md: a move is one transaction (move row + snapshot), and start-up resumes every
unfinished table. A process killed between any two instructions must leave each table
either before or after a move, never in between, and a restart must carry every game on.
"""

import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.reliability.checks import assert_consistent, stored_tables
from tests.reliability.crash_worker import PLAN

ROOT = Path(__file__).resolve().parents[2]
TABLES = 100
KILLS = 20
# Bounds for a loaded machine (the tests share two cores with other work): waits end as
# soon as their condition holds, and fail, saying what they waited for, only past these.
STARTED_WITHIN = 120.0  # the worker's imports, migrations and resumes
PROGRESS_WITHIN = 120.0  # a move more than at the last kill
FINISH_WITHIN = 900.0  # the last run plays every game to its end


def worker(path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.crash_worker", str(path), str(TABLES)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def moves_stored(path: Path) -> int | None:
    """How many moves the tables hold now (None before the schema exists); read while
    the worker writes, which WAL allows."""
    if not path.exists():
        return None
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        (total,) = db.execute("SELECT COALESCE(SUM(version), 0) FROM tables").fetchone()
        return int(total)
    except sqlite3.Error:  # no tables table yet: the schema is being created
        return None
    finally:
        db.close()


def wait_until(what: str, condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.02)


def read_line(process: subprocess.Popen[str], timeout: float) -> str:
    """The worker's next line, or an error past `timeout` (readline alone could hang)."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    if not ready:
        raise AssertionError(f"the worker said nothing within {timeout:.0f} s")
    return process.stdout.readline()


def test_killed_at_random_moments_every_game_still_ends_with_snapshot_equal_to_its_log(
    tmp_path,
):
    path = tmp_path / "crash.db"
    rng = random.Random(20_240_611)
    outputs: list[str] = []
    progress: list[int] = []
    played = 0
    for kill in range(KILLS):
        process = worker(path)
        if kill % 4 == 0:
            # During start-up: imports, migrations, the scheduling of resumes.
            time.sleep(rng.uniform(0.05, 0.6))
        else:
            # While bots are playing: once this run has stored a move of its own (however
            # slow the machine, the kill then lands mid-game), at a random moment after.
            assert read_line(process, STARTED_WITHIN) == "started\n"
            wait_until("a move stored by this run",
                       lambda p=process, n=played: (moves_stored(path) or 0) > n
                       or p.poll() is not None,
                       PROGRESS_WITHIN)
            time.sleep(rng.uniform(0.0, 0.3))
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate(timeout=60)
        assert process.returncode == -signal.SIGKILL, f"finished before kill {kill}: {err}"
        outputs.append(out)
        if path.exists():
            tables = stored_tables(path)
            for table in tables:
                assert_consistent(table)
            progress.append(sum(t.version for t in tables))
            played = max(played, progress[-1])

    process = worker(path)
    out, err = process.communicate(timeout=FINISH_WITHIN)
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
