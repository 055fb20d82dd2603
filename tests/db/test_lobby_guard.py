"""`update_table(expected_row=…, expected_seats=…)`: a lobby write computed from a table
read earlier is stored only if the stored table is still what was read, on both
backends and from a second repository on the same database."""

import asyncio

import pytest

from db.repository import LOBBY, SeatRow, StorageError, VersionConflict
from tests.db.conftest import new_table, seats


async def test_a_write_from_a_stale_read_is_refused_and_changes_nothing(repo, make_repo):
    table = await new_table(repo)
    read_seats = await repo.get_seats(table.id)
    async with make_repo() as other:  # another process joins first
        await other.update_table(table.id, expected_version=0,
                                 seats=[*read_seats, SeatRow(2, "u-cy", "cy")],
                                 expected_row=table, expected_seats=read_seats)
    with pytest.raises(VersionConflict):
        await repo.update_table(table.id, expected_version=0,
                                seats=[*read_seats, SeatRow(2, "u-di", "di")],
                                expected_row=table, expected_seats=read_seats)
    assert [s.name for s in await repo.get_seats(table.id)] == ["ana", "bo", "cy"]


async def test_a_changed_setting_or_host_refuses_a_write_read_before_it(repo):
    table = await new_table(repo)
    changed = await repo.update_table(table.id, expected_version=0,
                                      settings={**table.settings, "deadline": 90})
    with pytest.raises(VersionConflict):
        await repo.update_table(table.id, expected_version=0, host="u-bo", expected_row=table)
    row = await repo.update_table(table.id, expected_version=0, host="u-bo",
                                  expected_row=changed)
    assert (row.host, row.status) == ("u-bo", LOBBY)


async def test_of_two_writes_from_one_read_exactly_one_is_stored(repo, make_repo):
    table = await new_table(repo)
    read_seats = await repo.get_seats(table.id)
    async with make_repo() as other:
        outcomes = await asyncio.gather(*(
            r.update_table(table.id, expected_version=0,
                           seats=[*read_seats, SeatRow(2, f"u-{name}", name)],
                           expected_row=table, expected_seats=read_seats)
            for r, name in ((repo, "cy"), (other, "di"))), return_exceptions=True)
    # One stored; the other refused (a VersionConflict, or on a loaded machine the lock
    # wait running out first: refused either way, never stored over the first).
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert sum(isinstance(o, StorageError) for o in outcomes) == 1
    assert len(await repo.get_seats(table.id)) == 3
    assert seats("ana", "bo") == read_seats
