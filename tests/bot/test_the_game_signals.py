"""The Game's signals at a table, and the table's bot level (`bots=easy|strong`)."""

import marshal

import engine.bots
import engine.the_game
from bot.authority import Press
from bot.live import Actor
from db.repository import FINISHED
from tests.bot.conftest import ALICE, BOB, CHANNEL


async def _two(harness, *options):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "the-game",
                                  ["first=1", "deadline=off", *options])).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    await tables.settle()
    return await tables.live_table(reply.table_id)


def _hand(harness, live, user):
    return harness.sink.hands[(live.id, user.user_id)].rendering


def _button(rendering, action):
    return next(b for row in rendering.buttons for b in row if b.action == action)


async def test_a_player_presses_a_signal_button_out_of_turn_and_the_table_shows_it(harness):
    live = await _two(harness)
    assert live.game.to_act(live.state) == [0]  # Alice's turn; Bob signals
    hand = _hand(harness, live, BOB)
    assert "✋ please don't play here" in hand.text
    button = _button(hand, "s:signal A1 stop")
    assert button.label == "✋ A1"
    reply = await harness.press_on_hand(BOB, live.id, hand.version, button.action)
    assert reply.ok, reply.text
    await harness.tables.settle()
    table = harness.sink.tables[live.id].rendering.text
    assert "✋ A1: please don't play here (Bob)" in table
    assert "Bob asks: please don't play on A1." in table
    assert live.game.to_act(live.state) == [0], "a signal does not take the turn"
    # Bob's hand now offers the next step on A1: "no big jump".
    assert _button(_hand(harness, live, BOB), "s:signal A1 small").label == "⚠ A1"
    moves = await harness.repo.moves(live.id)
    assert [(m.seat, m.move) for m in moves] == [(1, "signal A1 stop")]
    await harness.restart()
    assert harness.repaired == [], "replaying the log gives the stored snapshot"


async def test_a_signal_button_of_an_older_hand_message_still_works(harness):
    live = await _two(harness)
    old = _hand(harness, live, BOB)
    for text in ("signal D1 small", "signal D2 stop"):  # the table moves on meanwhile
        assert (await harness.tables.play(ALICE, CHANNEL, text)).ok
    assert live.row.version > old.version
    assert (await harness.press_on_hand(BOB, live.id, old.version, "s:signal A2 stop")).ok
    assert live.state.signals[1][1] == "stop"
    # The same from the table's channel acts on that channel's table.
    assert (await harness.press(BOB, live.id, old.version, "s:signal A1 stop")).ok
    assert live.state.signals[0][1] == "stop"


async def test_a_signal_press_acts_only_where_its_message_lives(harness):
    live = await _two(harness)
    version = live.row.version
    payload = await harness.payload(live.id, version, "s:signal A1 stop")
    # Another chat's button, and a private press not on the presser's own hand message.
    reply = await harness.tables.press(BOB, Press(payload, "elsewhere"))
    assert not reply.ok and "another chat" in reply.text
    reply = await harness.tables.press(BOB, Press(payload, None, "not-his-hand"))
    assert not reply.ok and "not on your hand" in reply.text
    # A stranger's press in the table's own channel: no seat, no signal.
    stranger = Actor("stranger", "Eve")
    assert not (await harness.press(stranger, live.id, version, "s:signal A1 stop")).ok
    assert live.row.version == version and live.state.signals[0][1] is None


async def test_a_forged_signal_payload_carrying_a_play_changes_nothing(harness):
    live = await _two(harness)
    version = live.row.version
    card = live.state.hands[0][0]
    for action in (f"s:play {card} A1", "s:end", "s:join"):
        reply = await harness.press(ALICE, live.id, 0, action)
        assert not reply.ok and "button" in reply.text
    assert live.row.version == version and live.state.played == 0


async def test_signals_are_typed_too_in_either_language_and_refusals_say_why(harness):
    live = await _two(harness)
    assert (await harness.tables.play(BOB, CHANNEL, "signal D2 small")).ok
    reply = await harness.tables.play(BOB, CHANNEL, "signal D2 small")
    assert not reply.ok and reply.text == "You already gave that signal on D2."
    reply = await harness.tables.play(BOB, CHANNEL, "signal D2 42")
    assert not reply.ok and "is not a signal" in reply.text
    reply = await harness.tables.play(BOB, CHANNEL, "23 A1")
    assert not reply.ok and "not your turn" in reply.text, "plays still wait for one's turn"
    await harness.tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    reply = await harness.tables.play(BOB, CHANNEL, "signal A1 retirer")
    assert reply.text == "Vous n'avez pas de signal sur A1 à retirer."
    assert live.state.signals[3] == [None, "small"]


async def test_the_table_chooses_its_bots_level_and_refuses_an_unknown_one(harness):
    tables = harness.tables
    reply = await tables.new_game(ALICE, CHANNEL, "the-game", ["bots=genius"])
    assert reply.text == "“bots=genius” is not a bot level; levels: easy, strong."
    assert (await tables.new_game(ALICE, CHANNEL, "the-game", ["bots=facile"])).ok
    assert "bots=easy" in (await tables.set_options(ALICE, CHANNEL, [])).text
    assert (await tables.set_options(ALICE, CHANNEL, ["bots=strong"])).ok
    assert "bots=strong" in (await tables.set_options(ALICE, CHANNEL, [])).text


async def _levels_asked(harness, monkeypatch, options, *, afk=False):
    asked = []
    real = engine.bots.get

    def recording(game_id, level=engine.bots.DEFAULT_LEVEL):
        asked.append(level)
        return real(game_id, level)

    monkeypatch.setattr(engine.bots, "get", recording)
    tables = harness.tables
    deadline = "deadline=60" if afk else "deadline=off"
    assert (await tables.new_game(ALICE, CHANNEL, "the-game", [deadline, *options])).ok
    assert (await tables.add_bot(ALICE, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    live = await tables.live_table(reply.table_id)
    for _ in range(20):
        await harness.advance(61 if afk else 0)
    return set(asked), live


async def test_added_bots_play_at_the_tables_level(harness, monkeypatch):
    asked, live = await _levels_asked(harness, monkeypatch, ["bots=easy"])
    assert asked == {"easy"}
    assert any(s.is_bot for s in live.seats)


async def test_afk_takeovers_play_at_the_tables_level_strong_by_default(harness, monkeypatch):
    asked, live = await _levels_asked(harness, monkeypatch, [], afk=True)
    assert asked == {"strong"}
    assert live.seats[0].afk_strikes or live.seats[0].is_bot or live.row.status == FINISHED


async def test_strong_bots_signal_to_each_other_and_the_log_replays(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "the-game", ["deadline=off"])).ok
    for _ in range(2):
        assert (await tables.add_bot(ALICE, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    live = await tables.live_table(reply.table_id)
    await tables.leave(ALICE, CHANNEL)  # a bot takes Alice's seat: bots only
    for _ in range(3000):
        await tables.settle()
        if live.row.status == FINISHED:
            break
    assert live.row.status == FINISHED
    moves = [m.move for m in await harness.repo.moves(live.id)]
    assert any(m.startswith("signal ") for m in moves)
    await harness.restart()
    assert harness.repaired == []


async def test_a_signal_between_drawing_and_pressing_leaves_the_move_buttons_valid(harness):
    """A bot's (or anyone's) signal is a new table version, but the hand's plays are the
    same: the player's press on the hand drawn before it still plays."""
    live = await _two(harness)
    hand = _hand(harness, live, ALICE)
    play = next(b.action for row in hand.buttons for b in row if b.action.startswith("m:"))
    assert (await harness.tables.play(BOB, CHANNEL, "signal D2 stop")).ok
    assert live.row.version > hand.version
    reply = await harness.press_on_hand(ALICE, live.id, hand.version, play)
    assert reply.ok, reply.text
    assert live.state.played == 1
    # After a real play, that old hand's buttons are out of date again.
    other = next(b.action for row in hand.buttons for b in row
                 if b.action.startswith("m:") and b.action != play)
    reply = await harness.press_on_hand(ALICE, live.id, hand.version, other)
    assert not reply.ok and "out of date" in reply.text
    assert live.state.played == 1


async def test_a_signal_does_not_give_the_player_to_act_more_time(harness):
    live = await _two(harness, "deadline=300")
    assert live.game.to_act(live.state) == [0]
    await harness.advance(200)
    assert (await harness.tables.play(BOB, CHANNEL, "signal D2 stop")).ok
    await harness.advance(101)  # Alice's 300 s run out, the signal notwithstanding
    assert [m.actor for m in await harness.repo.moves(live.id)][-1] == "afk"


async def test_the_cards_a_player_draws_are_kept_from_the_table_and_its_narration(harness):
    live = await _two(harness)
    game = live.game
    before = list(live.state.hands[0])
    for _ in range(2):  # The Game's minimum, then the turn's end draws two cards
        play = next(m for m in game.legal_moves(live.state, 0)
                    if isinstance(m, engine.the_game.Plays) and len(m.plays) == 1)
        assert (await harness.tables.play(ALICE, CHANNEL, str(play))).ok
    assert (await harness.tables.play(ALICE, CHANNEL, "end")).ok
    await harness.tables.settle()
    drawn = sorted(set(live.state.hands[0]) - set(before))
    assert len(drawn) == 2
    table = harness.sink.tables[live.id].rendering.text
    assert "Alice ends the turn and draws 2 cards" in table
    # What the table keeps of each move, to narrate it again, says how many, not which.
    kept = [ev for told in live.told for ev in marshal.loads(told.args[1])]
    [ended] = [ev for ev in kept if ev["type"] == "turn_ended"]
    assert ended == {"type": "turn_ended", "seat": 0, "played": 2, "drawn": 2,
                     "draw_size": ended["draw_size"]}
