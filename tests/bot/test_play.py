"""Playing through `bot/`: moves, refusals, bots, the end of a game."""

import asyncio

import pytest

from db.repository import CLOSED, FINISHED
from engine import games
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE
from tests.botplay import bot_move
from tests.reliability.checks import assert_consistent, stored_tables

SHORT = {"ochs-esel": ["rounds=1"], "the-game": [], "nix-fur-ungut": ["rounds=1"],
         "michigan": ["chips=10"]}


async def _start(harness, game, humans, bots, options=()):
    tables = harness.tables
    assert (await tables.new_game(humans[0], CHANNEL, game, [*options, "deadline=off"])).ok
    for human in humans[1:]:
        assert (await tables.join(human, CHANNEL)).ok
    for _ in range(bots):
        assert (await tables.add_bot(humans[0], CHANNEL)).ok
    reply = await tables.start_game(humans[0], CHANNEL)
    assert reply.ok, reply.text
    return await tables.live_table(reply.table_id)


async def _bots_play_until(harness, done) -> None:
    """Alice leaves, so every seat is a bot, and the bots play until `done()` holds."""
    await harness.tables.leave(ALICE, CHANNEL)
    for _ in range(2000):
        await harness.tables.settle()
        if done():
            return


@pytest.mark.parametrize("game_id", games.ids())
async def test_a_whole_game_with_bots_in_every_seat_reaches_its_ranking(harness, game_id):
    low = games.get(game_id).SEATS.start
    live = await _start(harness, game_id, [ALICE], max(low, 3) - 1, SHORT[game_id])
    await _bots_play_until(harness, lambda: live.row.status == FINISHED)
    assert live.row.status == FINISHED
    # A cooperative game ends on the team's score, the others on a ranking.
    assert harness.sink.said("The Game is over" if game_id == "the-game" else "Final ranking")
    results = await harness.repo.results(live.id)
    result = live.game.outcome(live.state)
    # A cooperative game stores the team's result: 1 won, 2 lost (for /stats).
    expected = ([1 if result.scores[0] == 0 else 2] * len(live.seats) if game_id == "the-game"
                else result.ranking[:len(live.seats)])
    assert [r.rank for r in sorted(results, key=lambda r: r.seat)] == expected
    # The move log replays to the stored snapshot.
    state = live.game.new_game(len(live.seats), live.row.options, live.row.seed)
    for move in await harness.repo.moves(live.id):
        state, _ = live.game.apply(state, move.seat, live.game.parse_move(state, move.seat,
                                                                             move.move))
    assert live.game.dump(state) == live.row.snapshot


@pytest.mark.parametrize("rounds", [1, 2])
async def test_the_last_round_and_the_ranking_come_in_one_message_with_one_rematch(
        harness, rounds):
    live = await _start(harness, "ochs-esel", [ALICE], 2, [f"rounds={rounds}"])
    await _bots_play_until(harness, lambda: live.row.status == FINISHED)
    results = [a for a in harness.sink.announcements if a.kind == "result"]
    assert len(results) == rounds  # one per round, the last one with the ranking
    assert [bool(a.buttons) for a in results] == [False] * (rounds - 1) + [True]
    assert "Final ranking" in results[-1].text
    # One round: its points are the totals, already in the ranking, so said once.
    assert ("Round 2" in results[-1].text) == (rounds == 2)
    assert "Round 1" not in results[-1].text


async def test_a_michigan_deal_summary_shows_gains_and_losses_with_their_sign(harness):
    live = await _start(harness, "michigan", [ALICE], 2, ["chips=10", "hands_per_player=1"])
    await _bots_play_until(harness, lambda: any(a.kind == "result"
                                                for a in harness.sink.announcements))
    summary = next(a for a in harness.sink.announcements if a.kind == "result").text
    lines = [line for line in summary.splitlines() if "(total" in line]
    assert len(lines) == len(live.seats)
    assert any(": −" in line for line in lines)  # the first out collects from the others
    assert all(": +" in line or ": −" in line or ": 0 " in line for line in lines)


async def test_only_the_player_to_act_may_move_and_refusals_say_why(harness):
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    tables = harness.tables
    leader = live.seats[live.game.to_act(live.state)[0]]
    other = next(s for s in live.seats if s.seat != leader.seat)
    actors = {ALICE.user_id: ALICE, BOB.user_id: BOB, CAROL.user_id: CAROL}
    reply = await tables.play(actors[other.user_id], CHANNEL, "1")
    assert not reply.ok and reply.text == f"It's not your turn: waiting for {leader.name}."
    before = live.row.version
    card = next(c for c in live.game.view(live.state, leader.seat)["hand"] if c.isdigit())
    cases = {"pass": "you must play", "99": "not a card", "play": "can't read",
             f"D {card}": "alone"}
    for text, fragment in cases.items():
        reply = await tables.play(actors[leader.user_id], CHANNEL, text)
        assert not reply.ok and fragment in reply.text, (text, reply.text)
    stranger = await tables.play(DAVE, CHANNEL, "1")
    assert not stranger.ok and "not playing" in stranger.text
    assert live.row.version == before  # nothing changed


async def test_a_refusal_reaches_a_french_player_in_french(harness):
    await harness.tables.set_lang(BOB, CHANNEL, "fr", personal=True)
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    actors = {ALICE.user_id: ALICE, BOB.user_id: BOB, CAROL.user_id: CAROL}
    leader = live.seats[live.game.to_act(live.state)[0]]
    if leader.user_id == BOB.user_id:
        reply = await harness.tables.play(BOB, CHANNEL, "pass")
        assert "devez jouer" in reply.text
    else:
        reply = await harness.tables.play(BOB, CHANNEL, "5")
        assert reply.text == f"Ce n'est pas votre tour : on attend {leader.name}."
    assert actors


async def test_a_move_button_applies_once_and_an_old_one_is_out_of_date(harness):
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    await harness.tables.settle()
    seat = live.seats[live.game.to_act(live.state)[0]]
    actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == seat.user_id)
    hand = harness.sink.hands[(live.id, actor.user_id)].rendering
    first = hand.buttons[0][0]
    assert (await harness.press_on_hand(actor, live.id, hand.version, first.action)).ok
    assert live.row.version == 1
    again = await harness.press_on_hand(actor, live.id, hand.version, first.action)
    assert not again.ok and "out of date" in again.text
    assert live.row.version == 1


async def test_fifty_simultaneous_presses_for_one_seat_apply_exactly_one_move(harness):
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    await harness.tables.settle()
    seat = live.seats[live.game.to_act(live.state)[0]]
    actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == seat.user_id)
    moves = live.game.legal_moves(live.state, seat.seat)
    replies = await asyncio.gather(*(harness.press_on_hand(actor, live.id, 0,
                                                           f"m:{moves[i % len(moves)]}")
                                     for i in range(50)))
    assert sum(r.ok for r in replies) == 1
    assert all("out of date" in r.text for r in replies if not r.ok)
    assert len(await harness.repo.moves(live.id)) == 1


async def test_leaving_during_ones_own_turn_hands_the_seat_to_a_bot_and_play_goes_on(harness):
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0, ["rounds=1"])
    seat = live.seats[live.game.to_act(live.state)[0]]
    actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == seat.user_id)
    assert (await harness.tables.leave(actor, CHANNEL)).ok
    await harness.tables.settle()
    assert live.seats[seat.seat].is_bot
    assert live.row.version >= 1  # the bot already played the seat's turn
    assert harness.sink.said(f"{actor.name} left")
    assert (await harness.tables.join(actor, CHANNEL)).ok  # and can come back
    assert not live.seats[seat.seat].is_bot


async def test_a_human_takes_over_a_bot_seat_when_the_next_round_starts(harness):
    live = await _start(harness, "ochs-esel", [ALICE], 2, ["rounds=3"])
    reply = await harness.tables.join(DAVE, CHANNEL)
    assert reply.ok and "next round" in reply.text
    assert all(s.user_id != DAVE.user_id for s in live.seats)
    # Bots everywhere: the rounds run by themselves.
    await _bots_play_until(harness, lambda: any(s.user_id == DAVE.user_id for s in live.seats))
    assert any(s.user_id == DAVE.user_id for s in live.seats)
    assert live.game.view(live.state)["round"] == 2
    assert harness.sink.said("Dave takes over")


async def test_finished_game_offers_a_rematch_and_counts_in_stats(harness):
    import random

    live = await _start(harness, "ochs-esel", [ALICE, CAROL], 1, ["rounds=1"])
    await harness.tables.leave(CAROL, CHANNEL)  # a bot finishes Carol's game
    for _ in range(800):
        await harness.tables.settle()
        if live.row.status == FINISHED:
            break
        seat = live.game.to_act(live.state)[0]
        if live.seats[seat].user_id == ALICE.user_id:
            move = bot_move(live.game, live.state, seat, random.Random(live.row.version))
            await harness.tables.play(ALICE, CHANNEL, str(move))
    assert live.row.status == FINISHED
    final = next(a for a in harness.sink.announcements if "Final ranking" in a.text)
    assert final.buttons[0][0].action == "rematch"
    stats = await harness.tables.stats(ALICE, CHANNEL)
    assert "Ochs & Esel: 1 played" in stats.text
    place = int(next(line for line in final.text.split("\n") if "Alice" in line).split(".")[0])
    assert f"average place {place}.0" in stats.text
    # A decimal as the reader writes it: a comma in German and French.
    for lang, words in (("de", "im Schnitt Platz"), ("fr", "place moyenne")):
        await harness.tables.set_lang(ALICE, CHANNEL, lang, personal=True)
        stats = await harness.tables.stats(ALICE, CHANNEL)
        assert f"{words} {place},0" in stats.text, stats.text
    await harness.tables.set_lang(ALICE, CHANNEL, "en", personal=True)
    assert not (await harness.press(CAROL, live.id, final.version, "rematch")).ok  # she left
    assert not (await harness.press(BOB, live.id, final.version, "rematch")).ok
    reply = await harness.press(ALICE, live.id, final.version, "rematch")
    assert reply.ok, reply.text
    new = await harness.tables.table_for_channel(CHANNEL)
    assert new.id != live.id and new.status == "playing" and new.options == live.row.options
    new_live = await harness.tables.live_table(new.id)
    assert [(s.user_id, s.is_bot) for s in new_live.seats] == [
        (ALICE.user_id, False), (None, True), (None, True)]
    assert all(s.name.startswith("🤖") for s in new_live.seats[1:])


async def test_a_vanished_channel_closes_the_table_without_retrying(harness):
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    await harness.tables.settle()
    harness.sink.gone_channels.add(CHANNEL)
    calls = harness.sink.calls
    seat = live.seats[live.game.to_act(live.state)[0]]
    actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == seat.user_id)
    move = live.game.legal_moves(live.state, seat.seat)[0]
    await harness.tables.play(actor, CHANNEL, str(move))
    await harness.tables.settle()
    assert live.row.status == CLOSED
    assert harness.sink.calls - calls <= 3  # one failed attempt per queued message, no loop
    assert (await harness.repo.get_table(live.id)).snapshot  # the state is kept


async def _lose_the_channel_mid_game(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1"])  # 300 s deadlines
    for friend in (BOB, CAROL):
        await tables.join(friend, CHANNEL)
    live = await tables.live_table((await tables.start_game(ALICE, CHANNEL)).table_id)
    await tables.settle()
    harness.sink.gone_channels.add(CHANNEL)
    seat = live.seats[live.game.to_act(live.state)[0]]
    actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == seat.user_id)
    await tables.play(actor, CHANNEL, str(live.game.legal_moves(live.state, seat.seat)[0]))
    await tables.settle()
    assert live.row.status == CLOSED and await harness.repo.deadlines() == []
    return live.id, live.row.version


async def test_a_table_closed_for_losing_its_channel_carries_on_when_the_channel_is_back(
        harness):
    table_id, version = await _lose_the_channel_mid_game(harness)
    await harness.advance(3600)  # no deadline runs while the channel is away
    harness.sink.gone_channels.discard(CHANNEL)
    tables = await harness.restart()

    assert await tables.channel_back(CHANNEL) == [table_id]
    await tables.settle()
    live = await tables.live_table(table_id)
    assert live.row.status == "playing" and live.row.version == version
    assert "lost" not in live.row.settings
    assert "To play:" in harness.sink.tables[table_id].rendering.text
    to_act = live.seats[live.game.to_act(live.state)[0]]
    assert harness.sink.hands[(table_id, to_act.user_id)].rendering.buttons  # can play
    (deadline,) = await harness.repo.deadlines()  # the turn's deadline runs again
    assert deadline.version == version
    await harness.advance(301)  # and the AFK policy plays on for the absent player
    assert live.row.version > version
    assert await tables.channel_back(CHANNEL) == []  # nothing more to bring back


async def test_a_table_back_in_the_same_run_keeps_none_of_its_old_timers(harness):
    table_id, version = await _lose_the_channel_mid_game(harness)
    await harness.advance(100)
    harness.sink.gone_channels.discard(CHANNEL)
    tables = harness.tables
    backs = await asyncio.gather(tables.channel_back(CHANNEL), tables.channel_back(CHANNEL))
    assert sorted(backs) == [[], [table_id]]  # two triggers at once: back once
    await tables.settle()
    assert [a.text for a in harness.sink.announcements].count(
        "The table is back: the game goes on where it stopped.") == 1
    live = await tables.live_table(table_id)
    await harness.advance(205)  # the old deadline (due at 300 s) must not act
    assert live.row.version == version
    assert not harness.sink.said("ends in")  # nor its reminder
    await harness.advance(100)  # the fresh one, 300 s after coming back, does
    assert live.row.version > version


async def test_a_newer_table_that_ended_keeps_the_lost_one_closed(harness):
    table_id, _ = await _lose_the_channel_mid_game(harness)
    harness.sink.gone_channels.discard(CHANNEL)
    assert (await harness.tables.new_game(DAVE, CHANNEL, "michigan")).ok
    assert (await harness.tables.cancel(DAVE, CHANNEL)).ok
    assert not (await harness.tables.show(BOB, CHANNEL)).ok  # "no table here"
    assert await harness.tables.channel_back(CHANNEL) == []
    assert (await harness.repo.get_table(table_id)).status == CLOSED


async def test_asking_for_the_table_brings_it_back_unless_a_new_one_opened_there(harness):
    table_id, _ = await _lose_the_channel_mid_game(harness)
    harness.sink.gone_channels.discard(CHANNEL)
    reply = await harness.tables.show(BOB, CHANNEL)
    assert reply.ok and reply.table_id == table_id

    harness.sink.gone_channels.add(CHANNEL)
    await harness.tables.show(BOB, CHANNEL)  # the channel fails again: closed again
    await harness.tables.settle()
    assert (await harness.repo.get_table(table_id)).status == CLOSED
    harness.sink.gone_channels.discard(CHANNEL)
    assert (await harness.tables.new_game(DAVE, CHANNEL, "michigan")).ok
    assert await harness.tables.channel_back(CHANNEL) == []
    assert (await harness.repo.get_table(table_id)).status == CLOSED


async def test_a_player_the_bot_cannot_reach_is_named_in_the_channel_once(harness):
    harness.sink.unreachable.add(BOB.user_id)
    await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    await harness.tables.settle()
    await harness.tables.hand(BOB, CHANNEL)
    await harness.tables.settle()
    warnings = [a for a in harness.sink.announcements if "can't send Bob" in a.text]
    assert len(warnings) == 1
    assert warnings[0].mentions == [BOB.user_id]  # he is the one who must act on it
    assert warnings[0].text.endswith("until then the table waits for you.")  # deadline=off


async def test_with_deadlines_the_unreachable_player_is_told_their_turns_run_on_them(harness):
    harness.sink.unreachable.add(BOB.user_id)
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=60"])
    for friend in (BOB, CAROL):
        await tables.join(friend, CHANNEL)
    assert (await tables.start_game(ALICE, CHANNEL)).ok
    await tables.settle()
    (warning,) = [a for a in harness.sink.announcements if "can't send Bob" in a.text]
    assert warning.text.endswith("your turns run on the deadline.")


async def test_the_host_leaving_mid_game_passes_hosting_on(harness):
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    await harness.tables.leave(ALICE, CHANNEL)
    await harness.tables.settle()
    assert live.row.host == BOB.user_id and harness.sink.said("Bob is now the host")
    assert (await harness.tables.cancel(BOB, CHANNEL)).ok


async def test_a_turn_of_several_plays_pings_the_player_once(harness):
    live = await _start(harness, "the-game", [ALICE, BOB], 0)
    await harness.tables.settle()
    seat = live.game.to_act(live.state)[0]
    actor = ALICE if live.seats[seat].user_id == ALICE.user_id else BOB
    pings = lambda: [a for a in harness.sink.announcements if "your turn" in a.text]  # noqa: E731
    before = len(pings())
    move = next(m for m in live.game.legal_moves(live.state, seat) if str(m) != "end")
    assert (await harness.tables.play(actor, CHANNEL, str(move))).ok
    await harness.tables.settle()
    assert live.game.to_act(live.state) == [seat]  # the minimum is 2: the turn goes on
    assert len(pings()) == before


async def test_a_failing_bot_never_leaves_the_game_stuck(harness, monkeypatch):
    import engine.bots

    class Broken:
        speak = None  # a bot declares it plays in its turn only

        def choose(self, view, rng):
            raise RuntimeError("bot bug")

    monkeypatch.setattr(engine.bots, "get", lambda game_id, level="strong": Broken())
    live = await _start(harness, "ochs-esel", [ALICE], 2, ["rounds=1"])
    await _bots_play_until(harness, lambda: live.row.status == FINISHED)
    assert live.row.status == FINISHED


async def test_a_failing_renderer_delays_messages_but_not_the_game(harness, monkeypatch):
    from bot import present

    def broken(*args, **kwargs):
        raise RuntimeError("renderer bug")

    live = await _start(harness, "ochs-esel", [ALICE], 2, ["rounds=1"])
    monkeypatch.setattr(present, "told", broken)
    await _bots_play_until(harness, lambda: live.row.status == FINISHED)
    assert live.row.status == FINISHED


async def test_a_hand_never_names_whose_turn_it_is_so_it_cannot_go_stale(harness):
    live = await _start(harness, "ochs-esel", [ALICE, BOB, CAROL], 0)
    await harness.tables.settle()
    actors = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    for _ in range(6):  # the turn moves on several times
        seat = live.game.to_act(live.state)[0]
        move = live.game.legal_moves(live.state, seat)[-1]
        await harness.tables.play(actors[live.seats[seat].user_id], CHANNEL, str(move))
        await harness.tables.settle()
    to_act = live.seats[live.game.to_act(live.state)[0]].user_id
    for user in (ALICE, BOB, CAROL):
        text = harness.sink.hands[(live.id, user.user_id)].rendering.text
        if user.user_id == to_act:
            assert "Your turn" in text
        else:
            assert "appear here when it is your turn" in text
            assert not any(name in text for name in ("Alice", "Bob", "Carol"))


def _spoiled_bid(move):
    """Michigan's "bid 2" as "bid 2.5": stored as such, the log would no longer replay."""
    from engine import michigan

    return michigan.Bid(move.amount + 0.5) if isinstance(move, michigan.Bid) else move


def _spoiled_chip(move):
    """A Nix super chip given as 1: the snapshot would differ from the replay of the log."""
    from engine import nix_fur_ungut

    if isinstance(move, nix_fur_ungut.Play) and move.super_chip:
        return nix_fur_ungut.Play(move.row, move.cards, 1)
    return move


def _spoiled_order(move):
    """A Nix play's cards out of order: a legal play, but its text reads back sorted, so
    the snapshot would differ from the replay of the log."""
    from engine import nix_fur_ungut

    if isinstance(move, nix_fur_ungut.Play) and len(set(move.cards)) > 1:
        return nix_fur_ungut.Play(move.row, move.cards[::-1], move.super_chip)
    return move


@pytest.mark.parametrize(("game_id", "options", "spoil"), [
    ("michigan", ["hands_per_player=1"], _spoiled_bid),
    ("nix-fur-ungut", ["rounds=1"], _spoiled_chip),
    ("nix-fur-ungut", ["rounds=1"], _spoiled_order),
], ids=["michigan-bid-2.5", "nix-super-chip-1", "nix-cards-out-of-order"])
async def test_a_bots_move_that_would_not_read_back_is_never_stored(
        harness, monkeypatch, game_id, options, spoil):
    """A buggy bot's move is refused like any illegal one (its seat plays the first legal
    move instead): the game still ends, and every stored table replays to its snapshot."""
    import engine.bots

    real_get = engine.bots.get

    class Spoiling:
        speak = None  # a bot declares it plays in its turn only

        def __init__(self, bot) -> None:
            self.bot = bot

        def choose(self, view, rng):
            return spoil(self.bot.choose(view, rng))

    monkeypatch.setattr(engine.bots, "get",
                        lambda game_id, level="strong": Spoiling(real_get(game_id, "easy")))
    live = await _start(harness, game_id, [ALICE], 2, options)
    await _bots_play_until(harness, lambda: live.row.status == FINISHED)
    assert live.row.status == FINISHED
    for table in stored_tables(harness.path):
        assert_consistent(table)
