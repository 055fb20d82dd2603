"""One move's failure stays its own: a move the database can never store (a score past
64 bits, text it cannot encode) is refused alone, as Unstorable, while the moves of other
tables committed beside it (SQLite's group commit puts them in one transaction) are kept.
"""

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from db.repository import FINISHED, PLAYING, ResultRow, StorageError, Unstorable
from db.sqlite import SqliteRepository
from db.transactions import each_in_savepoint
from tests.db.conftest import started_table


def results(score: int) -> list[ResultRow]:
    return [ResultRow(seat=0, user_id="u-ana", name="ana", is_bot=False, score=score, rank=1),
            ResultRow(seat=1, user_id="u-bo", name="bo", is_bot=False, score=0, rank=2)]


@pytest.mark.parametrize("poison", ["score", "move_text"])
async def test_a_poisoned_move_fails_alone_and_the_other_tables_moves_are_kept(repo, poison):
    tables = [await started_table(repo, channel=f"c{i}") for i in range(5)]
    poisoned = tables[2]

    async def move(table_id: int) -> object:
        if table_id != poisoned.id:
            return await repo.commit_move(table_id, seq=1, seat=0, move="7H", actor="player",
                                          snapshot="s1")
        if poison == "score":  # the final move of a game whose total overflowed
            return await repo.commit_move(table_id, seq=1, seat=0, move="7H", actor="player",
                                          snapshot="end", results=results(2**63))
        return await repo.commit_move(table_id, seq=1, seat=0, move="7\udc80", actor="player",
                                      snapshot="s1")

    # Issued together: on SQLite they share one group commit.
    outcomes = await asyncio.gather(*(move(t.id) for t in tables), return_exceptions=True)

    for table, outcome in zip(tables, outcomes, strict=True):
        stored = await repo.get_table(table.id)
        if table.id == poisoned.id:
            assert isinstance(outcome, Unstorable), outcome
            assert (stored.version, stored.status, stored.snapshot) == (0, PLAYING, "s0")
            assert await repo.moves(table.id) == []
            assert await repo.results(table.id) == []
        else:
            assert not isinstance(outcome, BaseException), outcome
            assert (stored.version, stored.snapshot) == (1, "s1")
            assert [m.move for m in await repo.moves(table.id)] == ["7H"]


async def test_after_a_poisoned_move_the_same_table_still_takes_a_storable_one(repo):
    table = await started_table(repo)
    with pytest.raises(Unstorable):
        await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                               snapshot="end", results=results(-(2**63) - 1))
    row = await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                 snapshot="end", results=results(2**62))
    assert (row.version, row.status) == (1, FINISHED)
    assert [r.score for r in await repo.results(table.id)] == [2**62, 0]


async def test_a_passing_fault_is_not_called_unstorable(repo):
    """Only values the database can never hold are Unstorable: a refused seq is not."""
    table = await started_table(repo)
    with pytest.raises(StorageError) as refused:
        await repo.commit_move(table.id, seq=5, seat=0, move="7H", actor="player",
                               snapshot="s5")
    assert not isinstance(refused.value, Unstorable)


class RecordingBatches(SqliteRepository):
    """The real SQLite repository, noting how many moves each group commit held."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.batches: list[int] = []

    async def _run_locked(self, fn: Callable[..., Any], *args: Any, **how: Any) -> Any:
        if fn is each_in_savepoint:
            self.batches.append(len(args[0]))
        return await super()._run_locked(fn, *args, **how)

    async def _run_in_writer(self, items: list[Any]) -> list[Any]:
        self.batches.append(len(items))
        return await super()._run_in_writer(items)


@pytest.mark.parametrize("writer_process", [True, False], ids=["writer-process", "thread"])
async def test_on_sqlite_the_poisoned_move_really_shared_its_commit(tmp_path, writer_process):
    async with RecordingBatches(tmp_path / "batch.db", writer_process=writer_process) as repo:
        tables = [await started_table(repo, channel=f"c{i}") for i in range(4)]
        poisoned = tables[0]
        # The first flush takes the first move alone; the rest queue behind it together.
        outcomes = await asyncio.gather(*(
            repo.commit_move(t.id, seq=1, seat=0, move="7H", actor="player", snapshot="end",
                             results=results(2**63 if t is poisoned else 1))
            for t in [tables[1], poisoned, *tables[2:]]), return_exceptions=True)
        assert max(repo.batches) >= 3, repo.batches
        assert [isinstance(o, Unstorable) for o in outcomes] == [False, True, False, False]
        assert [(await repo.get_table(t.id)).status for t in tables] == \
            ["playing", "finished", "finished", "finished"]


async def test_results_the_schema_refuses_are_unstorable_not_retried(repo):
    """A rules bug that ranks a seat 0 (ranks start at 1) fails the same way every time."""
    table = await started_table(repo)
    bad = [ResultRow(seat=0, user_id="u-ana", name="ana", is_bot=False, score=1, rank=0)]
    with pytest.raises(Unstorable):
        await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                               snapshot="end", results=bad)
    assert (await repo.get_table(table.id)).version == 0
