"""The table's web page offered on Telegram (WEB_URL set): the hand message's `web_app`
button (Telegram allows it in a private chat only), the group's link to the Mini App, and
who may watch from the page (getChatMember). Nothing is offered when WEB_URL is unset."""

from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from adapters.web.auth import Person
from tests.adapters.telegram_rig import GROUP, Rig, hand_messages, start_with, table_messages

pytestmark = pytest.mark.timeout(30)

WEB = "https://tapis.example"


def buttons(message) -> list[dict]:
    return [b for row in (message.reply_markup or {}).get("inline_keyboard", []) for b in row]


async def test_the_hand_gets_a_web_app_button_and_the_group_a_mini_app_link(fake, players,
                                                                           tmp_path: Path):
    rig = Rig(fake, tmp_path / "tapis.db", web_url=WEB, telegram_miniapp="table")
    await rig.start()
    try:
        table_id = await start_with(rig, players, "/start")
        ref = await rig.tables.ref(table_id)
        alice = players[0]
        hand = await fake.wait_for(lambda: [m for m in hand_messages(fake, alice)
                                            if any("web_app" in b for b in buttons(m))])
        opens = [b for b in buttons(hand[-1]) if "web_app" in b]
        assert opens[0]["web_app"]["url"] == f"{WEB}/t/{quote(ref, safe='')}"
        assert opens[0]["text"]
        table = table_messages(fake, GROUP)[-1]
        links = [b for b in buttons(table) if "url" in b]
        assert links and links[0]["url"] == \
            f"https://t.me/{fake.bot_username}/table?startapp={ref}"
        assert not any("web_app" in b for b in buttons(table))  # refused in a group
    finally:
        await rig.stop()


async def test_nothing_is_offered_without_web_url(rig, fake, players):
    await start_with(rig, players, "/start")
    alice = players[0]
    hand = await fake.wait_for(lambda: hand_messages(fake, alice))
    everything = [b for m in [*hand, *table_messages(fake, GROUP)] for b in buttons(m)]
    assert everything and not any("web_app" in b or "url" in b for b in everything)


async def test_telegram_refuses_a_web_app_button_in_a_group_as_the_fake_does(fake):
    fake.add_chat(GROUP)
    markup = {"inline_keyboard": [[{"text": "Open", "web_app": {"url": f"{WEB}/t/x"}}]]}
    async with httpx.AsyncClient() as http:
        answer = await http.post(f"{fake.url}/bot{fake.token}/sendMessage",
                                 json={"chat_id": GROUP, "text": "x", "reply_markup": markup})
    assert answer.status_code == 400 and "BUTTON_TYPE_INVALID" in answer.text


async def test_a_page_spectator_must_be_a_member_of_the_tables_chat(rig, fake, players):
    table_id = await start_with(rig, players, "/start")
    assert rig.bot is not None
    member = fake.user(21, "Dora")
    fake.user(22, "Eve")  # known to Telegram, not in the group
    fake.set_member(GROUP, member)
    assert await rig.bot.web_member(Person("telegram", "21", "Dora"), table_id)
    assert not await rig.bot.web_member(Person("telegram", "22", "Eve"), table_id)
    # A session of another platform, or an id that is no Telegram id, is nobody here.
    assert not await rig.bot.web_member(Person("discord", "21", "Dora"), table_id)
    assert not await rig.bot.web_member(Person("telegram", "x", "?"), table_id)
