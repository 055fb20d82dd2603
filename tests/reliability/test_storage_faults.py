"""Storage faults seen from a player: the move is refused with "couldn't save", nothing is
half-written, and the game goes on once the fault is gone (docs/architecture.md, storage)."""

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import t
from bot.tables import Reply
from tests.reliability.checks import assert_consistent, row_state, stored_tables
from tests.reliability.conftest import PLAYERS, Service

ROOT = Path(__file__).resolve().parents[2]
COULD_NOT_SAVE = t("en", "storage_failed")
DONE = t("en", "move_done")


async def ochs_table(service: Service, rounds: int = 2) -> int:
    return await service.table("chan", "ochs-esel", 3, [f"rounds={rounds}"])


async def next_move(service: Service, table_id: int) -> tuple[int, str]:
    live = await service.tables.live_table(table_id)
    assert live is not None
    seat = live.game.to_act(live.state)[0]
    return seat, str(live.game.legal_moves(live.state, seat)[0])


async def play(service: Service, table_id: int) -> Reply:
    seat, move = await next_move(service, table_id)
    return await service.tables.play(PLAYERS[seat], "chan", move)


async def assert_refused_whole(service: Service, table_id: int) -> None:
    """The refusal path: the same move is refused, stored rows and memory stay as they were."""
    live = await service.tables.live_table(table_id)
    assert live is not None
    version, state = live.row.version, live.game.dump(live.state)
    before = row_state(service.path)
    reply = await play(service, table_id)
    assert (reply.ok, reply.text) == (False, COULD_NOT_SAVE)
    assert row_state(service.path) == before
    assert (live.row.version, live.game.dump(live.state)) == (version, state)
    for table in stored_tables(service.path):
        assert_consistent(table)


async def assert_goes_on(service: Service, table_id: int) -> None:
    for _ in range(3):
        reply = await play(service, table_id)
        assert (reply.ok, reply.text) == (True, DONE)
    for table in stored_tables(service.path):
        assert_consistent(table)


async def test_a_locked_database_refuses_the_move_and_the_game_goes_on_once_unlocked(tmp_path):
    service = Service(tmp_path / "tapis.db", busy_timeout=0.2)
    await service.open()
    try:
        table_id = await ochs_table(service)
        assert (await play(service, table_id)).ok
        other = sqlite3.connect(service.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            await assert_refused_whole(service, table_id)
        finally:
            other.execute("ROLLBACK")
            other.close()
        await assert_goes_on(service, table_id)
    finally:
        await service.close()


async def test_a_full_database_refuses_the_move_and_the_game_goes_on_once_there_is_room(
    tmp_path,
):
    # The page cap below belongs to one connection, so the moves are committed on the one
    # the test can reach, not by the writer process (whose failed commits, any cause,
    # tests/db/test_writer_process.py and the locked database above cover).
    service = Service(tmp_path / "tapis.db", writer_process=False)
    await service.open()
    repo = service.repo
    try:
        table_id = await ochs_table(service, rounds=20)  # enough moves to fill a page

        def cap(db: sqlite3.Connection, pages: int | None) -> None:
            # max_page_count belongs to one connection: set it on the one bot/ writes with.
            if pages is None:
                (pages,) = db.execute("PRAGMA page_count").fetchone()
            db.execute(f"PRAGMA max_page_count = {pages}")

        assert repo._db is not None
        await repo._job(repo._db, cap, None)
        # Moves fit while the last page has room; the first that needs a new page is refused.
        for _ in range(300):
            live = await service.tables.live_table(table_id)
            assert live is not None
            before = row_state(service.path)
            version = live.row.version
            reply = await play(service, table_id)
            if not reply.ok:
                break
        else:
            pytest.fail("300 moves fitted in a full database")
        assert reply.text == COULD_NOT_SAVE
        assert row_state(service.path) == before
        assert live.row.version == version
        await assert_refused_whole(service, table_id)
        await repo._job(repo._db, cap, 1_073_741_823)
        await assert_goes_on(service, table_id)
    finally:
        await service.close()


async def read_only_scenario(path: Path) -> None:
    """Run without the capability that lets root ignore file modes (see tests/db)."""
    service = Service(path)
    await service.open()
    table_id = await ochs_table(service)
    assert (await play(service, table_id)).ok
    await service.close()
    for file in path.parent.glob(f"{path.name}*"):
        file.chmod(0o444)

    service = Service(path)
    await service.open()
    try:
        await assert_refused_whole(service, table_id)
        for file in path.parent.glob(f"{path.name}*"):
            file.chmod(0o644)
        await assert_goes_on(service, table_id)
    finally:
        await service.close()


async def test_a_read_only_database_refuses_the_move_and_the_game_goes_on_once_writable(
    tmp_path,
):
    path = tmp_path / "tapis.db"
    if os.geteuid() != 0:
        await read_only_scenario(path)
        return
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv is missing: a chmod would not bite")
    dropped = "-dac_override,-dac_read_search"
    code = ("import asyncio, sys, pathlib;"
            " from tests.reliability.test_storage_faults import read_only_scenario;"
            " asyncio.run(read_only_scenario(pathlib.Path(sys.argv[1])))")
    done = await asyncio.to_thread(
        subprocess.run,
        [setpriv, f"--bounding-set={dropped}", f"--inh-caps={dropped}",
         sys.executable, "-c", code, str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]


async def test_a_move_whose_answer_was_lost_is_answered_as_played_and_the_game_goes_on(
    tmp_path, monkeypatch,
):
    """The writer commits Bob's move and dies before it answers: Bob is told his move is
    played (it is stored), the table here follows the store, and the next player plays."""
    flag = tmp_path / "die-after-commit"
    monkeypatch.setenv("TAPIS_TEST_WRITER_DIES_AFTER_COMMIT", str(flag))
    service = Service(tmp_path / "tapis.db")
    await service.open()
    try:
        table_id = await ochs_table(service)
        assert (await play(service, table_id)).ok
        flag.touch()
        reply = await play(service, table_id)
        assert not flag.exists()  # the writer did die between its COMMIT and its answer
        assert (reply.ok, reply.text) == (True, DONE)
        live = await service.tables.live_table(table_id)
        assert live is not None
        (stored,) = [t for t in stored_tables(service.path) if t.id == table_id]
        assert live.row.version == stored.version == 2
        assert live.game.dump(live.state) == stored.snapshot
        await assert_goes_on(service, table_id)
    finally:
        await service.close()
