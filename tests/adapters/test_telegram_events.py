"""The Telegram adapter around the game: admins, refusals, lost groups, blocked players."""

import asyncio

import pytest

from adapters.telegram.app import run_telegram
from bot.deliveries import Announcement
from bot.settings import Settings
from db.repository import CANCELLED, CLOSED, LOBBY, PLAYING
from db.sqlite import SqliteRepository
from tests.adapters.telegram_rig import (
    FORUM,
    GROUP,
    hand_messages,
    open_table,
    play_moves,
    start_with,
    table_messages,
)
from tests.fakes.telegram_api import BOT_ID

pytestmark = pytest.mark.timeout(30)


async def start_game(rig, players) -> int:
    return await start_with(rig, players, "/start@tapis_test_bot")


async def test_a_group_admin_who_is_not_the_host_may_cancel_and_others_are_told_privately(
        rig, fake, players):
    alice, bob, _ = players
    mod, nobody = fake.user(20, "Mod"), fake.user(21, "Nobody")
    fake.set_admin(GROUP, mod)
    fake.start_bot(nobody)
    table_id = await open_table(rig, GROUP, alice, [bob])

    fake.send_command(GROUP, nobody, "/cancel")
    await fake.wait_for(lambda: fake.find(nobody.id, contains="host or a channel admin"))
    fake.send_command(GROUP, mod, "/cancel")
    await fake.wait_for(lambda: fake.find(GROUP, contains="Mod cancelled the table"))

    assert (await rig.tables.live_table(table_id)).row.status == CANCELLED
    # The refusal went to Nobody's private chat, not into the group.
    assert not fake.find(GROUP, contains="host or a channel admin")
    # Only the two who asked to cancel were checked (the bot's own rights are asked too,
    # before /newgame opens a table).
    asked = {c.params["user_id"] for c in fake.calls_to("getChatMember")}
    assert asked - {BOT_ID} == {mod.id, nobody.id}


async def test_a_refusal_to_a_user_without_private_chat_is_a_reply_in_the_group(rig, fake):
    stranger = fake.user(30, "Stranger")
    asked = fake.send_command(GROUP, stranger, "/join")
    reply = (await fake.wait_for(lambda: fake.find(GROUP, contains="no open table")))[0]
    assert reply.reply_to == asked.message_id


async def test_commands_for_another_bot_are_ignored(rig, fake):
    alice = fake.user(11, "Alice")
    fake.send_command(GROUP, alice, "/help@other_bot")
    fake.send_command(GROUP, alice, "/rules@tapis_test_bot ochs-esel")
    await fake.wait_for(lambda: fake.find(GROUP))
    await asyncio.sleep(0.1)
    assert len(fake.find(GROUP)) == 1 and "Commands:" not in fake.find(GROUP)[0].text


async def test_the_bot_removed_from_the_group_closes_its_table(rig, fake, players):
    table_id = await start_game(rig, players)
    fake.remove_bot(GROUP, by=players[0])
    for _ in range(50):
        if (await rig.tables.live_table(table_id)).row.status == CLOSED:
            break
        await asyncio.sleep(0.02)
    assert (await rig.tables.live_table(table_id)).row.status == CLOSED


async def test_a_group_that_refuses_the_bot_closes_the_table_on_the_next_delivery(
        rig, fake, players):
    table_id = await start_game(rig, players)
    await rig.tables.settle()  # the start's own table edit, paced, has gone
    fake.kick_bot(GROUP)  # no my_chat_member update arrives: the 403 alone tells
    await play_moves(rig, table_id, players, limit=1)
    await rig.tables.outbox.flush()
    assert (await rig.tables.live_table(table_id)).row.status == CLOSED


async def wait_status(rig, table_id: int, status: str) -> None:
    for _ in range(100):
        if (await rig.tables.live_table(table_id)).row.status == status:
            return
        await asyncio.sleep(0.02)
    assert (await rig.tables.live_table(table_id)).row.status == status


async def test_the_bot_added_back_to_the_group_resumes_its_table(rig, fake, players):
    table_id = await start_game(rig, players)
    fake.remove_bot(GROUP, by=players[0])
    await wait_status(rig, table_id, CLOSED)
    fake.add_bot(GROUP, by=players[0])
    await wait_status(rig, table_id, PLAYING)
    assert await play_moves(rig, table_id, players, limit=2) == 2  # the game goes on
    await rig.tables.outbox.flush()
    (table,) = table_messages(fake, GROUP)  # the same message, edited again
    live = await rig.tables.live_table(table_id)
    assert live.seats[live.game.to_act(live.state)[0]].name in table.text.split("To play:")[1]


async def test_a_closed_topic_pauses_its_table_and_reopening_it_resumes_the_game(
        rig, fake, players):
    alice, bob, carol = players
    table_id = await open_table(rig, FORUM, alice, [bob, carol], thread=11)
    fake.send_command(FORUM, alice, "/start", thread_id=11)
    await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
    other = await open_table(rig, FORUM, bob, [alice, carol], thread=22)
    fake.close_topic(FORUM, 11, by=alice)
    await play_moves(rig, table_id, players, limit=1)  # the table message is refused
    await wait_status(rig, table_id, CLOSED)
    version = (await rig.tables.live_table(table_id)).row.version
    assert (await rig.tables.live_table(other)).row.status == LOBBY  # other topics go on

    fake.close_topic(FORUM, 11, by=alice, closed=False)
    await wait_status(rig, table_id, PLAYING)
    await rig.tables.outbox.flush()
    (table,) = table_messages(fake, FORUM, thread=11)
    live = await rig.tables.live_table(table_id)
    assert live.row.version == version and live.seats[
        live.game.to_act(live.state)[0]].name in table.text.split("To play:")[1]
    assert await play_moves(rig, table_id, players, limit=1) == 1


async def test_a_player_who_blocks_the_bot_is_named_once_in_the_group_and_play_goes_on(
        rig, fake, players):
    table_id = await start_game(rig, players)
    blocked = players[1]
    fake.block(blocked)
    others = [p for p in players if p is not blocked]
    start = (await rig.tables.live_table(table_id)).row.version
    for _ in range(6):
        live = await rig.tables.live_table(table_id)
        seat = live.game.to_act(live.state)[0]
        if live.seats[seat].user_id == str(blocked.id):
            # Blocked in private, Bob still plays by a command in the group.
            move = next(m for m in live.game.legal_moves(live.state, seat) if str(m) != "pass")
            version = live.row.version
            fake.send_command(GROUP, blocked, f"/play {move}")
            await fake.wait_for(lambda v=version, live=live: live.row.version > v)
        else:
            await play_moves(rig, table_id, others, limit=1)
    await rig.tables.outbox.flush()

    assert live.row.version == start + 6
    (warning,) = fake.find(GROUP, contains="I can't send Bob their hand privately")
    assert f'<a href="tg://user?id={blocked.id}">Bob</a>' in warning.raw_text  # notified


async def test_an_unexpected_failure_answers_a_plain_sentence_and_no_traceback(
        rig, fake, players, monkeypatch):
    alice = players[0]

    async def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(rig.tables, "scores", broken)
    fake.send_command(GROUP, alice, "/scores")
    answer = (await fake.wait_for(lambda: fake.find(GROUP)))[0]
    assert answer.text == "Something went wrong on my side; nothing changed. Please try again."
    assert not [m for chat in (GROUP, alice.id) for m in fake.find(chat)
                if "secret internals" in m.text or "Traceback" in m.text]


async def test_turn_pings_mention_the_player_and_names_are_escaped(rig, fake):
    alice, eve = fake.user(11, "Alice"), fake.user(15, "<Eve & co>")
    table_id = await open_table(rig, GROUP, alice, [eve])
    fake.send_command(GROUP, alice, "/addbot")
    lobby = table_messages(fake, GROUP)[0]
    await fake.wait_for(lambda: "🤖" in lobby.text)
    fake.send_command(GROUP, alice, "/start")
    ping = (await fake.wait_for(lambda: fake.find(GROUP, contains="it's your turn")))[0]

    live = await rig.tables.live_table(table_id)
    called = [s for s in live.seats if not s.is_bot and s.name in ping.text]
    assert called
    assert all(f'<a href="tg://user?id={s.user_id}">' in ping.raw_text for s in called)
    assert "<Eve & co>" in lobby.text and "&lt;Eve &amp; co&gt;" in lobby.raw_text


async def test_run_telegram_serves_until_cancelled_then_stops_cleanly(fake, tmp_path):
    repo = SqliteRepository(str(tmp_path / "tapis.db"))
    await repo.open()
    settings = Settings(_env_file=None, telegram_token=fake.token, telegram_api_url=fake.url)
    task = asyncio.create_task(run_telegram(repo, settings))
    try:
        fake.send_command(GROUP, fake.user(11, "Alice"), "/help")
        await fake.wait_for(lambda: fake.find(GROUP, contains="Commands:"))
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await repo.close()
    assert asyncio.all_tasks() == {asyncio.current_task()}


async def test_redrawing_an_unchanged_table_is_not_an_error_and_is_not_retried(rig, fake,
                                                                               players):
    alice, bob, _ = players
    await open_table(rig, GROUP, alice, [bob])
    fake.set_admin(GROUP, alice)
    fake.send_command(GROUP, alice, "/lang en")  # the table is redrawn, identical
    await fake.wait_for(lambda: fake.find(GROUP, contains="now plays in English"))
    await rig.tables.outbox.flush()

    edits = fake.calls_to("editMessageText")
    assert edits[-1].status == 400 and "not modified" in edits[-1].description
    assert [c.status for c in edits].count(400) == 1


async def test_a_table_message_deleted_by_an_admin_is_posted_again(rig, fake, players):
    alice, bob, carol = players
    await open_table(rig, GROUP, alice, [bob])
    (lobby,) = table_messages(fake, GROUP)
    lobby.deleted = True  # an admin deleted it in the group
    fake.start_bot(carol)
    fake.send_command(GROUP, carol, "/join")
    (again,) = await fake.wait_for(lambda: table_messages(fake, GROUP))
    await fake.wait_for(lambda: "Carol" in again.text)
    assert again.message_id != lobby.message_id


async def test_a_turn_call_delayed_past_the_players_move_is_not_posted(rig, fake, players):
    table_id = await start_game(rig, players)
    await rig.tables.outbox.flush()
    live = await rig.tables.live_table(table_id)
    to_act = live.seats[live.game.to_act(live.state)[0]]
    waiting = next(s for s in live.seats if s.seat != to_act.seat)
    sends = len(fake.calls_to("sendMessage"))

    for seat in (waiting, to_act):  # as the outbox would deliver a held-back ping
        await rig.bot.sink.announce(Announcement(
            table_id=table_id, channel=str(GROUP), text=f"{seat.name}, it's your turn.",
            mentions=[seat.user_id], version=live.row.version, kind="turn"))

    assert len(fake.calls_to("sendMessage")) == sends + 1
    assert fake.last_message(GROUP).text == f"{to_act.name}, it's your turn."


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(rig, fake, players):
    alice, bob, carol = players
    old, new = -4001, -1004001
    fake.add_chat(old, "group", title="Kitchen table")
    table_id = await open_table(rig, old, alice, [bob, carol])
    fake.send_command(old, alice, "/start")
    await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
    await play_moves(rig, table_id, players, 3)

    fake.migrate(old, new, alice)
    await fake.wait_for(lambda: table_messages(fake, new), timeout=10)
    row = await rig.tables.table_for_channel(str(new))
    assert row is not None and row.id == table_id and row.status == "playing"
    assert await rig.tables.table_for_channel(str(old)) is None
    # The game goes on in the new chat, to its end.
    await play_moves(rig, table_id, players, 400)
    await rig.tables.settle()
    assert (await rig.tables.live_table(table_id)).row.status == "finished"
    assert fake.find(new, contains="Final ranking")


async def test_a_player_whose_telegram_is_in_french_is_refused_in_french(rig, fake):
    fake.add_chat(GROUP, "supergroup", title="Cartes")
    amelie = fake.user(31, "Amélie", language_code="fr")
    fake.start_bot(amelie)
    fake.send_command(GROUP, amelie, "/join")
    await fake.wait_for(lambda: any("Aucune table" in m.text for m in fake.find(amelie.id)))
    # The group itself stays in its own language.
    fake.send_command(GROUP, amelie, "/newgame ochs")
    await fake.wait_for(lambda: table_messages(fake, GROUP))
    assert "waiting for players" in table_messages(fake, GROUP)[-1].text


async def test_the_lobby_options_button_and_the_options_command(rig, fake, players):
    alice, bob, _ = players
    await open_table(rig, GROUP, alice, [bob])
    [lobby] = table_messages(fake, GROUP)
    press = fake.press_button(GROUP, lobby.message_id, bob, text="Options")
    await fake.wait_for(lambda: press.answer is not None)
    assert "rounds=1" in press.answer["text"] and "/options" in press.answer["text"]
    fake.send_command(GROUP, alice, "/options rounds=3 ox=yes")
    await fake.wait_for(lambda: "rounds=3" in table_messages(fake, GROUP)[-1].text)
    assert "ox=yes" in table_messages(fake, GROUP)[-1].text
