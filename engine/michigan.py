"""Michigan (Newmarket family): pay cards, chips, the extra hand and its auction.

The rules as Tapis plays them, notation and decisions: docs/games/michigan.md.
Each deal the dealer antes 2 chips on every pay card and the others 1, a hand is dealt
to every player plus an extra hand, and the dealer swaps, keeps, or auctions the extra
hand. Then suits are played upwards from the lowest card a leader chooses: whoever
holds the next card must play it (the engine plays it: nobody has a choice), until the
ace or a card nobody holds. Pay cards pay as they fall; the first player out of cards
is paid 1 chip per card still held by each other player.
"""

from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from engine.core.capabilities import Capabilities
from engine.core.errors import BadOptions, IllegalMove
from engine.core.notation import read_number, strip_verb, tokens
from engine.core.options import GameOptions, check_seats, check_setup_keys, parse_options
from engine.core.rng import rng_for, shuffled
from engine.core.state import Snapshots
from engine.core.types import Event, Move, Outcome, event, well_typed
from engine.core.views import public_part

ID = "michigan"
NAME = "Michigan"
SEATS = range(3, 9)
CAPABILITIES = Capabilities(round_end="deal_over")  # Michigan's rounds are deals

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)  # sorted: suit, then rank
PAY_CARDS = ("JS", "QD", "KC", "AH")  # the view's order of the piles
# "chaque carte paye reçoit 2 jetons du Donneur et 1 jeton de chacun des autres joueurs"
DEALER_ANTE, PLAYER_ANTE = 2, 1

_ORDER = {card: i for i, card in enumerate(DECK)}
_SUIT = {card: card[-1] for card in DECK}
# The next card of the same suit; none after the ace ("Quand la suite arrive à l'As").
_NEXT: dict[str, str | None] = {
    card: (DECK[i + 1] if card[:-1] != "A" else None) for i, card in enumerate(DECK)
}
_PAY_INDEX = {card: i for i, card in enumerate(PAY_CARDS)}

DECISION, AUCTION, PLAY, OVER = "decision", "auction", "play", "over"
SWAP, KEEP, SELL = "swap", "keep", "auction"


class Options(GameOptions):
    # strict: `chips=yes` is no count (pydantic would read it as 1)
    chips: int = Field(50, ge=1, le=1000, strict=True,
                       description="chips each player starts with")
    hands_per_player: int = Field(
        1, ge=1, le=10, strict=True,
        description="deals per player: everyone deals this many times",
    )


@dataclass(frozen=True, slots=True)
class Swap(Move):
    def __str__(self) -> str:
        return "swap"


@dataclass(frozen=True, slots=True)
class Keep(Move):
    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Auction(Move):
    def __str__(self) -> str:
        return "auction"


@dataclass(frozen=True, slots=True)
class Bid(Move):
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass(Move):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Lead(Move):
    suit: str

    def __str__(self) -> str:
        return f"lead {self.suit}"


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: str


@dataclass
class State:
    seats: int
    seed: int
    start_chips: int
    deals: int  # hands_per_player × seats, so everyone deals equally often
    deal: int  # 1-based
    dealer: int
    phase: str
    chips: list[int]
    pay: list[int]  # chips on JS, QD, KC, AH; carried over when not won
    hands: list[list[str]]  # kept in DECK order
    extra: list[str]  # the extra hand, until the dealer's decision
    dead: list[str]  # the hand nobody plays this deal; never shown
    played: list[list[str]]  # face up in front of whoever played them
    decision: str = ""
    bidders: list[int] = field(default_factory=list)  # still in the auction, next first
    passed: list[int] = field(default_factory=list)
    high_bid: int = 0
    high_bidder: int = -1
    leader: int = -1
    last_suit: str = ""
    sequence: list[Played] = field(default_factory=list)


_snapshots = Snapshots(State, ID)


def dump(state: State) -> str:
    return _snapshots.dump(state)


def load(text: str) -> State:
    return _snapshots.load(text)


def _copy(state: State) -> State:
    """`apply` never mutates its input; an explicit copy is several times faster than
    a generic deepcopy, which matters with the ≥10,000 moves/s target. Every field by
    name, as the other games do: `dataclasses.replace` looks each one up again and was
    half of the copy."""
    return State(
        seats=state.seats, seed=state.seed, start_chips=state.start_chips,
        deals=state.deals, deal=state.deal, dealer=state.dealer, phase=state.phase,
        chips=state.chips[:], pay=state.pay[:], hands=[h[:] for h in state.hands],
        extra=state.extra[:], dead=state.dead[:], played=[p[:] for p in state.played],
        decision=state.decision, bidders=state.bidders[:], passed=state.passed[:],
        high_bid=state.high_bid, high_bidder=state.high_bidder, leader=state.leader,
        last_suit=state.last_suit, sequence=state.sequence[:],
    )


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


# --- setting up ---------------------------------------------------------------------------

def new_game(
    seats: int, options: dict[str, Any] | None = None, seed: int = 0,
    setup: dict[str, Any] | None = None,
) -> State:
    check_seats(seats, SEATS.start, SEATS.stop - 1)
    opts = parse_options(Options, options)
    setup = setup or {}
    check_setup_keys(setup, ("hands", "dealer"))
    dealer = setup.get("dealer")
    if dealer is None:
        dealer = rng_for(seed, ID, "first-dealer").randrange(seats)
    elif not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < seats:
        raise BadOptions(f"setup.dealer must be a seat from 0 to {seats - 1}")
    state = State(
        seats=seats, seed=seed, start_chips=opts.chips, deals=seats * opts.hands_per_player,
        deal=1, dealer=dealer, phase=DECISION, chips=[opts.chips] * seats, pay=[0] * 4,
        hands=[[] for _ in range(seats)], extra=[], dead=[], played=[[] for _ in range(seats)],
    )
    hands = _setup_hands(setup["hands"], seats) if "hands" in setup else None
    _start_deal(state, hands)
    return state


def _setup_hands(hands: object, seats: int) -> list[list[str]]:
    if not isinstance(hands, list) or len(hands) != seats + 1:
        raise BadOptions(f"setup.hands must list one hand per seat ({seats}), then the extra hand")
    parsed: list[list[str]] = []
    seen: set[str] = set()
    for hand in hands:
        if not isinstance(hand, list) or not hand:
            raise BadOptions("each hand in setup.hands must be a non-empty list of cards")
        cards = []
        for card in hand:
            code = str(card).strip().upper()
            if code not in _ORDER:
                raise BadOptions(f"setup card {card!r} is not a card of this game")
            if code in seen:
                raise BadOptions(f"setup deals {code} twice; the deck has one")
            seen.add(code)
            cards.append(code)
        parsed.append(cards)
    return parsed


def _start_deal(state: State, hands: list[list[str]] | None) -> None:
    """Antes, then the deal; `hands` (seats, then the extra hand) comes from `setup`."""
    for seat in range(state.seats):
        ante = DEALER_ANTE if seat == state.dealer else PLAYER_ANTE
        state.chips[seat] -= ante * len(PAY_CARDS)
        state.pay = [pile + ante for pile in state.pay]
    if hands is None:
        # "Les cartes sont distribuées une par une": from the dealer's left round to the
        # dealer, then the extra hand; the first hands in that order get a card more.
        deck = shuffled(DECK, state.seed, ID, "deal", state.deal)
        order = [(state.dealer + i) % state.seats for i in range(1, state.seats + 1)]
        receivers = len(order) + 1
        hands = [[] for _ in range(state.seats + 1)]
        for i, card in enumerate(deck):
            slot = i % receivers
            hands[order[slot] if slot < state.seats else state.seats].append(card)
    state.hands = [sort_cards(h) for h in hands[:state.seats]]
    state.extra = sort_cards(hands[state.seats])
    state.dead = []
    state.played = [[] for _ in range(state.seats)]
    state.phase = DECISION
    state.decision = ""
    state.bidders, state.passed = [], []
    state.high_bid, state.high_bidder = 0, -1
    state.leader, state.last_suit, state.sequence = -1, "", []


# --- reading the state ----------------------------------------------------------------------

def to_act(state: State) -> list[int]:
    if state.phase == DECISION:
        return [state.dealer]
    if state.phase == AUCTION:
        return [state.bidders[0]]
    if state.phase == PLAY:
        return [state.leader]
    return []


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:
        return None
    # Chips left on pay cards at the end are lost: they count for nobody.
    return Outcome.from_scores(state.chips, lower_wins=False)


def lead_suits(state: State) -> list[str]:
    """Suits the leader may lead: "si possible une couleur différente" from the last one."""
    held = {_SUIT[c] for c in state.hands[state.leader]}
    if state.last_suit and len(held) > 1:
        held.discard(state.last_suit)
    return [s for s in SUITS if s in held]


def took_extra_hand(state: State, seat: int) -> bool:
    """Whether the seat holds the extra hand this deal, its own old hand now the dead one:
    the dealer who swapped, or the buyer."""
    return state.phase in (PLAY, OVER) and (
        (state.decision == SWAP and seat == state.dealer)
        or (state.decision == SELL and seat == state.high_bidder))


def _public_view(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": ID,
        "to_act": to_act(state),
        "phase": state.phase,
        "round": state.deal,
        "deal": state.deal,
        "deals": state.deals,
        "dealer": state.dealer,
        "chips": list(state.chips),
        "scores": list(state.chips),
        "pay_cards": [[card, pile] for card, pile in zip(PAY_CARDS, state.pay, strict=True)],
        "start_chips": state.start_chips,  # the `chips` option: also the highest bid
        "hand_sizes": [len(h) for h in state.hands],
        # The extra hand's existence only, never its cards or size; dead hands not at all.
        "extra_hand": state.phase in (DECISION, AUCTION),
        "decision": state.decision or None,
        "auction": None,
        "leader": state.leader if state.phase == PLAY else None,
        "suit": state.last_suit or None,
        "sequence": [[p.seat, p.card] for p in state.sequence],
        "played": [list(p) for p in state.played],
        "over": state.phase == OVER,
    }
    if state.decision == SELL:
        out["auction"] = {
            "open": state.phase == AUCTION,
            "high_bid": state.high_bid,
            "high_bidder": state.high_bidder if state.high_bidder >= 0 else None,
            "bidders": list(state.bidders),
            "passed": list(state.passed),
            "max": max_bid(state, state.bidders[0]) if state.bidders else 0,
        }
    return out


def view(state: State, seat: int | None = None,
         public: dict[str, Any] | None = None) -> dict[str, Any]:
    """What `seat` sees (everyone sees the public part; None: only that)."""
    out = public_part(_public_view, state, public)
    if seat is not None:
        out["seat"] = seat
        out["hand"] = list(state.hands[seat])
        # The hand this seat gave up for the extra hand (the dealer who swapped, the
        # buyer): it held those cards, so it knows they are out of play; nobody else
        # sees them (docs/games/michigan.md). Read from the decision, so that no state
        # field records who discarded and snapshots stay as they were.
        out["discarded"] = list(state.dead) if took_extra_hand(state, seat) else []
    return out


# --- notation -------------------------------------------------------------------------------

_SWAP_WORDS = {"swap", "echanger", "echange", "tauschen", "tausche"}
_KEEP_WORDS = {"keep", "garder", "garde", "behalten", "behalte"}
_AUCTION_WORDS = {"auction", "enchere", "encheres", "vendre", "versteigern", "auktion"}
_BID_WORDS = {"bid", "encherir", "enchere", "miser", "mise", "bieten", "biete"}
_PASS_WORDS = {"pass", "passe", "passer", "p", "passen"}
_LEAD_WORDS = {"lead", "play", "jouer", "joue", "entamer", "ausspielen", "spiele"}
# Single letters are English only (docs/games/michigan.md): `c` is clubs, never coeur.
_SUIT_WORDS = {
    "s": "S", "spade": "S", "spades": "S", "pique": "S", "piques": "S", "♠": "S", "♤": "S",
    "h": "H", "heart": "H", "hearts": "H", "coeur": "H", "coeurs": "H", "♥": "H", "♡": "H",
    "d": "D", "diamond": "D", "diamonds": "D", "carreau": "D", "carreaux": "D", "♦": "D",
    "♢": "D",
    "c": "C", "club": "C", "clubs": "C", "trefle": "C", "trefles": "C", "♣": "C", "♧": "C",
    "pik": "S", "herz": "H", "karo": "D", "kreuz": "C",  # German
}


_HUGE_BID = 10**9  # any bigger number reads as this: refused as too high all the same


def _number(word: str) -> int | None:
    return read_number(word, _HUGE_BID)


def parse_move(state: State, seat: int, text: str) -> Move:
    words = [w for w in (w.replace("\ufe0f", "") for w in tokens(text)) if w]
    if len(words) == 1:
        word = words[0]
        if word in _SWAP_WORDS:
            return Swap()
        if word in _KEEP_WORDS:
            return Keep()
        if word in _AUCTION_WORDS:
            return Auction()
        if word in _PASS_WORDS:
            return Pass()
        amount = _number(word)
        if amount is not None:
            return Bid(amount)
    if len(words) == 2 and words[0] in _BID_WORDS:
        amount = _number(words[1])
        if amount is not None:
            return Bid(amount)
    words = strip_verb(words, _LEAD_WORDS)
    if len(words) == 1 and words[0] in _SUIT_WORDS:
        return Lead(_SUIT_WORDS[words[0]])
    raise IllegalMove("bad_notation", text=text)


# --- what is legal --------------------------------------------------------------------------

def max_bid(state: State, seat: int) -> int:
    """A bid is capped at the bidder's own chips: nobody promises chips they do not hold
    (docs/games/michigan.md). Antes and the payment for going out may still make a debt."""
    return max(0, state.chips[seat])


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    if state.phase == DECISION:
        return [Swap(), Keep(), Auction()]
    if state.phase == AUCTION:
        bids: list[Move] = [Bid(n) for n in range(state.high_bid + 1, max_bid(state, seat) + 1)]
        return [*bids, Pass()]
    return [Lead(s) for s in lead_suits(state)]


def _refusal(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The first refusal that applies, in the contract's order of codes."""
    if state.phase == OVER:
        return IllegalMove("game_over")
    if seat not in to_act(state):
        return IllegalMove("not_your_turn", seat=seat, to_act=to_act(state))
    if isinstance(move, Move) and not well_typed(move):
        return IllegalMove("bad_notation", text=repr(move))
    if isinstance(move, Swap | Keep | Auction):
        if state.phase != DECISION:
            return IllegalMove("not_dealer_decision", phase=state.phase)
        return None
    if isinstance(move, Bid | Pass):
        if state.phase != AUCTION:
            return IllegalMove("not_bidding_phase", phase=state.phase)
        if isinstance(move, Bid):
            if move.amount <= state.high_bid:
                return IllegalMove("bid_too_low", min=state.high_bid + 1, bid=move.amount)
            if move.amount > max_bid(state, seat):
                return IllegalMove("bid_too_high", max=max_bid(state, seat), bid=move.amount)
        return None
    if isinstance(move, Lead):
        if state.phase != PLAY:
            return IllegalMove("not_playing_phase", phase=state.phase)
        if move.suit not in SUITS:
            return IllegalMove("bad_notation", text=str(move))
        if not any(_SUIT[c] == move.suit for c in state.hands[seat]):
            return IllegalMove("no_card_of_suit", suit=move.suit)
        if move.suit not in lead_suits(state):
            return IllegalMove("must_change_suit", suit=move.suit, previous=state.last_suit)
        return None
    return IllegalMove("bad_notation", text=str(move))


# --- playing --------------------------------------------------------------------------------

def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    refusal = _refusal(state, seat, move)
    if refusal is not None:
        raise refusal
    state = _copy(state)
    events: list[Event] = []
    if isinstance(move, Swap):
        # "l'échanger contre la main extra, sans avoir regardé cette dernière"
        state.dead, state.hands[seat], state.extra = state.hands[seat], state.extra, []
        _begin_play(state, SWAP)
        events.append(event("swapped", seat=seat))
    elif isinstance(move, Keep):
        state.dead, state.extra = state.extra, []
        _begin_play(state, KEEP)
        events.append(event("kept", seat=seat))
    elif isinstance(move, Auction):
        state.phase, state.decision = AUCTION, SELL
        # The dealer sells and does not bid; the bidding starts at their left.
        state.bidders = [(seat + i) % state.seats for i in range(1, state.seats)]
        events.append(event("auction_opened", seat=seat))
    elif isinstance(move, Bid):
        state.high_bid, state.high_bidder = move.amount, seat
        state.bidders.append(state.bidders.pop(0))
        events.append(event("bid", seat=seat, amount=move.amount))
    elif isinstance(move, Pass):
        _pass(state, seat, events, automatic=False)
    else:
        assert isinstance(move, Lead)
        _lead(state, move.suit, events, automatic=False)
    _resolve(state, events)
    return state, events


def _resolve(state: State, events: list[Event]) -> None:
    """Carry out every step nobody has a choice about, until a seat has a real choice."""
    while True:
        if state.phase == AUCTION:
            if not state.bidders or state.bidders == [state.high_bidder]:
                _close_auction(state, events)
            elif max_bid(state, state.bidders[0]) <= state.high_bid:
                # A bidder who cannot outbid may only pass: that pass is played for them.
                _pass(state, state.bidders[0], events, automatic=True)
            else:
                return
        elif state.phase == PLAY:
            suits = lead_suits(state)
            if len(suits) != 1:
                return
            _lead(state, suits[0], events, automatic=True)
        else:
            return


def _pass(state: State, seat: int, events: list[Event], *, automatic: bool) -> None:
    state.bidders.remove(seat)  # "a pass is final"
    state.passed.append(seat)
    events.append(event("passed", seat=seat, automatic=automatic))


def _close_auction(state: State, events: list[Event]) -> None:
    buyer, price = state.high_bidder, state.high_bid
    if buyer < 0:
        # With no bid the extra hand stays out of play.
        state.dead, state.extra = state.extra, []
        events.append(event("auction_no_bid", dealer=state.dealer))
    else:
        # "L'éventuel acheteur défausse sa propre main ... et paie au donneur ... l'enchère"
        state.chips[buyer] -= price
        state.chips[state.dealer] += price
        state.dead, state.hands[buyer], state.extra = state.hands[buyer], state.extra, []
        events.append(event("auction_won", seat=buyer, amount=price, dealer=state.dealer))
    _begin_play(state, SELL)


def _begin_play(state: State, decision: str) -> None:
    state.decision = decision
    state.phase = PLAY
    # "Le joueur à gauche du donneur" leads first, whoever holds which hand.
    state.leader = (state.dealer + 1) % state.seats
    state.last_suit = ""


def _holder(state: State, card: str) -> int | None:
    for seat, hand in enumerate(state.hands):
        if card in hand:
            return seat
    return None


def _lead(state: State, suit: str, events: list[Event], *, automatic: bool) -> None:
    seat = state.leader
    # The hand is in DECK order, so the first card of the suit is the lowest.
    card = next(c for c in state.hands[seat] if _SUIT[c] == suit)
    state.sequence = []
    state.last_suit = suit
    events.append(event("led", seat=seat, card=card, suit=suit, automatic=automatic))
    if _play_card(state, seat, card, events):
        return
    while True:
        following = _NEXT[card]
        holder = None if following is None else _holder(state, following)
        if holder is None:
            break
        assert following is not None
        seat, card = holder, following
        events.append(event("played", seat=seat, card=card))
        if _play_card(state, seat, card, events):
            return
    # "la dernière personne à avoir posé une carte sur la table recommence"
    state.leader = seat
    if following is None:
        reason = "ace"
    elif any(following in cards for cards in state.played):
        reason = "already_played"  # an earlier run of this suit went past it
    else:
        reason = "no_next_card"  # in the dead hand
    events.append(event("sequence_stopped", seat=seat, card=card, suit=suit, reason=reason))


def _play_card(state: State, seat: int, card: str, events: list[Event]) -> bool:
    """Play one card; True when it was the seat's last and so ended the deal."""
    state.hands[seat].remove(card)
    state.played[seat].append(card)
    state.sequence.append(Played(seat, card))
    pay = _PAY_INDEX.get(card)
    if pay is not None:
        won, state.pay[pay] = state.pay[pay], 0
        state.chips[seat] += won
        events.append(event("pay_card_won", seat=seat, card=card, chips=won))
    if state.hands[seat]:
        return False
    _end_deal(state, seat, events)
    return True


def _end_deal(state: State, winner: int, events: list[Event]) -> None:
    # "tous les autres joueurs lui payent un jeton pour chaque carte qu'il leur reste"
    cards_left = [len(h) for h in state.hands]
    payments = [-n for n in cards_left]
    payments[winner] = sum(cards_left)
    state.chips = [c + p for c, p in zip(state.chips, payments, strict=True)]
    events.append(event("went_out", seat=winner))
    events.append(event("deal_over", deal=state.deal, seat=winner, cards_left=cards_left,
                        payments=payments, chips=list(state.chips),
                        pay_cards=list(state.pay)))
    if state.deal >= state.deals:
        state.phase = OVER
        state.leader = -1
        result = Outcome.from_scores(state.chips, lower_wins=False)
        # Chips still on the pay cards count for nobody (docs/games/michigan.md).
        events.append(event("game_over", scores=result.scores, ranking=result.ranking,
                            pay_cards=list(state.pay)))
        return
    state.deal += 1
    state.dealer = (state.dealer + 1) % state.seats  # "Chaque joueur est donneur à tour de rôle"
    _start_deal(state, None)
    events.append(event("deal_started", deal=state.deal, dealer=state.dealer,
                        chips=list(state.chips), pay_cards=list(state.pay)))


# --- hand strength (for bots) -------------------------------------------------------------

def hand_value(hand: list[str], pay: dict[str, int]) -> float:
    """A rough worth in chips: pay cards held (which can be won only if their suit
    gets there), control cards that give the lead back (aces, kings), and a cost per
    separate run of consecutive cards, since each run needs a lead to get rid of."""
    value = 0.0
    runs = 0
    previous: str | None = None
    for card in hand:  # DECK order
        if previous is None or _NEXT[previous] != card:
            runs += 1
        previous = card
        value += 0.6 * pay.get(card, 0)
        rank = card[:-1]
        value += 2.0 if rank == "A" else 1.0 if rank == "K" else 0.0
    return value - 1.5 * runs
