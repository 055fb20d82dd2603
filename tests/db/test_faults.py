"""Storage faults: every failed write is a StorageError, changes nothing, and the same
repository works again once the fault is gone."""

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from db.repository import StorageError
from db.sqlite import SqliteRepository
from tests.db.conftest import new_table, started_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def backend() -> str:
    """SQLite's own faults: its file locks, its busy timeout, its file modes."""
    return "sqlite"


@pytest.mark.parametrize("lock", ["BEGIN IMMEDIATE", "BEGIN EXCLUSIVE"])
async def test_a_database_locked_by_another_process_fails_after_the_busy_timeout(
    db_path, repo, lock,
):
    table = await started_table(repo)
    other_process = sqlite3.connect(db_path, isolation_level=None)
    other_process.execute(lock)
    try:
        started = time.monotonic()
        with pytest.raises(StorageError, match="locked"):
            await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                   snapshot="s1")
        assert 0.15 <= time.monotonic() - started < 3  # busy_timeout=0.2 in the fixture
        with pytest.raises(StorageError, match="locked"):
            await new_table(repo, channel="c2")
        # WAL: readers are not blocked by a writer, so the bot can still show the table.
        assert (await repo.get_table(table.id)).version == 0
    finally:
        other_process.execute("ROLLBACK")
        other_process.close()

    moved = await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                   snapshot="s1")
    assert moved.version == 1
    assert [m.move for m in await repo.moves(table.id)] == ["7H"]
    assert await repo.open_table_in("telegram", "c2") is None


async def test_waiting_for_a_lock_does_not_block_the_event_loop(db_path, repo):
    table = await started_table(repo)
    other_process = sqlite3.connect(db_path, isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")
    ticks = 0

    async def heartbeat() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    beating = asyncio.create_task(heartbeat())
    try:
        with pytest.raises(StorageError):
            await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                   snapshot="s1")
    finally:
        beating.cancel()
        other_process.execute("ROLLBACK")
        other_process.close()
    assert ticks >= 5


async def read_only_scenario(path: Path) -> None:
    """A restart finds the file read-only (wrong owner after a restore, say): the bot can
    still read its tables, every write is refused whole, and once the file is writable
    again the same repository object writes without being reopened."""
    async with SqliteRepository(path) as before:
        table = await started_table(before)
    path.chmod(0o444)

    repository = SqliteRepository(path, busy_timeout=0.2)
    await repository.open()
    try:
        assert (await repository.get_table(table.id)).version == 0
        with pytest.raises(StorageError, match="readonly"):
            await repository.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                         snapshot="s1")
        with pytest.raises(StorageError, match="readonly"):
            await repository.update_table(table.id, expected_version=0, settings={"x": 1})
        unchanged = await repository.get_table(table.id)
        assert (unchanged.version, unchanged.snapshot, unchanged.settings) == (
            0, "s0", {"deadline": 60})
        assert await repository.moves(table.id) == []

        # SQLite created the -wal and -shm files with the database's mode: fix all three.
        for file in path.parent.glob(f"{path.name}*"):
            file.chmod(0o644)
        moved = await repository.commit_move(table.id, seq=1, seat=0, move="7H",
                                             actor="player", snapshot="s1")
        assert moved.version == 1
    finally:
        await repository.close()
    async with SqliteRepository(path) as after:
        assert [m.move for m in await after.moves(table.id)] == ["7H"]


async def test_a_read_only_database_file_refuses_writes_until_it_is_writable(db_path):
    if os.geteuid() != 0:
        await read_only_scenario(db_path)
        return
    # Root ignores file modes; run the scenario without the capability that lets it.
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv is missing: a chmod would not bite")
    dropped = "-dac_override,-dac_read_search"
    code = ("import asyncio, sys, pathlib; from tests.db.test_faults import read_only_scenario;"
            " asyncio.run(read_only_scenario(pathlib.Path(sys.argv[1])))")
    done = subprocess.run(
        [setpriv, f"--bounding-set={dropped}", f"--inh-caps={dropped}",
         sys.executable, "-c", code, str(db_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr


async def test_a_database_that_cannot_be_opened_can_be_opened_once_fixed(tmp_path):
    path = tmp_path / "not-yet" / "tapis.db"
    repository = SqliteRepository(path)

    with pytest.raises(StorageError, match="cannot open"):
        await repository.open()
    path.parent.mkdir()
    async with repository:
        assert await repository.unfinished_tables() == []
