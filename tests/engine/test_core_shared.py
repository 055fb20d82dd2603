"""The pieces every game shares, held directly: how chat text is read, how a number typed
in chat is read, how places are given, and how a seed draws.

Each game's tests reach these through its own notation; these hold the cases no game's
test happens to type (a capital Œ, a number with leading zeros, a tie for first place).
"""

from engine.core.notation import fold, numbers_first, read_number, strip_verb, tokens
from engine.core.rng import rng_for, shuffled
from engine.core.types import Outcome, event


def test_folding_lowers_and_drops_accents_and_ligatures() -> None:
    assert fold("Bœuf") == fold("BŒUF") == fold("boeuf") == "boeuf"
    assert fold("Cæsar") == "caesar"
    assert fold("  Élan ") == "elan"
    assert fold("Zurück") == "zuruck"


def test_a_move_text_splits_on_blanks_commas_semicolons_and_plus() -> None:
    assert tokens("Play 5, 6;7+8") == ["play", "5", "6", "7", "8"]
    assert tokens("  ") == []


def test_a_pasted_command_slash_is_dropped() -> None:
    assert tokens("/play 5") == ["play", "5"]
    assert tokens("/ play 5") == ["play", "5"]
    assert tokens("/") == []
    assert tokens("play /5") == ["play", "/5"]  # only a leading slash is a command's


def test_a_leading_verb_is_dropped_only_when_it_is_one() -> None:
    assert strip_verb(["play", "5"], {"play"}) == ["5"]
    assert strip_verb(["5", "play"], {"play"}) == ["5", "play"]
    assert strip_verb([], {"play"}) == []


def test_hands_list_numbers_by_value_then_named_cards_in_the_games_order() -> None:
    assert sorted(["J", "10", "D", "2", "Z"], key=numbers_first({"J": 0, "D": 1})) == \
        ["2", "10", "J", "D", "Z"]


def test_a_number_typed_in_chat_reads_with_leading_zeros_and_caps() -> None:
    assert read_number("007", 100) == 7
    assert read_number("000", 100) == 0
    assert read_number("99", 100) == 99
    assert read_number("42", 99) == 42  # as many digits as the cap, and below it
    assert read_number("101", 100) == 100
    assert read_number("12345", 100) == 100
    assert read_number("9" * 5000, 100) == 100  # too long for int(): still the cap


def test_only_ascii_digits_read_as_a_number() -> None:
    assert read_number("\u0661\u0662", 100) is None  # Arabic-Indic 12
    assert read_number("5a", 100) is None
    assert read_number("", 100) is None


def test_tied_seats_share_a_place_and_the_next_place_is_skipped() -> None:
    assert Outcome.from_scores([5, 3, 5, 1], lower_wins=True).ranking == [3, 2, 3, 1]
    assert Outcome.from_scores([5, 3, 5, 1], lower_wins=False).ranking == [1, 3, 1, 4]
    assert Outcome.from_scores([5, 3, 5, 1], lower_wins=False).scores == [5, 3, 5, 1]


def test_an_event_is_its_type_and_its_fields() -> None:
    assert event("passed", seat=2) == {"type": "passed", "seat": 2}


def test_a_seeded_draw_is_the_same_everywhere_and_depends_on_every_label() -> None:
    """String seeds go through SHA-512, so these values hold on every machine and
    Python version: stored games replay from them."""
    deck = list(range(8))
    assert shuffled(deck, 1, "deal", 1) == [1, 2, 0, 4, 3, 6, 7, 5]
    assert deck == list(range(8))  # the input is not shuffled in place
    assert shuffled(deck, 1, "deal", 2) != shuffled(deck, 1, "deal", 1)
    assert shuffled(deck, 2, "deal", 1) != shuffled(deck, 1, "deal", 1)
    assert rng_for(1, "x").random() == 0.6332512152986781
