"""A commit whose answer was lost: the writer process died after its COMMIT, or the
PostgreSQL connection dropped after it. The move is stored, so `commit_move` must say so
(return the stored row) rather than report a failure that "changed nothing"; a move that
was not stored is still reported as failed."""

import asyncio
import contextlib
import struct
from collections.abc import AsyncIterator

import pytest

from db.postgres import PostgresRepository
from db.repository import StorageError, TableRow
from db.sqlite import SqliteRepository
from tests.db.conftest import POSTGRES_URL, postgres_schema, started_table

WRITER_DIES = "TAPIS_TEST_WRITER_DIES_AFTER_COMMIT"


@pytest.fixture
def backend() -> str:
    return "sqlite"


async def move(repo, table_id: int, seq: int, seat: int = 0) -> TableRow:
    return await repo.commit_move(table_id, seq=seq, seat=seat, move=f"m{seq}",
                                  actor="player", snapshot=f"s{seq}")


async def test_a_move_whose_writer_died_after_commit_is_reported_stored(tmp_path, monkeypatch):
    flag = tmp_path / "die"
    monkeypatch.setenv(WRITER_DIES, str(flag))
    async with SqliteRepository(tmp_path / "t.db") as repo:
        first, second = await started_table(repo, "c1"), await started_table(repo, "c2")
        assert (await move(repo, first.id, 1)).version == 1
        flag.touch()
        # Two tables' moves in one group commit, and the answer to both lost.
        rows = await asyncio.gather(move(repo, first.id, 2), move(repo, second.id, 1))
        assert not flag.exists()  # the writer did die after that commit
        assert [(r.id, r.version, r.snapshot) for r in rows] == [
            (first.id, 2, "s2"), (second.id, 1, "s1")]
        assert rows[0] == await repo.get_table(first.id)
        assert [m.move for m in await repo.moves(first.id)] == ["m1", "m2"]
        # The next move goes on from there, on a fresh writer.
        assert (await move(repo, first.id, 3)).version == 3


async def test_a_move_refused_in_a_batch_whose_answer_was_lost_is_still_refused(
        tmp_path, monkeypatch):
    flag = tmp_path / "die"
    monkeypatch.setenv(WRITER_DIES, str(flag))
    async with SqliteRepository(tmp_path / "t.db") as repo:
        first, second = await started_table(repo, "c1"), await started_table(repo, "c2")
        flag.touch()
        stored, stale = await asyncio.gather(move(repo, first.id, 1), move(repo, second.id, 2),
                                             return_exceptions=True)
        assert not flag.exists()
        assert isinstance(stored, TableRow) and stored.version == 1
        assert isinstance(stale, StorageError)  # seq 2 on a table at 0: never stored
        assert (await repo.get_table(second.id)).version == 0


# ------------------------------------------------------------------------- PostgreSQL


class DropAfterCommit:
    """A TCP relay in front of PostgreSQL that, once armed, lets the server run and commit
    the next `commit_move` statement, then drops that connection before its answer (the
    server's ReadyForQuery, sent after the implicit COMMIT) reaches the client."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.armed = False
        self.dropped = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()

    async def _relay(self, client_in: asyncio.StreamReader,
                     client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection(self.host, self.port)
        statements: dict[bytes, bytes] = {}
        moving = asyncio.Event()  # a commit_move statement is on its way to the server

        async def upstream() -> None:
            # The startup message has no type byte; everything after it has one.
            (length,) = struct.unpack("!I", await client_in.readexactly(4))
            server_out.write(struct.pack("!I", length) + await client_in.readexactly(length - 4))
            while True:
                kind = await client_in.readexactly(1)
                (length,) = struct.unpack("!I", await client_in.readexactly(4))
                body = await client_in.readexactly(length - 4)
                if kind == b"P":  # Parse: statement name, then its text
                    name, text = body.split(b"\0")[:2]
                    statements[name] = text
                    if self.armed and b"WITH moved AS" in text:
                        moving.set()
                elif kind == b"B":  # Bind: portal name, then statement name
                    name = body.split(b"\0")[1]
                    if self.armed and b"WITH moved AS" in statements.get(name, b""):
                        moving.set()
                server_out.write(kind + struct.pack("!I", length) + body)
                await server_out.drain()

        async def downstream() -> None:
            while True:
                kind = await server_in.readexactly(1)
                (length,) = struct.unpack("!I", await server_in.readexactly(4))
                body = await server_in.readexactly(length - 4)
                if kind == b"Z" and moving.is_set():
                    # Committed: the answer is lost with the connection.
                    self.armed = False
                    self.dropped += 1
                    return
                client_out.write(kind + struct.pack("!I", length) + body)
                await client_out.drain()

        tasks = [asyncio.create_task(upstream()), asyncio.create_task(downstream())]
        with contextlib.suppress(Exception):
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for writer in (client_out, server_out):
            writer.transport.abort()


@contextlib.asynccontextmanager
async def relayed_repository() -> AsyncIterator[tuple[PostgresRepository, DropAfterCommit]]:
    from urllib.parse import urlsplit

    url = urlsplit(POSTGRES_URL)
    relay = DropAfterCommit(url.hostname or "127.0.0.1", url.port or 5432)
    port = await relay.start()
    dsn = url._replace(netloc=f"{url.username or 'postgres'}@127.0.0.1:{port}",
                       query="sslmode=disable").geturl()
    try:
        async with postgres_schema() as schema, PostgresRepository(
                dsn, server_settings={"search_path": schema}) as repo:
            yield repo, relay
    finally:
        await relay.stop()


async def test_a_move_whose_connection_dropped_after_commit_is_reported_stored():
    async with relayed_repository() as (repo, relay):
        table = await started_table(repo)
        assert (await move(repo, table.id, 1)).version == 1
        relay.armed = True
        row = await move(repo, table.id, 2)
        assert relay.dropped == 1  # the connection did drop after that commit
        assert (row.version, row.snapshot) == (2, "s2")
        assert row == await repo.get_table(table.id)
        assert [m.move for m in await repo.moves(table.id)] == ["m1", "m2"]
        assert (await move(repo, table.id, 3)).version == 3


async def test_a_move_refused_on_a_connection_that_dropped_is_still_refused():
    async with relayed_repository() as (repo, relay):
        table = await started_table(repo)
        relay.armed = True
        with pytest.raises(StorageError):
            await move(repo, table.id, 2)  # seq 2 on a table at 0: never stored
        assert relay.dropped == 1
        assert (await repo.get_table(table.id)).version == 0


