"""Telegram: a press, a link or a command does only what its sender may do, as Telegram
says it (who pressed, on which message, in which chat, with which rights there), through
the real python-telegram-bot against the fake Bot API."""

import pytest

from bot.render import decode_payload
from db.repository import PLAYING
from tests.adapters.telegram_rig import (
    FORUM,
    GROUP,
    hand_messages,
    move_button,
    open_table,
    play_moves,
    start_with,
    table_messages,
)
from tests.fakes.telegram_api import BOT_ID
from tests.reliability.checks import row_state

pytestmark = pytest.mark.timeout(60)

MALLORYS_GROUP = -1005550001
ELSEWHERE = "This button belongs to a table in another chat: it does nothing here."
RIGHTS_UNKNOWN = ("I couldn't check your rights just now; try again in a moment. Nothing was "
                  "changed.")
NOT_A_MEMBER = "Only members of the table's chat can sit at it: join that chat first."
BAD_LINK = "This link does not lead to a table: ask for a fresh one in the table's chat."


async def answered(fake, press):
    await fake.wait_for(lambda: press.answer is not None, timeout=10)
    return press.answer


async def settled(rig):
    await rig.tables.settle()
    await rig.tables.outbox.flush()


@pytest.fixture
async def two_groups(rig, fake, players):
    """Alice's lobby in GROUP (Bob seated, a bot added); Mallory, admin of her own group,
    has a table there too, whose message she can press forged buttons on."""
    alice, bob, _ = players
    table_id = await open_table(rig, GROUP, alice, [bob])
    fake.send_command(GROUP, alice, "/addbot")
    lobby = table_messages(fake, GROUP)[0]
    await fake.wait_for(lambda: "🤖" in lobby.text)
    mallory = fake.user(66, "Mallory")
    fake.set_admin(MALLORYS_GROUP, mallory)
    other_id = await open_table(rig, MALLORYS_GROUP, mallory, [])
    await settled(rig)
    return table_id, other_id, mallory, table_messages(fake, MALLORYS_GROUP)[0]


async def forge(rig, fake, where, user, table_id, action, version=None):
    """`user` presses, on message `where`, a button they made up naming `table_id`."""
    live = await rig.tables.live_table(table_id)
    version = live.row.version if version is None else version
    data = f"{live.ref}.{version}.{action}"
    return await answered(fake, fake.press(where.chat_id, where.message_id, user, data,
                                           forged=True))


@pytest.mark.parametrize("action", ["join", "leave", "start", "addbot", "removebot",
                                    "options", "rematch", "hand"])
async def test_a_forged_lobby_press_in_another_group_changes_nothing(rig, fake, two_groups,
                                                                     action):
    table_id, _, mallory, her_table = two_groups
    before = row_state(rig.db)
    answer = await forge(rig, fake, her_table, mallory, table_id, action)
    await settled(rig)
    assert answer["text"] == ELSEWHERE and answer["show_alert"] is True
    assert row_state(rig.db) == before


async def test_forged_game_presses_in_another_group_change_nothing(rig, fake, two_groups,
                                                                   players):
    table_id, _, mallory, her_table = two_groups
    alice, bob, _ = players
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: hand_messages(fake, alice) and hand_messages(fake, bob))
    live = await rig.tables.live_table(table_id)
    assert live.row.status == PLAYING
    await settled(rig)
    seat = live.game.to_act(live.state)[0]
    mover = alice if live.seats[seat].user_id == str(alice.id) else bob
    _, move = await fake.wait_for(lambda: move_button(fake, mover, table_id, live.row.version))
    action = decode_payload(move).action
    before = row_state(rig.db)
    for user in (mallory, mover):  # a stranger, and the very player whose turn it is
        for forged in (action, "hand", "rematch", "leave", "join"):
            answer = await forge(rig, fake, her_table, user, table_id, forged)
            assert answer["text"] == ELSEWHERE, (user, forged)
    await settled(rig)
    assert row_state(rig.db) == before


async def test_a_forged_press_in_a_private_chat_acts_only_on_ones_own_hand(rig, fake,
                                                                           two_groups, players):
    table_id, _, mallory, _ = two_groups
    alice, bob, _ = players
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: hand_messages(fake, alice) and hand_messages(fake, bob))
    await settled(rig)
    live = await rig.tables.live_table(table_id)
    seat = live.game.to_act(live.state)[0]
    mover = alice if live.seats[seat].user_id == str(alice.id) else bob
    _, move = await fake.wait_for(lambda: move_button(fake, mover, table_id, live.row.version))
    action = decode_payload(move).action
    fake.start_bot(mallory)
    help_message = (await fake.wait_for(lambda: fake.find(mallory.id)))[-1]
    not_a_hand = next(m for m in fake.find(mover.id) if m not in hand_messages(fake, mover))
    before = row_state(rig.db)

    for forged in ("join", "start", "addbot", "rematch"):  # lobby buttons: never in private
        answer = await forge(rig, fake, help_message, mallory, table_id, forged)
        assert answer["text"] == ELSEWHERE, forged
    answer = await forge(rig, fake, help_message, mallory, table_id, action)
    assert answer["text"] == "You are not playing at this table."
    # The player to move, on a message of theirs that is not their hand of that table.
    answer = await forge(rig, fake, not_a_hand, mover, table_id, action)
    assert "not on your hand" in answer["text"]
    await settled(rig)
    assert row_state(rig.db) == before

    # The honest press on their own hand plays.
    hand = hand_messages(fake, mover)[0]
    answer = await answered(fake, fake.press(mover.id, hand.message_id, mover, move))
    assert not answer.get("show_alert"), answer
    assert (await rig.tables.live_table(table_id)).row.version == 1


async def test_an_admin_of_another_group_cannot_manage_this_groups_lobby(rig, fake,
                                                                       two_groups):
    _, _, mallory, _ = two_groups
    lobby = table_messages(fake, GROUP)[0]
    before = row_state(rig.db)
    for label in ("Start", "Add bot", "Remove bot"):
        press = fake.press_button(GROUP, lobby.message_id, mallory, label)
        answer = await answered(fake, press)
        assert answer["show_alert"] is True and "host" in answer["text"], (label, answer)
    # Her rights were asked in the table's group, where she is no admin.
    asked = [c.params for c in fake.calls_to("getChatMember")
             if str(c.params.get("user_id")) == str(mallory.id)]
    assert asked and all(int(p["chat_id"]) == GROUP for p in asked)
    await settled(rig)
    assert row_state(rig.db) == before


async def test_a_failing_rights_check_refuses_a_real_admin_and_a_retry_works(rig, fake,
                                                                           two_groups):
    table_id, _, _, _ = two_groups
    zed = fake.user(77, "Zed")
    fake.set_admin(GROUP, zed)
    lobby = table_messages(fake, GROUP)[0]
    before = row_state(rig.db)
    fake.fail_next("getChatMember", status=500, description="Internal Server Error")
    answer = await answered(fake, fake.press_button(GROUP, lobby.message_id, zed, "Remove bot"))
    assert answer == {**answer, "text": RIGHTS_UNKNOWN, "show_alert": True}
    await settled(rig)
    assert row_state(rig.db) == before
    # A typed command too: the same sentence, nothing changed.
    fake.fail_next("getChatMember", status=500, description="Internal Server Error")
    fake.send_command(GROUP, zed, "/addbot")
    await fake.wait_for(lambda: fake.find(GROUP, contains=RIGHTS_UNKNOWN)
                        or fake.find(zed.id, contains=RIGHTS_UNKNOWN))
    await settled(rig)
    assert row_state(rig.db) == before
    # Once Telegram answers again, the admin's press works.
    answer = await answered(fake, fake.press_button(GROUP, lobby.message_id, zed, "Remove bot"))
    assert not answer.get("show_alert"), answer
    live = await rig.tables.live_table(table_id)
    assert not any(s.is_bot for s in live.seats)


@pytest.mark.parametrize("payload", ["j1", "j²", "j9223372036854775808", "j1_AAAAAAAAAA",
                                     "j" + "9" * 60, "j"])
async def test_a_guessed_or_malformed_deep_link_is_refused_in_words(rig, fake, two_groups,
                                                                    payload):
    _, _, mallory, _ = two_groups
    before = row_state(rig.db)
    # Sent as a modified client could: Telegram's own links allow only [A-Za-z0-9_-].
    fake.send_command(mallory.id, mallory, f"/start {payload}", chat_type="private")
    await fake.wait_for(lambda: fake.find(mallory.id, contains=BAD_LINK))
    await settled(rig)
    assert row_state(rig.db) == before


@pytest.mark.parametrize("status", ["left", "kicked"])
async def test_a_genuine_link_opened_by_a_non_member_seats_nobody(rig, fake, two_groups,
                                                                  status):
    table_id, _, _, _ = two_groups
    eve = fake.user(88, "Eve")
    fake.set_member(GROUP, eve, status)
    before = row_state(rig.db)
    ref = await rig.tables.ref(table_id)
    fake.start_bot(eve, payload=f"j{ref}")
    await fake.wait_for(lambda: fake.find(eve.id, contains=NOT_A_MEMBER))
    await settled(rig)
    assert row_state(rig.db) == before
    # A stranger who never was in the group is told the same.
    frank = fake.user(89, "Frank")
    fake.start_bot(frank, payload=f"j{ref}")
    await fake.wait_for(lambda: fake.find(frank.id, contains=NOT_A_MEMBER))
    # Once in the group, the same link seats them.
    fake.set_member(GROUP, eve, "member")
    fake.start_bot(eve, payload=f"j{ref}")
    await fake.wait_for(lambda: fake.find(eve.id, contains="You joined"))
    live = await rig.tables.live_table(table_id)
    assert str(eve.id) in [s.user_id for s in live.seats]


async def test_a_link_whose_membership_cannot_be_checked_asks_to_retry(rig, fake, two_groups):
    table_id, _, _, _ = two_groups
    eve = fake.user(88, "Eve")
    fake.set_member(GROUP, eve, "member")
    before = row_state(rig.db)
    fake.fail_next("getChatMember", status=500, description="Internal Server Error")
    fake.start_bot(eve, payload=f"j{await rig.tables.ref(table_id)}")
    await fake.wait_for(lambda: fake.find(eve.id, contains=RIGHTS_UNKNOWN))
    await settled(rig)
    assert row_state(rig.db) == before


async def test_a_rematch_leaves_out_whoever_left_the_group(rig, fake, players):
    alice, bob, carol = players
    table_id = await start_with(rig, players, "/start")
    assert await play_moves(rig, table_id, players, limit=300) < 300
    ranking = (await fake.wait_for(lambda: fake.find(GROUP, contains="Final ranking")))[0]
    fake.set_member(GROUP, bob, "left")
    fake.fail_next("getChatMember", status=500, description="Internal Server Error")
    answer = await answered(fake, fake.press_button(GROUP, ranking.message_id, alice,
                                                    "Rematch"))
    assert answer["text"] == RIGHTS_UNKNOWN
    assert (await rig.tables.table_for_channel(str(GROUP))) is None
    answer = await answered(fake, fake.press_button(GROUP, ranking.message_id, alice,
                                                    "Rematch"))
    assert not answer.get("show_alert"), answer
    row = await rig.tables.table_for_channel(str(GROUP))
    live = await rig.tables.live_table(row.id)
    assert row.id != table_id and live.row.status == PLAYING
    seated = [s.user_id for s in live.seats if not s.is_bot]
    assert sorted(seated) == sorted([str(alice.id), str(carol.id)])


async def test_a_press_in_one_topic_cannot_act_on_another_topics_table(rig, fake, players):
    alice, bob, carol = players
    first = await open_table(rig, FORUM, alice, [carol], thread=11)
    await open_table(rig, FORUM, bob, [], game="the-game", thread=22)
    (lobby_22,) = table_messages(fake, FORUM, thread=22)
    before = row_state(rig.db)
    for action in ("start", "join", "leave", "addbot"):
        answer = await forge(rig, fake, lobby_22, bob, first, action)
        assert answer["text"] == ELSEWHERE, action
    await settled(rig)
    assert row_state(rig.db) == before
    # The honest press in the table's own topic works.
    (lobby_11,) = table_messages(fake, FORUM, thread=11)
    answer = await answered(fake, fake.press_button(FORUM, lobby_11.message_id, bob, "Join"))
    assert not answer.get("show_alert"), answer
    assert [s.name for s in (await rig.tables.live_table(first)).seats] == [
        "Alice", "Carol", "Bob"]


async def test_the_host_needs_no_rights_check_so_a_failing_one_does_not_stop_them(
        rig, fake, players):
    alice, bob, carol = players
    table_id = await open_table(rig, GROUP, alice, [bob, carol])
    fake.fail_next("getChatMember", status=500, description="Internal Server Error")
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: hand_messages(fake, alice))
    asked = [c for c in fake.calls_to("getChatMember") if c.params["user_id"] != BOT_ID]
    assert [c.status for c in asked] == [500]  # it was asked
    assert (await rig.tables.live_table(table_id)).row.status == PLAYING
    assert not fake.find(GROUP, contains=RIGHTS_UNKNOWN)


AS_YOURSELF = ("Write that as yourself, not on behalf of a channel or as an anonymous admin:"
               " I seat and deal cards to people. Nothing was changed.")


async def test_commands_sent_on_behalf_of_a_channel_act_for_nobody(rig, fake, players):
    """Telegram names one placeholder user (Channel_Bot) as the sender of every message
    posted as a channel: a seat or a host taken by it would be anyone's who posts so."""
    alice, bob, _ = players
    table_id = await open_table(rig, GROUP, alice, [bob])
    fake.add_chat(MALLORYS_GROUP, "supergroup")
    await settled(rig)
    before = row_state(rig.db)
    for chat, command in ((MALLORYS_GROUP, "/newgame ochs"), (GROUP, "/join"),
                          (GROUP, "/leave"), (GROUP, "/play 5"), (GROUP, "/cancel"),
                          (GROUP, "/start")):
        sent = fake.send_as_chat(chat, command, channel_id=-1007770001, title="News")
        said = await fake.wait_for(lambda s=sent, c=chat: [
            m for m in fake.find(c, contains=AS_YOURSELF) if m.message_id > s.message_id])
        assert said, command
    await settled(rig)
    assert row_state(rig.db) == before
    assert (await rig.tables.table_for_channel(str(MALLORYS_GROUP))) is None
    assert (await rig.tables.live_table(table_id)).row.status == "lobby"


async def test_an_anonymous_admin_manages_the_table_but_takes_no_seat(rig, fake, players):
    alice, bob, _ = players
    table_id = await open_table(rig, GROUP, alice, [bob])
    fake.add_chat(MALLORYS_GROUP, "supergroup")
    await settled(rig)
    before = row_state(rig.db)
    for chat, command in ((MALLORYS_GROUP, "/newgame ochs"), (GROUP, "/join")):
        sent = fake.send_as_chat(chat, command)
        said = await fake.wait_for(lambda s=sent, c=chat: [
            m for m in fake.find(c, contains=AS_YOURSELF) if m.message_id > s.message_id])
        assert said, command
    await settled(rig)
    assert row_state(rig.db) == before
    # Managing needs no seat: the group itself speaks, so its admin's rights hold.
    fake.send_as_chat(GROUP, "/addbot")
    lobby = table_messages(fake, GROUP)[0]
    await fake.wait_for(lambda: "🤖" in lobby.text)
    assert any(s.is_bot for s in (await rig.tables.live_table(table_id)).seats)
