"""The table's web page offered on Discord (WEB_URL set): each player's own signed link on
the messages only they see (the DM hand, the ephemeral "My hand" answer), and a public
"Watch" link, with no token, on the table message. Nothing without WEB_URL."""

import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from adapters.discord.app import offer_page
from adapters.web.auth import Signer
from adapters.web.server import WebServer
from bot.i18n import t
from bot.web_view import Watchers
from tests.adapters.test_discord import Harness, button, open_table, table_messages

pytestmark = pytest.mark.timeout(60)

WEB = "https://tapis.example"


def links(message) -> list[str]:
    return [b["url"] for b in message.buttons() if b.get("style") == 5]


def labels(message) -> list[str]:
    return [b["label"] for b in message.buttons() if b.get("style") == 5]


async def test_hands_carry_the_players_own_link_and_the_table_a_public_watch(fake,
                                                                            tmp_path: Path):
    h = Harness(fake, tmp_path / "tapis.db", web_url=WEB)
    app = await h.open()
    server = WebServer({}, Watchers(), Signer(b"d" * 32), public_url=WEB)
    offer_page(app, server)
    try:
        players = ["alice", "bob", "carol", "dave"]  # Dave's DMs are closed
        table_id = await open_table(h, players)
        ref = await h.tables.ref(table_id)
        [table] = table_messages(fake, fake.channel)
        [watch] = links(table)
        assert watch == f"{WEB}/t/{ref}" and "token" not in watch  # the public view only
        assert labels(table) == ["👀 Watch"]
        for player in ("alice", "bob", "carol"):
            [hand] = fake.dms(player)
            [own] = links(hand)
            lang = await h.tables.lang_of(str(getattr(fake, player).id))
            assert labels(hand) == [t(lang, "web_open")]  # in the player's own language
            token = parse_qs(urlsplit(own).query)["token"][0]
            link = server.signer.check_link(token, table_id, time.time())
            assert link.person.user_id == str(getattr(fake, player).id)
        # Dave asks for his hand: the ephemeral answer, his alone, carries his link.
        await h.click(table, button(table, "hand"), "dave")
        shown = [m for m in fake.ephemerals("dave") if links(m)]
        token = parse_qs(urlsplit(links(shown[-1])[0]).query)["token"][0]
        assert server.signer.check_link(token, table_id, time.time()).person.user_id == \
            str(fake.dave.id)
        # No public message carries a player's token.
        public = [m for m in fake.channel_messages(fake.channel) if m.webhook_id is None]
        assert public and not any("token=" in url for m in public for url in links(m))
    finally:
        await h.close()


async def test_no_link_without_web_url(h, fake):
    table_id = await open_table(h, ["alice", "bob", "carol"])
    assert table_id
    everything = [*fake.channel_messages(fake.channel), *fake.dms("alice")]
    assert everything and not any(links(m) for m in everything)
