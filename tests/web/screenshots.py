"""`python -m tests.web.screenshots [DIR]`: the table's page of each game at 360 and 1280
pixels, mid-game against bots, and the replays of a few finished games at the move that
ended a round, as PNG files in DIR (docs/web by default); with `--replays`, the replays
only."""

import sys
import tempfile
import time
from pathlib import Path

from tests.web.conftest import CHROMIUM, LocalWeb, wait_until

GAMES = [("ochs-esel", 3, "rounds=1"), ("the-game", 2, ""), ("nix-fur-ungut", 2, ""),
         ("michigan", 3, "")]
REPLAYS = [("ochs-esel", 2, "rounds=2"), ("michigan", 2, ""), ("nix-fur-ungut", 2, "rounds=2")]


def main(out: Path, *, replays_only: bool = False) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for game, bots, options in [] if replays_only else GAMES:
            server = LocalWeb(Path(tmp) / f"{game}.db").start()
            try:
                _shoot(browser, server, game, bots, options, out)
            finally:
                server.stop()
        for game, bots, options in REPLAYS:
            server = LocalWeb(Path(tmp) / f"{game}-replay.db").start()
            try:
                _shoot_replay(browser, server, game, bots, options, out)
            finally:
                server.stop()
        browser.close()


def _shoot_replay(browser, server, game, bots, options, out) -> None:
    from tests.web.test_browser import open_game, play_out

    page = open_game(browser, server, game, bots, options)
    play_out(page)
    page.click("#replay")
    page.wait_for_selector("body[data-step]")
    rounds = page.evaluate("window.tapis.replay().rounds")
    at = rounds[0]["step"] if rounds else 1
    page.locator("#slider").fill(str(at))
    wait_until(lambda: page.get_attribute("body", "data-step") == str(at))
    time.sleep(0.3)
    page.screenshot(path=str(out / f"replay-{game}-360.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    time.sleep(0.3)
    page.screenshot(path=str(out / f"replay-{game}-1280.png"), full_page=True)
    page.close()


def _shoot(browser, server, game, bots, options, out) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 780})
    page.goto(server.url)
    page.select_option("#game", game)
    page.fill("#bots", str(bots))
    page.fill("#options", options)
    page.click("#start")

    def moves():
        view = page.evaluate("window.tapis.view()")
        return view["moves"] if view else None

    # A few moves in, so the table shows cards played and last moves.
    for _ in range(3):
        found = wait_until(moves, within=30)
        version = page.get_attribute("body", "data-version")
        move = found[-1 if game == "michigan" else 0]
        if move["cards"]:
            _tap(page, move)
        else:
            page.click(f"button[data-move='{move['text']}']")
        wait_until(lambda v=version: page.get_attribute("body", "data-version") != v)
    first = wait_until(moves, within=30)[0]
    for card in first["cards"][:1]:  # one card picked: the page shows what fits
        page.locator(f".card-slot[data-card='{card}']").first.click()
    time.sleep(0.3)
    page.screenshot(path=str(out / f"{game}-360.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    time.sleep(0.3)
    page.screenshot(path=str(out / f"{game}-1280.png"), full_page=True)
    page.close()


def _tap(page, move) -> None:
    for card in move["cards"]:
        page.locator(f".card-slot[data-card='{card}'][aria-pressed=false]").first.click()
    target = move["text"].split()[-1]
    pile = page.locator(f"button.pile.target[data-pile='{target}']")
    if pile.count():
        pile.click()
    else:
        page.click(f"button[data-move='{move['text']}']")


if __name__ == "__main__":
    where = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    main(Path(where[0] if where else "docs/web"), replays_only="--replays" in sys.argv)
