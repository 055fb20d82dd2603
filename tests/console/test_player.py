"""The player's first console game (issue #36): what they see at 80 and 120 columns, how
they type, which language they read, what the start-up asks, and what is printed."""

import re
import sqlite3
import time

import pytest
from rich.cells import cell_len

from bot.i18n import t
from tests.console.pty_run import Terminal
from tests.console.test_console import run_bot


def printed_lines(screen: str) -> list[str]:
    """What the program printed, without the prompt lines (what was typed)."""
    shown = [line.split("\r")[-1] for line in screen.split("\n")]  # after an erased prompt
    return [line for line in shown if not line.startswith("› ")]


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("columns", [80, 120])
def test_text_wraps_at_word_boundaries_and_emoji_count_two_cells(tmp_path, columns):
    with Terminal(tmp_path / "c.db", "--game", "ochs-esel", "--bots", "2", "-o", "bots=easy",
                  columns=columns) as term:
        term.until_prompt()
        for command in ["/rules", "/help", "/rules the-game", "#1"]:
            term.send(command)
            term.until_prompt()
        time.sleep(1)  # the bots' moves
        term.send("/quit")
        term.wait_exit()
        screen = term.text()
    lines = printed_lines(screen)
    too_wide = [line for line in lines if cell_len(line) >= columns]
    assert not too_wide, too_wide  # the terminal never wraps a line by itself
    flowing = words("\n".join(lines))
    # Every sentence whole (a word cut in two would read "o nce"), code shown unquoted.
    rules = words(t("en", "rules.ochs-esel").replace("`", ""))
    assert rules in flowing
    assert words(t("en", "rules.the-game").replace("`", "")) in flowing
    assert "/join" in flowing and "`" not in flowing
    if columns == 80:  # a continued line starts under the text of its bullet
        assert any(re.match(r"  [^ ·]", line) for line in lines)


def test_the_games_moves_with_signal_hands_fit_80_columns_and_no_big_jump_is_a_choice(
        tmp_path):
    with Terminal(tmp_path / "c.db", "--game", "the-game", "--bots", "1", "-o", "first=1",
                  "-o", "bots=easy", columns=80) as term:
        screen = term.until_prompt()
        rows = [line for line in printed_lines(screen) if line.startswith("#")]
        assert any("✋" in row for row in rows)
        assert all(cell_len(row) < 80 for row in rows), rows
        small = re.search(r"#(\d+) ⚠ A1", screen)
        assert small, screen
        term.send(f"#{small.group(1)}")
        term.wait_for("asks: no big jump on A1.")
        term.send("/quit")
        term.wait_exit()


def test_the_prompt_edits_with_arrows_and_remembers_lines(tmp_path):
    with Terminal(tmp_path / "c.db", "--game", "ochs-esel", "--bots", "2", "-o", "bots=easy",
                  columns=100) as term:
        term.wait_for("Your moves:")
        term.until_prompt()
        term.write(b"abc\x1b[D\x1b[DX\r")  # left twice, then X: aXbc
        term.wait_for("“axbc” is not a card")
        term.until_prompt()  # typed at the prompt, as a person does (not typed ahead)
        term.write(b"\x1b[A\x1b[4~Z\r")  # Up brings it back, End goes to its end
        screen = term.wait_for("“axbcz” is not a card")
        assert "[4~" not in screen and "^[" not in screen
        term.send("/quit")
        assert term.wait_exit() == 0


def test_the_console_speaks_the_tables_language_after_a_restart_and_lang_sets_it(tmp_path):
    db = tmp_path / "c.db"
    first = run_bot(db, ["/lang de", "/quit"], "--game", "ochs-esel", "--bots", "2")
    assert first.returncode == 0, first.stderr
    again = run_bot(db, ["/hand", "/help", "/quit"])
    out = again.stdout
    assert "Dein Spiel Ochs und Esel geht weiter." in out
    assert "Befehle:" in out and "Commands:" not in out
    assert "Your moves:" not in out and "Resuming" not in out
    assert "Spiel gespeichert" in out
    # --lang on a table once set to German: English from then on, for the table too.
    english = run_bot(db, ["/help", "/quit"], "--lang", "en")
    assert "Resuming your game of Ochs & Esel." in english.stdout
    assert "Commands:" in english.stdout and "Befehle:" not in english.stdout
    assert "Ochs & Esel — in play" in english.stdout
    assert "Resuming your game of Ochs & Esel." in run_bot(db, ["/quit"]).stdout


def test_an_option_refused_at_the_start_asks_again_instead_of_quitting(tmp_path):
    result = run_bot(tmp_path / "c.db", ["2", "first=4", "2", "first=1", "/quit"])
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "“first” goes from 1 to 3." in out
    assert "Which options instead" in out
    assert "The Game has started" in out
    assert "Game saved" in out


def test_quitting_at_a_question_is_not_a_failure(tmp_path):
    result = run_bot(tmp_path / "c.db", ["/quit"])
    assert result.returncode == 0, result.stderr
    assert "Goodbye." in result.stdout


def test_an_old_finished_table_is_not_drawn_into_the_start_questions(tmp_path):
    db = tmp_path / "c.db"
    run_bot(db, ["/cancel", "/quit"], "--game", "nix", "--bots", "1")
    result = run_bot(db, ["/quit"])
    out = result.stdout
    assert "Which game?" in out
    assert "cancelled" not in out and "Nix für Ungut —" not in out and "#1" not in out


def test_a_console_table_has_no_deadline_unless_asked(tmp_path):
    plain = run_bot(tmp_path / "a.db", ["/options", "/quit"], "--game", "ochs-esel",
                    "--bots", "2", env={"TURN_DEADLINE": "300"})
    assert "deadline=off" in plain.stdout and "deadline=300s" not in plain.stdout
    row = sqlite3.connect(tmp_path / "a.db").execute("SELECT settings FROM tables").fetchone()
    assert '"deadline":0,' in row[0].replace(" ", "")
    asked = run_bot(tmp_path / "b.db", ["/quit"], "--game", "ochs-esel", "--bots", "2",
                    "-o", "deadline=60")
    assert "deadline=60s" in asked.stdout


def test_what_changed_is_printed_once(tmp_path):
    """One lobby for the bots added at the start; a signal of a bot during your turn is
    one line; a card played within your turn reprints your hand, not the table."""
    result = run_bot(tmp_path / "c.db", ["#1", "#1", "/quit"], "--game", "the-game",
                     "--bots", "3", "-o", "first=1")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert out.count("waiting for players") == 1
    assert "#1 Join" not in out  # you are seated already
    assert out.count("The Game — in play") == 1  # your turn's start, not each card
    assert out.count("Your moves:") == 3  # your turn, then after each card played


def test_the_game_signals_and_cards_within_a_turn_do_not_reprint_the_table(tmp_path):
    """Strong bots signal at once, and you play a card: the table is not printed again
    for a signal (it changes no move) nor for a card within your turn."""
    db = tmp_path / "c.db"
    result = run_bot(db, ["#1", "/quit"], "--game", "the-game", "--bots", "2",
                     "-o", "first=2")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    signals = len(re.findall(r"asks: |withdraws their signal", out))
    assert out.count("Your moves:") <= 2 and out.count("The Game — in play") <= 2, (signals, out)


def test_smaller_things(tmp_path):
    db = tmp_path / "c.db"
    # A command at the bots question leaves you in the lobby, to fill and start by hand.
    result = run_bot(db, ["/frobnicate", "/help", "/cancel", "/newgame ochs",
                          "/options bot_delay=0.5", "/options deadline=10s",
                          "/options rounds=99", "/cancel", "/newgame The Game", "2", "/quit"],
                     "--game", "ochs-esel", "--bots", "2")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "I don't know the command “/frobnicate”; /help lists them." in out
    assert out.count("Commands:") == 1  # /help, not the unknown command
    assert "signal A1 small" in out
    # Every option refused alike; bot_delay shown like every other setting.
    assert "These options don't work: “deadline” goes from 30 to 86,400 seconds, or off." in out
    assert "These options don't work: “rounds” goes from 1 to 20." in out
    assert "bot_delay=0.5s" in out
    # /newgame in several words, then the bots question and the start, as at first.
    after = out.split("Table for The Game opened.")[1]
    assert "How many bot opponents" in after and "The Game has started" in after
    seats = sqlite3.connect(db).execute(
        "SELECT COUNT(*) FROM seats JOIN tables ON tables.id = seats.table_id"
        " WHERE tables.game = 'the-game'").fetchone()
    assert seats == (3,)


def test_commands_answer_at_the_game_question_and_newgame_names_the_game(tmp_path):
    with Terminal(tmp_path / "c.db", "--lang", "de", columns=80) as term:
        assert "Welches Spiel?" in term.until_prompt()
        term.send("/help")
        screen = term.until_prompt()
        assert "Befehle:" in screen and "kenne ich nicht" not in screen
        term.send("/newgame the game")
        term.until_prompt()  # the options
        term.send("")
        term.until_prompt()  # how many bots
        term.send("1")
        term.wait_for("The Game hat begonnen")
        term.send("/quit")
        assert term.wait_exit() == 0
        last = term.text().rstrip().rsplit("\n", 1)[-1]
        assert last.endswith("Spiel gespeichert — starte neu, um weiterzuspielen."), last
        assert "›" not in term.text().split("Spiel gespeichert")[-1]  # no prompt after it


def test_bot_moves_arriving_at_the_prompt_leave_no_empty_prompt_behind(tmp_path):
    """The prompt is out while the bots play: each of their lines takes its place (erased,
    printed, drawn again below), so the screen never keeps an empty "›" above them. The
    lobby's numbers are gone once the game starts: #1 is not the lobby's Leave."""
    with Terminal(tmp_path / "c.db", "--game", "the-game", "--bots", "1", "-o", "first=2",
                  "-o", "bots=easy", "--bot-delay", "0.5", columns=80) as term:
        term.until_prompt()
        term.send("#1")
        term.wait_for("There is no choice with that number")
        term.wait_for("Your moves:")
        term.until_prompt()
        term.send("/quit")
        assert term.wait_exit() == 0
        raw = term.raw()
    assert "You left the game" not in raw
    assert raw.count("› ") > 3
    for shown in re.finditer("› ", raw):
        after = raw[shown.end():shown.end() + 6]
        assert after.startswith(("\r\x1b[2K", "#1\r\n", "/quit")) or not after, repr(after)


def test_ctrl_c_while_typing_gives_the_terminal_back_as_it_was(tmp_path):
    """readline reads with echo and line mode off; quitting mid-line turns them back on,
    or the shell after it would not show what is typed."""
    import os
    import signal
    import termios

    with Terminal(tmp_path / "c.db", "--game", "ochs-esel", "--bots", "2") as term:
        term.until_prompt()
        term.write(b"ab")
        time.sleep(0.5)
        assert not termios.tcgetattr(term.master)[3] & termios.ECHO  # readline echoes
        os.kill(term.proc.pid, signal.SIGINT)
        assert term.wait_exit() == 0
        modes = termios.tcgetattr(term.master)[3]
        assert modes & termios.ECHO and modes & termios.ICANON
        assert "Game saved" in term.text()


@pytest.mark.parametrize("game", ["nix-fur-ungut", "the-game", "michigan", "ochs-esel"])
def test_the_options_question_shows_the_chosen_games_defaults_and_they_type_back(
        tmp_path, game):
    """After "Which game?", the example is that game's own options (not Ochs & Esel's `ox`
    for every game), in the table's language, and typed back as shown they open it."""
    first = run_bot(tmp_path / "a.db", [game, "/quit"], "--lang", "de")
    asked = re.search(r"Optionen \(Standard: ([^)]*)\), Enter behält sie:", first.stdout)
    assert asked is not None, first.stdout
    example = asked[1].split()
    names = {word.split("=")[0] for word in example}
    assert names and ("ox" in names) == (game == "ochs-esel"), example

    typed = run_bot(tmp_path / "b.db", [game, " ".join(example), "2", "/quit"], "--lang", "de")
    assert typed.returncode == 0, typed.stderr
    assert "passen nicht" not in typed.stdout and "eröffnet" in typed.stdout, typed.stdout
