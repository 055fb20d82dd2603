"""A bot process for the crash test: 100 tables of bot players on one SQLite file.

`python -m tests.reliability.crash_worker DB TABLES` opens every table that is missing,
fills it with bots, starts it, hands the host's seat to a bot, and serves until every
table is finished. It may be killed at any moment and started again: each step looks
at what is stored first, so a restart carries on where the killed process stopped.
Prints `repaired <id>` for every table whose snapshot had to be rebuilt from its log
(that would mean a move was half-written), and `done` once every game is over.
"""

import asyncio
import sqlite3
import sys

from bot.settings import Settings
from bot.tables import Actor, Tables
from db.repository import LOBBY, PLAYING
from db.sqlite import SqliteRepository
from tests.fakes.null_sink import NullSink

HOST = Actor("host", "Host")
# (game, seats, option words): every game of the engine, long enough that the twenty
# kills all land while bots are still playing (bots play some 2,000 moves a second).
PLAN = [
    *[("nix-fur-ungut", 2, ["rounds=4"])] * 4,
    *[("ochs-esel", 3, ["rounds=5"])] * 2,
    *[("michigan", 3, ["hands_per_player=2"])] * 3,
    ("the-game", 1, []),
]


def channel(index: int) -> str:
    return f"crash-{index}"


def had_table(path: str, name: str) -> bool:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT 1 FROM tables WHERE channel = ?", (name,)).fetchone() is not None
    finally:
        db.close()


async def set_up(tables: Tables, path: str, index: int) -> None:
    game, seats, words = PLAN[index % len(PLAN)]
    name = channel(index)
    row = await tables.table_for_channel(name)
    if row is None:
        if had_table(path, name):
            return  # finished already
        # Easy bots: the games' lengths are tuned for twenty kills at that bot's speed.
        reply = await tables.new_game(HOST, name, game,
                                      [*words, "bot_delay=0", "deadline=off", "bots=easy"])
        assert reply.ok, reply.text
        row = await tables.table_for_channel(name)
        assert row is not None
    if row.status == LOBBY:
        live = await tables.live_table(row.id)
        assert live is not None
        while len(live.seats) < seats:
            reply = await tables.add_bot(HOST, name)
            assert reply.ok, reply.text
        reply = await tables.start_game(HOST, name)
        assert reply.ok, reply.text
    live = await tables.live_table(row.id)
    assert live is not None
    if live.row.status == PLAYING and live.seat_of(HOST.user_id) is not None:
        reply = await tables.leave(HOST, name)
        assert reply.ok, reply.text


async def main(path: str, count: int) -> None:
    repo = SqliteRepository(path)
    await repo.open()
    settings = Settings(_env_file=None, bot_delay=0, turn_deadline=0)
    tables = Tables(repo, NullSink(), platform="crash", settings=settings)
    await tables.start()
    print("started", flush=True)
    for index in range(count):
        await set_up(tables, path, index)
    reported = 0
    while await repo.unfinished_tables():
        for table_id in tables.repaired[reported:]:
            print(f"repaired {table_id}", flush=True)
        reported = len(tables.repaired)
        await asyncio.sleep(0.05)
    for table_id in tables.repaired[reported:]:
        print(f"repaired {table_id}", flush=True)
    await tables.close()
    await repo.close()
    print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
