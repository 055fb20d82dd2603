"""Cases an independent review found broken: each is a behaviour a player would notice."""

import random

from db.repository import CANCELLED, LOBBY, PLAYING, StorageError
from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL
from tests.botplay import bot_move

ACTORS = {a.user_id: a for a in (ALICE, BOB, CAROL)}


async def _three(harness, words=("rounds=2",)):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", list(words))
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    await tables.settle()
    return await tables.live_table(table_id)


def _fail_once(target, name):
    original = getattr(target, name)
    state = {"failed": False}

    async def flaky(*args, **kwargs):
        if not state["failed"]:
            state["failed"] = True
            raise StorageError("disk hiccup")
        return await original(*args, **kwargs)

    setattr(target, name, flaky)


async def test_a_turn_whose_deadline_was_not_stored_still_expires_after_a_restart(harness):
    live = await _three(harness, ("rounds=2", "deadline=60"))
    seat = live.game.to_act(live.state)[0]
    move = bot_move(live.game, live.state, seat, random.Random(0))
    _fail_once(harness.repo, "set_deadline")
    assert (await harness.tables.play(ACTORS[live.seats[seat].user_id], CHANNEL, str(move))).ok
    version, table_id = live.row.version, live.id
    tables = await harness.restart()
    await harness.advance(200)
    assert (await tables.live_table(table_id)).row.version > version  # the AFK seat was played


async def test_a_passing_read_fault_while_resuming_does_not_end_the_game(harness):
    live = await _three(harness)
    table_id = live.id
    await harness.close()
    from db.sqlite import SqliteRepository

    original_open = SqliteRepository.open

    async def open_then_flaky(self):
        await original_open(self)
        _fail_once(self, "get_seats")

    SqliteRepository.open = open_then_flaky
    try:
        tables = await harness.open()
    finally:
        SqliteRepository.open = original_open
    await harness.advance(10)
    live = await tables.live_table(table_id)
    assert live.row.status == PLAYING
    assert tables.scheduler.pending() > 0 or live.game.to_act(live.state)


async def test_cancel_works_even_if_the_deadline_cannot_be_cleared(harness):
    live = await _three(harness)
    _fail_once(harness.repo, "clear_deadline")
    reply = await harness.tables.cancel(ALICE, CHANNEL)
    await harness.tables.settle()
    assert reply.ok and live.row.status == CANCELLED
    assert "cancelled" in harness.sink.tables[live.id].rendering.text


async def test_kicking_the_host_passes_hosting_on_in_the_lobby(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel")
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    assert (await tables.kick(ADMIN, CHANNEL, "Alice")).ok
    await tables.settle()
    assert (await tables.table_for_channel(CHANNEL)).host == BOB.user_id
    assert harness.sink.said("Bob is now the host")
    assert (await tables.add_bot(BOB, CHANNEL)).ok
    assert not (await tables.cancel(ALICE, CHANNEL)).ok


async def test_a_kicked_host_mid_game_can_neither_cancel_nor_come_back(harness):
    live = await _three(harness)
    assert (await harness.tables.kick(ADMIN, CHANNEL, "Alice")).ok
    assert live.row.host == BOB.user_id and live.seats[0].is_bot
    assert not (await harness.tables.cancel(ALICE, CHANNEL)).ok
    back = await harness.tables.join(ALICE, CHANNEL)
    assert not back.ok and "removed" in back.text
    assert live.row.status == PLAYING


async def test_the_last_player_leaving_a_lobby_hears_the_truth_when_saving_fails(harness):
    await harness.tables.new_game(ALICE, CHANNEL, "ochs-esel")
    _fail_once(harness.repo, "update_table")
    reply = await harness.tables.leave(ALICE, CHANNEL)
    assert not reply.ok and "couldn't save" in reply.text
    assert (await harness.tables.table_for_channel(CHANNEL)).status == LOBBY


async def test_a_bot_added_by_mistake_is_removed_with_its_button(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel")
    await tables.add_bot(ALICE, CHANNEL)
    await tables.settle()
    row = await tables.table_for_channel(CHANNEL)
    actions = [b.action for line in harness.sink.tables[row.id].rendering.buttons for b in line]
    assert "removebot" in actions
    assert not (await harness.press(BOB, row.id, 0, "removebot")).ok
    assert (await harness.press(ALICE, row.id, 0, "removebot")).ok
    live = await tables.live_table(row.id)
    assert [s.name for s in live.seats] == ["Alice"]


async def test_option_words_are_in_the_readers_language(harness):
    await harness.tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    await harness.tables.new_game(ALICE, CHANNEL, "nix")
    reply = await harness.tables.set_options(BOB, CHANNEL, [])
    assert "personne=non," in reply.text  # not the English "no"
