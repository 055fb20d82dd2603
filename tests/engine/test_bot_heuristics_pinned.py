"""Bot heuristics held one by one where a change to them changes what a bot does in a
position built for it (the seeded tables of `test_bots_pinned.py` hold the rest as a
whole). Each test is named for the habit of play or of dealing worlds it holds."""

import random
from typing import Any

import pytest

from engine import michigan as mi
from engine import the_game as tg
from engine.bots import michigan as bots_mi
from engine.bots import the_game as bots_tg

# A Michigan deal where the extra hand holds every pay card and seat 0's own hand none.
RICH_EXTRA = [["2S", "3H", "2C"], ["4S", "5H", "3C"], ["6S", "7H", "4C"], ["8S", "9H", "5C"],
              ["AH", "KC", "QD", "JS"]]


def test_the_easy_michigan_bot_bids_its_last_chip_for_an_extra_hand_worth_more() -> None:
    # Starting with 5 chips, seat 0 holds 1 after the antes: a bid of 1 is all it may
    # bid, and the extra hand is worth more than its own, so it bids it.
    state = mi.new_game(4, {"chips": 5}, seed=1, setup={"hands": RICH_EXTRA, "dealer": 3})
    state, _ = mi.apply(state, 3, mi.Auction())
    assert mi.to_act(state) == [0] and mi.max_bid(state, 0) == 1
    view = mi.view(state, 0)
    assert {str(bots_mi.Easy().choose(view, random.Random(s))) for s in range(6)} == {"bid 1"}


def hidden(monkeypatch: pytest.MonkeyPatch, free: list[str], anywhere: list[str],
           only_seat_1: list[str], room: dict[int, int]) -> bots_mi._Hidden:
    """The hidden cards of a view, as the search deals them: `free` cards may be anywhere
    and carry no constraint; `anywhere` cards may go to seat 1 or 2 (seat 0 is the
    viewer); `only_seat_1` cards cannot be at seat 2 (a card seat 2 would have led)."""
    barred: dict[str, set[int]] = {c: {0} for c in anywhere}
    barred.update({c: {0, 2} for c in only_seat_1})
    pool = [*free, *anywhere, *only_seat_1]

    def knowledge(_view: dict[str, Any]) -> tuple[list[str], dict[int, int],
                                                  dict[str, set[int]], set[str]]:
        return pool, dict(room), barred, set()

    monkeypatch.setattr(bots_mi, "_knowledge", knowledge)
    return bots_mi._Hidden({"seat": 0, "hand": []})


def holders(deal: list[int], cards: list[str]) -> list[int]:
    return [deal[mi.DECK.index(c)] for c in cards]


def test_hidden_cards_are_dealt_most_constrained_first_so_worlds_keep_what_is_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Five cards only seat 1 can hold and five that either seat can: dealt in the pool's
    # order, the five free ones would often fill seat 1 first, every try would fail and
    # the constraints would be dropped. The most constrained first, it always works.
    anywhere, only_1 = ["2S", "3S", "4S", "5S", "6S"], ["2H", "3H", "4H", "5H", "6H"]
    worlds = hidden(monkeypatch, [], anywhere, only_1, {1: 5, 2: 5})
    for seed in range(20):
        deal = worlds.deal(random.Random(seed))
        assert holders(deal, only_1) == [1] * 5
        assert holders(deal, anywhere) == [2] * 5


def test_a_deal_whose_constraints_cannot_all_hold_still_deals_every_hidden_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Six cards only seat 1 could hold, room for five there: the constraints are dropped
    # rather than no world dealt, and each seat still gets as many cards as it holds.
    free, only_1 = ["2C", "3C", "4C", "5C"], ["2H", "3H", "4H", "5H", "6H", "7H"]
    worlds = hidden(monkeypatch, free, [], only_1, {1: 5, 2: 5})
    for seed in range(5):
        deal = worlds.deal(random.Random(seed))
        dealt = holders(deal, free + only_1)
        assert sorted(dealt) == [1] * 5 + [2] * 5
    assert worlds.deal(random.Random(1)) == worlds.deal(random.Random(1))


def the_game_table() -> bots_tg._Table:
    """What the strong bot reads of a solo table where A1 shows 50 and D1 60."""
    state = tg.new_game(1, seed=1, setup={"hands": [[50, 60, 40, 70, 30, 80, 20, 90]],
                                          "draw": [11, 12, 13]})
    state, _ = tg.apply(state, 0, tg.parse_move(state, 0, "50 A1, 60 D1"))
    return bots_tg._read(tg.view(state, 0))


def test_the_game_bot_weighs_a_backward_jump_alike_on_either_kind_of_pile() -> None:
    # 40 on A1 (top 50) and 70 on D1 (top 60) each give back the nine cards between and
    # the step itself: the same gain, whichever way the pile runs.
    table = the_game_table()
    assert bots_tg.cost(table, 40, 0, 50) == bots_tg.cost(table, 70, 2, 60) == -10


def test_the_game_bot_counts_every_card_a_fresh_pile_skips_the_2_and_the_99_included() -> None:
    # 5 on a fresh A2 skips 2, 3 and 4; 96 on a fresh D2 skips 97, 98 and 99.
    table = the_game_table()
    assert bots_tg.cost(table, 5, 1, 1) == bots_tg.cost(table, 96, 3, 100) == 3 * bots_tg.SHARED


def test_the_game_bot_does_not_count_as_dead_a_card_a_backward_jump_still_takes() -> None:
    # Between the tops (D 30 and 25, A 80 and 85) no pile takes 35, 40, 50, 70 or 75 the
    # usual way, but 35, 40, 70 and 75 are each some pile's exact jump of 10: only 50 is dead.
    assert bots_tg._dead([35, 40, 50, 70, 75], [80, 85, 30, 25]) == 1


def test_the_game_bot_deals_the_others_hands_as_their_signals_say() -> None:
    # Seat 1 asks "don't play" on A1 (top 30, it holds 20) and "no big jump"
    # on D1 (top 60, it holds 58); it says nothing on A2 or D2 (tops 1 and 100), so it
    # holds neither 2-4 nor 97-99. Every hand dealt to it holds 20 and one of 57-59, and
    # none of the cards its silence rules out.
    state = tg.new_game(2, seed=1, setup={"hands": [[30, 60, 45, 46, 47, 48, 49],
                                                    [20, 58, 5, 6, 7, 8, 9]],
                                          "draw": list(range(61, 80)), "first": 0})
    state, _ = tg.apply(state, 0, tg.parse_move(state, 0, "30 A1, 60 D1"))
    state, _ = tg.apply(state, 0, tg.parse_move(state, 0, "end"))
    bot = bots_tg.Strong()
    while (signal := bot.speak(tg.view(state, 1), random.Random(0))) is not None:
        state, _ = tg.apply(state, 1, signal)
    table = bots_tg._read(tg.view(state, 0))
    groups, never = table.holds[1]
    assert [20] in groups and any(58 in g for g in groups)
    assert {2, 3, 4, 97, 98, 99} <= never and not never & {20, 58}
    rng = random.Random(3)
    for _ in range(20):
        dealt = set(bots_tg._deal_one(table, 1, 7, rng))
        assert 20 in dealt and dealt & {57, 58, 59} and not dealt & never


def test_michigan_hand_strength_counts_an_ace_two_chips_of_control_a_king_one() -> None:
    # Each card here is a run of its own (1.5 to get rid of); the ace and the king give
    # the lead back, the ace surely, the king once the ace is out.
    assert [mi.hand_value([card], {}) for card in ("AS", "KS", "QS")] == [0.5, -0.5, -1.5]
    # The bots' swap, keep and bid choices compare such sums: the ace outweighs the king.
    assert mi.hand_value(["AH", "QS"], {}) > mi.hand_value(["KH", "QS"], {})
