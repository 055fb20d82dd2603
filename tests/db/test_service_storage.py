"""Storage for running the bot as a service: retention, counts for /metrics, a ping for
/healthz, and what /mydata reads and /forgetme removes. Both backends."""

import pytest

from db.repository import (
    CANCELLED,
    CLOSED,
    FINISHED,
    PLAYING,
    MessageRef,
    ResultRow,
    SeatRow,
    StorageError,
    UserSettings,
)
from tests.db.conftest import new_table, started_table

DAY = 86400.0


async def finish(repo, table, scores):
    """One move that ends the game, with a result per seat (rank from the score)."""
    seats = await repo.get_seats(table.id)
    ranks = [1 + sum(other < score for other in scores) for score in scores]
    results = [ResultRow(seat=s.seat, user_id=s.user_id or s.former_user_id, name=s.name,
                         is_bot=s.is_bot, score=scores[s.seat], rank=ranks[s.seat])
               for s in seats]
    return await repo.commit_move(table.id, seq=table.version + 1, seat=0, move="7",
                                  actor="player", snapshot="end", status=FINISHED,
                                  results=results)


async def test_retention_deletes_only_finished_and_cancelled_tables_older_than_the_limit(
        repo, clock):
    clock.now = 1_000 * DAY
    old_finished = await finish(repo, await started_table(repo, channel="a"), [3, 5])
    old_cancelled = await new_table(repo, channel="b")
    old_cancelled = await repo.update_table(old_cancelled.id, expected_version=0,
                                            status=CANCELLED)
    old_playing = await started_table(repo, channel="c")
    old_lobby = await new_table(repo, channel="d")
    old_closed = await repo.update_table((await new_table(repo, channel="e")).id,
                                         expected_version=0, status=CLOSED)
    clock.now = 1_029 * DAY
    recent_finished = await finish(repo, await started_table(repo, channel="f"), [1, 2])

    deleted = await repo.delete_tables_before(1_030 * DAY - 30 * DAY + 60)

    assert deleted == 2
    assert await repo.get_table(old_finished.id) is None
    assert await repo.get_table(old_cancelled.id) is None
    assert await repo.results(old_finished.id) == []
    assert await repo.moves(old_finished.id) == []
    assert await repo.get_seats(old_finished.id) == []
    for kept in (old_playing, old_lobby, old_closed, recent_finished):
        assert await repo.get_table(kept.id) is not None, kept
    assert len(await repo.results(recent_finished.id)) == 2
    assert await repo.delete_tables_before(1_030 * DAY - 30 * DAY + 60) == 0


async def test_table_counts_are_by_game_and_status(repo):
    await new_table(repo, channel="a", game="ochs-esel")
    await started_table(repo, channel="b", game="ochs-esel")
    await started_table(repo, channel="c", game="ochs-esel")
    await finish(repo, await started_table(repo, channel="d", game="michigan"), [1, 2])

    assert await repo.table_counts() == {("ochs-esel", "lobby"): 1,
                                         ("ochs-esel", "playing"): 2,
                                         ("michigan", "finished"): 1}


async def test_ping_answers_while_open_and_fails_once_closed(make_repo):
    repo = make_repo()
    await repo.open()
    await repo.ping()
    await repo.close()
    with pytest.raises(StorageError):
        await repo.ping()


async def test_user_tables_finds_seats_results_takeovers_and_hosting_but_not_others(repo):
    seated = await finish(repo, await started_table(repo, channel="a",
                                                    players=("zoe", "bo")), [2, 1])
    elsewhere = await started_table(repo, channel="b", players=("bo", "cy"))
    waiting = await started_table(repo, channel="c", players=("cy", "dee"))
    await repo.update_table(waiting.id, expected_version=waiting.version,
                            settings={"takeovers": [["u-zoe", "Zoe"]]})
    # An id that merely contains hers is somebody else.
    lookalike = await started_table(repo, channel="d", players=("cy", "dee"))
    await repo.update_table(lookalike.id, expected_version=lookalike.version,
                            settings={"unreachable": ["u-zoey"]})

    found = [t.id for t in await repo.user_tables("telegram", "u-zoe")]

    assert found == [seated.id, waiting.id]
    assert elsewhere.id not in found
    assert await repo.user_tables("discord", "u-zoe") == []


async def test_forgetting_keeps_every_score_and_others_stats_but_not_the_name(repo):
    first = await finish(repo, await started_table(repo, channel="a",
                                                   players=("zoe", "bo", "cy")), [1, 5, 9])
    second = await finish(repo, await started_table(repo, channel="b",
                                                    players=("bo", "zoe")), [4, 2])
    bo_before = await repo.stats("telegram", "u-bo")
    await repo.set_user_settings("telegram", "u-zoe", UserSettings(lang="fr", mentions=False))
    await repo.set_user_locale("telegram", "u-zoe", "fr")
    await repo.set_message(first.id, MessageRef("hand:0", "u-zoe", "77", {"user": "u-zoe"}))
    await repo.set_message(first.id, MessageRef("hand:1", "u-bo", "78", {"user": "u-bo"}))

    await repo.forget_user("telegram", "u-zoe", names={first.id: "a former player",
                                                       second.id: "un ancien joueur"},
                           default_name="a former player")

    assert await repo.stats("telegram", "u-bo") == bo_before
    assert await repo.stats("telegram", "u-zoe") == []
    results = {r.seat: r for r in await repo.results(first.id)}
    assert (results[0].name, results[0].user_id, results[0].score, results[0].rank) == (
        "a former player", None, 1, 1)
    assert results[1].name == "bo" and results[1].user_id == "u-bo"
    second_results = {r.seat: r for r in await repo.results(second.id)}
    assert (second_results[1].name, second_results[1].score) == ("un ancien joueur", 2)
    seat = (await repo.get_seats(first.id))[0]
    assert (seat.name, seat.user_id, seat.is_bot) == ("a former player", None, True)
    assert (await repo.get_table(first.id)).host == ""
    assert await repo.user_settings("telegram", "u-zoe") == UserSettings()
    assert list(await repo.messages(first.id)) == ["hand:1"]
    assert await repo.user_tables("telegram", "u-zoe") == []


async def test_forgetting_cleans_settings_lists_and_a_bot_seat_they_could_reclaim(repo):
    playing = await started_table(repo, channel="a", players=("bo", "zoe", "cy"))
    await repo.update_seat(playing.id, SeatRow(seat=1, user_id=None, name="🤖 Ada",
                                               is_bot=True, former_user_id="u-zoe"))
    playing = await repo.update_table(
        playing.id, expected_version=playing.version,
        settings={"takeovers": [["u-zoe", "Zoe"], ["u-dee", "Dee"]],
                  "kicked": ["u-zoe"], "unreachable": ["u-zoe", "u-cy"]})
    over = await finish(repo, await started_table(repo, channel="b",
                                                  players=("bo", "cy")), [1, 2])
    await repo.update_table(over.id, expected_version=over.version,
                            settings={"kicked": ["u-zoe"]})

    await repo.forget_user("telegram", "u-zoe", names={}, default_name="a former player")

    bot = (await repo.get_seats(playing.id))[1]
    assert (bot.name, bot.former_user_id, bot.is_bot) == ("🤖 Ada", None, True)
    settings = (await repo.get_table(playing.id)).settings
    # Not even as kicked: nothing keeps a forgotten id.
    assert settings == {"takeovers": [["u-dee", "Dee"]], "kicked": [],
                        "unreachable": ["u-cy"]}
    assert (await repo.get_table(over.id)).settings == {"kicked": []}
    assert (await repo.get_table(playing.id)).status == PLAYING


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_forgotten_name_is_nowhere_in_the_sqlite_file(repo, db_path):
    name = "Zephyrine Quillfeather"
    table = await new_table(repo, channel="a", players=("bo",))
    # A lobby rewritten a few times leaves old copies of its seat rows in free space.
    for extra in range(3):
        seats = [SeatRow(0, "u-bo", "bo"), SeatRow(1, "u-zoe", name)] + [
            SeatRow(2 + i, None, f"🤖 {i}", is_bot=True) for i in range(extra)]
        table = await repo.update_table(table.id, expected_version=table.version, seats=seats)
    table = await repo.update_table(table.id, expected_version=table.version,
                                    status=PLAYING, reset_moves=True, snapshot="s0")
    await finish(repo, table, [1] * len(await repo.get_seats(table.id)))
    assert name.encode() in _file_bytes(db_path)

    await repo.forget_user("telegram", "u-zoe", names={}, default_name="a former player")

    assert name.encode() not in _file_bytes(db_path)
    assert b"u-zoe" not in _file_bytes(db_path)
    await repo.close()
    assert name.encode() not in _file_bytes(db_path)


def _file_bytes(db_path):
    found = b""
    for path in (db_path, db_path.with_name(db_path.name + "-wal")):
        if path.exists():
            found += path.read_bytes()
    return found


# --- a person's tables through the indexes, and what the sweep can never bring back -------

async def test_a_person_is_found_wherever_their_id_is_stored_and_nowhere_else(repo):
    """/mydata must stay complete: every place a person's id is kept finds the table."""
    seated = await started_table(repo, channel="a", players=("bo", "zoe"))
    taken_over = await started_table(repo, channel="b", players=("bo", "cy"))
    await repo.update_seat(taken_over.id, SeatRow(1, None, "🤖 Ada", is_bot=True,
                                                  former_user_id="u-zoe"))
    # Results only: the seat went to somebody else before the end.
    result = await started_table(repo, channel="c", players=("bo", "cy"))
    await repo.commit_move(result.id, seq=1, seat=0, move="7", actor="player", snapshot="e",
                           status=FINISHED, results=[ResultRow(0, "u-bo", "bo", False, 1, 1),
                                                     ResultRow(1, "u-zoe", "Zoe", False, 3, 2)])
    hosted = await new_table(repo, channel="d", players=("zoe",))
    await repo.update_table(hosted.id, expected_version=0, seats=[SeatRow(0, "u-bo", "bo")])
    listed = {}
    for channel, key, value in (("e", "takeovers", ["u-zoe", "Zoe"]), ("f", "kicked", "u-zoe")):
        table = await started_table(repo, channel=channel, players=("bo", "cy"))
        listed[key] = await repo.update_table(table.id, expected_version=table.version,
                                              settings={"deadline": 60, key: [value]})
    unreachable = await repo.create_table(  # named from the start
        platform="telegram", channel="g", game="ochs_esel", options={}, seed=1, host="u-bo",
        settings={"unreachable": ["u-cy", "u-zoe"]}, seats=[SeatRow(0, "u-bo", "bo")])
    # No longer named: let in again after a kick; another platform's table.
    let_in = await started_table(repo, channel="h", players=("bo", "cy"))
    let_in = await repo.update_table(let_in.id, expected_version=let_in.version,
                                     settings={"kicked": ["u-zoe"]})
    await repo.update_table(let_in.id, expected_version=let_in.version, settings={"kicked": []})
    await started_table(repo, channel="i", platform="discord", players=("zoe", "bo"))

    found = [t.id for t in await repo.user_tables("telegram", "u-zoe")]

    assert found == [seated.id, taken_over.id, result.id, hosted.id, listed["takeovers"].id,
                     listed["kicked"].id, unreachable.id]

    await repo.forget_user("telegram", "u-zoe", names={}, default_name="a former player")
    # Nothing stays, not even the kick of a game under way.
    assert await repo.user_tables("telegram", "u-zoe") == []
    assert (await repo.get_table(unreachable.id)).settings == {"unreachable": ["u-cy"]}
    assert len(await repo.user_tables("discord", "u-zoe")) == 1


async def test_the_sweep_deletes_closed_tables_a_newer_one_rules_out_with_or_without_age(
        repo, clock):
    clock.now = 1_000 * DAY
    lone = await repo.update_table((await new_table(repo, channel="a")).id,
                                   expected_version=0, status=CLOSED)
    ruled_out = await repo.update_table((await new_table(repo, channel="b")).id,
                                        expected_version=0, status=CLOSED)
    newer = await started_table(repo, channel="b")
    topic = await new_table(repo, channel="b:7")  # a topic of b is another channel
    # Closed, then a newer game there that has ended long ago: both go together.
    behind_old = await repo.update_table((await new_table(repo, channel="c")).id,
                                         expected_version=0, status=CLOSED)
    old_game = await finish(repo, await started_table(repo, channel="c"), [1, 2])
    clock.now = 1_100 * DAY

    assert await repo.delete_tables_before(None) == 2  # no RETENTION_DAYS

    assert await repo.get_table(ruled_out.id) is None
    assert await repo.get_table(behind_old.id) is None
    for kept in (lone, newer, topic, old_game):
        assert await repo.get_table(kept.id) is not None, kept
    assert [t.id for t in await repo.newest_tables_in("telegram", "a")] == [lone.id]

    assert await repo.delete_tables_before(1_050 * DAY) == 1
    assert await repo.get_table(old_game.id) is None
    assert await repo.get_table(lone.id) is not None  # may still come back with its channel
    assert await repo.newest_tables_in("telegram", "c") == []


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_swept_name_is_nowhere_in_the_sqlite_file(repo, db_path, clock):
    name = "Zephyrine Quillfeather"
    table = await new_table(repo, channel="a", players=("bo",))
    table = await repo.update_table(table.id, expected_version=0, status=PLAYING,
                                    reset_moves=True, snapshot="s0",
                                    seats=[SeatRow(0, "u-bo", "bo"), SeatRow(1, "u-zoe", name)])
    await finish(repo, table, [1, 2])
    assert name.encode() in _file_bytes(db_path)

    assert await repo.delete_tables_before(clock.now + DAY) == 1

    assert name.encode() not in _file_bytes(db_path)
    assert b"u-zoe" not in _file_bytes(db_path)
