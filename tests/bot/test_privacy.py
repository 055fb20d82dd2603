"""/forgetme at the table level: a lobby seat is left, the host moves on, a channel in
French names her in French, and a second confirmation does no harm. One /mydata and one
forgetting a minute per person: beyond that, a sentence says when they may ask again."""

import json

from bot.authority import Press
from bot.i18n import t
from bot.privacy import ASK_EVERY, CONFIRM_MINUTES, FORGET, PRIVACY_REF
from bot.tables import Actor
from db.repository import FINISHED, LOBBY, StorageError, UserSettings
from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL


async def confirm(harness, actor, minutes_later=0):
    prompt = await harness.tables.privacy.forget_prompt(actor)
    harness.clock.advance(minutes_later * 60)
    return await harness.tables.press(
        actor, Press(f"{PRIVACY_REF}.{prompt.version}.{FORGET}", None))


async def test_forgetting_in_a_lobby_leaves_it_and_the_next_player_hosts(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs")
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)

    reply = await confirm(harness, ALICE)
    await tables.settle()

    assert reply.ok and reply.text == t("en", "forget_done")
    row = await tables.table_for_channel(CHANNEL)
    assert row.status == LOBBY and row.host == BOB.user_id
    assert [s.name for s in (await tables.live_table(row.id)).seats] == ["Bob", "Carol"]
    assert await tables.repo.user_tables("test", ALICE.user_id) == []


async def test_her_name_becomes_the_channels_own_words_and_twice_is_harmless(harness):
    tables = harness.tables
    assert (await tables.set_lang(ADMIN, CHANNEL, "fr", personal=False)).ok
    await tables.new_game(ALICE, CHANNEL, "the-game")
    await tables.join(BOB, CHANNEL)
    await tables.start_game(ALICE, CHANNEL)
    await tables.settle()
    row = await tables.table_for_channel(CHANNEL)
    await tables.cancel(ALICE, CHANNEL)
    await tables.set_lang(ALICE, CHANNEL, "en", personal=True)

    assert (await confirm(harness, ALICE)).text == t("en", "forget_done")
    harness.clock.advance(ASK_EVERY)
    assert (await confirm(harness, ALICE)).text == t("en", "forget_done")

    names = [s.name for s in await tables.repo.get_seats(row.id)]
    assert names == [t("fr", "former_player"), "Bob"]
    assert await tables.repo.user_settings("test", ALICE.user_id) == UserSettings()
    assert await tables.lang_of(ALICE.user_id) == "en"  # the default again


async def test_a_confirmation_pressed_too_late_changes_nothing(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs")

    reply = await confirm(harness, ALICE, minutes_later=CONFIRM_MINUTES + 1)

    assert not reply.ok and reply.text == t("en", "forget_expired")
    row = await tables.table_for_channel(CHANNEL)
    assert [s.name for s in (await tables.live_table(row.id)).seats] == ["Alice"]
    assert (await tables.press(ALICE, Press(f"{PRIVACY_REF}.0.nonsense", None))).text == t(
        "en", "bad_button")


QUOKKA = Actor("u7", "Quokkazyx Vandermeer")


async def _until_finished(tables, table_id):
    for _ in range(500):
        await tables.settle()
        live = await tables.live_table(table_id)
        if live.row.status == FINISHED:
            return live
    raise AssertionError("the bots did not finish the game")


async def test_a_player_kicked_from_the_lobby_is_not_on_the_finished_table(harness):
    tables = harness.tables
    await tables.new_game(BOB, CHANNEL, "nix-fur-ungut", ["rounds=1", "deadline=off"])
    await tables.join(QUOKKA, CHANNEL)
    assert (await tables.kick(BOB, CHANNEL, QUOKKA.name)).ok
    assert (await confirm(harness, QUOKKA)).ok
    assert (await tables.add_bot(BOB, CHANNEL)).ok
    reply = await tables.start_game(BOB, CHANNEL)
    assert reply.ok, reply.text
    await tables.leave(BOB, CHANNEL)  # bots play it to its end

    live = await _until_finished(tables, reply.table_id)

    assert QUOKKA.user_id not in json.dumps(live.row.settings)
    assert QUOKKA.user_id not in json.dumps((await tables.repo.get_table(live.id)).settings)
    assert (await tables.privacy.my_data(QUOKKA))["tables"] == []


async def _play_until_moved(tables, table_id, actor):
    """Everyone plays their first legal move until `actor` has made one."""
    for _ in range(50):
        live = await tables.live_table(table_id)
        seat = live.game.to_act(live.state)[0]
        player = next(a for a in (QUOKKA, BOB, CAROL)
                      if a.user_id == live.seats[seat].user_id)
        move = live.game.legal_moves(live.state, seat)[0]
        assert (await tables.play(player, CHANNEL, str(move))).ok
        await tables.settle()
        if player is actor:
            return
    raise AssertionError(f"{actor.name} never moved")


async def test_after_forgetting_mid_game_no_message_shows_or_announces_the_name(harness):
    tables = harness.tables
    await tables.new_game(QUOKKA, CHANNEL, "ochs-esel", ["rounds=2", "deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(QUOKKA, CHANNEL)).table_id
    await tables.settle()
    await _play_until_moved(tables, table_id, QUOKKA)
    await _play_until_moved(tables, table_id, BOB)  # her move is among the last lines
    said_before = len(harness.sink.announcements)
    assert QUOKKA.name in harness.sink.tables[table_id].rendering.text

    assert (await confirm(harness, QUOKKA)).ok
    await tables.settle()

    text = harness.sink.tables[table_id].rendering.text
    assert QUOKKA.name not in text, text
    assert t("en", "former_player") in text, text
    # The group hears that a player left, not who.
    said = [a.text for a in harness.sink.announcements[said_before:]]
    assert said and not [s for s in said if QUOKKA.name in s], said
    # Drawn again after the next move: still not there.
    await _play_until_moved(tables, table_id, BOB)
    assert QUOKKA.name not in harness.sink.tables[table_id].rendering.text


async def test_mydata_again_within_a_minute_says_when_and_the_next_minute_answers(harness):
    tables = harness.tables
    await tables.set_lang(ALICE, CHANNEL, "de", personal=True)
    await tables.new_game(ALICE, CHANNEL, "ochs")
    first = await tables.privacy.my_data(ALICE)
    assert isinstance(first, dict) and len(first["tables"]) == 1

    harness.clock.advance(20)
    again = await tables.privacy.my_data(ALICE)
    other = await tables.privacy.my_data(BOB)  # somebody else is not held up

    assert not again.ok and again.text == t("de", "mydata_too_soon", seconds=40)
    assert "40 Sekunden" in again.text
    assert isinstance(other, dict)
    harness.clock.advance(39.5)
    assert (await tables.privacy.my_data(ALICE)).text == t("de", "mydata_too_soon", seconds=1)
    harness.clock.advance(0.5)
    assert isinstance(await tables.privacy.my_data(ALICE), dict)


async def test_a_failed_mydata_does_not_count(harness, monkeypatch):
    tables = harness.tables

    async def broken(platform, user_id):
        raise StorageError("disk I/O error")

    with monkeypatch.context() as patch:
        patch.setattr(tables.repo, "user_tables", broken)
        try:
            await tables.privacy.my_data(ALICE)
        except StorageError:
            pass
        else:
            raise AssertionError("an incomplete export was answered")
    assert isinstance(await tables.privacy.my_data(ALICE), dict)  # "try again" holds


async def test_forgetting_again_within_a_minute_changes_nothing_and_says_when(harness):
    tables = harness.tables
    assert (await confirm(harness, ALICE)).text == t("en", "forget_done")
    await tables.new_game(ALICE, CHANNEL, "ochs")  # she plays again at once

    harness.clock.advance(45)
    reply = await confirm(harness, ALICE)

    assert not reply.ok and reply.text == t("en", "forget_too_soon", seconds=15)
    assert "15 seconds" in reply.text
    row = await tables.table_for_channel(CHANNEL)
    assert [s.name for s in (await tables.live_table(row.id)).seats] == ["Alice"]
    assert (await confirm(harness, BOB)).text == t("en", "forget_done")
    harness.clock.advance(15)
    assert (await confirm(harness, ALICE)).text == t("en", "forget_done")
    assert await tables.repo.user_tables("test", ALICE.user_id) == []
