"""What players read at the end of a game and in the lobby, on the real python-telegram-bot
against the fake Bot API: sentences that say what happened, in the chat's language."""

import pytest

from tests.adapters.telegram_rig import (
    GROUP,
    hand_messages,
    open_table,
    play_moves,
    table_messages,
)

pytestmark = pytest.mark.timeout(30)


async def test_a_lost_the_game_says_the_team_lost_on_the_table(rig, fake, players):
    alice, bob, carol = players
    table_id = await open_table(rig, GROUP, alice, [bob, carol], game="the-game")
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
    await play_moves(rig, table_id, players, limit=300)
    await fake.wait_for(lambda: fake.find(GROUP, contains="🏁"))
    await rig.tables.outbox.flush()

    live = await rig.tables.live_table(table_id)
    left = live.game.outcome(live.state).scores[0]
    assert left > 0  # playing the first button each time never beats The Game
    (table,) = table_messages(fake, GROUP)
    # Not "The Game won: 82 cards left", which reads as if the players had won.
    assert f"The team lost to The Game: {left} cards left" in table.text
    assert "won" not in table.text

