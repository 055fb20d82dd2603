"""What players read and tap for The Game, Nix für Ungut and Michigan, in English and French."""

import random
from typing import Any

import pytest

from bot import i18n
from bot.render import TAG_LENGTH, encode_payload, encode_ref, rows
from bot.renderers import for_game
from engine import games
from tests.botplay import bot_move

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi"]
LANGS = ("en", "fr")
TABLE_LIMIT = 3500  # Telegram's message limit is 4096; the title and buttons need the rest


def apply_all(game_id: str, state: Any, *moves: tuple[int, str]) -> tuple[Any, list[dict]]:
    game = games.get(game_id)
    events: list[dict[str, Any]] = []
    for seat, text in moves:
        state, new = game.apply(state, seat, game.parse_move(state, seat, text))
        events += new
    return state, events


def table_text(game_id: str, state: Any, lang: str, names: list[str] = NAMES) -> str:
    game = games.get(game_id)
    return "\n".join(for_game(game_id).public_lines(game.view(state), names, lang))


def hand_text(game_id: str, state: Any, seat: int, lang: str) -> str:
    game = games.get(game_id)
    return "\n".join(for_game(game_id).hand_lines(game.view(state, seat), lang))


def buttons(game_id: str, state: Any, seat: int, lang: str) -> tuple[list, int]:
    """The buttons shown to `seat`, checked as a press would be: each action is a legal
    move that reads back to itself, and the payload fits Telegram's 64 bytes."""
    game = games.get(game_id)
    legal = game.legal_moves(state, seat)
    shown, left = for_game(game_id).move_buttons(game.view(state, seat), legal, lang)
    assert len(shown) <= 25
    assert sum(len(row) for row in rows(shown)) == len(shown)  # none cut off by the layout
    assert left == len(legal) - len(shown)
    for button in shown:
        assert button.action.startswith("m:")
        move = game.parse_move(state, seat, button.action[2:])
        assert move in legal, button
        assert str(move) == button.action[2:]
        encode_payload(encode_ref(2**40, "A" * TAG_LENGTH), 10**6, button.action)
    return shown, left


def narrate(game_id: str, events: list[dict], lang: str, names: list[str] = NAMES) -> list[str]:
    renderer = for_game(game_id)
    if hasattr(renderer._specific, "describe_events"):
        return renderer.describe_events(game_id, events, names, lang)
    return [line for ev in events if (line := renderer.describe(game_id, ev, names, lang))]


# --- The Game ---------------------------------------------------------------------------------

def the_game(hands: list[list[int]], draw: list[int] | None = None) -> Any:
    setup: dict[str, Any] = {"hands": hands, "first": 0}
    if draw is not None:
        setup["draw"] = draw
    return games.get("the-game").new_game(len(hands), seed=1, setup=setup)


def test_the_game_table_shows_each_pile_top_with_its_direction_and_the_turn_minimum():
    state = the_game([[30, 45, 80, 90], [10, 20, 60, 70]])
    state, _ = apply_all("the-game", state, (0, "30 A1"), (0, "80 D2"))
    english = table_text("the-game", state, "en")
    assert "A1 ↑ 30 · A2 ↑ 1 · D1 ↓ 100 · D2 ↓ 80" in english
    assert "at least 2 to play · played so far: 2" in english
    assert "▶ Alice: 2 cards" in english and "Bob: 4 cards" in english
    french = table_text("the-game", state, "fr")
    assert "A1 ↑ 30" in french and "Pioche" in french and "au moins 2" in french


def test_the_game_hand_lists_the_players_cards_in_order_and_no_one_elses():
    state = the_game([[77, 5, 42], [11, 93, 64]])
    hand = hand_text("the-game", state, 0, "en")
    assert "Your hand: 5 42 77" in hand
    assert "A1 ↑ 1" in hand  # the piles again: the player decides from the hand message
    for card in ("11", "93", "64"):
        assert card not in hand.split()


def test_the_game_backward_jump_of_ten_is_the_first_button_then_the_smallest_gaps():
    state = the_game([[45, 35, 50, 97], [10, 20, 60, 70]], draw=[80, 81, 82, 83])
    state, _ = apply_all("the-game", state, (0, "45 A1"), (0, "97 D1"), (0, "end"))
    state, _ = apply_all("the-game", state, (1, "60 A2"), (1, "70 A2"), (1, "end"))
    shown, _ = buttons("the-game", state, 0, "en")
    labels = [b.label for b in shown]
    assert labels[0] == "35→A1 ↺"
    assert labels[1] == "50→A1"  # gap 5, the smallest forward step
    assert "End turn" not in labels  # nothing played yet this turn


def test_the_game_end_turn_button_appears_once_the_minimum_is_played():
    state = the_game([[30, 45, 80, 90], [10, 20, 60, 70]])
    state, _ = apply_all("the-game", state, (0, "30 A1"), (0, "80 D2"))
    for lang, label in (("en", "End turn"), ("fr", "Finir le tour")):
        shown, _ = buttons("the-game", state, 0, lang)
        assert shown[-1].label == label and shown[-1].action == "m:end"


def test_the_game_shows_at_most_20_plays_and_counts_the_rest():
    # Four rows of plays: the fifth holds the signal buttons.
    state = games.get("the-game").new_game(1, seed=3)  # 8 cards, each fits all 4 piles
    shown, left = buttons("the-game", state, 0, "en")
    assert len(shown) == 20 and left == 12


def test_the_game_narrates_plays_jumps_draws_and_the_end_in_both_languages():
    state = the_game([[55, 7, 45], [10, 20, 60]], draw=[2, 3, 4, 5, 6, 8])
    state, events = apply_all("the-game", state, (0, "55 A1"), (0, "7 A2"), (0, "end"))
    assert narrate("the-game", events, "en") == [
        "Alice plays 55 on A1 (1 → 55)", "Alice plays 7 on A2 (1 → 7)",
        "Alice ends the turn and draws 2 cards (draw pile: 4 cards)"]
    assert narrate("the-game", events, "fr")[0] == "Alice pose 55 sur A1 (1 → 55)"
    assert narrate("the-game", events, "fr")[2] == (
        "Alice finit son tour et pioche 2 cartes (pioche : 4 cartes)")
    state, _ = apply_all("the-game", state, (1, "10 A2"), (1, "20 A2"), (1, "end"))
    state, events = apply_all("the-game", state, (0, "45 A1"))
    assert narrate("the-game", events, "en") == ["Alice jumps back 10: 45 on A1 (55 → 45)"]
    assert "recule de 10" in narrate("the-game", events, "fr")[0]
    lost = {"type": "game_lost", "seat": 1, "needed": 2, "score": 40, "hands": []}
    assert narrate("the-game", [lost], "en") == [
        "Bob can't reach the minimum (2 still to play): the game is lost with 40 cards left."]
    assert "perdue" in narrate("the-game", [lost], "fr")[0]
    assert "gagne" in narrate("the-game", [{"type": "game_won", "score": 0}], "fr")[0]


# --- Nix für Ungut ----------------------------------------------------------------------------

def test_the_game_ends_on_the_teams_cards_left_not_a_ranking_of_equals():
    final = for_game("the-game").final_lines
    assert final([15, 15, 15], "en") == [
        "🏁 The Game is over: the team ends with 15 cards left (in hands and the draw pile). "
        "Fewer than 10 is an excellent score; 0 beats the game."]
    assert "finit avec 1 carte restante (en main" in final([1, 1], "fr")[0]
    assert "beat it" in final([0, 0], "en")[0]
    assert for_game("michigan").final_lines([3, 5, 1], "en") is None  # a ranking there


def nix(hands: list[list[str]], draw: list[str] | None = None, **options: Any) -> Any:
    setup: dict[str, Any] = {"hands": hands, "first": 0}
    if draw is not None:
        setup["draw"] = draw
    return games.get("nix-fur-ungut").new_game(len(hands), options, seed=11, setup=setup)


HAND_A = ["5", "5", "5", "J", "2", "3", "4", "7", "7", "1", "6", "6"]
HAND_B = ["1", "1", "1", "1", "2", "2", "3", "3", "4", "4", "5", "6"]


def test_nix_board_shows_each_row_with_cell_values_holders_and_the_super_chip():
    state = nix([HAND_A, HAND_B])
    state, _ = apply_all("nix-fur-ungut", state, (0, "pair 7 7 super"), (1, "pair 2 2"))
    english = table_text("nix-fur-ungut", state, "en")
    # One name per combination: the board, the history and the narration all say "pair".
    assert "pair: 5 Bob · 3 Alice★ · 1 —" in english
    assert "quad: 12 — · 8 — · 4 —" in english
    assert "none: 2 — · 1 — · 0 —" in english
    assert "Pair" not in english and "Four of a kind" not in english
    assert "Round 1/4 · turn 2/5" in english
    assert "Turn 1: Alice pair 7 7 ★ · Bob pair 2 2" in english
    assert "Alice: 10 cards · 0 pts (+6 on the board)" in english  # cell 2 doubled
    french = table_text("nix-fur-ungut", state, "fr")
    assert "paire : 5 Bob · 3 Alice★ · 1 —" in french
    assert "Tour 1 : Alice paire 7 7 ★ · Bob paire 2 2" in french


def test_nix_points_on_the_board_are_shown_until_the_game_is_over():
    state = nix([HAND_A, HAND_B])
    assert "on the board" not in table_text("nix-fur-ungut", state, "en")  # none yet
    state, _ = apply_all("nix-fur-ungut", state, (0, "pair 7 7"), (1, "pair 2 2"))
    assert "Alice: 10 cards · 0 pts (+" in table_text("nix-fur-ungut", state, "en")
    game = games.get("nix-fur-ungut")
    rng = random.Random(3)
    while not game.view(state)["over"]:
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, bot_move(game, state, seat, rng))
    assert "on the board" not in table_text("nix-fur-ungut", state, "en")
    assert "sur le plateau" not in table_text("nix-fur-ungut", state, "fr")


def test_nix_monsieur_personne_is_named_with_its_score_and_revealed_cards():
    state = nix([HAND_A, HAND_B], draw=["6", "6", "1", "2", "3"], personne=True)
    state, events = apply_all("nix-fur-ungut", state, (0, "single 1"), (1, "single 6"))
    seat_names = NAMES[:2]  # the table knows the seats; Personne has no seat name
    text = table_text("nix-fur-ungut", state, "en", seat_names)
    assert "Monsieur Personne: 0 pts (+5 on the board) · revealed 6 6" in text
    assert "pair: 5 Monsieur Personne" in text
    assert "#3" not in text
    lines = narrate("nix-fur-ungut", events, "en", seat_names)
    assert "Monsieur Personne reveals 6 6" in lines
    assert "Monsieur Personne lays 6 6 → pair, cell 1" in lines
    assert "Monsieur Personne retourne 6 6" in narrate("nix-fur-ungut", events, "fr", seat_names)


def test_nix_hand_lists_the_players_cards_and_super_chip_only():
    state = nix([HAND_A, HAND_B])
    hand = hand_text("nix-fur-ungut", state, 0, "en")
    assert "Your hand: 1 2 3 4 5 5 5 6 6 7 7 J" in hand
    assert "super chip ★ is ready" in hand
    assert "1 1 1 1" not in hand
    state, _ = apply_all("nix-fur-ungut", state, (0, "pair 7 7 super"))
    # Not this seat's turn: nothing in its hand message can go stale until its next turn.
    waiting = hand_text("nix-fur-ungut", state, 0, "fr")
    assert "super" not in waiting and "Manche" not in waiting
    game = games.get("nix-fur-ungut")
    state, _ = game.apply(state, 1, game.legal_moves(state, 1)[0])
    assert "super jeton est déjà joué" in hand_text("nix-fur-ungut", state, 0, "fr")


def test_nix_buttons_offer_each_rows_best_combination_joker_free_first_with_and_without_super():
    state = nix([HAND_A, HAND_B])
    shown, left = buttons("nix-fur-ungut", state, 0, "en")
    labels = [b.label for b in shown]
    assert len(shown) <= 24 and left > 0
    assert labels[:2] == ["quad 5 5 5 J", "run4 4 5 6 7"]  # no quad without a joker here
    assert "run4 4 5 6 7 ★" in labels and "triple 5 5 5 ★" in labels
    assert labels.index("triple 5 5 5") < labels.index("triple 5 5 5 ★")
    assert not any("J" in label and "★" in label for label in labels)  # super: no joker
    assert "triple 7 7 J" not in labels  # a joker-free triple exists
    french = [b.label for b in buttons("nix-fur-ungut", state, 0, "fr")[0]]
    assert "brelan 5 5 5" in french and "carré 5 5 5 J" in french


def test_nix_none_button_is_the_only_one_with_an_empty_hand():
    state = nix([["3"], ["4", "4"]])
    state, _ = apply_all("nix-fur-ungut", state, (0, "single 3"), (1, "single 4"))
    shown, left = buttons("nix-fur-ungut", state, 0, "fr")
    assert [b.label for b in shown] == ["rien", "rien ★"] and left == 0


def test_nix_narrates_pushes_and_round_scoring_with_round_points_per_competitor():
    draw = ["1", "6", "1", "5", "7", "1", "2", "5", "7", "1", "3", "5", "6", "7",
            "J", "J", "J", "2", "5", "6"]  # Monsieur Personne reveals 2, 3, 4, 5, 6
    state = nix([["2", "3"], ["4", "4"]], draw=draw, personne=True, rounds=2)
    state, events = apply_all("nix-fur-ungut", state, (0, "single 2"), (1, "single 4"),
                              (0, "single 3"), (1, "single 4"))
    lines = narrate("nix-fur-ungut", events, "en", NAMES[:2])
    assert "Alice's chip is pushed off the board (single)" in lines
    assert "Turn 3/5" in lines
    assert "sort du plateau" in " ".join(narrate("nix-fur-ungut", events, "fr", NAMES[:2]))
    for _ in range(3):
        state, events = apply_all("nix-fur-ungut", state, (0, "none"), (1, "none"))
    over = next(e for e in events if e["type"] == "round_over")
    points = for_game("nix-fur-ungut").round_points(over)
    assert points == over["points"] and len(points) == 3
    scored = next(line for line in narrate("nix-fur-ungut", events, "en", NAMES[:2])
                  if line.startswith("Round 1 is scored"))
    assert f"Monsieur Personne +{points[2]}" in scored
    assert any(line.startswith("La manche 1 est comptée")
               for line in narrate("nix-fur-ungut", events, "fr", NAMES[:2]))


# --- Michigan ---------------------------------------------------------------------------------

MI_HANDS = [
    ["2H", "3H", "4S", "JS", "9C", "KC"],  # Alice
    ["5H", "6H", "2S", "QD", "3C", "AD"],  # Bob
    ["7H", "8H", "3S", "4C", "10D", "AH"],  # Carol
    ["9H", "5S", "6S", "2D", "5C", "KD"],  # the extra hand
]


def michigan(dealer: int = 2, hands: list[list[str]] = MI_HANDS) -> Any:
    return games.get("michigan").new_game(len(hands) - 1, options={"chips": 20}, seed=1,
                                          setup={"hands": hands, "dealer": dealer})


def test_michigan_table_shows_pay_cards_with_their_chips_and_the_dealer():
    state = michigan()
    english = table_text("michigan", state, "en")
    assert "Pay cards (chips): J♠ 4 · Q♦ 4 · K♣ 4 · A♥ 4" in english
    assert "Deal 1/3 · dealer Carol · dealer's decision" in english
    assert "▶ Carol: 6 cards · 12 chips · dealer" in english
    french = table_text("michigan", state, "fr")
    assert "Cartes payantes (jetons) : V♠ 4 · D♦ 4 · R♣ 4 · A♥ 4" in french
    assert "donneur Carol" in french


def test_michigan_table_follows_the_auction_high_bid_and_passes():
    state, _ = apply_all("michigan", michigan(), (2, "auction"), (0, "bid 3"))
    english = table_text("michigan", state, "en")
    # The cap is what the next bidder (Bob) holds: nobody bids chips they do not have.
    assert "Auction: high bid 3 by Alice (the next bidder may go up to 16, their chips)" \
        in english
    state, _ = apply_all("michigan", state, (1, "pass"))
    english = table_text("michigan", state, "en")
    assert "The extra hand went to Alice for 3 chips." in english
    state = apply_all("michigan", michigan(), (2, "auction"), (0, "pass"))[0]
    assert "Passed: Alice" in table_text("michigan", state, "en")
    assert "Ont passé : Alice" in table_text("michigan", state, "fr")


def test_michigan_table_shows_the_suit_run_by_player_with_suit_symbols():
    state, _ = apply_all("michigan", michigan(), (2, "keep"), (0, "lead H"))
    english = table_text("michigan", state, "en")
    assert "♥ hearts run: Alice 2♥ 3♥" in english  # 4♥ is in the dead extra hand
    assert "Alice: 4 cards · 16 chips · played 2♥ 3♥" in english
    assert "Suite à ♥ cœur : Alice 2♥ 3♥" in table_text("michigan", state, "fr")


def test_michigan_hand_shows_own_cards_by_suit_with_symbols_and_no_one_elses():
    state = michigan()
    hand = hand_text("michigan", state, 0, "en")
    assert "Your hand: 4♠ J♠ · 2♥ 3♥ · 9♣ K♣" in hand
    assert "Pay cards" not in hand  # not this seat's turn: chips move on others' turns
    led, _ = apply_all("michigan", state, (2, "keep"))  # the dealer keeps: seat 0 leads
    assert "Pay cards in your hand: J♠ (4), K♣ (4)" in hand_text("michigan", led, 0, "en")
    for card in ("5♥", "Q♦", "7♥", "9♥"):  # Bob's, Carol's and the extra hand's
        assert card not in hand
    assert "Votre main : 4♠ V♠ · 2♥ 3♥ · 9♣ R♣" in hand_text("michigan", state, 0, "fr")


def test_michigan_buttons_for_the_decision_the_bids_and_the_leads():
    state = michigan()
    assert [b.label for b in buttons("michigan", state, 2, "en")[0]] == [
        "Swap hands", "Keep", "Auction"]
    assert [b.label for b in buttons("michigan", state, 2, "fr")[0]] == [
        "Échanger", "Garder", "Enchères"]
    state, _ = apply_all("michigan", state, (2, "auction"), (0, "bid 3"))
    shown, left = buttons("michigan", state, 1, "en")
    assert [b.label for b in shown] == ["Bid 4", "Bid 5", "Bid 6", "Bid 9", "Bid 14", "Pass"]
    assert left == 13 - 5  # bids up to Bob's own 16 chips
    state, _ = apply_all("michigan", state, (1, "bid 14"))
    assert [b.label for b in buttons("michigan", state, 0, "fr")[0]] == [
        "Miser 15", "Miser 16", "Passer"]
    state, _ = apply_all("michigan", michigan(), (2, "keep"))
    assert [b.label for b in buttons("michigan", state, 0, "en")[0]] == [
        "♠ spades (4♠)", "♥ hearts (2♥)", "♣ clubs (9♣)"]
    assert "♥ cœur (2♥)" in [b.label for b in buttons("michigan", state, 0, "fr")[0]]


def test_michigan_folds_a_lead_and_its_forced_plays_into_one_line():
    hands = [["2H", "3H", "7H", "QD"], ["4H", "5H", "2C"], ["6H", "8H", "3C"], ["9H", "4C"]]
    state, _ = apply_all("michigan", michigan(2, hands), (2, "keep"))
    state, events = apply_all("michigan", state, (0, "lead H"))
    assert sum(e["type"] == "played" for e in events) >= 5
    english = narrate("michigan", events, "en")
    assert english[0] == ("Alice leads ♥ hearts: Alice 2♥ 3♥ · Bob 4♥ 5♥ · Carol 6♥ · "
                          "Alice 7♥ · Carol 8♥ — 9♥ is not in play; Carol leads next")
    french = narrate("michigan", events, "fr")
    assert french[0].startswith("Alice entame à ♥ cœur : Alice 2♥ 3♥ · Bob 4♥ 5♥")
    assert "n'est pas en jeu" in french[0]
    # One event at a time, the forced plays stay out of the narration.
    per_event = [for_game("michigan").describe("michigan", e, NAMES, "en") for e in events]
    assert all(line is None for e, line in zip(events, per_event, strict=True)
               if e["type"] == "played")


def test_michigan_narrates_the_auction_pay_cards_won_the_deal_over_and_the_next_deal():
    _, events = apply_all("michigan", michigan(), (2, "auction"), (0, "bid 2"), (1, "pass"))
    assert narrate("michigan", events, "en") == [
        "Carol (dealer) auctions the extra hand", "Alice bids 2", "Bob passes",
        "Alice buys the extra hand for 2 chips, paid to Carol"]
    assert narrate("michigan", events, "fr")[1] == "Alice mise 2"
    hands = [["2S", "JS"], ["QS", "3H"], ["KS", "AS", "9D"], ["4D"]]
    # Alice holds spades only: her leads are forced too, so keeping plays the whole deal.
    _, events = apply_all("michigan", michigan(2, hands), (2, "keep"))
    english = narrate("michigan", events, "en")
    assert english[:5] == [
        "Carol (dealer) keeps their hand",
        "Alice must lead ♠ spades: Alice 2♠ — 3♠ is not in play; Alice leads next",
        "Alice must lead ♠ spades: Alice J♠",
        "💰 Alice plays J♠ and wins its 4 chips",
        "Deal 1 is over: Alice went out and collects 5 chips (Bob −2 · Carol −3)"]
    assert english[5].startswith("Deal 2: Alice deals · pay cards J♠ 4 · Q♦ 8")
    french = narrate("michigan", events, "fr")
    assert "💰 Alice joue V♠ et gagne ses 4 jetons" in french
    assert any("La donne 1 est finie : Alice est sorti et reçoit 5 jetons" in x for x in french)
    over = next(e for e in events if e["type"] == "deal_over")
    assert for_game("michigan").round_points(over) == [5, -2, -3]


def test_michigan_merges_the_passes_a_maximum_bid_forces_and_says_nobody_chose_them():
    hands = [["2H", "3H", "4S"], ["5H", "2S"], ["7H", "3S"], ["9H", "5S"], ["2C", "3D"]]
    # Alice bids all her 16 chips: Bob and Carol hold 16 too and cannot outbid her. The
    # engine passes for them, and a player reading "Bob passes" would wonder why he did.
    _, events = apply_all("michigan", michigan(3, hands), (3, "auction"), (0, "bid 16"))
    assert narrate("michigan", events, "en") == [
        "Dave (dealer) auctions the extra hand", "Alice bids 16",
        "Bob, Carol cannot outbid and pass",
        "Alice buys the extra hand for 16 chips, paid to Dave"]
    assert narrate("michigan", events, "fr")[2] == \
        "Bob, Carol ne peuvent pas surenchérir et passent"
    assert narrate("michigan", events, "de")[2] == \
        "Bob, Carol können nicht überbieten und passen"


def test_michigan_tells_a_chosen_pass_apart_from_the_forced_ones_after_it():
    hands = [["2H", "3H", "4S"], ["5H", "2S"], ["7H", "3S"], ["9H", "5S"], ["2C", "3D"]]
    _, events = apply_all("michigan", michigan(3, hands), (3, "auction"), (0, "bid 15"),
                          (1, "pass"), (2, "bid 16"))
    # Bob chose to pass; Alice (15 bid, 16 chips) could still bid but not above Carol's 16.
    assert narrate("michigan", events, "en")[-3:] == [
        "Carol bids 16", "Alice cannot outbid and passes",
        "Carol buys the extra hand for 16 chips, paid to Dave"]
    _, chosen = apply_all("michigan", michigan(3, hands), (3, "auction"), (0, "bid 15"),
                          (1, "pass"))
    assert narrate("michigan", chosen, "en")[-1] == "Bob passes"


# --- every game -------------------------------------------------------------------------------

MAIN_EVENTS = {
    "the-game": ["played", "played_jump", "turn_ended", "game_won", "game_lost"],
    "nix-fur-ungut": ["played", "played_super", "pushed_off", "personne_revealed",
                      "round_over", "round_started"],
    "michigan": ["swapped", "kept", "auction_opened", "bid", "passed", "auction_won",
                 "led", "pay_card_won", "sequence_stopped", "deal_over", "deal_started"],
}


@pytest.mark.parametrize("game_id", sorted(MAIN_EVENTS))
def test_main_events_have_a_sentence_in_english_and_french(game_id: str):
    for_game(game_id).describe  # noqa: B018 - importing the renderer registers its sentences
    for kind in MAIN_EVENTS[game_id]:
        key = f"event.{game_id}.{kind}"
        assert i18n.has("en", key) and i18n.has("fr", key), key
        assert i18n.CATALOGUES["en"][key] != i18n.CATALOGUES["fr"][key], key


SHORT = {
    "the-game": {},
    "nix-fur-ungut": {"rounds": 1, "personne": True},
    "michigan": {"chips": 10},
}


@pytest.mark.parametrize(("game_id", "seats"), [
    ("the-game", 3), ("nix-fur-ungut", 3), ("michigan", 3), ("the-game", 5),
    ("nix-fur-ungut", 5), ("michigan", 8)])
def test_every_view_of_a_full_bot_game_renders_in_both_languages(game_id: str, seats: int):
    game = games.get(game_id)
    renderer = for_game(game_id)
    names = [f"{name} the Magnificent of Somewhere" for name in NAMES[:seats]]
    state = game.new_game(seats, options=SHORT[game_id], seed=7)
    rng = random.Random(7)
    recent: list[str] = []
    longest = 0
    for _ in range(2000):
        for lang in LANGS:
            lines = renderer.public_lines(game.view(state), names, lang)
            text = "\n".join([*lines, *recent[-6:]])  # the table keeps 6 narration lines
            longest = max(longest, len(text))
            for seat in range(seats):
                assert renderer.hand_lines(game.view(state, seat), lang)
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        for lang in LANGS:
            buttons(game_id, state, seat, lang)
        state, events = game.apply(state, seat, bot_move(game, state, seat, rng))
        for lang in LANGS:
            said = narrate(game_id, events, lang, names)
            said += [line for ev in events
                     if (line := renderer.describe(game_id, ev, names, lang)) is not None]
            assert all(line and "{" not in line and "?" not in line for line in said), said
        recent += narrate(game_id, events, "en", names)
    assert game.outcome(state) is not None
    assert longest < TABLE_LIMIT, longest


def test_michigan_hand_reminds_the_buyer_of_the_hand_they_gave_up_and_nobody_else():
    # Alice buys the extra hand: her old hand is dead, and dead cards stop runs.
    state, _ = apply_all("michigan", michigan(), (2, "auction"), (0, "bid 1"), (1, "pass"))
    alice = hand_text("michigan", state, 0, "en")
    assert "Out of play, the hand you gave up: 4♠ J♠ · 2♥ 3♥ · 9♣ K♣" in alice
    assert "Hors jeu, la main que vous avez laissée" in hand_text("michigan", state, 0, "fr")
    assert "gave up" not in hand_text("michigan", state, 1, "en")
    assert "gave up" not in table_text("michigan", state, "en")
