"""Discord's channel limits with the pacing `python -m bot` uses: one request per move at
most in the table's channel, and never a 429, whether people press as fast as their
screens allow or wait for every delivery after each move (then the round results and the
final ranking ride in the table's edits)."""

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from adapters.discord.sink import CHANNEL_GAP
from bot.render import decode_payload
from tests.adapters.test_discord import Harness, button, hand_of, play_until, table_messages
from tests.fakes.discord_api import FakeDiscord

pytestmark = pytest.mark.timeout(180)


PLAYERS = ["alice", "bob", "carol", "erin"]


async def play_at_once(h: Harness, table_id: int, players: list[str]) -> None:
    """Players press as soon as their hand shows a move, without waiting for the table."""
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        live = await h.tables.live_table(table_id)
        if live.row.status != "playing":
            return
        for user in players:
            hand = hand_of(h, user)
            moves = [c for c in (hand.custom_ids() if hand else [])
                     if (d := decode_payload(c)) and d.version == live.row.version
                     and d.action.startswith("m:")]
            if hand is not None and moves:
                choice = next((c for c in moves if c.endswith(".m:pass")), moves[0])
                pressed = await h.fake.click(hand, choice, user=user)
                await h.fake.wait_for(lambda p=pressed: p.acknowledged, what="an answer")
                break
        else:
            await asyncio.sleep(0.02)
    raise AssertionError("the game did not end in time")


@pytest.mark.parametrize(("game", "options", "play"), [
    ("nix-fur-ungut", "rounds=1", play_at_once), ("ochs-esel", "rounds=1", play_at_once),
    ("michigan", "chips=20", play_until)])
async def test_four_people_cost_the_channel_at_most_one_request_per_move(
        tmp_path: Path, game: str, options: str, play: Callable[..., Awaitable[None]]) -> None:
    async with FakeDiscord() as fake:
        for name in ("erin",):
            fake.guild.members[fake.add_user(name).id] = []
        h = Harness(fake, tmp_path / "d.db", channel_gap=CHANNEL_GAP)
        await h.open()
        try:
            await h.slash("newgame", "alice", game=game, options=options)
            for user in PLAYERS[1:]:
                await h.slash("join", user)
            [lobby] = table_messages(fake, fake.channel)
            start = len(fake.requests)
            await h.click(lobby, button(lobby, "start"), "alice")
            row = await h.tables.table_for_channel(str(fake.channel.id))
            await play(h, row.id, PLAYERS)
            await h.quiet()

            live = await h.tables.live_table(row.id)
            assert live.row.status == "finished"
            moves = len(await h.tables.repo.moves(row.id))
            in_channel = [r for r in fake.requests[start:]
                          if r.path.startswith(f"/channels/{fake.channel.id}/")]
            assert len(in_channel) <= moves, (len(in_channel), moves)
            assert [r for r in fake.requests if r.status == 429] == []
            assert "Rematch" in table_messages(fake, fake.channel)[-1].content or any(
                "rematch" in c for c in table_messages(fake, fake.channel)[-1].custom_ids())
        finally:
            await h.close()
