"""The leaderboard panel in a real browser: a group's rated games stored through the real
repository, its table's page opened in chromium by a player of that group, and the panel
showing what /leaderboard answers in that chat, in the player's own language; a person
who asked to be forgotten is named nowhere on it. `python -m tests.web.test_ladder_browser`
takes its screenshots (docs/web/ladder-360.png, ladder-1280.png)."""

import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from adapters.web.auth import Person, Signer
from adapters.web.server import COOKIE, WebServer
from bot.commands import Leaderboard, run
from bot.tables import Actor, Tables
from bot.web_view import Watchers
from db.sqlite import SqliteRepository
from tests.bot.conftest import RecordingSink
from tests.web.conftest import LoopThread, wait_until
from tests.web.test_auth import TOKEN
from tests.web.test_boards import HOME, rated, table
from tests.web.test_browser_telegram import free_port
from tests.web.test_server import settings

# Eleven regulars, Ada (the reader, "42") last of each game, and Zoe first, who then asks
# to be forgotten; a long name, to see that the panel wraps it at phone width.
REGULARS = ["zoe", *(f"p{n}" for n in range(9)), "maximilianevonundzuhohenzollern"]
ADA = Actor("42", "Ada")


class BoardBeside(LoopThread):
    """A Telegram group's tables with rated games behind them, and the web server, in a
    thread with its own event loop: the browser is driven from this one."""

    def __init__(self, database: Path) -> None:
        super().__init__()
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.tables: Tables | None = None
        self.server: WebServer | None = None

    def start(self) -> "BoardBeside":
        async def serve(ready: threading.Event) -> None:
            repo = SqliteRepository(self.database, writer_process=False)
            await repo.open()
            tables = Tables(repo, RecordingSink(), platform="telegram", settings=settings())
            await tables.start(run_scheduler=True)
            server = WebServer({"telegram": tables}, Watchers(), Signer(b"l" * 32),
                               public_url=self.url, telegram_token=TOKEN)
            await server.start("127.0.0.1", self.port)
            self.tables, self.server = tables, server
            try:
                await self.serve_until_stopped(ready)
            finally:
                await server.close()
                await tables.close()
                await repo.close()

        self.launch(serve, "the web server")
        return self


async def prepare(tables: Tables) -> tuple[str, str]:
    """Three rated games of the group, Zoe forgotten, Ada reading German; the reference of
    the group's table in play, and what /leaderboard michigan answers Ada in the group."""
    for n in range(3):
        await rated(tables.repo, HOME, [*REGULARS, "42"], f"h{n}")
    assert (await tables.set_lang(ADA, "-100", "de", personal=True)).ok
    assert (await tables.privacy.forget(Actor("zoe", "Zoe"))).ok
    ref = await table(tables, "-100", HOME)
    chat = await run(tables, ADA, "-100", Leaderboard(HOME, ["michigan"]))
    assert chat.ok, chat.text
    return ref, chat.text


def open_page(browser: Any, beside: BoardBeside, ref: str, width: int) -> Any:
    assert beside.server is not None
    context = browser.new_context(viewport={"width": width, "height": 780})
    # Ada's session, as her Mini App's launch data would have given it; her app speaks
    # French, her own /lang is German: the page reads German.
    context.add_cookies([{"name": COOKIE, "url": beside.url, "value": beside.server.signer.session(
        Person("telegram", "42", "Ada", "fr"), time.time())}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(f"{beside.url}/t/{ref}")
    page.wait_for_selector("body[data-status=playing]")
    page.wait_for_selector("#ladder:not([hidden]) details")
    page.click("#ladder summary")
    return page


def panel_lines(page: Any) -> list[str]:
    """The panel's lines as a reader sees them (its icon is drawn, not a character)."""
    text = page.inner_text("#ladder .ladder-text")
    return [line.strip() for line in text.splitlines() if line.strip()]


def chat_lines(text: str) -> list[str]:
    """The chat's lines, its title's emoji aside: the page draws that one itself."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return [lines[0].removeprefix("🏆").strip(), *lines[1:]]


def test_the_panel_shows_the_chats_leaderboard_in_the_readers_language(browser, tmp_path):
    beside = BoardBeside(tmp_path / "tapis.db").start()
    try:
        assert beside.tables is not None
        ref, chat = beside.run(prepare(beside.tables))
        page = open_page(browser, beside, ref, 360)
        lines = panel_lines(page)
        # Line for line what the chat answers: the title, the top ten with their numbers
        # and games, Ada's own place, the count of players.
        assert lines == chat_lines(chat)
        assert lines[0].startswith("Michigan, Saison ")
        assert lines[1].startswith("1. ") and "(3 Partien)" in lines[1]
        # Zoe's numbers went with her name: Ada, last of the twelve, is eleventh of eleven.
        assert lines[-2].startswith("Du: 11. Ada — ") and lines[-1].startswith("11 Spieler")
        # German, as Ada reads it: the summary too.
        assert page.inner_text("#ladder summary") == page.evaluate(
            "window.tapis.view().words.web_ladder")
        assert page.evaluate("document.documentElement.lang") == "de"
        # Zoe asked to be forgotten: her name is nowhere on the page.
        assert "Zoe" not in page.inner_text("body")
        assert "zoe" not in page.content().lower()
        # The panel fits a phone: nothing wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.errors == []
        page.context.close()
    finally:
        beside.stop()


def screenshots(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    from tests.web.conftest import CHROMIUM

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        beside = BoardBeside(Path(tmp) / "tapis.db").start()
        try:
            assert beside.tables is not None
            ref, _ = beside.run(prepare(beside.tables))
            for width in (360, 1280):
                page = open_page(browser, beside, ref, width)
                wait_until(lambda p=page: p.is_visible("#ladder .ladder-text"))
                page.locator("#ladder").scroll_into_view_if_needed()
                time.sleep(0.3)
                page.screenshot(path=str(out / f"ladder-{width}.png"), full_page=True)
                page.context.close()
        finally:
            beside.stop()
            browser.close()


if __name__ == "__main__":
    screenshots(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/web"))
