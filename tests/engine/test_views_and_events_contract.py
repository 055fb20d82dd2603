"""What the bot reads from the engine: every view key and every event field it narrates.

The chat renders views and narrates events without diffing states, so a view that drops a
key, or an event that loses its seat or its amount, shows up as a broken table or a
sentence naming nobody. These tables are the contract; random games of every game and
variant must keep to it, field by field and type by type.
"""

import random
from typing import Any

import pytest

from engine import games
from engine import michigan as mi
from engine import the_game as tg
from engine.core import fit_for

SEAT = "seat"
CARDS = "cards"
INT = "int"
BOOL = "bool"
LIST = "list"
DICT = "dict"
TEXT = "text"
CARD = "card"
SEAT_OR_NONE = "seat?"

# event type -> field -> kind of value
EVENTS: dict[str, dict[str, dict[str, str]]] = {
    "ochs-esel": {
        "led": {"seat": SEAT, "cards": CARDS, "trick": TEXT},
        "led_animal": {"seat": SEAT, "cards": CARDS, "trick": TEXT},
        "beat": {"seat": SEAT, "cards": CARDS},
        "played": {"seat": SEAT, "cards": CARDS},
        "passed": {"seat": SEAT},
        "trick_won": {"seat": SEAT, "cards": CARDS, "trick": INT},
        "took_donkey": {"seat": SEAT, "cards": CARDS},
        "took_ox_trick": {"seat": SEAT, "cards": CARDS, "penalty": INT},
        "took_animal": {"seat": SEAT, "animal": CARD},
        "round_over": {"round": INT, "penalties": LIST, "scores": LIST, "hands": LIST},
        "round_started": {"round": INT, "first": SEAT},
        "game_over": {"scores": LIST, "ranking": LIST},
    },
    "the-game": {
        "played": {"seat": SEAT, "card": CARD, "pile": TEXT, "previous": INT, "jump": BOOL},
        "turn_ended": {"seat": SEAT, "played": INT, "drawn": INT, "draw_size": INT},
        "game_lost": {"seat": SEAT, "needed": INT, "score": INT, "hands": LIST},
        "game_won": {"score": INT},
        "signalled": {"seat": SEAT, "pile": TEXT, "signal": TEXT},
    },
    "nix-fur-ungut": {
        "turn_started": {"round": INT, "turn": INT},
        "played": {"seat": SEAT, "row": TEXT, "cards": CARDS, "super": BOOL, "turn": INT},
        "pushed_off": {"seat": SEAT, "row": TEXT, "super": BOOL},
        "super_as_normal": {"seat": SEAT},
        "personne_revealed": {"cards": CARDS, "turn": INT},
        "round_over": {"round": INT, "points": LIST, "scores": LIST, "board": DICT},
        "round_started": {"round": INT, "first": SEAT},
        "game_over": {"scores": LIST, "ranking": LIST},
    },
    "michigan": {
        "deal_started": {"deal": INT, "dealer": SEAT, "chips": LIST, "pay_cards": LIST},
        "kept": {"seat": SEAT},
        "swapped": {"seat": SEAT},
        "auction_opened": {"seat": SEAT},
        "bid": {"seat": SEAT, "amount": INT},
        "passed": {"seat": SEAT, "automatic": BOOL},
        "auction_won": {"seat": SEAT, "amount": INT, "dealer": SEAT},
        "auction_no_bid": {"dealer": SEAT},
        "led": {"seat": SEAT, "card": CARD, "suit": TEXT, "automatic": BOOL},
        "played": {"seat": SEAT, "card": CARD},
        "pay_card_won": {"seat": SEAT, "card": CARD, "chips": INT},
        "sequence_stopped": {"seat": SEAT, "card": CARD, "suit": TEXT, "reason": TEXT},
        "went_out": {"seat": SEAT},
        "deal_over": {"deal": INT, "seat": SEAT, "cards_left": LIST, "payments": LIST,
                      "chips": LIST, "pay_cards": LIST},
        "game_over": {"scores": LIST, "ranking": LIST, "pay_cards": LIST},
    },
}

PUBLIC_VIEW: dict[str, set[str]] = {
    "ochs-esel": {"game", "to_act", "round", "rounds", "first", "hand_sizes", "scores",
                  "round_scores", "ox", "trick", "animals", "ox_pile_sizes", "over",
                  # public history the bots count cards with
                  "discards", "known", "pending", "received"},
    "the-game": {"game", "to_act", "round", "first", "hand_sizes", "scores", "draw_size",
                 "hand_size", "min_play", "minimum", "over", "piles", "played", "turn", "won",
                 "signals", "on_piles"},
    "nix-fur-ungut": {"game", "to_act", "round", "rounds", "first", "hand_sizes", "scores",
                      "round_scores", "board", "board_points", "board_values", "draw_size",
                      "over", "personne", "placed", "super_used", "turn", "played"},
    "michigan": {"game", "to_act", "round", "hand_sizes", "scores", "auction", "chips",
                 "deal", "dealer", "deals", "decision", "extra_hand", "leader", "over",
                 "pay_cards", "phase", "played", "sequence", "suit", "start_chips"},
}
# Keys only a seat's own view has, besides "seat" and "hand".
OWN_VIEW: dict[str, set[str]] = {"ochs-esel": {"ox_pile", "ox_pile_points"},
                                  "michigan": {"discarded"}}
# Keys a variant adds to the public view.
VARIANT_VIEW: dict[str, set[str]] = {"nix-fur-ungut": {"personne_cards", "personne_seat"}}
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "ochs-esel": [{}, {"ox": True}],
    "the-game": [{}, {"min_play": 3}],
    "nix-fur-ungut": [{}, {"personne": True}],
    "michigan": [{}],
}


def fits(kind: str, value: Any, seats: int, deck: set[str]) -> bool:
    if kind in (SEAT, SEAT_OR_NONE):
        return (value is None and kind == SEAT_OR_NONE) or (
            type(value) is int and 0 <= value < seats)
    if kind == CARDS:
        return isinstance(value, list) and all(card in deck for card in value)
    if kind == CARD:
        return str(value) in deck
    return isinstance(value, {INT: int, BOOL: bool, LIST: list, DICT: dict, TEXT: str}[kind]) \
        and (kind != INT or type(value) is int)


def playouts(game_id: str) -> Any:
    """Random games of every variant and seat count: (game, options, seats, state, events)."""
    game = games.get(game_id)
    for options in VARIANTS[game_id]:
        seat_counts = list(game.SEATS)
        for seats in sorted({seat_counts[0], seat_counts[len(seat_counts) // 2], seat_counts[-1]}):
            for seed in range(3):
                state = game.new_game(seats, options, seed=seed)
                rng = random.Random(seed * 100 + seats)
                yield game, options, seats, state, []
                for _ in range(4000):
                    if game.outcome(state) is not None:
                        break
                    seat = game.to_act(state)[0]
                    state, events = game.apply(state, seat,
                                               rng.choice(list(game.legal_moves(state, seat))))
                    yield game, options, seats, state, fit_for(events, None)
                assert game.outcome(state) is not None


def deck_of(game: Any) -> set[str]:
    """Every card code of a game, as events write them (The Game's cards are numbers)."""
    return {str(card) for card in game.DECK} | ({"D", "O"} if game.ID == "ochs-esel" else set())


@pytest.mark.parametrize("game_id", sorted(EVENTS))
def test_every_event_carries_the_fields_the_chat_narrates(game_id: str) -> None:
    seen: set[str] = set()
    deck: set[str] | None = None
    for game, _options, seats, _state, events in playouts(game_id):
        if deck is None:
            deck = deck_of(game)
        players = seats + 1  # Monsieur Personne scores after the seats
        for event in events:
            fields = EVENTS[game_id].get(event["type"])
            assert fields is not None, f"unknown event {event}"
            assert set(event) == {"type", *fields}, event
            for name, kind in fields.items():
                assert fits(kind, event[name], players, deck), (name, event)
            seen.add(event["type"])
    # A perfect game, an auction nobody bids in and a signal (no legal move: a seat says
    # it whenever it likes) have tests of their own.
    unseen = set(EVENTS[game_id]) - seen - {"game_won", "auction_no_bid", "signalled"}
    assert not unseen, f"no random game produced {unseen}"


@pytest.mark.parametrize("game_id", sorted(PUBLIC_VIEW))
def test_views_have_exactly_the_keys_the_bot_reads(game_id: str) -> None:
    for game, options, seats, state, _events in playouts(game_id):
        extra = VARIANT_VIEW.get(game_id, set()) if any(options.values()) else set()
        public = game.view(state)
        assert set(public) == PUBLIC_VIEW[game_id] | extra
        assert public["game"] == game_id
        assert len(public["hand_sizes"]) == seats
        for seat in range(seats):
            own = game.view(state, seat)
            assert set(own) == set(public) | {"seat", "hand"} | OWN_VIEW.get(game_id, set())
            assert own["seat"] == seat
            assert len(own["hand"]) == public["hand_sizes"][seat]
        if game.outcome(state) is not None:
            assert public["over"] is True and public["to_act"] == []
        else:
            assert public["over"] is False and public["to_act"] == game.to_act(state)


def test_the_game_won_event_gives_a_perfect_score() -> None:
    state = tg.new_game(1, {"min_play": 1}, seed=1,
                        setup={"hands": [["2"]], "draw": []})
    state, events = tg.apply(state, 0, tg.parse_move(state, 0, "2 A1"))
    won = [e for e in events if e["type"] == "game_won"]
    assert won == [{"type": "game_won", "score": 0}]
    assert tg.outcome(state) is not None and tg.outcome(state).scores == [0]


def test_michigan_auction_without_bids_names_the_dealer() -> None:
    state = mi.new_game(3, seed=4, setup={"hands": [["2S"], ["3S"], ["4S"], ["5S"]],
                                          "dealer": 2})
    state, events = mi.apply(state, 2, mi.parse_move(state, 2, "auction"))
    while mi.view(state)["phase"] == "auction":
        seat = mi.to_act(state)[0]
        state, new = mi.apply(state, seat, mi.parse_move(state, seat, "pass"))
        events += new
    assert {"type": "auction_no_bid", "dealer": 2} in events


def test_a_signal_names_its_author_pile_and_kind() -> None:
    state = tg.new_game(3, seed=1)
    quiet = next(s for s in range(3) if s not in tg.to_act(state))
    state, events = tg.apply(state, quiet, tg.parse_move(state, quiet, "signal A1 stop"))
    assert events == [{"type": "signalled", "seat": quiet, "pile": "A1", "signal": "stop"}]
