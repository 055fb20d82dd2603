"""Bot players wait before moving, table edits coalesce, mentions follow the user's wish."""

import asyncio
import random

import pytest

from bot.settings import Settings
from tests.bot.conftest import ALICE, BOB, CHANNEL, Harness
from tests.botplay import bot_move


async def _bots_game(harness, bots=2):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1", "deadline=off"])
    for _ in range(bots):
        await tables.add_bot(ALICE, CHANNEL)
    reply = await tables.start_game(ALICE, CHANNEL)
    return await tables.live_table(reply.table_id)


async def test_bot_players_wait_the_configured_delay_before_moving(tmp_path):
    h = Harness(tmp_path / "t.db", Settings(_env_file=None, bot_delay=2.0, turn_deadline=0))
    await h.open()
    try:
        live = await _bots_game(h)
        await h.tables.leave(ALICE, CHANNEL)  # bots only from here on
        await h.tables.settle()
        assert live.row.version == 0
        await h.advance(1.9)
        assert live.row.version == 0
        await h.advance(0.2)
        assert live.row.version == 1
        await h.advance(2.0)
        assert live.row.version == 2
    finally:
        await h.close()


async def test_table_edits_queued_behind_a_slow_platform_are_coalesced(harness):
    gate = asyncio.Event()
    shown = []
    original = harness.sink.show_table

    async def slow_show(msg, ref):
        await gate.wait()
        shown.append(msg.rendering.version)
        return await original(msg, ref)

    harness.sink.show_table = slow_show
    live = await _bots_game(harness)
    await harness.tables.leave(ALICE, CHANNEL)
    for _ in range(10):  # ten bot moves while the first edit is still in flight
        await harness.tables.scheduler.run_due()
    assert live.row.version >= 10
    gate.set()
    await harness.tables.settle()
    assert len(shown) <= 3  # in flight + the latest, not one per move
    assert shown[-1] == live.row.version  # and the last one shows the current table
    assert harness.tables.outbox.coalesced >= 8


async def test_mentions_can_be_turned_off_per_user(harness):
    tables = harness.tables
    assert (await tables.set_mentions(BOB, False)).ok
    await tables.new_game(ALICE, CHANNEL, "the-game", ["deadline=off"])
    await tables.join(BOB, CHANNEL)
    live = await tables.live_table((await tables.start_game(ALICE, CHANNEL)).table_id)
    for _ in range(30):
        await tables.settle()
        seat = live.game.to_act(live.state)[0]
        actor = ALICE if live.seats[seat].user_id == ALICE.user_id else BOB
        move = bot_move(live.game, live.state, seat, __import__("random").Random(0))
        await tables.play(actor, CHANNEL, str(move))
    await tables.settle()
    mentioned = {m for a in harness.sink.announcements for m in a.mentions}
    assert ALICE.user_id in mentioned and BOB.user_id not in mentioned


@pytest.fixture
async def pinging(tmp_path):
    """Alice and Bob start The Game on a table that calls players after 20 s."""
    h = Harness(tmp_path / "t.db", Settings(_env_file=None, bot_delay=0, turn_deadline=0,
                                            ping_delay=20))
    await h.open()
    try:
        await h.tables.new_game(ALICE, CHANNEL, "the-game", ["deadline=off"])
        await h.tables.join(BOB, CHANNEL)
        await h.tables.start_game(ALICE, CHANNEL)
        yield h
    finally:
        await h.close()


async def _started(h):
    live = await h.tables.live_table((await h.tables.table_for_channel(CHANNEL)).id)
    seat = live.game.to_act(live.state)[0]
    actor = {ALICE.user_id: ALICE, BOB.user_id: BOB}[live.seats[seat].user_id]
    return live, seat, actor


async def test_a_player_who_plays_within_the_ping_delay_is_not_called(pinging):
    h, tables = pinging, pinging.tables
    live, first, actor = await _started(h)
    calls = lambda: [a for a in h.sink.announcements if a.kind == "turn"]  # noqa: E731
    await h.advance(5)
    assert calls() == []
    for _ in range(20):  # the first player finishes their turn quickly
        if live.game.to_act(live.state)[0] != first:
            break
        move = bot_move(live.game, live.state, first, random.Random(0))
        await tables.play(actor, CHANNEL, str(move))
    await h.advance(16)  # the first call would have been due now: it is dropped
    assert all(live.seats[first].user_id not in a.mentions for a in calls())
    await h.advance(5)  # the second player has waited 21 s: called
    second = live.seats[live.game.to_act(live.state)[0]].user_id
    assert [a.mentions for a in calls()] == [[second]]


async def test_a_player_who_stops_in_the_middle_of_a_turn_is_told_it_is_still_theirs(
        pinging):
    h, tables = pinging, pinging.tables
    live, seat, actor = await _started(h)
    calls = lambda: [a.text for a in h.sink.announcements if a.kind == "turn"]  # noqa: E731

    def a_card():
        return next(str(m) for m in live.game.legal_moves(live.state, seat)
                    if str(m) != "end")

    await h.advance(5)
    assert (await tables.play(actor, CHANNEL, a_card())).ok
    await h.advance(15)  # playing on within the delay: no call at all
    assert (await tables.play(actor, CHANNEL, a_card())).ok
    await h.advance(19)
    assert calls() == []
    await h.advance(2)  # then 21 s without a move (the turn could end): one call
    assert calls() == [f"{actor.name}, it's still your turn (The Game)."]
    await h.advance(60)
    assert len(calls()) == 1
    assert (await tables.play(actor, CHANNEL, "end")).ok
    await h.advance(21)  # the next player's call is the usual one
    assert calls()[1].endswith("it's your turn (The Game).")

