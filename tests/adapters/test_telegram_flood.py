"""Telegram's flood limits, with the rate limiter exactly as `python -m bot` builds it.

The fake is strict here: one message or edit per second in a chat, 20 a minute in a
group (edits count), and a button answer later than its time limit is refused as "query
is too old". A whole game must get through without a single 429 and without one late
answer, and the group sees at most one request per move.
"""

import asyncio
import time
from pathlib import Path

import pytest

from adapters.telegram.limits import ChatPacer
from db.repository import FINISHED
from tests.adapters.telegram_rig import (
    GROUP,
    Rig,
    group_figures,
    open_table,
    play_with_bots,
    table_messages,
)
from tests.fakes.telegram_api import TOO_OLD, FakeTelegram, FakeUser

pytestmark = pytest.mark.timeout(400)

OTHER_GROUP = -1005555555555
# Easy bots: this is about the group's requests, not about the bots' strength (strong bots
# of The Game also signal out of turn, each signal a new table version to show).
GAMES = [("ochs-esel", "ochs-esel rounds=1 bots=easy"), ("the-game", "the-game bots=easy"),
         ("nix-fur-ungut", "nix rounds=1 bots=easy"), ("michigan", "michigan chips=10 bots=easy")]


async def play_one_game(rig: Rig, chat: int, user: FakeUser, command: str
                        ) -> dict[str, float]:
    """`user` opens a table of `command` in `chat`, adds three bots and plays to the end,
    pressing as soon as their hand shows their turn."""
    fake = rig.fake
    fake.add_chat(chat, "supergroup", title=command)
    table_id = await open_table(rig, chat, user, [], command)
    for _ in range(3):
        fake.send_command(chat, user, "/addbot")
    await fake.wait_for(lambda: "Players (4," in table_messages(fake, chat)[-1].text, 20)
    first_call = len(fake.calls)
    fake.send_command(chat, user, "/start")
    await fake.wait_for(lambda: any(m.text.startswith("🂠") for m in fake.find(user.id)), 20)
    await play_with_bots(rig, table_id, [user], settle=False)
    await rig.tables.settle()
    live = await rig.tables.live_table(table_id)
    assert live is not None and live.row.status == FINISHED
    assert "Rematch" in table_messages(fake, chat)[-1].button_texts
    return await group_figures(rig, table_id, first_call, chat)


async def test_every_game_runs_four_handed_under_telegrams_flood_limits_without_a_429(
        tmp_path: Path) -> None:
    """Four tables at once, one per game, each a person and three bots, on one bot."""
    async with FakeTelegram(strict=True) as fake:
        rig = Rig(fake, tmp_path / "t.db", production_limiter=True, ping_delay=20)
        bot = await rig.start()
        try:
            assert isinstance(bot.app.bot.rate_limiter, ChatPacer)  # as python -m bot builds
            results = await asyncio.gather(*[
                play_one_game(rig, GROUP - n, fake.user(601 + n, f"Player {n}"), command)
                for n, (_game, command) in enumerate(GAMES)])
            assert fake.flood_events == [], fake.flood_events
            assert not [c for c in fake.calls if TOO_OLD in (c.description or "")]
            assert all(p.answer is not None for p in fake.presses.values())
            for (game, _), figures in zip(GAMES, results, strict=True):
                assert figures["group_per_move"] <= 1.0, (game, figures)
                assert figures["group_per_min_max"] <= 20, (game, figures)
                # The table message caught up with the end of the game within seconds.
                assert figures["catch_up"] < 10.0, (game, figures)
        finally:
            await rig.stop()


async def test_a_flood_pause_in_one_group_does_not_hold_other_tables_button_answers(
        tmp_path: Path) -> None:
    """Telegram answers a group's message with 429 retry_after=8: that group waits, while a
    button pressed at another table is answered at once, well within its time limit."""
    async with FakeTelegram(strict=True, callback_ttl=4.0) as fake:
        rig = Rig(fake, tmp_path / "t.db", production_limiter=True)
        await rig.start()
        try:
            alice, bob = fake.user(601, "Alice"), fake.user(602, "Bob")
            carol, dan = fake.user(603, "Carol"), fake.user(604, "Dan")
            fake.add_chat(OTHER_GROUP, "supergroup", title="Other")
            await open_table(rig, GROUP, alice, [], "ochs-esel")
            await open_table(rig, OTHER_GROUP, carol, [], "ochs-esel")
            fake.start_bot(bob)
            fake.start_bot(dan)
            await rig.tables.settle()
            await asyncio.sleep(1.1)  # each lobby's chat is free again

            fake.fail_next("editMessageText", retry_after=8)
            fake.send_command(GROUP, bob, "/join")  # the group's lobby edit meets the 429
            await fake.wait_for(lambda: fake.flood_events, 10)
            other_lobby = table_messages(fake, OTHER_GROUP)[-1]
            pressed = time.monotonic()
            press = fake.press_button(OTHER_GROUP, other_lobby.message_id, dan, "Join")
            await fake.wait_for(lambda: press.answer is not None, 6)
            assert time.monotonic() - pressed < 2.0
            await fake.wait_for(lambda: "Dan" in table_messages(fake, OTHER_GROUP)[-1].text, 5)
            assert "Bob" not in table_messages(fake, GROUP)[-1].text  # still paused

            await fake.wait_for(lambda: "Bob" in table_messages(fake, GROUP)[-1].text, 15)
            assert [e.reason for e in fake.flood_events] == ["injected"]
        finally:
            await rig.stop()
