"""True answers on Telegram: once a change is stored, no answer says "nothing changed", and a
reachability check that gets no answer falls back to the deep link, never to a failure."""

from typing import Any

import pytest

from bot import changes
from bot.i18n import t
from bot.tables import Tables
from db.repository import StorageError
from tests.adapters.telegram_rig import (
    GROUP,
    hand_messages,
    move_button,
    open_table,
    table_messages,
)

pytestmark = pytest.mark.timeout(60)

def nothing_changed_said(fake) -> bool:
    """Whether any answer, message or button alert told somebody that nothing changed."""
    sent = [str(c.params.get("text", "")) for c in fake.calls
            if c.method in ("sendMessage", "answerCallbackQuery") and c.ok]
    return any("nothing changed" in text for text in sent)


async def lobby_of(rig, fake, host):
    fake.start_bot(host)
    fake.send_command(GROUP, host, "/newgame ochs-esel")
    lobby = (await fake.wait_for(lambda: table_messages(fake, GROUP)))[0]
    row = await rig.tables.table_for_channel(str(GROUP))
    return lobby, row.id


async def test_a_join_whose_private_confirmation_hits_four_429s_is_answered_as_joined(
        rig, fake, players):
    alice, bob, _ = players
    lobby, table_id = await lobby_of(rig, fake, alice)
    fake.start_bot(bob)
    await fake.wait_for(lambda: fake.find(bob.id))  # the help text: Bob's chat is open

    # The first try and the limiter's three retries of the "You joined" message all fail.
    fake.fail_next("sendMessage", times=4, retry_after=1)
    press = fake.press_button(GROUP, lobby.message_id, bob, "Join")
    await fake.wait_for(lambda: "Bob" in lobby.text, timeout=15)
    await fake.wait_for(lambda: press.answer is not None, timeout=15)
    assert press.answer["text"] == "You joined the table for Ochs & Esel."
    assert not press.answer.get("show_alert")
    # The confirmation was tried the limiter's four times, then dropped: nothing else says
    # the join failed, though it is stored.
    await fake.wait_for(lambda: len([c for c in fake.flood_events if c.chat_id == bob.id]) == 4,
                        timeout=15)
    await rig.tables.outbox.flush()
    assert [s.name for s in (await rig.tables.live_table(table_id)).seats] == ["Alice", "Bob"]
    assert not nothing_changed_said(fake)


async def test_a_join_command_whose_confirmation_hits_429s_seats_without_a_false_failure(
        rig, fake, players):
    alice, bob, _ = players
    lobby, _ = await lobby_of(rig, fake, alice)
    fake.start_bot(bob)
    await fake.wait_for(lambda: fake.find(bob.id))
    fake.fail_next("sendMessage", times=4, retry_after=1)
    fake.send_command(GROUP, bob, "/join")
    await fake.wait_for(lambda: "Bob" in lobby.text, timeout=15)
    await fake.wait_for(lambda: len([c for c in fake.flood_events if c.chat_id == bob.id]) == 4,
                        timeout=15)
    # The handler finishes after the last 429: give a false failure time to show up.
    with pytest.raises(TimeoutError):
        await fake.wait_for(lambda: nothing_changed_said(fake), timeout=2)
    # Bob's chat works (only a flood limit got in the way): no deep link is posted for him.
    assert not fake.find(GROUP, contains="?start=j")


@pytest.mark.parametrize("failure", ["network error", "timeout"])
async def test_a_reachability_check_without_answer_offers_the_deep_link(
        rig, fake, players, failure):
    alice, bob, carol = players
    lobby, table_id = await lobby_of(rig, fake, alice)
    fake.start_bot(bob)
    fake.start_bot(carol)
    await fake.wait_for(lambda: fake.find(bob.id) and fake.find(carol.id))
    # A new process knows nobody's private chat yet: it asks Telegram with a chat action.
    await rig.stop()
    await rig.start()

    def no_answer() -> None:
        if failure == "network error":
            fake.fail_next("sendChatAction", status=502, description="Bad Gateway")
        else:
            fake.hold("sendChatAction")  # unanswered until the client gives up

    link = f"https://t.me/tapis_test_bot?start=j{await rig.tables.ref(table_id)}"
    no_answer()
    press = fake.press_button(GROUP, lobby.message_id, bob, "Join")
    await fake.wait_for(lambda: press.answer is not None, timeout=20)
    fake.drop_held()
    assert press.answer.get("url") == link, press.answer
    assert "Open the private chat" in press.answer["text"]

    no_answer()
    fake.send_command(GROUP, carol, "/join")
    await fake.wait_for(lambda: fake.find(GROUP, contains=link), timeout=20)
    fake.drop_held()
    assert not nothing_changed_said(fake)
    assert "Bob" not in lobby.text and "Carol" not in lobby.text

    # The link seats them as it does anyone.
    fake.start_bot(bob, payload=f"j{await rig.tables.ref(table_id)}")
    await fake.wait_for(lambda: "Bob" in lobby.text)


async def test_a_failure_after_a_stored_move_says_the_move_counts(rig, fake, players,
                                                                   monkeypatch):
    """A fault after the move is stored (here the store, asked for the player's language
    for the "Done"): the move is played, so the answer must not invite a second try."""
    alice, bob, carol = players
    table_id = await open_table(rig, GROUP, alice, [bob, carol])
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
    live = await rig.tables.live_table(table_id)
    version = live.row.version
    user = {str(p.id): p for p in players}[live.seats[live.game.to_act(live.state)[0]].user_id]
    message, data = await fake.wait_for(lambda: move_button(fake, user, table_id, version))

    lang_of = Tables.lang_of

    async def store_gone_after_a_change(self: Tables, *args: Any) -> str:
        if changes.stored():
            raise StorageError("the disk went away")
        return await lang_of(self, *args)

    monkeypatch.setattr(Tables, "lang_of", store_gone_after_a_change)
    press = fake.press(user.id, message.message_id, user, data)
    await fake.wait_for(lambda: press.answer is not None)
    assert live.row.version == version + 1
    assert press.answer["text"] == t("en", "error_after_change")
    assert not nothing_changed_said(fake)


async def test_a_new_table_whose_hosts_reachability_check_fails_still_opens_with_the_link(
        rig, fake, players):
    alice = players[0]
    fake.fail_next("sendChatAction", status=502, description="Bad Gateway")
    fake.send_command(GROUP, alice, "/newgame ochs-esel")  # Alice never opened the bot
    lobby = (await fake.wait_for(lambda: table_messages(fake, GROUP)))[0]
    row = await rig.tables.table_for_channel(str(GROUP))
    ref = await rig.tables.ref(row.id)
    await fake.wait_for(lambda: fake.find(GROUP, contains=f"?start=j{ref}"))
    assert "Alice" in lobby.text
    assert not nothing_changed_said(fake)
