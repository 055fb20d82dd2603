"""The move log: seq = version + 1, one winner per seq, results and stats, restarts."""

import asyncio

import pytest

from db.repository import (
    CANCELLED,
    FINISHED,
    PLAYING,
    Deadline,
    ResultRow,
    StorageError,
    TableNotFound,
    VersionConflict,
)
from tests.db.conftest import new_table, started_table


def finish(*ranked: tuple[str | None, int, int]) -> list[ResultRow]:
    """Results from (user_id, score, rank), seat by seat."""
    return [ResultRow(seat=i, user_id=user, name=user or f"Bot {i}", is_bot=user is None,
                      score=score, rank=rank)
            for i, (user, score, rank) in enumerate(ranked)]


async def test_moves_append_in_order_and_carry_the_snapshot(repo, clock):
    table = await started_table(repo)

    for seq, (seat, move) in enumerate([(0, "7H"), (1, "pass"), (0, "8H 8S")], start=1):
        row = await repo.commit_move(table.id, seq=seq, seat=seat, move=move, actor="player",
                                     snapshot=f"s{seq}")
        assert (row.version, row.snapshot, row.status) == (seq, f"s{seq}", PLAYING)

    log = await repo.moves(table.id)
    assert [(m.seq, m.seat, m.move, m.actor) for m in log] == [
        (1, 0, "7H", "player"), (2, 1, "pass", "player"), (3, 0, "8H 8S", "player")]
    assert log[0].created_at < log[1].created_at < log[2].created_at
    stored = await repo.get_table(table.id)
    assert (stored.version, stored.snapshot) == (3, "s3")
    assert stored.updated_at == log[2].created_at


async def test_a_press_on_an_outdated_message_changes_nothing(repo):
    table = await started_table(repo)
    await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player", snapshot="s1")

    for stale_seq in (1, 3):  # already played; from the future
        with pytest.raises(VersionConflict, match="version 1"):
            await repo.commit_move(table.id, seq=stale_seq, seat=1, move="9C", actor="player",
                                   snapshot="bad")
    assert (await repo.get_table(table.id)).snapshot == "s1"
    assert [m.move for m in await repo.moves(table.id)] == ["7H"]


async def test_a_move_racing_a_cancel_cannot_revive_the_table(repo):
    table = await started_table(repo)
    await repo.update_table(table.id, expected_version=0, status=CANCELLED)

    with pytest.raises(VersionConflict, match="cancelled"):
        await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                               snapshot="s1")
    assert (await repo.get_table(table.id)).status == CANCELLED
    assert await repo.moves(table.id) == []


async def test_no_moves_in_the_lobby(repo):
    table = await new_table(repo)

    with pytest.raises(VersionConflict, match="lobby"):
        await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                               snapshot="s1")


async def test_a_move_at_a_table_that_does_not_exist_says_so(repo):
    with pytest.raises(TableNotFound):
        await repo.commit_move(404, seq=1, seat=0, move="7H", actor="player", snapshot="s")


async def test_fifty_simultaneous_presses_apply_exactly_once(repo):
    table = await started_table(repo)

    outcomes = await asyncio.gather(*(
        repo.commit_move(table.id, seq=1, seat=i % 2, move=f"press-{i}", actor="player",
                         snapshot=f"s-{i}")
        for i in range(50)
    ), return_exceptions=True)

    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(winners) == 1
    assert all(isinstance(o, VersionConflict) for o in outcomes if o is not winners[0])
    log = await repo.moves(table.id)
    assert len(log) == 1 and winners[0].snapshot == f"s-{log[0].move.removeprefix('press-')}"


async def test_two_processes_on_one_database_cannot_both_apply_a_seq(make_repo, repo):
    table = await started_table(repo)

    async with make_repo() as other_process:
        outcomes = await asyncio.gather(*(
            r.commit_move(table.id, seq=1, seat=0, move=name, actor="player", snapshot=name)
            for r, name in [(repo, "here"), (other_process, "there")] * 5
        ), return_exceptions=True)

    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(isinstance(o, VersionConflict) for o in outcomes if isinstance(o, Exception))
    assert len(await repo.moves(table.id)) == 1


async def test_the_last_move_stores_results_and_finishes_the_table(repo):
    table = await started_table(repo, players=("ana", "bo", "cy"))
    ranking = finish(("u-ana", 0, 2), ("u-bo", -3, 3), ("u-cy", 5, 1))

    final = await repo.commit_move(table.id, seq=1, seat=2, move="out", actor="player",
                                   snapshot="end", results=ranking)
    assert (final.status, final.version) == (FINISHED, 1)
    assert [r.user_id for r in await repo.results(table.id)] == ["u-cy", "u-ana", "u-bo"]
    assert await repo.open_table_in("telegram", "c1") is None
    assert await repo.unfinished_tables() == []


async def test_bad_results_roll_back_the_final_move_too(repo):
    table = await started_table(repo)
    same_seat_twice = [*finish(("u-ana", 1, 1)), *finish(("u-bo", 0, 2))]

    with pytest.raises(StorageError):
        await repo.commit_move(table.id, seq=1, seat=0, move="out", actor="player",
                               snapshot="end", results=same_seat_twice)
    stored = await repo.get_table(table.id)
    assert (stored.status, stored.version, stored.snapshot) == (PLAYING, 0, "s0")
    assert await repo.moves(table.id) == [] and await repo.results(table.id) == []
    await repo.commit_move(table.id, seq=1, seat=0, move="out", actor="player",
                           snapshot="end", results=finish(("u-ana", 1, 1), ("u-bo", 0, 2)))


async def test_stats_count_games_wins_and_average_rank_per_game(repo):
    async def play(channel: str, game: str, ranking: list[ResultRow],
                   platform: str = "telegram") -> None:
        table = await started_table(repo, channel=channel, game=game, platform=platform)
        await repo.commit_move(table.id, seq=1, seat=0, move="x", actor="player",
                               snapshot="end", results=ranking)

    await play("a", "ochs_esel", finish(("u-ana", 3, 1), ("u-bo", 0, 2)))
    await play("b", "ochs_esel", finish(("u-ana", 1, 2), ("u-bo", 1, 2), ("u-cy", 4, 1)))
    await play("c", "ochs_esel", finish(("u-ana", 2, 1), ("u-bo", 2, 1)))  # a tie wins too
    await play("d", "tichu", finish(("u-ana", 0, 3), (None, 9, 1), ("u-bo", 5, 2)))
    await play("e", "tichu", finish(("u-ana", 9, 1)), platform="discord")
    unfinished = await started_table(repo, channel="f", game="tichu")
    await repo.commit_move(unfinished.id, seq=1, seat=0, move="x", actor="player",
                           snapshot="s1")

    stats = await repo.stats("telegram", "u-ana")
    assert [(s.game, s.played, s.wins) for s in stats] == [("ochs_esel", 3, 2), ("tichu", 1, 0)]
    assert stats[0].average_rank == pytest.approx(4 / 3)
    assert stats[1].average_rank == 3
    assert await repo.stats("telegram", "nobody") == []


async def test_a_restart_mid_game_finds_everything_where_it_was(make_repo):
    async with make_repo() as before:
        table = await started_table(before)
        await before.commit_move(table.id, seq=1, seat=0, move="7H", actor="player",
                                 snapshot="s1")
        await before.commit_move(table.id, seq=2, seat=1, move="pass", actor="afk",
                                 snapshot="s2")
        seats_before = await before.get_seats(table.id)

    async with make_repo() as after:
        (resumed,) = await after.unfinished_tables()
        assert (resumed.id, resumed.version, resumed.snapshot, resumed.status) == (
            table.id, 2, "s2", PLAYING)
        assert await after.get_seats(table.id) == seats_before
        assert [(m.seq, m.move, m.actor) for m in await after.moves(table.id)] == [
            (1, "7H", "player"), (2, "pass", "afk")]
        await after.commit_move(table.id, seq=3, seat=0, move="8H", actor="player",
                                snapshot="s3")

    async with make_repo() as again:
        assert [m.seq for m in await again.moves(table.id)] == [1, 2, 3]
        assert (await again.get_table(table.id)).snapshot == "s3"


async def test_a_snapshot_comes_back_byte_for_byte(repo):
    table = await started_table(repo)
    # What json.dumps may produce and a careless backend would normalise: key order,
    # spacing, escapes, non-ASCII, line ends; and a long game's size.
    snapshot = ('{"z":1, "a" : [1.0,1e-07,"\\u0000\\ud83c"],"é":"Ochs & Esel ♠ 10♥",'
                '"crlf":"a\\r\\nb"}\r\n  ' + " " * 3 + "x" * 1_000_000)

    moved = await repo.commit_move(table.id, seq=1, seat=0, move="10♥ 10♠", actor="player",
                                   snapshot=snapshot)
    assert moved.snapshot == snapshot
    assert (await repo.get_table(table.id)).snapshot == snapshot
    assert (await repo.moves(table.id))[0].move == "10♥ 10♠"


async def test_moves_of_many_tables_at_once_each_commit_or_fail_alone(repo, make_repo):
    tables = [await started_table(repo, channel=f"c{i}") for i in range(20)]
    await repo.commit_move(tables[0].id, seq=1, seat=0, move="first", actor="player",
                           snapshot="s1")
    # Table 0's second move is sent with a stale seq among nineteen good moves.
    calls = [repo.commit_move(t.id, seq=1, seat=0, move=f"m{t.id}", actor="bot",
                              snapshot=f"s{t.id}") for t in tables]
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(outcomes[0], VersionConflict)
    assert all(not isinstance(o, BaseException) and o.version == 1 for o in outcomes[1:])
    await repo.close()
    async with make_repo() as reopened:  # durable: everything is there after a restart
        for table in tables[1:]:
            assert [m.move for m in await reopened.moves(table.id)] == [f"m{table.id}"]
            assert (await reopened.get_table(table.id)).snapshot == f"s{table.id}"
        assert [m.move for m in await reopened.moves(tables[0].id)] == ["first"]


async def test_just_ended_tables_are_those_finished_or_cancelled_near_the_newest_change(
        repo, clock):
    """Start-up redraws them: their last deliveries may have died with the process. The
    window counts from the newest stored change, not from now, so a process that stayed
    down for hours still finds the game it finished as it stopped."""
    old = await started_table(repo, channel="old")
    await repo.commit_move(old.id, seq=1, seat=0, move="out", actor="player", snapshot="end",
                           results=finish(("u-ana", 0, 1), ("u-bo", 1, 2)))
    clock.now += 1000  # a long game elsewhere
    recent = await started_table(repo, channel="recent")
    await repo.commit_move(recent.id, seq=1, seat=0, move="out", actor="player",
                           snapshot="end", results=finish(("u-ana", 0, 1), ("u-bo", 1, 2)))
    cancelled = await new_table(repo, channel="cancelled")
    cancelled = await repo.update_table(cancelled.id, expected_version=0, status=CANCELLED)
    playing = await started_table(repo, channel="playing")
    await repo.commit_move(playing.id, seq=1, seat=0, move="7", actor="player", snapshot="s1")

    assert [t.id for t in await repo.just_ended_tables(600)] == [recent.id, cancelled.id]
    assert {t.id for t in await repo.just_ended_tables(2000)} == {old.id, recent.id,
                                                                  cancelled.id}
    assert await repo.newest_change() == (await repo.get_table(playing.id)).updated_at


async def test_no_table_no_newest_change(repo):
    assert await repo.newest_change() is None


async def test_a_move_stores_or_clears_the_next_turns_deadline_in_its_own_transaction(repo):
    table = await started_table(repo)
    due = Deadline(table_id=table.id, seat=1, version=1, due_at=1_900_000_300.0,
                   remind_at=1_900_000_240.0)
    await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player", snapshot="s1",
                           deadline=due)
    (stored,) = await repo.deadlines()
    assert (stored.seat, stored.version, stored.due_at, stored.remind_at, stored.reminded) \
        == (1, 1, 1_900_000_300.0, 1_900_000_240.0, False)
    # A refused move (stale version) leaves the deadline as it was.
    later = Deadline(table_id=table.id, seat=0, version=2, due_at=1_900_000_900.0,
                     remind_at=None)
    with pytest.raises(VersionConflict):
        await repo.commit_move(table.id, seq=1, seat=1, move="9C", actor="player",
                               snapshot="x", deadline=later)
    assert [d.version for d in await repo.deadlines()] == [1]
    await repo.commit_move(table.id, seq=2, seat=1, move="9C", actor="bot", snapshot="s2",
                           clear_deadline=True)
    assert await repo.deadlines() == []


async def test_start_up_reads_every_open_tables_seats_at_once_and_no_ended_ones(repo):
    lobby = await new_table(repo, "c1", players=("ana", "bo", "cy"))
    playing = await started_table(repo, "c2", players=("dee", "ed"))
    ended = await started_table(repo, "c3")
    await repo.commit_move(ended.id, seq=1, seat=0, move="out", actor="player",
                           snapshot="end", results=finish(("u-ana", 0, 1), ("u-bo", 5, 2)))
    seats = await repo.open_tables_seats()
    assert set(seats) == {lobby.id, playing.id}
    assert [s.seat for s in seats[lobby.id]] == [0, 1, 2]
    assert seats[playing.id] == await repo.get_seats(playing.id)


async def test_several_tables_deadlines_are_stored_together(repo):
    one, two = await started_table(repo, "c1"), await started_table(repo, "c2")
    await repo.set_deadlines([
        Deadline(table_id=one.id, seat=0, version=0, due_at=100.0, remind_at=None),
        Deadline(table_id=two.id, seat=1, version=0, due_at=50.0, remind_at=40.0)])
    assert [(d.table_id, d.due_at) for d in await repo.deadlines()] == [(two.id, 50.0),
                                                                         (one.id, 100.0)]
    with pytest.raises(TableNotFound):  # all or nothing
        await repo.set_deadlines([
            Deadline(table_id=one.id, seat=0, version=0, due_at=999.0, remind_at=None),
            Deadline(table_id=404, seat=0, version=0, due_at=1.0, remind_at=None)])
    assert [d.due_at for d in await repo.deadlines()] == [50.0, 100.0]


async def test_the_languages_of_many_channels_are_read_at_once(repo):
    await repo.set_channel_lang("telegram", "c1", "fr")
    await repo.set_channel_lang("telegram", "c3", "de")
    await repo.set_channel_lang("discord", "c2", "fr")  # another platform's channel
    assert await repo.channel_langs("telegram", ["c1", "c2", "c3", "c4"]) == {
        "c1": "fr", "c3": "de"}
    assert await repo.channel_langs("telegram", []) == {}
