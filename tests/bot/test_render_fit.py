"""Fitting a rendering to a platform's limit: old narration goes, then names shrink."""

from adapters.telegram.format import MAX_TEXT, parsed_length, rendering_html
from bot.render import Rendering, fit
from tests.fakes.telegram_api import render_html

NAMES = ("Alexandra-Wilhelmina O'Brien & Sons", "Bob")


def long_table(narration: int, newest: int) -> Rendering:
    seats = [f"▶ {NAMES[0]}: 5 cards", f"   {NAMES[1]}: 4 cards", f"To play: {NAMES[0]}",
             "Last moves:"]
    told = [f"· move {i}: {NAMES[0]} plays 7 7 J then {NAMES[1]} passes" for i in range(narration)]
    start = len(seats)
    return Rendering("Ochs & Esel", seats + told, narration=(start, start + narration - newest),
                     names=NAMES)


def size(rendering: Rendering) -> int:
    return len(rendering.text)


def test_a_rendering_that_fits_is_left_as_it_is():
    table = long_table(6, 1)
    assert fit(table, size, 10_000) is table


def test_the_oldest_narration_goes_first_and_the_newest_move_stays():
    table = long_table(6, 2)
    fitted = fit(table, size, size(table) - 10)
    assert fitted.lines[:4] == table.lines[:4]
    assert fitted.lines[4:] == table.lines[5:]  # only "move 0" was dropped
    assert size(fitted) <= size(table) - 10


def test_names_are_shortened_once_only_the_newest_move_is_left():
    table = long_table(6, 2)
    fitted = fit(table, size, 180)
    assert size(fitted) <= 180
    assert fitted.lines[-2:] == ["· move 4: Alexandra… plays 7 7 J then Bob passes",
                                 "· move 5: Alexandra… plays 7 7 J then Bob passes"]
    assert not any("move 3" in line for line in fitted.lines)
    assert f"To play: {NAMES[0]}" not in fitted.lines  # the long name was shortened...
    assert any(line.startswith("To play: Al") and line.endswith("…")
               for line in fitted.lines)  # ...but whose turn it is is still said
    assert "   Bob: 4 cards" in fitted.lines  # a short name is left whole


def test_telegram_counts_the_parsed_text_not_the_escaped_html():
    quotes = Rendering("T", ["'" * (MAX_TEXT - 2)])  # 6 characters each once escaped
    html = rendering_html(quotes)
    assert len(html) > 5 * MAX_TEXT
    assert render_html(html) == "T\n" + "'" * (MAX_TEXT - 2)  # nothing cut


def test_telegram_counts_an_emoji_beyond_the_bmp_as_two():
    cards = Rendering("T", ["🂡" * MAX_TEXT], narration=(0, 0))
    shown = render_html(rendering_html(cards))
    assert parsed_length(shown) <= MAX_TEXT
    assert shown.endswith("…")
