"""Michigan rules, each checked on a fixed deal (docs/games/michigan.md)."""

import random
from typing import Any

import pytest

from engine import BadOptions, IllegalMove, games, michigan
from engine.michigan import (
    Auction,
    Bid,
    Keep,
    Lead,
    Pass,
    State,
    Swap,
    apply,
    legal_moves,
    load,
    new_game,
    outcome,
    parse_move,
    to_act,
    view,
)
from tests.botplay import bot_move


def game(hands: list[list[str]], dealer: int, **options: Any) -> State:
    return new_game(len(hands) - 1, options=options, seed=1,
                    setup={"hands": hands, "dealer": dealer})


def play(state: State, *moves: tuple[int, str]) -> tuple[State, list[dict[str, Any]]]:
    """Apply (seat, text) moves in order; return the last state and every event."""
    events: list[dict[str, Any]] = []
    for seat, text in moves:
        state, new = apply(state, seat, parse_move(state, seat, text))
        events.extend(new)
    return state, events


def cards_played(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(e["seat"], e["card"]) for e in events if e["type"] in ("led", "played")]


def shown(value: object) -> set[str]:
    """Every string anywhere in a view: card codes included."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(shown(v) for v in value.values()), set(map(str, value)))
    if isinstance(value, list | tuple):
        return set().union(set(), *(shown(v) for v in value))
    return set()


def refusal(state: State, seat: int, text: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        apply(state, seat, parse_move(state, seat, text))
    return caught.value


# Dealer 2, so seat 0 leads and bids first. 7H goes dead when the dealer keeps.
RUN_TO_DEAD_CARD = [
    ["2H", "5H", "9C", "KD"],
    ["3H", "6H", "2C", "3D"],
    ["4H", "8H", "4C", "5S"],
    ["7H", "AS"],
]

# Seat 0 leads spades from 10S; seat 1 holds the pay card JS; the suit stops at the ace.
# Seat 0 runs 2H 3H itself; 4H is dead, and it still holds hearts, spades and clubs.
OWN_RUN = [["2H", "3H", "9H", "5C", "8S"], ["6C", "KD"], ["7C", "QD"], ["4H"]]

RUN_TO_ACE = [
    ["10S", "QS", "AS", "2D", "3C"],
    ["JS", "KS", "5D"],
    ["9H", "6C"],
    ["7H"],
]


# --- the deal -------------------------------------------------------------------------------

def test_registered_under_its_id():
    assert "michigan" in games.ids()
    assert games.get("michigan").NAME == "Michigan"


def test_dealer_antes_two_chips_per_pay_card_and_the_others_one():
    state = new_game(4, seed=3, setup={"dealer": 2})
    public = view(state)
    assert public["chips"] == [46, 46, 42, 46]
    assert public["scores"] == public["chips"]
    assert public["pay_cards"] == [["JS", 5], ["QD", 5], ["KC", 5], ["AH", 5]]


def test_chips_option_sets_the_starting_stack_and_debts_are_allowed():
    state = new_game(3, options={"chips": 2}, seed=3, setup={"dealer": 0})
    assert view(state)["chips"] == [-6, -2, -2]


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left_then_the_extra_hand():
    # 52 cards over 4 players and the extra hand: 10 each and 2 more for the first two
    # receivers, seats 1 and 2 (left of dealer 0); the extra hand, dealt last, gets 10.
    state = new_game(4, seed=5, setup={"dealer": 0})
    assert view(state)["hand_sizes"] == [10, 11, 11, 10]
    assert len(state.extra) == 10
    assert sorted(c for h in [*state.hands, state.extra] for c in h) == sorted(
        r + s for s in "SHDC" for r in
        ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))


def test_the_dealer_decides_first_between_swap_keep_and_auction():
    state = game(RUN_TO_DEAD_CARD, dealer=2)
    assert to_act(state) == [2]
    assert [str(m) for m in legal_moves(state, 2)] == ["swap", "keep", "auction"]
    assert legal_moves(state, 0) == []
    assert view(state)["extra_hand"] is True


def test_setup_is_checked():
    with pytest.raises(BadOptions):
        new_game(3, setup={"hands": [["2H"], ["3H"], ["4H"]], "dealer": 0})  # no extra hand
    with pytest.raises(BadOptions):
        new_game(3, setup={"hands": [["2H"], ["2H"], ["4H"], ["5H"]], "dealer": 0})
    with pytest.raises(BadOptions):
        new_game(3, setup={"hands": [["2H"], ["1H"], ["4H"], ["5H"]], "dealer": 0})
    with pytest.raises(BadOptions):
        new_game(3, setup={"dealer": 3})
    with pytest.raises(BadOptions):
        new_game(3, setup={"first": 0})
    with pytest.raises(BadOptions):
        new_game(2)
    with pytest.raises(BadOptions):
        new_game(3, options={"chips": 0})
    with pytest.raises(BadOptions):
        new_game(3, options={"hands_per_player": 11})


# --- the dealer's decision and the auction --------------------------------------------------

def test_dealer_swap_takes_the_extra_hand_unseen_and_the_old_hand_goes_dead():
    state = game(RUN_TO_DEAD_CARD, dealer=2)
    state, events = play(state, (2, "swap"))
    assert {"type": "swapped", "seat": 2} in events
    assert view(state, 2)["hand"] == ["AS", "7H"]
    old_hand = set(RUN_TO_DEAD_CARD[2])
    # Only the dealer, who held it, is reminded of the old hand (docs/games/michigan.md).
    for seat in (None, 0, 1):
        assert not old_hand & shown(view(state, seat))
    assert view(state, 2)["discarded"] == ["5S", "4H", "8H", "4C"]
    assert view(state)["extra_hand"] is False


def test_keep_leaves_the_extra_hand_dead():
    state, _ = play(game(RUN_TO_DEAD_CARD, dealer=2), (2, "keep"))
    assert view(state, 2)["hand"] == ["5S", "4H", "8H", "4C"]  # suits S H D C, rank up
    assert view(state)["extra_hand"] is False
    assert "7H" not in shown(view(state)) | shown(view(state, 2))
    assert [view(state, seat)["discarded"] for seat in range(3)] == [[], [], []]
    assert to_act(state) == [0]  # "le joueur à gauche du donneur" leads


FOUR_SEATS = [["2S", "3H"], ["4S", "5H"], ["6S", "7H"], ["8S", "9H"], ["10S", "2H", "2D"]]


def test_auction_goes_round_from_the_dealers_left_and_the_highest_bidder_pays_the_dealer():
    state = game(FOUR_SEATS, dealer=3)
    state, _ = play(state, (3, "auction"))
    assert to_act(state) == [0]
    state, _ = play(state, (0, "bid 3"))
    assert to_act(state) == [1]
    assert refusal(state, 1, "bid 3").params["min"] == 4
    state, _ = play(state, (1, "bid 5"), (2, "pass"))
    assert to_act(state) == [0]  # a pass is final: seat 2 is skipped from now on
    assert view(state)["auction"]["passed"] == [2]
    state, events = play(state, (0, "bid 6"), (1, "pass"))
    assert {"type": "auction_won", "seat": 0, "amount": 6, "dealer": 3} in events
    public = view(state)
    assert public["chips"] == [46 - 6, 46, 46, 42 + 6]
    assert view(state, 0)["hand"] == ["10S", "2H", "2D"]
    assert not {"2S", "3H"} & shown(public)
    # The buyer is reminded of the hand it gave up; the others never see it.
    assert view(state, 0)["discarded"] == ["2S", "3H"]
    for seat in (1, 2, 3):
        assert not {"2S", "3H"} & shown(view(state, seat))
        assert view(state, seat)["discarded"] == []
    assert to_act(state) == [0]
    assert [str(m) for m in legal_moves(state, 0)] == ["lead S", "lead H", "lead D"]


def test_auction_with_no_bid_leaves_the_extra_hand_dead_and_nobody_pays():
    state = game(FOUR_SEATS, dealer=3)
    state, events = play(state, (3, "auction"), (0, "pass"), (1, "pass"), (2, "pass"))
    assert {"type": "auction_no_bid", "dealer": 3} in events
    assert view(state)["chips"] == [46, 46, 46, 42]
    assert view(state, 0)["hand"] == ["2S", "3H"]
    assert not set(FOUR_SEATS[-1]) & shown(view(state))
    assert all(view(state, seat)["discarded"] == [] for seat in range(4))


def test_last_bidder_left_still_chooses_and_the_auction_ends_when_the_others_have_passed():
    state = game(FOUR_SEATS, dealer=3)
    state, _ = play(state, (3, "auction"), (0, "pass"), (1, "pass"))
    assert to_act(state) == [2]
    assert str(legal_moves(state, 2)[-1]) == "pass" and len(legal_moves(state, 2)) > 1
    state, events = play(state, (2, "bid 1"))
    assert {"type": "auction_won", "seat": 2, "amount": 1, "dealer": 3} in events
    assert view(state, 2)["hand"] == ["10S", "2H", "2D"]


def test_a_bid_is_capped_at_the_bidders_own_chips():
    state = game(FOUR_SEATS, dealer=3)
    state, _ = play(state, (3, "auction"))
    # Seat 0 holds 46 chips after the ante: 47 is more than it holds.
    error = refusal(state, 0, "bid 47")
    assert error.code == "bid_too_high" and error.params["max"] == 46
    for text in ("bid " + "9" * 5000, "9" * 12, "bid 0000051"):  # never a crash
        assert refusal(state, 0, text).code == "bid_too_high"
    assert max(m.amount for m in legal_moves(state, 0) if isinstance(m, Bid)) == 46
    assert view(state)["auction"]["max"] == 46
    state, events = play(state, (0, "bid 46"))
    # Nobody can outbid 46 (each holds 46): the others' passes are played for them.
    assert [e["seat"] for e in events if e["type"] == "passed" and e["automatic"]] == [1, 2]
    won = next(e for e in events if e["type"] == "auction_won")
    assert won["amount"] == 46 and view(state)["chips"][0] == 0


def test_a_player_who_cannot_outbid_may_only_pass():
    state = game(FOUR_SEATS, dealer=3, chips=8)  # the ante leaves 4 chips to each bidder
    state, _ = play(state, (3, "auction"), (0, "bid 3"))
    assert [str(m) for m in legal_moves(state, 1)] == ["bid 4", "pass"]
    error = refusal(state, 1, "bid 5")
    assert error.code == "bid_too_high" and error.params["max"] == 4
    state, events = play(state, (1, "bid 4"))
    # Seats 2 and 0 hold 4 chips: they cannot outbid 4, so their passes are made for them.
    assert [e["seat"] for e in events if e["type"] == "passed" and e["automatic"]] == [2, 0]
    assert next(e for e in events if e["type"] == "auction_won")["seat"] == 1


# --- playing the suits ----------------------------------------------------------------------

def test_holders_of_the_next_cards_must_play_them_until_nobody_holds_the_next_one():
    state, _ = play(game(RUN_TO_DEAD_CARD, dealer=2), (2, "keep"))
    state, events = play(state, (0, "lead H"))
    # 7H is in the dead extra hand: the suit stops at 6H, and seat 1 played last.
    assert cards_played(events) == [(0, "2H"), (1, "3H"), (2, "4H"), (0, "5H"), (1, "6H")]
    stop = next(e for e in events if e["type"] == "sequence_stopped")
    assert stop["reason"] == "no_next_card" and stop["seat"] == 1
    assert to_act(state) == [1]
    assert view(state)["sequence"] == [[0, "2H"], [1, "3H"], [2, "4H"], [0, "5H"], [1, "6H"]]
    assert view(state)["played"] == [["2H", "5H"], ["3H", "6H"], ["4H"]]


def test_leader_plays_the_lowest_card_of_the_chosen_suit():
    state, _ = play(game(RUN_TO_DEAD_CARD, dealer=2), (2, "keep"))
    _, events = play(state, (0, "lead C"))
    assert cards_played(events)[0] == (0, "9C")


def test_the_ace_ends_the_suit_and_its_player_leads_again():
    state, _ = play(game(RUN_TO_ACE, dealer=2), (2, "keep"))
    state, events = play(state, (0, "lead S"))
    assert cards_played(events) == [(0, "10S"), (1, "JS"), (0, "QS"), (1, "KS"), (0, "AS")]
    stop = next(e for e in events if e["type"] == "sequence_stopped")
    assert stop["reason"] == "ace" and stop["seat"] == 0
    assert to_act(state) == [0]


def test_a_player_holding_the_next_card_continues_their_own_run():
    state, _ = play(game(OWN_RUN, dealer=2), (2, "keep"))
    state, events = play(state, (0, "lead H"))
    assert cards_played(events) == [(0, "2H"), (0, "3H")]
    assert to_act(state) == [0]


def test_the_leader_again_must_change_suit_when_holding_another():
    state, _ = play(game(OWN_RUN, dealer=2), (2, "keep"), (0, "lead H"))
    error = refusal(state, 0, "lead H")
    assert error.code == "must_change_suit"
    assert error.params == {"suit": "H", "previous": "H"}
    assert legal_moves(state, 0) == [Lead("S"), Lead("C")]
    state, events = play(state, (0, "lead C"))
    assert cards_played(events)[:3] == [(0, "5C"), (1, "6C"), (2, "7C")]


def test_leader_changes_suit_when_possible_else_leads_the_same_suit_unasked():
    hands = [["2H", "4H", "9H", "10C"], ["3H", "10H", "5D"], ["6D", "7S"], ["5H"]]
    state, _ = play(game(hands, dealer=2), (2, "keep"))
    _, events = play(state, (0, "lead H"))
    # Hearts stop at the dead 5H; seat 0 must switch to its only other suit, clubs, then
    # holds hearts alone and leads them again: no choice either time, so nobody is asked.
    led = [(e["card"], e["automatic"]) for e in events if e["type"] == "led"]
    assert led == [("2H", False), ("10C", True), ("9H", True)]
    assert {"type": "went_out", "seat": 0} in events


def test_a_leader_with_one_possible_lead_is_never_asked():
    # After the hearts seat 1 holds 3D and 2C: a choice. After the clubs, only 3D.
    state, _ = play(game(RUN_TO_DEAD_CARD, dealer=2), (2, "keep"), (0, "lead H"))
    assert [str(m) for m in legal_moves(state, 1)] == ["lead D", "lead C"]
    state, events = play(state, (1, "lead C"))
    # 3C was never dealt; seat 1 holds only 3D and leads it without being asked.
    assert cards_played(events) == [(1, "2C"), (1, "3D")]
    assert [e["automatic"] for e in events if e["type"] == "led"] == [False, True]


def test_first_player_out_ends_the_deal_and_is_paid_a_chip_per_card_left():
    state, _ = play(game(RUN_TO_DEAD_CARD, dealer=2), (2, "keep"), (0, "lead H"))
    before = view(state)["chips"]
    state, events = play(state, (1, "lead C"))
    over = next(e for e in events if e["type"] == "deal_over")
    # Seat 0 still holds 9C KD, seat 2 holds 8H 4C 5S.
    assert over["seat"] == 1
    assert over["cards_left"] == [2, 0, 3]
    assert over["payments"] == [-2, 5, -3]
    assert over["chips"][:3] == [before[0] - 2, before[1] + 5, before[2] - 3]
    assert {"type": "went_out", "seat": 1} in events


def test_pay_card_pays_its_pile_when_played():
    state, _ = play(game(RUN_TO_ACE, dealer=2), (2, "keep"))
    state, events = play(state, (0, "lead S"))
    assert {"type": "pay_card_won", "seat": 1, "card": "JS", "chips": 4} in events
    assert view(state)["chips"] == [46, 50, 42]
    assert view(state)["pay_cards"][0] == ["JS", 0]


def test_pay_piles_not_won_are_carried_to_the_next_deal_and_the_deal_passes_left():
    state, _ = play(game(RUN_TO_ACE, dealer=2), (2, "keep"), (0, "lead S"))
    # Seat 0 holds 2D 3C: it leads diamonds (3D is nowhere), then its last card, 3C.
    state, events = play(state, (0, "lead D"))
    over = next(e for e in events if e["type"] == "deal_over")
    assert over["payments"] == [3, -1, -2]
    assert over["chips"] == [49, 49, 40]
    started = next(e for e in events if e["type"] == "deal_started")
    assert started["deal"] == 2 and started["dealer"] == 0
    public = view(state)
    assert public["deal"] == public["round"] == 2
    assert public["dealer"] == 0 and to_act(state) == [0]
    # New antes: dealer 0 pays 2 per pay card, the others 1; only JS had been won.
    assert public["chips"] == [41, 45, 36]
    assert public["pay_cards"] == [["JS", 4], ["QD", 8], ["KC", 8], ["AH", 8]]
    assert public["extra_hand"] is True and public["sequence"] == []


def test_each_player_deals_hands_per_player_times_then_most_chips_wins():
    state = new_game(3, options={"hands_per_player": 2}, seed=11, setup={"dealer": 1})
    rng = random.Random(4)
    dealers = [1]
    while to_act(state):
        seat = to_act(state)[0]
        state, events = apply(state, seat, bot_move(michigan, state, seat, rng))
        dealers += [e["dealer"] for e in events if e["type"] == "deal_started"]
    assert dealers == [1, 2, 0, 1, 2, 0]
    result = outcome(state)
    assert result is not None and result.scores == view(state)["chips"]
    best = max(result.scores)
    assert [r == 1 for r in result.ranking] == [s == best for s in result.scores]
    # Chips still on pay cards when the game ends count for nobody.
    assert sum(result.scores) == 150 - sum(pile for _, pile in view(state)["pay_cards"])
    assert refusal(state, 0, "keep").code == "game_over"


# --- refusals -------------------------------------------------------------------------------

def test_refusals_carry_their_codes():
    state = game(RUN_TO_DEAD_CARD, dealer=2)
    assert refusal(state, 0, "keep").code == "not_your_turn"
    assert refusal(state, 2, "bid 3").code == "not_bidding_phase"
    assert refusal(state, 2, "pass").code == "not_bidding_phase"
    assert refusal(state, 2, "lead H").code == "not_playing_phase"
    auction, _ = play(state, (2, "auction"))
    assert refusal(auction, 0, "swap").code == "not_dealer_decision"
    assert refusal(auction, 0, "lead H").code == "not_playing_phase"
    low = refusal(auction, 0, "bid 0")
    assert low.code == "bid_too_low" and low.params["min"] == 1
    playing, _ = play(state, (2, "keep"))
    assert refusal(playing, 0, "auction").code == "not_dealer_decision"
    assert refusal(playing, 0, "bid 2").code == "not_bidding_phase"
    missing = refusal(playing, 0, "lead S")
    assert missing.code == "no_card_of_suit" and missing.params == {"suit": "S"}
    with pytest.raises(IllegalMove) as bad:
        parse_move(playing, 0, "lead X")
    assert bad.value.code == "bad_notation"
    with pytest.raises(IllegalMove) as bad:
        parse_move(playing, 0, "bid seven")
    assert bad.value.code == "bad_notation"


def test_apply_never_changes_the_state_it_is_given():
    state = game(RUN_TO_DEAD_CARD, dealer=2)
    state, _ = play(state, (2, "keep"))
    before = view(state, 0), view(state)
    apply(state, 0, Lead("H"))
    assert (view(state, 0), view(state)) == before


# --- notation -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "move"), [
    ("swap", Swap()), ("échanger", Swap()), ("keep", Keep()), ("Garder", Keep()),
    ("auction", Auction()), ("enchère", Auction()), ("bid 7", Bid(7)), ("enchérir 7", Bid(7)),
    ("/bid 12", Bid(12)), ("pass", Pass()), ("passe", Pass()),
    ("lead H", Lead("H")), ("jouer coeur", Lead("H")), ("jouer cœur", Lead("H")),
    ("lead pique", Lead("S")), ("carreau", Lead("D")), ("trèfle", Lead("C")),
    ("c", Lead("C")), ("lead ♥", Lead("H")), ("lead clubs", Lead("C")),
])
def test_notation_accepts_english_and_french(text, move):
    state = game(RUN_TO_DEAD_CARD, dealer=2)
    assert parse_move(state, 0, text) == move


@pytest.mark.parametrize("move", [Swap(), Keep(), Auction(), Bid(7), Pass(), Lead("S"),
                                  Lead("H"), Lead("D"), Lead("C")])
def test_canonical_notation_parses_back_to_the_same_move(move):
    state = game(RUN_TO_DEAD_CARD, dealer=2)
    assert parse_move(state, 0, str(move)) == move


# --- views and the baseline bot -------------------------------------------------------------

def test_views_show_own_hand_sizes_and_chips_but_no_other_hand():
    state, _ = play(game(RUN_TO_DEAD_CARD, dealer=2), (2, "keep"))
    mine = view(state, 0)
    assert mine["hand"] == ["2H", "5H", "KD", "9C"]
    assert mine["hand_sizes"] == [4, 4, 4]
    assert "hand" not in view(state)
    others = {c for hand in RUN_TO_DEAD_CARD[1:] for c in hand}
    assert not others & shown(mine)


def test_snapshot_round_trip():
    state, _ = play(game(RUN_TO_DEAD_CARD, dealer=2), (2, "auction"), (0, "bid 2"))
    assert load(games.get("michigan").dump(state)) == state


POOR_HANDS = [
    ["2S", "4S", "6S", "8S", "10S", "QS"],
    ["3H", "5H", "7H", "9H", "JH", "KH"],
    ["3S", "2H", "5D", "7D", "4C", "9C"],
    ["AH", "KC", "QD", "JS", "AD", "AC"],
]


def test_bot_swaps_a_poor_hand_for_the_extra_hand():
    # Six low singletons and no pay card: an unseen hand is worth more on average.
    hands = POOR_HANDS
    state = game(hands, dealer=2)
    assert bot_move(michigan, state, 2, random.Random(0)) == Swap()


def test_bot_bids_for_an_extra_hand_better_than_its_own_and_passes_when_too_dear():
    state, _ = play(game(POOR_HANDS, dealer=1), (1, "auction"))
    assert to_act(state) == [2]
    assert bot_move(michigan, state, 2, random.Random(0)) == Bid(1)
    state, _ = play(state, (2, "bid 45"))
    assert bot_move(michigan, state, 0, random.Random(0)) == Pass()


def test_bot_leads_the_suit_that_reaches_its_own_pay_card():
    hands = [["9D", "10D", "JD", "QD", "2S", "3C"], ["4S", "5C"], ["KS", "6H"], ["7H"]]
    state, _ = play(game(hands, dealer=2), (2, "keep"))
    assert bot_move(michigan, state, 0, random.Random(0)) == Lead("D")
