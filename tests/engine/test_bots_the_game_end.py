"""The Game's end at 2 players, searched (engine/bots/the_game_end.py): once the draw
pile is gone the partner's hand is known, so the strong bot plays the rest exactly."""

import random

import pytest

from engine import the_game as tg
from engine.bots import the_game as strong
from engine.bots import the_game_end as end
from engine.bots.the_game import Strong


def _end_state(tops: list[int], hands: list[list[int]], first: int = 0) -> tg.State:
    """Two hands and the draw pile gone: every other card of the deck already lies on
    the piles, under the given tops, as in a real game's end (a `setup` would leave
    them out of play, and a bot counts them as unseen)."""
    held = {c for hand in hands for c in hand}
    rest = [c for c in tg.DECK if c not in held and c not in tops]
    piles = [[*rest, tops[0]], [tops[1]], [tops[2]], [tops[3]]]
    piles = [[c for c in pile if tg.LOWEST <= c <= tg.HIGHEST] for pile in piles]
    return tg.State(seats=2, seed=0, min_play=2, hand_size=7, piles=piles,
                    hands=[sorted(h) for h in hands], draw=[], first=first, turn=first,
                    played=0, turns=20, signals=[[None, None] for _ in tg.PILES])


def _play_out(state: tg.State) -> int:
    """Both seats strong to the end; `apply` refuses any illegal play."""
    bot, rng = Strong(), random.Random(0)
    for _ in range(100):
        if state.over:
            return tg.score(state)
        seat = state.turn
        state, _ = tg.apply(state, seat, bot.choose(tg.view(state, seat), rng))
    pytest.fail("the end never ends")


# Ascending piles at 55 and 60, descending at 40 and 42: greedy play (each seat its
# cheapest card, then the free ones) strands two cards; there is a full clear.
TOPS = [55, 60, 40, 42]
HANDS = [[14, 16, 41, 72], [22, 45, 46, 80]]


def test_the_search_finds_a_full_clear_where_greedy_play_strands_cards() -> None:
    greedy = strong._finish({0: list(HANDS[0]), 1: list(HANDS[1])}, list(TOPS), 0, 2)
    assert greedy == 2
    solved = end.solve_turn(TOPS, HANDS[0], HANDS[1], started=False)
    assert solved is not None
    steps, left = solved
    assert left == 0 and steps
    assert _play_out(_end_state(TOPS, HANDS)) == 0


def test_the_searched_turn_is_legal_and_played_as_one_message() -> None:
    state = _end_state(TOPS, HANDS)
    move = Strong().choose(tg.view(state, 0), random.Random(0))
    assert isinstance(move, tg.Plays)
    after, _ = tg.apply(state, 0, move)  # refused if any play were illegal
    assert Strong().choose(tg.view(after, 0), random.Random(0)) == tg.End()


@pytest.mark.parametrize("seed", range(6))
def test_the_strong_bot_plays_random_ends_legally_and_as_well_as_the_search_says(
        seed: int) -> None:
    rng = random.Random(seed)
    tops = [*rng.sample(range(20, 70), 2), *rng.sample(range(30, 80), 2)]
    cards = rng.sample([c for c in tg.DECK if c not in tops], 12)
    hands = [sorted(cards[:6]), sorted(cards[6:])]
    solved = end.solve_turn(tops, hands[0], hands[1], started=False)
    assert solved is not None
    assert _play_out(_end_state(tops, hands)) == solved[1]


def test_a_seat_that_cannot_play_leaves_every_card() -> None:
    # Nothing of seat 0 goes on a pile: the game ends with both hands as the score.
    assert end.solve_turn([90, 95, 10, 12], [50, 60], [91], started=False) == ([], 3)


def test_over_its_budget_the_search_gives_up_and_the_bot_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert end.solve_turn(TOPS, HANDS[0], HANDS[1], started=False, budget=1) is None
    # The budget counts positions, never the clock: the same view, the same turn.
    assert end.solve_turn(TOPS, HANDS[0], HANDS[1], False) == \
        end.solve_turn(TOPS, HANDS[0], HANDS[1], False)
    monkeypatch.setattr(end, "BUDGET", 1)
    _play_out(_end_state(TOPS, HANDS))  # the sampled endgame decides, legally


def test_the_last_draw_weighs_only_the_splits_the_partners_signals_allow() -> None:
    # Only D1 (at 50) takes cards; the seat keeps 35 and draws the pile's last card,
    # 20 or 45, the partner holding the other and playing first. Partner 20: it must
    # go, and strands 35 and 45. Partner 45: then 35 and 20 follow, a full clear.
    plans = [([99, 98, 50, 2], [35])]
    both = end.last_draw(plans, [20, 45], 1, lambda partner: True, random.Random(0), 12)
    assert both == [1.0]
    told = end.last_draw(plans, [20, 45], 1, lambda partner: 45 in partner,
                         random.Random(0), 12)
    assert told == [0.0]


def test_a_world_played_out_counts_the_draw_pile_when_the_team_is_stuck() -> None:
    # The seat played 2 and keeps 50, draws 70 and 80; the partner's 60 goes nowhere:
    # its hand, the seat's three cards and the 90 still to draw are left.
    plans = [([99, 99, 2, 2], [50], 2)]
    assert end.played_out(plans, [([60], [70, 80, 90])], min_play=2) == [5.0]
    # On fresh piles everything goes, the draw pile included.
    plans = [([1, 1, 100, 100], [50], 2)]
    assert end.played_out(plans, [([60], [70, 80, 90])], min_play=2) == [0.0]


def test_while_the_pile_lasts_a_seat_unable_to_play_its_minimum_ends_the_game() -> None:
    # Minimum 2 with a card in the draw pile: the partner's 60 goes on A1 alone, its 5
    # nowhere, so the game ends there with 5 and the seat's cards in hand (the engine
    # ends it before the 60 is played: `can_reach`).
    plans = [([50, 99, 4, 2], [30], 2)]
    assert end.played_out(plans, [([5, 60], [70, 80, 90])], min_play=2) == [6.0]


def test_asked_only_whether_a_world_ends_under_a_count_the_search_says_so() -> None:
    # The stuck world above leaves 5: a miss when asked for under 5, not for under 6.
    plans = [([99, 99, 2, 2], [50], 2)]
    worlds = [([60], [70, 80, 90])]
    assert end.played_out(plans, worlds, min_play=2, under=5) == [1.0]
    assert end.played_out(plans, worlds, min_play=2, under=6) == [0.0]


@pytest.mark.parametrize("seed", range(8))
def test_the_search_for_under_a_count_agrees_with_the_full_search(seed: int) -> None:
    # Random worlds with cards still to draw: cutting the search short once a line ends
    # under the count, or once the bound says it cannot, never changes the answer.
    rng = random.Random(seed)
    tops = [*rng.sample(range(10, 50), 2), *rng.sample(range(50, 90), 2)]
    cards = rng.sample([c for c in tg.DECK if c not in tops], 16)
    plans = [(tops, sorted(cards[:5]), 2)]
    worlds = [(sorted(cards[5:10]), cards[10:])]
    full = end.played_out(plans, worlds, min_play=2, budget=10**6)
    assert full is not None
    for under in (1, 3, 6, 10):
        asked = end.played_out(plans, worlds, min_play=2, budget=10**6, under=under)
        assert asked == [float(full[0] >= under)]


def _bound_by_hand(tops: list[int], cards: set[int]) -> int:
    """The bound as the rulebook's plays give it, card by card: a pile reaches back
    only by exact jumps of 10, from its top or from a card it may take first."""
    low_up, high_down = 101, 0
    for pile, top in enumerate(tops):
        starts = [top] + [c for c in cards if (c > top if pile < 2 else c < top)]
        for reach in starts:
            step = -tg.JUMP if pile < 2 else tg.JUMP
            while reach + step in cards:
                reach += step
            low_up, high_down = ((min(low_up, reach), high_down) if pile < 2
                                 else (low_up, max(high_down, reach)))
    return sum(1 for c in cards if high_down < c < low_up)


@pytest.mark.parametrize("seed", range(20))
def test_the_bound_counts_the_cards_no_pile_can_reach_again(seed: int) -> None:
    # The search keeps hands as bit masks; its bound must be the cards' own.
    rng = random.Random(seed)
    for _ in range(50):
        tops = [*rng.sample(range(1, 60), 2), *rng.sample(range(40, 101), 2)]
        cards = set(rng.sample([c for c in tg.DECK if c not in tops], rng.randint(0, 30)))
        assert end._bound((tops[0], tops[1], tops[2], tops[3]), end._bits(cards)) == \
            _bound_by_hand(tops, cards)


def test_a_world_ending_with_ten_cards_or_more_counts_its_miss_on_top() -> None:
    # Stuck piles: the partner's 60 goes nowhere, so the six cards kept, the two drawn,
    # the 60 and the 90 still to draw are left: 10, the goal missed.
    stuck = ([99, 99, 2, 2], [50, 51, 52, 53, 54, 55], 2)
    worlds = [([60], [70, 80, 90])]
    assert end.played_out([stuck], worlds, min_play=2) == [10.0]
    assert end.played_out([stuck], worlds, min_play=2, miss=100.0) == [110.0]
    # Five left is under the goal: nothing on top.
    plans = [([99, 99, 2, 2], [50], 2)]
    assert end.played_out(plans, worlds, min_play=2, miss=100.0) == [5.0]
