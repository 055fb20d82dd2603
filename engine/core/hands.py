"""What the games share about a hand of cards."""

from collections import Counter
from collections.abc import Callable
from typing import Any


def missing_cards(cards: list[str] | tuple[str, ...], hand: list[str]) -> Counter[str] | None:
    """The cards `hand` lacks to play `cards`, as many times as it lacks them; None when
    it lacks none, as nearly every move does: a count per card says so without the two
    Counters the answer takes (a fifth of an `apply`)."""
    if all(cards.count(card) <= hand.count(card) for card in set(cards)):
        return None
    return Counter(cards) - Counter(hand)


def short_of(cards: list[str] | tuple[str, ...], hand: list[str] | tuple[str, ...],
             missing: Counter[str], order: Callable[[list[str]], list[str]]) -> dict[str, Any]:
    """When the hand holds some but too few of a card (`13 13` with one 13), the refusal's
    `reason="short"` parameters: which card, how many are held, how many the move needs,
    and the move's cards (in the game's `order`), so the player reads exactly that rather
    than "you don't have it". Empty when every missing card is one the hand lacks
    altogether."""
    for card in order(list(missing)):
        held = Counter(hand)[card]
        if held:
            return {"reason": "short", "card": card, "held": held,
                    "wanted": Counter(cards)[card], "played": order(list(cards))}
    return {}
