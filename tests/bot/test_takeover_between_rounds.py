"""Someone who /joins a game under way takes a bot's seat when the next round starts;
Michigan's rounds are its deals. The Game has none, and the last round has no next one:
there the join is refused at once, with the reason."""

import random

from bot.tables import Actor
from db.repository import PLAYING
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL
from tests.botplay import bot_move

DAVE = Actor("u9", "Dave")


async def _start_with_bots(harness, game, bots, options=()):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, game, ["deadline=off", *options])
    for _ in range(bots):
        await tables.add_bot(ALICE, CHANNEL)
    reply = await tables.start_game(ALICE, CHANNEL)
    await tables.settle()
    return await tables.live_table(reply.table_id)


async def test_a_michigan_join_takes_a_bots_seat_when_the_next_deal_starts(harness):
    live = await _start_with_bots(harness, "michigan", 2)
    queued = await harness.tables.join(BOB, CHANNEL)
    assert queued.ok
    assert queued.text == "You will take over a bot's seat when the next round starts."
    rng = random.Random(3)
    for _ in range(500):
        if live.seat_of(BOB.user_id) is not None or live.row.status != PLAYING:
            break
        seat = live.game.to_act(live.state)[0]
        assert not live.seats[seat].is_bot  # bots play at once (bot_delay=0)
        move = bot_move(live.game, live.state, seat, rng)
        assert (await harness.tables.play(ALICE, CHANNEL, str(move))).ok
        await harness.tables.settle()
    assert live.row.status == PLAYING, "the first deal should not end the game"
    seat = live.seat_of(BOB.user_id)
    assert seat is not None and not seat.is_bot
    assert live.row.settings.get("takeovers") == []
    assert harness.sink.said("Bob takes over the seat of 🤖")


async def test_the_game_has_no_rounds_so_a_join_mid_game_is_refused_and_says_why(harness):
    live = await _start_with_bots(harness, "the-game", 1)
    refused = await harness.tables.join(BOB, CHANNEL)
    assert not refused.ok
    assert refused.text == ("The Game has no rounds: its bots keep their seats until the "
                            "game ends. You can join the next one.")
    assert live.row.settings.get("takeovers", []) == []
    await harness.tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    refused = await harness.tables.join(BOB, CHANNEL)
    assert refused.text == ("The Game se joue sans manches : ses bots gardent leur place "
                            "jusqu'à la fin de la partie. Vous pourrez rejoindre la suivante.")


async def test_a_join_in_the_last_round_is_refused_at_once_and_nothing_is_queued(harness):
    live = await _start_with_bots(harness, "ochs-esel", 2, ["rounds=1"])
    refused = await harness.tables.join(BOB, CHANNEL)
    assert not refused.ok
    assert refused.text == ("This is the last round of Ochs & Esel: the bots keep their "
                            "seats until the game ends. You can join the next one.")
    assert live.row.settings.get("takeovers", []) == []
    await harness.tables.set_lang(BOB, CHANNEL, "de", personal=True)
    refused = await harness.tables.join(BOB, CHANNEL)
    assert refused.text == ("Das ist die letzte Runde von Ochs und Esel: Die Bots behalten "
                            "ihre Plätze bis zum Ende des Spiels. Beim nächsten Spiel "
                            "kannst du einsteigen.")


async def test_a_join_in_michigans_last_deal_is_refused_and_says_deal(harness):
    live = await _start_with_bots(harness, "michigan", 2)
    rng = random.Random(3)
    deals = live.game.view(live.state)["deals"]
    for _ in range(3000):
        if live.game.view(live.state)["deal"] == deals or live.row.status != PLAYING:
            break
        move = bot_move(live.game, live.state, live.game.to_act(live.state)[0], rng)
        assert (await harness.tables.play(ALICE, CHANNEL, str(move))).ok
        await harness.tables.settle()
    assert live.row.status == PLAYING and live.game.view(live.state)["deal"] == deals
    refused = await harness.tables.join(BOB, CHANNEL)
    assert not refused.ok
    assert refused.text == ("This is the last deal of Michigan: the bots keep their seats "
                            "until the game ends. You can join the next one.")
    assert live.row.settings.get("takeovers", []) == []


async def test_a_join_once_every_bot_seat_is_promised_is_refused_not_queued(harness):
    live = await _start_with_bots(harness, "ochs-esel", 2, ["rounds=2"])
    assert live.row.status == PLAYING
    assert (await harness.tables.join(BOB, CHANNEL)).ok
    assert (await harness.tables.join(CAROL, CHANNEL)).ok
    refused = await harness.tables.join(DAVE, CHANNEL)
    assert not refused.ok
    assert refused.text == ("Every bot seat at Ochs & Esel is already promised to someone "
                            "waiting for the next round. You can join the next game.")
    assert [w[0] for w in live.row.settings["takeovers"]] == [BOB.user_id, CAROL.user_id]
    again = await harness.tables.join(BOB, CHANNEL)  # asking again keeps Bob's place
    assert again.ok and again.text.startswith("You will take over")
    await harness.tables.set_lang(DAVE, CHANNEL, "fr", personal=True)
    refused = await harness.tables.join(DAVE, CHANNEL)
    assert refused.text.startswith("Chaque place de bot à Ochs & Esel est déjà promise")
