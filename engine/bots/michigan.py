"""Michigan bots: `Easy` (the baseline heuristic) and `Strong` (determinized search).

Both see only `view(state, seat)` and rebuild an engine state from it, dealing the
cards they cannot see: `Easy` in deck order (its heuristic reads only its own hand and
the hand sizes), `Strong` at random among the deals the view allows. The view says a
lot in Michigan: every card played this deal is face up, and a card whose predecessor
was played but which was not played itself cannot be in anybody's hand (its holder
would have had to play it): it is dead. Before the dealer's decision every card is in
a hand or the extra hand, so the extra hand's size is known too.
"""

import random
from math import ceil, log
from typing import Any

from engine import michigan as mi
from engine.bots.search import deal, matched, must_act, pimc
from engine.core.types import Move

# The card after / before each card in its suit; none after the ace or before the 2.
_NEXT: dict[str, str | None] = {
    card: mi.DECK[i + 1] if card[:-1] != mi.RANKS[-1] else None
    for i, card in enumerate(mi.DECK)}
_PREVIOUS: dict[str, str | None] = {
    card: mi.DECK[i - 1] if card[:-1] != mi.RANKS[0] else None
    for i, card in enumerate(mi.DECK)}
_EXTRA = -1  # holders in a deal: seats, the extra hand, the dead hand
_DEAD = -2
_WIN = 100.0  # a win in the last deal outweighs any margin of chips
# Rollouts per decision, spread over the candidates. A lead's rollout is the play alone
# on card numbers; the dealer's decision and a bid also play the auction in the engine
# and build an engine state per world, so they get fewer. Both keep p99 under 50 ms.
# 400 for the leads rather than 200: at 4 players 2 points more wins on the dev seeds,
# 0.15 on the official ones (bench/RESULTS.md, fifth pass), so a small gain at best.
ROLLOUTS = 400
DECISION_ROLLOUTS = 96
# The searching seat's own later leads in a rollout (`play_out`'s `me`): keeping the lead
# is worth this many cards shed; the baseline's score only breaks ties.
_KEEP_LEAD = 3.0
# What ending up with the extra hand is worth beyond the rollouts, in chips: the seat
# then knows the dead hand (its own old one) for the whole play, which the rollouts,
# playing every world in the open, cannot credit.
_OWN_DEAD = 5.0


def _knowledge(view: dict[str, Any], barring: bool = True,
               ) -> tuple[list[str], dict[int, int], dict[str, set[int]], set[str]]:
    """What the view tells of the hidden cards: the cards that may be anywhere hidden,
    how many each holder (other seats, then the extra or the dead hand) has, which seats
    cannot hold which card (left empty without `barring`: a deal in deck order does not
    ask, and it was half of this in the play), and the cards surely dead."""
    seat: int = view["seat"]
    sizes: list[int] = view["hand_sizes"]
    seats = len(sizes)
    played: set[str] = set().union(*view["played"])
    own = set(view["hand"])
    dead_known = {nxt for c in played if (nxt := _NEXT[c]) is not None
                  and nxt not in played and nxt not in own}
    # The seat's own old hand, when it swapped or bought: the whole dead hand.
    dead_known.update(view.get("discarded", ()))
    seen = own | played | dead_known
    pool = [c for c in mi.DECK if c not in seen]
    wanted = {s: sizes[s] for s in range(seats) if s != seat}
    rest = len(pool) - sum(wanted.values())
    before_play = view["phase"] in (mi.DECISION, mi.AUCTION)
    wanted[_EXTRA if before_play else _DEAD] = rest
    # A leader leads the lowest card they hold in the suit, so no card of that suit below
    # a lead is in the leader's hand. A card was surely led when the card before it in
    # its suit was never played (or it is a 2).
    barred: dict[str, set[int]] = {}
    for s, cards in enumerate(view["played"] if barring else ()):
        if s == seat:
            continue
        for card in cards:
            below = _PREVIOUS[card]
            if below is not None and below in played:
                continue
            while below is not None:
                if below not in played:
                    barred.setdefault(below, set()).add(s)
                below = _PREVIOUS[below]
    return pool, wanted, barred, dead_known


def world(view: dict[str, Any], rng: random.Random | None) -> mi.State:
    """An engine state matching the view; hidden cards dealt by `rng`, or in deck order."""
    seat: int = view["seat"]
    seats = len(view["hand_sizes"])
    pool, wanted, barred, dead_known = _knowledge(view, barring=rng is not None)
    if rng is None:
        dealt: dict[int, list[str]] = {}
        for holder, n in wanted.items():
            dealt[holder], pool = pool[:n], pool[n:]
    else:
        dealt = deal(pool, wanted,
                     (lambda card, holder: holder not in barred.get(card, ())) if barred
                     else None, rng)
    hands = [list(view["hand"]) if s == seat else mi.sort_cards(dealt[s]) for s in range(seats)]
    auction = view["auction"] or {}
    high_bidder = auction.get("high_bidder")
    return mi.State(
        seats=seats, seed=0, start_chips=view["start_chips"], deals=view["deals"],
        deal=view["deal"], dealer=view["dealer"], phase=view["phase"],
        chips=list(view["chips"]), pay=[pile for _card, pile in view["pay_cards"]],
        hands=hands, extra=mi.sort_cards(dealt.get(_EXTRA, [])),
        dead=mi.sort_cards([*dealt.get(_DEAD, []), *dead_known]),
        played=[list(p) for p in view["played"]], decision=view["decision"] or "",
        bidders=list(auction.get("bidders", [])), passed=list(auction.get("passed", [])),
        high_bid=auction.get("high_bid", 0),
        high_bidder=-1 if high_bidder is None else high_bidder,
        leader=-1 if view["leader"] is None else view["leader"],
        last_suit=view["suit"] or "",
        sequence=[mi.Played(s, c) for s, c in view["sequence"]])


# --- the baseline ----------------------------------------------------------------------------

_BOT_SAMPLES = 24
_SWAP_MARGIN = 1.0  # swap blind only for a clearly better expected hand
_KEEP_MARGIN = 8.0  # a hand this strong is kept: selling the extra would arm a rival


# `mi.hand_value`'s terms by card number (the deck's index): what a card's rank adds, and
# whether a run goes on after it (no card follows an ace in its suit).
_RANK_WORTH = [2.0 if card[:-1] == "A" else 1.0 if card[:-1] == "K" else 0.0
               for card in mi.DECK]
_RUN_GOES_ON = [card[:-1] != mi.RANKS[-1] for card in mi.DECK]


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """`rng.sample(population, k)`: CPython's algorithm written out, so the same picks
    from the same draws (`tests/engine/test_bots_michigan.py` holds it to the library's),
    but without the library's checks and a Python call per draw, which were most of the
    easy bot's decision (24 samples each). Another generator class, which may draw
    otherwise, gets the library's own."""
    if type(rng) is not random.Random:
        return rng.sample(population, k)
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    bits = rng.getrandbits
    result = []
    # The library's choice between its two ways (a pool, or a set of picks seen).
    if n <= 21 + (4 ** ceil(log(k * 3, 4)) if k > 5 else 0):
        pool = population[:]
        for i in range(k):
            m = n - i
            width = m.bit_length()
            j = bits(width)
            while j >= m:
                j = bits(width)
            result.append(pool[j])
            pool[j] = pool[m - 1]
    else:
        width = n.bit_length()
        seen: set[int] = set()
        for _ in range(k):
            j = bits(width)
            while j >= n or j in seen:
                j = bits(width)
            seen.add(j)
            result.append(population[j])
    return result


def _extra_hand_value(state: mi.State, seat: int, rng: random.Random,
                      pay: dict[str, int]) -> float:
    """Expected worth of the unseen extra hand, from the seat's knowledge only.

    `mi.hand_value` of each sampled hand, worked out on card numbers: the same samples
    (`sample` of the unseen cards' numbers draws as `rng.sample` of the cards did), the
    same terms added in the same order, so the same floats, in a third of the time. It
    was 5 % of the table service's CPU: 24 hands at every decision and bid of a bot."""
    own = state.hands[seat]
    unseen = [i for i, c in enumerate(mi.DECK) if c not in own]
    sizes = [len(h) for h in state.hands]
    size = min(len(unseen), max(1, sum(sizes) // len(sizes)))
    paid = [0.6 * pay.get(card, 0) for card in mi.DECK]
    worth, goes_on = _RANK_WORTH, _RUN_GOES_ON
    values = []
    for _ in range(_BOT_SAMPLES):
        value, runs, previous = 0.0, 0, -2
        for card in sorted(sample(rng, unseen, size)):  # deck order, as the hand is kept
            if card != previous + 1 or not goes_on[previous]:
                runs += 1
            previous = card
            value += paid[card]
            value += worth[card]
        values.append(value - 1.5 * runs)
    return sum(values) / _BOT_SAMPLES


def _lead_score(state: mi.State, seat: int, suit: str, pay: dict[str, int]) -> float:
    cards = [c for c in state.hands[seat] if c[-1] == suit]
    run = 1
    while run < len(cards) and _NEXT[cards[run - 1]] == cards[run]:
        run += 1
    score = len(cards) + 0.5 * run
    for i, card in enumerate(cards):
        if card in pay:
            # Own pay card: sure to be won if the run from the lead reaches it.
            score += pay[card] * (1.0 if i < run else 0.4)
    return score


def policy(state: mi.State, seat: int, rng: random.Random,
           extra_value: float | None = None) -> Move:
    """The baseline: swaps a weak hand, bids up to the extra hand's expected gain, leads
    suits that reach its own pay cards and its long suits. Rollouts pass `extra_value`,
    the extra hand's worth estimated once per decision instead of at every bid."""
    pay = dict(zip(mi.PAY_CARDS, state.pay, strict=True))
    if state.phase in (mi.DECISION, mi.AUCTION):
        extra = (_extra_hand_value(state, seat, rng, pay) if extra_value is None
                 else extra_value)
    if state.phase == mi.DECISION:
        own = mi.hand_value(state.hands[seat], pay)
        if extra > own + _SWAP_MARGIN:
            return mi.Swap()
        return mi.Keep() if own > extra + _KEEP_MARGIN else mi.Auction()
    if state.phase == mi.AUCTION:
        gain = extra - mi.hand_value(state.hands[seat], pay)
        wanted = state.high_bid + 1
        return mi.Bid(wanted) if wanted <= min(gain, mi.max_bid(state, seat)) else mi.Pass()
    moves = mi.legal_moves(state, seat)
    return max(moves, key=lambda m: (
        _lead_score(state, seat, m.suit, pay) if isinstance(m, mi.Lead) else 0.0, rng.random()))


class Easy:
    """Today's baseline bot, seeing only its view."""

    speak = None  # plays in its turn only

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        state, seat = world(view, None), view["seat"]
        must_act(mi.to_act(state), seat)
        return policy(state, seat, rng)


# --- the search ------------------------------------------------------------------------------

_INDEX = {card: i for i, card in enumerate(mi.DECK)}
_PAY_AT = {_INDEX[card]: k for k, card in enumerate(mi.PAY_CARDS)}
_ACES = frozenset(i for i, card in enumerate(mi.DECK) if card[:-1] == mi.RANKS[-1])
_SUIT_AT = {suit: k for k, suit in enumerate(mi.SUITS)}
_RANKS = len(mi.RANKS)
# The same two facts as lists by card number, for the rollouts' inner loop.
_PAY_OF = [_PAY_AT.get(card, -1) for card in range(len(mi.DECK))]
_LAST = [card in _ACES for card in range(len(mi.DECK))]


def _run_from(holder: list[int], card: int, me: int, pay: list[int]) -> tuple[int, int, bool]:
    """What leading `card` does for `me` in this world: its cards shed, the pay chips it
    wins less those others win on the way, and whether the run ends on its own card (it
    then leads again)."""
    seat, shed, chips = me, 0, 0
    while True:
        at = _PAY_OF[card]
        if seat == me:
            shed += 1
            chips += pay[at] if at >= 0 else 0
        elif at >= 0:
            chips -= pay[at]
        if _LAST[card] or holder[card + 1] < 0:
            return shed, chips, seat == me
        card += 1
        seat = holder[card]


def play_out(holder: list[int], counts: list[int], leader: int, last_suit: int,
             pay: list[int], rng: random.Random, lead: int = -1, me: int = -1) -> list[int]:
    """The rest of a deal's play, every lead chosen as `policy` chooses, on card numbers
    instead of engine states (several times quicker, the same play: the same leads from
    the same `rng`); `lead` forces the first lead's suit. `holder[card]` is the seat
    holding it or -1; `holder`, `counts` and `pay` are used up. Returns each seat's
    chips won (pay cards, going out).

    `me`, the searching seat, leads by what each lead's run does in this world
    (`_run_from`) rather than by the baseline's count of its own cards: the search
    plays its own later leads better than the baseline, and a rollout that plays them
    as the baseline undervalues leads that keep control (bench/RESULTS.md: about 1.4
    points of wins at 4 players), though the world is plainer to it here than at the
    table.

    Each seat's cards are kept by suit, lowest first, so that a lead reads its options
    without going through the deck: the rollouts are most of a decision's time."""
    seats = len(counts)
    gains = [0] * seats
    hands: list[list[list[int]]] = [[[], [], [], []] for _ in range(seats)]
    for card, seat in enumerate(holder):
        if seat >= 0:
            hands[seat][card // _RANKS].append(card)
    while True:
        own = hands[leader]
        if lead >= 0:
            best, lead = lead, -1
        else:
            options = [suit for suit in range(4) if own[suit]]
            if len(options) > 1 and last_suit in options:
                options.remove(last_suit)
            best, best_key = options[0], (-1e9, 0.0)
            planned = leader == me and len(options) > 1
            for suit in options:
                cards = own[suit]
                run = 1
                while run < len(cards) and cards[run] == cards[run - 1] + 1:
                    run += 1
                score = len(cards) + 0.5 * run
                for i, card in enumerate(cards):
                    at = _PAY_OF[card]
                    if at >= 0:
                        score += pay[at] * (1.0 if i < run else 0.4)
                # The engine plays a lone choice itself: the policy draws nothing then.
                # The draw is made for `me` too, so the others' leads draw as before.
                draw = rng.random() if len(options) > 1 else 0.0
                if planned:
                    shed, chips, again = _run_from(holder, cards[0], me, pay)
                    score = shed + chips + _KEEP_LEAD * again + 0.01 * score
                key = (score, draw)
                if key > best_key:
                    best, best_key = suit, key
        last_suit = best
        card, seat = own[best][0], leader
        while True:
            holder[card] = -1
            hands[seat][best].remove(card)
            counts[seat] -= 1
            at = _PAY_OF[card]
            if at >= 0:
                gains[seat] += pay[at]
                pay[at] = 0
            if counts[seat] == 0:
                for other in range(seats):
                    if other != seat:
                        gains[other] -= counts[other]
                        gains[seat] += counts[other]
                return gains
            if _LAST[card] or holder[card + 1] < 0:
                break
            card += 1
            seat = holder[card]
        leader = seat


def _value_at(chips: list[int], more_deals: int, seat: int, gains: list[int]) -> float:
    """The seat's chips won this deal minus what the others won on average; in the
    last deal, which decides the game, finishing first counts above any margin."""
    margin = gains[seat] - (sum(gains) - gains[seat]) / (len(gains) - 1)
    if more_deals:
        return margin
    after = [c + g for c, g in zip(chips, gains, strict=True)]
    best_other = max(c for s, c in enumerate(after) if s != seat)
    mine = after[seat]
    return _WIN * ((mine > best_other) + 0.5 * (mine == best_other)) + margin


def _holders(hands: list[list[str]]) -> tuple[list[int], list[int]]:
    holder = [-1] * 52
    for s, hand in enumerate(hands):
        for card in hand:
            holder[_INDEX[card]] = s
    return holder, [len(h) for h in hands]


def _rollout(state: mi.State, seat: int, move: Move, rng: random.Random,
             extra_value: float) -> float:
    """The dealer's decision and the auction played by the baseline in the engine, then
    the play by `play_out`; the value is `_value_at` of the chips won this deal.

    The engine plays every lead nobody has a choice about, so the deal can end inside
    the move that closes the auction (a leader holding one suit whose cards all run):
    its `deal_over` event then has the chips, and the state has moved on to the next
    deal or the game's end, which is not this deal's play. The chips won are counted
    from the decision, so an auction's price is counted once."""
    before = state.chips
    more_deals = state.deals - state.deal
    state, events = mi.apply(state, seat, move)
    while (over := _deal_over(events)) is None and state.phase in (mi.DECISION, mi.AUCTION):
        [actor] = mi.to_act(state)
        state, events = mi.apply(state, actor, policy(state, actor, rng, extra_value))
    if over is not None:  # no play left: knowing the dead hand is worth nothing more
        return _value_at(before, more_deals, seat,
                         [a - b for a, b in zip(over["chips"], before, strict=True)])
    holder, counts = _holders(state.hands)
    gains = play_out(holder, counts, state.leader, _SUIT_AT.get(state.last_suit, -1),
                     list(state.pay), rng, me=seat)
    won = [after - b + g for after, b, g in zip(state.chips, before, gains, strict=True)]
    value = _value_at(before, more_deals, seat, won)
    return value + _OWN_DEAD * mi.took_extra_hand(state, seat)


def _deal_over(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((e for e in events if e["type"] == "deal_over"), None)


class _Hidden:
    """The cards a seat cannot see during the play, read from the view once and then
    dealt again and again as `holder` lists for `play_out`: no engine state per world,
    which is what lets a lead be searched over a few hundred worlds in the budget."""

    def __init__(self, view: dict[str, Any]) -> None:
        pool, wanted, barred, _dead = _knowledge(view)
        self.holder = [-1] * 52
        for card in view["hand"]:
            self.holder[_INDEX[card]] = view["seat"]
        self.room = {(-1 if h == _DEAD else h): n for h, n in wanted.items()}
        self.free = [_INDEX[c] for c in pool if c not in barred]
        # Cards some seats cannot hold go out first, the most constrained first.
        self.tied = sorted(((_INDEX[c], [h for h in self.room if h not in barred[c]])
                            for c in pool if c in barred), key=lambda t: len(t[1]))

    def deal(self, rng: random.Random) -> list[int]:
        for _ in range(20):
            holder = self.holder[:]
            room = dict(self.room)
            for card, options in self.tied:
                open_ = [h for h in options if room[h] > 0]
                if not open_:
                    break
                # Weighted by the room left, as `search.deal` does.
                pick = rng.choices(open_, weights=[room[h] for h in open_])[0]
                holder[card] = pick
                room[pick] -= 1
            else:
                break
        else:  # drawn at random, the constraints painted themselves into a corner
            holder, room, loose = self._matched(rng)
            return self._fill(holder, room, self.free + loose, rng)
        return self._fill(holder, room, self.free, rng)

    def _matched(self, rng: random.Random) -> tuple[list[int], dict[int, int], list[int]]:
        """The constrained cards placed by augmenting paths, which always finds a place for
        each when one exists (the true deal is one): a world that gives a seat a card it
        cannot hold (one below a card it led) misleads every rollout played in it."""
        options = {card: list(holders) for card, holders in self.tied}
        placed, loose = matched([card for card, _ in self.tied], options.__getitem__,
                                self.room, rng)
        # A card no deal can place (it cannot happen with a true view) joins the free ones.
        holder, room = self.holder[:], dict(self.room)
        for h, cards in placed.items():
            for card in cards:
                holder[card] = h
                room[h] -= 1
        return holder, room, loose

    @staticmethod
    def _fill(holder: list[int], room: dict[int, int], free: list[int],
              rng: random.Random) -> list[int]:
        cards = free[:]
        rng.shuffle(cards)
        at = 0
        for h, n in room.items():
            for card in cards[at:at + n]:
                holder[card] = h
            at += n
        return holder


def _lead_rollout(view: dict[str, Any], holder: list[int], move: Move,
                  rng: random.Random, pay: list[int]) -> float:
    assert isinstance(move, mi.Lead)
    seat: int = view["seat"]
    counts = list(view["hand_sizes"])
    gains = play_out(holder[:], counts, seat, _SUIT_AT.get(view["suit"] or "", -1),
                     pay[:], rng, lead=_SUIT_AT[move.suit], me=seat)
    return _value_at(view["chips"], view["deals"] - view["deal"], seat, gains)


def candidates(state: mi.State, seat: int, rng: random.Random) -> list[Move]:
    """The baseline's favourite first; in an auction only passing or the next bid up."""
    first = policy(state, seat, rng)
    if state.phase == mi.AUCTION:
        moves: list[Move] = [mi.Pass()]
        if state.high_bid < mi.max_bid(state, seat):
            moves.append(mi.Bid(state.high_bid + 1))
    else:
        moves = mi.legal_moves(state, seat)
    return [first, *(m for m in moves if m != first)]


class Strong:
    """Determinized search: every candidate played out in worlds dealt from the view."""

    speak = None  # plays in its turn only

    def __init__(self, rollouts: int = ROLLOUTS,
                 decision_rollouts: int = DECISION_ROLLOUTS) -> None:
        self.rollouts = rollouts
        self.decision_rollouts = min(rollouts, decision_rollouts)

    def choose(self, view: dict[str, Any], rng: random.Random) -> Move:
        seat: int = view["seat"]
        known = world(view, None)
        must_act(mi.to_act(known), seat)
        moves = candidates(known, seat, rng)
        if len(moves) == 1:
            return moves[0]
        if known.phase == mi.PLAY:
            hidden, piles = _Hidden(view), list(known.pay)
            return pimc(moves, hidden.deal,
                        lambda h, m, r: _lead_rollout(view, h, m, r, piles), rng,
                        self.rollouts)
        pay = dict(zip(mi.PAY_CARDS, known.pay, strict=True))
        extra = _extra_hand_value(known, seat, rng, pay)
        return pimc(moves, lambda r: world(view, r),
                    lambda w, m, r: _rollout(w, seat, m, r, extra), rng,
                    self.decision_rollouts)
