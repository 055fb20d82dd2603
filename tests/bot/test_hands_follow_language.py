"""A player's hand message is in the language they read privately: theirs if they chose
one, else their app's, else the channel's. When any of these changes mid-game (an admin
switches the channel, the player types /lang, their app turns to another language), the
hands that follow it are drawn again at once."""

from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, DAVE


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


async def test_a_player_choosing_french_in_private_redraws_their_hands_at_every_table(
        harness):
    tables = harness.tables
    elsewhere = "chan-2"
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=2", "deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    here = (await tables.start_game(ALICE, CHANNEL)).table_id
    await tables.new_game(DAVE, elsewhere, "ochs-esel", ["rounds=2", "deadline=off"])
    await tables.join(ALICE, elsewhere)
    await tables.join(BOB, elsewhere)
    there = (await tables.start_game(DAVE, elsewhere)).table_id
    await tables.settle()
    others = {(here, BOB.user_id), (here, CAROL.user_id),
              (there, BOB.user_id), (there, DAVE.user_id)}
    before = {key: harness.sink.hands[key] for key in others}
    drawn: list[tuple[int, str]] = []
    show_hand = harness.sink.show_hand

    async def counted(msg, ref):
        drawn.append((msg.table_id, msg.user_id))
        return await show_hand(msg, ref)

    harness.sink.show_hand = counted

    # Alice writes to the bot in private: her hands change language, nobody else's.
    assert (await tables.set_lang(ALICE, ALICE.user_id, "fr", personal=True)).ok
    await tables.settle()
    for table_id in (here, there):
        hand = harness.sink.hands[(table_id, ALICE.user_id)].rendering.text
        assert "Votre main" in hand and "Your hand" not in hand, hand
    assert sorted(drawn) == sorted([(here, ALICE.user_id), (there, ALICE.user_id)])
    for key in others:
        assert harness.sink.hands[key] is before[key], key
        assert "Your hand" in harness.sink.hands[key].rendering.text
    assert "in play" in harness.sink.tables[here].rendering.text


async def test_choosing_the_language_one_already_chose_redraws_no_hand(harness):
    tables = harness.tables
    await tables.set_lang(ALICE, ALICE.user_id, "fr", personal=True)
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=2", "deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    await tables.settle()
    hand = harness.sink.hands[(table_id, ALICE.user_id)]
    assert "Votre main" in hand.rendering.text

    assert (await tables.set_lang(ALICE, ALICE.user_id, "fr", personal=True)).ok
    await tables.settle()
    assert harness.sink.hands[(table_id, ALICE.user_id)] is hand


async def test_a_player_whose_app_turns_french_reads_their_hand_in_french(harness):
    tables = harness.tables
    tables.remember_locale(BOB.user_id, "en-US")
    tables.remember_locale(CAROL.user_id, "en-US")
    await tables.set_lang(CAROL, CAROL.user_id, "en", personal=True)  # Carol chose English
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=2", "deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(ALICE, CHANNEL)).table_id
    await tables.settle()
    assert "Your hand" in harness.sink.hands[(table_id, BOB.user_id)].rendering.text
    alice_before = harness.sink.hands[(table_id, ALICE.user_id)]

    # Bob's and Carol's apps now run in French: Bob follows his app, Carol her /lang.
    tables.remember_locale(BOB.user_id, "fr-FR")
    tables.remember_locale(CAROL.user_id, "fr-FR")
    await tables.settle()
    bob = harness.sink.hands[(table_id, BOB.user_id)].rendering.text
    assert "Votre main" in bob and "Your hand" not in bob, bob
    assert "Your hand" in harness.sink.hands[(table_id, CAROL.user_id)].rendering.text
    assert harness.sink.hands[(table_id, ALICE.user_id)] is alice_before
