"""A person whose seat a bot takes (they left, ran out of time twice, or were kicked) no
longer sees their old hand inviting them to play: the hand message says a bot plays the
seat, and an old button of it says how to come back (a kicked player: that they cannot)."""

from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, person_at


def _move_buttons(hand):
    return [b for row in hand.rendering.buttons for b in row if b.action.startswith("m:")]


async def test_leaving_mid_game_closes_your_hand_message(harness):
    live = await harness.start_ochs()
    seat = live.game.to_act(live.state)[0]
    actor = person_at(live, seat)
    assert _move_buttons(harness.sink.hands[(live.id, actor.user_id)])
    version = live.row.version
    assert (await harness.tables.leave(actor, CHANNEL)).ok
    await harness.tables.settle()
    hand = harness.sink.hands[(live.id, actor.user_id)]
    assert not _move_buttons(hand)
    assert "A bot plays your seat" in hand.rendering.text
    assert "Your turn" not in hand.rendering.text
    # A button kept from the old hand message says why it no longer works.
    pressed = await harness.press_on_hand_kept(actor, live.id, seat, version, "m:pass")
    assert not pressed.ok and pressed.text == "A bot plays your seat now; /join to take it back."


async def test_a_bot_taking_an_absent_players_seat_closes_their_hand_message(harness):
    live = await harness.start_ochs("deadline=300")
    seat = live.game.to_act(live.state)[0]
    actor = person_at(live, seat)
    for _ in range(40):
        await harness.advance(301)
        if live.seats[seat].is_bot:
            break
    assert live.seats[seat].is_bot
    hand = harness.sink.hands[(live.id, actor.user_id)]
    assert not _move_buttons(hand)
    assert "A bot plays your seat" in hand.rendering.text
    # Coming back gives the hand and its buttons back.
    assert (await harness.tables.join(actor, CHANNEL)).ok
    await harness.tables.settle()
    hand = harness.sink.hands[(live.id, actor.user_id)]
    assert "A bot plays your seat" not in hand.rendering.text
    cards = " ".join(live.game.view(live.state, seat)["hand"])
    assert cards in hand.rendering.text  # as the bot left them, not as before it played


async def test_cancelling_a_game_closes_every_players_hand_message(harness):
    live = await harness.start_ochs()
    seat = live.game.to_act(live.state)[0]
    actor = person_at(live, seat)
    version = live.row.version
    assert (await harness.tables.cancel(ALICE, CHANNEL)).ok
    await harness.tables.settle()
    for person in (ALICE, BOB, CAROL):
        hand = harness.sink.hands[(live.id, person.user_id)]
        assert not hand.rendering.buttons
        assert "This table was cancelled." in hand.rendering.text
        assert "Your turn" not in hand.rendering.text
    pressed = await harness.press_on_hand_kept(actor, live.id, seat, version, "m:pass")
    assert not pressed.ok


async def test_a_player_kicked_mid_game_has_their_hand_message_closed(harness):
    live = await harness.start_ochs()
    seat = live.game.to_act(live.state)[0]
    victim = person_at(live, seat)
    assert _move_buttons(harness.sink.hands[(live.id, victim.user_id)])
    version = live.row.version
    assert (await harness.tables.kick(ADMIN, CHANNEL, victim.name)).ok
    await harness.tables.settle()
    hand = harness.sink.hands[(live.id, victim.user_id)]
    assert not hand.rendering.buttons
    # /join does not give a kicked player their seat back: the message does not offer it.
    text = hand.rendering.text
    assert "You were removed from this table" in text and "/join" not in text, text
    assert "Your turn" not in text
    assert not (await harness.tables.join(victim, CHANNEL)).ok
    # A button kept from the old hand message says the same, not "you are not playing".
    pressed = await harness.press_on_hand_kept(victim, live.id, seat, version, "m:pass")
    assert not pressed.ok
    assert pressed.text == "You were removed from this table; you can join the next one."
    typed = await harness.tables.play(victim, CHANNEL, "pass")
    assert typed.text == "You were removed from this table; you can join the next one."
