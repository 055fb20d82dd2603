"""Turn deadlines, reminders and the AFK policy, on a clock the test moves."""

import random

from tests.bot.conftest import CHANNEL, person_at
from tests.botplay import bot_move


async def test_a_reminder_comes_before_the_deadline(harness):
    live = await harness.start_ochs("deadline=300")
    seat = live.game.to_act(live.state)[0]
    await harness.advance(230)
    assert not harness.sink.said("your turn ends")
    await harness.advance(20)
    reminder = [a for a in harness.sink.announcements if "your turn ends" in a.text]
    assert len(reminder) == 1 and live.seats[seat].name in reminder[0].text
    assert reminder[0].mentions == [live.seats[seat].user_id]
    assert live.row.version == 0


async def test_an_expired_turn_is_played_safely_for_the_player(harness):
    live = await harness.start_ochs("deadline=300")
    seat = live.game.to_act(live.state)[0]
    await harness.advance(301)
    assert live.row.version >= 1
    moves = await harness.repo.moves(live.id)
    assert moves[0].seat == seat and moves[0].actor == "afk"
    assert not live.seats[seat].is_bot and live.seats[seat].afk_strikes == 1
    assert harness.sink.said("ran out of time")


async def test_two_expiries_in_a_row_give_the_seat_to_a_bot_until_the_player_rejoins(harness):
    live = await harness.start_ochs("deadline=300")
    seat = live.game.to_act(live.state)[0]
    actor = person_at(live, seat)
    for _ in range(40):  # the others stall too; only `seat`'s strikes matter here
        await harness.advance(301)
        if live.seats[seat].is_bot:
            break
    assert live.seats[seat].is_bot and live.seats[seat].former_user_id == actor.user_id
    assert harness.sink.said(f"{actor.name} ran out of time again")
    assert any(n.user_id == actor.user_id for n in harness.sink.notices)
    reply = await harness.tables.join(actor, CHANNEL)
    assert reply.ok and "back" in reply.text.lower()
    assert not live.seats[seat].is_bot and live.seats[seat].user_id == actor.user_id


async def test_playing_yourself_resets_the_strikes(harness):
    live = await harness.start_ochs("deadline=300")
    first = live.game.to_act(live.state)[0]
    await harness.advance(301)  # strike 1 for `first`
    assert live.seats[first].afk_strikes == 1
    for _ in range(60):
        seat = live.game.to_act(live.state)[0]
        move = bot_move(live.game, live.state, seat, __import__("random").Random(0))
        await harness.tables.play(person_at(live, seat), CHANNEL, str(move))
        if seat == first:
            break
    assert live.seats[first].afk_strikes == 0


async def test_deadlines_can_be_switched_off(harness):
    live = await harness.start_ochs("deadline=off")
    await harness.advance(10_000)
    assert live.row.version == 0
    assert await harness.repo.deadlines() == []


async def test_the_deadline_survives_a_restart(harness):
    live = await harness.start_ochs("deadline=300")
    table_id = live.id
    await harness.advance(100)
    tables = await harness.restart()
    live = await tables.live_table(table_id)
    assert live.row.version == 0
    await harness.advance(250)  # original due time passed while counting from before
    assert live.row.version >= 1
    assert (await harness.repo.moves(table_id))[0].actor == "afk"


async def test_a_persons_move_stores_the_next_turns_deadline_with_the_move(harness,
                                                                           monkeypatch):
    """One durable write per move: the deadline is not a second transaction."""
    live = await harness.start_ochs("deadline=300")
    separate = []
    for name in ("set_deadline", "set_deadlines", "clear_deadline"):
        real = getattr(harness.repo, name)
        monkeypatch.setattr(harness.repo, name,
                            lambda *a, _real=real, _name=name, **k: separate.append(_name)
                            or _real(*a, **k))
    seat = live.game.to_act(live.state)[0]
    move = bot_move(live.game, live.state, seat, random.Random(1))
    assert (await harness.tables.play(person_at(live, seat), CHANNEL, str(move))).ok
    await harness.tables.settle()
    assert separate == []
    (deadline,) = await harness.repo.deadlines()
    assert deadline.version == live.row.version
    assert deadline.seat == live.game.to_act(live.state)[0]
    await harness.advance(301)  # and it is armed: the next player's turn expires
    assert (await harness.repo.moves(live.id))[-1].actor == "afk"
