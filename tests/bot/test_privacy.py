"""/forgetme at the table level: a lobby seat is left, the host moves on, a channel in
French names her in French, and a second confirmation does no harm. One /mydata and one
forgetting a minute per person: beyond that, a sentence says when they may ask again."""

from bot.authority import Press
from bot.i18n import t
from bot.privacy import ASK_EVERY, CONFIRM_MINUTES, FORGET, PRIVACY_REF
from db.repository import LOBBY, StorageError, UserSettings
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
