"""The same fuzzing, through the real Telegram adapter and the fake Bot API: whatever is
typed or pressed, people read a sentence from the catalogue, never a trace, and a refusal
changes nothing."""

import asyncio
import html
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.adapters.telegram_rig import GROUP, Rig, open_table
from tests.fakes.telegram_api import FakeTelegram
from tests.reliability.checks import is_catalogue_sentence, row_state

FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
PLAIN = st.characters(blacklist_categories=("Cs", "Cc"))  # what a chat client can send
NOTATION = ["7 7 J", "pass", "single 7", "run3 4 5 6 super", "23 A1, 77 D2", "end",
            "lead H", "bid 3", "99", "-1", str(2**64), "D 5", "J J J J J"]
TEXT = st.one_of(st.text(PLAIN, max_size=60), st.text(PLAIN, min_size=300, max_size=1500),
                 st.sampled_from(NOTATION))
PAYLOAD = st.one_of(
    st.text(PLAIN, max_size=64),
    st.builds(lambda t, v, a: f"{t}.{v}.{a}",
              st.one_of(st.integers(-5, 2**64),
                        st.builds(lambda n, tag: f"{n}_{tag}", st.integers(-5, 2**64),
                                  st.text(PLAIN, min_size=10, max_size=10))),
              st.integers(-5, 2**64),
              st.sampled_from(["join", "start", "m:pass", "m:7 7", "rematch", "hand", "x"])),
)


class World:
    def __init__(self, fake: FakeTelegram, rig: Rig) -> None:
        self.fake, self.rig = fake, rig
        self.users = [fake.user(700 + i, name) for i, name in enumerate(["Ann", "Ben", "Cid"])]
        self.stranger = fake.user(799, "Eve")
        self.table_id = 0


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    # Telegram's flood rules 20 times faster, the limiter scaled alike: these tests send
    # dozens of commands into one group, a minute or more at Telegram's own pace.
    async with FakeTelegram(pace=0.05) as fake:
        rig = Rig(fake, tmp_path / "tg.db")
        await rig.start()
        w = World(fake, rig)
        fake.start_bot(w.stranger)
        w.table_id = await open_table(rig, GROUP, w.users[0], w.users[1:])
        fake.send_command(GROUP, w.users[0], "/start")
        for _ in range(200):  # the start arrives by long polling: wait until it is in play
            row = await rig.tables.table_for_channel(str(GROUP))
            if row is not None and row.status == "playing":
                break
            await asyncio.sleep(0.02)
        await rig.tables.settle()
        yield w
        await rig.stop()


def bot_texts(fake: FakeTelegram, chat: int) -> list[str]:
    return [m.text for m in fake.find(chat)]


async def settled(w: World) -> None:
    await w.rig.tables.settle()


@FUZZ
@given(text=TEXT, who=st.integers(0, 3))
async def test_typed_moves_are_played_or_refused_in_words(world, text, who):
    w = world
    user = [*w.users, w.stranger][who]
    before_rows, before_dm = row_state(w.rig.db), len(bot_texts(w.fake, user.id))
    before_calls = len(w.fake.calls)
    w.fake.send_command(GROUP, user, f"/play {text}")
    await w.fake.wait_for(lambda: any(c.method.lower() in {"sendmessage", "editmessagetext"}
                                      for c in w.fake.calls[before_calls:]), timeout=10)
    await settled(w)
    if row_state(w.rig.db) == before_rows:
        said = bot_texts(w.fake, user.id)[before_dm:]
        assert said, "a refused move got no answer"
        assert all(is_catalogue_sentence(html.unescape(s)) for s in said), said
    for chat in (GROUP, user.id):
        assert not any("Traceback" in s for s in bot_texts(w.fake, chat))


@FUZZ
@given(data=PAYLOAD, who=st.integers(0, 3))
async def test_forged_button_data_changes_nothing_and_is_answered(world, data, who):
    w = world
    user = [*w.users, w.stranger][who]
    table = [m for m in w.fake.find(GROUP) if m.text.startswith("🃏")][-1]
    before = row_state(w.rig.db)
    press = w.fake.press(GROUP, table.message_id, user, data, forged=True)
    await w.fake.wait_for(lambda: press.answer is not None, timeout=10)
    await settled(w)
    answer = press.answer or {}
    if answer.get("show_alert"):
        assert row_state(w.rig.db) == before
        assert is_catalogue_sentence(answer.get("text", "")), answer
    assert "Traceback" not in answer.get("text", "")


@FUZZ
@given(words=st.lists(TEXT, max_size=4))
async def test_newgame_with_any_words_opens_a_table_or_says_why(world, words):
    w = world
    chat = -1005550000 - len(w.fake.calls)  # a fresh group each time: no table there yet
    w.fake.add_chat(chat, "supergroup", title="fuzz")
    before = row_state(w.rig.db)
    before_calls = len(w.fake.calls)
    w.fake.send_command(chat, w.users[0], "/newgame " + " ".join(words))
    await w.fake.wait_for(lambda: any(c.method.lower() == "sendmessage"
                                      for c in w.fake.calls[before_calls:]), timeout=10)
    await settled(w)
    if row_state(w.rig.db) == before:
        said = bot_texts(w.fake, w.users[0].id) + bot_texts(w.fake, chat)
        assert said and is_catalogue_sentence(html.unescape(said[-1])), said[-1:]
