"""Bad input through the real discord.py and the fake Discord: deep JSON in /newgame and
/options, a name of control characters, each refused or cleaned in the person's language
(Carol's Discord runs in French), nobody told "Something went wrong"."""

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot import clean
from bot.i18n import t
from tests.adapters.test_discord import Harness, nobody_was_told_something_went_wrong
from tests.fakes.discord_api import FakeDiscord
from tests.reliability.checks import row_state

pytestmark = pytest.mark.timeout(60)

DEEP = "[" * 1500 + "]" * 1500


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with FakeDiscord() as fake:
        harness = Harness(fake, tmp_path / "tapis.db")
        await harness.open()
        yield harness
        await harness.close()


@pytest.mark.parametrize(("user", "lang"), [("alice", "en"), ("carol", "fr")])
async def test_deep_json_is_refused_in_words_in_newgame_and_options(h, user, lang):
    too_long = t(lang, "option_value_too_long", key="board", max=clean.MAX_JSON_CHARS)
    before = row_state(h.path)
    await h.slash("newgame", user, game="nix-fur-ungut", options=f"board={DEEP}")
    assert h.said_to(user)[-1] == too_long
    assert row_state(h.path) == before
    await h.slash("newgame", user, game="nix-fur-ungut")
    before = row_state(h.path)
    await h.slash("options", user, options="board=" + "[" * 8 + "]" * 8)
    assert h.said_to(user)[-1] == t(lang, "option_value_too_deep", key="board",
                                    max=clean.MAX_JSON_DEPTH)
    await h.slash("options", user, options="board={\"quad\":[" + "9" * 40 + ",0,0]}")
    assert h.said_to(user)[-1] == t(lang, "option_number_too_long", key="board",
                                    max=clean.MAX_DIGITS)
    assert row_state(h.path) == before
    assert nobody_was_told_something_went_wrong(h.fake)


async def test_a_name_of_control_and_bidi_characters_is_cleaned(h):
    odd = h.fake.add_user("Ev\u202ee\x07")
    h.fake.guild.members[odd.id] = []
    await h.slash("newgame", "alice", game="ochs-esel")
    await h.slash("join", odd)
    live = await h.tables.table_for_channel(str(h.fake.channel.id))
    names = [s.name for s in await h.tables.repo.get_seats(live.id)]
    assert names[-1] == clean.name("Ev\u202ee\x07") and names[-1].isprintable()
    assert nobody_was_told_something_went_wrong(h.fake)


@pytest.mark.parametrize(("user", "lang"), [("alice", "en"), ("carol", "fr")])
@pytest.mark.parametrize("denied", ["send_messages", "view_channel",
                                    "send_messages_in_threads"])
async def test_newgame_where_the_bot_cannot_post_says_so_and_opens_nothing(h, user, lang,
                                                                          denied):
    """Discord takes an interaction's answer whatever the bot's rights in the channel, so
    "table opened" would be read there while the table itself could never be posted."""
    fake = h.fake
    where = fake.thread if denied == "send_messages_in_threads" else fake.cards
    fake.deny_bot(fake.cards, discord.Permissions(**{denied: True}))
    before = row_state(h.path)
    await h.slash("newgame", user, where, game="ochs-esel")
    assert h.said_to(user)[-1] == t(lang, "discord.cannot_post")
    assert row_state(h.path) == before
    assert not [m for m in fake.channel_messages(where) if m.author_id == fake.bot.id
                and m.webhook_id is None]
    await h.slash("table", user, where)
    assert h.said_to(user)[-1] == t(lang, "discord.cannot_post")
    # Rights given back: the same command opens the table.
    fake.deny_bot(fake.cards, discord.Permissions.none())
    await h.slash("newgame", user, where, game="ochs-esel")
    assert h.said_to(user)[-1] == t(lang, "lobby_opened", game="Ochs & Esel")
    assert nobody_was_told_something_went_wrong(fake)
