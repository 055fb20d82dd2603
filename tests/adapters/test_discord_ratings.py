"""Ratings on Discord: a rated game's new numbers in its final ranking, /leaderboard with
its options, /rating with a user option, refusals in words, and the commands' names in
the player's language; real discord.py against the fake Discord."""

import pytest

from tests.adapters.test_discord import button, play_until, table_messages

pytestmark = pytest.mark.timeout(60)


async def finished_game(h, fake) -> int:
    await h.slash("newgame", "alice", game="nix-fur-ungut", options="rounds=1")
    await h.slash("join", "bob")
    await h.slash("addbot", "alice")
    [lobby] = table_messages(fake, fake.channel)
    await h.click(lobby, button(lobby, "start"), "alice")
    row = await h.tables.table_for_channel(str(fake.channel.id))
    assert row is not None and row.status == "playing"
    await play_until(h, row.id, ["alice", "bob"])
    assert (await h.tables.live_table(row.id)).row.status == "finished"
    return row.id


async def test_a_server_plays_a_rated_game_and_asks_for_its_ratings(h, fake):
    table_id = await finished_game(h, fake)
    assert await h.tables.repo.table_community(table_id) == f"discord:{fake.guild.id}"
    shown = [m.content for m in fake.channel_messages(fake.channel)
             if "New ratings:" in m.content]
    assert shown and "Alice 1," in shown[-1] and "Bob 1," in shown[-1]

    await h.slash("rating", "alice", player=fake.bob)
    assert "Ratings of Bob in this group" in h.said_to("alice")[-1]
    await h.slash("rating", "bob")
    assert "Ratings of Bob" in h.said_to("bob")[-1]
    await h.slash("leaderboard", "bob", game="nix-fur-ungut")
    assert "Nobody is on the Nix für Ungut ladder" in h.said_to("bob")[-1]

    await h.slash("rating", "alice", player=fake.carol)
    assert "Carol has not played a rated game in this group" in h.said_to("alice")[-1]
    await h.slash("leaderboard", "alice", game="nix-fur-ungut", season="2026-Q9")
    assert "no season “2026-Q9”" in h.said_to("alice")[-1]
    await h.slash("leaderboard", "alice", season="x" * 20)
    assert "I don't know the game" in h.said_to("alice")[-1]
    assert not any("went wrong" in m.content for m in fake.messages.values())


async def test_the_ratings_commands_are_registered_with_localized_names(h, fake):
    found = {c["name"]: c for c in fake.commands(fake.guild)}
    assert found["leaderboard"]["name_localizations"]["fr"] == "classement"
    assert found["rating"]["name_localizations"]["de"] == "wertung"
    [player] = found["rating"]["options"]
    assert player["type"] == 6 and not player.get("required")  # a user, optional
    [game] = [o for o in found["leaderboard"]["options"] if o["name"] == "game"]
    assert {c["value"] for c in game["choices"]} == {
        "ochs-esel", "nix-fur-ungut", "michigan", "the-game"}
