"""Discord: a press does only what its sender may do, as Discord says it (who pressed, on
which message, in which channel, with which permissions there), through the real
discord.py against the fake Discord."""

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.render import decode_payload
from tests.adapters.test_discord import (
    Harness,
    button,
    hand_of,
    open_table,
    play_until,
    table_messages,
)
from tests.fakes.discord_api import FakeChannel, FakeDiscord, FakeRole
from tests.reliability.checks import row_state

pytestmark = pytest.mark.timeout(60)

ELSEWHERE = "This button belongs to a table in another chat: it does nothing here."
ELSEWHERE_FR = ("Ce bouton appartient à une table d'une autre discussion : il ne fait rien "
                "ici.")


class World:
    """Alice's lobby in the test server's #general (Bob seated, a bot added); Erin, a
    moderator of her own server, has a table there, whose message she presses."""

    def __init__(self, bot: Harness, server: FakeDiscord, hers: FakeChannel) -> None:
        self.h, self.fake, self.hers = bot, server, hers

    async def forge(self, user: str, table_id: int, action: str, on=None) -> str:
        """`user` presses, on `on` (Erin's table message by default), a button they made
        up naming `table_id`; the ephemeral answer they read."""
        live = await self.h.tables.live_table(table_id)
        message = on or table_messages(self.fake, self.hers)[0]
        before = len(self.h.said_to(user))
        await self.h.click(message, f"{live.ref}.{live.row.version}.{action}", user,
                           seen="forged")
        said = self.h.said_to(user)
        assert len(said) > before, f"{user} was told nothing"
        return said[-1]


@pytest.fixture
async def world(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[World]:
    erin = fake.user("erin")
    other = fake.add_guild("Erin's place", [erin, fake.user("alice"), fake.user("bob")])
    moderator = FakeRole(fake.snowflake(), "mod", discord.Permissions(manage_messages=True), 1)
    other.roles.append(moderator)
    other.members[erin.id] = [moderator.id]
    hers = fake.add_channel(other, "her-table")
    bot = Harness(fake, tmp_path / "tapis.db")
    bot.settings = bot.settings.model_copy(
        update={"discord_guild_ids": [fake.guild.id, other.id]})
    await bot.open()
    await bot.slash("newgame", "alice", game="ochs-esel", options="rounds=1")
    await bot.slash("join", "bob")
    await bot.slash("addbot", "alice")
    await bot.slash("newgame", "erin", hers, game="ochs-esel")
    assert table_messages(fake, hers)
    yield World(bot, fake, hers)
    await bot.close()


async def alices_table(w: World) -> int:
    row = await w.h.tables.table_for_channel(str(w.fake.channel.id))
    return row.id


@pytest.mark.parametrize("action", ["join", "leave", "start", "addbot", "removebot",
                                    "options", "rematch", "hand"])
async def test_a_forged_lobby_press_in_another_server_changes_nothing(world, action):
    w = world
    table_id = await alices_table(w)
    before = row_state(w.h.path)
    assert await w.forge("erin", table_id, action) == ELSEWHERE
    # Even Alice, the host, cannot act on her table from another server's message.
    assert await w.forge("alice", table_id, action) == ELSEWHERE
    await w.h.quiet()
    assert row_state(w.h.path) == before


async def test_forged_game_presses_from_elsewhere_change_nothing(world):
    w = world
    table_id = await alices_table(w)
    [lobby] = table_messages(w.fake, w.fake.channel)
    await w.h.click(lobby, button(lobby, "start"), "alice")
    live = await w.h.tables.live_table(table_id)
    assert live.row.status == "playing"
    mover = {str(w.fake.user(n).id): n for n in ("alice", "bob")}[
        live.seats[live.game.to_act(live.state)[0]].user_id]
    hand = hand_of(w.h, mover)
    move = next(d.action for c in hand.custom_ids()
                if (d := decode_payload(c)) and d.action.startswith("m:"))
    before = row_state(w.h.path)
    for user in ("erin", mover):
        for action in (move, "hand", "rematch", "leave", "join"):
            assert await w.forge(user, table_id, action) == ELSEWHERE, (user, action)
    # In the mover's own DM, lobby buttons do nothing either: a DM acts only on a hand.
    for action in ("join", "leave", "start", "addbot", "rematch"):
        assert await w.forge(mover, table_id, action, on=hand) == ELSEWHERE, action
    # Another player's DM hand is not the mover's hand.
    other = "bob" if mover == "alice" else "alice"
    text = await w.forge(mover, table_id, move, on=hand_of(w.h, other))
    assert "not on your hand" in text
    await w.h.quiet()
    assert row_state(w.h.path) == before
    # The honest press on their own hand plays.
    await w.h.click(hand, next(c for c in hand.custom_ids()
                               if decode_payload(c).action == move), mover)
    assert (await w.h.tables.live_table(table_id)).row.version == 1


async def test_a_moderator_of_another_server_cannot_manage_this_lobby(world):
    w = world
    table_id = await alices_table(w)
    # Erin joins the test server without rights there: her own server's rights do not count.
    w.fake.guild.members[w.fake.user("erin").id] = []
    [lobby] = table_messages(w.fake, w.fake.channel)
    before = row_state(w.h.path)
    for action in ("start", "addbot", "removebot"):
        await w.h.click(lobby, button(lobby, action), "erin")
        assert "host" in w.h.said_to("erin")[-1], action
    await w.h.quiet()
    assert row_state(w.h.path) == before
    # A moderator of the table's own server may.
    await w.h.click(lobby, button(lobby, "removebot"), "owner")
    live = await w.h.tables.live_table(table_id)
    assert not any(s.is_bot for s in live.seats)


async def test_the_refusal_is_in_the_pressers_language(world):
    w = world
    table_id = await alices_table(w)
    await w.h.slash("lang", "erin", w.hers, language="fr")
    assert await w.forge("erin", table_id, "start") == ELSEWHERE_FR


async def test_a_rematch_leaves_out_whoever_left_the_server(h, fake):
    players = ["alice", "bob", "carol"]
    table_id = await open_table(h, players)
    await play_until(h, table_id, players)
    [table] = table_messages(fake, fake.channel)
    del fake.guild.members[fake.user("bob").id]  # Bob leaves the server
    # 503 (500 would be retried by discord.py, and then answered).
    fake.fail_next("GET /guilds/*/members/*", 503)
    await h.click(table, button(table, "rematch"), "alice")
    assert h.said_to("alice")[-1] == ("I couldn't check your rights just now; try again in a "
                                      "moment. Nothing was changed.")
    assert await h.tables.table_for_channel(str(fake.channel.id)) is None  # no new table
    await h.click(table, button(table, "rematch"), "alice")
    row = await h.tables.table_for_channel(str(fake.channel.id))
    live = await h.tables.live_table(row.id)
    assert row.id != table_id and live.row.status == "playing"
    assert sorted(s.user_id for s in live.seats if not s.is_bot) == sorted(
        str(fake.user(n).id) for n in ("alice", "carol"))
    # Discord itself said so: 404 Unknown Member for Bob.
    asked = fake.requests_to("GET /guilds/{guild_id}/members/{user_id}")
    assert [r.status for r in asked if r.path.endswith(str(fake.user("bob").id))][-1] == 404


async def test_an_ephemeral_hand_in_one_channel_cannot_play_at_another_channels_table(
        h, fake):
    # Dave's DMs are closed: his hands are ephemeral messages in each table's channel.
    here = await open_table(h, ["alice", "dave"], game="nix-fur-ungut")
    there = await open_table(h, ["bob", "dave"], channel=fake.cards, game="nix-fur-ungut")
    [table] = table_messages(fake, fake.channel)
    await h.click(table, button(table, "hand"), "dave")
    hand = hand_of(h, "dave")
    assert hand is not None and hand.ephemeral and hand.channel_id == fake.channel.id
    live = await h.tables.live_table(there)
    seat = live.game.to_act(live.state)[0]
    move = next(str(m) for m in live.game.legal_moves(live.state, seat))
    before = row_state(h.path)
    await h.click(hand, f"{live.ref}.{live.row.version}.m:{move}", "dave", seen="forged")
    assert h.said_to("dave")[-1] == ELSEWHERE
    await h.quiet()
    assert row_state(h.path) == before
    # His hand at the other table was not moved onto this channel's message.
    daves = live.seat_of(str(fake.user("dave").id))
    shown = h.tables.outbox.ref(there, f"hand:{daves.seat}")
    assert here != there and (shown is None or shown.message_id != str(hand.id))
