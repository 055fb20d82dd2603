"""A real browser for the web page's tests: Debian's chromium, driven by Playwright with
no browser of its own downloaded. One browser for the tests of a module.

Module-scoped, not session-scoped: Playwright's synchronous API runs an event loop in the
main thread while it is open, and the async tests a worker runs after a browser test need
that thread's loop free; pytest ends the browser when its worker moves to another module.

Without chromium (or Playwright) the browser tests skip and say why; with CI=true they
fail instead: in CI they never skip (.ci/run installs chromium when it is missing)."""

import asyncio
import os
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.web.local import serve_local
from bot.settings import Settings
from db.sqlite import SqliteRepository

CHROMIUM = os.environ.get("TAPIS_CHROMIUM", "/usr/bin/chromium")


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run in CI: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()

class LoopThread:
    """An event loop in a thread of its own, serving what a browser test reaches while
    the test's own thread drives the browser (Playwright's sync API holds it)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    def launch(self, serve: Callable[[threading.Event], Coroutine[Any, Any, None]],
               what: str) -> None:
        """Run `serve(ready)` in the thread, and wait until it sets `ready`."""
        ready = threading.Event()
        self._thread = threading.Thread(target=asyncio.run, args=(serve(ready),), daemon=True)
        self._thread.start()
        assert ready.wait(30), f"{what} did not start"

    async def serve_until_stopped(self, ready: threading.Event) -> None:
        self.loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        ready.set()
        await self._stop.wait()

    def run(self, work: Any) -> Any:
        """`work` (a coroutine) run on the thread's loop; its result."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(30)

    def stop(self) -> None:
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(30)


class LocalWeb:
    """The server `python -m bot --web` runs (`serve_local`), on a database of the test's
    own, in a thread with its own event loop: the browser is driven from this one.
    (tests/web/test_server.py starts the command itself once.)"""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.port = 0
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> "LocalWeb":
        ready = threading.Event()
        failed: list[BaseException] = []

        async def serve() -> None:
            repo = SqliteRepository(self.database, writer_process=False)
            await repo.open()
            settings = Settings(_env_file=None, bot_delay=0)  # type: ignore[call-arg]
            try:
                server, tables, self.port = await serve_local(repo, settings, self.port)
            except BaseException as exc:
                failed.append(exc)
                ready.set()
                await repo.close()
                return
            self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
            ready.set()
            try:
                await self._stop.wait()
            finally:
                await server.close()
                await tables.close()
                await repo.close()

        self._thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
        self._thread.start()
        assert ready.wait(20), "the web server did not start"
        if failed:
            raise failed[0]
        return self

    def stop(self) -> None:
        if self._thread is None:
            return
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(20)
        self._thread = self._loop = self._stop = None


@pytest.fixture
def local_web(tmp_path: Path) -> Iterator[LocalWeb]:
    server = LocalWeb(tmp_path / "web.db").start()
    try:
        yield server
    finally:
        server.stop()


def wait_until(check: Any, within: float = 15.0, every: float = 0.05) -> Any:
    until = time.monotonic() + within
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > until:
            raise AssertionError("waited in vain")
        time.sleep(every)
