"""Two table services on one PostgreSQL database, as two processes would be: each table
has one driver, which alone edits its messages and runs its timers; a change made
through the other service is shown by the driver; a driver that dies is replaced."""

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from urllib.parse import urlparse

from bot.settings import Settings
from bot.tables import Tables
from db.postgres import PostgresRepository
from db.repository import StorageError
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, RecordingSink
from tests.db.conftest import POSTGRES_URL, postgres_repository, postgres_schema
from tests.tcp_cut import TcpCut


def _settings(bot_delay: float = 0) -> Settings:
    return Settings(_env_file=None, turn_deadline=300, bot_delay=bot_delay, ping_delay=0,
                    default_lang="en", cluster_poll=0.2)


class Service:
    def __init__(self, repo: PostgresRepository, bot_delay: float) -> None:
        self.repo = repo
        self.sink = RecordingSink()
        self.tables = Tables(repo, self.sink, platform="test", settings=_settings(bot_delay))

    def shown(self, table_id: int) -> str:
        msg = self.sink.tables.get(table_id)
        return msg.rendering.text if msg is not None else ""


@contextlib.asynccontextmanager
async def _services(count: int, bot_delay: float = 0) -> AsyncIterator[list[Service]]:
    async with postgres_schema() as schema:
        services = []
        try:
            for _ in range(count):
                repo = postgres_repository(schema)
                await repo.open()
                service = Service(repo, bot_delay)
                await service.tables.start()
                services.append(service)
            yield services
        finally:
            for service in services:
                with contextlib.suppress(Exception):
                    await service.tables.close()
                await service.repo.close()


async def _until(check: Callable[[], Awaitable[bool] | bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        result = check()
        if isinstance(result, Awaitable):
            result = await result
        if result:
            return
        assert asyncio.get_running_loop().time() < deadline, "not within the time allowed"
        await asyncio.sleep(0.05)


async def _play_through(service: Service, table_id: int, actor: object) -> None:
    """The actor's one legal move, played through `service` (any process)."""
    live = await service.tables.live_table(table_id)
    assert live is not None and live.state is not None
    seat = live.seat_of(actor.user_id)  # type: ignore[attr-defined]
    assert seat is not None
    move = live.game.legal_moves(live.state, seat.seat)[0]
    reply = await service.tables.play(actor, CHANNEL, str(move))  # type: ignore[arg-type]
    assert reply.ok, reply.text


async def test_a_change_made_through_another_process_is_shown_by_the_driver_alone():
    async with _services(2) as (one, two):
        table_id = (await one.tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        assert one.tables.drives(table_id) and not two.tables.drives(table_id)
        assert (await two.tables.join(BOB, CHANNEL)).ok  # pressed where it does not drive
        await _until(lambda: "Bob" in one.shown(table_id))
        assert (await two.tables.join(CAROL, CHANNEL)).ok
        assert (await two.tables.start_game(ALICE, CHANNEL)).ok
        await _until(lambda: (ALICE.user_id and (table_id, BOB.user_id) in one.sink.hands))
        row = await one.repo.get_table(table_id)
        assert row is not None and row.status == "playing"
        # Moves through the process that does not drive: narrated by the driver.
        for _ in range(6):
            live = await two.tables.live_table(table_id)
            assert live is not None and live.state is not None
            to_act = live.game.to_act(live.state)
            actor = {0: ALICE, 1: BOB, 2: CAROL}[to_act[0]]
            before = live.row.version
            await _play_through(two, table_id, actor)
            await _until(lambda before=before: one.tables.outbox.depth() == 0 and bool(
                one.tables.in_memory(table_id)
                and one.tables.table(table_id).live.row.version > before))
        await one.tables.settle()
        assert any(msg.news for msg in [one.sink.tables[table_id]]) or one.shown(table_id)
        # Every message of the table came from its driver: the other drew none of them.
        assert table_id not in two.sink.tables
        assert not [h for h in two.sink.hands if h[0] == table_id]
        assert not [a for a in two.sink.announcements if a.table_id == table_id]


async def _kill(service: Service) -> None:
    """The process dies: its timers stop and its database session goes, as with a SIGKILL
    (nothing is handed over; the lock goes with the connection)."""
    assert service.tables.driving is not None
    for task in service.tables.driving._tasks:
        task.cancel()
    await service.tables.scheduler.stop()
    link = service.tables.driving._cluster._link  # type: ignore[attr-defined]
    link.terminate()


async def test_a_dead_drivers_tables_are_taken_over_and_their_bots_play_on():
    async with _services(2) as (one, two):
        table_id = (await one.tables.new_game(ALICE, CHANNEL, "the-game")).table_id
        for _ in range(2):
            assert (await one.tables.add_bot(ALICE, CHANNEL)).ok
        assert (await one.tables.start_game(ALICE, CHANNEL)).ok
        await one.tables.settle()
        assert one.tables.drives(table_id)
        await _kill(one)
        started = asyncio.get_running_loop().time()
        await _until(lambda: two.tables.drives(table_id), seconds=10)
        taken = asyncio.get_running_loop().time() - started
        assert taken < 10
        # The new driver redraws the table and hands, and Alice's turn goes on with it.
        await _until(lambda: table_id in two.sink.tables)
        await _until(lambda: (table_id, ALICE.user_id) in two.sink.hands)
        live = await two.tables.live_table(table_id)
        assert live is not None and live.state is not None
        if live.game.to_act(live.state) == [0]:
            version = live.row.version
            await _play_through(two, table_id, ALICE)
            await _play_through(two, table_id, ALICE)
            live = await two.tables.live_table(table_id)
            assert live is not None
            # End the turn; the bots then play theirs in the new driver.
            assert (await two.tables.play(ALICE, CHANNEL, "end")).ok
            await _until(lambda: bool(two.tables.in_memory(table_id)) and (
                two.tables.table(table_id).live.row.version > version + 3))


async def test_people_leaving_through_both_processes_leave_a_game_the_bots_finish():
    async with _services(2) as (one, two):
        table_id = (await one.tables.new_game(ALICE, CHANNEL, "ochs-esel", ["rounds=1"])
                    ).table_id
        assert (await two.tables.join(BOB, CHANNEL)).ok
        assert (await one.tables.add_bot(ALICE, CHANNEL)).ok
        assert (await two.tables.start_game(ALICE, CHANNEL)).ok
        await asyncio.sleep(0.3)
        left = await asyncio.gather(two.tables.leave(ALICE, CHANNEL),
                                    two.tables.leave(BOB, CHANNEL))
        assert all(reply.ok for reply in left), [reply.text for reply in left]

        async def finished() -> bool:
            row = await one.repo.get_table(table_id)
            return row is not None and row.status == "finished"

        await _until(finished, seconds=30)


async def test_a_player_who_left_through_one_process_cannot_play_through_another():
    # Bots wait a minute: the bot that takes Bob's seat must not move before his press.
    async with _services(2, bot_delay=30) as (one, two):
        table_id = (await one.tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        assert (await one.tables.join(BOB, CHANNEL)).ok
        assert (await one.tables.join(CAROL, CHANNEL)).ok
        assert (await one.tables.start_game(ALICE, CHANNEL)).ok
        people = {0: ALICE, 1: BOB, 2: CAROL}
        for _ in range(40):  # play on until it is Bob's turn: his move would be legal
            live = await one.tables.live_table(table_id)
            assert live is not None and live.state is not None
            to_act = live.game.to_act(live.state)
            if to_act == [1]:
                break
            await _play_through(one, table_id, people[to_act[0]])
        assert to_act == [1]
        copy = await two.tables.live_table(table_id)  # the other process holds Bob's seat
        assert copy is not None and copy.seat_of(BOB.user_id) is not None
        seat = copy.seat_of(BOB.user_id)
        assert seat is not None
        moves = copy.game.legal_moves(copy.state, seat.seat) or ["pass"]
        assert (await one.tables.leave(BOB, CHANNEL)).ok
        reply = await two.tables.play(BOB, CHANNEL, str(moves[0]))
        assert not reply.ok
        logged = await one.repo.moves(table_id)
        assert not [m for m in logged if m.seat == seat.seat and m.actor == "player"]


async def test_the_driver_answers_from_what_was_stored_even_before_its_notice_arrives(
        monkeypatch):
    async with _services(2) as (one, two):
        table_id = (await two.tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        await _until(lambda: two.tables.drives(table_id))

        async def still_on_its_way(table_id: int) -> None:
            return None

        # The notices of what one changes have not reached two yet.
        monkeypatch.setattr(two.tables, "catch_up", still_on_its_way)
        assert (await one.tables.join(BOB, CHANNEL)).ok
        assert (await one.tables.add_bot(ALICE, CHANNEL)).ok
        reply = await two.tables.start_game(ALICE, CHANNEL)
        assert reply.ok, reply.text  # three seats, not the two its copy had
        await two.tables.settle()
        assert "Bob" in two.shown(table_id)  # and the driver showed them


async def test_the_driver_keeps_one_copy_of_a_table_that_others_change():
    # A timer that took the table's copy before a change made elsewhere was shown must
    # act on what is stored once it runs, not on a copy nobody else holds any more.
    async with _services(2, bot_delay=30) as (one, two):
        table_id = (await one.tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        await _until(lambda: one.tables.drives(table_id))
        assert (await two.tables.join(BOB, CHANNEL)).ok
        assert (await two.tables.join(CAROL, CHANNEL)).ok
        assert (await one.tables.start_game(ALICE, CHANNEL)).ok
        held = one.tables.table(table_id).live  # as a job holds it while it waits
        assert (await two.tables.leave(CAROL, CHANNEL)).ok  # a seat change: no move to replay
        await _until(lambda: held.seat_of(CAROL.user_id) is None)
        assert one.tables.table(table_id).live is held
        stored = await one.repo.get_seats(table_id)
        assert [s.is_bot for s in held.seats] == [s.is_bot for s in stored]


async def test_take_overs_still_under_way_do_not_hold_back_the_next_claims():
    """A dead process's tables are taken over beside the polls: while one take-over is slow
    (its queries wait behind a busy pool), the tables of a second dead process still get
    their new driver at the next poll, and both are taken over in the end."""
    async with _services(3) as (one, two, three):
        first = (await one.tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        second = (await three.tables.new_game(BOB, "elsewhere", "ochs-esel")).table_id
        slow = asyncio.Event()
        take_over = two.tables.take_over

        async def slow_take_over(table_id: int) -> None:
            if table_id == first:
                await slow.wait()
            await take_over(table_id)

        two.tables.take_over = slow_take_over  # type: ignore[method-assign]
        await _kill(one)
        await _until(lambda: two.tables.drives(first))  # three has its share already
        await _kill(three)
        await _until(lambda: two.tables.drives(second), seconds=5)
        await _until(lambda: second in two.sink.tables)
        assert first not in two.sink.tables  # its take-over is still under way
        slow.set()
        await _until(lambda: first in two.sink.tables)


async def test_a_take_over_that_fails_is_tried_again_at_the_next_poll():
    async with _services(2) as (one, two):
        table_id = (await one.tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
        take_over, tries = two.tables.take_over, []

        async def failing_once(table_id: int) -> None:
            tries.append(table_id)
            if len(tries) == 1:
                raise StorageError("the database did not answer")
            await take_over(table_id)

        two.tables.take_over = failing_once  # type: ignore[method-assign]
        await _kill(one)
        await _until(lambda: table_id in two.sink.tables)
        assert tries == [table_id, table_id] and two.tables.drives(table_id)


async def test_a_process_cut_off_from_the_database_joins_again_and_drives_once_it_is_back():
    """PostgreSQL goes away for a few polls (a TCP proxy of the test's own closes every
    connection and refuses new ones): the process stops driving, tries to join again at
    every poll while it cannot, and once the database is back it is a live worker again
    and drives its table, whose screen then shows the move made meanwhile elsewhere."""
    server = urlparse(POSTGRES_URL)
    cut = TcpCut(server.hostname or "127.0.0.1", server.port or 5432)
    await cut.start()
    netloc = server.netloc.rsplit("@", 1)[0] + "@" if "@" in server.netloc else ""
    proxied = server._replace(netloc=f"{netloc}127.0.0.1:{cut.port}").geturl()
    async with postgres_schema() as schema:
        repo = PostgresRepository(proxied, server_settings={"search_path": schema})
        direct = postgres_repository(schema)
        await repo.open()
        await direct.open()
        service = Service(repo, 0)
        try:
            await service.tables.start()
            table_id = (await service.tables.new_game(ALICE, CHANNEL, "ochs-esel")).table_id
            assert service.tables.drives(table_id)
            await cut.cut()
            await _until(lambda: not service.tables.drives(table_id))
            await asyncio.sleep(1.0)  # several polls, each failing to join
            # Meanwhile a change through another process that reaches the database.
            other = Service(direct, 0)
            assert (await other.tables.join(BOB, CHANNEL)).ok
            await cut.restore()
            await _until(lambda: service.tables.drives(table_id))

            async def live_driver() -> bool:
                return bool(await direct._run(lambda db: db.fetchval(
                    "SELECT EXISTS (SELECT 1 FROM tables t JOIN workers w ON w.id = t.driver"
                    " JOIN pg_locks l ON l.locktype = 'advisory' AND l.objsubid = 2"
                    " AND l.objid = w.lock_key::oid AND l.granted WHERE t.id = $1)",
                    table_id)))

            await _until(live_driver)
            await _until(lambda: "Bob" in service.shown(table_id))
        finally:
            with contextlib.suppress(Exception):
                await service.tables.close()
            await repo.close()
            await direct.close()
            await cut.stop()
