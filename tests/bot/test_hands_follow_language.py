"""A player's hand message is in the language they read privately: theirs if they chose
one, else the channel's. When an admin switches the channel's language mid-game, the
hands that follow the channel switch with the table message, at once."""

from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL


async def test_a_channel_switched_to_french_mid_game_redraws_the_hands_that_follow_it(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=2", "deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    await tables.set_lang(CAROL, CHANNEL, "en", personal=True)  # Carol reads English
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    await tables.settle()
    assert "Your hand" in harness.sink.hands[(table_id, ALICE.user_id)].rendering.text

    assert (await tables.set_lang(ADMIN, CHANNEL, "fr", personal=False)).ok
    await tables.settle()
    assert "en cours" in harness.sink.tables[table_id].rendering.text
    for person in (ALICE, BOB):
        hand = harness.sink.hands[(table_id, person.user_id)].rendering.text
        assert "Votre main" in hand and "Your hand" not in hand, hand
    # Carol chose English for herself: her hand stays as it is.
    assert "Your hand" in harness.sink.hands[(table_id, CAROL.user_id)].rendering.text
