"""The safety net for a game waiting on nothing: when a table in memory has a bot or a
deadline due and no timer armed (a change lost by some bug), `Tables.unstick` reads it
again and arranges its next turn; a table that waits for a reason is left alone."""

from bot.tables import STUCK_CHECK_SECONDS
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, Harness


async def _version(harness: Harness, table_id: int) -> int:
    assert harness.repo is not None
    row = await harness.repo.get_table(table_id)
    assert row is not None
    return row.version


async def _game(harness: Harness, *options: str) -> int:
    tables = harness.tables
    assert tables is not None
    table_id = (await tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
    assert table_id is not None
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.join(CAROL, CHANNEL)).ok
    if options:
        assert (await tables.set_options(ALICE, CHANNEL, list(options))).ok
    assert (await tables.start_game(ALICE, CHANNEL)).ok
    await tables.settle()
    return table_id


def _to_act(harness: Harness, table_id: int) -> int:
    assert harness.tables is not None
    live = harness.tables.table(table_id).live
    assert live.state is not None
    return live.game.to_act(live.state)[0]


async def test_a_bot_whose_move_was_never_scheduled_plays_after_the_check(
        harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    table_id = await _game(harness)
    leaver = {0: ALICE, 1: BOB, 2: CAROL}[_to_act(harness, table_id)]
    assert (await tables.leave(leaver, CHANNEL)).ok  # a bot has the seat, and the turn
    tables.scheduler.drop(table_id)  # its move's timer lost, as by a bug
    before = await _version(harness, table_id)
    await harness.advance(STUCK_CHECK_SECONDS / 2)
    assert await tables.unstick() == 0, "touched too recently to count as stuck"
    assert await _version(harness, table_id) == before
    await harness.advance(STUCK_CHECK_SECONDS)
    assert await tables.unstick() == 1
    await harness.advance(1)
    assert await _version(harness, table_id) > before, "the bot never played"


async def test_a_persons_turn_whose_deadline_timer_was_lost_times_out_again(
        harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    table_id = await _game(harness)
    tables.scheduler.drop(table_id)
    before = await _version(harness, table_id)
    await harness.advance(harness.settings.turn_deadline + 1)
    assert await _version(harness, table_id) == before  # nothing armed: it waits
    assert await tables.unstick() == 1
    await harness.advance(1)  # the stored deadline is long past: the AFK move comes now
    assert await _version(harness, table_id) > before


async def test_tables_that_wait_for_a_reason_are_left_alone(harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    armed = await _game(harness)
    before = await _version(harness, armed)
    await harness.advance(STUCK_CHECK_SECONDS + 1)  # its deadline still minutes away
    assert await tables.unstick() == 0
    assert await _version(harness, armed) == before
    assert tables.scheduler.has_jobs(armed)


async def test_a_persons_turn_without_a_deadline_is_no_stuck_table(harness: Harness) -> None:
    tables = harness.tables
    assert tables is not None
    table_id = await _game(harness, "deadline=0")
    assert not tables.scheduler.has_jobs(table_id)  # no deadline: the person takes their time
    before = await _version(harness, table_id)
    await harness.advance(10 * STUCK_CHECK_SECONDS)
    assert await tables.unstick() == 0
    assert await _version(harness, table_id) == before
