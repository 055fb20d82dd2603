"""The fake Discord server answers the real discord.py as Discord would.

Each test runs a genuine `discord.Client` with a `CommandTree` and a `ui.View` against
tests/fakes/discord_api.py and checks what Discord users would see.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
import discord
import discord.gateway
import pytest
from discord import app_commands

from tests.fakes.discord_api import FakeDiscord

pytestmark = pytest.mark.timeout(20)


class DrawView(discord.ui.View):
    """A public table message with one button, as the adapter will post."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.pressed_by: list[int] = []

    @discord.ui.button(label="Draw", custom_id="draw", style=discord.ButtonStyle.primary)
    async def draw(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.pressed_by.append(interaction.user.id)
        button.disabled = True
        await interaction.response.edit_message(
            content=f"{interaction.user.name} drew a card", view=self
        )


class HandView(discord.ui.View):
    """A player's hand in their DM: pick a card from a select menu."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.picked: list[list[str]] = []

    @discord.ui.select(
        custom_id="card",
        options=[
            discord.SelectOption(label="7♥", value="7H"),
            discord.SelectOption(label="8♥", value="8H"),
        ],
    )
    async def card(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        self.picked.append(select.values)
        await interaction.response.send_message(f"You play {select.values[0]}", ephemeral=True)


@dataclass
class Bot:
    client: discord.Client
    tree: app_commands.CommandTree
    guild: discord.Object
    views: list[DrawView] = field(default_factory=list)
    errors: list[Exception] = field(default_factory=list)
    messages: list[discord.Message] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    waiting: asyncio.Event = field(default_factory=asyncio.Event)


def build_bot(fake: FakeDiscord) -> Bot:
    intents = discord.Intents.default()
    intents.message_content = True
    client = discord.Client(intents=intents, **fake.client_options())
    tree = app_commands.CommandTree(client)
    bot = Bot(client, tree, discord.Object(fake.guild.id))

    @tree.command(name="deal", description="Deal cards", guild=bot.guild)
    @app_commands.describe(cards="How many cards")
    async def deal(interaction: discord.Interaction, cards: int) -> None:
        await interaction.response.send_message(f"Your hand: {cards} cards", ephemeral=True)
        view = DrawView()
        bot.views.append(view)
        await interaction.followup.send(f"{interaction.user.name} was dealt {cards}", view=view)

    @tree.command(name="slow", description="Answers when the test allows it", guild=bot.guild)
    async def slow(interaction: discord.Interaction, defer: bool) -> None:
        try:
            if defer:
                await interaction.response.defer(thinking=True)
            bot.waiting.set()
            await bot.gate.wait()
            if defer:
                await interaction.followup.send("done")
            else:
                await interaction.response.send_message("done")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @tree.command(name="join", description="Join a game", guild=bot.guild)
    async def join(interaction: discord.Interaction, game: str) -> None:
        await interaction.response.send_message(f"joined {game}", ephemeral=True)

    @join.autocomplete("game")
    async def game_names(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["ochs_esel", "oh_hell", "president"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @client.event
    async def on_message(message: discord.Message) -> None:
        bot.messages.append(message)

    return bot


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    # Without the default Discord-like limits: these tests check the fake's protocol, and
    # those about rate limits declare the very limit they check.
    async with FakeDiscord(discord_like_limits=False) as server:
        yield server


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[Bot]:
    bot = build_bot(fake)
    async with fake.running(bot.client):
        await bot.tree.sync(guild=bot.guild)
        yield bot
    assert fake.unhandled == [], "the bot called routes the fake does not know"
    assert fake.server_errors == []


async def test_client_becomes_ready_and_sees_the_guild_its_channels_thread_and_members(
    fake: FakeDiscord,
) -> None:
    bot = build_bot(fake)
    async with fake.running(bot.client) as client:
        guild = client.get_guild(fake.guild.id)
        assert guild is not None and not guild.unavailable
        assert [c.name for c in guild.text_channels] == ["general", "cards"]
        thread = guild.get_thread(fake.thread.id)
        assert thread is not None and thread.parent_id == fake.cards.id
        assert guild.member_count == len(fake.guild.members)
        assert guild.me.guild_permissions.send_messages
        assert client.user is not None and client.user.id == fake.bot.id
        assert client.application_id == fake.application_id
        await fake.wait_for(lambda: fake.heartbeats >= 2, what="two heartbeats")
    assert fake.identifies == 1
    assert fake.unhandled == []


async def test_slash_command_answer_is_ephemeral_to_its_user_and_followup_is_public(
    fake: FakeDiscord, bot: Bot
) -> None:
    interaction = await fake.slash("deal", user="alice", options={"cards": 3})
    await fake.wait_for(lambda: interaction.followup_ids, what="the followup")

    assert interaction.response_type == 4
    assert [m.content for m in fake.ephemerals("alice")] == ["Your hand: 3 cards"]
    assert fake.ephemerals("bob") == []
    [public] = fake.channel_messages(fake.channel)
    assert public.content == "alice was dealt 3"
    assert [b["label"] for b in public.buttons()] == ["Draw"]
    assert not public.ephemeral


async def test_button_press_reaches_the_view_and_the_message_is_edited(
    fake: FakeDiscord, bot: Bot
) -> None:
    interaction = await fake.slash("deal", user="alice", options={"cards": 2})
    await fake.wait_for(lambda: interaction.followup_ids, what="the followup")
    [public] = fake.channel_messages(fake.channel)

    press = await fake.click(public, "draw", user="bob")
    await fake.wait_for(lambda: press.acknowledged, what="the button answer")

    assert bot.views[0].pressed_by == [fake.bob.id]
    assert press.response_type == 7
    assert public.edits == 1
    assert public.content == "bob drew a card"
    assert public.component("draw")["disabled"] is True
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(public, "draw", user="carol")


async def test_thread_interaction_answers_in_the_thread(fake: FakeDiscord, bot: Bot) -> None:
    interaction = await fake.slash("deal", user="bob", channel=fake.thread, options={"cards": 1})
    await fake.wait_for(lambda: interaction.followup_ids, what="the followup")

    assert [m.content for m in fake.channel_messages(fake.thread)] == ["bob was dealt 1"]
    assert fake.channel_messages(fake.channel) == []
    assert fake.ephemerals("bob", fake.thread)[0].content == "Your hand: 1 cards"


async def test_dm_is_delivered_to_the_user(fake: FakeDiscord, bot: Bot) -> None:
    user = await bot.client.fetch_user(fake.carol.id)
    await user.send("Your hand: 7♥ 8♥")

    assert [m.content for m in fake.dms("carol")] == ["Your hand: 7♥ 8♥"]
    assert fake.requests_to("POST /users/@me/channels")


async def test_dm_to_a_user_with_closed_dms_raises_forbidden_50007(
    fake: FakeDiscord, bot: Bot
) -> None:
    user = await bot.client.fetch_user(fake.dave.id)
    with pytest.raises(discord.Forbidden) as refused:
        await user.send("Your hand")

    assert refused.value.code == 50007
    assert fake.dms("dave") == []


async def test_rate_limited_send_is_waited_out_and_arrives_exactly_once(
    fake: FakeDiscord, bot: Bot
) -> None:
    channel = bot.client.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.fail_next("POST /channels/*/messages", retry_after=0.3)

    started = time.monotonic()
    await channel.send("The table is open")

    assert time.monotonic() - started >= 0.3
    assert [m.content for m in fake.channel_messages(fake.channel)] == ["The table is open"]
    sends = fake.requests_to("POST /channels/{channel_id}/messages")
    assert [r.status for r in sends] == [429, 200]


async def test_declared_channel_limit_paces_sends_and_loses_none(
    fake: FakeDiscord, bot: Bot
) -> None:
    fake.rate_limit("POST /channels/{channel_id}/messages", 2, 0.3)
    channel = bot.client.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)

    started = time.monotonic()
    await asyncio.gather(*(channel.send(f"card {n}") for n in range(5)))

    # Two per window: the fifth message waits for the third window.
    assert time.monotonic() - started >= 0.6
    assert sorted(m.content for m in fake.channel_messages(fake.channel)) == [
        f"card {n}" for n in range(5)
    ]
    sends = fake.requests_to("POST /channels/{channel_id}/messages")
    assert [r.status for r in sends if r.status != 429] == [200] * 5


async def test_rate_limited_followup_is_retried(fake: FakeDiscord, bot: Bot) -> None:
    fake.fail_next("POST /webhooks/*", retry_after=0.1)
    interaction = await fake.slash("deal", user="alice", options={"cards": 3})
    await fake.wait_for(lambda: interaction.followup_ids, what="the followup")

    assert [m.content for m in fake.channel_messages(fake.channel)] == ["alice was dealt 3"]
    followups = fake.requests_to("POST /webhooks/{application_id}/{token}")
    assert [r.status for r in followups] == [429, 200]


async def test_guild_command_sync_is_recorded(fake: FakeDiscord) -> None:
    bot = build_bot(fake)
    async with fake.running(bot.client):
        synced = await bot.tree.sync(guild=bot.guild)

    assert sorted(c.name for c in synced) == ["deal", "join", "slow"]
    deal = next(c for c in fake.commands(fake.guild) if c["name"] == "deal")
    assert deal["options"][0]["name"] == "cards"
    assert deal["options"][0]["type"] == 4
    assert fake.commands() == []
    assert [r.status for r in fake.requests_to("PUT /applications/*/guilds/*/commands")] == [200]


async def test_unsynced_command_cannot_be_run(fake: FakeDiscord) -> None:
    bot = build_bot(fake)
    async with fake.running(bot.client):
        with pytest.raises(LookupError, match="sync"):
            await fake.slash("deal", user="alice", options={"cards": 1})


async def test_autocomplete_choices_are_recorded(fake: FakeDiscord, bot: Bot) -> None:
    interaction = await fake.autocomplete(
        "join", user="alice", focused="game", options={"game": "o"}
    )
    await fake.wait_for(lambda: interaction.acknowledged, what="the choices")

    assert interaction.response_type == 8
    assert [c["value"] for c in interaction.autocomplete_choices or []] == [
        "ochs_esel",
        "oh_hell",
    ]


async def test_answer_after_three_seconds_is_an_unknown_interaction(
    fake: FakeDiscord, bot: Bot
) -> None:
    interaction = await fake.slash("slow", user="alice", options={"defer": False})
    await asyncio.wait_for(bot.waiting.wait(), 5)
    fake.clock.advance(3.5)
    bot.gate.set()
    await fake.wait_for(lambda: bot.errors, what="the refusal")

    [error] = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert not interaction.acknowledged


async def test_followup_after_fifteen_minutes_is_refused_as_invalid_token(
    fake: FakeDiscord, bot: Bot
) -> None:
    interaction = await fake.slash("slow", user="alice", options={"defer": True})
    await asyncio.wait_for(bot.waiting.wait(), 5)
    [thinking] = fake.channel_messages(fake.channel)
    assert thinking.loading

    fake.clock.advance(15 * 60 + 1)
    bot.gate.set()
    await fake.wait_for(lambda: bot.errors, what="the refusal")

    [error] = bot.errors
    assert error.status == 401 and error.code == 50027
    assert interaction.response_type == 5
    assert thinking.loading


async def test_deferred_answer_is_filled_in_by_the_followup(fake: FakeDiscord, bot: Bot) -> None:
    interaction = await fake.slash("slow", user="alice", options={"defer": True})
    await asyncio.wait_for(bot.waiting.wait(), 5)
    bot.gate.set()
    await fake.wait_for(lambda: interaction.followup_ids, what="the followup")

    [answer] = fake.channel_messages(fake.channel)
    assert answer.content == "done"
    assert not answer.loading
    assert bot.errors == []


async def test_user_message_reaches_on_message(fake: FakeDiscord, bot: Bot) -> None:
    await fake.say(fake.cards, "anyone for a game?", user="bob")
    await fake.wait_for(lambda: any(m.author.id == fake.bob.id for m in bot.messages))

    [message] = [m for m in bot.messages if m.author.id == fake.bob.id]
    assert message.content == "anyone for a game?"
    assert message.channel.id == fake.cards.id


async def test_user_dm_to_the_bot_reaches_on_message(fake: FakeDiscord, bot: Bot) -> None:
    await fake.say(fake.dm_channel("carol"), "je joue", user="carol")
    await fake.wait_for(lambda: any(m.author.id == fake.carol.id for m in bot.messages))

    [message] = [m for m in bot.messages if m.author.id == fake.carol.id]
    assert message.content == "je joue"
    assert isinstance(message.channel, discord.DMChannel) and message.guild is None


async def test_message_over_2000_characters_is_refused_like_discord(
    fake: FakeDiscord, bot: Bot
) -> None:
    channel = bot.client.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)

    assert refused.value.status == 400 and refused.value.code == 50035
    assert fake.channel_messages(fake.channel) == []


async def test_session_resumes_after_a_dropped_connection(fake: FakeDiscord, bot: Bot) -> None:
    await fake.drop_connections()
    await fake.wait_for(lambda: fake.resumes == 1, timeout=10, what="the resume")

    interaction = await fake.slash("deal", user="alice", options={"cards": 4})
    await fake.wait_for(lambda: interaction.followup_ids, what="the followup")
    assert fake.identifies == 1


async def test_select_in_a_dm_reaches_the_view_with_the_picked_card(
    fake: FakeDiscord, bot: Bot
) -> None:
    view = HandView()
    user = await bot.client.fetch_user(fake.alice.id)
    await user.send("Your hand", view=view)
    [hand] = fake.dms("alice")

    pick = await fake.choose(hand, "card", ["8H"], user="alice")
    await fake.wait_for(lambda: pick.acknowledged, what="the answer to the pick")

    assert view.picked == [["8H"]]
    assert pick.guild_id is None
    assert [m.content for m in fake.ephemerals("alice")] == ["You play 8H"]
    with pytest.raises(ValueError, match="not among the options"):
        await fake.choose(hand, "card", ["JOKER"], user="alice")


async def test_uploaded_file_is_attached_to_the_message(fake: FakeDiscord, bot: Bot) -> None:
    channel = bot.client.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("The table", file=discord.File(io.BytesIO(b"png"), "table.png"))

    [message] = fake.channel_messages(fake.channel)
    assert message.content == "The table"
    assert message.attachments == ["table.png"]


async def test_edit_and_delete_of_a_channel_message_are_recorded(
    fake: FakeDiscord, bot: Bot
) -> None:
    channel = bot.client.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Round 1")
    await sent.edit(content="Round 2")
    [message] = fake.channel_messages(fake.channel)
    assert [v["content"] for v in message.history] == ["Round 1", "Round 2"]

    await sent.delete()
    assert fake.channel_messages(fake.channel) == []
    assert [e.kind for e in fake.events if e.data.get("id") == message.id] == [
        "message_create",
        "message_edit",
        "message_delete",
    ]


async def test_route_the_fake_does_not_know_is_recorded_as_unhandled(
    fake: FakeDiscord, bot: Bot
) -> None:
    with pytest.raises(discord.NotFound):
        await bot.client.http.request(discord.http.Route("GET", "/voice/regions"))
    assert [r.path for r in fake.unhandled] == ["/voice/regions"]
    fake.unhandled.clear()


async def test_thread_created_by_the_bot_appears_in_the_guild_and_takes_messages(
    fake: FakeDiscord, bot: Bot
) -> None:
    channel = bot.client.get_channel(fake.cards.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="table-2", type=discord.ChannelType.public_thread)
    await thread.send("Ochs & Esel: waiting for players")
    await fake.wait_for(lambda: channel.guild.get_thread(thread.id), what="THREAD_CREATE")

    assert fake.get_channel("table-2").parent_id == fake.cards.id
    assert [m.content for m in fake.channel_messages("table-2")] == [
        "Ochs & Esel: waiting for players"
    ]


# --- shards ---------------------------------------------------------------------------------


def _sharded(fake: FakeDiscord, name: str, count: int, ids: list[int],
             seen: list[tuple[str, int | None]]) -> tuple[discord.Client, app_commands.CommandTree]:
    intents = discord.Intents.none()
    intents.guilds = True
    client = discord.AutoShardedClient(intents=intents, shard_count=count, shard_ids=ids,
                                       **fake.client_options())
    tree = app_commands.CommandTree(client)

    @tree.command(name="deal", description="Deal cards")
    async def deal(interaction: discord.Interaction) -> None:
        seen.append((name, interaction.guild_id))
        await interaction.response.send_message(f"dealt by {name}", ephemeral=True)

    return client, tree


async def test_each_guilds_events_go_to_its_shard_only_and_dms_to_shard_zero(
    fake: FakeDiscord,
) -> None:
    members = [fake.user("alice"), fake.user("bob")]
    guilds = [fake.add_guild(f"g{i}", members, shard=(i % 2, 2)) for i in range(4)]
    channels = [fake.add_channel(guild, "cards") for guild in guilds]
    seen: list[tuple[str, int | None]] = []
    zero, tree = _sharded(fake, "zero", 2, [0], seen)
    one, _ = _sharded(fake, "one", 2, [1], seen)
    # Each process connects through its own address, as `python -m bot` processes would.
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = fake._gateway_url_via("zero")
    async with fake.running(zero):
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = fake._gateway_url_via("one")
        async with fake.running(one):
            await tree.sync()
            # Only the guilds of its shard were announced to each connection.
            for client, shard in ((zero, 0), (one, 1)):
                assert {g.id for g in client.guilds} == {
                    g for g in fake.guilds if (g >> 22) % 2 == shard}
            assert {guilds[0].id, guilds[2].id} <= {g.id for g in zero.guilds}
            assert fake.shard_connections() == {(0, 2): ["zero"], (1, 2): ["one"]}
            for channel in channels:
                inter = await fake.slash("deal", user="alice", channel=channel)
                await fake.wait_for(lambda i=inter: i.acknowledged)  # type: ignore[misc]
                assert inter.delivered_to == ("zero" if channel is channels[0]
                                              or channel is channels[2] else "one")
            assert seen == [("zero", guilds[0].id), ("one", guilds[1].id),
                            ("zero", guilds[2].id), ("one", guilds[3].id)]
            # A DM belongs to no guild: shard 0 alone gets it.
            inter = await fake.slash("deal", user="bob", channel=fake.dm_channel("bob"))
            await fake.wait_for(lambda: inter.acknowledged)
            assert inter.delivered_to == "zero" and seen[-1] == ("zero", None)
        # Shard 1's process is gone: its guilds' presses reach nobody; shard 0's still work.
        lost = await fake.slash("deal", user="alice", channel=channels[1])
        assert lost.delivered_to is None and fake.undelivered == [lost]
        await asyncio.sleep(0.2)
        assert not lost.acknowledged and seen[-1] == ("zero", None)
        kept = await fake.slash("deal", user="alice", channel=channels[2])
        await fake.wait_for(lambda: kept.acknowledged)
        assert kept.delivered_to == "zero"


async def _identify(fake: FakeDiscord, **fields: object) -> tuple[int | None, list[str]]:
    """A raw IDENTIFY: the close code the gateway answered with (None if it accepted it)
    and the events it sent."""
    events: list[str] = []
    async with aiohttp.ClientSession() as session, session.ws_connect(
            str(fake.gateway_url)) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1,
                                           "properties": {}, **fields}})
        while True:
            try:
                msg = await ws.receive(timeout=0.5)
            except TimeoutError:
                return None, events
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                return ws.close_code, events
            events.append(json.loads(msg.data)["t"])


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 3], ["0", 2], [True, 2], [0], "0,1"])
async def test_an_invalid_shard_is_refused_with_close_code_4010(
    fake: FakeDiscord, shard: object
) -> None:
    assert await _identify(fake, shard=shard) == (4010, [])
    assert fake.identifies == 0


async def test_too_many_guilds_on_one_connection_requires_sharding(fake: FakeDiscord) -> None:
    fake.max_guilds_per_shard = 2
    for i in range(3):
        fake.add_guild(f"g{i}", shard=(i % 2, 2))
    assert len(fake.guilds) == 4
    assert await _identify(fake) == (4011, [])
    code, events = await _identify(fake, shard=[1, 2])
    assert code is None and events[0] == "READY"
    assert events.count("GUILD_CREATE") == sum(1 for g in fake.guilds if (g >> 22) % 2 == 1)


async def test_gateway_bot_recommends_shards_and_counts_session_starts(
    fake: FakeDiscord,
) -> None:
    fake.guilds_per_shard = 2
    for i in range(4):
        fake.add_guild(f"g{i}")
    async with aiohttp.ClientSession() as session:
        async def gateway_bot() -> dict[str, object]:
            async with session.get(f"{fake.base_url_via('p7')}/gateway/bot",
                                   headers={"Authorization": f"Bot {fake.token}"}) as answer:
                assert answer.status == 200
                return dict(await answer.json())

        first = await gateway_bot()
        assert first["shards"] == 3  # five guilds, two a shard
        assert first["url"] == str(fake._gateway_url_via("p7")).rstrip("/")
        assert fake.requests[-1].sender == "p7"
        await _identify(fake, shard=[0, 3])
        second = await gateway_bot()
    limit = second["session_start_limit"]
    assert isinstance(limit, dict) and isinstance(first["session_start_limit"], dict)
    assert limit["remaining"] == first["session_start_limit"]["remaining"] - 1
    fake.session_starts = 0
    assert (await _identify(fake, shard=[0, 3]))[0] == 4000
