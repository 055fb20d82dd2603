"""What the web page is told about a table: one seat's view, or the public's, as JSON-able
data, and when to ask again.

The page draws cards itself, so it gets the engine's view rather than sentences: what
`game.view(state, seat)` lets that seat see (the public view for a spectator), never
more. Another seat's hand is never part of it while the game runs; once the game is over
every hand is public, as in the chat's final ranking.

A page learns that a table changed from the deliveries bot/ already makes for it: the
outbox tells its watchers of each one as it is queued (`Watchers.attach`), before any
platform's pacing, and they read the table as it is then. A ping is only "look again":
what is sent is drawn from the table in memory, never from the delivery.
"""

import asyncio
import functools
import hmac
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from bot import present, renderers
from bot.i18n import CATALOGUES, LANGS, t
from bot.live import NARRATION_LINES, Live
from bot.render import decode_ref
from bot.replay import replay_path
from bot.tables import Tables
from db.repository import FINISHED, LOBBY, PLAYING

log = logging.getLogger(__name__)

MOST_MOVES = 600  # a hand's legal moves (Nix's combinations run to a few hundred)


class Watchers:
    """Who wants to know that a table changed: callables taking the table's id."""

    def __init__(self) -> None:
        self._by_table: dict[int, set[Callable[[int], None]]] = {}
        self._pending: set[int] = set()

    def attach(self, tables: Tables) -> None:
        """Hear of every delivery `tables` queues: a move's commit, as its pages see it."""
        tables.outbox.observe(lambda delivery: self.changed(delivery.table_id))

    def watching(self) -> list[int]:
        """The tables some page shows."""
        return list(self._by_table)

    def watch(self, table_id: int, ping: Callable[[int], None]) -> Callable[[], None]:
        """Start pinging `ping`; the answer stops it."""
        self._by_table.setdefault(table_id, set()).add(ping)

        def stop() -> None:
            pings = self._by_table.get(table_id)
            if pings is not None:
                pings.discard(ping)
                if not pings:
                    del self._by_table[table_id]
        return stop

    def changed(self, table_id: int | None) -> None:
        """A move makes several deliveries at once (the table, each hand): its watchers
        are told once, when the move's work has let the event loop go."""
        if table_id is None or table_id not in self._by_table:
            return
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._tell)
        self._pending.add(table_id)

    def _tell(self) -> None:
        pending, self._pending = self._pending, set()
        for table_id in pending:
            for ping in list(self._by_table.get(table_id, ())):
                try:
                    ping(table_id)
                except Exception:  # one page's failure is no table's
                    log.exception("a web page could not be told of a change")

    def count(self) -> int:
        return sum(len(pings) for pings in self._by_table.values())


async def genuine_table(tables: Tables, ref: str) -> int | None:
    """The id of the table `ref` names, if this bot made `ref`; None for a forged one."""
    decoded = decode_ref(ref)
    if decoded is None:
        return None
    expected = await tables.ref(decoded[0])
    return decoded[0] if hmac.compare_digest(expected.encode(), ref.encode()) else None


async def seat_view(tables: Tables, table_id: int, user_id: str | None,
                    lang: str | None = None) -> dict[str, Any] | None:
    """The table as `user_id`'s seat sees it (the public's when they hold none), JSON-able;
    None when the table cannot be read."""
    live = await tables.live_table(table_id)
    if live is None:
        return None
    row = live.row
    if lang is None:
        lang = await (tables.lang_of(user_id, row.channel) if user_id
                      else tables.channel_lang(row.channel))
    holder = live.seat_of(user_id) if user_id else None
    seat = holder.seat if holder is not None else None
    ref = live.ref or await tables.ref(row.id)
    return {**public_part(live, ref, lang), **seat_part(live, seat, tables.clock.now(), lang)}


def public_part(live: Live, ref: str, lang: str) -> dict[str, Any]:
    """What every page of this table version in `lang` is sent alike, whoever reads it:
    the names, the narration, the words, and once the game is over every hand. It takes no
    seat, so that a page server may draw it once for all its pages (`seat_part` adds what
    one seat sees). The names and narration are `lang`'s: it is kept per language."""
    row = live.row
    names = present.names(live, lang)
    out: dict[str, Any] = {
        "table": {"id": row.id, "ref": ref, "game": row.game, "name": live.game.NAME,
                  "status": row.status, "version": row.version,
                  "title": str(row.settings.get("title", ""))},
        "lang": lang,
        # Whose seat is whose is the frame's "seat": the names are everyone's alike.
        "seats": [{"name": names[s.seat] if s.seat < len(names) else s.name, "bot": s.is_bot}
                  for s in live.seats],
        "extra_names": names[len(live.seats):],
        "hands": None, "outcome": None, "last": [],
        "lines": present.table(live, lang).lines,
        "words": words(lang),
    }
    state = live.state
    if state is None or row.status == LOBBY:
        return out
    game = live.game
    over = game.outcome(state)
    out["last"] = last_said(live, lang)
    if over is not None or row.status == FINISHED:
        # The game is over: every hand is public now.
        out["hands"] = [game.view(state, s).get("hand") for s in range(len(live.seats))]
        if over is not None:
            out["outcome"] = {"scores": list(over.scores), "ranking": list(over.ranking)}
        if row.status == FINISHED:
            out["replay"] = replay_path(ref)
    return out


def last_said(live: Live, lang: str) -> list[str]:
    """The table's last moves as its message shows them (`Live.last_lines`), in `lang`.
    A move is put into words in its channel's language; a page reads the reader's, so a
    move told in another is said again from the events it keeps (`present.told`'s
    arguments end with the language), once per table version and language."""
    said: list[list[str]] = []
    count = 0
    for told in reversed(live.told):
        lines = told.lines
        if len(told.args) == 4 and told.args[3] in LANGS and told.args[3] != lang:
            try:
                lines = told.say(*told.args[:3], lang)
            except Exception:  # a narration bug costs the translation, not the page
                log.exception("a move could not be told in %s", lang)
        said.append(lines)
        count += len(lines)
        if count >= NARRATION_LINES:
            break
    return [line for lines in reversed(said) for line in lines][-NARRATION_LINES:]


def seat_part(live: Live, seat: int | None, now: float, lang: str) -> dict[str, Any]:
    """What `seat` (None: the public) sees beyond `public_part`: its own view of the game
    (its hand while the game runs, nothing of another seat's), its moves (labelled in
    `lang`) and deadline."""
    row = live.row
    out: dict[str, Any] = {
        "seat": seat, "view": None, "moves": [], "to_act": [], "deadline_in": None,
    }
    state = live.state
    if state is None or row.status == LOBBY:
        return out
    game = live.game
    if seat is not None and row.status == PLAYING:
        view = dict(live.seat_view(seat))
    else:
        view = dict(live.public_view())
    out["view"] = view
    out["to_act"] = list(view.get("to_act", []))
    if game.outcome(state) is None and row.status == PLAYING:
        if seat is not None and seat in game.to_act(state):
            out["moves"] = _moves(live, seat, view, lang)
        deadline = live.deadline
        if deadline is not None and deadline.version == row.version:
            out["deadline_in"] = max(0.0, deadline.due_at - now)
            out["deadline_seat"] = deadline.seat
    return out


def _moves(live: Live, seat: int, view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The seat's legal moves as the chat writes them (`text`, what is played), each with
    the cards of the hand it plays (the page highlights them and matches a selection
    against them) and its label in the reader's language: the chat's own button's where
    the chat has one, else the words of its every-move list."""
    assert live.state is not None
    held = Counter(str(card) for card in view.get("hand") or [])
    legal = live.game.legal_moves(live.state, seat)[:MOST_MOVES]
    renderer = renderers.for_game(live.row.game)
    buttons, _ = renderer.move_buttons(view, legal, lang)
    labels = {b.action[2:]: b.label for b in buttons if b.action.startswith("m:")}
    out = []
    for move in legal:
        text = str(move)
        left = held.copy()
        cards = []
        for word in text.split()[1:]:
            if left[word] > 0:
                left[word] -= 1
                cards.append(word)
        label = labels.get(text) or renderer.move_label(view, move, lang)
        out.append({"text": text, "cards": cards, "label": label})
    return out


# The page's own words (bot/locales/*/web.ftl) and a few of the chat's; a sentence with a
# parameter is sent with `{name}` in its place, which the page fills.
_ROWS = ("quad", "run4", "triple", "run3", "pair", "run2", "single", "none")
_WORDS = ("table_last", "table_over", "table_cancelled",
          *(f"nix.row{kind}.{row}" for row in _ROWS for kind in ("", "name")))
_PARAMS = {"web_waiting": ("names",), "web_seconds": ("seconds",), "web_draw_pile": ("count",),
           "web_round": ("round", "rounds"), "web_replay_step": ("step", "steps"),
           "web_replay_round": ("round",)}


@functools.lru_cache(maxsize=16)
def words(lang: str) -> dict[str, str]:
    """The sentences the page shows as they are, in the reader's language: the same for
    every frame in that language, so put into words once (not to be changed)."""
    keys = [*_WORDS, *(key for key in CATALOGUES.get("en", {}) if key.startswith("web_"))]
    return {key: t(lang, key, **{name: f"{{{name}}}" for name in _PARAMS.get(key, ())})
            for key in keys}
