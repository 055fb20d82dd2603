"""Opening, joining, leaving and starting tables, and who may do what."""

from bot.authority import Press
from bot.tables import Actor
from db.repository import CANCELLED, LOBBY, PLAYING
from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, DAVE


async def test_newgame_opens_a_lobby_with_the_host_seated(harness):
    tables = harness.tables
    reply = await tables.new_game(ALICE, CHANNEL, "ochs", ["rounds=2"])
    await tables.settle()
    assert reply.ok, reply.text
    row = await tables.table_for_channel(CHANNEL)
    assert row.status == LOBBY and row.host == ALICE.user_id and row.options == {"rounds": 2}
    text = harness.sink.tables[row.id].rendering.text
    assert "Ochs & Esel" in text and "Alice (host)" in text and "rounds=2" in text


async def test_a_second_newgame_in_the_channel_points_at_the_existing_table(harness):
    await harness.tables.new_game(ALICE, CHANNEL, "ochs-esel")
    reply = await harness.tables.new_game(BOB, CHANNEL, "michigan")
    assert not reply.ok
    assert "already has a table" in reply.text and "Ochs & Esel" in reply.text


async def test_unknown_game_and_bad_options_are_refused_with_reasons(harness):
    reply = await harness.tables.new_game(ALICE, CHANNEL, "poker")
    assert not reply.ok and "poker" in reply.text and "ochs-esel" in reply.text
    reply = await harness.tables.new_game(ALICE, CHANNEL, "ochs", ["rounds=99", "ox=maybe"])
    assert reply.text == ("These options don't work: “rounds” goes from 1 to 20. "
                          "“ox” takes yes or no.")
    reply = await harness.tables.new_game(ALICE, CHANNEL, "ochs", ["colour=blue"])
    assert reply.text == ("These options don't work: Ochs & Esel has no option “colour” "
                          "(options: rounds, ox, deadline, bot_delay, bots, rated).")
    await harness.tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    reply = await harness.tables.new_game(BOB, CHANNEL, "michigan", ["jetons=beaucoup"])
    assert reply.text == "Ces options ne conviennent pas : « chips » demande un nombre entier."
    reply = await harness.tables.new_game(BOB, CHANNEL, "nix", ["board={\"pair\": [1]}"])
    assert reply.text == ("Ces options ne conviennent pas : « board » : pair prend "
                          "exactement 3 valeurs.")
    reply = await harness.tables.new_game(ALICE, CHANNEL, "ochs", ["deadline=5"])
    assert not reply.ok and "deadline" in reply.text
    assert await harness.tables.table_for_channel(CHANNEL) is None


async def test_a_problem_repeated_in_many_option_values_is_said_once(harness):
    board = "{" + ", ".join(f'"{row}": [5000, 5000, 5000]' for row in (
        "quad", "run4", "triple", "run3", "pair", "run2", "single", "none")) + "}"
    reply = await harness.tables.new_game(ALICE, CHANNEL, "nix", [f"board={board}", "rounds=99"])
    assert not reply.ok
    assert reply.text == ("These options don't work: “rounds” goes from 1 to 20. "
                          "“board” goes up to 1,000."), reply.text
    assert await harness.tables.table_for_channel(CHANNEL) is None


async def test_the_host_chooses_who_plays_first_in_the_game(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "the-game", ["first=3"])
    await tables.join(BOB, CHANNEL)
    assert "first=3" in (await tables.set_options(BOB, CHANNEL, [])).text
    refused = await tables.start_game(ALICE, CHANNEL)  # two players: there is no seat 3
    assert refused.text == "These options don't work: “first” goes from 1 to 2."
    assert (await tables.set_options(ALICE, CHANNEL, ["first=yes"])).text == (
        "These options don't work: “first” takes a whole number.")
    assert (await tables.set_options(ALICE, CHANNEL, ["first=random"])).ok  # back again
    assert "first=random" in (await tables.set_options(BOB, CHANNEL, [])).text
    assert (await tables.set_options(ALICE, CHANNEL, ["first=2"])).ok
    live = await tables.live_table((await tables.start_game(ALICE, CHANNEL)).table_id)
    assert live.seats[live.game.to_act(live.state)[0]].name == "Bob"


async def test_join_leave_and_seat_limits(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs")
    assert (await tables.join(BOB, CHANNEL)).ok
    again = await tables.join(BOB, CHANNEL)
    assert not again.ok and "already" in again.text
    assert (await tables.leave(BOB, CHANNEL)).ok
    assert not (await tables.leave(BOB, CHANNEL)).ok
    live = await tables.live_table((await tables.table_for_channel(CHANNEL)).id)
    assert [s.name for s in live.seats] == ["Alice"]
    for _ in range(11):
        assert (await tables.add_bot(ALICE, CHANNEL)).ok
    full = await tables.join(CAROL, CHANNEL)
    assert not full.ok and "12" in full.text


async def test_the_host_leaving_hands_the_lobby_to_the_next_player(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs")
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    await tables.leave(ALICE, CHANNEL)
    await tables.settle()
    row = await tables.table_for_channel(CHANNEL)
    assert row.host == BOB.user_id
    assert harness.sink.said("Bob is now the host")
    assert not (await tables.start_game(CAROL, CHANNEL)).ok  # only the host starts


async def test_the_last_human_leaving_closes_the_lobby(harness):
    await harness.tables.new_game(ALICE, CHANNEL, "ochs")
    await harness.tables.add_bot(ALICE, CHANNEL)
    await harness.tables.leave(ALICE, CHANNEL)
    assert await harness.tables.table_for_channel(CHANNEL) is None


async def test_start_needs_the_host_and_a_fitting_player_count(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs")
    await tables.join(BOB, CHANNEL)
    too_few = await tables.start_game(ALICE, CHANNEL)
    assert not too_few.ok and "3 to 12" in too_few.text
    await tables.add_bot(ALICE, CHANNEL)
    assert not (await tables.add_bot(BOB, CHANNEL)).ok  # bots are the host's call
    assert not (await tables.start_game(BOB, CHANNEL)).ok
    assert (await tables.start_game(ALICE, CHANNEL)).ok
    await tables.settle()
    assert (await tables.table_for_channel(CHANNEL)).status == PLAYING
    row = await tables.table_for_channel(CHANNEL)
    assert row.snapshot
    # Both humans got a hand that names the game and the channel.
    for user in (ALICE, BOB):
        hand = harness.sink.hands[(row.id, user.user_id)].rendering.text
        assert "Ochs & Esel" in hand and CHANNEL in hand and "Your hand:" in hand
    assert not (await tables.start_game(ALICE, CHANNEL)).ok


async def test_cancel_and_kick_are_for_the_host_or_an_admin(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs")
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    refused = await tables.kick(BOB, CHANNEL, "Carol")
    assert not refused.ok and "host" in refused.text
    assert (await tables.kick(ADMIN, CHANNEL, "carol")).ok
    live = await tables.live_table((await tables.table_for_channel(CHANNEL)).id)
    assert [s.name for s in live.seats] == ["Alice", "Bob"]
    assert not (await tables.kick(ALICE, CHANNEL, "Nobody")).ok
    assert not (await tables.cancel(BOB, CHANNEL)).ok
    assert (await tables.cancel(ALICE, CHANNEL)).ok
    await tables.settle()
    assert live.row.status == CANCELLED
    assert await tables.table_for_channel(CHANNEL) is None
    assert (await tables.new_game(DAVE, CHANNEL, "nix")).ok  # the channel is free again


async def test_kicking_a_player_mid_game_gives_the_seat_to_a_bot(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs", ["deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    await tables.start_game(ALICE, CHANNEL)
    assert (await tables.kick(ALICE, CHANNEL, "Bob")).ok
    await tables.settle()
    live = await tables.live_table((await tables.table_for_channel(CHANNEL)).id)
    assert live.seats[1].is_bot and not (await tables.play(BOB, CHANNEL, "pass")).ok


async def test_french_channel_gets_french_refusals_and_users_can_override(harness):
    tables = harness.tables
    assert not (await tables.set_lang(ALICE, CHANNEL, "fr", personal=False)).ok  # not admin
    assert (await tables.set_lang(ADMIN, CHANNEL, "fr", personal=False)).ok
    reply = await tables.join(ALICE, CHANNEL)
    assert "Aucune table" in reply.text
    await tables.set_lang(BOB, CHANNEL, "en", personal=True)
    assert "no open table" in (await tables.join(BOB, CHANNEL)).text
    bad = await tables.set_lang(BOB, CHANNEL, "es", personal=True)
    assert not bad.ok and "en, de, fr" in bad.text


async def test_lobby_buttons_work_like_commands(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs")
    await tables.settle()
    row = await tables.table_for_channel(CHANNEL)
    assert (await harness.press(BOB, row.id, 0, "join")).ok
    assert (await harness.press(ALICE, row.id, 0, "addbot")).ok
    assert (await harness.press(ALICE, row.id, 0, "start")).ok
    assert (await tables.table_for_channel(CHANNEL)).status == PLAYING
    stranger = Actor("u77", "Eve")
    assert not (await tables.press(stranger, Press("999.0.join", CHANNEL))).ok
    assert not (await tables.press(stranger, Press("garbage", CHANNEL))).ok


async def test_newgame_without_a_game_lists_games_players_and_options(harness):
    reply = await harness.tables.new_game(ALICE, CHANNEL, "")
    assert not reply.ok
    assert "ochs-esel — Ochs & Esel, 3–12 players; options: rounds=5, ox=no" in reply.text
    assert "michigan — Michigan, 3–8 players; options: chips=50" in reply.text
    assert "deadline=" in reply.text
    await harness.tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    assert "3 à 12 joueurs" in (await harness.tables.new_game(BOB, CHANNEL, " ")).text
    assert await harness.tables.table_for_channel(CHANNEL) is None


async def test_private_answers_follow_the_users_app_language_until_they_choose(harness):
    tables = harness.tables
    tables.remember_locale(BOB.user_id, "fr-FR")
    tables.remember_locale(CAROL.user_id, "es-ES")  # a language we do not speak
    assert "Aucune table" in (await tables.join(BOB, CHANNEL)).text
    await tables.new_game(ALICE, CHANNEL, "ochs")
    await tables.settle()
    row = await tables.table_for_channel(CHANNEL)
    assert "waiting for players" in harness.sink.tables[row.id].rendering.text  # channel: en
    assert "Vous avez rejoint" in (await tables.join(BOB, CHANNEL)).text
    assert "You joined" in (await tables.join(CAROL, CHANNEL)).text
    await tables.set_lang(BOB, CHANNEL, "en", personal=True)  # a choice beats the app
    assert (await tables.leave(BOB, CHANNEL)).text == "You left the table."


async def test_the_app_language_survives_a_restart_until_the_app_says_otherwise(harness):
    harness.tables.remember_locale(BOB.user_id, "fr-FR")
    await harness.tables.settle()
    tables = await harness.restart()
    assert await tables.lang_of(BOB.user_id) == "fr"  # before Bob does anything
    tables.remember_locale(BOB.user_id, "en-GB")
    tables.remember_locale(BOB.user_id, "es-ES")  # at once: a language we lack, stored last
    tables.remember_locale(BOB.user_id, None)  # an event that does not say: no change
    await tables.settle()
    assert (await harness.repo.user_settings("test", BOB.user_id)).locale is None
    tables.remember_locale(BOB.user_id, "fr")
    tables.remember_locale(BOB.user_id, "")
    await tables.settle()
    tables = await harness.restart()
    assert await tables.lang_of(BOB.user_id) == "fr"
    tables.remember_locale(BOB.user_id, "es-ES")
    await tables.settle()
    tables = await harness.restart()
    assert await tables.lang_of(BOB.user_id) == "en"
    await tables.set_mentions(BOB, False)  # other settings keep the stored language
    tables.remember_locale(BOB.user_id, "fr")
    await tables.set_lang(BOB, CHANNEL, "en", personal=True)
    await tables.settle()
    tables = await harness.restart()
    assert (await tables.people.user_settings(BOB.user_id)).mentions is False
    assert await tables.lang_of(BOB.user_id) == "en"  # the /lang choice beats the app
    await tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    assert await tables.lang_of(BOB.user_id) == "fr"


async def test_the_host_changes_options_in_the_lobby_and_the_engine_checks_them(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs", ["rounds=2"])
    await tables.join(BOB, CHANNEL)
    shown = await tables.set_options(BOB, CHANNEL, [])  # anyone may look
    assert shown.ok and "rounds=2, ox=no, deadline=300s" in shown.text
    assert not (await tables.set_options(BOB, CHANNEL, ["rounds=3"])).ok  # only the host
    bad = await tables.set_options(ALICE, CHANNEL, ["rounds=0"])
    assert not bad.ok and "rounds" in bad.text
    reply = await tables.set_options(ALICE, CHANNEL, ["ox=yes", "deadline=off"])
    assert reply.ok and "rounds=2, ox=yes, deadline=off" in reply.text
    await tables.settle()
    row = await tables.table_for_channel(CHANNEL)
    assert row.options == {"rounds": 2, "ox": True} and row.settings["deadline"] == 0
    assert "ox=yes" in harness.sink.tables[row.id].rendering.text
    await tables.add_bot(ALICE, CHANNEL)
    await tables.start_game(ALICE, CHANNEL)
    live = await tables.live_table(row.id)
    assert live.game.view(live.state)["ox"] is True and live.game.view(live.state)["rounds"] == 2
    late = await tables.set_options(ALICE, CHANNEL, ["rounds=5"])
    assert not late.ok and "before the game starts" in late.text


async def test_the_options_button_says_what_the_table_plays_with(harness):
    await harness.tables.new_game(ALICE, CHANNEL, "michigan", ["chips=20"])
    await harness.tables.settle()
    row = await harness.tables.table_for_channel(CHANNEL)
    actions = [b.action for line in harness.sink.tables[row.id].rendering.buttons for b in line]
    assert "options" in actions
    reply = await harness.press(BOB, row.id, 0, "options")
    assert reply.ok and "chips=20, hands_per_player=1" in reply.text and "/options" in reply.text


async def test_a_count_option_without_a_number_is_refused_not_read_as_one(harness):
    tables = harness.tables
    reply = await tables.new_game(ALICE, CHANNEL, "ochs", ["rounds"])  # "rounds 3", say
    assert reply.text == "These options don't work: “rounds” takes a whole number."
    assert await tables.table_for_channel(CHANNEL) is None
    await tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    reply = await tables.new_game(BOB, CHANNEL, "michigan", ["jetons=oui"])
    assert reply.text == "Ces options ne conviennent pas : « chips » demande un nombre entier."
    assert (await tables.new_game(ALICE, CHANNEL, "the-game")).ok
    reply = await tables.set_options(ALICE, CHANNEL, ["min_play=yes"])
    assert reply.text == "These options don't work: “min_play” takes a whole number."
    assert "min_play=2" in (await tables.set_options(ALICE, CHANNEL, [])).text
