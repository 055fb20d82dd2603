"""Ratings on Telegram: a finished game's new numbers in the group, /leaderboard and /rating
with the player named by a reply, a @username or a shown name, and the refusals, with the
real python-telegram-bot against the fake Bot API."""

import html

import pytest

from tests.adapters.telegram_rig import GROUP, hand_messages, open_table, play_with_bots

pytestmark = pytest.mark.timeout(60)

ELSEWHERE = -1005555555555


async def finished_game(rig, fake, alice, bob) -> int:
    table_id = await open_table(rig, GROUP, alice, [bob], game="nix rounds=1 deadline=off")
    fake.send_command(GROUP, alice, "/addbot")
    await fake.wait_for(lambda: len(rig.tables.in_memory(table_id).live.seats) == 3)
    fake.send_command(GROUP, alice, "/start")
    await fake.wait_for(lambda: hand_messages(fake, alice) and hand_messages(fake, bob))
    await play_with_bots(rig, table_id, [alice, bob])
    await fake.wait_for(lambda: fake.find(GROUP, contains="New ratings:"), timeout=20)
    return table_id


async def answer_in(fake, chat, before, timeout=10.0) -> str:
    found = await fake.wait_for(lambda: fake.find(chat)[before:], timeout=timeout)
    return html.unescape(found[-1].text)


async def asked(fake, chat, user, command, *, reply_to=None) -> str:
    before = len(fake.find(chat))
    fake.send_text(chat, user, command, reply_to=reply_to)
    return await answer_in(fake, chat, before)


async def refused(fake, user, command, chat=GROUP) -> str:
    """Refusals reach the asker privately."""
    before = len(fake.find(user.id))
    fake.send_text(chat, user, command)
    return await answer_in(fake, user.id, before)


async def test_a_group_plays_a_rated_game_and_asks_for_its_ratings(rig, fake):
    alice = fake.user(11, "Alice", username="ana_plays")
    bob = fake.user(12, "Bob")
    carol = fake.user(13, "Carol", username="carol_elsewhere")
    table_id = await finished_game(rig, fake, alice, bob)
    ranking = fake.find(GROUP, contains="New ratings:")[-1].text
    assert "Alice 1," in ranking and "Bob 1," in ranking
    # A group's table, rated for the group.
    assert await rig.tables.repo.table_community(table_id) == f"telegram:{GROUP}"

    first = fake.chat(GROUP).messages[0]  # Alice's /newgame
    by_reply = await asked(fake, GROUP, bob, "/rating", reply_to=first.message_id)
    assert "Ratings of Alice in this group" in by_reply and "Nix" in by_reply
    by_username = await asked(fake, GROUP, bob, "/rating @ana_plays")
    assert "Ratings of @ana_plays" in by_username
    by_name = await asked(fake, GROUP, alice, "/rating Bob")
    assert "Ratings of Bob" in by_name
    own = await asked(fake, GROUP, bob, "/rating")
    assert "Ratings of Bob" in own
    board = await asked(fake, GROUP, bob, "/leaderboard nix")
    assert "Nobody is on the Nix für Ungut ladder" in board  # listed after 3 games

    # Carol wrote in another group only: her @username names nobody here.
    fake.add_chat(ELSEWHERE)
    fake.start_bot(carol)
    fake.send_command(ELSEWHERE, carol, "/help")
    await fake.wait_for(lambda: fake.find(ELSEWHERE))
    assert "carol_elsewhere has not played a rated game in this group" in await refused(
        fake, bob, "/rating @carol_elsewhere")
    assert "no season “2026-Q9”" in await refused(fake, bob, "/leaderboard nix 2026-Q9")
    odd = await refused(fake, bob, "/leaderboard " + "<b>" * 900)
    assert "I don't know the game" in odd and len(odd) < 300
    private = await refused(fake, bob, "/leaderboard", chat=bob.id)
    assert "belongs to a group" in private
    assert "Rated here" not in private


async def test_the_menus_list_the_ratings_commands(rig, fake):
    menus = [c for key, c in fake.commands.items() if "all_group_chats" in key[0]]
    assert all({"leaderboard", "rating"} <= {c["command"] for c in menu} for menu in menus)
