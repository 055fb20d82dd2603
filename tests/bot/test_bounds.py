"""Options at their upper bounds: every game still plays to its end, and every score and
chip count it reaches is stored, on SQLite and on PostgreSQL.

The bounds exist so that no option can make a total overflow the database's 64-bit
integers (a Nix board cell of 2**63 once jammed its table and every table sharing its
group commit).
"""

import json

import pytest

from db.repository import FINISHED
from engine import games
from engine.michigan import Options as MichiganOptions
from engine.nix_fur_ungut import MAX_CELL_VALUE, ROWS
from tests.bot.conftest import ALICE, CHANNEL

MAX_BOARD = json.dumps({row: [MAX_CELL_VALUE] * 3 for row in ROWS}, separators=(",", ":"))
MAX_CHIPS = MichiganOptions.model_fields["chips"].metadata[-1].le

AT_BOUNDS = {
    "nix-fur-ungut": (5, ["rounds=20", "personne=yes", f"board={MAX_BOARD}"]),
    "michigan": (8, [f"chips={MAX_CHIPS}", "hands_per_player=2"]),
    "ochs-esel": (12, ["rounds=20"]),
    "the-game": (5, ["min_play=5"]),
}


async def _bots_only(harness, game_id: str, seats: int, words: list[str]):
    tables = harness.tables
    reply = await tables.new_game(ALICE, CHANNEL, game_id, [*words, "deadline=off"])
    assert reply.ok, reply.text
    for _ in range(seats - 1):
        assert (await tables.add_bot(ALICE, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    assert reply.ok, reply.text
    live = await tables.live_table(reply.table_id)
    await tables.leave(ALICE, CHANNEL)  # a bot takes the last human seat
    for _ in range(20_000):
        await tables.settle()
        if live.row.status == FINISHED:
            break
    return live


@pytest.mark.parametrize("game_id", sorted(AT_BOUNDS))
async def test_a_game_with_every_option_at_its_bound_ends_and_stores_its_results(
        any_harness, game_id):
    seats, words = AT_BOUNDS[game_id]
    assert seats == games.get(game_id).SEATS.stop - 1  # the most players too
    live = await _bots_only(any_harness, game_id, seats, words)
    assert live.row.status == FINISHED
    stored = await any_harness.repo.get_table(live.id)
    assert stored is not None and stored.status == FINISHED
    result = live.game.outcome(live.state)
    results = sorted(await any_harness.repo.results(live.id), key=lambda r: r.seat)
    assert [r.score for r in results] == result.scores[:seats]
    assert not any_harness.sink.said("couldn't save")


@pytest.mark.parametrize("word", [
    "rounds=21", "chips=1001", "hands_per_player=11", "min_play=6",
    'board={"quad":[1001,0,0]}', 'board={"quad":[9223372036854775808,0,0]}',
])
async def test_an_option_past_its_bound_is_refused_with_its_range(harness, word):
    game = {"rounds": "ochs-esel", "chips": "michigan", "hands_per_player": "michigan",
            "min_play": "the-game", "board": "nix-fur-ungut"}[word.split("=")[0]]
    reply = await harness.tables.new_game(ALICE, CHANNEL, game, [word])
    assert not reply.ok
    assert "goes" in reply.text or "up to" in reply.text, reply.text
    assert await harness.tables.table_for_channel(CHANNEL) is None
