"""`python -m bot --web`: the table's web page on this machine, for one person against
bot players, with no chat and no login. It listens on the loopback address only.

The web page is this table's only client here, so the deliveries bot/ makes go nowhere
but to the page: the table and hand messages are the page's own view (read from the
table when the page is told of the change), and what is announced (a round's summary,
the final ranking) is kept for the page to show."""

import asyncio
import contextlib
import getpass
import secrets
import signal
import sys
from collections import deque
from collections.abc import Callable
from typing import TextIO

from adapters.web.auth import Person, Signer
from adapters.web.server import WebServer
from bot.deliveries import Announcement, HandMessage, Notice, TableMessage
from bot.settings import Settings
from bot.tables import Tables
from bot.web_view import Watchers
from db.repository import MessageRef, Repository

CHANNEL = "local"
LOOPBACK = "127.0.0.1"
KEPT = 6  # announcements a page shows


class LocalSink:
    """Deliveries of the local web table: kept, not sent anywhere."""

    def __init__(self, said: Callable[[int], None]) -> None:
        self.said: dict[int, deque[str]] = {}
        self._told = said  # the page shows what was said: it looks again once it is kept
        self._ids = 0

    def _ref(self, key: str) -> MessageRef:
        self._ids += 1
        return MessageRef(key=key, chat="web", message_id=str(self._ids))

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        return ref or self._ref("table")

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        return ref or self._ref(f"hand:{msg.seat}")

    async def announce(self, msg: Announcement) -> None:
        if msg.kind in {"result", "info"}:
            self.said.setdefault(msg.table_id, deque(maxlen=KEPT)).append(msg.text)
            self._told(msg.table_id)

    async def notify(self, msg: Notice) -> None:
        if msg.table_id is not None:
            self.said.setdefault(msg.table_id, deque(maxlen=KEPT)).append(msg.text)
            self._told(msg.table_id)


def local_person() -> Person:
    return Person("web", "you", getpass.getuser().capitalize() or "You")


async def serve_local(repo: Repository, settings: Settings, port: int
                      ) -> tuple[WebServer, Tables, int]:
    """The local table's server, listening; its `Tables` started."""
    # No one to wait for at a solo table: no turn deadline, as at the console.
    settings = settings.model_copy(update={"turn_deadline": 0})
    watchers = Watchers()
    sink = LocalSink(watchers.changed)
    tables = Tables(repo, sink, platform="web", settings=settings)
    await tables.start(run_scheduler=True)
    server = WebServer({"web": tables}, watchers, Signer(secrets.token_bytes(32)),
                       local=local_person(), local_channel=CHANNEL,
                       said=lambda table_id: list(sink.said.get(table_id, ())))
    try:
        bound = await server.start(LOOPBACK, port)
    except BaseException:
        await tables.close()
        raise
    return server, tables, bound


async def run_local(repo: Repository, settings: Settings, *, out: TextIO = sys.stdout) -> int:
    try:
        server, tables, port = await serve_local(repo, settings, settings.web_port)
    except OSError as exc:
        print(f"tapis: cannot serve the web page on {LOOPBACK}:{settings.web_port} "
              f"(WEB_PORT: {exc.strerror or exc})", file=sys.stderr)
        return 2
    print(f"Tapis: open http://{LOOPBACK}:{port}/ in your browser (Ctrl-C stops).",
          file=out, flush=True)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stopping.set)
    try:
        await stopping.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        await server.close()
        await tables.close()
    return 0
