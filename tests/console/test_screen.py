"""What a player sees in the terminal: the console driven through its real entry
(`python -m bot`), with piped input or a pseudo-terminal, as a person would use it."""

import getpass
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from engine import games
from tests.console.pty_run import ANSI, Terminal
from tests.console.test_console import ROOT, run_bot

CHAT_WORDING = ["Others can /join", "arrives privately", "Tap a move", "in this channel",
                "Not shown:", "Touchez", "en privé", "dans ce salon"]


def blocks_of_moves(out: str) -> list[list[str]]:
    """Each "Your moves:" list as its labels (`#3 7 7 J` → `7 7 J`)."""
    found = []
    for chunk in out.split("Your moves:\n")[1:]:
        labels = []
        for line in chunk.split("\n"):
            if not line.startswith("#"):
                break
            labels += [m.strip() for m in re.split(r"#\d+ ", line) if m.strip()]
        found.append(labels)
    return found


def test_bot_moves_are_one_line_each_and_the_table_is_drawn_only_on_your_turn(tmp_path):
    result = run_bot(tmp_path / "c.db", ["#2", "#1"] * 200, "--game", "ochs-esel",
                     "--bots", "3", "-o", "rounds=1", "-o", "deadline=off")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    narrated = [line for line in out.split("\n") if line.startswith("  · ")]
    tables = out.count("Ochs & Esel — in play")
    turns = out.count("Your moves:")
    assert len(narrated) > 2 * tables  # a move costs a line, not a redrawn table
    assert tables <= turns + 3  # your turns, the start and a redraw or two
    assert any("🤖" in line for line in narrated)
    for word in CHAT_WORDING:
        assert word not in out, word
    assert "Final ranking" in out


SIGNAL_MARKS = "✋⚠↩"  # The Game's signal buttons: please don't play here, no big jump, off


def test_your_moves_are_the_last_thing_above_the_prompt_and_none_is_hidden(tmp_path):
    """The Game deals 7 cards to two players: up to 28 plays, more than a chat shows."""
    db = tmp_path / "c.db"
    with Terminal(db, "--game", "the-game", "--bots", "1", "-o", "deadline=off",
                  "-o", "first=1") as term:
        screen = term.until_prompt().removesuffix("› ")
        above = [line for line in screen.rstrip().split("\n") if line.strip()]
        assert above[-1].startswith("#") and "Your moves:" in above
        assert "›" not in screen
        shown = blocks_of_moves(screen)[-1]
        term.send("/quit")
        term.wait_exit()
    row = sqlite3.connect(db).execute("SELECT snapshot FROM tables").fetchone()
    game = games.get("the-game")
    state = game.load(row[0])
    legal = list(game.legal_moves(state, 0))
    # Under the plays, both signals per pile (what a seat may say at any time).
    signals = [m for m in shown if m[:1] in SIGNAL_MARKS]
    shown = [m for m in shown if m[:1] not in SIGNAL_MARKS]
    assert sorted(signals) == sorted(f"{mark} {pile}" for mark in "✋⚠"
                                     for pile in ["A1", "A2", "D1", "D2"])
    assert len(shown) == len(legal) > 20
    assert {m.replace("→", " ").replace(" ↺", "") for m in shown} == {
        str(m).removeprefix("play ") for m in legal}


def test_ctrl_c_quits_at_once_and_says_the_game_is_saved(tmp_path):
    db = tmp_path / "c.db"
    with Terminal(db, "--game", "ochs-esel", "--bots", "2", "-o", "deadline=off") as term:
        term.until_prompt()
        started = time.monotonic()
        os.kill(term.proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        code = term.wait_exit()
        assert time.monotonic() - started < 10  # at once: no Enter needed, no hang
        assert code == 0
        assert "Game saved — run again to resume." in term.text()
        assert "Traceback" not in term.text()
    again = run_bot(db, ["/quit"])
    assert "Resuming your game of Ochs & Esel." in again.stdout


def test_ctrl_d_quits_at_once_and_says_the_game_is_saved(tmp_path):
    with Terminal(tmp_path / "c.db", "--game", "michigan", "--bots", "2",
                  "-o", "deadline=off") as term:
        term.until_prompt()
        term.write(b"\x04")  # Ctrl-D at the start of a line: the end of input
        assert term.wait_exit() == 0
        assert "Game saved — run again to resume." in term.text()


def test_colour_on_a_terminal_and_plain_text_with_no_color_or_a_pipe(tmp_path):
    with Terminal(tmp_path / "a.db", "--game", "michigan", "--bots", "2",
                  "-o", "deadline=off") as term:
        term.until_prompt()
        term.send("/quit")
        term.wait_exit()
        assert re.search(r"\x1b\[[0-9;]*m", term.raw())  # styles reach a terminal
    with Terminal(tmp_path / "b.db", "--game", "michigan", "--bots", "2",
                  "-o", "deadline=off", env={"NO_COLOR": "1"}) as term:
        term.until_prompt()
        term.send("/quit")
        term.wait_exit()
        assert not re.search(r"\x1b\[[0-9;]*m", term.raw())
    piped = run_bot(tmp_path / "c.db", ["/quit"], "--game", "michigan", "--bots", "2")
    assert "\x1b" not in piped.stdout and "♥" in piped.stdout + "♥"


def test_numbered_choices_never_wrap_in_the_middle_of_a_label(tmp_path):
    with Terminal(tmp_path / "c.db", "--game", "the-game", "--bots", "1",
                  "-o", "deadline=off", "-o", "first=1", columns=40) as term:
        screen = term.until_prompt()
        term.send("/quit")
        term.wait_exit()
    moves = screen.split("Your moves:\n")[-1]
    rows = [line for line in moves.split("\n") if line.startswith("#")]
    assert len(rows) > 3
    for line in rows:
        assert len(line.rstrip()) <= 40
        assert re.fullmatch(r"(#\d+ (?:[✋⚠↩] )?\S+(?: ↺)?\s*)+", line), line


def test_a_huge_line_and_control_characters_never_reach_the_terminal_raw(tmp_path):
    result = run_bot(tmp_path / "c.db", ["1" * 100_000, "\x1b[2J\x07", "/play \x1b]0;pwned\x07",
                                         "/quit"], "--game", "ochs-esel", "--bots", "2",
                     "-o", "deadline=off")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "That line is too long (100,000 characters)" in out
    assert "1" * 300 not in out
    assert "\x1b" not in out and "\x07" not in out


def test_a_refused_option_asks_for_the_options_again(tmp_path):
    result = run_bot(tmp_path / "c.db", ["1", "rounds=999", "ox=maybe", "rounds=2", "2",
                                         "/quit"])
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert out.count("Which game?") == 1
    assert out.count("Options again") == 2  # after rounds=999, after ox=maybe
    assert "Ochs & Esel has started" in out and "rounds=2" in out


def test_the_lobby_options_button_and_the_options_command_work(tmp_path):
    result = run_bot(tmp_path / "c.db", ["/cancel", "/newgame ochs rounds=2", "#3", "/options",
                                         "/options ox=yes", "/options rounds=0", "/quit"],
                     "--game", "the-game", "--bots", "1", "-o", "deadline=off")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    lobby = out.split("Table for Ochs & Esel opened.")[1]
    assert lobby.count("Options: rounds=2, ox=no") >= 2  # the button, then /options alone
    assert "Change them before the start with /options key=value." in lobby
    assert "ox=yes" in lobby and "rounds" in lobby.split("ox=yes")[-1]
    assert "Commands:" not in lobby  # not the help instead


def test_rules_during_a_game_are_the_rules_of_that_game(tmp_path):
    result = run_bot(tmp_path / "c.db", ["/rules", "/rules michigan", "/quit"],
                     "--game", "nix-fur-ungut", "--bots", "1", "-o", "deadline=off")
    assert "Rules of which game?" not in result.stdout
    assert "Nix für Ungut (2–5)" in result.stdout and "Michigan (3–8)" in result.stdout


def test_without_a_game_the_console_says_so_in_its_own_words(tmp_path):
    result = run_bot(tmp_path / "c.db", ["2", "", "1", "/cancel", "/hand", "/table", "/help",
                                         "/quit"])
    out = result.stdout
    assert "No game is being played. Start one with /newgame <game>." in out
    assert "Goodbye." in out and "Game saved" not in out
    for word in [*CHAT_WORDING, "/kick", "/mentions"]:
        assert word not in out, word


def test_the_console_speaks_french(tmp_path):
    result = run_bot(tmp_path / "c.db", ["/hand", "/quit"], "--lang", "fr", "--game",
                     "ochs-esel", "--bots", "2", "-o", "deadline=off")
    out = result.stdout
    assert "La partie de Ochs & Esel commence" in out or "Ochs & Esel commence" in out
    assert "Partie enregistrée — relancez pour la reprendre." in out
    for word in CHAT_WORDING:
        assert word not in out, word
    switched = run_bot(tmp_path / "c.db", ["/lang fr", "/help", "/quit"])
    assert "La console parle désormais français." in switched.stdout
    assert "Tapez un coup" in switched.stdout and "ce salon" not in switched.stdout


def test_a_database_in_a_missing_folder_is_one_line_and_no_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "TELEGRAM_TOKEN"}}
    for _ in range(3):  # the leftover thread used to lose a race with the loop's close
        result = subprocess.run(
            [sys.executable, "-m", "bot", "--database", "sqlite:////nonexistent/dir/x.db"],
            input="", capture_output=True, text=True, cwd=tmp_path, timeout=60,
            env={**env, "PYTHONPATH": str(ROOT)}, check=False)
        assert result.returncode == 2
        assert result.stderr.strip().count("\n") == 0, result.stderr
        assert "cannot open the database" in result.stderr
        assert "Event loop is closed" not in result.stderr + result.stdout


@pytest.mark.parametrize("text", ["plain", "\x1b[31mred\x1b[0m"])
def test_the_screen_cleaner_leaves_nothing_a_terminal_would_obey(text):
    from adapters.console.screen import clean

    shown = clean(text + "x" * 5000)
    assert not ANSI.search(shown) and "\x1b" not in shown
    assert len(shown) < 2100 and shown.endswith("…")



def test_a_rounds_end_shows_its_summary_then_the_whole_table(tmp_path):
    result = run_bot(tmp_path / "c.db", ["#2", "#1"] * 200, "--game", "ochs-esel",
                     "--bots", "2", "-o", "rounds=2", "-o", "deadline=off")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    after = out.split("Round 1 is over. Penalty points (lowest total wins):\n", 1)[1]
    summary, _, rest = after.partition("\n\n")
    assert len(summary.split("\n")) == 3  # one line per player
    # Then the next round's first line (not before the summary), then the table.
    assert "Round 2 starts" not in out.split("Round 1 is over")[0]
    lines = rest.split("\n")
    assert lines[0].startswith("  · Round 2 starts; ") and lines[0].endswith(" leads")
    assert lines[3:5] == ["🃏 Ochs & Esel — in play", "Round 2/2"]


def test_a_deal_summary_never_buries_your_moves(tmp_path):
    """Michigan: the deal's summary and the next deal's table come first, then the moves,
    so a dealer's decision is the last thing on the screen."""
    result = run_bot(tmp_path / "c.db", ["#1"] * 150, "--game", "michigan", "--bots", "2",
                     "-o", "chips=20", "-o", "deadline=off")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    you = getpass.getuser().capitalize()  # the console seats you under your login name
    checked = 0
    for after in out.split("Deal 1 is over. A chip per card left")[1:]:
        # Your own moves: a pass or a lead the engine made for you (you could not outbid,
        # or had one suit left to lead) is not one.
        mine = [line for line in after.split("\n") if line.startswith(f"  · {you} ")
                and "cannot outbid" not in line and " must lead " not in line]
        if not mine:
            continue  # the input ran out before you acted again
        # Shown again before you act.
        assert after.index("Your moves:") < after.index(mine[0]), after[:3000]
        checked += 1
    assert checked


def test_on_a_terminal_a_refusal_is_followed_by_the_prompt_again(tmp_path):
    # Easy bots: a strong bot of The Game may signal at any time, and its line would come
    # between the refusal and this test's read of the screen.
    with Terminal(tmp_path / "c.db", "--game", "the-game", "--bots", "1", "-o", "deadline=off",
                  "-o", "first=1", "-o", "bots=easy") as term:
        term.until_prompt()
        term.send("150 A1")
        screen = term.until_prompt()
        assert "“150” is not a card of this game." in screen
        assert screen.rstrip().endswith("›")  # where to type is shown again
        term.send("/quit")
        assert term.wait_exit() == 0
