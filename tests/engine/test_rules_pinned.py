"""Rules that mutation testing found no test holding: each test fails if the rule it is
named for is broken (see `bench/mutation.py` and the mutation section of
`bench/RESULTS.md`).

Positions are built with `setup` and moves written in the chat notation where a rule
concerns one position; rounds after the first are dealt from the seed, as in a game.
"""

import json
import re
from typing import Any

import pytest

from engine import BadOptions, IllegalMove, games
from engine import michigan as mi
from engine import nix_fur_ungut as nix
from engine import ochs_esel as oe
from engine import the_game as tg
from engine.core.state import Snapshots


def first_legal_until(game: Any, state: Any, done: Any, limit: int = 5000) -> tuple[Any, list]:
    """Plays each seat's first legal move until `done(state)`: a game run without choices
    that could hide a rule behind a bot's taste."""
    events: list[dict[str, Any]] = []
    for _ in range(limit):
        if done(state):
            return state, events
        seat = game.to_act(state)[0]
        state, new = game.apply(state, seat, next(iter(game.legal_moves(state, seat))))
        events.extend(new)
    raise AssertionError("the game did not reach the point asked for")


# --- Nix für Ungut ----------------------------------------------------------------------------

def test_nix_each_round_is_dealt_new_cards_from_the_seed() -> None:
    state = nix.new_game(3, {"rounds": 3}, seed=21)
    deals = [[list(h) for h in state.hands]]
    for round_ in (2, 3):
        state, _ = first_legal_until(nix, state, lambda s, r=round_: nix.view(s)["round"] == r)
        deals.append([list(h) for h in state.hands])
    assert deals[0] != deals[1] != deals[2] != deals[0]


@pytest.mark.parametrize(("row", "hand", "cards"), [
    ("run4", ["4", "5", "6", "7"], ("4", "5", "6", "7")),
    ("run3", ["5", "6", "7"], ("5", "6", "7")),
    ("run2", ["6", "7"], ("6", "7")),
    ("run4", ["4", "5", "7", "J"], ("4", "5", "7", "J")),
])
def test_nix_runs_ending_on_seven_are_offered(row: str, hand: list[str],
                                              cards: tuple[str, ...]) -> None:
    state = nix.new_game(2, seed=1, setup={"hands": [hand, ["1"]], "first": 0})
    offered = {(m.row, tuple(m.cards)) for m in nix.legal_moves(state, 0)}
    assert (row, tuple(nix.sort_cards(list(cards)))) in offered


def test_nix_every_legal_run_is_offered_for_a_full_suit_in_hand() -> None:
    hand = ["1", "2", "3", "4", "5", "6", "7"]
    state = nix.new_game(2, seed=1, setup={"hands": [hand, ["1"]], "first": 0})
    offered = {(m.row, tuple(m.cards)) for m in nix.legal_moves(state, 0) if not m.super_chip}
    for size, row in ((4, "run4"), (3, "run3"), (2, "run2")):
        windows = {tuple(hand[a:a + size]) for a in range(len(hand) - size + 1)}
        assert {cards for r, cards in offered if r == row} == windows


def test_nix_a_full_twelve_card_setup_hand_is_accepted_and_thirteen_refused() -> None:
    twelve = ["1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "6", "6"]
    state = nix.new_game(2, seed=1, setup={"hands": [twelve, ["7"]], "first": 0})
    assert nix.view(state, 0)["hand"] == twelve
    with pytest.raises(BadOptions):
        nix.new_game(2, seed=1, setup={"hands": [[*twelve, "7"], ["7"]], "first": 0})


def test_nix_a_tie_for_the_lead_is_drawn_from_the_seed_as_before() -> None:
    """"En cas d'égalité on tire au sort": from the seed, so a stored game replays to the
    same leader. On a board worth nothing every round ends in a three-way tie."""
    zero = {row: [0, 0, 0] for row in nix.ROWS}
    leaders = []
    for seed in range(8):
        state = nix.new_game(3, {"rounds": 2, "board": zero}, seed=seed)
        state, _ = first_legal_until(nix, state, lambda s: s.round == 2)
        leaders.append(state.first)
    assert leaders == [1, 2, 0, 1, 0, 0, 1, 0]


def test_nix_monsieur_personne_makes_his_run_from_the_highest_numbers() -> None:
    assert nix.strongest(["1", "2", "5", "6"]) == ("run2", ["5", "6"])
    assert nix.strongest(["1", "2", "3", "5", "6", "7"]) == ("run3", ["5", "6", "7"])


# --- Michigan ---------------------------------------------------------------------------------

def test_michigan_each_deal_is_dealt_new_cards_from_the_seed() -> None:
    """The dealer moves on each deal, so the same shuffle would only hand the same hands
    round the table: compare the hands as a set, whoever holds them."""
    def dealt(state: mi.State) -> list[list[str]]:
        return sorted(sorted(hand) for hand in [*state.hands, state.extra])

    state = mi.new_game(3, {"chips": 50, "hands_per_player": 2}, seed=8)
    deals = [dealt(state)]
    for deal in (2, 3):
        state, _ = first_legal_until(mi, state, lambda s, d=deal: s.deal == d)
        deals.append(dealt(state))
    assert deals[0] != deals[1] != deals[2] != deals[0]


@pytest.mark.parametrize("dealer", [True, False, "1", 1.0, -1, 3, None])
def test_michigan_setup_dealer_must_be_a_seat_number(dealer: Any) -> None:
    hands = [["2S"], ["3S"], ["4S"], ["5S"]]
    if dealer is None:  # no dealer given: a seeded seat, not an error
        assert 0 <= mi.new_game(3, seed=1, setup={"hands": hands}).dealer < 3
        return
    with pytest.raises(BadOptions):
        mi.new_game(3, seed=1, setup={"hands": hands, "dealer": dealer})


def test_michigan_a_bid_event_says_who_bid_how_much() -> None:
    state = mi.new_game(3, seed=4, setup={"hands": [["2S"], ["3S"], ["4S"], ["5S"]],
                                          "dealer": 0})
    state, events = mi.apply(state, 0, mi.parse_move(state, 0, "auction"))
    bidder = mi.to_act(state)[0]
    state, events = mi.apply(state, bidder, mi.parse_move(state, bidder, "bid 3"))
    assert [e for e in events if e["type"] == "bid"] == [
        {"type": "bid", "seat": bidder, "amount": 3}]


def test_michigan_game_over_carries_the_final_ranking() -> None:
    state = mi.new_game(3, {"chips": 50, "hands_per_player": 1}, seed=8)
    state, events = first_legal_until(mi, state, lambda s: mi.outcome(s) is not None)
    over = [e for e in events if e["type"] == "game_over"]
    result = mi.outcome(state)
    left = [pile for _card, pile in mi.view(state)["pay_cards"]]
    assert over == [{"type": "game_over", "scores": result.scores, "ranking": result.ranking,
                     "pay_cards": left}]


@pytest.mark.parametrize(("hands", "says"), [
    ([["2S"], ["3S"], ["4S"]], "one hand per seat (3), then the extra hand"),
    ("2S 3S 4S 5S", "one hand per seat (3), then the extra hand"),
    ([["2S"], [], ["4S"], ["5S"]], "must be a non-empty list of cards"),
    ([["2S"], "3S", ["4S"], ["5S"]], "must be a non-empty list of cards"),
])
def test_michigan_setup_wants_a_hand_per_seat_and_the_extra_hand(hands: Any, says: str) -> None:
    with pytest.raises(BadOptions, match=re.escape(says)):
        mi.new_game(3, seed=1, setup={"hands": hands})


@pytest.mark.parametrize(("text", "suit"), [("lead \u2665\ufe0f", "H"), ("\u2663\ufe0f", "C"),
                                          ("play \u2660\ufe0f", "S")])
def test_michigan_reads_suit_emoji_sent_with_their_colour_selector(text: str, suit: str) -> None:
    """Phones send ♥ as ♥ + U+FE0F (the emoji form): the suit reads the same."""
    state = mi.new_game(3, seed=1)
    assert mi.parse_move(state, 0, text) == mi.Lead(suit)


def test_michigan_bids_out_of_phase_or_bounds_are_refused_and_a_closed_auction_shows_none() -> None:
    state = mi.new_game(3, seed=4, setup={
        "hands": [["2S", "3H"], ["3S", "4H"], ["4S", "5H"], ["5S"]], "dealer": 0})
    with pytest.raises(IllegalMove) as caught:
        mi.apply(state, 0, mi.Bid(1))
    assert (caught.value.code, caught.value.params) == ("not_bidding_phase",
                                                        {"phase": "decision"})
    state, _ = mi.apply(state, 0, mi.Auction())
    assert mi.view(state)["auction"]["max"] == 46  # seat 1's chips after the ante
    for bid, code, params in ((0, "bid_too_low", {"min": 1, "bid": 0}),
                              (47, "bid_too_high", {"max": 46, "bid": 47})):
        with pytest.raises(IllegalMove) as caught:
            mi.apply(state, 1, mi.Bid(bid))
        assert (caught.value.code, caught.value.params) == (code, params)
    while state.phase == mi.AUCTION:
        state, _ = mi.apply(state, mi.to_act(state)[0], mi.Pass())
    assert mi.view(state)["auction"] == {"open": False, "high_bid": 0, "high_bidder": None,
                                         "bidders": [], "passed": [1, 2], "max": 0}


def test_michigan_a_lead_of_no_suit_is_quoted_back() -> None:
    state = mi.new_game(3, seed=4, setup={
        "hands": [["2S", "3H"], ["3S", "4H"], ["4S", "5H"], ["5S"]], "dealer": 0})
    state, _ = mi.apply(state, 0, mi.Keep())
    with pytest.raises(IllegalMove) as caught:
        mi.apply(state, mi.to_act(state)[0], mi.Lead("X"))
    assert (caught.value.code, caught.value.params) == ("bad_notation", {"text": "lead X"})


# --- Ochs & Esel ------------------------------------------------------------------------------

def _kept_into_round_two(stored: Any = None) -> tuple[oe.State, int]:
    """Round 2 of a game whose donkey holder kept it, at its start; `stored` may change
    the table's stored snapshot first (a table resumed from the database)."""
    state = oe.new_game(3, {"rounds": 2}, seed=5,
                        setup={"hands": [["D", "5"], ["1"], ["2"]]})
    state, _ = first_legal_until(oe, state, lambda s: s.round == 2)
    if stored is not None:
        snapshot = json.loads(oe.dump(state))
        stored(snapshot["state"])
        state = oe.load(json.dumps(snapshot))
    return state, state.first


def test_ochs_donkey_kept_into_a_new_round_may_be_led_from_trick_two() -> None:
    """The donkey holder keeps it and leads the next round; having held it since the
    deal, they may lead it as soon as trick 2."""
    state, holder = _kept_into_round_two()
    assert "D" in oe.view(state, holder)["hand"]
    # Trick 1: the holder leads a number and the others pass, so the holder leads trick 2.
    lead = next(m for m in oe.legal_moves(state, holder) if "D" not in str(m))
    state, _ = oe.apply(state, holder, lead)
    while oe.view(state)["trick"]["number"] == 1:
        seat = oe.to_act(state)[0]
        state, _ = oe.apply(state, seat, oe.parse_move(state, seat, "pass"))
    assert oe.to_act(state) == [holder]
    assert "play D" in {str(m) for m in oe.legal_moves(state, holder)}


def test_ochs_a_kept_donkey_whose_receipt_is_not_stored_counts_as_held_since_the_deal(
) -> None:
    """Which trick each animal was taken in is recorded per round; an animal held with no
    such record was not taken this round (dealt, or kept from the last one), so a stored
    table without it lets the holder lead the donkey at trick 2, not trick 3."""
    state, holder = _kept_into_round_two(lambda stored: stored["received"].clear())
    lead = next(m for m in oe.legal_moves(state, holder) if "D" not in str(m))
    state, _ = oe.apply(state, holder, lead)
    while oe.view(state)["trick"]["number"] == 1:
        seat = oe.to_act(state)[0]
        state, _ = oe.apply(state, seat, oe.parse_move(state, seat, "pass"))
    assert oe.to_act(state) == [holder]
    assert "play D" in {str(m) for m in oe.legal_moves(state, holder)}
    state, events = oe.apply(state, holder, oe.parse_move(state, holder, "D"))
    assert [e["cards"] for e in events if e["type"] == "led_animal"] == [["D"]]


def test_ochs_the_view_shows_an_animal_leading_the_current_trick() -> None:
    state = oe.new_game(3, seed=5, setup={"hands": [["D", "5"], ["1", "4"], ["2", "3"]]})
    state, _ = oe.apply(state, 0, oe.parse_move(state, 0, "D"))
    view = oe.view(state)
    assert view["animals"]["D"] == {"place": "trick", "seat": 0}
    assert view["trick"]["plays"] == [{"seat": 0, "cards": ["D"]}]
    assert view["trick"]["leader"] == 0


def test_ochs_answers_to_a_donkey_are_offered_numbers_by_value_then_the_joker() -> None:
    """The order the buttons show: as the hand is sorted."""
    state = oe.new_game(3, seed=5, setup={"hands": [["D", "5"], ["J", "4", "12"], ["2", "3"]]})
    state, _ = oe.apply(state, 0, oe.parse_move(state, 0, "D"))
    assert [str(m) for m in oe.legal_moves(state, 1)] == ["play 4", "play 12", "play J"]


def test_ochs_played_and_passed_events_name_their_seat() -> None:
    state = oe.new_game(3, seed=5, setup={"hands": [["D", "5", "6"], ["1", "9"], ["2", "3"]]})
    state, led = oe.apply(state, 0, oe.parse_move(state, 0, "5"))
    state, beat = oe.apply(state, 1, oe.parse_move(state, 1, "9"))
    state, passed = oe.apply(state, 2, oe.parse_move(state, 2, "pass"))
    assert next((e["type"], e.get("seat")) for e in led) == ("led", 0)
    assert ("beat", 1) in [(e["type"], e.get("seat")) for e in beat]
    assert [e for e in passed if e["type"] == "passed"] == [{"type": "passed", "seat": 2}]


def test_ochs_setup_hands_must_be_a_list_of_hands() -> None:
    with pytest.raises(BadOptions, match=re.escape("one hand per seat (3)")):
        oe.new_game(3, seed=1, setup={"hands": "123"})


@pytest.mark.parametrize("ox", [False, True])
def test_ochs_setup_without_first_draws_the_first_player_from_the_seed(ox: bool) -> None:
    """No donkey dealt (or the Ochs variant): the seat that starts is a seeded draw."""
    firsts = {oe.new_game(3, {"ox": ox}, seed=seed,
                          setup={"hands": [["1"], ["2"], ["3"]]}).first for seed in range(8)}
    assert firsts == {0, 1, 2}


# --- The Game ---------------------------------------------------------------------------------

def test_the_game_is_won_only_when_every_card_is_placed() -> None:
    state = tg.new_game(1, seed=1, setup={"hands": [["5", "6"]], "draw": []})
    assert not tg.won(state)
    won, _ = tg.apply(state, 0, tg.parse_move(state, 0, "5 A1, 6 A1"))
    assert tg.won(won) and tg.view(won)["won"]
    lost, _ = first_legal_until(tg, tg.new_game(2, seed=1), lambda s: s.over)
    assert tg.score(lost) > 0 and not tg.won(lost) and not tg.view(lost)["won"]


@pytest.mark.parametrize("text", ["end now", "play", "23", "23 A1 24", "A1 23"])
def test_the_game_unreadable_plays_are_quoted_back_whole(text: str) -> None:
    state = tg.new_game(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        tg.parse_move(state, state.turn, text)
    assert (caught.value.code, caught.value.params) == ("bad_notation", {"text": text})


@pytest.mark.parametrize("seat", [-1, 2])
def test_the_game_a_signal_from_no_seat_at_the_table_is_refused(seat: int) -> None:
    state = tg.new_game(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        tg.apply(state, seat, tg.Signal("A1", tg.STOP))
    assert caught.value.code == "not_your_turn"
    assert tg.view(state)["signals"]["A1"] == [None, None]


@pytest.mark.parametrize(("signal", "code", "word"), [
    (tg.Signal("Z9", tg.STOP), "unknown_pile", "Z9"),
    (tg.Signal("A1", "loud"), "unknown_signal", "loud"),
])
def test_the_game_a_signal_built_by_hand_names_what_is_not_a_pile_or_a_request(
    signal: tg.Signal, code: str, word: str,
) -> None:
    state = tg.new_game(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        tg.apply(state, 1, signal)
    assert (caught.value.code, caught.value.params) == (code, {"text": word})


@pytest.mark.parametrize(("seat", "move", "code", "params"), [
    (0, tg.Plays(((1, "A1"),)), "unknown_card", {"text": "1"}),
    (0, tg.Plays(((5, "Z1"),)), "unknown_pile", {"text": "Z1"}),
    (0, tg.Plays(()), "bad_notation", {"text": "play "}),
    (1, tg.End(), "not_your_turn", {"seat": 1, "to_act": [0]}),
])
def test_the_game_a_move_built_by_hand_is_refused_with_what_is_wrong(
    seat: int, move: Any, code: str, params: dict[str, Any],
) -> None:
    state = tg.new_game(2, seed=1, setup={"hands": [["5", "6"], ["7", "8"]], "first": 0})
    with pytest.raises(IllegalMove) as caught:
        tg.apply(state, seat, move)
    assert (caught.value.code, caught.value.params) == (code, params)


@pytest.mark.parametrize(("text", "code", "word"), [
    ("foo 23", "unknown_card", "foo"), ("23 Z1", "unknown_pile", "z1"),
    ("23 A1, 1 A2", "unknown_card", "1"),
])
def test_the_game_names_the_word_it_cannot_read(text: str, code: str, word: str) -> None:
    state = tg.new_game(2, seed=1)
    with pytest.raises(IllegalMove) as caught:
        tg.parse_move(state, state.turn, text)
    assert (caught.value.code, caught.value.params) == (code, {"text": word})


# --- snapshots --------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["ochs-esel", "the-game", "nix-fur-ungut", "michigan"])
def test_a_snapshot_of_another_format_version_is_refused(game_id: str) -> None:
    game = games.get(game_id)
    text = game.dump(game.new_game(3, seed=1))
    body = json.loads(text)
    body["format"] = body["format"] + 1
    with pytest.raises(BadOptions, match="format"):
        game.load(json.dumps(body))
    assert game.dump(game.load(text)) == text


def test_snapshots_check_format_game_and_shape() -> None:
    store: Snapshots[tg.State] = Snapshots(tg.State, "the-game", version=3)
    text = store.dump(tg.new_game(2, seed=1))
    assert store.load(text) == tg.new_game(2, seed=1)
    assert '"format":3' in text
    with pytest.raises(BadOptions, match="snapshot format 3 is not 2"):
        Snapshots(tg.State, "the-game", version=2).load(text)
    with pytest.raises(BadOptions, match="snapshot is for 'the-game', not 'ochs-esel'"):
        Snapshots(tg.State, "ochs-esel", version=3).load(text)
    with pytest.raises(BadOptions, match="not JSON"):
        store.load("{")
    with pytest.raises(BadOptions, match="snapshot does not fit the-game"):
        store.load('{"game": "the-game", "format": 3}')
    with pytest.raises(BadOptions, match="snapshot does not fit the-game"):
        store.load('{"game": "the-game", "format": 3, "state": {"seats": "many"}}')



@pytest.mark.parametrize("game_id", ["ochs-esel", "the-game", "nix-fur-ungut", "michigan"])
def test_snapshots_stored_in_format_one_still_load(game_id: str) -> None:
    """Tables are stored as format-1 snapshots: the format a game writes and reads stays
    1 until a migration says otherwise."""
    game = games.get(game_id)
    state = game.new_game(3, seed=1)
    stored = json.dumps({"game": game_id, "format": 1,
                         "state": json.loads(game.dump(state))["state"]})
    assert game.dump(game.load(stored)) == game.dump(state)
    assert json.loads(game.dump(state))["format"] == 1
