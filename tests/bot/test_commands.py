"""Commands as values: what an adapter hands to `commands.run` is what the person asked,
acted on at the table of the channel it was typed in, whatever the command names."""

from bot import commands
from bot.authority import RightsUnknown
from db.repository import LOBBY, PLAYING
from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, DAVE


async def test_a_table_is_opened_filled_and_started_through_commands_alone(harness):
    tables = harness.tables
    opened = await commands.run(tables, ALICE, CHANNEL, commands.NewGame(
        "ochs-esel", ["rounds=1", "deadline=off"], "Card room"))
    assert opened.ok and opened.text.startswith("Table for Ochs & Esel opened.")
    assert (await commands.run(tables, BOB, CHANNEL, commands.Join())).ok
    assert (await commands.run(tables, ALICE, CHANNEL, commands.AddBot())).ok
    started = await commands.run(tables, ALICE, CHANNEL, commands.Start())
    assert started.ok, started.text
    live = await tables.live_table(opened.table_id)
    assert live.row.status == PLAYING
    assert live.row.settings["title"] == "Card room"
    assert [s.name for s in live.seats][:2] == ["Alice", "Bob"] and live.seats[2].is_bot
    hand = await commands.run(tables, BOB, CHANNEL, commands.Hand())
    assert hand.ok and "Your hand" in hand.text
    assert (await commands.run(tables, CAROL, CHANNEL, commands.Hand())).text \
        == "You are not playing at this table."


async def test_a_command_acts_on_its_channels_table_only(harness):
    tables = harness.tables
    await commands.run(tables, ALICE, CHANNEL, commands.NewGame("ochs-esel"))
    elsewhere = await commands.run(tables, BOB, "chan-2", commands.Join())
    assert not elsewhere.ok and elsewhere.reason == "no_table"
    live = await tables.live_table((await tables.table_for_channel(CHANNEL)).id)
    assert [s.user_id for s in live.seats] == [ALICE.user_id]


async def test_a_lobby_command_from_someone_without_the_right_changes_nothing(harness):
    tables = harness.tables
    await commands.run(tables, ALICE, CHANNEL, commands.NewGame("ochs-esel", ["rounds=1"]))
    await commands.run(tables, BOB, CHANNEL, commands.Join())
    for asked in (commands.Start(), commands.AddBot(), commands.Cancel(),
                  commands.Kick(ALICE.user_id), commands.Options(["rounds=3"])):
        refused = await commands.run(tables, BOB, CHANNEL, asked)
        assert not refused.ok, asked
    row = await tables.table_for_channel(CHANNEL)
    assert row.status == LOBBY and row.options.get("rounds") == 1
    # A channel admin (as the platform says) may.
    assert (await commands.run(tables, ADMIN, CHANNEL, commands.Kick(BOB.user_id))).ok


async def test_moves_are_typed_and_judged_by_the_table(harness):
    live = await harness.start_ochs()
    tables = harness.tables
    mover = next(a for a in (ALICE, BOB, CAROL)
                 if live.seats[live.game.to_act(live.state)[0]].user_id == a.user_id)
    other = next(a for a in (ALICE, BOB, CAROL) if a != mover)
    version = live.row.version
    refused = await commands.run(tables, other, CHANNEL, commands.Play("pass"))
    assert not refused.ok
    nonsense = await commands.run(tables, mover, CHANNEL, commands.Play("zz top"))
    assert not nonsense.ok
    assert (await tables.live_table(live.id)).row.version == version


async def test_languages_and_mentions_are_set_by_command(harness):
    tables = harness.tables
    await commands.run(tables, ALICE, CHANNEL, commands.NewGame("ochs-esel"))
    mine = await commands.run(tables, BOB, CHANNEL, commands.Lang("fr", personal=True))
    assert mine.ok and await tables.lang_of(BOB.user_id) == "fr"
    refused = await commands.run(tables, BOB, CHANNEL, commands.Lang("de", personal=False))
    assert not refused.ok and await tables.channel_lang(CHANNEL) == "en"
    unknown = await commands.run(tables, BOB, CHANNEL, commands.Lang("xx", personal=True))
    assert not unknown.ok and await tables.lang_of(BOB.user_id) == "fr"
    off = await commands.run(tables, BOB, CHANNEL, commands.Mentions(False))
    assert off.ok and not (await tables.people.user_settings(BOB.user_id)).mentions


async def test_a_deep_link_seats_only_whom_the_platform_says_is_a_member(harness):
    tables = harness.tables
    opened = await commands.run(tables, ALICE, CHANNEL, commands.NewGame("ochs-esel"))
    ref = await tables.ref(opened.table_id)

    async def members(user_id: str, channel: str) -> bool:
        return channel == CHANNEL and user_id == BOB.user_id

    async def cannot_say(user_id: str, channel: str) -> bool:
        raise RightsUnknown

    private = "private-chat"
    assert not (await commands.run(tables, DAVE, private, commands.JoinLink(ref, members))).ok
    unknown = await commands.run(tables, CAROL, private, commands.JoinLink(ref, cannot_say))
    assert unknown.reason == "rights_unknown"
    # A link naming a table by a reference the bot never made.
    forged = ref[:-1] + ("A" if ref[-1] != "A" else "B")
    assert (await commands.run(tables, BOB, private, commands.JoinLink(forged, members))
            ).reason == "bad_link"
    live = await tables.live_table(opened.table_id)
    assert [s.user_id for s in live.seats] == [ALICE.user_id]
    assert (await commands.run(tables, BOB, private, commands.JoinLink(ref, members))).ok
    live = await tables.live_table(opened.table_id)
    assert [s.user_id for s in live.seats] == [ALICE.user_id, BOB.user_id]
