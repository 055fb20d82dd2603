"""The Game (Steffen Benndorf), cooperative, with the expert options.

The rules as Tapis plays them, notation and decisions: docs/games/the-game.md.
Everyone plays together against the deck: cards 2–99 go on two ascending piles (`A1`,
`A2`, from 1) and two descending piles (`D1`, `D2`, from 100), with a backward jump of
exactly 10 allowed. A turn is at least the minimum number of plays, then `end`; the
player draws back as many cards as they played. The game is lost as soon as the player
to act cannot reach their minimum; the team's score is the cards not played.

Players may talk, but never about numbers: "on peut demander de « ne pas jouer sur cette
Base », de « ne pas faire un trop gros saut sur cette Base »". Those two requests are
signals here (`signal A1 stop`, `signal D2 small`, `signal A1 off`): any seat, at any
time, one per pile and author, kept until withdrawn or until its author plays on that
pile. A signal is a move, so the log replays it, but it plays no card and never counts
toward the turn's minimum.

Cards are ints in moves, events and refusal parameters (they are numbers on this deck);
`view` gives the hand as the contract's code strings (`"23"`) and pile tops as ints,
since a base (1 or 100) is not a card.
"""

from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from pydantic import Field

from engine.core.capabilities import Capabilities
from engine.core.errors import BadOptions, IllegalMove
from engine.core.notation import read_number, tokens
from engine.core.options import GameOptions, check_seats, check_setup_keys, parse_options
from engine.core.rng import rng_for, shuffled
from engine.core.state import Snapshots
from engine.core.types import Event, Move, Outcome, event, well_typed
from engine.core.views import public_part

ID = "the-game"
NAME = "The Game"
SEATS = range(1, 6)

LOWEST, HIGHEST = 2, 99  # "98 cartes numérotées de 2 à 99"
DECK = list(range(LOWEST, HIGHEST + 1))
PILES = ("A1", "A2", "D1", "D2")
ASCENDING = (True, True, False, False)  # index-aligned with PILES
BASES = (1, 1, 100, 100)  # "supérieure à celle au sommet ... (ou de 1 ...)", "(ou de 100 ...)"
JUMP = 10  # "exactement inférieure de 10" / "exactement supérieure de 10"
HAND_SIZE = {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}
MIN_AFTER_DRAW_PILE = 1  # "Dès que la pioche est vide ... ne poser qu'une seule carte"

_PILE_INDEX = {name.lower(): i for i, name in enumerate(PILES)}

STOP, SMALL = "stop", "small"  # « ne pas jouer sur cette Base », « pas un trop gros saut »
SIGNALS = (STOP, SMALL)


class Options(GameOptions):
    min_play: int = Field(
        2, ge=1, le=5, strict=True,  # `min_play=yes` is no count, not 1
        description="cards each player must play per turn while the draw pile lasts (expert: 3)",
    )
    hand_minus_one: bool = Field(False, description="expert: every hand holds one card fewer")
    first: int | None = Field(
        None, ge=1, le=5, strict=True,  # `first=yes` is no seat
        description="the seat (1 = first in the lobby list) that plays first; none: at random",
    )


@dataclass(frozen=True, slots=True)
class Plays(Move):
    """One or more plays sent in one message, applied in order, all or none."""

    plays: tuple[tuple[int, str], ...]

    def __str__(self) -> str:
        return "play " + ", ".join(f"{card} {pile}" for card, pile in self.plays)


@dataclass(frozen=True, slots=True)
class End(Move):
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Signal(Move):
    """A seat's request about one pile; `kind` None withdraws that seat's request there."""

    pile: str
    kind: str | None

    def __str__(self) -> str:
        return f"signal {self.pile} {self.kind or 'off'}"


@dataclass
class State:
    seats: int
    seed: int
    min_play: int
    hand_size: int
    piles: list[list[int]]  # cards on A1, A2, D1, D2, bottom first; only the top is public
    hands: list[list[int]]  # kept sorted
    draw: list[int]  # top first
    first: int
    turn: int  # seat to act
    played: int  # cards played in the current turn
    turns: int  # turns begun, 1-based
    over: bool = False
    stuck: int | None = None  # seat that could not reach its minimum, if the game was lost
    # Per pile (A1, A2, D1, D2), per seat: that seat's signal there (STOP, SMALL or None).
    # Default empty, so snapshots written before signals existed still load.
    signals: list[list[str | None]] = field(default_factory=list)


_snapshots = Snapshots(State, ID)


def dump(state: State) -> str:
    return _snapshots.dump(state)


def load(text: str) -> State:
    return _snapshots.load(text)


def _copy(state: State) -> State:
    """`apply` never mutates its input; copying the few lists is much faster than deepcopy."""
    empty: list[list[str | None]] = [[None] * state.seats for _ in PILES]
    signals = [list(s) for s in state.signals] if state.signals else empty
    return State(
        seats=state.seats, seed=state.seed, min_play=state.min_play,
        hand_size=state.hand_size, piles=[list(p) for p in state.piles],
        hands=[list(h) for h in state.hands], draw=list(state.draw), first=state.first,
        turn=state.turn, played=state.played, turns=state.turns, over=state.over,
        stuck=state.stuck, signals=signals,
    )


# --- the piles ------------------------------------------------------------------------------

def tops(state: State) -> list[int]:
    return [p[-1] if p else BASES[i] for i, p in enumerate(state.piles)]


def playable(card: int, pile: int, top: int) -> bool:
    """Up on `A`, down on `D`, or the exact backward jump of 10 ("reculer de 10")."""
    if ASCENDING[pile]:
        return card > top or card == top - JUMP
    return card < top or card == top + JUMP


def can_reach(hand: list[int], piles_top: list[int], need: int) -> bool:
    """Can `need` more cards of `hand` be played, by any sequence of legal plays?

    Cheap because of one fact: every card that is playable *now* can be played this
    turn together with all the others that are, by giving each one pile it fits and
    playing, per pile, the jump card (there is at most one: top ∓ 10) first and the
    rest in the pile's direction. So only when fewer than `need` cards fit now does a
    search run, over the plays that unlock jumps, `need` deep at most.
    """
    if need <= 0:
        return True
    if len(hand) < need:
        return False
    return _reach(tuple(hand), tuple(piles_top), need, {})


def _reach(
    hand: tuple[int, ...], piles_top: tuple[int, ...], need: int,
    memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool],
) -> bool:
    fits = [(c, p) for c in hand for p in range(4) if playable(c, p, piles_top[p])]
    if len({c for c, _ in fits}) >= need:
        return True
    if not fits:
        return False
    key = (hand, piles_top)
    known = memo.get(key)
    if known is not None:
        return known
    found = False
    for card, pile in fits:
        rest = tuple(c for c in hand if c != card)
        moved = (*piles_top[:pile], card, *piles_top[pile + 1:])
        if _reach(rest, moved, need - 1, memo):
            found = True
            break
    memo[key] = found
    return found


def minimum(state: State, seat: int | None = None) -> int:
    """Cards the seat to act must play this turn.

    Two (or `min_play`) while the draw pile lasts, then one; never more than the hand
    held at the start of the turn (possible only through `setup`; docs/games/the-game.md).
    """
    seat = state.turn if seat is None else seat
    base = state.min_play if state.draw else MIN_AFTER_DRAW_PILE
    held = len(state.hands[seat]) + (state.played if seat == state.turn else 0)
    return min(base, held)


def variant(options: dict[str, Any]) -> str:
    """Which rules a game was played under, for records that compare like with like:
    "standard", "expert" (the rulebook's expert rule, three cards a turn) or, for any
    other mix of options, the options that decide difficulty written out."""
    chosen = Options.model_validate(options)
    if not chosen.hand_minus_one and chosen.min_play in (2, 3):
        return "standard" if chosen.min_play == 2 else "expert"
    return f"min_play={chosen.min_play}" + (",hand_minus_one" if chosen.hand_minus_one else "")


def score(state: State) -> int:
    """"la somme de toutes les cartes encore en main et éventuellement restantes dans la pioche"."""
    return sum(len(h) for h in state.hands) + len(state.draw)


# --- setting up ---------------------------------------------------------------------------

def new_game(
    seats: int, options: dict[str, Any] | None = None, seed: int = 0,
    setup: dict[str, Any] | None = None,
) -> State:
    check_seats(seats, SEATS.start, SEATS.stop - 1)
    opts = parse_options(Options, options)
    hand_size = HAND_SIZE[seats] - (1 if opts.hand_minus_one else 0)
    state = State(
        seats=seats, seed=seed, min_play=opts.min_play, hand_size=hand_size,
        piles=[[] for _ in PILES], hands=[[] for _ in range(seats)], draw=[], first=0,
        turn=0, played=0, turns=1, signals=[[None] * seats for _ in PILES],
    )
    # The table chooses who plays first (the `first` option); else a seeded seat
    # (docs/games/the-game.md).
    first = rng_for(seed, ID, "first").randrange(seats)
    if opts.first is not None:
        if opts.first > seats:
            raise BadOptions(f"first: seat {opts.first} of {seats}", [
                {"key": "first", "kind": "out_of_range", "low": 1, "high": seats}])
        first = opts.first - 1
    if setup is None:
        deck = shuffled(DECK, seed, ID, "deal")
        state.hands = [sorted(deck[i * hand_size:(i + 1) * hand_size]) for i in range(seats)]
        state.draw = deck[seats * hand_size:]
    else:
        first = _apply_setup(state, setup, first)
    state.first = first
    _start_turn(state, first, [])
    return state


def _apply_setup(state: State, setup: dict[str, Any], first: int) -> int:
    check_setup_keys(setup, ("hands", "draw", "first"))
    hands = setup.get("hands")
    if not isinstance(hands, list) or len(hands) != state.seats:
        raise BadOptions(f"setup.hands must list one hand per seat ({state.seats})")
    parsed: list[list[int]] = []
    for hand in hands:
        if not isinstance(hand, list):
            raise BadOptions("each hand in setup.hands must be a list of cards")
        parsed.append([_setup_card(card) for card in hand])
    draw = setup.get("draw")
    if draw is not None and not isinstance(draw, list):
        raise BadOptions("setup.draw must be a list of cards, top first")
    given_draw = [_setup_card(card) for card in draw] if draw is not None else []
    used = [card for hand in parsed for card in hand] + given_draw
    if len(set(used)) != len(used):
        twice = sorted({c for c in used if used.count(c) > 1})
        raise BadOptions(f"setup uses these cards more than once: {twice}")
    chosen = setup.get("first")
    if chosen is not None:
        if not isinstance(chosen, int) or not 0 <= chosen < state.seats:
            raise BadOptions(f"setup.first must be a seat from 0 to {state.seats - 1}")
        first = chosen
    state.hands = [sorted(hand) for hand in parsed]
    if draw is not None:
        state.draw = given_draw  # the contract: cards in neither are out of play
    else:
        rest = sorted(set(DECK) - set(used))
        state.draw = shuffled(rest, state.seed, ID, "deal")
    return first


def _setup_card(card: object) -> int:
    code = _card(str(card))
    if code is None:
        raise BadOptions(f"setup card {card!r} is not a card of this game (2 to 99)")
    return code


# --- turns ----------------------------------------------------------------------------------

def _start_turn(state: State, seat: int, events: list[Event]) -> None:
    """Give the turn to `seat` or the next seat holding cards, then check it can play."""
    for step in range(state.seats):
        candidate = (seat + step) % state.seats
        if state.hands[candidate]:
            break
    else:
        # Nobody holds a card: with the draw pile gone too, "vous avez battu le jeu".
        _finish(state, None, events)
        return
    state.turn, state.played = candidate, 0
    _check_stuck(state, events)


def _check_stuck(state: State, events: list[Event]) -> None:
    """"La partie s'arrête dès qu'un joueur avec des cartes en main ne peut en poser le minimum"."""
    need = minimum(state) - state.played
    if not can_reach(state.hands[state.turn], tops(state), need):
        _finish(state, state.turn, events, needed=need)


def _finish(state: State, stuck: int | None, events: list[Event], needed: int = 0) -> None:
    state.over = True
    state.stuck = stuck
    left = score(state)
    if stuck is None and left == 0:
        events.append(event("game_won", score=0))
    else:
        events.append(event("game_lost", seat=stuck, needed=needed, score=left,
                            hands=[list(h) for h in state.hands]))


def _end_turn(state: State, events: list[Event]) -> None:
    """"un joueur pioche autant de cartes que de cartes posées durant son tour"."""
    seat = state.turn
    drawn = state.draw[:state.played]
    del state.draw[:state.played]
    if drawn:
        state.hands[seat] = sorted(state.hands[seat] + drawn)
    following = (seat + 1) % state.seats
    # Which cards were drawn is the drawer's alone; everyone sees how many.
    events.append(event("turn_ended", seat=seat, played=state.played, drawn=len(drawn),
                        draw_size=len(state.draw), secret={"drawn_cards": drawn}))
    state.turns += 1
    _start_turn(state, following, events)


# --- reading the state ----------------------------------------------------------------------

def to_act(state: State) -> list[int]:
    return [] if state.over else [state.turn]


def won(state: State) -> bool:
    """The team wins only by placing every card: score 0 (docs/games/the-game.md)."""
    return state.over and score(state) == 0


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    # Cooperative: every seat shares the team's score, so every seat is placed 1st.
    return Outcome.from_scores([score(state)] * state.seats, lower_wins=True)


def _public_view(state: State) -> dict[str, Any]:
    left = score(state)
    out: dict[str, Any] = {
        "game": ID,
        "to_act": to_act(state),
        "round": 1,  # one deal, no rounds
        "turn": state.turns,
        "first": state.first,
        "piles": dict(zip(PILES, tops(state), strict=True)),
        "draw_size": len(state.draw),
        "hand_sizes": [len(h) for h in state.hands],
        "scores": [left] * state.seats,
        "min_play": state.min_play,
        "hand_size": state.hand_size,
        "minimum": None if state.over else minimum(state),
        "played": state.played,
        "over": state.over,
        "won": state.over and left == 0,
    }
    # Public: everyone saw these cards go down; bots count the unseen cards from them.
    out["on_piles"] = sorted(chain.from_iterable(state.piles))
    out["signals"] = {
        pile: (list(state.signals[i]) if state.signals else [None] * state.seats)
        for i, pile in enumerate(PILES)
    }
    return out


def view(state: State, seat: int | None = None,
         public: dict[str, Any] | None = None) -> dict[str, Any]:
    """What `seat` sees (everyone sees the public part; None: only that)."""
    out = public_part(_public_view, state, public)
    if seat is not None:
        out["seat"] = seat
        out["hand"] = [str(c) for c in state.hands[seat]]
    return out


# --- notation -------------------------------------------------------------------------------

_PLAY_WORDS = {"play", "jouer", "joue", "joues", "pose", "poser", "lege", "legen"}
_END_WORDS = {"end", "fin", "finir", "termine", "terminer", "ende", "fertig"}
_SIGNAL_WORDS = {"signal", "signale", "signaler", "say", "dis", "demande", "sag", "bitte"}
# What each signal is called in chat; `off` withdraws the author's signal on that pile.
_SIGNAL_KINDS: dict[str, str | None] = {
    "stop": STOP, "wait": STOP, "dont": STOP, "attends": STOP, "attendez": STOP,
    "stopp": STOP, "halt": STOP, "warte": STOP,
    "small": SMALL, "nojump": SMALL, "careful": SMALL, "petit": SMALL, "petits": SMALL,
    "doucement": SMALL, "prudence": SMALL, "klein": SMALL, "vorsicht": SMALL,
    "off": None, "withdraw": None, "clear": None, "retire": None, "retirer": None,
    "annule": None, "annuler": None, "aus": None, "zurück": None, "zurueck": None,
}


def _card(word: str) -> int | None:
    value = read_number(word.strip(), HIGHEST + 1)
    return value if value is not None and LOWEST <= value <= HIGHEST else None


def parse_move(state: State, seat: int, text: str) -> Move:
    words = tokens(text)
    if words and words[0] in _SIGNAL_WORDS:
        return _parse_signal(words[1:], text)
    if words and words[0] in _END_WORDS:
        if len(words) > 1:
            raise IllegalMove("bad_notation", text=text)
        return End()
    # `23 A1, play 77 D2` reads as well as `play 23 A1, 77 D2`.
    words = [w for w in words if w not in _PLAY_WORDS]
    if not words or len(words) % 2:
        raise IllegalMove("bad_notation", text=text)
    plays: list[tuple[int, str]] = []
    for card_word, pile_word in zip(words[::2], words[1::2], strict=True):
        card = _card(card_word)
        if card is None:
            if card_word in _PILE_INDEX and _card(pile_word) is not None:
                raise IllegalMove("bad_notation", text=text)  # `A1 23`: order is card, pile
            raise IllegalMove("unknown_card", text=card_word)
        if pile_word not in _PILE_INDEX:
            raise IllegalMove("unknown_pile", text=pile_word)
        plays.append((card, PILES[_PILE_INDEX[pile_word]]))
    return Plays(tuple(plays))


def _parse_signal(words: list[str], text: str) -> Signal:
    """`signal A1 stop`, `signal stop A1`, `signal D2 small`, `signal D2 off`.

    Only a pile and one of the named requests: there is no way to write a number here,
    so no signal can say what a hand holds ("il est interdit d'indiquer le nombre").
    """
    piles = [w for w in words if w in _PILE_INDEX]
    kinds = [w for w in words if w in _SIGNAL_KINDS]
    if len(words) != 2 or len(piles) != 1 or len(kinds) != 1:
        unknown = [w for w in words if w not in _PILE_INDEX and w not in _SIGNAL_KINDS]
        if unknown and len(piles) == 1 and not kinds:
            raise IllegalMove("unknown_signal", text=unknown[0])
        if unknown and len(kinds) == 1 and not piles:
            raise IllegalMove("unknown_pile", text=unknown[0])
        raise IllegalMove("bad_notation", text=text)
    return Signal(PILES[_PILE_INDEX[piles[0]]], _SIGNAL_KINDS[kinds[0]])


def is_talk(move: Move) -> bool:
    """Moves any seat may make at any time, whose meaning no later change alters."""
    return isinstance(move, Signal)


# One team against the deck, in one long hand; signals may be given at any time.
CAPABILITIES = Capabilities(round_end=None, cooperative=True, won=won, talk=is_talk)


def signal_moves(state: State, seat: int) -> list[Move]:
    """Every signal `seat` may give now: on each pile, each request it has not made there,
    or withdrawing the one it made. Any seat, at any time until the game is over."""
    if state.over or not 0 <= seat < state.seats:
        return []
    moves: list[Move] = []
    for i, pile in enumerate(PILES):
        mine = state.signals[i][seat] if state.signals else None
        moves += [Signal(pile, kind) for kind in SIGNALS if kind != mine]
        if mine is not None:
            moves.append(Signal(pile, None))
    return moves


# --- what is legal --------------------------------------------------------------------------

def legal_moves(state: State, seat: int) -> list[Move]:
    if state.over or seat != state.turn:
        return []
    piles_top = tops(state)
    # Signals are legal too, for every seat at any time, but listed by `signal_moves`:
    # they are talk, not a way to take the turn (a playout picking any legal move must
    # still end the game).
    moves: list[Move] = [
        Plays(((card, PILES[p]),))
        for card in state.hands[seat] for p in range(4) if playable(card, p, piles_top[p])
    ]
    if state.played >= minimum(state):
        moves.append(End())
    return moves


def _refuse_play(state: State, seat: int, card: object, pile: object) -> IllegalMove | None:
    """The first refusal that applies to one play, in the contract's order of codes."""
    if state.over:
        return IllegalMove("game_over")
    if seat != state.turn:
        return IllegalMove("not_your_turn", seat=seat, to_act=to_act(state))
    if not isinstance(card, int) or isinstance(card, bool) or not LOWEST <= card <= HIGHEST:
        return IllegalMove("unknown_card", text=str(card))
    if not isinstance(pile, str) or pile.lower() not in _PILE_INDEX:
        return IllegalMove("unknown_pile", text=str(pile))
    if card not in state.hands[seat]:
        return IllegalMove("card_not_in_hand", card=card)
    index = _PILE_INDEX[pile.lower()]
    top = state.piles[index][-1] if state.piles[index] else BASES[index]
    if not playable(card, index, top):
        return IllegalMove("not_playable", card=card, pile=PILES[index], top=top)
    return None


def _refuse_end(state: State, seat: int) -> IllegalMove | None:
    if state.over:
        return IllegalMove("game_over")
    if seat != state.turn:
        return IllegalMove("not_your_turn", seat=seat, to_act=to_act(state))
    needed = minimum(state)
    if state.played < needed:
        # "au moins 2 cartes de sa main" (1 once the draw pile is empty).
        return IllegalMove("below_minimum", needed=needed, played=state.played)
    return None


# --- playing --------------------------------------------------------------------------------

def _refuse_signal(state: State, seat: int, move: Signal) -> IllegalMove | None:
    if state.over:
        return IllegalMove("game_over")
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        return IllegalMove("not_your_turn", seat=seat, to_act=to_act(state))
    if isinstance(move, Move) and not well_typed(move):
        return IllegalMove("bad_notation", text=repr(move))
    if not isinstance(move.pile, str) or move.pile.lower() not in _PILE_INDEX:
        return IllegalMove("unknown_pile", text=str(move.pile))
    if move.kind is not None and move.kind not in SIGNALS:
        return IllegalMove("unknown_signal", text=str(move.kind))
    index = _PILE_INDEX[move.pile.lower()]
    mine = state.signals[index][seat] if state.signals else None
    if move.kind is None and mine is None:
        return IllegalMove("no_signal_to_withdraw", pile=PILES[index])
    if move.kind is not None and move.kind == mine:
        return IllegalMove("signal_already_given", pile=PILES[index], signal=move.kind)
    return None


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    if isinstance(move, Signal):
        refusal = _refuse_signal(state, seat, move)
        if refusal is not None:
            raise refusal
        state = _copy(state)
        index = _PILE_INDEX[move.pile.lower()]
        state.signals[index][seat] = move.kind
        # Talk, not a play: the turn, its count of plays and its deadline stay as they are.
        return state, [event("signalled", seat=seat, pile=PILES[index], signal=move.kind)]
    if isinstance(move, End):
        refusal = _refuse_end(state, seat)
        if refusal is not None:
            raise refusal
        state = _copy(state)
        events: list[Event] = []
        _end_turn(state, events)
        return state, events
    if not isinstance(move, Plays) or not well_typed(move) or not move.plays:
        if state.over:
            raise IllegalMove("game_over")
        ill_typed = isinstance(move, Plays) and not well_typed(move)
        if ill_typed and seat != state.turn:
            raise IllegalMove("not_your_turn", seat=seat, to_act=to_act(state))
        raise IllegalMove("bad_notation", text=repr(move) if ill_typed else str(move))
    # docs/games/the-game.md: a message's plays are checked as a whole, in order, on the state each
    # previous play leaves; the first refusal cancels them all (the copy is dropped).
    state = _copy(state)
    events = []
    turns = state.turns
    for card, pile in move.plays:
        if state.turns != turns:
            # The hand ran out mid-message, so the turn ended and the player drew: plays
            # chosen before seeing those cards are refused (else, alone at the table, a
            # player could probe the draw pile's order with a message that fails).
            raise IllegalMove("not_your_turn", seat=seat, to_act=to_act(state),
                              reason="turn_ended")
        refusal = _refuse_play(state, seat, card, pile)
        if refusal is not None:
            raise refusal
        _play(state, seat, card, _PILE_INDEX[pile.lower()], events)
    return state, events


def _play(state: State, seat: int, card: int, pile: int, events: list[Event]) -> None:
    stack = state.piles[pile]
    before = stack[-1] if stack else BASES[pile]
    stack.append(card)
    state.hands[seat].remove(card)
    # "until its author plays on that pile": playing there answers one's own request.
    state.signals[pile][seat] = None
    state.played += 1
    jump = card == before + (JUMP if not ASCENDING[pile] else -JUMP)
    events.append(event("played", seat=seat, card=card, pile=PILES[pile], previous=before,
                        jump=jump))
    if not state.hands[seat]:
        _end_turn(state, events)  # the turn ends by itself with an empty hand
    else:
        _check_stuck(state, events)
