"""Ratings as players meet them at a table: a finished game's new numbers, a friendly game
kept out, leavers placed last, /leaderboard and /rating refusing what they cannot answer,
/mydata and /forgetme. Each runs on SQLite and on PostgreSQL, where a game's end takes the
one-statement way (db/pg_ratings.py)."""

import random
import re

import pytest

from bot import commands
from bot.ratings import community
from db.repository import CANCELLED, FINISHED
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, people_play
from tests.botplay import bot_move

GROUP = community("test", "g1")
OTHER_GROUP = community("test", "g2")


@pytest.fixture
def harness(any_harness: Harness) -> Harness:
    return any_harness


async def play_out(harness, people, *, options=(), leaves=None, where=GROUP):
    """A Nix für Ungut table of `people` and one bot, played to its end; `leaves` walks
    out after the first move."""
    tables = harness.tables
    host, *others = people
    reply = await tables.new_game(host, CHANNEL, "nix-fur-ungut",
                                  ["rounds=1", "deadline=off", *options], community=where)
    assert reply.ok, reply.text
    for person in others:
        assert (await tables.join(person, CHANNEL)).ok
    assert (await tables.add_bot(host, CHANNEL)).ok
    reply = await tables.start_game(host, CHANNEL)
    live = await tables.live_table(reply.table_id)
    seated = {person.user_id: person for person in people}
    if leaves is not None:
        await people_play(tables, live, seated, turns=1)
        await tables.settle()
        if live.row.status != FINISHED:
            assert (await tables.leave(leaves, CHANNEL)).ok
            seated.pop(leaves.user_id)
    await people_play(tables, live, seated)
    assert live.row.status == FINISHED
    return live


def ranking(harness):
    return next(a.text for a in reversed(harness.sink.announcements) if a.kind == "result")


async def ask(harness, actor, command, channel=CHANNEL):
    return await commands.run(harness.tables, actor, channel, command)


async def test_a_finished_game_of_people_against_a_bot_shows_each_new_rating(harness):
    live = await play_out(harness, [ALICE, BOB])
    shown = ranking(harness)
    assert "New ratings:" in shown
    lines = shown.split("New ratings:")[1].strip().splitlines()
    # "Alice 1,512 (+14)": a number grouped the English way, and its change signed.
    assert sorted(line.split()[0] for line in lines) == ["Alice", "Bob"]
    assert all(re.fullmatch(r"\w+ \d,\d{3} \([+−]?\d+\)", line) for line in lines), lines
    assert "bot" not in shown.split("New ratings:")[1].lower()
    scores = await ask(harness, ALICE, commands.Scores())
    assert "New ratings:" in scores.text
    mine = await ask(harness, ALICE, commands.Rating(GROUP))
    assert mine.ok and "Alice" in mine.text and "Nix" in mine.text
    assert await harness.repo.table_community(live.id) == GROUP


async def test_numbers_are_written_in_the_readers_language(harness):
    await play_out(harness, [ALICE, BOB])
    assert (await ask(harness, ALICE, commands.Lang("de", personal=True))).ok
    german = await ask(harness, ALICE, commands.Scores())
    assert "Neue Wertungszahlen:" in german.text
    assert "1.5" in german.text or "1.4" in german.text  # German groups with a dot


async def test_a_friendly_game_is_not_rated(harness):
    live = await play_out(harness, [ALICE, BOB], options=["rated=no"])
    assert live.row.settings["rated"] is False
    assert "New ratings" not in ranking(harness)
    refused = await ask(harness, ALICE, commands.Rating(GROUP))
    assert not refused.ok and "has not played a rated game" in refused.text
    assert await harness.repo.game_ratings(live.id) == []


async def test_the_host_sets_rated_in_the_lobby_and_a_bad_value_is_refused(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "michigan", community=GROUP)).ok
    assert "rated=yes" in (await ask(harness, ALICE, commands.Options())).text
    bad = await ask(harness, ALICE, commands.Options(["rated=maybe"]))
    assert not bad.ok and "neither yes nor no" in bad.text
    assert (await ask(harness, ALICE, commands.Options(["rated=no"]))).ok
    assert "rated=no" in (await ask(harness, ALICE, commands.Options())).text
    assert (await tables.join(BOB, CHANNEL)).ok
    refused = await ask(harness, BOB, commands.Options(["rated=yes"]))
    assert not refused.ok
    assert "rated=no" in (await ask(harness, ALICE, commands.Options())).text


async def test_a_cancelled_game_is_not_rated(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "nix-fur-ungut", ["deadline=off"],
                                  community=GROUP)).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    assert (await tables.cancel(ALICE, CHANNEL)).ok
    live = await tables.live_table(reply.table_id)
    assert live.row.status == CANCELLED
    assert await harness.repo.rating_seasons(GROUP) == []


async def test_a_person_who_left_places_last_and_a_game_every_person_left_counts_not(
        harness):
    await play_out(harness, [ALICE, BOB], leaves=ALICE)
    season = (await harness.repo.newest_rating())[0]
    alice = await harness.repo.player_ratings(GROUP, "u:u1", season)
    assert [one.games for one in alice] == [1]
    assert alice[0].shown < 1500  # last, behind a bot and Bob
    seasons = await harness.repo.rating_seasons(GROUP)
    await play_out(harness, [CAROL], leaves=CAROL)
    assert await harness.repo.rating_seasons(GROUP) == seasons
    carol = await ask(harness, ALICE, commands.Rating(GROUP, None, "Carol"))
    assert not carol.ok and "Carol has not played a rated game" in carol.text


async def test_a_rematch_is_rated_in_the_same_group(harness):
    live = await play_out(harness, [ALICE, BOB])
    reply = await harness.press(ALICE, live.id, live.row.version, "rematch")
    assert reply.ok, reply.text
    again = await harness.tables.table_for_channel(CHANNEL)
    assert again is not None and again.id != live.id
    assert await harness.repo.table_community(again.id) == GROUP


async def test_bad_requests_are_refused_in_words_and_change_nothing(harness):
    await play_out(harness, [ALICE, BOB])
    private = await ask(harness, ALICE, commands.Leaderboard(None))
    assert not private.ok and "belongs to a group" in private.text
    season = await ask(harness, ALICE, commands.Leaderboard(GROUP, ["2026-Q9"]))
    assert not season.ok and "no season “2026-Q9”" in season.text
    odd = "\u202e" + "x" * 5000
    game = await ask(harness, ALICE, commands.Leaderboard(GROUP, [odd]))
    assert not game.ok and "I don't know the game" in game.text
    assert len(game.text) < 300 and "\u202e" not in game.text
    stranger = await ask(harness, ALICE, commands.Rating(GROUP, None, "@nobody"))
    assert not stranger.ok and "nobody has not played a rated game" in stranger.text
    # Bob's id, from a platform naming him, but in a group he never played in.
    elsewhere = await ask(harness, ALICE, commands.Rating(OTHER_GROUP, BOB.user_id, "Bob"))
    assert not elsewhere.ok and "Bob has not played a rated game" in elsewhere.text
    long_name = await ask(harness, ALICE, commands.Rating(GROUP, None, "n" * 4000))
    assert not long_name.ok and len(long_name.text) < 300
    # By the name the tables showed: found.
    bob = await ask(harness, ALICE, commands.Rating(GROUP, None, "Bob"))
    assert bob.ok and "Bob" in bob.text


async def test_the_leaderboard_lists_players_after_three_games(harness):
    for _ in range(3):
        await play_out(harness, [ALICE, BOB])
        if (await harness.tables.table_for_channel(CHANNEL)) is not None:
            await harness.tables.cancel(ALICE, CHANNEL)
    board = await ask(harness, CAROL, commands.Leaderboard(GROUP, ["nix"]))
    assert board.ok
    assert "1. " in board.text and "Alice" in board.text and "Bob" in board.text
    empty = await ask(harness, CAROL, commands.Leaderboard(OTHER_GROUP, ["nix"]))
    assert empty.ok and "Nobody is on the" in empty.text


async def test_mydata_lists_ratings_and_forgetme_removes_them_but_not_the_opponents(
        harness):
    await play_out(harness, [ALICE, BOB])
    season = (await harness.repo.newest_rating())[0]
    bob_before = await harness.repo.player_ratings(GROUP, "u:u2", season)
    data = await harness.tables.privacy.my_data(ALICE)
    assert [(r["community"], r["game"]) for r in data["ratings"]] == [(GROUP, "nix-fur-ungut")]
    assert (await harness.tables.privacy.forget(ALICE)).ok
    board = await harness.repo.leaderboard(GROUP, "nix-fur-ungut", season, None,
                                           listed_after=1)
    assert [s.name for s in board.top] == ["Bob"]
    assert await harness.repo.player_ratings(GROUP, "u:u1", season) == []
    assert await harness.repo.player_ratings(GROUP, "u:u2", season) == bob_before
    gone = await ask(harness, BOB, commands.Rating(GROUP, None, "Alice"))
    assert not gone.ok


async def test_a_game_end_that_cannot_be_stored_is_neither_finished_nor_rated_and_counts_once(
        harness, monkeypatch):
    """The end and its rating are one write: when it fails, neither happened; played
    again, the game ends and is rated once."""
    from db.repository import StorageError

    tables = harness.tables
    reply = await tables.new_game(ALICE, CHANNEL, "nix-fur-ungut",
                                  ["rounds=1", "deadline=off"], community=GROUP)
    assert reply.ok
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.add_bot(ALICE, CHANNEL)).ok
    live = await tables.live_table((await tables.start_game(ALICE, CHANNEL)).table_id)
    people = {ALICE.user_id: ALICE, BOB.user_id: BOB}
    real_commit = harness.repo.commit_move
    failed = []

    async def failing_end(table_id, **move):
        if move.get("results") and not failed:
            failed.append(move["seq"])
            raise StorageError("the disk is full")
        return await real_commit(table_id, **move)

    monkeypatch.setattr(harness.repo, "commit_move", failing_end)
    for _ in range(800):
        await tables.settle()
        if live.row.status == FINISHED:
            break
        seat = live.game.to_act(live.state)[0]
        actor = people.get(live.seats[seat].user_id or "")
        if actor is not None:
            move = bot_move(live.game, live.state, seat, random.Random(live.row.version))
            answer = await tables.play(actor, CHANNEL, str(move))
            if not answer.ok:
                assert "couldn't save" in answer.text
                assert await harness.repo.rating_seasons(GROUP) == []
        elif failed and live.row.version < failed[0]:
            harness.clock.advance(60)  # a bot's failed end is tried again by its timer
    assert failed and live.row.status == FINISHED
    changes = await harness.repo.game_ratings(live.id)
    assert sorted(c.player for c in changes) == ["u:u1", "u:u2"]
    season = (await harness.repo.newest_rating())[0]
    assert [r.games for r in await harness.repo.player_ratings(GROUP, "u:u1", season)] == [1]


async def test_the_game_keeps_a_team_record_naming_its_players(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "the-game", ["deadline=off"],
                                  community=GROUP)).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    live = await tables.live_table((await tables.start_game(ALICE, CHANNEL)).table_id)
    await people_play(tables, live, {ALICE.user_id: ALICE, BOB.user_id: BOB})
    assert live.row.status == FINISHED
    records = await ask(harness, CAROL, commands.Leaderboard(GROUP, ["the", "game"]))
    assert records.ok and "team records" in records.text
    assert "2 players, standard rules" in records.text
    assert "Best game: Alice, Bob" in records.text or "Best game: Bob, Alice" in records.text
