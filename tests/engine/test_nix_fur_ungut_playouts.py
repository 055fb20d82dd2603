"""Nix für Ungut: random whole games for 2-5 seats, with and without Monsieur Personne."""

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import nix_fur_ungut as nix
from tests.botplay import bot_move

DECK = Counter({**{str(n): 10 for n in range(1, 8)}, "J": 10})
CONFIGS = [(seats, personne) for seats in (2, 3, 4, 5) for personne in (False, True)]


def pushed(board: dict[str, list[Any]], row: str, chip: tuple[int, bool]) -> None:
    """The rulebook's pushing, written out apart from the engine to check it."""
    board[row] = [chip, *board[row][:2]]


def board_sum(board: dict[str, list[Any]], values: dict[str, list[int]], players: int
              ) -> list[int]:
    points = [0] * players
    for row, cells in board.items():
        for cell, chip in enumerate(cells):
            if chip is not None:
                points[chip[0]] += values[row][cell] * (2 if chip[1] else 1)
    return points


def twin_with_other_hidden_cards(state: nix.State, seat: int | None, rng: random.Random
                                 ) -> nix.State:
    """The same table, but other seats' hands and the draw pile dealt differently."""
    twin = nix.load(nix.dump(state))
    others = [s for s in range(state.seats) if s != seat]
    pool = [c for s in others for c in twin.hands[s]] + twin.draw
    rng.shuffle(pool)
    for s in others:
        size = len(twin.hands[s])
        twin.hands[s], pool = nix.sort_cards(pool[:size]), pool[size:]
    twin.draw = pool
    return twin


def check_views(state: nix.State, rng: random.Random) -> None:
    public = nix.view(state)
    assert "hand" not in public
    assert nix.view(twin_with_other_hidden_cards(state, None, rng)) == public
    for seat in range(state.seats):
        mine = nix.view(state, seat)
        assert mine["hand"] == nix.sort_cards(state.hands[seat])
        assert nix.view(twin_with_other_hidden_cards(state, seat, rng), seat) == mine


@pytest.mark.parametrize(("seats", "personne"), CONFIGS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), play_seed=st.integers(0, 2**31),
       bot_share=st.sampled_from([0.0, 0.5, 1.0]), rounds=st.integers(1, 4))
def test_random_games_keep_every_rule(seats: int, personne: bool, seed: int, play_seed: int,
                                      bot_share: float, rounds: int) -> None:
    options = {"personne": personne, "rounds": rounds}
    state = nix.new_game(seats, options, seed=seed)
    rng = random.Random(play_seed)
    players = seats + (1 if personne else 0)
    log: list[tuple[int, str]] = []
    board: dict[str, list[Any]] = {row: [None] * 3 for row in nix.ROWS}
    chips: Counter[int] = Counter()
    rounds_seen = 0
    while nix.to_act(state):
        acting = nix.to_act(state)
        assert len(acting) == 1 and 0 <= acting[0] < seats  # never Monsieur Personne
        seat = acting[0]
        listed = nix.legal_moves(state, seat)
        assert listed, "a player to act always has a move"
        if rng.random() < bot_share:
            move = bot_move(nix, state, seat, rng)
            assert move in listed
        else:
            move = rng.choice(listed)
        assert nix.parse_move(state, seat, str(move)) == move
        before = nix.dump(state)
        state, events = nix.apply(state, seat, move)
        assert nix.dump(nix.load(before)) == before  # apply left its input alone
        log.append((seat, str(move)))
        for e in events:
            if e["type"] == "played":
                pushed(board, e["row"], (e["seat"], e["super"]))
                chips[e["seat"]] += 1
                assert nix.forms(e["row"], e["cards"])
                if e["seat"] < seats:
                    assert e["cards"].count("J") <= 1 or e["row"] == "single"
            elif e["type"] == "round_over":
                rounds_seen += 1
                assert e["points"] == board_sum(board, state.board_values, players)
                assert e["board"] == {
                    row: [None if c is None else {"seat": c[0], "super": c[1]} for c in cells]
                    for row, cells in board.items()}
                assert chips == Counter({s: 5 for s in range(players)})
                board = {row: [None] * 3 for row in nix.ROWS}
                chips = Counter()
        cards = [c for h in state.hands for c in h] + state.draw + state.played + state.out
        assert Counter(cards) == DECK
        view = nix.view(state)
        assert len(view["hand_sizes"]) == seats
        assert len(view["scores"]) == players
        assert ("personne_cards" in view) == personne
        check_views(state, rng)
    assert rounds_seen == rounds
    result = nix.outcome(state)
    assert result is not None and len(result.scores) == players
    assert result.scores == [sum(r[s] for r in state.round_scores) for s in range(players)]
    best = max(result.scores)
    assert all((rank == 1) == (score == best)
               for rank, score in zip(result.ranking, result.scores, strict=True))
    replayed = nix.new_game(seats, options, seed=seed)
    for seat, text in log:
        replayed, _ = nix.apply(replayed, seat, nix.parse_move(replayed, seat, text))
    assert nix.dump(replayed) == nix.dump(state)
