"""A bot thinking at one table never holds up another: `choose` runs off the event loop."""

import asyncio
import threading

import engine.bots
from tests.bot.conftest import ALICE, BOB

OTHER_CHANNEL = "chan-2"


async def test_a_slow_bot_decision_leaves_the_other_tables_playing(harness, monkeypatch):
    entered, release = threading.Event(), threading.Event()
    order: list[str] = []
    real = engine.bots.get

    class Slow:
        speak = None  # a bot declares it plays in its turn only

        def __init__(self, bot):
            self.bot = bot

        def choose(self, view, rng):
            entered.set()
            release.wait(timeout=10)  # a long search, as far as the loop can tell
            order.append("bot decided")
            return self.bot.choose(view, rng)

    monkeypatch.setattr(engine.bots, "get",
                        lambda game_id, level="strong": Slow(real(game_id, level)))
    tables = harness.tables
    # Table 1: a bot plays first. Table 2: two people, elsewhere.
    assert (await tables.new_game(ALICE, "chan-1", "the-game", ["deadline=off", "first=2"])).ok
    assert (await tables.add_bot(ALICE, "chan-1")).ok
    assert (await tables.start_game(ALICE, "chan-1")).ok
    assert (await tables.new_game(BOB, OTHER_CHANNEL, "the-game",
                                  ["deadline=off", "first=1"])).ok
    assert (await tables.join(ALICE, OTHER_CHANNEL)).ok
    other = await tables.live_table((await tables.start_game(BOB, OTHER_CHANNEL)).table_id)

    thinking = asyncio.get_running_loop().create_task(tables.settle())
    while not entered.is_set():
        await asyncio.sleep(0.01)
    card = other.state.hands[0][0]
    reply = await tables.play(BOB, OTHER_CHANNEL, f"{card} A1")
    order.append("other table played")
    release.set()
    await thinking
    assert reply.ok, reply.text
    assert order[:2] == ["other table played", "bot decided"]
