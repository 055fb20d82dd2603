"""Random Michigan games for 3–8 players: what must hold after every move of every game."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import michigan
from engine.michigan import (
    DECK,
    State,
    apply,
    dump,
    legal_moves,
    load,
    new_game,
    outcome,
    parse_move,
    to_act,
    view,
)
from tests.botplay import bot_move


def shown(value: object) -> set[str]:
    """Every string anywhere in a view or events, but the pay card labels: those are the
    second deck's cards, on the table for all to see, not the playing cards."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(shown(v) for k, v in value.items() if k != "pay_cards"),
                           set(map(str, value)))
    if isinstance(value, list | tuple):
        return set().union(set(), *(shown(v) for v in value))
    return set()


def check_state(state: State, start_chips: int) -> None:
    # All 52 cards, every deal: in a hand, the extra hand, the dead hand or played.
    every = [*state.extra, *state.dead]
    for hand, played in zip(state.hands, state.played, strict=True):
        every += hand + played
    assert Counter(every) == Counter(DECK)
    # Chips only move between players and pay cards.
    assert sum(state.chips) + sum(state.pay) == state.seats * start_chips
    # to_act names a seat only when it has a real choice.
    for seat in to_act(state):
        assert len(legal_moves(state, seat)) >= 2


def check_views(state: State) -> None:
    unseen = {*state.extra, *state.dead}
    public = view(state)
    assert "hand" not in public
    assert not shown(public) & (unseen | {c for h in state.hands for c in h})
    # The dead hand is shown to one seat only, the one that held it (it swapped or
    # bought the extra hand), and only once the play has begun.
    swapper = state.dealer if state.decision == "swap" else (
        state.high_bidder if state.decision == "auction" and state.phase != "auction"
        else -1)
    for seat in range(state.seats):
        mine = view(state, seat)
        assert mine["hand"] == state.hands[seat]
        assert mine["discarded"] == (state.dead if seat == swapper else [])
        others = {c for s, h in enumerate(state.hands) if s != seat for c in h}
        hidden = unseen - set(mine["discarded"])
        assert not shown(mine) & (hidden | others)


@settings(max_examples=36, deadline=None)
@given(
    seats=st.integers(3, 8),
    seed=st.integers(0, 2**32),
    hands_per_player=st.integers(1, 2),
    chips=st.sampled_from([1, 8, 50, 1000]),
    bot_share=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_random_games_keep_cards_chips_and_secrets(seats, seed, hands_per_player, chips,
                                                   bot_share):
    options = {"chips": chips, "hands_per_player": hands_per_player}
    state = new_game(seats, options=options, seed=seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    deals_over = 0
    check_state(state, chips)
    while to_act(state):
        (seat,) = to_act(state)
        if rng.random() < bot_share:
            move = bot_move(michigan, state, seat, rng)
        else:
            move = rng.choice(legal_moves(state, seat))
        assert parse_move(state, seat, str(move)) == move
        before = dump(state)
        new, events = apply(state, seat, move)
        assert dump(state) == before
        # Events name only cards that were played in full view during this move.
        played = {e["card"] for e in events if e["type"] in ("led", "played")}
        assert not (shown(events) & set(DECK)) - played
        deals_over += sum(e["type"] == "deal_over" for e in events)
        log.append((seat, str(move)))
        state = new
        check_state(state, chips)
        check_views(state)
        assert len(log) < 5000
    assert deals_over == seats * hands_per_player
    result = outcome(state)
    assert result is not None and result.scores == state.chips

    replayed = new_game(seats, options=options, seed=seed)
    for seat, text in log:
        replayed, _ = apply(replayed, seat, parse_move(replayed, seat, text))
    assert dump(replayed) == dump(state)
    assert dump(load(dump(state))) == dump(state)
