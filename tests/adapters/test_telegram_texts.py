"""What players read at the end of a game and in the lobby, on the real python-telegram-bot
against the fake Bot API: sentences that say what happened, in the chat's language."""

import re

import pytest

from tests.adapters.telegram_rig import (
    GROUP,
    hand_messages,
    open_table,
    play_moves,
    table_messages,
)

pytestmark = pytest.mark.timeout(30)


async def play_to_the_end(rig, fake, players, game: str) -> int:
    """Three people play a whole game, each pressing the first button of their hand."""
    alice, bob, carol = players
    table_id = await open_table(rig, GROUP, alice, [bob, carol], game=game)
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
    await play_moves(rig, table_id, players, limit=300)
    await fake.wait_for(lambda: fake.find(GROUP, contains="🏁"))
    await rig.tables.outbox.flush()
    return table_id


async def test_a_lost_the_game_says_the_team_lost_on_the_table(rig, fake, players):
    table_id = await play_to_the_end(rig, fake, players, "the-game")

    live = await rig.tables.live_table(table_id)
    left = live.game.outcome(live.state).scores[0]
    assert left > 0  # playing the first button each time never beats The Game
    (table,) = table_messages(fake, GROUP)
    # Not "The Game won: 82 cards left", which reads as if the players had won.
    assert f"The team lost to The Game: {left} cards left" in table.text
    assert "won" not in table.text


async def test_michigan_deal_summaries_say_they_count_cards_left_with_true_minus_signs(
        rig, fake, players):
    await play_to_the_end(rig, fake, players, "michigan chips=1")

    summaries = fake.find(GROUP, contains="is over. A chip per card left")
    assert len(summaries) == 3  # one a deal: each player deals once
    # The pay cards and antes also move chips: these lines are the cards left only, then
    # the chips each player holds after them.
    assert not fake.find(GROUP, contains="Chips won or paid this deal")
    text = "\n".join(m.text for m in summaries)
    assert "(total −" in text  # one chip each at the start: somebody ends below zero
    assert not re.search(r"-\d", text), text  # "−2 (total −8)", never "(total -8)"


async def test_a_finished_ochs_esel_table_shows_no_trick_waiting_for_a_lead(rig, fake, players):
    alice, bob, carol = players
    table_id = await open_table(rig, GROUP, alice, [bob, carol])
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
    await fake.wait_for(
        lambda: "Trick 1 · waiting for the lead" in table_messages(fake, GROUP)[0].text)
    await play_moves(rig, table_id, players, limit=300)
    await fake.wait_for(lambda: fake.find(GROUP, contains="Final ranking"))
    await rig.tables.outbox.flush()

    (table,) = table_messages(fake, GROUP)
    assert "Game over." in table.text
    assert "Trick " not in table.text and "waiting for the lead" not in table.text


async def test_a_french_lobby_shows_its_options_in_french(rig, fake, players):
    alice, bob, _ = players
    fake.set_admin(GROUP, alice)
    fake.send_command(GROUP, alice, "/lang fr")
    await fake.wait_for(lambda: fake.find(GROUP, contains="français"))
    await open_table(rig, GROUP, alice, [bob])

    (lobby,) = table_messages(fake, GROUP)
    assert "Options : rounds=1, ox=non, deadline=non" in lobby.text
    assert "off" not in lobby.text


async def test_scores_right_after_the_end_show_the_finished_games_ranking(rig, fake, players):
    alice, bob, carol = players
    await play_to_the_end(rig, fake, players, "ochs-esel rounds=1")
    ending = fake.find(GROUP, contains="Final ranking")[-1]

    fake.send_command(GROUP, bob, "/scores")
    answer = await fake.wait_for(lambda: [m for m in fake.find(GROUP, contains="Final ranking")
                                          if m.reply_to is not None])
    assert "No game is being played" not in answer[-1].text
    # The same ranking as the end-of-game message, every player with their score, and
    # their new ratings under it.
    ranking = ending.text[ending.text.index("Final ranking"):]
    assert answer[-1].text.endswith(ranking.split("\n", 1)[1])
    assert "New ratings:" in answer[-1].text
    assert all(p.first_name in answer[-1].text for p in (alice, bob, carol))

    # Also once the table is no longer in memory (a restart), until a new table opens.
    await rig.stop()
    await rig.start()
    fake.send_command(GROUP, carol, "/scores")
    await fake.wait_for(lambda: len([m for m in fake.find(GROUP, contains="Final ranking")
                                     if m.reply_to is not None]) == 2)
    fake.send_command(GROUP, alice, "/newgame nix")
    await fake.wait_for(lambda: fake.find(GROUP, contains="Nix für Ungut"))
    fake.send_command(GROUP, carol, "/scores")
    await fake.wait_for(lambda: fake.find(GROUP, contains="No game is being played")
                        or [c for c in fake.calls_to("sendMessage")
                            if "No game is being played" in str(c.params.get("text"))])
