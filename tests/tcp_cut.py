"""A TCP proxy a test puts between the bot and PostgreSQL, to cut the connection at will.

`cut()` does what a PostgreSQL restart or a network failure does to a client: every open
connection is closed and new ones are refused (nothing listens on the port any more),
until `restore()`. The server itself is never touched, so tests sharing it see nothing.
"""

import asyncio
import contextlib
import socket


class TcpCut:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        with socket.socket() as probe:  # a free port, kept across a cut
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.accepted = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._pair, "127.0.0.1", self.port,
                                                  reuse_address=True)

    async def cut(self) -> None:
        """Close every connection and refuse new ones."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        for task in list(self._pipes):
            task.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def restore(self) -> None:
        await self.start()

    async def stop(self) -> None:
        await self.cut()

    async def _pair(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter
                    ) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(*self.target)
        except OSError:
            client_w.transport.abort()
            return
        self.accepted += 1
        self._writers.update((client_w, server_w))
        pipes = [asyncio.create_task(self._pipe(client_r, server_w)),
                 asyncio.create_task(self._pipe(server_r, client_w))]
        self._pipes.update(pipes)
        try:
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in pipes:
                task.cancel()
            for writer in (client_w, server_w):
                writer.transport.abort()
                self._writers.discard(writer)
            self._pipes.difference_update(pipes)

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
