"""The Discord adapter, driven as users would: real discord.py against the fake Discord.

Each test runs `adapters.discord.app.TapisDiscord` on a real SQLite file and checks what
Discord users see: the channel's one table message, each player's DM hand, the
ephemeral answers only they can read.
"""

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.discord.app import TapisDiscord
from adapters.discord.sink import content_of, with_result
from bot import present
from bot.clock import FakeClock
from bot.i18n import t
from bot.render import Rendering, decode_payload
from bot.settings import Settings
from db.sqlite import SqliteRepository
from tests.fakes.discord_api import FakeChannel, FakeDiscord, FakeInteraction, FakeMessage

pytestmark = pytest.mark.timeout(30)

HANDLERS = ("CommandTree-invoker", "discord.py: on_interaction")
MAX_STEPS = 400


class Harness:
    """One bot process: repository, client and tables; closable and restartable."""

    def __init__(self, fake: FakeDiscord, path: Path, *, channel_gap: float = 0.0,
                 **settings: Any) -> None:
        """`channel_gap`: the pause between two messages in a channel (`python -m bot`
        uses adapters.discord.sink.CHANNEL_GAP; none here, so tests run fast)."""
        self.fake = fake
        self.path = path
        self.channel_gap = channel_gap
        self.settings = Settings(
            _env_file=None, discord_token=fake.token, discord_guild_ids=[fake.guild.id],
            turn_deadline=0, bot_delay=0, default_lang="en", **settings)  # type: ignore[call-arg]
        self.clock = FakeClock()
        self._seeds = itertools.count(7)
        self.app: TapisDiscord | None = None
        self._stack: contextlib.AsyncExitStack | None = None

    async def open(self) -> TapisDiscord:
        stack = contextlib.AsyncExitStack()
        repo = SqliteRepository(str(self.path))
        await repo.open()
        stack.push_async_callback(repo.close)
        app = TapisDiscord(repo, self.settings, clock=self.clock,
                           seeds=lambda: next(self._seeds), channel_gap=self.channel_gap,
                           **self.fake.client_options())
        await stack.enter_async_context(self.fake.running(app))
        self.app, self._stack = app, stack
        return app

    async def close(self) -> None:
        if self._stack is not None:
            await self.quiet()
            await self._stack.aclose()
        self.app = self._stack = None

    async def restart(self) -> TapisDiscord:
        await self.close()
        return await self.open()

    @property
    def tables(self) -> Any:
        assert self.app is not None
        return self.app.tables

    async def quiet(self) -> None:
        """Wait until every interaction is handled and every delivery made."""
        for _ in range(100):
            busy = [t for t in asyncio.all_tasks()
                    if t.get_name() in HANDLERS and not t.done()]
            if busy:
                await asyncio.wait(busy)
                continue
            await self.tables.settle()
            await asyncio.sleep(0)
            if not any(t.get_name() in HANDLERS and not t.done() for t in asyncio.all_tasks()):
                return
        raise AssertionError("the bot never went quiet")

    async def done(self, interaction: FakeInteraction) -> FakeInteraction:
        await self.fake.wait_for(lambda: interaction.acknowledged, what="an answer")
        await self.quiet()
        return interaction

    async def slash(self, command: str, user: str, channel: Any = None,
                    **options: Any) -> FakeInteraction:
        return await self.done(await self.fake.slash(command, user=user, channel=channel,
                                                     options=options))

    async def click(self, message: FakeMessage, custom_id: str, user: str,
                    seen: str = "current") -> FakeInteraction:
        return await self.done(await self.fake.click(message, custom_id, user=user, seen=seen))

    def said_to(self, user: str) -> list[str]:
        return [m.content for m in self.fake.ephemerals(user)]


def table_messages(fake: FakeDiscord, channel: Any) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel)
            if m.author_id == fake.bot.id and m.webhook_id is None and m.content.startswith("**")]


def button(message: FakeMessage, action: str) -> str:
    for custom_id in message.custom_ids():
        decoded = decode_payload(custom_id)
        if decoded and decoded.action == action:
            return custom_id
    raise KeyError(f"no {action!r} button on {message.content!r}: {message.custom_ids()}")


def hand_of(h: Harness, user: str) -> FakeMessage | None:
    """The message that shows `user` their hand: their DM, else their latest ephemeral one."""
    dms = h.fake.dms(user)
    if dms:
        assert len(dms) == 1, f"{user} got {len(dms)} hand messages instead of one"
        return dms[0]
    shown = [m for m in h.fake.ephemerals(user) if any(
        (d := decode_payload(c)) and d.action.startswith("m:") for c in m.custom_ids())
        or m.content.startswith("**🂠")]
    return shown[-1] if shown else None


async def open_table(h: Harness, players: list[str], channel: Any = None,
                     options: str = "rounds=1", game: str = "ochs-esel") -> int:
    """The host opens with /newgame; others join by slash command or by button."""
    host, *others = players
    await h.slash("newgame", host, channel, game=game, options=options)
    for n, user in enumerate(others):
        if n % 2:
            [lobby] = table_messages(h.fake, channel or h.fake.channel)
            await h.click(lobby, button(lobby, "join"), user)
        else:
            await h.slash("join", user, channel)
    [lobby] = table_messages(h.fake, channel or h.fake.channel)
    await h.click(lobby, button(lobby, "start"), host)
    row = await h.tables.table_for_channel(str((channel or h.fake.channel).id))
    assert row is not None and row.status == "playing"
    return row.id


async def play_turn(h: Harness, table_id: int, players: list[str]) -> bool:
    """Whoever holds a live move button presses one (passing when allowed); False at the end."""
    live = await h.tables.live_table(table_id)
    if live.row.status != "playing":
        return False
    for user in players:
        hand = hand_of(h, user)
        if hand is None:
            continue
        live_buttons = [c for c in hand.custom_ids()
                        if (d := decode_payload(c)) and d.version == live.row.version
                        and d.action.startswith("m:")]
        if live_buttons:
            choice = next((c for c in live_buttons if c.endswith(".m:pass")), live_buttons[0])
            await h.click(hand, choice, user)
            return True
    raise AssertionError(f"nobody can move at version {live.row.version}: a hand is stale")


async def play_until(h: Harness, table_id: int, players: list[str],
                     stop: Callable[[], Any] = lambda: False) -> None:
    for _ in range(MAX_STEPS):
        if stop() or not await play_turn(h, table_id, players):
            return
    raise AssertionError("the game did not end within the bound")


def nobody_was_told_something_went_wrong(fake: FakeDiscord) -> bool:
    return not any("went wrong" in m.content for m in fake.messages.values())


async def test_four_players_play_a_whole_game_from_newgame_to_the_final_ranking(h, fake):
    players = ["alice", "bob", "carol", "erin"]
    table_id = await open_table(h, players)
    [table] = table_messages(fake, fake.channel)
    assert "Alice" in table.history[0]["content"] and table.edits >= 4
    assert [m.content.startswith("**🂠") for p in players for m in fake.dms(p)] == [True] * 4
    await h.click(table, button(table, "hand"), "bob")
    look = fake.ephemerals("bob")[-1]
    assert "Your hand:" in look.content and "in our private messages" in look.content
    assert look.custom_ids() == [] and len(fake.dms("bob")) == 1

    await play_until(h, table_id, players)

    live = await h.tables.live_table(table_id)
    assert live.row.status == "finished"
    assert table_messages(fake, fake.channel) == [table]  # edited in place, never reposted
    # The final ranking rides in the table's last edit: no message of its own.
    assert table.content == h.app.sink.table_content(table_id, present.table(live, "en"))
    assert "Game over." in table.content and button(table, "rematch")
    ranking = [m for m in fake.channel_messages(fake.channel) if "Final ranking" in m.content]
    assert ranking == [table] and all(p.capitalize() in table.content for p in players)
    for player in players:
        [hand] = fake.dms(player)
        assert hand.edits > 1 and not any(
            decode_payload(c).action.startswith("m:") for c in hand.custom_ids())
    assert nobody_was_told_something_went_wrong(fake)
    assert [r.status for r in fake.requests if r.status >= 400] == []


async def test_closed_dms_show_the_hand_ephemerally_explained_once_and_playable(h, fake):
    players = ["alice", "bob", "carol", "dave"]
    table_id = await open_table(h, players)
    warnings = [m for m in fake.channel_messages(fake.channel) if "can't send Dave" in m.content]
    assert len(warnings) == 1
    [table] = table_messages(fake, fake.channel)

    earlier = len(fake.ephemerals("dave"))
    await h.click(table, button(table, "hand"), "dave")
    [view, why] = fake.ephemerals("dave")[earlier:]
    assert view.content.startswith("**🂠") and "Your hand:" in view.content
    assert "DMs are closed" in why.content
    await h.click(table, button(table, "hand"), "dave")  # a second look: no second lecture
    assert sum("DMs are closed" in text for text in h.said_to("dave")) == 1

    dave_moves = 0

    def dave_moved_twice() -> bool:
        return dave_moves >= 2

    async def count_dave(interaction: FakeInteraction) -> None:
        nonlocal dave_moves
        if interaction.user_id == fake.dave.id and interaction.type == 3:
            dave_moves += 1

    for _ in range(MAX_STEPS):
        before = len(fake.interactions)
        if dave_moved_twice() or not await play_turn(h, table_id, players):
            break
        for inter in list(fake.interactions.values())[before:]:
            await count_dave(inter)
    assert dave_moves >= 2, "dave could not play through his ephemeral hand"
    assert fake.dms("dave") == []
    assert len([m for m in fake.channel_messages(fake.channel)
                if "can't send Dave" in m.content]) == 1
    assert sum("DMs are closed" in text for text in h.said_to("dave")) == 1
    assert nobody_was_told_something_went_wrong(fake)


async def test_stale_foreign_and_forged_presses_change_nothing_and_say_why(h, fake):
    players = ["alice", "bob", "carol", "erin"]
    table_id = await open_table(h, players)
    live = await h.tables.live_table(table_id)
    mover = players[live.game.to_act(live.state)[0]]
    hand = fake.dms(mover)[0]
    first, *_ = [c for c in hand.custom_ids() if decode_payload(c).action.startswith("m:")]
    outsider_press = await h.click(hand, first, "frank", seen="forged")
    assert "not playing at this table" in h.said_to("frank")[-1]
    assert (await h.tables.live_table(table_id)).row.version == 0

    await h.click(hand, first, mover)
    assert (await h.tables.live_table(table_id)).row.version == 1
    await h.click(hand, first, mover, seen="earlier")
    assert "out of date" in h.said_to(mover)[-1]
    await h.click(hand, "not-a-button-of-mine", mover, seen="forged")
    assert "isn't one of mine" in h.said_to(mover)[-1]
    assert (await h.tables.live_table(table_id)).row.version == 1
    assert outsider_press.response_type == 6  # acknowledged at once; the reason followed
    assert fake.ephemerals("frank")[-1].ephemeral
    assert nobody_was_told_something_went_wrong(fake)


async def test_a_rate_limit_mid_game_is_waited_out_and_nothing_is_lost(h, fake):
    players = ["alice", "bob", "carol", "erin"]
    table_id = await open_table(h, players)
    for _ in range(3):
        await play_turn(h, table_id, players)
    fake.fail_next("PATCH /channels/*/messages/*", retry_after=0.05, times=4)

    await play_until(h, table_id, players)

    assert [r.status for r in fake.requests if r.status == 429] == [429] * 4
    live = await h.tables.live_table(table_id)
    assert live.row.status == "finished"
    [table] = table_messages(fake, fake.channel)
    assert table.content == h.app.sink.table_content(table_id, present.table(live, "en"))
    assert sum("Final ranking" in m.content for m in fake.channel_messages(fake.channel)) == 1
    assert len(await h.tables.repo.moves(table_id)) == live.row.version


async def test_after_a_restart_the_same_table_and_hand_messages_are_edited(h, fake):
    players = ["alice", "bob", "carol", "erin"]
    table_id = await open_table(h, players)
    for _ in range(4):
        await play_turn(h, table_id, players)
    [table] = table_messages(fake, fake.channel)
    hands = {p: fake.dms(p)[0] for p in players}
    edits = table.edits

    await h.restart()
    await play_until(h, table_id, players)

    assert fake.identifies == 2
    assert (await h.tables.live_table(table_id)).row.status == "finished"
    assert table_messages(fake, fake.channel) == [table] and table.edits > edits
    assert {p: fake.dms(p) for p in players} == {p: [m] for p, m in hands.items()}
    assert sum("Final ranking" in m.content for m in fake.channel_messages(fake.channel)) == 1


async def test_an_expired_ephemeral_hand_asks_the_player_to_press_my_hand_again(h, fake):
    players = ["alice", "bob", "carol", "dave"]
    table_id = await open_table(h, players)
    [table] = table_messages(fake, fake.channel)
    await h.click(table, button(table, "hand"), "dave")
    live = await h.tables.live_table(table_id)
    dave_seat = players.index("dave")

    fake.clock.advance(15 * 60 + 1)
    h.clock.advance(15 * 60 + 1)
    await play_until(h, table_id, players,
                     stop=lambda: dave_seat in live.game.to_act(live.state))
    asked = [m for m in fake.channel_messages(fake.channel) if "expired" in m.content]
    assert len(asked) == 1 and asked[0].content.startswith(f"<@{fake.dave.id}>")
    assert "My hand" in asked[0].content

    await h.click(table, button(table, "hand"), "dave")
    fresh = hand_of(h, "dave")
    assert fresh is not None and "Your turn" in fresh.content
    before = live.row.version
    assert await play_turn(h, table_id, players)
    assert live.row.version == before + 1
    assert sum("DMs are closed" in text for text in h.said_to("dave")) == 1
    assert nobody_was_told_something_went_wrong(fake)


async def test_commands_are_synced_per_guild_and_a_thread_hosts_its_own_table(h, fake):
    names = {c["name"] for c in fake.commands(fake.guild)}
    assert names >= {"newgame", "join", "leave", "start", "play", "pass", "hand", "table",
                     "rules", "scores", "stats", "cancel", "kick", "lang", "help", "addbot"}
    assert fake.commands() == []
    assert [e.data["guild"] for e in fake.events if e.kind == "command_sync"] == [fake.guild.id]

    thread: FakeChannel = fake.thread
    await h.slash("newgame", "alice", fake.channel, game="ochs-esel")
    await h.slash("newgame", "bob", thread, game="the-game")
    await h.slash("join", "carol", thread)

    [in_thread] = table_messages(fake, thread)
    [in_channel] = table_messages(fake, fake.channel)
    assert "The Game" in in_thread.content and "Carol" in in_thread.content
    assert "Ochs" in in_channel.content and "Carol" not in in_channel.content
    assert "rejoint" in h.said_to("carol")[-1]  # carol's Discord speaks French
    await h.slash("start", "bob", thread)
    assert (await h.tables.table_for_channel(str(thread.id))).status == "playing"
    assert (await h.tables.table_for_channel(str(fake.channel.id))).status == "lobby"


async def test_commands_are_synced_globally_without_guild_ids(fake, tmp_path):
    harness = Harness(fake, tmp_path / "tapis.db")
    harness.settings.discord_guild_ids = []
    await harness.open()
    try:
        assert "newgame" in {c["name"] for c in fake.commands()}
        assert fake.commands(fake.guild) == []
    finally:
        await harness.close()


async def test_work_slower_than_discords_three_seconds_is_deferred_then_answered(
        h, fake, monkeypatch):
    monkeypatch.setattr("adapters.discord.app.ANSWER_WITHIN", 0.05)
    join = h.tables.join

    async def slow_join(*args: Any) -> Any:
        await asyncio.sleep(0.3)
        return await join(*args)

    monkeypatch.setattr(h.tables, "join", slow_join)
    await h.slash("newgame", "alice", game="ochs-esel")
    joined = await h.slash("join", "bob")

    assert joined.response_type == 5  # "thinking…", within the time Discord allows
    [answer] = [m for m in fake.ephemerals("bob") if m.interaction_id == joined.id]
    assert "You joined" in answer.content and not answer.loading


async def test_a_failure_inside_the_bot_reaches_the_user_as_one_plain_sentence(
        h, fake, monkeypatch):
    async def broken(*args: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(h.tables, "scores", broken)
    monkeypatch.setattr(h.tables, "press", broken)
    await h.slash("scores", "alice")
    await h.slash("newgame", "bob", game="ochs-esel")  # press is broken, commands are not
    [lobby] = table_messages(fake, fake.channel)
    await h.click(lobby, button(lobby, "join"), "carol")

    sorry = {"alice": "Something went wrong on my side; nothing was changed. Please try again.",
             "carol": t("fr", "discord.oops")}  # carol's Discord speaks French
    for user in ("alice", "carol"):
        [said] = [m for m in fake.ephemerals(user)]
        assert said.content == sorry[user]
    assert not any("fire" in m.content or "Traceback" in m.content
                   for m in fake.messages.values())


@pytest.mark.parametrize(("status", "code"), [(404, 10003), (403, 50001)])
async def test_a_deleted_or_forbidden_channel_closes_its_table(h, fake, status, code):
    players = ["alice", "bob", "carol", "erin"]
    table_id = await open_table(h, players)
    fake.fail_next("PATCH /channels/*/messages/*", status, code=code, times=10)
    fake.fail_next("POST /channels/*/messages", status, code=code, times=10)

    await play_turn(h, table_id, players)

    assert (await h.tables.live_table(table_id)).row.status == "closed"
    fake._failures.clear()


async def test_rights_given_back_in_the_channel_resume_its_table(h, fake):
    players = ["alice", "bob", "carol", "erin"]
    table_id = await open_table(h, players)
    fake.fail_next("PATCH /channels/*/messages/*", 403, code=50001, times=10)
    fake.fail_next("POST /channels/*/messages", 403, code=50001, times=10)
    await play_turn(h, table_id, players)
    assert (await h.tables.live_table(table_id)).row.status == "closed"
    version = (await h.tables.live_table(table_id)).row.version
    fake._failures.clear()

    await fake.dispatch("CHANNEL_UPDATE", fake.channel_payload(fake.channel), intent=1)
    for _ in range(100):
        if (await h.tables.live_table(table_id)).row.status == "playing":
            break
        await asyncio.sleep(0.02)
    await h.quiet()
    live = await h.tables.live_table(table_id)
    assert live.row.status == "playing" and live.row.version == version
    assert any("The table is back" in m.content
               for m in fake.channel_messages(fake.channel))
    await play_turn(h, table_id, players)  # and the game goes on
    assert live.row.version > version


async def test_play_suggests_only_the_players_legal_moves_and_refusals_stay_private(h, fake):
    players = ["alice", "bob", "carol", "erin"]
    table_id = await open_table(h, players)
    live = await h.tables.live_table(table_id)
    seat = live.game.to_act(live.state)[0]
    mover, idle = players[seat], players[(seat + 1) % 4]
    legal = {str(m) for m in live.game.legal_moves(live.state, seat)}

    typed = await h.done(await fake.autocomplete("play", user=mover, focused="move",
                                                 options={"move": ""}))
    waiting = await h.done(await fake.autocomplete("play", user=idle, focused="move",
                                                   options={"move": ""}))

    offered = [c["value"] for c in typed.autocomplete_choices or []]
    assert offered and set(offered) <= legal and len(offered) <= 25
    assert waiting.autocomplete_choices == []
    await h.slash("play", idle, move=offered[0])
    # Refusals speak the player's Discord language (the fake's carol runs hers in French).
    name = live.seats[seat].name
    expected = (f"Ce n'est pas votre tour : on attend {name}." if idle == "carol"
                else f"It's not your turn: waiting for {name}.")
    assert h.said_to(idle)[-1] == expected
    assert live.row.version == 0
    await h.slash("play", mover, move=offered[-1])
    assert live.row.version == 1
    assert not [m for m in fake.channel_messages(fake.channel) if "not your turn" in m.content]


async def test_the_host_kicks_and_a_member_who_manages_messages_may_cancel(h, fake):
    await h.slash("newgame", "alice", game="ochs-esel")
    await h.slash("join", "bob")
    await h.slash("join", "carol")
    await h.slash("kick", "bob", member=fake.carol)
    assert h.said_to("bob")[-1] == "Only the host or a channel admin can do that."
    await h.slash("kick", "alice", member=fake.carol)
    [lobby] = table_messages(fake, fake.channel)
    assert "Carol" not in lobby.content and "Bob" in lobby.content

    await h.slash("cancel", "bob")
    assert h.said_to("bob")[-1] == "Only the host or a channel admin can do that."
    await h.slash("cancel", "owner")  # the server owner may manage messages everywhere
    assert (await h.tables.table_for_channel(str(fake.channel.id))) is None
    assert "cancelled" in lobby.content


async def test_run_discord_serves_until_cancelled_and_then_closes(fake, tmp_path):
    from adapters.discord.app import run_discord

    settings = Harness(fake, tmp_path / "tapis.db").settings
    async with SqliteRepository(str(tmp_path / "tapis.db")) as repo:
        task = asyncio.create_task(run_discord(repo, settings))
        await fake.wait_for(lambda: fake.commands(fake.guild) and fake.identifies, what="login")
        helped = await fake.slash("help", user="alice")
        await fake.wait_for(lambda: helped.acknowledged, what="the help")
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    assert task.cancelled()
    assert "/newgame" in fake.ephemerals("alice")[-1].content
    assert [r.status for r in fake.requests if r.status >= 400] == []


async def test_a_hand_press_is_answered_by_the_new_hand_in_one_request(h, fake):
    players = ["alice", "bob", "carol"]
    table_id = await open_table(h, players)
    live = await h.tables.live_table(table_id)

    def move_buttons(user: str) -> list[str]:
        hand = hand_of(h, user)
        return [] if hand is None else [c for c in hand.custom_ids()
                                        if (d := decode_payload(c)) and d.action.startswith("m:")]

    user = next(u for u in players if move_buttons(u))
    hand = hand_of(h, user)
    before = len(fake.requests)
    press = await h.click(hand, move_buttons(user)[0], user)
    assert press.response_type == 7  # UPDATE_MESSAGE: the answer is the edited hand
    edits = [r for r in fake.requests[before:]
             if r.method == "PATCH" and r.path.endswith(f"/{hand.id}")]
    assert edits == []  # and the outbox did not edit it a second time
    assert "Your hand" in hand.content and live.row.version == 1
    assert not move_buttons(user)  # Ochs & Esel: after a move the turn has passed on


async def test_a_table_in_a_thread_that_got_archived_is_posted_again(h, fake):
    thread: FakeChannel = fake.thread
    players = ["alice", "bob", "carol"]
    table_id = await open_table(h, players, channel=thread)
    [first] = table_messages(fake, thread)
    thread.archived = True  # nobody spoke for a day: Discord archived the thread
    await play_turn(h, table_id, players)
    await h.quiet()
    assert not thread.archived
    tables = table_messages(fake, thread)
    assert len(tables) == 2 and tables[-1].id != first.id
    assert (await h.tables.live_table(table_id)).row.status == "playing"
    await play_until(h, table_id, players)
    assert (await h.tables.live_table(table_id)).row.status == "finished"


async def test_the_host_changes_options_with_the_options_command(h, fake):
    await h.slash("newgame", "alice", game="ochs-esel")
    await h.slash("options", "alice", options="rounds=2 ox=yes")
    assert "rounds=2, ox=yes" in h.said_to("alice")[-1]
    [lobby] = table_messages(fake, fake.channel)
    assert "rounds=2" in lobby.content and "ox=yes" in lobby.content
    await h.slash("options", "bob", options="rounds=9")
    assert "Only the host" in h.said_to("bob")[-1]


async def test_a_slow_my_hand_is_deferred_and_the_hand_still_arrives_editable(
        h, fake, monkeypatch):
    monkeypatch.setattr("adapters.discord.app.ANSWER_WITHIN", 0.05)
    players = ["alice", "bob", "dave"]  # dave's DMs are closed: his hand is ephemeral
    table_id = await open_table(h, players)
    pressed = h.tables.pressed

    async def slow_pressed(*args: Any) -> Any:
        await asyncio.sleep(0.3)  # e.g. the first load after a restart replays the log
        return await pressed(*args)

    monkeypatch.setattr(h.tables, "pressed", slow_pressed)
    [table] = table_messages(fake, fake.channel)
    press = await h.click(table, button(table, "hand"), "dave")
    assert press.response_type == 5  # deferred within Discord's window
    hand = hand_of(h, "dave")
    assert hand is not None and "Your hand:" in hand.content and not hand.loading
    monkeypatch.setattr(h.tables, "pressed", pressed)
    await play_until(h, table_id, players)  # and he plays through it to the end
    assert (await h.tables.live_table(table_id)).row.status == "finished"


async def test_a_signal_button_on_a_hand_out_of_turn_shows_on_the_table(h, fake):
    table_id = await open_table(h, ["alice", "bob"], game="the-game", options="first=1")
    live = await h.tables.live_table(table_id)
    assert live.game.to_act(live.state) == [0]  # Alice's turn: Bob signals meanwhile
    hand = hand_of(h, "bob")
    assert hand is not None
    await h.click(hand, button(hand, "s:signal A1 stop"), "bob")
    [table] = table_messages(fake, fake.channel)
    assert "✋ A1" in table.content and "(Bob)" in table.content
    assert live.state.signals[0][1] == "stop"
    assert live.game.to_act(live.state) == [0], "a signal does not take the turn"


def test_a_carried_result_outlives_old_narration_when_the_table_must_be_fitted():
    """Round results ride in the table message: fitting to 2,000 characters drops the
    oldest moves first, never the result, the newest move or whose turn it is."""
    old = [f"· Move {n}: {'x' * 60}" for n in range(40)]
    drawn = Rendering("🃏 Michigan — in play", ["Deal 2/4", "Turn: Bob", "Last moves:", *old,
                                                "· Bob played 7♠"],
                      narration=(3, 3 + len(old)))
    result = ["Deal 1 is over. A chip per card left:", "Alice −3 (total −3)"]

    content = content_of(with_result(drawn, result))

    assert len(content) <= 2000
    assert "Deal 1 is over" in content and "Alice −3 (total −3)" in content
    assert "Turn: Bob" in content and content.endswith("Bob played 7♠")
    assert "Move 0:" not in content and "Move 39:" in content
    assert content.index("Turn: Bob") < content.index("Deal 1 is over") < content.index("Last")
