"""The lobby's rules, decided on a table held in memory: no database, no platform.

Each decision answers a refusal (nothing to store) or a change: what to store, what to
show after, and what the person who acted reads. Storing and showing it is
`bot.lobby`'s (tests/bot/test_lobby.py and test_lobby_races.py go through it)."""

import copy
from typing import Any

from bot import lobby_decisions as decide
from bot.live import Actor, Live
from bot.lobby_decisions import (
    Arrange,
    Change,
    Refusal,
    Said,
    ShowHand,
    ShowTable,
    said,
)
from db.repository import CANCELLED, FINISHED, LOBBY, PLAYING, SeatRow, TableRow
from engine import BadOptions, games
from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, DAVE

BOT = "🤖 Boole"  # the name a bot takes at the second place


def table(*people: Actor | str, game: str = "ochs-esel", status: str = LOBBY,
          host: Actor = ALICE, settings: dict[str, Any] | None = None,
          options: dict[str, Any] | None = None) -> Live:
    """A table with these seats in order: a person, or a bot by its name. A game in
    play, or over, is dealt for its seats."""
    seats = [SeatRow(seat=i, user_id=None, name=p, is_bot=True) if isinstance(p, str)
             else SeatRow(seat=i, user_id=p.user_id, name=p.name)
             for i, p in enumerate(people)]
    played = games.get(game)
    dealt = status in (PLAYING, FINISHED)
    state = played.new_game(len(seats), options or {}, 7) if dealt else None
    row = TableRow(id=1, platform="test", channel=CHANNEL, game=game,
                   options=options or {}, settings=settings or {}, seed=7, status=status,
                   host=host.user_id, version=0, snapshot=None, created_at=0.0,
                   updated_at=0.0)
    return Live(row=row, seats=seats, game=played, state=state)


def bot_took(live: Live, seat: int, person: Actor) -> Live:
    """The person's seat is played by a bot that remembers them (AFK, or they left)."""
    live.seats[seat] = SeatRow(seat=seat, user_id=None, name=BOT, is_bot=True,
                               former_user_id=person.user_id)
    return live


def names(change: Change | Refusal) -> list[str]:
    assert isinstance(change, Change) and change.seats is not None
    assert [s.seat for s in change.seats] == list(range(len(change.seats)))
    return [s.name for s in change.seats]


# --- joining -------------------------------------------------------------------------------


def test_joining_a_lobby_takes_the_next_seat_and_redraws_the_table():
    change = decide.join(table(ALICE, BOB), CAROL)
    assert names(change) == ["Alice", "Bob", "Carol"]
    assert isinstance(change, Change)
    assert change.then == (ShowTable(),)
    assert change.answer == said("joined", game="Ochs & Esel")


def test_a_full_table_refuses_a_join_and_changes_nothing():
    full = table(ALICE, *(f"🤖 {n}" for n in range(11)))
    assert decide.join(full, BOB) == Refusal("table_full", {"max": 12})


def test_a_seated_player_cannot_join_twice():
    assert decide.join(table(ALICE, BOB), BOB) == Refusal("already_seated")


def test_a_kicked_player_does_not_come_back_by_joining():
    kicked = table(ALICE, settings={"kicked": [BOB.user_id]})
    assert decide.join(kicked, BOB) == Refusal("kicked_out")
    assert decide.unseated(kicked, BOB) == "kicked_out"


def test_a_table_that_is_over_takes_no_one():
    assert decide.join(table(ALICE, status=CANCELLED), BOB) == Refusal("no_table")


def test_a_player_whose_seat_a_bot_took_takes_it_back_by_joining():
    live = bot_took(table(ALICE, BOB, CAROL, status=PLAYING), 1, BOB)
    assert decide.unseated(live, BOB) == "seat_taken_by_bot"
    change = decide.join(live, BOB)
    assert names(change) == ["Alice", "Bob", "Carol"]
    assert isinstance(change, Change) and change.seats is not None
    assert not change.seats[1].is_bot and change.seats[1].user_id == BOB.user_id
    # The bot played on: the channel hears it, Bob sees his cards, his turn is called.
    assert change.then == (said("seat_reclaimed", name="Bob"), ShowHand(1),
                           Arrange(notify_turn=True))
    assert change.answer == said("reclaimed")


def test_a_game_under_way_without_bots_takes_no_one():
    assert decide.join(table(ALICE, BOB, CAROL, status=PLAYING), DAVE) == \
        Refusal("game_running")


def test_a_game_without_rounds_has_no_moment_to_take_a_bot_seat_over():
    live = table(ALICE, BOB, game="the-game", status=PLAYING)
    live.seats[1] = SeatRow(seat=1, user_id=None, name=BOT, is_bot=True)
    assert decide.join(live, DAVE) == Refusal("takeover_no_rounds", {"game": "The Game"})


def test_a_newcomer_queues_for_a_bot_seat_until_the_round_ends():
    live = table(ALICE, BOB, "🤖 Curie", game="michigan", status=PLAYING)
    change = decide.join(live, DAVE)
    assert isinstance(change, Change) and change.seats is None  # nobody sits down yet
    assert change.settings == {"takeovers": [[DAVE.user_id, "Dave"]]}
    assert change.answer == said("takeover_queued") and change.then == ()


def test_joining_again_while_queued_stores_nothing():
    live = table(ALICE, BOB, "🤖 Curie", game="michigan", status=PLAYING,
                 settings={"takeovers": [[DAVE.user_id, "Dave"]]})
    change = decide.join(live, DAVE)
    assert isinstance(change, Change) and not change.writes
    assert change.answer == said("takeover_queued")


def test_no_more_people_queue_than_there_are_bot_seats():
    live = table(ALICE, BOB, "🤖 Curie", game="michigan", status=PLAYING,
                 settings={"takeovers": [[DAVE.user_id, "Dave"]]})
    assert decide.join(live, CAROL) == Refusal("takeover_full", {"game": "Michigan"})


# --- leaving -------------------------------------------------------------------------------


def test_the_host_leaving_the_lobby_hands_it_to_the_longest_seated_human():
    change = decide.leave(table(ALICE, "🤖 Ada", BOB, CAROL), ALICE)
    assert names(change) == ["🤖 Ada", "Bob", "Carol"]
    assert isinstance(change, Change)
    assert change.host == BOB.user_id
    assert change.then == (ShowTable(), said("host_moved", name="Bob"))
    assert change.answer == said("left")


def test_the_last_human_leaving_closes_the_lobby():
    change = decide.leave(table(ALICE, "🤖 Ada"), ALICE)
    assert isinstance(change, Change)
    assert change.status == CANCELLED and change.answer == said("left_closed")


def test_leaving_a_game_gives_the_seat_to_a_bot_that_remembers_the_player():
    change = decide.leave(table(ALICE, BOB, CAROL, status=PLAYING), BOB)
    assert isinstance(change, Change) and change.seats is not None
    bot = change.seats[1]
    assert bot.is_bot and bot.former_user_id == BOB.user_id and bot.name == BOT
    assert change.host is None  # Alice still hosts
    assert change.then == (said("seat_to_bot_left", name="Bob", bot=BOT),
                           ShowHand(1, to_former=True), Arrange())
    assert change.answer == said("left_game")


def test_a_forgotten_player_leaving_is_not_named_to_the_channel():
    change = decide.leave(table(ALICE, BOB, CAROL, status=PLAYING), BOB, forgotten=True)
    assert isinstance(change, Change)
    assert change.then[0] == said("seat_to_bot_forgotten", bot=BOT)


def test_the_host_leaving_a_game_hands_it_to_the_next_human():
    change = decide.leave(table(ALICE, BOB, CAROL, status=PLAYING), ALICE)
    assert isinstance(change, Change)
    assert change.host == BOB.user_id
    assert said("host_moved", name="Bob") in change.then


def test_leaving_the_queue_for_a_bot_seat():
    live = table(ALICE, BOB, "🤖 Curie", game="michigan", status=PLAYING,
                 settings={"takeovers": [[DAVE.user_id, "Dave"]]})
    change = decide.leave(live, DAVE)
    assert isinstance(change, Change) and change.settings == {"takeovers": []}


def test_someone_not_seated_cannot_leave():
    assert decide.leave(table(ALICE), BOB) == Refusal("not_seated")


# --- bots ----------------------------------------------------------------------------------


def test_the_host_adds_a_bot_named_for_its_place():
    change = decide.add_bot(table(ALICE), ALICE)
    assert names(change) == ["Alice", BOT]
    assert isinstance(change, Change) and change.answer == said("bot_added")


def test_a_bot_never_takes_a_name_already_at_the_table():
    assert decide.bot_name(table(ALICE, BOT).seats, 1) == "🤖 Curie"


def test_only_the_host_or_an_admin_adds_or_removes_bots():
    assert decide.add_bot(table(ALICE, BOB), BOB) == Refusal("host_only")
    assert decide.remove_bot(table(ALICE, BOB, BOT), BOB) == Refusal("host_only")
    assert isinstance(decide.add_bot(table(ALICE, BOB), ADMIN), Change)


def test_bots_are_added_only_in_the_lobby():
    assert decide.add_bot(table(ALICE, BOB, CAROL, status=PLAYING), ALICE) == \
        Refusal("not_in_lobby")


def test_removing_a_bot_takes_the_last_one_and_closes_the_gap():
    change = decide.remove_bot(table(ALICE, "🤖 Ada", BOB, "🤖 Knuth", CAROL), ALICE)
    assert names(change) == ["Alice", "🤖 Ada", "Bob", "Carol"]
    assert decide.remove_bot(table(ALICE, BOB), ALICE) == Refusal("no_bot")


# --- starting and cancelling ---------------------------------------------------------------


def test_a_non_host_cannot_start():
    assert decide.start(table(ALICE, BOB, CAROL), BOB) == Refusal("host_only")


def test_start_needs_a_player_count_the_game_allows():
    assert decide.start(table(ALICE, BOB), ALICE) == \
        Refusal("player_count", {"count": 2, "low": 3, "high": 12})


def test_starting_deals_for_the_seats_and_shows_every_hand():
    live = table(ALICE, BOB, "🤖 Curie")
    change = decide.start(live, ALICE)
    assert isinstance(change, Change)
    assert change.status == PLAYING
    assert len(live.game.view(change.dealt)["hand_sizes"]) == 3
    assert change.then == (ShowTable(), ShowHand(0), ShowHand(1), ShowHand(2),
                           Arrange(notify_turn=True))
    assert change.answer == said("started", game="Ochs & Esel")


def test_options_the_seats_make_impossible_refuse_the_start():
    live = table(ALICE, BOB, game="the-game", options={"first": 3})
    refusal = decide.start(live, ALICE)
    assert isinstance(refusal, Refusal) and refusal.key == "bad_options"
    assert isinstance(refusal.problems, BadOptions)


def test_a_game_under_way_does_not_start_again():
    assert decide.start(table(ALICE, BOB, CAROL, status=PLAYING), ALICE) == \
        Refusal("already_started")


def test_cancelling_is_for_the_host_or_an_admin_and_shows_every_hand():
    live = table(ALICE, BOB, CAROL, status=PLAYING)
    assert decide.cancel(live, BOB) == Refusal("host_or_admin_only")
    change = decide.cancel(live, ADMIN)
    assert isinstance(change, Change) and change.status == CANCELLED
    assert change.then == (ShowTable(), ShowHand(0), ShowHand(1), ShowHand(2),
                           said("cancelled_by", name="Mod"))


# --- kicking -------------------------------------------------------------------------------


def test_kicking_from_the_lobby_frees_the_seat_and_bars_the_way_back():
    change = decide.kick(table(ALICE, BOB, CAROL), ALICE, "bob")
    assert names(change) == ["Alice", "Carol"]
    assert isinstance(change, Change)
    assert change.settings == {"kicked": [BOB.user_id]}
    assert change.then == (said("kicked", name="Bob"), ShowTable())
    assert change.answer == said("kick_done", name="Bob")


def test_kicking_mid_game_gives_the_seat_to_a_bot_and_takes_the_moves_away():
    change = decide.kick(table(ALICE, BOB, CAROL, status=PLAYING), ALICE, "2")
    assert isinstance(change, Change) and change.seats is not None
    assert change.seats[1].is_bot and change.seats[1].former_user_id is None
    assert change.then == (said("kicked", name="Bob"), ShowHand(1, kicked=BOB.user_id),
                           Arrange())


def test_a_kicked_host_hands_the_table_on():
    change = decide.kick(table(ALICE, BOB, CAROL), ADMIN, "@u1")
    assert isinstance(change, Change) and change.host == BOB.user_id
    assert said("host_moved", name="Bob") in change.then


def test_only_the_host_or_an_admin_kicks_and_nobody_kicks_themself():
    live = table(ALICE, BOB, CAROL)
    assert decide.kick(live, BOB, "Carol") == Refusal("host_or_admin_only")
    assert decide.kick(live, ALICE, "Alice") == Refusal("cannot_kick_self")


def test_a_bot_or_a_stranger_is_no_player_to_kick():
    live = table(ALICE, BOT, CAROL)
    assert decide.kick(live, ALICE, "2") == Refusal("no_such_player", {"name": "2"})
    forged = "Eve\n" + "x" * 1000
    refusal = decide.kick(live, ALICE, forged)
    assert isinstance(refusal, Refusal) and refusal.key == "no_such_player"
    echoed = refusal.params["name"]  # quoted back short and on one line, never as typed
    assert "\n" not in echoed and len(echoed) < 100


# --- options -------------------------------------------------------------------------------


def test_the_host_changes_options_written_out_with_the_ones_kept():
    change = decide.set_options(table(ALICE, BOB, options={"rounds": 2}), ALICE,
                                ["ox=yes", "deadline=off"])
    assert isinstance(change, Change)
    assert change.options == {"rounds": 2, "ox": True}
    assert change.settings == {"deadline": 0}
    assert change.answer == Said("options_changed") and change.then == (ShowTable(),)


def test_only_the_host_changes_options_and_only_before_the_game():
    assert decide.set_options(table(ALICE, BOB), BOB, ["rounds=3"]) == Refusal("host_only")
    assert decide.set_options(table(ALICE, BOB, CAROL, status=PLAYING), ALICE,
                              ["rounds=3"]) == Refusal("not_in_lobby")


def test_options_the_game_refuses_are_refused_with_the_engines_reasons():
    refusal = decide.set_options(table(ALICE), ALICE, ["rounds=0"])
    assert isinstance(refusal, Refusal) and refusal.key == "bad_options"
    assert refusal.problems is not None
    assert decide.set_options(table(ALICE), ALICE, ["deadline=5"]) == \
        Refusal("bad_deadline_range", {"low": 30, "high": 86400})


# --- rematch -------------------------------------------------------------------------------


def test_a_rematch_seats_who_is_still_here_and_bots_for_the_rest():
    live = bot_took(table(ALICE, BOB, CAROL, status=FINISHED, options={"rounds": 2},
                          settings={"deadline": 60, "kicked": ["u7"]}), 2, CAROL)
    rematch = decide.rematch(live, BOB, {ALICE.user_id: False, BOB.user_id: True})
    assert isinstance(rematch, decide.Rematch)
    assert [(s.name, s.is_bot) for s in rematch.seats] == [
        ("🤖 Ada", True), ("Bob", False), (BOT, True)]
    assert all(s.former_user_id is None for s in rematch.seats)
    assert rematch.options == {"rounds": 2}
    assert rematch.settings == {"deadline": 60}  # the last game's bookkeeping is gone


def test_only_a_player_of_a_finished_game_asks_for_a_rematch():
    finished = table(ALICE, BOB, CAROL, status=FINISHED)
    assert decide.rematch(table(ALICE, BOB, CAROL, status=PLAYING), ALICE,
                          {ALICE.user_id: True}) == Refusal("out_of_date")
    assert decide.rematch(finished, DAVE, {DAVE.user_id: True}) == Refusal("not_seated")
    assert decide.rematch(finished, ALICE, {ALICE.user_id: False}) == \
        Refusal("not_a_member")


# --- a decision stores nothing -------------------------------------------------------------


def test_deciding_leaves_the_table_as_it_was_until_the_change_is_stored():
    live = table(ALICE, BOB, CAROL)
    before = (copy.deepcopy(live.row), copy.deepcopy(live.seats))
    for change in (decide.join(live, DAVE), decide.leave(live, ALICE),
                   decide.kick(live, ALICE, "Bob"), decide.add_bot(live, ALICE),
                   decide.start(live, ALICE),
                   decide.set_options(live, ALICE, ["rounds=3"])):
        assert isinstance(change, Change) and change.writes
    assert (live.row, live.seats) == before
