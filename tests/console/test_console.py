"""`python -m bot` with no chat token: a table in the terminal, saved between runs."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bot(db: Path, lines: list[str], *args: str,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**{k: v for k, v in os.environ.items()
              if k not in {"DISCORD_TOKEN", "TELEGRAM_TOKEN"}}, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "bot", "--database", f"sqlite:///{db}", "--bot-delay", "0",
         *args],
        input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=db.parent,
        env={**env, "PYTHONPATH": str(ROOT)}, timeout=120, check=False)


def test_help_documents_the_console_and_settings(tmp_path):
    out = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    assert "DISCORD_TOKEN" in out and "--game" in out and "#N" in out


def test_a_short_game_played_from_stdin_ends_with_the_ranking(tmp_path):
    db = tmp_path / "console.db"
    presses = ["#1"] * 400  # the first button of the hand is always a legal move
    result = run_bot(db, presses, "--game", "ochs-esel", "--bots", "2", "-o", "rounds=1",
                     "-o", "deadline=off")
    assert result.returncode == 0, result.stderr
    assert "Ochs & Esel has started" in result.stdout
    assert "Final ranking" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_quitting_and_starting_again_resumes_the_game(tmp_path):
    db = tmp_path / "console.db"
    first = run_bot(db, ["#1", "#1", "/quit"], "--game", "the-game", "--bots", "1",
                    "-o", "deadline=off")
    assert first.returncode == 0, first.stderr
    assert "The Game has started" in first.stdout
    second = run_bot(db, ["/scores", "/quit"])
    assert second.returncode == 0, second.stderr
    assert "Resuming your game of The Game." in second.stdout
    assert "Your hand:" in second.stdout


def test_choosing_a_game_interactively_and_typing_moves(tmp_path):
    db = tmp_path / "console.db"
    result = run_bot(db, ["1", "rounds=1 deadline=off", "2", "pass", "play 99", "/rules",
                          "/rules nix", "/help", "/quit"])
    assert result.returncode == 0, result.stderr
    assert "Which game?" in result.stdout and "Ochs & Esel (ochs-esel)" in result.stdout
    assert "“99” is not a card of this game." in result.stdout
    assert "Nix für Ungut (2–5)" in result.stdout
    assert "/newgame" in result.stdout


def test_a_bad_database_url_or_setting_is_one_clear_line_not_a_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": "mysql://somewhere"}
    env.pop("DISCORD_TOKEN", None)
    env.pop("TELEGRAM_TOKEN", None)
    bad_db = subprocess.run([sys.executable, "-m", "bot"], input="", capture_output=True,
                            text=True, cwd=tmp_path, env=env, timeout=60, check=False)
    assert bad_db.returncode == 2 and "cannot open the database" in bad_db.stderr
    assert "Traceback" not in bad_db.stderr
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'x.db'}", TURN_DEADLINE="-5")
    bad_setting = subprocess.run([sys.executable, "-m", "bot"], input="", capture_output=True,
                                 text=True, cwd=tmp_path, env=env, timeout=60, check=False)
    assert bad_setting.returncode == 2 and "TURN_DEADLINE" in bad_setting.stderr
    assert "Traceback" not in bad_setting.stderr


def test_a_wrong_answer_while_setting_up_is_asked_again_not_fatal(tmp_path):
    db = tmp_path / "console.db"
    result = run_bot(db, ["help", "4", "rounds=banana", "chips=20", "20", "²", "3",
                          "#²", "#99999999999999999999", "/table", "/quit"])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "I don't know the game “help”" in out
    assert out.count("Which game?") == 2  # after the unknown game, not after a bad option
    assert out.count("Options (the defaults:") == 1  # not asked for a game that does not exist
    assert "Options again" in out  # a refused option asks for the options again
    assert "Type a number from 2 to 7, or Enter." in out
    assert "Michigan has started" in out and "Traceback" not in out + result.stderr
    assert "chips=20" in out


def test_mydata_prints_the_stored_data_and_forgetme_asks_then_forgets(tmp_path):
    import json
    import sqlite3

    db = tmp_path / "console.db"
    played = run_bot(db, ["/lang fr", "#1", "#1", "/quit"], "--game", "the-game", "--bots", "1",
                     "-o", "deadline=off")
    assert played.returncode == 0, played.stderr
    shown = run_bot(db, ["/mydata", "/quit"])
    assert shown.returncode == 0, shown.stderr
    start = shown.stdout.index('{\n  "about"')
    data, _ = json.JSONDecoder().raw_decode(shown.stdout[start:])
    assert data["user_id"] == "you" and [e["game"] for e in data["tables"]] == ["the-game"]
    name = data["tables"][0]["seats"][0]["name"]
    assert name.encode() in db.read_bytes()

    # Asked, then kept: nothing changes; asked again and confirmed: forgotten.
    kept = run_bot(db, ["/forgetme", "#2", "/quit"])
    assert "#1 " in kept.stdout and "#2 " in kept.stdout
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT name FROM seats WHERE user_id = 'you'").fetchall()
    forgot = run_bot(db, ["/forgetme", "#1", "/quit"])
    assert forgot.returncode == 0, forgot.stderr
    assert "Done: I no longer store your name" in forgot.stdout
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM seats WHERE user_id = 'you'"
                                  " OR former_user_id = 'you'").fetchone() == (0,)
        assert connection.execute("SELECT COUNT(*) FROM user_settings").fetchone() == (0,)
    assert name.encode() not in db.read_bytes()


def test_a_whole_game_in_german_with_lang_de_shows_no_english_sentence(tmp_path):
    from tests.english import english_sentences

    db = tmp_path / "console.db"
    presses = ["#1"] * 400 + ["quatsch", "/rules ochs", "/help", "/quit"]
    result = run_bot(db, presses, "--lang", "de", "--game", "ochs-esel", "--bots", "2",
                     "-o", "runden=1", "-o", "frist=aus", "-o", "bots=leicht")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Ochs und Esel hat begonnen" in out and "Endstand" in out
    assert "Befehle:" in out and "Ochs und Esel (3–12 Spieler)" in out
    assert "Optionen: rounds=1, ox=nein, deadline=aus" in out
    assert english_sentences(out) == []
    assert "Traceback" not in out + result.stderr


def test_a_game_against_bots_is_rated_and_the_ratings_commands_answer(tmp_path):
    db = tmp_path / "console.db"
    presses = ["#1"] * 400
    result = run_bot(db, [*presses, "/rating", "/rating Nobody", "/leaderboard ochs 2026-Q9",
                          "/leaderboard ochs", "/quit"],
                     "--game", "ochs-esel", "--bots", "2", "-o", "rounds=1",
                     "-o", "deadline=off")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "New ratings:" in out
    ranking = out.split("New ratings:")[1].strip().splitlines()[0]
    assert ranking.split()[-1].startswith("(") and "1," in ranking  # "You 1,512 (+14)"
    assert "in this group, season" in out  # /rating: the person at the keyboard
    assert "Nobody has not played a rated game in this group." in out
    assert "There is no season “2026-Q9” in this group." in out
    # The rematch buttons numbered after each ranking played on: games enough to be listed.
    assert "🏆 Ochs & Esel, season" in out and "players listed" in out
    assert "Traceback" not in out + result.stderr
