"""A table whose move log no longer replays (a rules fix between versions) is closed
with a word in its channel, and its channel is usable at once."""

import sqlite3

import pytest

from bot.i18n import t
from bot.tables import Tables
from db.repository import CLOSED, SeatRow
from db.sqlite import SqliteRepository
from engine import IllegalMove
from tests.bot.conftest import ALICE, BOB, CHANNEL


async def _a_game_whose_log_no_longer_replays(harness) -> int:
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.add_bot(ALICE, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    live = await tables.live_table(reply.table_id)
    await tables.settle()
    seat = live.game.to_act(live.state)[0]
    actor = [ALICE, BOB, None][seat]
    if actor is not None:
        move = str(live.game.legal_moves(live.state, seat)[0])
        assert (await tables.play(actor, CHANNEL, move)).ok
        await tables.settle()
    assert live.row.version >= 1
    await harness.close()
    # What a rules fix does to an old log: the same seed now deals other hands, so its
    # first move is no longer legal there (the log itself is append-only).
    game, first = live.game, (await harness_moves(harness, live.id))[0]
    seed = next(s for s in range(1, 1000) if not _replays(game, live, s, first))
    with sqlite3.connect(harness.path) as db:
        db.execute("UPDATE tables SET seed = ? WHERE id = ?", (seed, live.id))
    return live.id


async def harness_moves(harness, table_id: int) -> list:
    repo = SqliteRepository(str(harness.path))
    async with repo:
        return await repo.moves(table_id)


def _replays(game, live, seed: int, move) -> bool:
    state = game.new_game(len(live.seats), live.row.options, seed)
    try:
        game.apply(state, move.seat, game.parse_move(state, move.seat, move.move))
    except IllegalMove:
        return False
    return True


async def test_a_table_that_no_longer_replays_is_announced_closed_at_start_up(harness):
    table_id = await _a_game_whose_log_no_longer_replays(harness)
    tables = await harness.open()  # start-up resumes it: it cannot be restored
    assert (await harness.repo.get_table(table_id)).status == CLOSED
    said = [a for a in harness.sink.announcements if a.table_id == table_id]
    assert said[-1].text == t("en", "table_unrestorable")
    assert said[-1].channel == CHANNEL
    assert (await tables.new_game(ALICE, CHANNEL, "michigan")).ok


@pytest.mark.parametrize("command", ["play", "show", "new_game", "cancel"])
async def test_its_channel_answers_every_command_before_the_resume_has_run(harness, command):
    table_id = await _a_game_whose_log_no_longer_replays(harness)
    repo = SqliteRepository(str(harness.path))
    await repo.open()
    tables = Tables(repo, harness.sink, platform="test", settings=harness.settings,
                    clock=harness.clock)
    try:
        await tables.start(run_scheduler=False)  # its resume job has not run yet
        call = {"play": lambda: tables.play(ALICE, CHANNEL, "pass"),
                "show": lambda: tables.show(ALICE, CHANNEL),
                "new_game": lambda: tables.new_game(ALICE, CHANNEL, "the-game"),
                "cancel": lambda: tables.cancel(ALICE, CHANNEL)}[command]
        reply = await call()
        await tables.settle()
        assert reply.text
        assert (await repo.get_table(table_id)).status == CLOSED
        assert harness.sink.said(t("en", "table_unrestorable"))
        # Said once, however many paths found it broken.
        assert sum(a.text == t("en", "table_unrestorable")
                   for a in harness.sink.announcements) == 1
        if command == "new_game":
            assert reply.ok, reply.text
        assert (await tables.new_game(BOB, CHANNEL, "the-game")).ok == (command != "new_game")
        assert (await tables.show(ALICE, CHANNEL)).text
    finally:
        await tables.close()
        await repo.close()


async def test_a_table_opened_before_options_had_bounds_is_closed_with_a_word(harness):
    """A Nix table whose board cell is 2**62, as an older version accepted: its game can
    no longer be set up, so at start-up it is closed, said so, and its channel freed."""
    repo = harness.repo
    row = await repo.create_table(
        platform="test", channel=CHANNEL, game="nix-fur-ungut",
        options={"board": {"quad": [2**62, 0, 0]}}, settings={"deadline": 0}, seed=5,
        host=ALICE.user_id, seats=[SeatRow(0, ALICE.user_id, ALICE.name),
                                   SeatRow(1, BOB.user_id, BOB.name)])
    await repo.update_table(row.id, expected_version=0, status="playing", snapshot="{}",
                            reset_moves=True)
    tables = await harness.restart()
    assert (await harness.repo.get_table(row.id)).status == CLOSED
    assert harness.sink.said(t("en", "table_unrestorable"))
    assert (await tables.new_game(ALICE, CHANNEL, "nix")).ok
