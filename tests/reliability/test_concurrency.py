"""Many people pressing buttons and typing moves on the same tables at the same moment.

docs/architecture.md: a press names the table version it was drawn for, the per-table lock and the
guarded commit make each accepted move happen exactly once, and nobody waits forever.
"""

import asyncio
import random
from collections import Counter

from bot.authority import Press
from bot.render import encode_payload
from bot.tables import Actor
from tests.reliability.checks import assert_consistent, stored_tables
from tests.reliability.conftest import GAMES, PLAYERS, Service

TASKS_PER_SEAT = 3
STEPS = 150


def payloads_of(service: Service, table_id: int, actor: Actor) -> list[Press]:
    """The presses the actor's hand message offers, as pressed in their private chat."""
    message = service.sink.hands.get((table_id, actor.user_id))
    shown = service.tables.outbox.ref(table_id, f"hand:{message.seat}") if message else None
    if message is None or shown is None:
        return []
    rendering = message.rendering
    return [Press(encode_payload(rendering.ref, rendering.version, button.action), None,
                  shown.message_id)
            for row in rendering.buttons for button in row]


async def test_every_accepted_press_or_play_is_applied_exactly_once_and_nothing_deadlocks(
    service: Service,
):
    tables = service.tables
    ids = {}
    for index, (game, seats, words) in enumerate(GAMES):
        ids[f"chan-{index}"] = (await service.table(f"chan-{index}", game, seats, words), seats)
    applied: Counter[int] = Counter()
    refused: Counter[str] = Counter()
    seen: list[Press] = []  # every press ever offered: most of them go stale

    async def player(channel: str, table_id: int, actor: Actor, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(STEPS):
            live = await tables.live_table(table_id)
            assert live is not None
            if live.row.status != "playing":
                return
            current = payloads_of(service, table_id, actor)
            seen.extend(current)
            roll = rng.random()
            if roll < 0.45 and current:
                reply = await tables.press(actor, rng.choice(current))
            elif roll < 0.65 and seen:
                reply = await tables.press(actor, rng.choice(seen))
            else:
                seat = live.seat_of(actor.user_id)
                assert seat is not None
                moves = (live.game.legal_moves(live.state, seat.seat)
                         if seat.seat in live.game.to_act(live.state) else [])
                text = str(rng.choice(moves)) if moves else rng.choice(["pass", "7", "take"])
                await asyncio.sleep(0)  # let others move first: the text may go stale
                reply = await tables.play(actor, channel, text)
            if reply.ok and reply.text == "Done.":
                # A press from `seen` may be for another table the player sits at.
                assert reply.table_id is not None
                applied[reply.table_id] += 1
            elif not reply.ok:
                refused[reply.text] += 1

            await asyncio.sleep(0)

    tasks = [
        player(channel, table_id, actor, seed=1000 * i + k)
        for i, (channel, (table_id, seats)) in enumerate(ids.items())
        for actor in PLAYERS[:seats]
        for k in range(TASKS_PER_SEAT)
    ]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=60)
    await asyncio.wait_for(tables.settle(), timeout=10)

    assert sum(applied.values()) > 50, "too few moves to say anything"
    assert any("out of date" in text for text in refused), refused  # stale presses happened
    stored = {t.id: t for t in stored_tables(service.path)}
    for table_id, _ in ids.values():
        assert_consistent(stored[table_id])
        assert stored[table_id].version == applied[table_id], (
            f"table {table_id}: {stored[table_id].version} moves stored, "
            f"{applied[table_id]} presses and plays answered 'Done.'")
        versions = [v for t, v in service.repo.committed if t == table_id]
        assert versions == list(range(1, len(versions) + 1)), versions
