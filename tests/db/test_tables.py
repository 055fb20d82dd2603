"""Tables and seats: one open table per channel, guarded lobby edits, restart order."""

import asyncio

import pytest

from db.repository import (
    CANCELLED,
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    MessageRef,
    SeatRow,
    StorageError,
    TableExists,
    TableNotFound,
    VersionConflict,
)
from tests.db.conftest import new_table, seats, started_table


async def test_a_new_table_waits_in_the_lobby_with_its_seats(repo):
    table = await new_table(repo, players=("ana", "bo", "cy"))

    assert (table.status, table.version, table.snapshot) == (LOBBY, 0, None)
    assert table.options == {"rounds": 3} and table.settings == {"deadline": 60}
    assert (table.platform, table.channel, table.game, table.seed, table.host) == (
        "telegram", "c1", "ochs_esel", 7, "u-ana")
    assert await repo.get_table(table.id) == table
    assert await repo.open_table_in("telegram", "c1") == table
    assert [s.name for s in await repo.get_seats(table.id)] == ["ana", "bo", "cy"]


async def test_unknown_table_and_empty_channel_read_as_none(repo):
    await new_table(repo, channel="c1")

    assert await repo.get_table(999) is None
    assert await repo.open_table_in("telegram", "elsewhere") is None
    assert await repo.open_table_in("discord", "c1") is None


async def test_second_newgame_in_a_channel_names_the_open_table(repo):
    first = await new_table(repo, channel="c1")

    with pytest.raises(TableExists) as refused:
        await new_table(repo, channel="c1", game="other")
    assert refused.value.table_id == first.id
    assert await repo.unfinished_tables() == [first]


async def test_simultaneous_newgames_in_one_channel_make_one_table(make_repo, repo):
    async with make_repo() as other_process:
        outcomes = await asyncio.gather(*(
            new_table(r, channel="c1", game=f"g{i}")
            for i, r in enumerate([repo, other_process] * 5)
        ), return_exceptions=True)

    (created,) = [o for o in outcomes if not isinstance(o, BaseException)]
    assert all(isinstance(o, TableExists) and o.table_id == created.id
               for o in outcomes if o is not created)
    assert await repo.unfinished_tables() == [created]
    assert len(await repo.get_seats(created.id)) == 2


async def test_a_seed_of_62_bits_is_kept_and_one_beyond_64_bits_refused_whole(repo):
    kept = await repo.create_table(platform="telegram", channel="c1", game="g", options={},
                                   settings={}, seed=2**62 - 1, host="a", seats=seats("a"))
    assert (await repo.get_table(kept.id)).seed == 2**62 - 1

    with pytest.raises(StorageError):
        await repo.create_table(platform="telegram", channel="c2", game="g", options={},
                                settings={}, seed=2**64, host="a", seats=seats("a"))
    assert await repo.open_table_in("telegram", "c2") is None


async def test_a_playing_table_also_blocks_the_channel(repo):
    first = await started_table(repo, channel="c1")

    with pytest.raises(TableExists) as refused:
        await new_table(repo, channel="c1")
    assert refused.value.table_id == first.id


async def test_the_same_channel_name_on_another_platform_is_another_channel(repo):
    await new_table(repo, platform="telegram", channel="42")
    other = await new_table(repo, platform="discord", channel="42")

    assert await repo.open_table_in("discord", "42") == other


async def test_channel_is_free_again_once_its_table_is_cancelled(repo):
    first = await new_table(repo, channel="c1")
    await repo.update_table(first.id, expected_version=0, status=CANCELLED)

    second = await new_table(repo, channel="c1")
    assert await repo.open_table_in("telegram", "c1") == second
    assert (await repo.get_table(first.id)).status == CANCELLED


async def test_reopening_an_old_table_in_a_busy_channel_is_refused(repo):
    first = await new_table(repo, channel="c1")
    await repo.update_table(first.id, expected_version=0, status=CANCELLED)
    second = await new_table(repo, channel="c1")

    with pytest.raises(TableExists) as refused:
        await repo.update_table(first.id, expected_version=0, status=LOBBY)
    assert refused.value.table_id == second.id
    assert (await repo.get_table(first.id)).status == CANCELLED


async def test_lobby_edits_do_not_bump_the_version_but_update_the_time(repo):
    table = await new_table(repo)

    edited = await repo.update_table(
        table.id, expected_version=0, options={"rounds": 5}, settings={"deadline": 30},
        host="u-bo",
    )
    assert edited.version == 0
    assert (edited.options, edited.settings, edited.host) == (
        {"rounds": 5}, {"deadline": 30}, "u-bo")
    assert edited.updated_at > table.updated_at and edited.created_at == table.created_at
    assert await repo.get_table(table.id) == edited


async def test_an_edit_based_on_an_outdated_version_changes_nothing(repo):
    table = await started_table(repo)
    await repo.commit_move(table.id, seq=1, seat=0, move="7H", actor="player", snapshot="s1")

    with pytest.raises(VersionConflict):
        await repo.update_table(table.id, expected_version=0, status=CANCELLED,
                                seats=seats("zed"))
    after = await repo.get_table(table.id)
    assert (after.status, after.version) == (PLAYING, 1)
    assert [s.name for s in await repo.get_seats(table.id)] == ["ana", "bo"]


async def test_editing_a_table_that_does_not_exist_says_so(repo):
    with pytest.raises(TableNotFound):
        await repo.update_table(404, expected_version=0, status=CANCELLED)


async def test_starting_a_game_clears_the_old_log_and_sets_version_zero(repo):
    table = await started_table(repo)
    for seq in (1, 2):
        await repo.commit_move(table.id, seq=seq, seat=0, move=f"m{seq}", actor="player",
                               snapshot=f"s{seq}")

    restarted = await repo.update_table(
        table.id, expected_version=2, status=PLAYING, reset_moves=True, snapshot="fresh",
    )
    assert (restarted.version, restarted.snapshot) == (0, "fresh")
    assert await repo.moves(table.id) == []
    again = await repo.commit_move(table.id, seq=1, seat=1, move="x", actor="player",
                                   snapshot="s1")
    assert again.version == 1


async def test_seats_given_to_update_table_replace_every_seat(repo):
    table = await new_table(repo, players=("ana", "bo", "cy"))

    await repo.update_table(table.id, expected_version=0, seats=[
        SeatRow(seat=0, user_id="u-bo", name="bo"),
        SeatRow(seat=1, user_id=None, name="Bot 1", is_bot=True),
    ])
    assert await repo.get_seats(table.id) == [
        SeatRow(seat=0, user_id="u-bo", name="bo"),
        SeatRow(seat=1, user_id=None, name="Bot 1", is_bot=True),
    ]


async def test_a_bot_taking_an_afk_seat_remembers_the_human(repo):
    table = await started_table(repo)
    takeover = SeatRow(seat=1, user_id=None, name="Bot (bo)", is_bot=True, afk_strikes=2,
                       former_user_id="u-bo")

    await repo.update_seat(table.id, takeover)
    assert (await repo.get_seats(table.id))[1] == takeover
    assert (await repo.get_seats(table.id))[0].name == "ana"


async def test_updating_a_seat_that_does_not_exist_is_refused(repo):
    table = await new_table(repo)

    with pytest.raises(StorageError, match="no seat 9"):
        await repo.update_seat(table.id, SeatRow(seat=9, user_id="u", name="u"))
    with pytest.raises(TableNotFound):
        await repo.update_seat(404, SeatRow(seat=0, user_id="u", name="u"))
    assert len(await repo.get_seats(table.id)) == 2


async def test_duplicate_seat_numbers_leave_no_table_behind(repo):
    doubled = [SeatRow(seat=0, user_id="a", name="a"), SeatRow(seat=0, user_id="b", name="b")]

    with pytest.raises(StorageError, match=r"(?i)unique"):
        await repo.create_table(platform="telegram", channel="c1", game="g", options={},
                                settings={}, seed=1, host="a", seats=doubled)
    assert await repo.open_table_in("telegram", "c1") is None
    assert await repo.unfinished_tables() == []


async def test_unfinished_tables_are_the_open_ones_oldest_first(repo):
    a = await new_table(repo, channel="a")
    b = await started_table(repo, channel="b")
    c = await new_table(repo, channel="c")
    d = await started_table(repo, channel="d")
    await repo.update_table(c.id, expected_version=0, status=CANCELLED)
    await repo.commit_move(d.id, seq=1, seat=0, move="x", actor="player", snapshot="end",
                           status=FINISHED)
    # A later edit of the oldest table must not move it to the back.
    a = await repo.update_table(a.id, expected_version=0, options={"rounds": 1})

    assert [t.id for t in await repo.unfinished_tables()] == [a.id, b.id]


async def test_the_tables_in_play_of_a_player_are_those_where_they_hold_a_seat(repo):
    first = await started_table(repo, channel="a", players=("zoe", "bo"))
    second = await started_table(repo, channel="b", players=("cy", "zoe"))
    await new_table(repo, channel="c", players=("zoe", "bo"))  # a lobby: no hand yet
    over = await started_table(repo, channel="d", players=("zoe", "bo"))
    await repo.commit_move(over.id, seq=1, seat=0, move="x", actor="player", snapshot="end",
                           status=FINISHED)
    await started_table(repo, channel="e", players=("bo", "cy"))
    taken = await started_table(repo, channel="f", players=("zoe", "bo"))
    await repo.update_seat(taken.id, SeatRow(seat=0, user_id=None, name="Bot (zoe)",
                                             is_bot=True, former_user_id="u-zoe"))
    await started_table(repo, channel="a", platform="discord", players=("zoe", "bo"))

    assert await repo.playing_tables_of("telegram", "u-zoe") == [first.id, second.id]
    assert await repo.playing_tables_of("telegram", "u-zoey") == []


async def test_a_chat_that_gets_a_new_id_takes_its_open_tables_and_topics_along(repo):
    group = await new_table(repo, channel="-100", platform="telegram")
    topic = await new_table(repo, channel="-100:7", platform="telegram")
    other = await new_table(repo, channel="-1000", platform="telegram")  # a longer id
    elsewhere = await new_table(repo, channel="-100", platform="discord")
    await repo.set_message(group.id, MessageRef(key="table", chat="-100", message_id="5"))
    await repo.set_message(group.id, MessageRef(key="hand:0", chat="42", message_id="6"))

    moved = await repo.move_chat("telegram", "-100", "-1009")

    assert sorted(moved) == sorted([group.id, topic.id])
    assert (await repo.open_table_in("telegram", "-1009")).id == group.id
    assert (await repo.open_table_in("telegram", "-1009:7")).id == topic.id
    assert await repo.open_table_in("telegram", "-100") is None
    assert (await repo.get_table(other.id)).channel == "-1000"
    assert (await repo.get_table(elsewhere.id)).channel == "-100"
    # The old chat's table message cannot be edited any more; private hands still can.
    assert set(await repo.messages(group.id)) == {"hand:0"}


async def test_the_newest_table_of_a_channel_and_of_each_topic_on_request(repo):
    old = await new_table(repo, channel="-100", platform="telegram")
    await repo.update_table(old.id, expected_version=0, status=CLOSED)
    new = await new_table(repo, channel="-100", platform="telegram")
    await repo.update_table(new.id, expected_version=0, status=CANCELLED)
    topic = await new_table(repo, channel="-100:7", platform="telegram")
    await repo.update_table(topic.id, expected_version=0, status=CLOSED)
    for channel, platform in (("-1000", "telegram"), ("-100", "discord")):
        await new_table(repo, channel=channel, platform=platform)

    assert [t.id for t in await repo.newest_tables_in("telegram", "-100")] == [new.id]
    assert [(t.id, t.status) for t in await repo.newest_tables_in(
        "telegram", "-100", with_topics=True)] == [(new.id, CANCELLED), (topic.id, CLOSED)]
    assert [t.id for t in await repo.newest_tables_in("telegram", "-100:7")] == [topic.id]
    assert await repo.newest_tables_in("telegram", "-5") == []
