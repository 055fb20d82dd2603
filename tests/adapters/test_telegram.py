"""The Telegram adapter: real python-telegram-bot against the fake Bot API, real SQLite."""

import json
import socket
import time

import aiohttp
import pytest

from db.repository import FINISHED, PLAYING
from engine import nix_fur_ungut
from tests.adapters.telegram_rig import (
    FORUM,
    GROUP,
    Rig,
    hand_messages,
    move_button,
    open_table,
    play_moves,
    start_with,
    table_messages,
)

pytestmark = pytest.mark.timeout(30)


async def start_game(rig, players) -> int:
    return await start_with(rig, players, "/start")


async def test_three_players_play_a_whole_game_by_pressing_their_hand_buttons(rig, fake,
                                                                              players):
    table_id = await start_game(rig, players)
    moves = await play_moves(rig, table_id, players, limit=300)

    ranking = await fake.wait_for(lambda: fake.find(GROUP, contains="Final ranking"))
    await rig.tables.outbox.flush()
    assert 0 < moves < 300
    assert all(p.first_name in ranking[0].text for p in players)
    assert (await rig.tables.live_table(table_id)).row.status == FINISHED
    # One table message, edited in place from the lobby to the end (moves made while the
    # group waits for its turn under the flood limits share an edit); one hand each.
    tables = table_messages(fake, GROUP)
    assert len(tables) == 1 and "Game over" in tables[0].text
    assert len(tables[0].history) > 2
    for player in players:
        hands = hand_messages(fake, player)
        assert len(hands) == 1 and "Game over" in hands[0].text and not hands[0].buttons
    commands = next(c for key, c in fake.commands.items() if "all_group_chats" in key[0])
    assert {"newgame", "join", "start", "play", "pass", "addbot", "kick", "lang"} <= {
        c["command"] for c in commands}
    assert fake.unknown_calls == []
    assert not [c for c in fake.calls if c.status == 500]


async def current_move(rig, players, table_id):
    """(player to act, their hand message, a move's callback data) for the table now."""
    live = await rig.tables.live_table(table_id)
    user = next(p for p in players
                if str(p.id) == live.seats[live.game.to_act(live.state)[0]].user_id)
    version = live.row.version
    message, data = await rig.fake.wait_for(lambda: move_button(rig.fake, user, table_id,
                                                                version))
    return user, message, data


async def test_a_player_who_never_started_the_bot_gets_a_deep_link_that_seats_them(rig, fake):
    alice, bob, carol = fake.user(11, "Alice"), fake.user(12, "Bob <b>"), fake.user(13, "Carol")
    fake.start_bot(alice)
    fake.send_command(GROUP, alice, "/newgame ochs-esel")
    lobby = (await fake.wait_for(lambda: table_messages(fake, GROUP)))[0]
    row = await rig.tables.table_for_channel(str(GROUP))

    fake.send_command(GROUP, bob, "/join")
    ref = await rig.tables.ref(row.id)
    link = f"https://t.me/tapis_test_bot?start=j{ref}"
    refusal = (await fake.wait_for(lambda: fake.find(GROUP, contains=link)))[0]
    assert "Bob <b>" in refusal.text  # escaped, shown as typed
    assert "Bob" not in lobby.text
    # Pressing Join without a private chat answers with the same link to open.
    press = fake.press_button(GROUP, lobby.message_id, carol, "Join")
    await fake.wait_for(lambda: press.answer is not None)
    assert press.answer["url"] == link

    fake.start_bot(bob, payload=f"j{ref}")
    await fake.wait_for(lambda: "Bob <b>" in lobby.text)
    await fake.wait_for(lambda: fake.find(bob.id, contains="You joined"))
    seats = (await rig.tables.live_table(row.id)).seats
    assert [s.name for s in seats] == ["Alice", "Bob <b>"]


async def test_a_stale_button_press_changes_nothing_and_is_answered_out_of_date(rig, fake,
                                                                                players):
    table_id = await start_game(rig, players)
    user, message, old = await current_move(rig, players, table_id)
    await play_moves(rig, table_id, players, limit=1)
    await rig.tables.outbox.flush()
    version = (await rig.tables.live_table(table_id)).row.version
    edits = len(fake.calls_to("editMessageText"))

    press = fake.press(user.id, message.message_id, user, old, stale=True)
    await fake.wait_for(lambda: press.answer is not None)
    await rig.tables.outbox.flush()

    assert press.answer["text"] == ("This message is out of date: the table has moved on and "
                                    "nothing was played. Check the table and try again.")
    assert press.answer["show_alert"] is True
    assert (await rig.tables.live_table(table_id)).row.version == version
    assert len(fake.calls_to("editMessageText")) == edits


async def test_a_forged_press_from_a_stranger_and_garbage_data_change_nothing(rig, fake,
                                                                              players):
    table_id = await start_game(rig, players)
    _, _, data = await current_move(rig, players, table_id)
    version = (await rig.tables.live_table(table_id)).row.version
    dave = fake.user(14, "Dave")
    table = table_messages(fake, GROUP)[0]
    await rig.tables.settle()  # the joins' confirmations may still wait for their chat's turn
    sends = len(fake.calls_to("sendMessage"))

    forged = [fake.press(GROUP, table.message_id, dave, data, forged=True)]
    forged += [fake.press(GROUP, table.message_id, dave, junk, forged=True)
               for junk in ("garbage", f"{await rig.tables.ref(table_id)}.{version}.m:",
                            "9" * 70, "1.1.start")]
    await fake.wait_for(lambda: all(p.answer is not None for p in forged))
    await rig.tables.outbox.flush()

    texts = [p.answer["text"] for p in forged]
    assert texts[0] == "You are not playing at this table."
    assert texts[1] == texts[3] == "That button isn't one of mine."
    assert all(p.answer["show_alert"] is True and len(p.answer["text"]) <= 200 for p in forged)
    assert (await rig.tables.live_table(table_id)).row.version == version
    assert len(fake.calls_to("sendMessage")) == sends


async def test_flood_429_mid_game_is_retried_and_no_message_is_lost(rig, fake, players):
    table_id = await start_game(rig, players)
    await play_moves(rig, table_id, players, limit=3)
    fake.fail_next("editMessageText", times=2, retry_after=1)
    fake.fail_next("sendMessage", times=1, retry_after=1)
    await play_moves(rig, table_id, players, limit=300)

    await fake.wait_for(lambda: fake.find(GROUP, contains="Final ranking"))
    await rig.tables.outbox.flush()
    assert [e.reason for e in fake.flood_events] == ["injected"] * 3
    assert len(fake.find(GROUP, contains="Final ranking")) == 1
    live = await rig.tables.live_table(table_id)
    assert live.row.status == FINISHED
    assert "Game over" in table_messages(fake, GROUP)[0].text
    for player in players:
        (hand,) = hand_messages(fake, player)
        assert "Game over" in hand.text


async def test_after_a_restart_mid_game_the_same_messages_are_edited(fake, tmp_path, players):
    rig = Rig(fake, tmp_path / "tapis.db")
    await rig.start()
    try:
        table_id = await start_game(rig, players)
        await play_moves(rig, table_id, players, limit=4)
        await rig.stop()
        table = table_messages(fake, GROUP)[0]
        hands = {p.id: hand_messages(fake, p)[0] for p in players}
        edits = len(table.history)

        await rig.start()
        assert (await rig.tables.live_table(table_id)).row.status == PLAYING
        await play_moves(rig, table_id, players, limit=300)
        await fake.wait_for(lambda: fake.find(GROUP, contains="Final ranking"))
    finally:
        await rig.stop()

    assert table_messages(fake, GROUP) == [table]
    assert len(table.history) > edits and "Game over" in table.text
    for player in players:
        assert hand_messages(fake, player) == [hands[player.id]]
        assert "Game over" in hands[player.id].text
    assert fake.unknown_calls == []
    assert not [c for c in fake.calls if c.status == 500]


async def test_each_forum_topic_has_its_own_table(rig, fake, players):
    alice, bob, carol = players
    first = await open_table(rig, FORUM, alice, [carol], thread=11)
    second = await open_table(rig, FORUM, bob, [], game="the-game", thread=22)

    assert first != second
    (lobby_11,) = table_messages(fake, FORUM, thread=11)
    (lobby_22,) = table_messages(fake, FORUM, thread=22)
    assert "Ochs" in lobby_11.text and "Carol" in lobby_11.text
    assert "Game" in lobby_22.text and "Carol" not in lobby_22.text
    assert (await rig.tables.table_for_channel(f"{FORUM}:22")).id == second
    fake.send_command(FORUM, carol, "/join", thread_id=22)
    await fake.wait_for(lambda: "Carol" in lobby_22.text)
    assert [s.name for s in (await rig.tables.live_table(first)).seats] == ["Alice", "Carol"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def command_update(update_id: int, user, text: str) -> dict:
    return {"update_id": update_id, "message": {
        "message_id": 500 + update_id, "from": user.to_api(), "date": int(time.time()),
        "chat": {"id": GROUP, "type": "supergroup", "title": "Cards"}, "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": text.find(" ")}]}}


async def test_webhook_mode_takes_only_updates_carrying_the_secret_token(fake, tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}/tapis-hook"
    rig = Rig(fake, tmp_path / "tapis.db", telegram_webhook_url=url,
              telegram_webhook_port=port, telegram_webhook_secret="s3cret-Token_1")
    await rig.start()
    try:
        alice = fake.user(11, "Alice")
        fake.add_chat(GROUP, title="Cards")
        assert fake.webhook["url"] == url and fake.webhook["secret_token"] == "s3cret-Token_1"
        statuses = []
        async with aiohttp.ClientSession() as session:
            for n, headers in enumerate([{"X-Telegram-Bot-Api-Secret-Token": "guess"}, {}]):
                body = json.dumps(command_update(n + 1, alice, "/newgame ochs-esel"))
                async with session.post(url, data=body, headers={
                        "Content-Type": "application/json", **headers}) as response:
                    statuses.append(response.status)
        fake.send_command(GROUP, alice, "/help")  # Telegram posts it with the secret
        await fake.wait_for(lambda: fake.find(GROUP, contains="Commands:"))
        assert await rig.tables.table_for_channel(str(GROUP)) is None
    finally:
        await rig.stop()

    assert statuses == [403, 403]
    assert fake.webhook_deliveries == [200]
    assert not fake.calls_to("getUpdates")


@pytest.mark.parametrize("typed", ["The Game first=2", "Nix für Ungut", "ochs ox rounds=2"])
async def test_a_game_named_in_several_words_opens_that_game(rig, fake, players, typed):
    """Telegram splits `/newgame The Game first=2` at spaces: the game is still The Game,
    its options the rest."""
    alice, bob, _ = players
    table_id = await open_table(rig, GROUP, alice, [bob], game=typed)
    live = await rig.tables.live_table(table_id)
    expected = {"The Game first=2": ("the-game", {"first": 2}),
                # A Nix table stores its whole board when it opens.
                "Nix für Ungut": ("nix-fur-ungut", nix_fur_ungut.opened_options({})),
                "ochs ox rounds=2": ("ochs-esel", {"ox": True, "rounds": 2})}[typed]
    assert (live.row.game, live.row.options) == expected
