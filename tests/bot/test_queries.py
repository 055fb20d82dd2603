"""What adapters ask bot/ instead of reading a game's state: the moves a person may play
now (Discord's /play suggestions), whether a turn call still calls someone."""

from bot import queries
from bot.deliveries import calls_someone, names_at
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE


async def _started(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1", "deadline=off"])).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.join(CAROL, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    assert reply.ok, reply.text
    return reply.table_id


async def _mover(tables):
    """Whichever of Alice, Bob and Carol is offered moves, and the next one."""
    people = [ALICE, BOB, CAROL]
    for at, me in enumerate(people):
        if await queries.move_texts(tables, me.user_id, CHANNEL):
            return me, people[(at + 1) % 3]
    raise AssertionError("nobody is offered a move")


async def test_only_the_player_to_act_is_offered_moves_each_one_playable(harness):
    tables = harness.tables
    await _started(harness)
    mover, waiting = await _mover(tables)
    offered = await queries.move_texts(tables, mover.user_id, CHANNEL)
    assert len(offered) == len(set(offered)) and len(offered) <= 25
    assert await queries.move_texts(tables, waiting.user_id, CHANNEL) == []
    assert await queries.move_texts(tables, DAVE.user_id, CHANNEL) == []
    assert await queries.move_texts(tables, mover.user_id, "elsewhere") == []
    wanted = offered[0][-1].lower()
    assert all(wanted in text.lower()
               for text in await queries.move_texts(tables, mover.user_id, CHANNEL, wanted))
    assert (await tables.play(mover, CHANNEL, offered[0])).ok


async def test_a_turn_call_is_no_longer_worth_sending_once_its_player_has_played(harness):
    tables = harness.tables
    table_id = await _started(harness)
    mover, waiting = await _mover(tables)
    assert calls_someone(await tables.live_table(table_id), [mover.user_id])
    assert not calls_someone(await tables.live_table(table_id), [waiting.user_id, DAVE.user_id])
    move = (await queries.move_texts(tables, mover.user_id, CHANNEL))[0]
    assert (await tables.play(mover, CHANNEL, move)).ok
    after, _ = await _mover(tables)
    assert after != mover  # Ochs & Esel: one card, then the next player
    assert not calls_someone(await tables.live_table(table_id), [mover.user_id])
    assert calls_someone(await tables.live_table(table_id), [mover.user_id, after.user_id])
    assert names_at(await tables.live_table(table_id), [ALICE.user_id, DAVE.user_id]) == {
        ALICE.user_id: "Alice", DAVE.user_id: ""}
