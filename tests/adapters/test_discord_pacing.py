"""Discord's channel limits with the pacing `python -m bot` uses: one request per move at
most in the table's channel, and never a 429."""

from pathlib import Path

import pytest

from adapters.discord.sink import CHANNEL_GAP
from tests.adapters.test_discord import Harness, button, play_until, table_messages
from tests.fakes.discord_api import FakeDiscord

pytestmark = pytest.mark.timeout(180)


@pytest.mark.parametrize("game", ["nix-fur-ungut", "ochs-esel"])
async def test_a_four_seat_game_costs_the_channel_at_most_one_request_per_move(
        tmp_path: Path, game: str) -> None:
    async with FakeDiscord(discord_like_limits=True) as fake:
        h = Harness(fake, tmp_path / "d.db", channel_gap=CHANNEL_GAP)
        await h.open()
        try:
            await h.slash("newgame", "alice", game=game, options="rounds=1")
            for _ in range(3):
                await h.slash("addbot", "alice")
            [lobby] = table_messages(fake, fake.channel)
            start = len(fake.requests)
            await h.click(lobby, button(lobby, "start"), "alice")
            row = await h.tables.table_for_channel(str(fake.channel.id))
            await play_until(h, row.id, ["alice"])
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
