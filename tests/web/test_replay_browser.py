"""A finished game's replay in a real browser: stepping forwards and backwards (buttons,
arrow keys, the slider) with every hand shown and the scores after a round; a forged link
and a game still in play are refused in words."""

from typing import Any

from bot.i18n import t
from tests.web.conftest import LocalWeb, wait_until
from tests.web.test_browser import PHONE, open_game, play_out, state


def step(page: Any) -> int:
    return int(page.get_attribute("body", "data-step") or -1)


def shown_hands(page: Any) -> list[int]:
    """How many cards each hand shows."""
    return page.evaluate("""[...document.querySelectorAll('#hands [data-hand-of]')].map(
        h => h.querySelectorAll('.card').length)""")


def test_a_finished_game_steps_forwards_and_backwards_with_every_hand(browser, local_web):
    page = open_game(browser, local_web, "ochs-esel", 2, "rounds=2")
    final = play_out(page)
    assert final["table"]["status"] == "finished"
    page.click("#replay")  # the finished table links to its replay
    page.wait_for_selector("body[data-step='0']")
    data = page.evaluate("window.tapis.replay()")
    steps = data["steps"]
    assert len(steps) == final["table"]["version"] + 1

    # The deal: every hand, each card as dealt.
    assert len(shown_hands(page)) == 3
    assert shown_hands(page) == [len(h) for h in steps[0]["hands"]]
    assert page.text_content("#said").strip() == t("en", "web_replay_deal")

    # Forwards with the button and the arrow key, backwards with both.
    page.click("#forward")
    wait_until(lambda: step(page) == 1)
    assert steps[1]["lines"][0] in page.text_content("#said")
    page.keyboard.press("ArrowRight")
    wait_until(lambda: step(page) == 2)
    assert shown_hands(page) == [len(h) for h in steps[2]["hands"]]
    page.keyboard.press("ArrowLeft")
    wait_until(lambda: step(page) == 1)
    page.click("#back")
    wait_until(lambda: step(page) == 0)
    assert page.is_disabled("#back") and not page.is_disabled("#forward")

    # The slider, to the move that ended the first round: its scores are shown, marked.
    first = data["rounds"][0]
    page.locator("#slider").fill(str(first["step"] - 1))
    wait_until(lambda: step(page) == first["step"] - 1)
    assert page.locator("#rounds tbody tr").count() == 0
    page.keyboard.press("ArrowRight")  # the slider has the focus: it steps itself, once
    wait_until(lambda: step(page) == first["step"])
    row = page.locator("#rounds tr.just[data-round='1'] .total")
    assert row.all_text_contents() == [str(total) for total in first["totals"]]
    assert shown_hands(page) == [len(h) for h in steps[first["step"]]["hands"]]

    # The end: the last round's scores and the final ranking, the last hands.
    page.keyboard.press("End")
    wait_until(lambda: step(page) == len(steps) - 1)
    assert page.locator("#rounds tbody tr").count() == 2
    assert page.locator("#final li").count() == len(data["outcome"]["lines"])
    assert page.is_disabled("#forward")
    assert page.errors == []
    page.close()


def test_a_forged_link_is_refused_in_the_readers_language(browser, local_web):
    context = browser.new_context(locale="fr-FR", viewport=PHONE)
    page = context.new_page()
    answer = page.goto(f"{local_web.url}r/1_AAAAAAAAAA")
    assert answer.status == 404
    assert page.text_content("#refusal") == t("fr", "web_replay_refused_forged")
    assert page.locator("#controls").count() == 0  # nothing of a replay
    context.close()


def test_a_game_in_play_is_refused_and_shows_no_hand(browser, local_web: LocalWeb):
    page = open_game(browser, local_web, "ochs-esel", 2, "rounds=1")
    ref = state(page)["table"]["ref"]
    other = browser.new_page(viewport=PHONE)
    answer = other.goto(f"{local_web.url}r/{ref}")
    assert answer.status == 403
    assert other.text_content("#refusal") == t("en", "web_replay_refused_unfinished")
    assert other.locator(".card").count() == 0
    other.close()
    page.close()


def test_a_michigan_replay_shows_the_extra_hand_while_it_is_nobodys(browser, local_web):
    page = open_game(browser, local_web, "michigan", 2)
    final = play_out(page)
    assert final["table"]["status"] == "finished"
    page.click("#replay")
    page.wait_for_selector("body[data-step='0']")
    steps = page.evaluate("window.tapis.replay()")["steps"]

    def unseen(kind: str) -> list[str]:
        return page.evaluate(f"""[...document.querySelectorAll(
            "#hands [data-hand-of='{kind}'] .card")].map(c => c.textContent)""")

    # The deal: the seats' hands and the extra hand hold the whole deck, all of it shown.
    extra = steps[0]["extra"]
    assert extra and sum(map(len, steps[0]["hands"])) + len(extra) == 52
    assert len(unseen("extra")) == len(extra) and unseen("out_of_play") == []
    # The dealer's decision (or the auction's end): the extra hand is a seat's now, or
    # out of play, and shown there; nobody's hand is missing from the page.
    decided = next(n for n, s in enumerate(steps) if not s.get("extra"))
    page.locator("#slider").fill(str(decided))
    wait_until(lambda: step(page) == decided)
    assert unseen("extra") == []
    holders = [sorted(h) for h in steps[decided]["hands"]]
    out = steps[decided]["out_of_play"]
    assert sorted(extra) in holders or sorted(out) == sorted(extra)
    assert len(unseen("out_of_play")) == len(out)
    assert page.errors == []
    page.close()
