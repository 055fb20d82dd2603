"""A real browser for the web page's tests: Debian's chromium, driven by Playwright with
no browser of its own downloaded. One browser for all the tests of a worker.

Without chromium (or Playwright) the browser tests skip and say why; with CI=true they
fail instead: in CI they never skip (.ci/run installs chromium when it is missing)."""

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TAPIS_CHROMIUM", "/usr/bin/chromium")
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
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


class LocalWeb:
    """`python -m bot --web` as a player starts it, on a database of the test's own."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.port = 0
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> "LocalWeb":
        env = {**os.environ, "WEB_PORT": str(self.port), "NO_PROXY": "127.0.0.1,localhost",
               "BOT_DELAY": "0", "LOG_LEVEL": "WARNING"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "--web", "--database",
             f"sqlite:///{self.database}"], env=env, stdout=subprocess.PIPE, text=True,
            cwd=Path(__file__).resolve().parents[2])
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = ADDRESS.search(line)
        assert found, f"python -m bot --web printed {line!r}"
        self.port = int(found.group(1))
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


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
