"""Nix für Ungut (Jürgen Grunau), with the Monsieur Personne variant.

The rules as Tapis plays them, notation and decisions: docs/games/nix-fur-ungut.md.
A round is five turns; in each turn every player plays one combination of cards from
their hand and slides a chip into that combination's row of the board. A row has three
cells: the new chip takes the first, the chips already there move one cell on, and the
one pushed past the third leaves the board and scores nothing. After the fifth turn
every chip scores the cell it stands in (the super chip twice); all cards are shuffled
and dealt again for the next round.
"""

from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

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

ID = "nix-fur-ungut"
NAME = "Nix für Ungut"
SEATS = range(2, 6)

JOKER = "J"
_CARD_ORDER = numbers_first({JOKER: 0})  # the hand order: numbers, then the joker
NUMBERS = tuple(str(n) for n in range(1, 8))
DECK = [n for n in NUMBERS for _ in range(10)] + [JOKER] * 10  # "80 cartes ... dont 10 jokers"
_DECK_CARDS = frozenset(DECK)
HAND_SIZE = 12  # "chaque joueur en reçoit 12"
TURNS = 5  # one chip a turn, "les 5 jetons"
CELLS = 3
SUPER_LAST_TURN = TURNS - 1  # "Il ne peut pas non plus être utilisé au cours du 5ème tour"
PERSONNE_REVEALS = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6}
PERSONNE_SUPER_TURN = 4  # "Monsieur Personne joue toujours son super jeton au 4ème tour"

Row = Literal["quad", "run4", "triple", "run3", "pair", "run2", "single", "none"]
# The board's rows from top to bottom: the order is also Monsieur Personne's "plus forte".
ROWS: tuple[Row, ...] = ("quad", "run4", "triple", "run3", "pair", "run2", "single", "none")
KIND, RUN = "kind", "run"
SHAPES: dict[str, tuple[str, int]] = {
    "quad": (KIND, 4), "run4": (RUN, 4), "triple": (KIND, 3), "run3": (RUN, 3),
    "pair": (KIND, 2), "run2": (RUN, 2), "single": (KIND, 1), "none": (KIND, 0),
}
# The printed board's values are not in the rule text: Tapis fixes these (cell 1, 2, 3;
# docs/games/nix-fur-ungut.md).
DEFAULT_BOARD: dict[str, list[int]] = {
    "quad": [12, 8, 4], "run4": [10, 7, 3], "triple": [8, 6, 3], "run3": [6, 4, 2],
    "pair": [5, 3, 1], "run2": [4, 2, 1], "single": [2, 1, 0], "none": [2, 1, 0],
}
# The default board until issue #36. Tables opened before then stored no board (or only
# the rows their host chose): the rows their stored options lack are these, for good.
FIRST_BOARD: dict[str, list[int]] = {
    "quad": [12, 8, 4], "run4": [10, 7, 3], "triple": [8, 6, 3], "run3": [6, 4, 2],
    "pair": [5, 3, 1], "run2": [4, 2, 1], "single": [2, 1, 0], "none": [15, 10, 5],
}

# A cell worth more than 1,000 points is no longer a board; the bound keeps every total
# (20 rounds of five chips, the super chip counting twice: at most 200,000) far inside
# the 64-bit integers the database stores.
MAX_CELL_VALUE = 1000
CellValue = Annotated[int, Field(ge=0, le=MAX_CELL_VALUE, strict=True)]
CellValues = Annotated[list[CellValue], Field(min_length=CELLS, max_length=CELLS)]


class Options(GameOptions):
    rounds: int = Field(4, ge=1, le=20, strict=True,  # `rounds=yes` is no count, not 1
                        description="number of rounds (manches)")
    personne: bool = Field(False, description="Monsieur Personne plays along as an extra seat")
    board: dict[Row, CellValues] = Field(
        default_factory=dict,
        description="cell values per row, e.g. {\"pair\": [5, 3, 1]}; rows not given keep "
        "the default board",
        examples=[{"pair": [5, 3, 1]}],
    )


def _full_board(options: dict[str, Any], rows: dict[str, list[int]]) -> dict[str, Any]:
    """`options` with the board's missing rows taken from `rows`. What was given stays as
    it is, even a row that does not exist or a bad value: `parse_options` refuses it."""
    board = options.get("board", {})
    if not isinstance(board, dict):
        return options
    full = {row: board[row] if row in board else list(rows[row]) for row in ROWS}
    return {**options, "board": {**full, **board}}


def opened_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options a table stores when it opens: the board written out in full, the rows
    nobody chose at today's default, so a later change of `DEFAULT_BOARD` never changes
    how a stored game replays."""
    return _full_board(options, DEFAULT_BOARD)


def stored_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options a stored table plays with. Since issue #36 every table stores its whole
    board; a stored board lacking rows (or none at all) was opened before, under
    `FIRST_BOARD`."""
    return _full_board(options, FIRST_BOARD)


# Each seat for itself, over rounds; the board written out when a table opens.
CAPABILITIES = Capabilities(round_end="round_over", opened=opened_options,
                            stored=stored_options)


@dataclass(frozen=True, slots=True)
class Play(Move):
    row: str
    cards: tuple[str, ...] = ()
    super_chip: bool = False

    def __str__(self) -> str:
        return " ".join(["play", self.row, *self.cards, *(["super"] if self.super_chip else [])])


@dataclass(frozen=True, slots=True)
class Chip:
    seat: int  # `seats` is Monsieur Personne
    super: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    """One combination laid face up this round, for everybody to see."""

    turn: int
    seat: int
    row: str
    cards: tuple[str, ...]
    super: bool


@dataclass
class State:
    seats: int
    seed: int
    rounds: int
    personne: bool
    board_values: dict[str, list[int]]
    round: int
    turn: int  # 1-5
    first: int  # the round's first player; every turn starts with them
    acted: int  # human seats that have played in this turn
    hands: list[list[str]]
    draw: list[str]  # face down, top first; only Monsieur Personne draws from it
    played: list[str]  # cards laid this round ("ne sont pas remplacées")
    out: list[str]  # cards a test `setup` left out of play for round 1
    board: dict[str, list[Chip | None]]
    super_used: list[bool]  # per human seat, this round
    scores: list[int]  # per seat; Monsieur Personne at index `seats`
    placed: list[Placed] = field(default_factory=list)
    personne_cards: list[str] = field(default_factory=list)  # revealed in its latest turn
    round_scores: list[list[int]] = field(default_factory=list)
    over: bool = False


_snapshots = Snapshots(State, ID)


def dump(state: State) -> str:
    return _snapshots.dump(state)


def load(text: str) -> State:
    return _snapshots.load(text)


def sort_cards(cards: list[str] | tuple[str, ...]) -> list[str]:
    """The hand order. The deck's cards are one character each, `1`-`7` then `J`, so
    their own order is it: a plain sort, three times quicker than the key's (every view
    sorts the cards laid this round, up to seventy); any other text takes the key."""
    if _DECK_CARDS.issuperset(cards):
        return sorted(cards)
    return sorted(cards, key=_CARD_ORDER)


def _copy(state: State) -> State:
    """`apply` never mutates its input; chips and placements are frozen, so lists suffice."""
    return State(
        seats=state.seats, seed=state.seed, rounds=state.rounds, personne=state.personne,
        board_values=state.board_values, round=state.round, turn=state.turn,
        first=state.first, acted=state.acted, hands=[list(h) for h in state.hands],
        draw=list(state.draw), played=list(state.played), out=list(state.out),
        board={row: list(cells) for row, cells in state.board.items()},
        super_used=list(state.super_used), scores=list(state.scores),
        placed=list(state.placed), personne_cards=list(state.personne_cards),
        round_scores=[list(r) for r in state.round_scores], over=state.over,
    )


# --- combinations -----------------------------------------------------------------------------

def forms(row: str, cards: list[str] | tuple[str, ...]) -> bool:
    """Whether `cards` make `row`, jokers standing for any number (their count is not checked).

    Runs do not wrap: the numbers must fit a window of consecutive values inside 1-7.
    """
    kind, size = SHAPES[row]
    if len(cards) != size:
        return False
    numbers = [int(c) for c in cards if c != JOKER]
    if kind == KIND:
        return len(set(numbers)) <= 1
    return len(set(numbers)) == len(numbers) and (
        not numbers or max(numbers) - min(numbers) < size)


def strongest(cards: list[str]) -> tuple[str, list[str]]:
    """Monsieur Personne's pick: the highest row these cards make, jokers for anything.

    "Monsieur Personne choisit toujours la combinaison la plus forte ... Il a le droit
    d'utiliser autant de jokers qu'il veut". Among ways to make the row it spends as few
    jokers as it can, then the highest numbers, so the cards it shows read naturally.
    """
    counts = Counter(cards)
    jokers = counts.pop(JOKER, 0)
    for row in ROWS:
        kind, size = SHAPES[row]
        if size > len(cards):
            continue
        if size == 0:
            return row, []
        if kind == KIND:
            best = max(NUMBERS, key=lambda n: (min(counts[n], size), int(n)))
            have = min(counts[best], size)
            if have + jokers >= size:
                return row, [best] * have + [JOKER] * (size - have)
            continue
        windows = [NUMBERS[a:a + size] for a in range(len(NUMBERS) - size + 1)]
        window = min(windows, key=lambda w: (sum(counts[n] == 0 for n in w), -int(w[0])))
        held = [n for n in window if counts[n]]
        if len(held) + jokers >= size:
            return row, held + [JOKER] * (size - len(held))
    return "none", []


# --- setting up -----------------------------------------------------------------------------

def new_game(
    seats: int, options: dict[str, Any] | None = None, seed: int = 0,
    setup: dict[str, Any] | None = None,
) -> State:
    check_seats(seats, SEATS.start, SEATS.stop - 1)
    opts = parse_options(Options, options)
    players = seats + (1 if opts.personne else 0)
    state = State(
        seats=seats, seed=seed, rounds=opts.rounds, personne=opts.personne,
        board_values={row: list(opts.board.get(row, DEFAULT_BOARD[row])) for row in ROWS},
        round=1, turn=1, first=0, acted=0, hands=[[] for _ in range(seats)], draw=[],
        played=[], out=[], board=_empty_board(), super_used=[False] * seats,
        scores=[0] * players,
    )
    if setup is None:
        # "Le joueur le plus âgé commence": a seeded random seat.
        _deal(state, rng_for(seed, ID, "first").randrange(seats))
    else:
        _apply_setup(state, setup)
    return state


def _empty_board() -> dict[str, list[Chip | None]]:
    return {row: [None] * CELLS for row in ROWS}


def _apply_setup(state: State, setup: dict[str, Any]) -> None:
    check_setup_keys(setup, ("hands", "draw", "first"))
    hands = setup.get("hands")
    if not isinstance(hands, list) or len(hands) != state.seats:
        raise BadOptions(f"setup.hands must list one hand per seat ({state.seats})")
    parsed: list[list[str]] = []
    for hand in hands:
        if not isinstance(hand, list) or len(hand) > HAND_SIZE:
            raise BadOptions(f"each hand in setup.hands must be a list of at most "
                             f"{HAND_SIZE} cards")
        parsed.append([_setup_card(card) for card in hand])
    draw = setup.get("draw")
    if draw is not None and not isinstance(draw, list):
        raise BadOptions("setup.draw must be a list of cards, top first")
    given_draw = [_setup_card(card) for card in draw or []]
    used = Counter(card for hand in parsed for card in hand) + Counter(given_draw)
    over = sorted(card for card, n in used.items() if n > DECK.count(card))
    if over:
        raise BadOptions(f"setup uses more copies than the deck has of: {', '.join(over)}")
    first = setup.get("first")
    if first is not None and (not isinstance(first, int) or not 0 <= first < state.seats):
        raise BadOptions(f"setup.first must be a seat from 0 to {state.seats - 1}")
    rest = list((Counter(DECK) - used).elements())
    if draw is None:
        # Cards in no hand form the draw pile, as in a normal deal.
        state.draw = shuffled(rest, state.seed, ID, "draw", state.round)
    else:
        state.draw, state.out = given_draw, sort_cards(rest)
    state.hands = [sort_cards(hand) for hand in parsed]
    state.first = first if first is not None else rng_for(
        state.seed, ID, "first").randrange(state.seats)


def _setup_card(card: object) -> str:
    code = _card_code(str(card))
    if code is None:
        raise BadOptions(f"setup card {card!r} is not a card of this game")
    return code


def _deal(state: State, first: int) -> None:
    """"Toutes les cartes sont mélangées et chacun en reçoit 12"; the rest is the draw pile."""
    deck = shuffled(DECK, state.seed, ID, "deal", state.round)
    state.hands = [sort_cards(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE])
                   for i in range(state.seats)]
    state.draw = deck[state.seats * HAND_SIZE:]
    state.played, state.out, state.placed, state.personne_cards = [], [], [], []
    state.board = _empty_board()
    state.super_used = [False] * state.seats
    state.first, state.turn, state.acted = first, 1, 0


# --- reading the state ----------------------------------------------------------------------

def to_act(state: State) -> list[int]:
    if state.over:
        return []
    return [(state.first + state.acted) % state.seats]


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    return Outcome.from_scores(state.scores, lower_wins=False)


def cell_points(state: State, row: str, cell: int, chip: Chip) -> int:
    """"Le super jeton ... double le score de la case sur laquelle il se trouve"."""
    return state.board_values[row][cell] * (2 if chip.super else 1)


def board_points(state: State) -> list[int]:
    """What the chips on the board are worth now, per seat (Monsieur Personne last)."""
    points = [0] * len(state.scores)
    for row, cells in state.board.items():
        values = state.board_values[row]
        for cell, chip in enumerate(cells):
            if chip is not None:
                # cell_points, inline: every view asks, for every chip on the board.
                points[chip.seat] += values[cell] * (2 if chip.super else 1)
    return points


def _board_view(state: State) -> dict[str, list[dict[str, Any] | None]]:
    return {
        row: [None if c is None else {"seat": c.seat, "super": c.super} for c in cells]
        for row, cells in state.board.items()
    }


def _public_view(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": ID,
        "to_act": to_act(state),
        "round": state.round,
        "rounds": state.rounds,
        "turn": state.turn,
        "first": state.first,
        "hand_sizes": [len(h) for h in state.hands],
        "scores": list(state.scores),
        "round_scores": [list(r) for r in state.round_scores],
        "board": _board_view(state),
        "board_values": {row: list(v) for row, v in state.board_values.items()},
        "board_points": board_points(state),
        "super_used": list(state.super_used),
        "placed": [
            {"turn": p.turn, "seat": p.seat, "row": p.row, "cards": list(p.cards),
             "super": p.super}
            for p in state.placed
        ],
        "draw_size": len(state.draw),
        # Every card laid face up this round, Monsieur Personne's reveals included: what a
        # player counts to guess the hands still hidden.
        "played": sort_cards(state.played),
        "personne": state.personne,
        "over": state.over,
    }
    if state.personne:
        out["personne_seat"] = state.seats
        out["personne_cards"] = list(state.personne_cards)
    return out


def view(state: State, seat: int | None = None,
         public: dict[str, Any] | None = None) -> dict[str, Any]:
    """What `seat` sees (everyone sees the public part; None: only that)."""
    out = public_part(_public_view, state, public)
    if seat is not None:
        out["seat"] = seat
        out["hand"] = sort_cards(state.hands[seat])
    return out


# --- notation -------------------------------------------------------------------------------

_ROW_WORDS: dict[str, str] = {
    **{row: row for row in ROWS},
    "carre": "quad", "suite4": "run4", "brelan": "triple", "suite3": "run3",
    "paire": "pair", "suite2": "run2", "carte": "single", "rien": "none",
    "vierling": "quad", "reihe4": "run4", "drilling": "triple", "reihe3": "run3",
    "paar": "pair", "reihe2": "run2", "einzel": "single", "nichts": "none",
}
_CARD_WORDS = {"j": JOKER, "joker": JOKER, "jokers": JOKER}
_PLAY_WORDS = {"play", "jouer", "joue", "joues", "spielen", "spiele"}
_SUPER_WORDS = {"super", "superjeton"}


def _card_code(word: str) -> str | None:
    word = word.strip().lower()
    if word in _CARD_WORDS:
        return _CARD_WORDS[word]
    number = word.lstrip("0")
    return number if word.isdigit() and number in NUMBERS else None


def parse_move(state: State, seat: int, text: str) -> Move:
    words = strip_verb(tokens(text), _PLAY_WORDS)
    if not words:
        raise IllegalMove("bad_notation", text=text)
    row = _ROW_WORDS.get(words[0])
    if row is None:
        raise IllegalMove("unknown_row", text=words[0])
    cards: list[str] = []
    super_chip = False
    for word in words[1:]:
        if word in _SUPER_WORDS:
            super_chip = True
            continue
        code = _card_code(word)
        if code is None:
            raise IllegalMove("unknown_card", text=word)
        cards.append(code)
    return Play(row, tuple(sort_cards(cards)), super_chip)


# --- what is legal --------------------------------------------------------------------------

# Each window of consecutive numbers a run can use, as a bit mask of its numbers (bit n
# for number n), with the run laid from it and, for each of its numbers, the run with a
# joker in that number's place (by the number's bit).
_RUNS: dict[int, list[tuple[int, tuple[str, ...], dict[int, tuple[str, ...]]]]] = {
    size: [(sum(1 << int(n) for n in window), window,
            {1 << int(n): (*window[:i], *window[i + 1:], JOKER) for i, n in enumerate(window)})
           for window in (NUMBERS[a:a + size] for a in range(len(NUMBERS) - size + 1))]
    for kind, size in SHAPES.values() if kind == RUN}


def _combinations(hand: list[str], turn: int) -> list[tuple[str, tuple[str, ...]]]:
    """Every (row, cards) a player can lay from `hand`: at most one joker, none in turn 5
    except alone ("un joker ne peut être utilisé que comme combinaison une carte").

    In each row sorted as tuples of card names, so numbers in order (they are one
    character each) and a number's set before the same with a joker. Worked out from
    the count of each number held and, for runs, a bit mask of the numbers held: the
    baseline bot asks at every move, and this was a third of its decision."""
    if not hand:
        return [("none", ())]
    counts = [(n, have) for n in NUMBERS if (have := hand.count(n))]
    held = sum(1 << int(n) for n, _have in counts)
    has_joker = JOKER in hand
    joker_ok = has_joker and turn < TURNS
    found: list[tuple[str, tuple[str, ...]]] = []
    for row in ROWS:
        kind, size = SHAPES[row]
        if size == 0 or size > len(hand):
            continue
        if kind == KIND:
            for n, have in counts:
                if have >= size:
                    found.append((row, (n,) * size))
                if size > 1 and joker_ok and have >= size - 1:
                    found.append((row, (n,) * (size - 1) + (JOKER,)))
            if size == 1 and has_joker:
                found.append((row, (JOKER,)))
            continue
        combos: set[tuple[str, ...]] = set()
        for numbers, window, gapped in _RUNS[size]:
            lacking = numbers & ~held
            if not lacking:
                combos.add(window)
                if joker_ok:
                    combos.update(gapped.values())
            elif joker_ok and not lacking & (lacking - 1):  # a single number lacking
                combos.add(gapped[lacking])
        found.extend((row, cards) for cards in sorted(combos))
    return found


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    return [Play(row, cards, super_chip)
            for row, cards, super_chip in plays(state.hands[seat], state.turn,
                                                state.super_used[seat])]


def plays(hand: list[str], turn: int, super_used: bool) -> list[tuple[str, tuple[str, ...], bool]]:
    """What `legal_moves` offers a seat to act, in its order, as (row, cards, super chip)
    before any `Play` is made: the baseline bot weighs up to a hundred of them a turn and
    keeps one, and building them all was most of its decision."""
    may_super = not super_used and turn <= SUPER_LAST_TURN
    out: list[tuple[str, tuple[str, ...], bool]] = []
    for row, cards in _combinations(hand, turn):
        out.append((row, cards, False))
        if may_super and JOKER not in cards:
            out.append((row, cards, True))
    return out


def _refusal(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The first refusal that applies: the contract's codes first, then this game's."""
    if state.over:
        return IllegalMove("game_over")
    if seat not in to_act(state):
        return IllegalMove("not_your_turn", seat=seat, to_act=to_act(state))
    if isinstance(move, Move) and not well_typed(move):
        return IllegalMove("bad_notation", text=repr(move))
    if not isinstance(move, Play):
        return IllegalMove("bad_notation", text=str(move))
    if move.row not in SHAPES:
        return IllegalMove("unknown_row", text=move.row)
    hand = state.hands[seat]
    cards = list(move.cards)
    missing = missing_cards(cards, hand)
    if missing:
        return IllegalMove("card_not_in_hand", cards=sort_cards(list(missing.elements())),
                           **short_of(cards, hand, missing, sort_cards))
    if move.row == "none" and not cards and hand:
        # "ne peut être jouée que quand le joueur concerné n'a effectivement plus de cartes"
        return IllegalMove("none_needs_empty_hand", hand_size=len(hand))
    jokers = cards.count(JOKER)
    if jokers and len(cards) > 1:
        if state.turn == TURNS:
            return IllegalMove("joker_single_only", turn=state.turn)
        if jokers > 1:
            # "on ne peut utiliser qu'un seul joker par combinaison"
            return IllegalMove("joker_limit", jokers=jokers)
    if not forms(move.row, cards):
        return IllegalMove("not_a_combination", row=move.row, cards=sort_cards(cards))
    if move.super_chip:
        if state.super_used[seat]:
            return IllegalMove("super_used")
        if state.turn > SUPER_LAST_TURN:
            return IllegalMove("super_not_allowed", reason="turn_5")
        if jokers:
            # "il ne peut être utilisé que si la combinaison ... ne compte aucun joker"
            return IllegalMove("super_not_allowed", reason="joker")
    return None


# --- playing --------------------------------------------------------------------------------

def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    refusal = _refusal(state, seat, move)
    if refusal is not None:
        raise refusal
    assert isinstance(move, Play)
    state = _copy(state)
    events: list[Event] = []
    hand = state.hands[seat]
    for card in move.cards:
        hand.remove(card)
    state.played.extend(move.cards)  # face up, "pas remplacées"
    super_chip = move.super_chip
    if super_chip:
        state.super_used[seat] = True
    elif state.turn == TURNS and not state.super_used[seat]:
        # A super chip not used by turn 5 is placed as a normal chip (docs/games/nix-fur-ungut.md).
        state.super_used[seat] = True
        events.append(event("super_as_normal", seat=seat))
    _place(state, seat, move.row, move.cards, super_chip, events)
    state.acted += 1
    if state.acted == state.seats:
        if state.personne:
            _personne_plays(state, events)
        _end_turn(state, events)
    return state, events


def _place(state: State, seat: int, row: str, cards: tuple[str, ...], super_chip: bool,
           events: list[Event]) -> None:
    """Slide a chip into the row, pushing the row's chips one cell on."""
    state.placed.append(Placed(state.turn, seat, row, cards, super_chip))
    cells = state.board[row]
    pushed_off = cells[-1]
    state.board[row] = [Chip(seat, super_chip), *cells[:-1]]
    events.append(event("played", seat=seat, row=row, cards=list(cards), super=super_chip,
                        turn=state.turn))
    if pushed_off is not None:
        # "Les jetons ainsi sortis restent où il sont" and "ne rapportent aucun point".
        events.append(event("pushed_off", seat=pushed_off.seat, row=row,
                            super=pushed_off.super))


def _personne_plays(state: State, events: list[Event]) -> None:
    """Monsieur Personne reveals 2-6 cards from the draw pile and lays the strongest row."""
    count = PERSONNE_REVEALS[state.turn]
    revealed, state.draw = state.draw[:count], state.draw[count:]
    state.personne_cards = list(revealed)
    events.append(event("personne_revealed", cards=list(revealed), turn=state.turn))
    row, cards = strongest(revealed)
    # Every revealed card is spent: it has no hand to keep the rest in.
    state.played.extend(revealed)
    _place(state, state.seats, row, tuple(sort_cards(cards)),
           state.turn == PERSONNE_SUPER_TURN, events)


def _end_turn(state: State, events: list[Event]) -> None:
    if state.turn < TURNS:
        state.turn += 1
        state.acted = 0
        events.append(event("turn_started", turn=state.turn, round=state.round))
        return
    _end_round(state, events)


def _end_round(state: State, events: list[Event]) -> None:
    """"Au bout de 5 tours ... on additionne les scores indiqués sur les cases"."""
    points = board_points(state)
    state.scores = [a + b for a, b in zip(state.scores, points, strict=True)]
    state.round_scores.append(points)
    # The board is cleared for the next round below: the event keeps the scored one.
    events.append(event("round_over", round=state.round, points=points,
                        scores=list(state.scores), board=_board_view(state)))
    if state.round >= state.rounds:
        state.over = True
        state.acted = 0
        result = Outcome.from_scores(state.scores, lower_wins=False)
        events.append(event("game_over", scores=result.scores, ranking=result.ranking))
        return
    state.round += 1
    # "Celui qui commence est le joueur avec le plus de points ... En cas d'égalité on tire
    # au sort." Monsieur Personne always acts last, so only human seats can lead.
    humans = state.scores[:state.seats]
    leaders = [s for s, score in enumerate(humans) if score == max(humans)]
    first = leaders[0] if len(leaders) == 1 else rng_for(
        state.seed, ID, "leader", state.round).choice(leaders)
    _deal(state, first)
    events.append(event("round_started", round=state.round, first=first))
