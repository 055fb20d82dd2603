"""Ochs & Esel: one test per rule of docs/games/ochs-esel.md (the rulebook and our decisions).

Every position is built with `setup` and every move is written in the chat notation,
so a test reads like the rulebook sentence it checks. Seats of the rulebook's examples:
André 0, Brigitte 1, Charles 2, Dorothée 3, Ernest 4.
"""

import json
import random
from collections import Counter
from typing import Any

import pytest

from engine import BadOptions, IllegalMove, games
from engine import ochs_esel as oe
from tests.botplay import bot_move

ANDRE, BRIGITTE, CHARLES, DOROTHEE, ERNEST = range(5)

# The rulebook's table: players -> (cards per player, cards not used).
RULEBOOK_DEAL = {
    3: (13, 69), 4: (13, 56), 5: (13, 43), 6: (13, 30), 7: (13, 17),
    8: (13, 4), 9: (12, 0), 10: (10, 8), 11: (9, 9), 12: (9, 0),
}


def game(hands: list[list[str]], *, first: int | None = None, ox: bool = False,
         rounds: int = 1, seed: int = 0) -> oe.State:
    setup: dict[str, Any] = {"hands": hands}
    if first is not None:
        setup["first"] = first
    return oe.new_game(len(hands), {"ox": ox, "rounds": rounds}, seed=seed, setup=setup)


def run(state: oe.State, *turns: tuple[int, str]) -> tuple[oe.State, list[dict[str, Any]]]:
    """Each (seat, text) goes through parse_move and apply, as a chat message would."""
    events: list[dict[str, Any]] = []
    for seat, text in turns:
        state, new = oe.apply(state, seat, oe.parse_move(state, seat, text))
        events.extend(new)
    return state, events


def refused(state: oe.State, seat: int, text: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        run(state, (seat, text))
    return info.value


def hand(state: oe.State, seat: int) -> list[str]:
    return oe.view(state, seat)["hand"]


def legal_texts(state: oe.State, seat: int) -> set[str]:
    return {str(m) for m in oe.legal_moves(state, seat)}


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# --- the registry and the deal ------------------------------------------------------------

def test_the_registry_serves_this_module_under_its_id():
    assert games.get("ochs-esel") is oe
    assert "ochs-esel" in games.ids()
    assert range(3, 13) == oe.SEATS


@pytest.mark.parametrize("seats", sorted(RULEBOOK_DEAL))
def test_deal_table_gives_each_player_the_rulebooks_number_of_cards(seats):
    per_player, not_used = RULEBOOK_DEAL[seats]
    state = oe.new_game(seats, seed=seats)
    first = oe.view(state)["first"]
    hands = [hand(state, s) for s in range(seats)]
    # "Le premier joueur a une carte de plus que les autres joueurs, puisqu'il possède l'âne."
    assert [len(h) for h in hands] == [
        per_player + (s == first) for s in range(seats)]
    assert [s for s, h in enumerate(hands) if "D" in h] == [first]
    dealt = Counter(c for h in hands for c in h if c != "D")
    assert dealt.total() == 108 - not_used
    assert all(dealt[str(n)] <= 8 for n in range(1, 14)) and dealt["J"] <= 4
    assert set(dealt) <= {*map(str, range(1, 14)), "J"}


def test_the_first_player_is_a_seeded_random_seat_holding_the_donkey():
    firsts = {oe.view(oe.new_game(5, seed=seed))["first"] for seed in range(30)}
    assert len(firsts) > 1
    assert oe.dump(oe.new_game(5, seed=3)) == oe.dump(oe.new_game(5, seed=3))
    state = oe.new_game(5, seed=3)
    assert oe.to_act(state) == [oe.view(state)["first"]]


def test_player_count_and_options_are_checked():
    for seats in (2, 13):
        with pytest.raises(BadOptions):
            oe.new_game(seats)
    for options in ({"rounds": 0}, {"rounds": 21}, {"rounds": "many"}, {"colour": "red"}):
        with pytest.raises(BadOptions):
            oe.new_game(4, options)
    assert oe.Options().rounds == 5


def test_setup_refuses_keys_it_does_not_use_and_cards_the_deck_lacks():
    with pytest.raises(BadOptions):
        oe.new_game(3, setup={"hands": [["D"], ["5"], ["6"]], "draw": ["7"]})
    with pytest.raises(BadOptions):
        oe.new_game(3, setup={"hands": [["J", "J", "J"], ["J", "J"], ["6"]]})
    with pytest.raises(BadOptions):
        oe.new_game(3, setup={"hands": [["O"], ["5"], ["6"]]})  # no ox without the variant
    with pytest.raises(BadOptions):
        oe.new_game(3, setup={"hands": [["14"], ["5"], ["6"]]})


def test_setup_without_the_donkey_puts_it_in_the_first_players_hand():
    # docs/games/ochs-esel.md: "if no hand holds it, it is added to the `first` seat's hand."
    state = game([["5"], ["6", "7"], ["8"]], first=1)
    assert hand(state, 1) == ["6", "7", "D"]
    assert oe.to_act(state) == [1]
    with pytest.raises(BadOptions):
        game([["D", "5"], ["6"], ["8"]], first=1)  # the donkey holder leads


def test_setup_refuses_a_first_player_with_nothing_to_lead():
    # In the variant the animals start in the middle, so an empty hand for the first
    # player would leave a leader who may neither pass nor play.
    with pytest.raises(BadOptions):
        game([[], ["5"], ["6"]], first=0, ox=True)


def test_hands_are_shown_numbers_first_then_joker_donkey_ox():
    state = game([["O", "J", "10", "D", "2"], ["5"], ["6"]], first=0, ox=True)
    assert hand(state, 0) == ["2", "10", "J", "D", "O"]


# --- tricks -----------------------------------------------------------------------------

def test_andre_brigitte_charles_dorothee_ernest_example_highest_set_leads_next():
    # "André ... joue 3 cartes 6. Brigitte surenchérit en jouant 3 cartes 8. Charles passe.
    # Dorothée surenchérit en jouant 3 cartes 11. Ernest passe. ... elle sera la première
    # joueuse du prochain tour."
    state = game([
        ["D", "6", "6", "6", "1"], ["8", "8", "8", "2"], ["3", "4"],
        ["11", "11", "11", "5"], ["7", "9"],
    ])
    state, events = run(state, (ANDRE, "6 6 6"), (BRIGITTE, "8 8 8"), (CHARLES, "pass"),
                        (DOROTHEE, "11 11 11"), (ERNEST, "pass"))
    won = of_type(events, "trick_won")
    assert [(e["seat"], e["trick"]) for e in won] == [(DOROTHEE, 1)]
    assert oe.to_act(state) == [DOROTHEE]
    # "Les cartes jouées sont mises de côté": nobody gets them back.
    assert oe.view(state)["hand_sizes"] == [2, 1, 2, 1, 2]
    assert oe.view(state)["trick"]["number"] == 2


def test_each_player_answers_once_so_the_trick_ends_after_the_last_answer():
    state = game([["D", "5", "1"], ["7", "9"], ["8", "10"], ["2", "3"]])
    state, events = run(state, (0, "5"), (1, "7"), (2, "8"), (3, "pass"))
    # Brigitte could still beat 8 with her 9, but she has had her one chance.
    assert of_type(events, "trick_won")[0]["seat"] == 2
    assert oe.to_act(state) == [2]


def test_the_leader_fixes_how_many_cards_everyone_plays():
    state = game([["D", "5", "5", "2"], ["7", "7", "9"], ["8", "8", "8", "1"], ["3", "4"]])
    state, _ = run(state, (0, "5 5"))
    error = refused(state, 1, "9")
    assert (error.code, error.params["count"]) == ("must_match_count", 2)
    state, _ = run(state, (1, "7 7"))
    assert refused(state, 2, "8 8 8").code == "must_match_count"
    assert legal_texts(state, 2) == {"play 8 8", "pass"}


def test_a_beat_must_be_strictly_higher_and_passes_do_not_lower_the_bar():
    state = game([["D", "5", "1"], ["5", "9"], ["2", "3"], ["7", "10"]])
    state, _ = run(state, (0, "5"))
    error = refused(state, 1, "5")  # equal is not higher
    assert (error.code, error.params["needed"]) == ("too_low", 6)
    state, _ = run(state, (1, "9"), (2, "pass"))
    error = refused(state, 3, "7")
    assert (error.code, error.params["needed"]) == ("too_low", 10)
    state, events = run(state, (3, "10"))
    assert of_type(events, "trick_won")[0]["seat"] == 3


def test_when_nobody_beats_the_leader_leads_again():
    state = game([["D", "13", "1"], ["5", "9"], ["2", "3"], ["7", "10"]])
    state, events = run(state, (0, "13"), (1, "pass"), (2, "pass"), (3, "pass"))
    assert of_type(events, "trick_won")[0]["seat"] == 0
    assert oe.to_act(state) == [0]


def test_suits_do_not_exist_so_any_card_of_the_value_counts():
    state = game([["D", "4", "4", "1"], ["6", "6", "2"], ["3"], ["2", "5"]])
    state, _ = run(state, (0, "4 4"))
    assert legal_texts(state, 1) == {"play 6 6", "pass"}


# --- jokers -----------------------------------------------------------------------------

def test_joker_played_with_numbers_takes_their_value():
    # "2 cartes 11 et un Joker équivalent à 3 cartes 11."
    state = game([["D", "11", "11", "J", "1"], ["11", "11", "11", "2"],
                  ["12", "12", "12", "3"], ["4"]])
    state, _ = run(state, (0, "11 11 J"))
    assert oe.view(state)["trick"]["best_value"] == 11
    assert refused(state, 1, "11 11 11").code == "too_low"
    state, events = run(state, (1, "pass"), (2, "12 12 12"), (3, "pass"))
    assert of_type(events, "trick_won")[0]["seat"] == 2


def test_lone_joker_counts_14_and_cannot_be_beaten():
    state = game([["D", "J", "1"], ["13", "J", "2"], ["13", "3"], ["4", "5"]])
    state, _ = run(state, (0, "J"))
    assert oe.view(state)["trick"]["best_value"] == 14
    for text in ("J", "13"):  # told that nothing can beat it, not to reach 15
        error = refused(state, 1, text)
        assert (error.code, error.params["reason"]) == ("too_low", "unbeatable")
    assert legal_texts(state, 1) == {"pass"}


def test_a_pair_of_13_can_only_be_beaten_by_a_pair_of_jokers():
    state = game([["D", "13", "13", "1"], ["13", "J", "J", "2"], ["3"], ["4"]])
    state, _ = run(state, (0, "13 13"))
    assert refused(state, 1, "13 J").code == "too_low"
    assert legal_texts(state, 1) == {"play J J", "pass"}
    state, events = run(state, (1, "J J"), (2, "pass"), (3, "pass"))
    assert of_type(events, "trick_won")[0]["seat"] == 1


def test_a_joker_counts_1_in_a_donkey_trick():
    # A joker ties a 1 (the later one takes), and loses to a 2.
    state = game([["D", "5"], ["1", "6"], ["J", "7"], ["2", "8"]], rounds=2)
    state, events = run(state, (0, "D"), (1, "1"), (2, "J"))
    assert oe.view(state)["trick"]["best_seat"] == 2
    state, events = run(state, (3, "2"))
    assert of_type(events, "took_donkey")[0]["seat"] == 3


# --- the donkey -------------------------------------------------------------------------

def test_donkey_trick_example_highest_takes_all_cards_into_hand_ties_to_the_later_player():
    # "Charles ... joue l'âne. Dorothée joue un 2. Ernest suit avec un 1. ... André joue,
    # comme Dorothée, un 2. Enfin Brigitte joue un Joker qui compte comme un 1. ...
    # c'est lui qui doit prendre en main les cinq cartes de ce tour."
    state = game([["2", "9"], ["J", "9"], ["D", "9"], ["2", "9"], ["1", "9"]])
    assert oe.to_act(state) == [CHARLES]
    state, events = run(state, (CHARLES, "D"), (DOROTHEE, "2"), (ERNEST, "1"),
                        (ANDRE, "2"), (BRIGITTE, "J"))
    took = of_type(events, "took_donkey")
    assert [(e["seat"], e["cards"]) for e in took] == [(ANDRE, ["1", "2", "2", "J", "D"])]
    assert hand(state, ANDRE) == ["1", "2", "2", "9", "J", "D"]
    assert oe.view(state)["hand_sizes"] == [6, 1, 1, 1, 1]
    # "Il sera le premier joueur du prochain tour, mais n'aura pas le droit de jouer
    # immédiatement l'âne."
    assert oe.to_act(state) == [ANDRE]
    assert refused(state, ANDRE, "D").code == "animal_just_received"
    assert "play D" not in legal_texts(state, ANDRE)


def test_donkey_receiver_may_lead_it_again_two_tricks_later():
    # "Cela lui est possible au plus tôt deux tours plus tard, et à la condition qu'il
    # soit le premier joueur du tour."
    state = game([["D", "1", "2"], ["5", "3"], ["3", "4"], ["13", "12", "11"]])
    state, _ = run(state, (0, "D"), (1, "5"), (2, "3"), (3, "13"))
    assert oe.to_act(state) == [3]
    assert refused(state, 3, "D").code == "animal_just_received"
    state, _ = run(state, (3, "12"), (0, "pass"), (1, "pass"), (2, "pass"))
    assert oe.view(state)["trick"]["number"] == 3
    state, events = run(state, (3, "D"))
    assert of_type(events, "led_animal")[0]["seat"] == 3


def stored_in_trick_two(hand: list[str]) -> oe.State:
    """A stored table in trick 2 where André took the donkey in trick 1 and holds `hand`."""
    snapshot = json.loads(oe.dump(game([hand, ["7", "9"], ["8", "9"]])))
    snapshot["state"]["received"] = {"D": 1}
    snapshot["state"]["trick"]["number"] = 2
    return oe.load(json.dumps(snapshot))


def test_a_leader_holding_only_an_animal_it_may_not_lead_yet_still_leads_it():
    # Play never reaches this position (a trick's winner keeps a card it played, and a
    # hand emptied in trick 1 or 2 ends the round before an animal leaves the middle),
    # but a stored table may hold it: the game must not stall with nobody able to move.
    state = stored_in_trick_two(["D"])
    assert legal_texts(state, ANDRE) == {"play D"}
    state, events = run(state, (ANDRE, "D"))
    assert [e["cards"] for e in of_type(events, "led_animal")] == [["D"]]
    # With another card to lead, the donkey waits its two tricks as the rule says.
    state = stored_in_trick_two(["D", "5"])
    assert legal_texts(state, ANDRE) == {"play 5"}
    assert refused(state, ANDRE, "D").code == "animal_just_received"


def test_donkey_is_played_alone():
    state = game([["D", "5", "6"], ["7"], ["8"]])
    error = refused(state, 0, "D 5")
    assert (error.code, error.params["animal"]) == ("animal_alone", "D")


def test_donkey_can_only_be_played_by_the_leader():
    # "Le joueur qui possède l'âne ne peut le jouer que s'il est le premier joueur du tour."
    state = game([["D", "1", "2"], ["5", "3", "9"], ["3", "4", "6"], ["13", "12", "11"]])
    state, _ = run(state, (0, "D"), (1, "5"), (2, "3"), (3, "13"))  # Dorothée takes it
    state, _ = run(state, (3, "3"), (0, "pass"), (1, "9"), (2, "pass"))
    state, _ = run(state, (1, "3"), (2, "4"))
    assert "D" in hand(state, 3)
    error = refused(state, 3, "D")
    assert (error.code, error.params["animal"]) == ("animal_only_leads", "D")
    assert "play D" not in legal_texts(state, 3)


def test_nobody_may_pass_in_a_donkey_trick_and_each_plays_one_card_of_any_value():
    state = game([["D", "13"], ["12", "3", "3"], ["1", "2"], ["4", "5"]])
    state, _ = run(state, (0, "D"))
    assert refused(state, 1, "3 3").code == "must_play_one_card"
    state, _ = run(state, (1, "12"))
    error = refused(state, 2, "pass")
    assert (error.code, error.params["kind"]) == ("must_play_one_card", "donkey")
    # Lower than the card before is fine: there is no condition on the value.
    assert legal_texts(state, 2) == {"play 1", "play 2"}
    assert refused(state, 2, "1 2").code == "must_play_one_card"
    state, events = run(state, (2, "1"), (3, "4"))
    assert of_type(events, "took_donkey")[0]["seat"] == 1


def test_donkey_may_be_led_in_a_rounds_first_trick_even_right_after_taking_it():
    # Seat 2 takes the donkey in the last trick of round 1, then leads round 2 with it.
    state = game([["D"], ["5"], ["7", "8"]], rounds=2)
    state, events = run(state, (0, "D"), (1, "5"), (2, "7"))
    assert of_type(events, "took_donkey")[0]["seat"] == 2
    assert of_type(events, "round_over")[0]["penalties"] == [0, 0, 5 + 7 + 8 + 20]
    assert oe.to_act(state) == [2]
    assert "play D" in legal_texts(state, 2)
    state, events = run(state, (2, "D"))
    assert of_type(events, "led_animal")[0]["seat"] == 2


# --- end of a round, penalties, next round ----------------------------------------------

def test_a_round_ends_at_the_end_of_the_trick_in_which_a_hand_empties():
    state = game([["D", "5", "6"], ["7"], ["8", "9"], ["10", "11"]])
    state, events = run(state, (0, "5"), (1, "7"))
    assert not of_type(events, "round_over")
    assert oe.to_act(state) == [2]  # the trick goes on after Brigitte's last card
    state, events = run(state, (2, "8"), (3, "10"))
    assert of_type(events, "round_over")[0]["penalties"] == [6 + 20, 0, 9, 11]


def test_emptying_the_hand_in_a_donkey_trick_and_taking_it_does_not_end_the_round():
    # "Si un joueur joue sa dernière carte dans un tour d'âne mais qu'il doit prendre les
    # cartes jouées en main à la fin du tour, la manche n'est pas terminée."
    state = game([["D", "2", "3"], ["13"], ["5", "6"], ["4", "7"]])
    state, events = run(state, (0, "D"), (1, "13"), (2, "5"), (3, "4"))
    assert not of_type(events, "round_over")
    assert hand(state, 1) == ["4", "5", "13", "D"]
    assert oe.to_act(state) == [1]


def test_leading_the_donkey_as_last_card_ends_the_round_for_a_clean_hand():
    state = game([["D"], ["13", "1"], ["5", "6"]])
    state, events = run(state, (0, "D"), (1, "13"), (2, "5"))
    assert of_type(events, "round_over")[0]["penalties"] == [0, 1 + 5 + 13 + 20, 6]


def test_penalties_3_10_and_joker_make_27():
    # "André a encore 3 cartes en main : un 3, un 10 et un Joker. Il perd donc
    # 3 + 10 + 14 = 27 points." Brigitte keeps the donkey: 20.
    state = game([["3", "10", "J"], ["D", "5", "8"], ["13"]])
    state, events = run(state, (BRIGITTE, "5"), (CHARLES, "13"), (ANDRE, "pass"))
    over = of_type(events, "round_over")[0]
    assert over["penalties"] == [27, 20 + 8, 0]
    assert over["hands"][ANDRE] == ["3", "10", "J"]
    assert oe.outcome(state) is not None
    assert oe.outcome(state).scores == [27, 28, 0]


def test_the_donkey_holder_keeps_it_and_leads_the_next_round():
    state = game([["D", "2", "3"], ["13"], ["5", "6"], ["4", "12"]], rounds=2, seed=11)
    state, _ = run(state, (0, "D"), (1, "13"), (2, "5"), (3, "4"))  # Brigitte takes it
    state, events = run(state, (1, "4"), (2, "6"), (3, "12"), (0, "pass"))
    assert of_type(events, "round_over")[0]["hands"][1] == ["5", "13", "D"]
    started = of_type(events, "round_started")[0]
    assert (started["round"], started["first"]) == (2, 1)
    assert oe.to_act(state) == [1]
    # A fresh deal of the 108 cards: 13 each, the donkey stays with Brigitte.
    assert oe.view(state)["hand_sizes"] == [13, 14, 13, 13]
    assert "D" in hand(state, 1)


def play_out_with_the_bot(state: oe.State) -> tuple[oe.State, list[dict[str, Any]]]:
    rng = random.Random(0)
    events: list[dict[str, Any]] = []
    for _ in range(5000):
        if oe.outcome(state) is not None:
            break
        seat = oe.to_act(state)[0]
        state, new = oe.apply(state, seat, bot_move(oe, state, seat, rng))
        events.extend(new)
    return state, events


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_number_of_rounds_is_configurable(rounds):
    state, events = play_out_with_the_bot(oe.new_game(4, {"rounds": rounds}, seed=5))
    assert [e["round"] for e in of_type(events, "round_over")] == list(range(1, rounds + 1))
    assert len(of_type(events, "game_over")) == 1
    assert oe.to_act(state) == []


def test_a_game_has_five_rounds_by_default():
    _, events = play_out_with_the_bot(oe.new_game(3, seed=2))
    assert len(of_type(events, "round_over")) == 5


def test_lowest_total_wins_and_ties_share_a_place():
    # Seats 1 and 2 both empty their hands in the same trick: 0 points each, both first.
    state = game([["D", "4"], ["5"], ["6"], ["3", "9"]])
    state, events = run(state, (0, "4"), (1, "5"), (2, "6"), (3, "9"))
    result = oe.outcome(state)
    assert result is not None
    assert result.scores == [20, 0, 0, 3]
    assert result.ranking == [4, 1, 1, 3]
    assert of_type(events, "game_over")[0]["ranking"] == [4, 1, 1, 3]


def test_no_move_is_accepted_once_the_game_is_over():
    state = game([["D", "4"], ["5"], ["6"]])
    state, _ = run(state, (0, "4"), (1, "5"), (2, "pass"))
    assert oe.outcome(state) is not None
    assert oe.to_act(state) == []
    assert oe.legal_moves(state, 0) == []
    assert refused(state, 0, "D").code == "game_over"
    assert refused(state, 2, "pass").code == "game_over"


# --- the Ochs variant -------------------------------------------------------------------

def test_ox_variant_starts_with_ox_and_donkey_in_the_middle():
    state = oe.new_game(4, {"ox": True}, seed=1)
    public = oe.view(state)
    assert public["animals"] == {"D": {"place": "middle", "seat": None},
                                 "O": {"place": "middle", "seat": None}}
    assert public["hand_sizes"] == [13, 13, 13, 13]
    assert not any({"D", "O"} & set(hand(state, s)) for s in range(4))


def ox_round() -> oe.State:
    return game([["2", "3"], ["5", "12", "13"], ["8", "9", "10"], ["1", "1"]],
                first=0, ox=True, rounds=2, seed=4)


def test_ox_goes_to_the_winner_of_trick_1_and_donkey_to_the_winner_of_trick_2():
    state, events = run(ox_round(), (0, "2"), (1, "5"), (2, "8"), (3, "pass"))
    assert [(e["seat"], e["animal"]) for e in of_type(events, "took_animal")] == [(2, "O")]
    assert hand(state, 2) == ["9", "10", "O"]
    # The ox cannot be led in the trick right after it was received.
    assert refused(state, 2, "O").code == "animal_just_received"
    state, events = run(state, (2, "9"), (3, "pass"), (0, "pass"), (1, "12"))
    assert [(e["seat"], e["animal"]) for e in of_type(events, "took_animal")] == [(1, "D")]
    assert oe.view(state)["animals"]["D"] == {"place": "hand", "seat": 1}
    assert refused(state, 1, "D").code == "animal_just_received"


def test_ox_in_hand_costs_15_and_the_donkey_holder_leads_the_next_round():
    state, _ = run(ox_round(), (0, "2"), (1, "5"), (2, "8"), (3, "pass"),
                   (2, "9"), (3, "pass"), (0, "pass"), (1, "12"),
                   (1, "13"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert hand(state, 1) == ["D"]
    # Trick 4: two tricks after receiving it, Brigitte leads the donkey, her last card.
    state, events = run(state, (1, "D"), (2, "10"), (3, "1"), (0, "3"))
    assert of_type(events, "took_donkey")[0]["seat"] == 2
    over = of_type(events, "round_over")[0]
    assert over["penalties"] == [0, 0, 1 + 3 + 10 + 20 + 15, 1]
    assert oe.to_act(state) == [2]
    assert not any({"D", "O"} & set(hand(state, s)) for s in range(4))


def test_ox_variant_round_ending_before_trick_2_leaves_the_donkey_in_the_middle():
    # docs/games/ochs-esel.md: the round-end check comes first; an animal left in the
    # middle counts for nobody, and the next round is led by the previous round's first player.
    state = game([["2", "3"], ["5", "12"], ["8", "9", "10"], ["1", "1"]],
                 first=0, ox=True, rounds=2, seed=4)
    state, events = run(state, (0, "2"), (1, "5"), (2, "8"), (3, "pass"),
                        (2, "9"), (3, "pass"), (0, "pass"), (1, "12"))
    assert not [e for e in of_type(events, "took_animal") if e["animal"] == "D"]
    assert of_type(events, "round_over")[0]["penalties"] == [3, 0, 10 + 15, 2]
    assert oe.to_act(state) == [0]


def test_ox_variant_round_ending_in_trick_1_leaves_the_ox_in_the_middle():
    state = game([["7"], ["5", "6"], ["8", "9"]], first=0, ox=True)
    state, events = run(state, (0, "7"), (1, "pass"), (2, "8"))
    assert not of_type(events, "took_animal")
    assert of_type(events, "round_over")[0]["penalties"] == [0, 11, 9]
    assert oe.view(state)["animals"]["O"] == {"place": "middle", "seat": None}


def test_ox_trick_goes_face_down_before_the_winner_and_counts_jokers_1_and_the_ox_0():
    state = game([["O", "5", "6"], ["9", "J", "2"], ["3", "9"], ["D", "4", "8"]],
                 first=0, ox=True)
    state, _ = run(state, (0, "O"), (1, "J"))
    # The donkey never joins the ox's trick, and nobody may pass while holding numbers.
    assert refused(state, 2, "pass").code == "must_play_one_card"
    state, _ = run(state, (2, "9"))
    assert refused(state, 3, "D").code == "animal_only_leads"
    state, events = run(state, (3, "8"))
    took = of_type(events, "took_ox_trick")[0]
    assert (took["seat"], took["penalty"]) == (2, 0 + 1 + 9 + 8)
    # Not into the hand: Charles keeps only his 3, and leads.
    assert hand(state, 2) == ["3"]
    assert oe.to_act(state) == [2]
    assert sorted(oe.view(state, 2)["ox_pile"]) == sorted(["O", "J", "9", "8"])
    assert oe.view(state)["ox_pile_sizes"] == [0, 0, 4, 0]
    assert oe.view(state, 1)["ox_pile"] == []
    assert "ox_pile" not in oe.view(state)
    state, events = run(state, (2, "3"), (3, "4"), (0, "pass"), (1, "9"))
    assert of_type(events, "round_over")[0]["penalties"] == [11, 2, 18, 20]


@pytest.mark.parametrize(("led", "held"), [("O", "D"), ("D", "O")])
def test_a_player_holding_only_the_other_animal_passes_in_an_animal_trick(led, held):
    # "Si dans le tour du bœuf ou dans un tour d'âne, un joueur n'a en main que l'âne ou le
    # bœuf, il doit exceptionnellement passer." Donkey and ox are never in one trick.
    state = game([[led, "5"], [held], ["7", "8"], ["4", "9"]], first=0, ox=True)
    state, _ = run(state, (0, led))
    assert legal_texts(state, 1) == {"pass"}
    assert refused(state, 1, held).code == "animal_only_leads"
    state, events = run(state, (1, "pass"), (2, "7"), (3, "9"))
    assert not of_type(events, "round_over")  # Brigitte still holds her animal
    assert oe.to_act(state) == [3]


def test_only_one_ox_trick_per_round_since_its_cards_leave_play():
    state = game([["O", "5", "6"], ["9", "2"], ["3", "10"], ["4", "8"]], first=0, ox=True)
    state, _ = run(state, (0, "O"), (1, "9"), (2, "3"), (3, "4"))
    assert oe.view(state)["animals"]["O"] == {"place": "pile", "seat": 1}
    assert not any("O" in hand(state, s) for s in range(4))


# --- refusal codes (each with its own code; the contract's order decides ties) ----------

def refusal_table() -> oe.State:
    state = game([["D", "5", "5", "J"], ["7", "7", "9"], ["8", "8", "1"], ["3", "4"]])
    state, _ = run(state, (0, "5 5"))
    return state


def test_wrong_count_is_refused_as_must_match_count():
    assert refused(refusal_table(), 1, "9").code == "must_match_count"


def test_not_higher_is_refused_as_too_low():
    state, _ = run(refusal_table(), (1, "7 7"))
    error = refused(state, 2, "4 4")  # neither higher nor held: too_low comes first
    assert (error.code, error.params["needed"]) == ("too_low", 8)


def test_a_card_not_in_hand_is_refused_as_card_not_in_hand():
    error = refused(refusal_table(), 1, "12 12")
    assert (error.code, error.params["cards"]) == ("card_not_in_hand", ["12", "12"])


def test_playing_out_of_turn_is_refused_as_not_your_turn():
    error = refused(refusal_table(), 2, "8 8")
    assert (error.code, error.params["to_act"]) == ("not_your_turn", [1])
    assert refused(refusal_table(), 3, "12").code == "not_your_turn"  # before anything else


def test_the_leader_cannot_pass():
    state = game([["D", "5"], ["7"], ["8"]])
    assert refused(state, 0, "pass").code == "leader_cannot_pass"


def test_mixed_values_are_refused_as_not_a_set():
    state = game([["D", "5", "6"], ["7"], ["8"]])
    assert refused(state, 0, "5 6").code == "not_a_set"
    state, _ = run(refusal_table(), (1, "7 7"))
    assert refused(state, 2, "8 1").code == "not_a_set"


def test_unknown_card_text_is_refused_by_parse_move():
    state = refusal_table()
    for text in ("play 7 X", "14", "play 0", "7 7 K"):
        with pytest.raises(IllegalMove) as info:
            oe.parse_move(state, 1, text)
        assert info.value.code == "unknown_card"


def test_empty_text_is_bad_notation():
    for text in ("", "   ", "play", "/play"):
        with pytest.raises(IllegalMove) as info:
            oe.parse_move(refusal_table(), 1, text)
        assert info.value.code == "bad_notation"


def test_notation_accepts_french_words_any_case_and_pasted_commands():
    state = refusal_table()
    assert oe.parse_move(state, 1, "/play 7, 7") == oe.Play(("7", "7"))
    assert oe.parse_move(state, 1, "Joue 7 JOKER") == oe.Play(("7", "J"))
    assert oe.parse_move(state, 1, "passe") == oe.Pass()
    assert oe.parse_move(state, 1, "PASS") == oe.Pass()
    for word in ("D", "e", "Esel", "âne", "donkey"):
        assert oe.parse_move(state, 0, word) == oe.Play(("D",))
    for word in ("O", "Ochs", "Bœuf", "boeuf", "ox"):
        assert oe.parse_move(state, 0, word) == oe.Play(("O",))
    # Cards may come in any order; the canonical text lists them in hand order.
    assert str(oe.parse_move(state, 0, "J 5 5")) == "play 5 5 J"


def test_apply_refuses_a_move_with_codes_that_are_no_card_as_unknown_card():
    # docs/engine-contract.md: illegal input raises IllegalMove, also when a Move is built by hand.
    state = game([["D", "5"], ["7"], ["8"]])
    for cards in (("X",), ("J", "X"), ("14",)):
        with pytest.raises(IllegalMove) as info:
            oe.apply(state, 0, oe.Play(cards))
        assert info.value.code == "unknown_card"
