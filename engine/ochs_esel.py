"""Ochs & Esel (Wolfgang Kramer), with the Ochs variant.

The rules as Tapis plays them, notation and decisions: docs/games/ochs-esel.md.
A round is a series of tricks ("tours"): the leader fixes how many cards of one value
everyone plays, each other player beats strictly higher or passes, once. The donkey
(and, in the variant, the ox) can only be led, alone, and starts a trick in which every
other player must play one card and the highest takes everything.
"""

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import Field

from engine.core.capabilities import Capabilities
from engine.core.errors import BadOptions, IllegalMove
from engine.core.hands import missing_cards, short_of
from engine.core.notation import numbers_first, strip_verb, tokens
from engine.core.options import GameOptions, check_seats, check_setup_keys, parse_options
from engine.core.rng import rng_for, shuffled
from engine.core.state import Snapshots
from engine.core.types import Event, Move, Outcome, event, well_typed
from engine.core.views import public_part

ID = "ochs-esel"
NAME = "Ochs & Esel"
SEATS = range(3, 13)
CAPABILITIES = Capabilities(round_end="round_over")  # each seat for itself, over rounds

JOKER, DONKEY, OX = "J", "D", "O"
ANIMALS = (DONKEY, OX)
NUMBERS = tuple(str(n) for n in range(1, 14))
LONE_JOKER_VALUE = 14  # "un Joker joué seul a une valeur de 14"
ANIMAL_TRICK_JOKER_VALUE = 1  # "Dans un tour d'âne, un Joker prend toujours la valeur 1"
HAND_PENALTY = {JOKER: 14, DONKEY: 20, OX: 15}
OX_PILE_PENALTY = {JOKER: 1, OX: 0}  # "un Joker vaut 1 seul point de pénalité, et le bœuf 0"
CARDS_PER_PLAYER = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 10, 11: 9, 12: 9}
DECK = [n for n in NUMBERS for _ in range(8)] + [JOKER] * 4  # 108 cards; animals apart
_ORDER = {JOKER: 0, DONKEY: 1, OX: 2}
_CARD_ORDER = numbers_first(_ORDER)  # the hand order: numbers, then joker, donkey, ox
_PLACES = {card: place for place, card in enumerate((*NUMBERS, JOKER, DONKEY, OX))}
_DECK_CARDS = frozenset(_PLACES)
_VALUE = {number: int(number) for number in NUMBERS}

NORMAL, DONKEY_TRICK, OX_TRICK = "normal", "donkey", "ox"


class Options(GameOptions):
    rounds: int = Field(5, ge=1, le=20, strict=True,  # `rounds=yes` is no count, not 1
                        description="number of rounds (manches)")
    ox: bool = Field(False, description="Ochs variant: ox and donkey start in the middle")


@dataclass(frozen=True, slots=True)
class Play(Move):
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "play " + " ".join(self.cards)


@dataclass(frozen=True, slots=True)
class Pass(Move):
    def __str__(self) -> str:
        return "pass"


@dataclass
class Turn:
    seat: int
    cards: list[str]  # empty: the seat passed


@dataclass
class Trick:
    number: int  # 1-based within the round
    leader: int
    kind: str = NORMAL
    count: int = 0  # cards each play holds, fixed by the lead
    plays: list[Turn] = field(default_factory=list)
    best_seat: int = -1
    best_value: int = -1
    pending: list[int] = field(default_factory=list)  # seats still to answer the lead


@dataclass
class State:
    seats: int
    seed: int
    rounds: int
    ox: bool
    round: int
    first: int  # the round's first player
    hands: list[list[str]]
    ox_piles: list[list[str]]  # face-down ox-trick piles, per seat
    middle: list[str]  # animals waiting in the middle (Ochs variant)
    received: dict[str, int]  # animal -> trick of this round after which it was taken; 0: dealt
    trick: Trick
    scores: list[int]
    round_scores: list[list[int]] = field(default_factory=list)
    over: bool = False
    # Public history for card counting, both reset each deal: the cards everyone saw
    # leave play this round (normal tricks are discarded, ox tricks go face down), and per
    # seat the cards everyone saw it take in a donkey trick and has not played since.
    discards: list[str] = field(default_factory=list)
    known: list[list[str]] = field(default_factory=list)


_snapshots = Snapshots(State, ID)


def dump(state: State) -> str:
    return _snapshots.dump(state)


def load(text: str) -> State:
    return _snapshots.load(text)


def _copy(state: State) -> State:
    """apply's copy, field by field: several times faster than deepcopy on these states."""
    t = state.trick
    trick = Trick(number=t.number, leader=t.leader, kind=t.kind, count=t.count,
                  plays=[Turn(p.seat, list(p.cards)) for p in t.plays],
                  best_seat=t.best_seat, best_value=t.best_value, pending=list(t.pending))
    return State(
        seats=state.seats, seed=state.seed, rounds=state.rounds, ox=state.ox,
        round=state.round, first=state.first, hands=[list(h) for h in state.hands],
        ox_piles=[list(p) for p in state.ox_piles], middle=list(state.middle),
        received=dict(state.received), trick=trick, scores=list(state.scores),
        round_scores=[list(r) for r in state.round_scores], over=state.over,
        discards=list(state.discards),
        known=[list(k) for k in state.known] or [[] for _ in range(state.seats)])


def sort_cards(cards: list[str]) -> list[str]:
    """The hand order. The deck's cards by their place in it as one number each, which
    sorts in a third of the time of the key's tuples (every view sorts the cards gone
    this round, up to a hundred, and each seat's known cards, mostly none); any other
    text by the key."""
    if len(cards) < 2:
        return list(cards)
    if _DECK_CARDS.issuperset(cards):
        return sorted(cards, key=_PLACES.__getitem__)
    return sorted(cards, key=_CARD_ORDER)


# --- setting up ---------------------------------------------------------------------------

def new_game(
    seats: int, options: dict[str, Any] | None = None, seed: int = 0,
    setup: dict[str, Any] | None = None,
) -> State:
    check_seats(seats, SEATS.start, SEATS.stop - 1)
    opts = parse_options(Options, options)
    state = State(
        seats=seats, seed=seed, rounds=opts.rounds, ox=opts.ox, round=1, first=0,
        hands=[[] for _ in range(seats)], ox_piles=[[] for _ in range(seats)],
        middle=[], received={}, trick=Trick(number=1, leader=0), scores=[0] * seats,
        known=[[] for _ in range(seats)],
    )
    if setup is None:
        # "Le joueur qui possède les oreilles les plus longues": a seeded random seat.
        first = rng_for(seed, ID, "longest-ears").randrange(seats)
        _deal(state, first, donkey_holder=None if opts.ox else first)
    else:
        _apply_setup(state, setup)
    return state


def _apply_setup(state: State, setup: dict[str, Any]) -> None:
    check_setup_keys(setup, ("hands", "first"))
    hands = setup.get("hands")
    if not isinstance(hands, list) or len(hands) != state.seats:
        raise BadOptions(f"setup.hands must list one hand per seat ({state.seats})")
    parsed: list[list[str]] = []
    for hand in hands:
        if not isinstance(hand, list):
            raise BadOptions("each hand in setup.hands must be a list of cards")
        parsed.append([_setup_card(card, state.ox) for card in hand])
    available = Counter(DECK) + Counter([DONKEY] + ([OX] if state.ox else []))
    used = Counter(card for hand in parsed for card in hand)
    over = sorted(card for card, n in used.items() if n > available[card])
    if over:
        raise BadOptions(f"setup uses more copies than the deck has of: {', '.join(over)}")
    first = setup.get("first")
    if first is not None and (not isinstance(first, int) or not 0 <= first < state.seats):
        raise BadOptions(f"setup.first must be a seat from 0 to {state.seats - 1}")
    state.hands = [sort_cards(hand) for hand in parsed]
    holders = [s for s, hand in enumerate(parsed) if DONKEY in hand]
    if state.ox:
        state.first = first if first is not None else rng_for(
            state.seed, ID, "longest-ears").randrange(state.seats)
        state.middle = [a for a in ANIMALS if a not in used]
        state.received = {a: 0 for a in ANIMALS if a in used}
    else:
        # The seat holding D leads; with no D dealt, it joins `first`'s hand
        # (docs/games/ochs-esel.md).
        if holders:
            if first is not None and first != holders[0]:
                raise BadOptions("setup.first must be the seat holding the donkey")
            state.first = holders[0]
        else:
            state.first = first if first is not None else rng_for(
                state.seed, ID, "longest-ears").randrange(state.seats)
            state.hands[state.first] = sort_cards([*state.hands[state.first], DONKEY])
        state.received = {DONKEY: 0}
    if not state.hands[state.first]:
        # The leader cannot pass and would have nothing to lead: the game could never move.
        raise BadOptions("setup must give the first player at least one card to lead")
    state.trick = Trick(number=1, leader=state.first)


def _setup_card(card: object, ox: bool) -> str:
    code = _card_code(str(card))
    if code is None or (code == OX and not ox):
        raise BadOptions(f"setup card {card!r} is not a card of this game")
    return code


def _deal(state: State, first: int, donkey_holder: int | None) -> None:
    per_player = CARDS_PER_PLAYER[state.seats]
    deck = shuffled(DECK, state.seed, ID, "deal", state.round)
    hands = [deck[i * per_player:(i + 1) * per_player] for i in range(state.seats)]
    # Undealt cards are set aside until the next round's shuffle.
    if donkey_holder is not None:
        hands[donkey_holder].append(DONKEY)
        state.received = {DONKEY: 0}
        state.middle = []
    else:
        state.received = {}
        state.middle = list(ANIMALS)
    state.hands = [sort_cards(hand) for hand in hands]
    state.ox_piles = [[] for _ in range(state.seats)]
    state.discards, state.known = [], [[] for _ in range(state.seats)]
    state.first = first
    state.trick = Trick(number=1, leader=first)


# --- reading the state ----------------------------------------------------------------------

def to_act(state: State) -> list[int]:
    if state.over:
        return []
    trick = state.trick
    return [trick.pending[0]] if trick.plays else [trick.leader]


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    return Outcome.from_scores(state.scores, lower_wins=True)


def set_value(cards: list[str] | tuple[str, ...]) -> int | None:
    """Value of a set of one number (jokers join it), or 14 for jokers alone; None if mixed."""
    numbers = set(cards)
    numbers.discard(JOKER)
    if not cards or len(numbers) > 1:
        return None
    if not numbers:
        return LONE_JOKER_VALUE
    number = numbers.pop()
    return None if number in ANIMALS else int(number)


def animal_trick_value(card: str) -> int:
    if card in ANIMALS:
        return 0
    return ANIMAL_TRICK_JOKER_VALUE if card == JOKER else int(card)


def hand_penalty(hand: list[str]) -> int:
    return sum(HAND_PENALTY.get(c) or int(c) for c in hand)


def ox_pile_penalty(pile: list[str]) -> int:
    return sum(OX_PILE_PENALTY[c] if c in OX_PILE_PENALTY else int(c) for c in pile)


def may_lead_animal(state: State, animal: str) -> bool:
    """'au plus tôt deux tours plus tard', except in a round's first trick."""
    number = state.trick.number
    return number == 1 or number >= state.received.get(animal, 0) + 2


def _animal_place(state: State, animal: str) -> dict[str, Any]:
    for seat, hand in enumerate(state.hands):
        if animal in hand:
            return {"place": "hand", "seat": seat}
    if animal in state.middle:
        return {"place": "middle", "seat": None}
    if state.trick.plays and state.trick.plays[0].cards == [animal]:
        return {"place": "trick", "seat": state.trick.leader}
    for seat, pile in enumerate(state.ox_piles):
        if animal in pile:
            return {"place": "pile", "seat": seat}
    return {"place": "out", "seat": None}


def _public_view(state: State) -> dict[str, Any]:
    trick = state.trick
    out: dict[str, Any] = {
        "game": ID,
        "to_act": to_act(state),
        "round": state.round,
        "rounds": state.rounds,
        "first": state.first,
        "hand_sizes": [len(h) for h in state.hands],
        "scores": list(state.scores),
        "round_scores": [list(r) for r in state.round_scores],
        "ox": state.ox,
        "trick": {
            "number": trick.number,
            "leader": trick.leader,
            "kind": trick.kind,
            "count": trick.count,
            "plays": [{"seat": t.seat, "cards": list(t.cards)} for t in trick.plays],
            "best_seat": trick.best_seat if trick.plays else None,
            "best_value": trick.best_value if trick.plays else None,
        },
        "animals": {a: _animal_place(state, a) for a in (ANIMALS if state.ox else (DONKEY,))},
        "ox_pile_sizes": [len(p) for p in state.ox_piles],
        "over": state.over,
        # Public: when each animal was taken (it may be led two tricks later), who still
        # answers the lead, what left play face up this round, and what each hand is
        # known to hold since a donkey trick.
        "received": dict(state.received),
        "pending": list(trick.pending),
        "discards": sort_cards(state.discards),
        "known": [sort_cards(k) for k in state.known] or [[] for _ in range(state.seats)],
    }
    return out


def view(state: State, seat: int | None = None,
         public: dict[str, Any] | None = None) -> dict[str, Any]:
    """What `seat` sees (everyone sees the public part; None: only that)."""
    out = public_part(_public_view, state, public)
    if seat is not None:
        out["seat"] = seat
        out["hand"] = sort_cards(state.hands[seat])
        out["ox_pile"] = list(state.ox_piles[seat])
        out["ox_pile_points"] = ox_pile_penalty(state.ox_piles[seat])
    return out


# --- notation -------------------------------------------------------------------------------

_CARD_WORDS = {
    "j": JOKER, "joker": JOKER, "jokers": JOKER,
    "d": DONKEY, "e": DONKEY, "esel": DONKEY, "ane": DONKEY, "donkey": DONKEY,
    "o": OX, "ox": OX, "ochs": OX, "boeuf": OX,
}
_PLAY_WORDS = {"play", "jouer", "joue", "joues", "spielen", "spiele"}
_PASS_WORDS = {"pass", "passe", "passer", "p", "passen"}


def _card_code(word: str) -> str | None:
    word = word.strip().lower()
    if word in _CARD_WORDS:
        return _CARD_WORDS[word]
    if word.isdigit() and word in NUMBERS:
        return word
    if word.isdigit() and word.lstrip("0") in NUMBERS:
        return word.lstrip("0")
    return None


def parse_move(state: State, seat: int, text: str) -> Move:
    words = tokens(text)
    if len(words) == 1 and words[0] in _PASS_WORDS:
        return Pass()
    words = strip_verb(words, _PLAY_WORDS)
    if not words:
        raise IllegalMove("bad_notation", text=text)
    cards = []
    for word in words:
        code = _card_code(word)
        if code is None:
            raise IllegalMove("unknown_card", text=word)
        cards.append(code)
    return Play(tuple(sort_cards(cards)))


# --- what is legal --------------------------------------------------------------------------

def _sets(hand: list[str], size: int | None, above: int) -> list[Play]:
    """Every set of `size` cards (any size if None) of one value, jokers joining, worth > above.

    By value, then size, then how many cards of the value (the most jokers first); then
    jokers alone."""
    jokers = hand.count(JOKER)
    moves: list[Play] = []
    for number in NUMBERS:
        have = hand.count(number)
        if have and _VALUE[number] > above:
            moves.extend(_value_sets(number, have, jokers, size))
    if above < LONE_JOKER_VALUE:
        if size is None:
            moves.extend(_value_sets(JOKER, jokers, 0, None))
        elif 1 <= size <= jokers:
            moves.append(Play((JOKER,) * size))
    return moves


@cache
def _value_sets(number: str, have: int, jokers: int, size: int | None) -> tuple[Play, ...]:
    """The sets of `size` (any if None) one value makes, `have` cards of it held and
    `jokers` jokers: made once each, since every lead and answer of a bot asks for them
    (the moves are frozen, so one object serves every hand). With the deck's cards, at
    most 14 values, 9 counts of one, 5 of jokers and 14 sizes: a few thousand."""
    sets: list[Play] = []
    for n in range(1, have + jokers + 1) if size is None else (size,):
        # At least one card of the value, and jokers for the rest of the set.
        for numbers in range(max(1, n - jokers), min(have, n) + 1):
            sets.append(Play((number,) * numbers + (JOKER,) * (n - numbers)))
    return tuple(sets)


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    trick, hand = state.trick, state.hands[seat]
    if not trick.plays:
        moves: list[Move] = list(_sets(hand, None, -1))
        animals = [a for a in ANIMALS if a in hand]
        leadable = [a for a in animals if may_lead_animal(state, a)]
        # Never stall: a leader holding only animals it may not lead yet still leads one.
        moves.extend(Play((a,)) for a in (leadable if moves or leadable else animals))
        return moves
    if trick.kind != NORMAL:
        singles = sorted({c for c in hand if c not in ANIMALS}, key=_sort_key)
        return [Play((c,)) for c in singles] or [Pass()]
    return [*_sets(hand, trick.count, trick.best_value), Pass()]


def _sort_key(card: str) -> tuple[int, int]:
    return (0, int(card)) if card.isdigit() else (1, _ORDER[card])


def _refusal(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The first refusal that applies, in the contract's order of codes."""
    if state.over:
        return IllegalMove("game_over")
    if seat not in to_act(state):
        return IllegalMove("not_your_turn", seat=seat, to_act=to_act(state))
    if isinstance(move, Move) and not well_typed(move):
        return IllegalMove("bad_notation", text=repr(move))
    trick, hand = state.trick, state.hands[seat]
    leading = not trick.plays
    if isinstance(move, Pass):
        if leading:
            return IllegalMove("leader_cannot_pass")
        if trick.kind != NORMAL and any(c not in ANIMALS for c in hand):
            # "Aucun joueur ne peut passer" in a donkey/ox trick, unless only animals are left.
            return IllegalMove("must_play_one_card", kind=trick.kind)
        return None
    if not isinstance(move, Play) or not move.cards:
        return IllegalMove("bad_notation", text=str(move))
    cards = list(move.cards)
    unknown = [c for c in cards if c not in NUMBERS and c not in (JOKER, *ANIMALS)]
    if unknown:
        return IllegalMove("unknown_card", text=str(unknown[0]))
    animals = [c for c in cards if c in ANIMALS]
    if not leading and trick.kind == NORMAL and len(cards) != trick.count:
        return IllegalMove("must_match_count", count=trick.count, played=len(cards))
    value = set_value(cards)
    missing = missing_cards(cards, hand)
    short = short_of(cards, hand, missing, sort_cards) if missing else {}
    if not leading and trick.kind == NORMAL and value is not None and value <= trick.best_value:
        if trick.best_value >= LONE_JOKER_VALUE:  # only jokers reach 14, nothing passes it
            return IllegalMove("too_low", needed=trick.best_value + 1, value=value,
                               reason="unbeatable")
        return IllegalMove("too_low", needed=trick.best_value + 1, value=value, **short)
    if missing:
        return IllegalMove("card_not_in_hand", cards=sort_cards(list(missing.elements())),
                           **short)
    if animals and (len(cards) > 1 or not leading):
        if not leading:
            return IllegalMove("animal_only_leads", animal=animals[0])
        return IllegalMove("animal_alone", animal=animals[0])
    if leading and animals:
        animal = animals[0]
        # Same test as legal_moves, so the never-stall fallback there is honoured here too.
        if move not in legal_moves(state, seat):
            return IllegalMove("animal_just_received", animal=animal)
        return None
    if not leading and trick.kind != NORMAL and len(cards) != 1:
        return IllegalMove("must_play_one_card", kind=trick.kind)
    if value is None and (leading or trick.kind == NORMAL):
        return IllegalMove("not_a_set", cards=cards)
    return None


# --- playing --------------------------------------------------------------------------------

def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    refusal = _refusal(state, seat, move)
    if refusal is not None:
        raise refusal
    state = _copy(state)
    trick = state.trick
    events: list[Event] = []
    if isinstance(move, Pass):
        trick.plays.append(Turn(seat, []))
        trick.pending.pop(0)
        events.append(event("passed", seat=seat))
    else:
        assert isinstance(move, Play)
        cards = list(move.cards)
        hand = state.hands[seat]
        for card in cards:
            hand.remove(card)
        known = state.known[seat]
        for card in cards:
            if card in known:
                known.remove(card)
        trick.plays.append(Turn(seat, cards))
        if len(trick.plays) == 1:
            _lead(state, seat, cards, events)
        else:
            trick.pending.pop(0)
            _answer(state, seat, cards, events)
    if not trick.pending:
        _end_trick(state, events)
    return state, events


def _lead(state: State, seat: int, cards: list[str], events: list[Event]) -> None:
    trick = state.trick
    if cards[0] in ANIMALS:
        trick.kind = DONKEY_TRICK if cards[0] == DONKEY else OX_TRICK
        trick.count, trick.best_value = 1, 0
        state.received.pop(cards[0], None)
    else:
        trick.count, trick.best_value = len(cards), set_value(cards) or 0
    trick.best_seat = seat
    # Players without cards sit the trick out: they have nothing to play or pass with.
    order = [(seat + i) % state.seats for i in range(1, state.seats)]
    trick.pending = [s for s in order if state.hands[s]]
    kind = "led_animal" if trick.kind != NORMAL else "led"
    events.append(event(kind, seat=seat, cards=cards, trick=trick.kind))


def _answer(state: State, seat: int, cards: list[str], events: list[Event]) -> None:
    trick = state.trick
    if trick.kind == NORMAL:
        trick.best_seat, trick.best_value = seat, set_value(cards) or 0
        events.append(event("beat", seat=seat, cards=cards))
        return
    value = animal_trick_value(cards[0])
    if value >= trick.best_value:  # ties go to the later player
        trick.best_seat, trick.best_value = seat, value
    events.append(event("played", seat=seat, cards=cards))


def _end_trick(state: State, events: list[Event]) -> None:
    trick = state.trick
    winner = trick.best_seat
    played = [c for t in trick.plays for c in t.cards]
    if trick.kind == DONKEY_TRICK:
        state.hands[winner] = sort_cards(state.hands[winner] + played)
        state.known[winner].extend(c for c in played if c not in ANIMALS)
        state.received[DONKEY] = trick.number
        events.append(event("took_donkey", seat=winner, cards=sort_cards(played)))
    elif trick.kind == OX_TRICK:
        state.ox_piles[winner].extend(sort_cards(played))
        state.discards.extend(c for c in played if c != OX)
        events.append(event("took_ox_trick", seat=winner, cards=sort_cards(played),
                            penalty=ox_pile_penalty(played)))
    else:
        state.discards.extend(played)
        events.append(event("trick_won", seat=winner, cards=played, trick=trick.number))
    # docs/games/ochs-esel.md: the round-end check comes before the animals leave the middle.
    if any(not hand for hand in state.hands):
        _end_round(state, events)
        return
    if state.ox and trick.number in (1, 2):
        animal = OX if trick.number == 1 else DONKEY
        if animal in state.middle:
            state.middle.remove(animal)
            state.hands[winner] = sort_cards([*state.hands[winner], animal])
            state.received[animal] = trick.number
            events.append(event("took_animal", seat=winner, animal=animal))
    state.trick = Trick(number=trick.number + 1, leader=winner)


def _end_round(state: State, events: list[Event]) -> None:
    penalties = [
        hand_penalty(hand) + ox_pile_penalty(pile)
        for hand, pile in zip(state.hands, state.ox_piles, strict=True)
    ]
    state.scores = [a + b for a, b in zip(state.scores, penalties, strict=True)]
    state.round_scores.append(penalties)
    events.append(event("round_over", round=state.round, penalties=penalties,
                        scores=list(state.scores),
                        hands=[sort_cards(h) for h in state.hands]))
    holder = next((s for s, hand in enumerate(state.hands) if DONKEY in hand), None)
    if state.round >= state.rounds:
        state.over = True
        state.trick = Trick(number=state.trick.number, leader=state.trick.leader)
        result = Outcome.from_scores(state.scores, lower_wins=True)
        events.append(event("game_over", scores=result.scores, ranking=result.ranking))
        return
    state.round += 1
    if state.ox:
        _deal(state, holder if holder is not None else state.first, donkey_holder=None)
    else:
        # "Le joueur qui avait conservé l'âne ... le garde et devient le premier joueur."
        assert holder is not None
        _deal(state, holder, donkey_holder=holder)
    events.append(event("round_started", round=state.round, first=state.first))
