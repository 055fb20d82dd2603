"""An announcement carries whom it calls: a sink asks it, when it sends it, whether it
still calls someone who is to act and under which names, and never reads the table."""

from bot.deliveries import Announcement
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL


async def test_a_turn_call_knows_when_its_player_has_played_and_names_them(harness):
    live = await harness.start_ochs()
    tables = harness.tables
    calls = [a for a in harness.sink.announcements if a.kind == "turn"]
    assert calls, "the first player was called"
    call = calls[-1]
    [called_id] = call.mentions
    mover = next(a for a in (ALICE, BOB, CAROL) if a.user_id == called_id)
    assert call.called is not None
    now = await call.called()
    assert now.still and now.names == {called_id: mover.name}

    seat = live.seat_of(called_id).seat
    move = str(live.game.legal_moves(live.state, seat)[0])
    assert (await tables.play(mover, CHANNEL, move)).ok
    assert not (await call.called()).still, "a call sent now would mislead"


async def test_an_announcement_that_calls_nobody_is_always_worth_sending(harness):
    live = await harness.start_ochs()
    tables = harness.tables
    news = Announcement(table_id=live.id, channel=CHANNEL, text="Round over", kind="result")
    tables.stamp(news)
    now = await news.called()
    assert now.still and now.names == {}
    # A reminder naming someone who left the table: still theirs to act? Not a seat's.
    stray = Announcement(table_id=live.id, channel=CHANNEL, text="Hurry", kind="reminder",
                         mentions=["nobody"])
    tables.stamp(stray)
    assert not (await stray.called()).still
