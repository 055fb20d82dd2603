"""The table's page in a real browser, against `python -m bot --web`: whole games played
by tapping cards and moves, The Game's piles and signals, and a page that catches up after
the server restarts."""

from typing import Any

import pytest

from tests.web.conftest import LocalWeb, wait_until

PHONE = {"width": 360, "height": 780}


def open_game(browser: Any, server: LocalWeb, game: str, bots: int, options: str = "",
              viewport: dict[str, int] = PHONE) -> Any:
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors
    page.goto(server.url)
    page.select_option("#game", game)
    page.fill("#bots", str(bots))
    page.fill("#options", options)
    page.click("#start")
    page.wait_for_selector("body[data-status=playing]")
    return page


def state(page: Any) -> Any:
    return page.evaluate("window.tapis.view()")


def my_turn(page: Any) -> Any:
    view = state(page)
    if view is None:
        return None
    if view["table"]["status"] != "playing" or view["moves"]:
        return view
    return None


def tap_move(page: Any, move: dict[str, Any]) -> None:
    """Play `move` as a person would: tap its cards in the hand, then its button (or, in
    The Game, the pile it goes on)."""
    version = page.get_attribute("body", "data-version")
    for card in move["cards"]:
        slot = page.locator(f".card-slot[data-card='{card}'][aria-pressed=false]").first
        slot.click()
    target = move["text"].split()[-1]
    if move["cards"] and page.locator(f"button.pile.target[data-pile='{target}']").count():
        page.click(f"button.pile.target[data-pile='{target}']")
    else:
        page.click(f"button[data-move='{move['text']}']")
    wait_until(lambda: page.get_attribute("body", "data-version") != version
               or page.text_content("#refusal"))
    assert not page.text_content("#refusal"), page.text_content("#refusal")


def play_out(page: Any, most: int = 400) -> Any:
    for _ in range(most):
        view = wait_until(lambda: my_turn(page), within=30)
        if view["table"]["status"] != "playing":
            return view
        tap_move(page, view["moves"][0])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "bots", "options"), [
    ("ochs-esel", 2, "rounds=1"), ("nix-fur-ungut", 2, "rounds=1"), ("michigan", 2, ""),
    ("the-game", 1, "")])
def test_a_whole_game_against_bots_by_tapping(browser, local_web, game, bots, options):
    page = open_game(browser, local_web, game, bots, options)
    final = play_out(page)
    assert final["table"]["status"] == "finished"
    # The final ranking, and every hand shown now that the game is over.
    assert page.locator("#log ol li").count() == len(final["outcome"]["ranking"])
    assert page.text_content("#turn")
    # Another game, from the page.
    page.click("#again")
    page.select_option("#game", "ochs-esel")
    page.click("#start")
    wait_until(lambda: (v := state(page)) and v["table"]["id"] != final["table"]["id"])
    assert page.errors == []
    page.close()


def test_the_game_a_card_goes_on_the_pile_tapped_and_a_signal_shows(browser, local_web):
    page = open_game(browser, local_web, "the-game", 1)
    view = wait_until(lambda: my_turn(page), within=30)
    move = next(m for m in view["moves"] if m["cards"])
    card, pile = move["cards"][0], move["text"].split()[-1]
    page.locator(f".card-slot[data-card='{card}']").first.click()
    # The piles that take the card light up; the tap on one plays it there.
    assert page.locator(f"button.pile.target[data-pile='{pile}']").count() == 1
    page.click(f"button.pile.target[data-pile='{pile}']")
    wait_until(lambda: page.text_content(f".pile[data-pile='{pile}'] .card").strip()
               .startswith(card))
    assert card not in [c for c in state(page)["view"]["hand"]] or \
        state(page)["view"]["hand"].count(card) < view["view"]["hand"].count(card)
    other = next(p for p in ("A1", "A2", "D1", "D2") if p != pile)
    page.click(f"button[data-signal='{other} stop']")
    wait_until(lambda: "✋" in page.text_content(f".pile[data-pile='{other}'] .marks"))
    assert page.errors == []
    page.close()


def test_a_page_catches_up_after_the_server_restarts(browser, local_web):
    page = open_game(browser, local_web, "ochs-esel", 2, "rounds=1")
    view = wait_until(lambda: my_turn(page), within=30)
    table_id = view["table"]["id"]
    local_web.stop()
    wait_until(lambda: page.text_content("#status"))  # "reconnecting…"
    local_web.start()  # the same port and database
    wait_until(lambda: not page.text_content("#status"), within=20)
    again = wait_until(lambda: my_turn(page), within=30)
    assert again["table"]["id"] == table_id
    tap_move(page, again["moves"][0])
    page.close()


def test_the_page_takes_telegrams_theme_colours_from_the_address(browser, local_web):
    page = browser.new_page(viewport=PHONE)
    theme = '{"bg_color":"#112233","text_color":"#eeeeee","button_color":"#ff8800"}'
    page.goto(f"{local_web.url}#tgWebAppThemeParams={theme}")
    page.wait_for_selector("#game")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == \
        "rgb(17, 34, 51)"
    assert page.evaluate("getComputedStyle(document.querySelector('#start'))"
                         ".backgroundColor") == "rgb(255, 136, 0)"
    page.close()
