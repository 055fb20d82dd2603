"""/newgame and /table where the bot may not write: Telegram refuses its messages there,
and a command is answered by a message, so the answer goes privately, to whoever opened
the bot; nothing is opened, not even for later."""

import html
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import t
from tests.adapters.conftest import PACE
from tests.adapters.telegram_rig import FORUM, GROUP, Rig, table_messages
from tests.fakes.telegram_api import FakeTelegram, FakeUser
from tests.reliability.checks import row_state


class World:
    def __init__(self, fake: FakeTelegram, rig: Rig, lang: str) -> None:
        self.fake, self.rig, self.lang = fake, rig, lang
        self.admin = fake.user(801, "Ann", language_code="en")
        self.host = fake.user(802, "Ben", language_code=lang)


@pytest.fixture(params=["en", "fr"])
async def world(request, tmp_path: Path) -> AsyncIterator[World]:
    async with FakeTelegram(pace=PACE) as fake:
        rig = Rig(fake, tmp_path / "tg.db")
        await rig.start()
        w = World(fake, rig, request.param)
        fake.add_chat(GROUP, "supergroup", title="Card night")
        fake.set_admin(GROUP, w.admin)
        yield w
        await rig.stop()


async def said_privately(w: World, user: FakeUser, command: str, chat: int = GROUP,
                         thread: int | None = None) -> list[str]:
    """What `user` reads in their private chat after typing `command` in the group."""
    before = len(w.fake.find(user.id))
    w.fake.send_command(chat, user, command, thread_id=thread)
    found = await w.fake.wait_for(lambda: w.fake.find(user.id)[before:], timeout=20)
    await w.rig.tables.settle()
    return [html.unescape(m.text) for m in found]


def cannot_post(w: World, where: str = "Card night") -> str:
    return t(w.lang, "cannot_post_here", chat=where)


async def assert_nothing_opened(w: World, before: object, chat: int = GROUP) -> None:
    await w.rig.tables.outbox.flush()
    assert row_state(w.rig.db) == before
    assert await w.rig.tables.table_for_channel(str(chat)) is None
    assert not w.fake.find(chat)
    assert not [c for c in w.fake.calls_to("sendMessage")
                if c.ok and c.chat_id == chat]


@pytest.mark.parametrize("how", ["restricted", "members_muted"])
async def test_newgame_where_the_bot_may_not_write_says_why_privately_and_opens_nothing(
        world, how):
    w, fake = world, world.fake
    if how == "restricted":
        fake.restrict_bot(GROUP, by=w.admin, can_send_messages=False)
    else:
        fake.set_permissions(GROUP, can_send_messages=False)
    fake.start_bot(w.host)
    await fake.wait_for(lambda: fake.find(w.host.id))
    before = row_state(w.rig.db)

    said = await said_privately(w, w.host, "/newgame ochs-esel")
    assert said == [cannot_post(w)]
    await assert_nothing_opened(w, before)
    said = await said_privately(w, w.host, "/table")
    assert said == [cannot_post(w)]
    await assert_nothing_opened(w, before)

    # The right given back: the same command opens the table, and nothing opened earlier
    # comes back with it.
    if how == "restricted":
        fake.add_bot(GROUP, by=w.admin)
    else:
        fake.set_permissions(GROUP, can_send_messages=True)
    fake.send_command(GROUP, w.host, "/newgame ochs-esel")
    (lobby,) = await fake.wait_for(lambda: table_messages(fake, GROUP), timeout=20)
    assert "Ochs" in lobby.text
    assert not fake.find(GROUP, contains=t(w.lang, "error_generic"))


async def test_newgame_from_someone_the_bot_cannot_reach_opens_nothing(world):
    """Telegram leaves the bot no way to answer there: no message in the group, none in
    private to someone who never opened the bot. Opening nothing is all it can do."""
    w, fake = world, world.fake
    fake.restrict_bot(GROUP, by=w.admin, can_send_messages=False)
    before = row_state(w.rig.db)
    fake.send_command(GROUP, w.host, "/newgame ochs-esel")
    await fake.wait_for_call("sendMessage", chat_id=w.host.id, timeout=20)
    await w.rig.tables.settle()
    await assert_nothing_opened(w, before)
    assert not fake.find(w.host.id)


async def test_newgame_in_a_closed_topic_says_why_privately_and_opens_nothing(world):
    w, fake = world, world.fake
    fake.close_topic(FORUM, 11, by=w.admin)
    fake.start_bot(w.host)
    await fake.wait_for(lambda: fake.find(w.host.id))
    before = row_state(w.rig.db)
    said = await said_privately(w, w.host, "/newgame ochs-esel", chat=FORUM, thread=11)
    assert said == [cannot_post(w, f"Chat {FORUM}")]
    assert row_state(w.rig.db) == before
    assert not fake.find(FORUM)

    fake.close_topic(FORUM, 11, by=w.admin, closed=False)
    fake.send_command(FORUM, w.host, "/newgame ochs-esel", thread_id=11)
    await fake.wait_for(lambda: table_messages(fake, FORUM, 11), timeout=20)
