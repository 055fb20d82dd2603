"""What a move's events show to whom: nothing hidden reaches the public or another seat.

The table's message, its narration and what the bot keeps of a move are all made from
`fit_for(events, None)`; a seat's own copy from `fit_for(events, seat)`. A game puts what
only one seat may know under the event's `secret`, and only that seat gets it back.
"""

import json

from engine import the_game as tg
from engine.core import fit_for

DRAWN = [77, 88]  # cards no pile, hand or count of this deal holds otherwise


def _turn_that_draws() -> list[dict]:
    state = tg.new_game(2, {}, seed=1, setup={"hands": [[10, 20, 30], [40, 50]],
                                               "draw": [*DRAWN, 61], "first": 0})
    for move in ("10 A1", "20 A1", "end"):
        state, events = tg.apply(state, 0, tg.parse_move(state, 0, move))
    assert tg.view(state, 0)["hand"] == ["30", *map(str, DRAWN)]
    return events


def _shows(events: list[dict], cards: list[int]) -> bool:
    """Whether any of `cards` appears anywhere in the events, at any depth."""
    def walk(value: object) -> bool:
        if isinstance(value, dict):
            return any(walk(v) for v in value.values())
        if isinstance(value, list | tuple):
            return any(walk(v) for v in value)
        return value in cards or str(value) in map(str, cards)
    return walk(events)


def test_the_public_and_the_other_seat_learn_how_many_cards_were_drawn_not_which() -> None:
    events = _turn_that_draws()
    assert _shows(events, DRAWN)  # the engine says it, for the drawer
    for recipient in (None, 1):
        seen = fit_for(events, recipient)
        assert not _shows(seen, DRAWN), recipient
        assert "secret" not in json.dumps(seen)
        ended = next(e for e in seen if e["type"] == "turn_ended")
        assert (ended["drawn"], ended["draw_size"]) == (2, 1)


def test_the_drawer_sees_the_cards_they_drew() -> None:
    ended = next(e for e in fit_for(_turn_that_draws(), 0) if e["type"] == "turn_ended")
    assert ended["drawn_cards"] == DRAWN and ended["drawn"] == 2
    assert "secret" not in ended


def test_hidden_cards_of_any_event_stay_with_their_owner_and_the_events_stay_whole() -> None:
    hand = ["KS", "QH", "2C"]
    events = [{"type": "swapped", "seat": 2, "secret": {"hand": hand, "dead": ["AS"]}},
              {"type": "bid", "seat": 1, "amount": 3}]
    before = json.dumps(events, sort_keys=True)
    for recipient in (None, 0, 1, 3):
        seen = fit_for(events, recipient)
        assert seen == [{"type": "swapped", "seat": 2}, {"type": "bid", "seat": 1, "amount": 3}]
        assert not _shows(seen, [*hand, "AS"])
    assert fit_for(events, 2)[0] == {"type": "swapped", "seat": 2, "hand": hand, "dead": ["AS"]}
    assert json.dumps(events, sort_keys=True) == before  # fitted copies, never changed


def test_a_secret_without_an_owner_is_shown_to_nobody() -> None:
    events = [{"type": "dealt", "secret": {"hand": ["7H"]}}]
    assert all(fit_for(events, r) == [{"type": "dealt"}] for r in (None, 0, 1))
