"""The fake Telegram server against the real python-telegram-bot 22.8.

Each test runs the library as the adapter will (Application, long polling, handlers) so
that the adapter's own tests can trust what the fake shows and refuses.
"""

import asyncio
import datetime as dt
import json
import time

import aiohttp
import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, Forbidden, InvalidToken, RetryAfter
from telegram.ext import (
    AIORateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from tests.fakes.telegram_api import FakeTelegram, polling

pytestmark = pytest.mark.timeout(20)

GROUP = -1001234567890
FORUM = -1009876543210


@pytest.fixture
async def fake():
    # Without flood control: these tests check the fake's protocol (commands, buttons,
    # bodies) through a bare Application, which has no limiter and sends back to back.
    # Flood control, on by default, has tests of its own below.
    async with FakeTelegram(strict=False) as fake:
        yield fake


def play_keyboard() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("Play", callback_data="play:7")]])


async def pong(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(" ".join(["pong", *(context.args or [])]))


async def test_cmd_and_cmd_at_botname_reach_the_command_handler_in_a_group(fake):
    app = fake.application_builder().build()
    app.add_handler(CommandHandler("cmd", pong))
    alice = fake.user(1, "Alice", "alice")
    async with polling(app):
        fake.send_command(GROUP, alice, "/cmd one", chat_type="supergroup")
        fake.send_command(GROUP, alice, "/cmd@tapis_test_bot two")
        # Addressed to another bot in the same group: PTB must ignore it, which it can only
        # do if getMe told it our username.
        fake.send_command(GROUP, alice, "/cmd@other_bot three")
        fake.send_command(GROUP, alice, "/cmd four")
        await fake.wait_for(lambda: fake.find(GROUP, contains="pong four"))

    assert [m.text for m in fake.chat(GROUP).bot_messages] == ["pong one", "pong two", "pong four"]
    assert [c.method for c in fake.calls[:2]] == ["getMe", "deleteWebhook"]
    assert fake.unknown_calls == []


async def test_command_in_a_forum_topic_is_answered_in_that_topic(fake):
    app = fake.application_builder().build()
    app.add_handler(CommandHandler("cmd", pong))
    alice = fake.user(1, "Alice")
    async with polling(app):
        fake.send_command(FORUM, alice, "/cmd@tapis_test_bot", chat_type="supergroup", thread_id=42)
        reply = await fake.wait_for(lambda: fake.find(FORUM, contains="pong"))

    assert fake.chat(FORUM).is_forum
    assert reply[0].thread_id == 42
    assert fake.last_message(FORUM, thread_id=42).text == "pong"
    assert fake.calls_to("sendMessage")[0].params["message_thread_id"] == 42


async def test_button_press_reaches_the_callback_handler_and_its_answer_is_recorded(fake):
    async def offer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("Your turn", reply_markup=play_keyboard())

    async def played(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.data == "play:7"
        await query.answer("Played")
        await query.edit_message_text(f"Played by {query.from_user.first_name}")

    app = fake.application_builder().build()
    app.add_handler(CommandHandler("cmd", offer))
    app.add_handler(CallbackQueryHandler(played))
    alice, bob = fake.user(1, "Alice"), fake.user(2, "Bob")
    async with polling(app):
        fake.send_command(GROUP, alice, "/cmd")
        offered = (await fake.wait_for(lambda: fake.find(GROUP, contains="Your turn")))[0]
        assert offered.button_texts == ["Play"]
        press = fake.press_button(GROUP, offered.message_id, bob, "Play")
        await fake.wait_for(lambda: offered.text == "Played by Bob")

    assert press.answer is not None and press.answer["text"] == "Played"
    assert fake.calls_to("answerCallbackQuery")[0].params["callback_query_id"] == press.id
    # The edit did not repeat the keyboard, so Telegram removed it.
    assert offered.buttons == []
    assert [v.text for v in offered.history] == ["Your turn"]
    with pytest.raises(LookupError):
        fake.press(GROUP, offered.message_id, bob, "play:7")


async def test_bot_cannot_write_to_a_user_before_their_start_and_gets_the_deep_link(fake):
    received: list[list[str]] = []

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        received.append(list(context.args or []))
        assert update.effective_message is not None
        await update.effective_message.reply_text("Welcome")

    app = fake.application_builder().build()
    app.add_handler(CommandHandler("start", start))
    bob = fake.user(2, "Bob")
    async with polling(app):
        with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
            await app.bot.send_message(bob.id, "Your hand")
        fake.start_bot(bob, payload="join-ochs_esel-17")
        await fake.wait_for(lambda: fake.find(bob.id, contains="Welcome"))
        await app.bot.send_message(bob.id, "Your hand")
        fake.block(bob)
        with pytest.raises(Forbidden, match="bot was blocked by the user"):
            await app.bot.send_message(bob.id, "Your hand again")

    assert received == [["join-ochs_esel-17"]]
    assert [m.text for m in fake.chat(bob.id).bot_messages] == ["Welcome", "Your hand"]


async def test_edit_message_text_changes_what_users_see(fake):
    fake.add_chat(GROUP, title="Card table")
    async with fake.application_builder().build() as app:
        sent = await app.bot.send_message(
            GROUP, "<b>Trick</b> 1 &lt;3", parse_mode="HTML", reply_markup=play_keyboard()
        )
        await app.bot.edit_message_text(
            "Trick 2", GROUP, sent.message_id, reply_markup=play_keyboard()
        )
        with pytest.raises(BadRequest, match="Message is not modified"):
            await app.bot.edit_message_text(
                "Trick 2", GROUP, sent.message_id, reply_markup=play_keyboard()
            )
        await app.bot.edit_message_reply_markup(GROUP, sent.message_id)
        with pytest.raises(BadRequest, match="Can't parse entities"):
            await app.bot.send_message(GROUP, "I <3 cards", parse_mode="HTML")

    shown = fake.last_message(GROUP)
    assert shown.message_id == sent.message_id
    assert shown.text == "Trick 2"
    assert shown.buttons == []
    assert [v.text for v in shown.history] == ["Trick 1 <3", "Trick 2"]
    assert len(fake.chat(GROUP).messages) == 1


async def test_deleted_message_is_no_longer_shown(fake):
    fake.add_chat(GROUP)
    async with fake.application_builder().build() as app:
        first = await app.bot.send_message(GROUP, "Table open")
        await app.bot.send_message(GROUP, "Alice joined")
        await app.bot.delete_message(GROUP, first.message_id)
        with pytest.raises(BadRequest, match="Message to delete not found"):
            await app.bot.delete_message(GROUP, first.message_id)

    assert [m.text for m in fake.chat(GROUP).bot_messages] == ["Alice joined"]
    assert fake.chat(GROUP).message(first.message_id).deleted


async def test_retry_after_is_retried_by_the_rate_limiter_and_the_message_arrives_once(fake):
    fake.add_chat(GROUP)
    fake.fail_next("sendMessage", times=1, retry_after=1)
    app = fake.application_builder().rate_limiter(AIORateLimiter(max_retries=3)).build()
    async with app:
        started = time.monotonic()
        await app.bot.send_message(GROUP, "Trick won by Alice")
        waited = time.monotonic() - started

    assert [m.text for m in fake.chat(GROUP).bot_messages] == ["Trick won by Alice"]
    assert [c.status for c in fake.calls_to("sendMessage")] == [429, 200]
    assert [(e.chat_id, e.retry_after, e.reason) for e in fake.flood_events] == [
        (GROUP, 1, "injected")
    ]
    assert waited >= 1.0


async def test_group_limiter_refuses_the_21st_message_in_a_minute():
    async with FakeTelegram(strict=False, group_limit=20) as fake:  # new messages only
        fake.add_chat(GROUP)
        async with fake.application_builder().build() as app:
            for n in range(20):
                await app.bot.send_message(GROUP, f"Move {n}")
            with pytest.raises(RetryAfter):
                await app.bot.send_message(GROUP, "Move 20")

        assert len(fake.chat(GROUP).bot_messages) == 20
        assert fake.max_in_window(GROUP) == 20
        assert [e.reason for e in fake.flood_events] == ["group_limit"]
        assert fake.flood_events[0].retry_after >= 59


async def test_unknown_method_is_refused_with_404_and_recorded(fake):
    fake.add_chat(GROUP)
    async with fake.application_builder().build() as app:
        with pytest.raises(InvalidToken, match="Not Found"):
            await app.bot.send_dice(GROUP)

    assert [c.method for c in fake.unknown_calls] == ["sendDice"]
    assert fake.unknown_calls[0].status == 404


async def test_bot_commands_set_are_read_back(fake):
    async with fake.application_builder().build() as app:
        await app.bot.set_my_commands([("newgame", "Open a table"), ("join", "Take a seat")])
        commands = await app.bot.get_my_commands()
        with pytest.raises(BadRequest):
            await app.bot.set_my_commands([("NewGame", "capitals are refused")])

    assert [(c.command, c.description) for c in commands] == [
        ("newgame", "Open a table"),
        ("join", "Take a seat"),
    ]


async def test_callback_query_can_be_answered_only_once(fake):
    fake.add_chat(GROUP)
    async with fake.application_builder().build() as app:
        sent = await app.bot.send_message(GROUP, "Pick", reply_markup=play_keyboard())
        press = fake.press(GROUP, sent.message_id, fake.user(1, "Alice"), "play:7")
        await app.bot.answer_callback_query(press.id, "ok")
        with pytest.raises(BadRequest, match="Query is too old"):
            await app.bot.answer_callback_query(press.id, "again")


async def test_form_multipart_and_json_bodies_are_understood(fake):
    fake.add_chat(GROUP)
    url = f"{fake.base_url}{fake.token}/sendMessage"
    keyboard = {"inline_keyboard": [[{"text": "Play", "callback_data": "play:7"}]]}
    async with aiohttp.ClientSession() as session:
        form = {"chat_id": str(GROUP), "text": "form", "reply_markup": json.dumps(keyboard)}
        async with session.post(url, data=form) as response:
            assert response.status == 200
        multipart = aiohttp.FormData()
        multipart.add_field("chat_id", str(GROUP))
        multipart.add_field("text", "123")
        multipart.add_field("document", b"x", filename="x.txt")
        async with session.post(url, data=multipart) as response:
            assert response.status == 200
        body = {"chat_id": GROUP, "text": "json", "reply_markup": keyboard}
        async with session.post(url, json=body) as response:
            assert (await response.json())["result"]["reply_markup"] == keyboard

    messages = fake.chat(GROUP).bot_messages
    assert [m.text for m in messages] == ["form", "123", "json"]
    assert messages[0].reply_markup == keyboard == messages[2].reply_markup


async def test_application_and_fake_stop_quickly_without_leftover_tasks():
    async with FakeTelegram() as fake:
        app = fake.application_builder().build()
        app.add_handler(CommandHandler("cmd", pong))
        async with polling(app, timeout=10):
            fake.send_command(GROUP, fake.user(1, "Alice"), "/cmd")
            await fake.wait_for(lambda: fake.find(GROUP, contains="pong"))
            stopping = time.monotonic()
    assert time.monotonic() - stopping < 2.0
    assert asyncio.all_tasks() == {asyncio.current_task()}


async def test_telegram_limits_on_text_and_button_data_are_enforced(fake):
    fake.add_chat(GROUP)
    too_long_data = InlineKeyboardMarkup([[InlineKeyboardButton("Play", callback_data="x" * 65)]])
    async with fake.application_builder().build() as app:
        with pytest.raises(BadRequest, match="Button_data_invalid"):
            await app.bot.send_message(GROUP, "Pick", reply_markup=too_long_data)
        with pytest.raises(BadRequest, match="Message is too long"):
            await app.bot.send_message(GROUP, "x" * 4097)
        await app.bot.send_message(GROUP, "x" * 4096)

    assert [len(m.text) for m in fake.chat(GROUP).bot_messages] == [4096]


async def test_the_text_limit_counts_what_is_left_after_entity_parsing(fake):
    """4,096 characters as the user reads them: an entity is one, a link's address none."""
    fake.add_chat(GROUP)
    link = '<a href="tg://user?id=1">x</a>'
    async with fake.application_builder().build() as app:
        await app.bot.send_message(GROUP, "&amp;" * 4095 + link, parse_mode="HTML")
        with pytest.raises(BadRequest, match="Message is too long"):
            await app.bot.send_message(GROUP, "&#x27;" * 4096 + link, parse_mode="HTML")

    assert [len(m.text) for m in fake.chat(GROUP).bot_messages] == [4096]


async def test_a_bot_that_may_not_write_in_a_group_is_refused_as_telegram_does(fake):
    """Restricted (no can_send_messages), in a group where members may not write, or no
    longer a member: the bot's messages are refused, and getChatMember and getChat say
    why before it tries."""
    admin = fake.user(1, "Alice")
    fake.add_chat(GROUP, title="Cards")
    other = -1001111111111
    fake.add_chat(other)
    async with fake.application_builder().build() as app:
        bot_id = app.bot.id
        fake.restrict_bot(GROUP, by=admin, can_send_messages=False)
        with pytest.raises(BadRequest, match="Not enough rights to send text messages"):
            await app.bot.send_message(GROUP, "Table")
        member = await app.bot.get_chat_member(GROUP, bot_id)
        assert member.status == "restricted" and member.is_member
        assert not member.can_send_messages and member.can_send_polls

        fake.add_bot(GROUP, by=admin)  # a plain member again
        fake.set_permissions(GROUP, can_send_messages=False)
        with pytest.raises(BadRequest, match="Not enough rights to send text messages"):
            await app.bot.send_message(GROUP, "Table")
        assert (await app.bot.get_chat_member(GROUP, bot_id)).status == "member"
        chat = await app.bot.get_chat(GROUP)
        assert chat.permissions is not None and not chat.permissions.can_send_messages

        fake.add_bot(GROUP, by=admin, status="administrator")  # admins write anyway
        await app.bot.send_message(GROUP, "Table")

        fake.remove_bot(other, by=admin, status="left")
        with pytest.raises(Forbidden, match="bot is not a member of the supergroup chat"):
            await app.bot.send_message(other, "Table")
        with pytest.raises(Forbidden, match="bot is not a member"):  # nothing to ask there
            await app.bot.get_chat_member(other, bot_id)
        fake.remove_bot(other, by=admin)
        with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
            await app.bot.send_message(other, "Table")

    assert [m.text for m in fake.chat(GROUP).bot_messages] == ["Table"]


async def test_flood_control_is_on_by_default_and_counts_edits_one_a_second_per_chat():
    async with FakeTelegram() as fake:
        alice = fake.user(11, "Alice")
        fake.start_bot(alice)
        async with fake.application_builder().build() as app:
            sent = await app.bot.send_message(alice.id, "Your hand: 7 7 J")
            with pytest.raises(RetryAfter) as refused:
                await app.bot.edit_message_text("Your hand: 7", chat_id=alice.id,
                                                message_id=sent.message_id)
            await asyncio.sleep(1.05)
            await app.bot.edit_message_text("Your hand: 7", chat_id=alice.id,
                                            message_id=sent.message_id)
        assert refused.value.retry_after in (1, dt.timedelta(seconds=1))
        assert [e.reason for e in fake.flood_events] == ["chat_limit"]


async def test_strict_flood_control_counts_edits_in_the_groups_20_a_minute():
    async with FakeTelegram(strict=True) as fake:
        fake.chat_window = 0.0  # only the group's minute is under test here
        fake.add_chat(GROUP)
        async with fake.application_builder().build() as app:
            table = await app.bot.send_message(GROUP, "Move 0")
            for n in range(1, 20):
                await app.bot.edit_message_text(f"Move {n}", chat_id=GROUP,
                                                message_id=table.message_id)
            with pytest.raises(RetryAfter):
                await app.bot.edit_message_text("Move 20", chat_id=GROUP,
                                                message_id=table.message_id)
        assert [e.reason for e in fake.flood_events] == ["group_limit"]
        assert fake.flood_events[0].retry_after >= 59


async def test_a_button_answer_after_the_time_limit_is_too_old():
    async with FakeTelegram(callback_ttl=0.2) as fake:
        alice = fake.user(11, "Alice")
        fake.add_chat(GROUP)
        async with fake.application_builder().build() as app:
            sent = await app.bot.send_message(GROUP, "Table", reply_markup=play_keyboard())
            on_time = fake.press(GROUP, sent.message_id, alice, "play:7")
            late = fake.press(GROUP, sent.message_id, alice, "play:7")
            await app.bot.answer_callback_query(on_time.id, "Played")
            await asyncio.sleep(0.3)
            with pytest.raises(BadRequest, match=r"(?i)query is too old"):
                await app.bot.answer_callback_query(late.id, "Played")
        assert on_time.answer is not None and late.answer is None


async def test_flood_control_refuses_the_31st_message_in_a_second_over_all_chats():
    async with FakeTelegram() as fake:
        groups = [GROUP - n for n in range(31)]
        for group in groups:
            fake.add_chat(group)
        async with fake.application_builder().build() as app:
            for group in groups[:30]:
                await app.bot.send_message(group, "Table")
            with pytest.raises(RetryAfter):
                await app.bot.send_message(groups[30], "Table")
        assert [e.reason for e in fake.flood_events] == ["overall_limit"]
        assert len(fake.chat(groups[30]).bot_messages) == 0


async def test_a_paced_fake_keeps_the_rules_with_shorter_windows():
    async with FakeTelegram(pace=0.05) as fake:
        fake.add_chat(GROUP)
        async with fake.application_builder().build() as app:
            table = await app.bot.send_message(GROUP, "Move 0")
            with pytest.raises(RetryAfter):
                await app.bot.edit_message_text("Move 1", chat_id=GROUP,
                                                message_id=table.message_id)
            await asyncio.sleep(0.06)  # a twentieth of Telegram's second
            await app.bot.edit_message_text("Move 1", chat_id=GROUP, message_id=table.message_id)
        assert [e.reason for e in fake.flood_events] == ["chat_limit"]
        assert fake.chat(GROUP).message(table.message_id).text == "Move 1"
