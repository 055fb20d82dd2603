"""What every reliability test checks on the stored tables, read with plain sqlite3.

The move log is the truth (docs/architecture.md): a table is consistent when its snapshot is the
engine dump of its move log replayed from the seed, and its moves are numbered 1..n
without a gap or a duplicate, n being the table's version.
"""

import json
import re
import sqlite3
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import renderers
from bot.i18n import CATALOGUES
from engine import games


@dataclass
class Stored:
    id: int
    channel: str
    game: str
    status: str
    version: int
    snapshot: str | None
    seqs: list[int]
    replayed: str | None
    finished: bool  # the replayed state has an outcome
    results: int


def stored_tables(path: Path) -> list[Stored]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT id, channel, game, status, version, snapshot, options, seed"
                          " FROM tables ORDER BY id").fetchall()
        out = []
        for table_id, channel, game_id, status, version, snapshot, options, seed in rows:
            moves = db.execute("SELECT seq, seat, move FROM moves WHERE table_id = ?"
                               " ORDER BY seq", (table_id,)).fetchall()
            seats = db.execute("SELECT COUNT(*) FROM seats WHERE table_id = ?",
                               (table_id,)).fetchone()[0]
            results = db.execute("SELECT COUNT(*) FROM results WHERE table_id = ?",
                                 (table_id,)).fetchone()[0]
            game = games.get(game_id)
            replayed, finished = None, False
            if snapshot is not None:
                state = game.new_game(seats, json.loads(options), seed)
                for _, seat, move in moves:
                    state, _ = game.apply(state, seat, game.parse_move(state, seat, move))
                replayed = game.dump(state)
                finished = game.outcome(state) is not None
            out.append(Stored(table_id, channel, game_id, status, version, snapshot,
                              [m[0] for m in moves], replayed, finished, results))
        return out
    finally:
        db.close()


def assert_consistent(table: Stored) -> None:
    assert table.seqs == list(range(1, table.version + 1)), (
        f"table {table.id}: seqs {table.seqs[:5]}... do not run 1..{table.version}")
    if table.snapshot is not None:
        assert table.snapshot == table.replayed, (
            f"table {table.id}: snapshot differs from the replay of its move log")


for _game_id in games.ids():
    renderers.for_game(_game_id)  # registers the game's sentences in the catalogue


def _shape(template: str) -> re.Pattern[str]:
    pattern = ""
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        pattern += re.escape(literal)
        if name is not None:
            pattern += ".*"
    return re.compile(pattern, re.DOTALL)


SHAPES: dict[str, list[re.Pattern[str]]] = {
    lang: [_shape(text) for text in catalogue.values()] for lang, catalogue in CATALOGUES.items()
}


def is_catalogue_sentence(text: str, lang: str = "en") -> bool:
    """A refusal a person can read: one of the catalogue's sentences with its blanks filled."""
    if not text.strip() or "Traceback" in text or re.fullmatch(r"[a-z_.]+", text):
        return False
    return any(shape.fullmatch(text) for shape in SHAPES[lang])


def row_state(path: Path) -> list[tuple[Any, ...]]:
    """Everything a refusal must leave alone: every table, seat and move."""
    db = sqlite3.connect(path)
    try:
        return [
            *db.execute("SELECT id, status, version, snapshot, host, settings, options"
                        " FROM tables ORDER BY id").fetchall(),
            *db.execute("SELECT * FROM seats ORDER BY table_id, seat").fetchall(),
            *db.execute("SELECT table_id, seq, move FROM moves ORDER BY table_id, seq")
            .fetchall(),
        ]
    finally:
        db.close()
