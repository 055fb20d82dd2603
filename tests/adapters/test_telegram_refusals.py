"""Bad input through the real python-telegram-bot and the fake Bot API: each class is
refused with its own sentence in the person's language, nothing changes, and nobody
reads "Something went wrong"."""

import html
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import clean
from bot.i18n import t
from tests.adapters.conftest import PACE
from tests.adapters.telegram_rig import GROUP, Rig, open_table, table_messages
from tests.fakes.telegram_api import FakeTelegram, FakeUser
from tests.reliability.checks import row_state

DEEP = "[" * 1500 + "]" * 1500


class World:
    def __init__(self, fake: FakeTelegram, rig: Rig, lang: str) -> None:
        self.fake, self.rig, self.lang = fake, rig, lang
        self.host = fake.user(701, "Ann", language_code=lang)
        self.guest = fake.user(702, "Ben", language_code=lang)


@pytest.fixture(params=["en", "fr"])
async def world(request, tmp_path: Path) -> AsyncIterator[World]:
    async with FakeTelegram(pace=PACE) as fake:
        rig = Rig(fake, tmp_path / "tg.db")
        await rig.start()
        w = World(fake, rig, request.param)
        fake.set_admin(GROUP, w.host)
        await open_table(rig, GROUP, w.host, [w.guest], game="nix")
        await rig.tables.settle()
        yield w
        await rig.stop()


async def said_to(w: World, user: FakeUser, command: str, chat: int = GROUP) -> str:
    """What `user` reads privately after typing `command` (refusals go by DM)."""
    before = len(w.fake.find(user.id))
    w.fake.send_command(chat, user, command)
    found = await w.fake.wait_for(lambda: w.fake.find(user.id)[before:], timeout=20)
    await w.rig.tables.settle()
    return html.unescape(found[-1].text)


async def assert_refused(w: World, user: FakeUser, command: str, expected: str) -> None:
    before = row_state(w.rig.db)
    text = await said_to(w, user, command)
    assert text == expected
    assert row_state(w.rig.db) == before
    assert not w.fake.find(GROUP, contains=t(w.lang, "error_generic"))


async def test_deep_json_in_newgame_and_options_is_refused_in_words(world):
    w = world
    expected = t(w.lang, "option_value_too_long", key="board", max=clean.MAX_JSON_CHARS)
    await assert_refused(w, w.host, f"/options board={DEEP}", expected)
    w.fake.add_chat(-1005550001, "supergroup", title="other")
    before = row_state(w.rig.db)
    seen = len(w.fake.find(w.host.id))  # the refusal of /options above says the same
    w.fake.send_command(-1005550001, w.host, f"/newgame nix board={DEEP}")
    found = await w.fake.wait_for(
        lambda: [m for m in w.fake.find(w.host.id)[seen:] if html.unescape(m.text) == expected],
        timeout=20)
    await w.rig.tables.settle()
    assert found and row_state(w.rig.db) == before
    nested = "[" * 8 + "]" * 8
    await assert_refused(w, w.host, f"/options board={nested}",
                         t(w.lang, "option_value_too_deep", key="board",
                           max=clean.MAX_JSON_DEPTH))
    await assert_refused(w, w.host, "/options board={\"quad\":[" + "9" * 40 + ",0,0]}",
                         t(w.lang, "option_number_too_long", key="board",
                           max=clean.MAX_DIGITS))


@pytest.mark.parametrize("digit", ["²", "①"])
async def test_kick_with_a_unicode_digit_names_nobody(world, digit):
    w = world
    await assert_refused(w, w.host, f"/kick {digit}",
                         t(w.lang, "no_such_player", name=digit))


async def test_a_name_with_a_lone_surrogate_joins_cleaned(world):
    w = world
    odd = w.fake.user(703, "Eve\udc80\u202e", language_code=w.lang)
    w.fake.start_bot(odd)
    w.fake.send_command(GROUP, odd, "/join")
    lobby = await w.fake.wait_for(lambda: [m for m in table_messages(w.fake, GROUP)
                                           if "Eve" in m.text], timeout=20)
    assert "\u202e" not in lobby[-1].text
    live = await w.rig.tables.table_for_channel(str(GROUP))
    names = [s.name for s in await w.rig.repo.get_seats(live.id)]
    assert clean.name("Eve\udc80\u202e") in names
    assert not w.fake.find(odd.id, contains=t(w.lang, "error_generic"))


async def test_a_damaged_page_is_answered_with_the_storage_sentence(tmp_path):
    async with FakeTelegram(pace=PACE) as fake:
        rig = Rig(fake, tmp_path / "tg.db")
        await rig.start()
        ann = fake.user(701, "Ann")
        try:
            await open_table(rig, GROUP, ann, [])
            fake.send_command(ann.id, ann, "/mentions off", chat_type="private")
            await fake.wait_for(lambda: fake.find(ann.id, contains=t("en", "mentions_off")))
        finally:
            await rig.stop()
        with sqlite3.connect(rig.db) as db:
            (root,) = db.execute("SELECT rootpage FROM sqlite_master"
                                 " WHERE name = 'user_settings'").fetchone()
            (size,) = db.execute("PRAGMA page_size").fetchone()
        with open(rig.db, "r+b") as file:
            file.seek((root - 1) * size)
            file.write(b"\xff" * size)
        await rig.start()
        try:
            for command in ("/help", "/join", "/mentions on", "/table", "/kick 2"):
                # Said in the group, or privately as refusals are when the chat is open.
                seen = {(chat, m.message_id) for chat in (GROUP, ann.id)
                        for m in fake.find(chat)}
                fake.send_command(GROUP, ann, command)
                said = await fake.wait_for(
                    lambda s=seen: [m for chat in (GROUP, ann.id) for m in fake.find(chat)
                                    if (chat, m.message_id) not in s
                                    and html.unescape(m.text)
                                    == t("en", "storage_unavailable")], timeout=20)
                assert said, command
                for chat in (GROUP, ann.id):
                    assert not fake.find(chat, contains=t("en", "error_generic"))
        finally:
            await rig.stop()


@pytest.mark.parametrize("command", ["/newgame the-game", "/join", "/addbot", "/cancel",
                                     "/play 5", "/table", "/options rounds=3"])
async def test_a_table_command_in_a_private_chat_says_tables_are_played_in_groups(world,
                                                                                 command):
    """A lobby opened in a private chat could never start: its Start button and /start
    belong to private chats' own uses (a hand, a deep link)."""
    w = world
    before = row_state(w.rig.db)
    seen = len(w.fake.find(w.host.id))
    w.fake.send_command(w.host.id, w.host, command, chat_type="private")
    said = await w.fake.wait_for(lambda: w.fake.find(w.host.id)[seen:], timeout=20)
    await w.rig.tables.settle()
    assert [html.unescape(m.text) for m in said] == [t(w.lang, "group_only")]
    assert row_state(w.rig.db) == before
    assert not table_messages(w.fake, w.host.id)
