"""A table whose move can never be stored is closed with a word in its channel, its
sender is told, it is never retried, and the tables committing beside it play on."""

from typing import Any

import pytest

from bot.i18n import t
from bot.tables import Actor
from db.repository import CLOSED, FINISHED
from tests.bot.conftest import ALICE, BOB


class OverflowingScores:
    """A rules bug: the game's final scores are past 64 bits (a Nix board cell of 2**63
    did this before options had bounds)."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def outcome(self, state: Any) -> Any:
        result = self._game.outcome(state)
        if result is not None:
            result = type(result)(scores=[2**63 + s for s in result.scores],
                                  ranking=result.ranking)
        return result


async def _bot_table(harness, channel: str, host: Actor):
    tables = harness.tables
    assert (await tables.new_game(host, channel, "ochs-esel", ["rounds=1", "deadline=off"])).ok
    for _ in range(2):
        assert (await tables.add_bot(host, channel)).ok
    reply = await tables.start_game(host, channel)
    assert reply.ok
    return await tables.live_table(reply.table_id)


async def test_a_poisoned_last_move_closes_its_table_only_and_is_not_retried(any_harness):
    harness = any_harness
    tables = harness.tables
    lives = [await _bot_table(harness, f"room-{i}", Actor(f"h{i}", f"Host {i}"))
             for i in range(3)]
    poisoned = lives[1]
    poisoned.game = OverflowingScores(poisoned.game)
    for i, live in enumerate(lives):  # every seat a bot: three tables' moves flow together
        await tables.leave(Actor(f"h{i}", f"Host {i}"), live.row.channel)
    for _ in range(3000):
        await tables.settle()
        if all(live.row.status in (FINISHED, CLOSED) for live in lives):
            break
    assert [live.row.status for live in lives] == [FINISHED, CLOSED, FINISHED]
    stored = await harness.repo.get_table(poisoned.id)
    assert stored.status == CLOSED
    said = [a.text for a in harness.sink.announcements if a.table_id == poisoned.id]
    assert any("cannot store and is closed" in text for text in said)
    # Never retried: time passes, nothing is scheduled for it and its log stays put.
    moves = len(await harness.repo.moves(poisoned.id))
    await harness.advance(60)
    assert len(await harness.repo.moves(poisoned.id)) == moves
    assert not tables.scheduler.jobs_of(poisoned.id)
    # Its channel is free at once.
    assert (await tables.new_game(ALICE, poisoned.row.channel, "ochs-esel")).ok


class UnencodableSnapshot(OverflowingScores):
    """A rules bug of another kind: a snapshot no database can encode."""

    def outcome(self, state: Any) -> Any:
        return self._game.outcome(state)

    def dump(self, state: Any) -> str:
        return self._game.dump(state) + "\udc80"


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_player_whose_move_cannot_be_stored_is_told_so_and_the_table_closes(
        any_harness, lang):
    tables = any_harness.tables
    assert (await tables.set_lang(ALICE, "room", lang, personal=True)).ok
    assert (await tables.new_game(ALICE, "room", "ochs-esel", ["deadline=off"])).ok
    assert (await tables.join(BOB, "room")).ok
    assert (await tables.add_bot(ALICE, "room")).ok
    live = await tables.live_table((await tables.start_game(ALICE, "room")).table_id)
    await tables.settle()
    live.game = UnencodableSnapshot(live.game)
    first = next(s for s in live.game.to_act(live.state))
    actor = [ALICE, BOB][first] if first < 2 else None
    assert actor is not None
    move = str(live.game.legal_moves(live.state, first)[0])
    if actor is BOB:
        assert (await tables.set_lang(BOB, "room", lang, personal=True)).ok
    reply = await tables.play(actor, "room", move)
    await tables.settle()
    assert not reply.ok
    assert reply.text == t(lang, "move_unstorable")
    assert (await any_harness.repo.get_table(live.id)).status == CLOSED
    assert await any_harness.repo.moves(live.id) == []
    assert any_harness.sink.said(t("en", "table_unstorable"))
    shown = any_harness.sink.tables[live.id].rendering  # the table message says so too
    assert t("en", "table_closed") in shown.text and not shown.buttons
    assert (await tables.new_game(ALICE, "room", "michigan")).ok
