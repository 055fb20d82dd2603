"""A SQLite file's moves are committed by a writer process of its own: a crash of that
process costs at most the moves it was committing, never a game, the bot's Ctrl-C or a
service manager's stop cannot end it before the bot's last commits, and it never outlives
the bot."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from db.repository import StorageError
from db.sqlite import SqliteRepository
from tests.db.conftest import started_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def backend() -> str:
    return "sqlite"


def writer_pids(parent: int | None = None) -> list[int]:
    """The live writer processes `parent` (this process by default) started."""
    parent = os.getpid() if parent is None else parent
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        state, ppid = stat.rpartition(")")[2].split()[:2]
        if int(ppid) == parent and state != "Z" and b"db.sqlite_writer" in command:
            found.append(int(entry.name))
    return found


async def gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return True
        if stat.rpartition(")")[2].split()[0] == "Z":
            return True
        await asyncio.sleep(0.02)
    return False


async def move(repo: SqliteRepository, table_id: int, seq: int) -> int:
    row = await repo.commit_move(table_id, seq=seq, seat=0, move=f"m{seq}", actor="player",
                                 snapshot=f"s{seq}")
    return row.version


async def test_a_move_is_committed_by_the_writer_and_read_back_at_once(tmp_path):
    async with SqliteRepository(tmp_path / "t.db") as repo:
        table = await started_table(repo)
        assert writer_pids() == []  # started by the first move, not before
        assert await move(repo, table.id, 1) == 1
        assert len(writer_pids()) == 1
        # The bot's own connection sees what the writer committed as soon as it answered.
        assert (await repo.get_table(table.id)).snapshot == "s1"
        assert [m.move for m in await repo.moves(table.id)] == ["m1"]
        [pid] = writer_pids()
    assert await gone(pid)  # closing the repository ends it


async def test_a_writer_killed_between_moves_costs_nothing(tmp_path):
    async with SqliteRepository(tmp_path / "t.db") as repo:
        table = await started_table(repo)
        assert await move(repo, table.id, 1) == 1
        [pid] = writer_pids()
        os.kill(pid, signal.SIGKILL)
        assert await gone(pid)
        await asyncio.sleep(0.1)  # between moves: the loop has seen its pipe close
        assert await move(repo, table.id, 2) == 2
        assert [m.move for m in await repo.moves(table.id)] == ["m1", "m2"]
        assert writer_pids() != [pid]


async def test_a_writer_killed_during_a_commit_fails_those_moves_alone(tmp_path):
    async with SqliteRepository(tmp_path / "t.db") as repo:
        table = await started_table(repo)
        assert await move(repo, table.id, 1) == 1
        [pid] = writer_pids()
        os.kill(pid, signal.SIGSTOP)  # it will not answer this move
        pending = asyncio.create_task(move(repo, table.id, 2))
        await asyncio.sleep(0.2)
        assert not pending.done()
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(StorageError, match="writer stopped"):
            await pending
        # Nothing of the lost move was kept, and the same repository goes on.
        assert (await repo.get_table(table.id)).version == 1
        assert await move(repo, table.id, 2) == 2
        assert [m.move for m in await repo.moves(table.id)] == ["m1", "m2"]


async def test_ctrl_c_and_sigterm_leave_the_writer_to_the_bot(tmp_path):
    """A terminal's Ctrl-C and a service manager's stop reach the whole process group; the
    bot then finishes its last moves, which need the writer."""
    async with SqliteRepository(tmp_path / "t.db") as repo:
        table = await started_table(repo)
        assert await move(repo, table.id, 1) == 1
        [pid] = writer_pids()
        os.kill(pid, signal.SIGINT)
        os.kill(pid, signal.SIGTERM)
        await asyncio.sleep(0.2)
        assert await move(repo, table.id, 2) == 2
        assert writer_pids() == [pid]


async def test_the_writer_does_not_outlive_a_killed_bot(tmp_path):
    code = (
        "import asyncio, sys\n"
        "from db.sqlite import SqliteRepository\n"
        "from tests.db.conftest import started_table\n"
        "async def main():\n"
        "    repo = SqliteRepository(sys.argv[1])\n"
        "    await repo.open()\n"
        "    table = await started_table(repo)\n"
        "    await repo.commit_move(table.id, seq=1, seat=0, move='m1', actor='player',"
        " snapshot='s1')\n"
        "    print('moved', flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    bot = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "t.db")], cwd=ROOT,
                           stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None
        assert await asyncio.to_thread(bot.stdout.readline) == "moved\n"
        [pid] = writer_pids(bot.pid)
    finally:
        bot.kill()
        bot.wait(10)
    assert await gone(pid)


async def test_a_memory_database_commits_on_its_own_connection(tmp_path):
    """A second connection to ":memory:" would see another, empty database."""
    async with SqliteRepository(":memory:") as repo:
        table = await started_table(repo)
        assert await move(repo, table.id, 1) == 1
        assert writer_pids() == []


async def test_an_answer_left_by_a_cancelled_commit_is_not_taken_for_the_next(tmp_path):
    """Shutting down cancels a commit under way; its answer, when it comes, belongs to no
    one, and the next move must get its own."""
    async with SqliteRepository(tmp_path / "t.db") as repo:
        first, second = await started_table(repo, "c1"), await started_table(repo, "c2")
        assert await move(repo, first.id, 1) == 1
        [pid] = writer_pids()
        os.kill(pid, signal.SIGSTOP)
        pending = asyncio.create_task(move(repo, first.id, 2))
        await asyncio.sleep(0.2)
        assert repo._flusher is not None
        repo._flusher.cancel()
        os.kill(pid, signal.SIGCONT)
        # The cancelled commit goes through in the writer, though no one hears back.
        for _ in range(250):
            if (await repo.get_table(first.id)).version == 2:
                break
            await asyncio.sleep(0.02)
        else:
            pytest.fail("the cancelled commit never went through")
        with pytest.raises(StorageError):  # its caller heard it was not known to be saved
            await pending
        row = await repo.commit_move(second.id, seq=1, seat=0, move="x", actor="player",
                                     snapshot="t1")
        assert (row.id, row.version, row.snapshot) == (second.id, 1, "t1")


async def test_a_writer_whose_bot_was_killed_mid_commit_finishes_it_and_ends_quietly(tmp_path):
    """The bot dies while its writer holds a batch: the writer commits it, finds nobody to
    answer, and ends without a traceback in the log (the log would look like a crash)."""
    code = (
        "import asyncio, sys\n"
        "from db.sqlite import SqliteRepository\n"
        "from tests.db.conftest import started_table\n"
        "async def main():\n"
        "    repo = SqliteRepository(sys.argv[1])\n"
        "    await repo.open()\n"
        "    table = await started_table(repo)\n"
        "    await repo.commit_move(table.id, seq=1, seat=0, move='m1', actor='player',"
        " snapshot='s1')\n"
        "    print('moved', flush=True)\n"
        "    await asyncio.to_thread(sys.stdin.readline)\n"
        "    await repo.commit_move(table.id, seq=2, seat=0, move='m2', actor='player',"
        " snapshot='s2')\n"
        "asyncio.run(main())\n"
    )
    path = tmp_path / "t.db"
    bot = subprocess.Popen([sys.executable, "-c", code, str(path)], cwd=ROOT, text=True,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    try:
        assert bot.stdout is not None and bot.stdin is not None
        assert await asyncio.to_thread(bot.stdout.readline) == "moved\n"
        [pid] = writer_pids(bot.pid)
        os.kill(pid, signal.SIGSTOP)  # it holds the next batch until the bot is gone
        bot.stdin.write("go\n")
        bot.stdin.flush()
        await asyncio.sleep(0.5)  # the bot sends move 2 and waits for its answer
    finally:
        bot.kill()
        bot.wait(10)
    os.kill(pid, signal.SIGCONT)
    assert await gone(pid)
    # The writer shared the bot's stderr: it is closed once the writer has ended.
    log = await asyncio.to_thread(bot.stderr.read)
    assert "Traceback" not in log and "Error" not in log, log
    async with SqliteRepository(path) as repo:
        assert [m.move for m in await repo.moves(1)] == ["m1", "m2"]
