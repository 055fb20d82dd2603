"""A finished game, move by move, for its replay page.

The move log is the truth: a replay plays the stored moves through the engine from the
table's deal (`new_game` with its stored options and seed), and shows after each one
what the table showed and every hand, since once the game is over nothing is hidden any
more. Nothing is stored for a replay: it is drawn from the table's rows when asked for,
so RETENTION_DAYS, which deletes a game's rows, deletes its replay with them, and
/forgetme, which renames a person's seats, renames them in its replay too.

A replay is public to whoever holds its link, which carries the table's reference (the
one its buttons carry, `Tables.ref`): only a finished game has one. A game in play, in
its lobby or paused keeps its hands hidden, and so does a cancelled one: its players were
promised hidden hands until the game's end, which a cancelled game never reached (its
channel was never shown them either).
"""

import asyncio
import hmac
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote

from bot import options as table_options
from bot import present, renderers
from bot.i18n import LANGS, t
from bot.live import Live
from bot.render import decode_ref
from db.repository import CANCELLED, FINISHED, MoveRow, Repository, SeatRow, TableRow
from engine import games
from engine.core.visible import fit_for

log = logging.getLogger(__name__)

KEPT = 32  # replays drawn and kept, for a link opened by many at once
RefOf = Callable[[int], Awaitable[str]]


def replay_path(ref: str) -> str:
    """The replay page's path on the web server, for the table `ref` (`Tables.ref`)."""
    return f"/r/{quote(ref, safe='')}"


def replay_url(web_url: str | None, ref: str) -> str | None:
    """The replay page of the table `ref` (`Tables.ref`), or None when WEB_URL is unset
    (no page is offered). The final ranking in chat links to it."""
    if not web_url:
        return None
    return web_url.rstrip("/") + replay_path(ref)


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a link shows no replay: `forged` (not a reference this bot made), `removed`
    (a genuine one whose game retention deleted), `unfinished` (in play, in its lobby or
    paused), `cancelled`, `broken` (its log no longer replays under these rules)."""

    code: str

    def text(self, lang: str) -> str:
        return t(lang, f"web_replay_refused_{self.code}")


class Replays:
    """Finds the table a replay link names and draws its replay; a few drawings are kept
    (keyed by everything they are drawn from), so a link shared in a busy channel costs
    one replay of the log."""

    def __init__(self, repo: Repository, ref_of: RefOf) -> None:
        self.repo = repo
        self.ref_of = ref_of
        self._kept: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()

    async def find(self, ref: str) -> TableRow | Refused:
        """The finished table `ref` names, or why there is no replay of it."""
        decoded = decode_ref(ref)
        if decoded is None:
            return Refused("forged")
        table_id = decoded[0]
        # The tag is checked before the table is read: a forged link costs no read, and
        # tells nothing about which ids exist.
        if not hmac.compare_digest((await self.ref_of(table_id)).encode(), ref.encode()):
            return Refused("forged")
        row = await self.repo.get_table(table_id)
        if row is None:
            return Refused("removed")
        if row.status == CANCELLED:
            return Refused("cancelled")
        if row.status != FINISHED:
            return Refused("unfinished")
        return row

    async def replay(self, ref: str, lang: str) -> dict[str, Any] | Refused:
        """The replay of the finished table `ref` names, JSON-able, in `lang`."""
        row = await self.find(ref)
        return row if isinstance(row, Refused) else await self.draw(row, lang)

    async def draw(self, row: TableRow, lang: str) -> dict[str, Any] | Refused:
        """The replay of `row`, a table `find` gave."""
        seats = await self.repo.get_seats(row.id)
        key = (row.id, row.version, row.updated_at, lang,
               tuple((s.name, s.is_bot) for s in seats))
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        moves = await self.repo.moves(row.id)
        try:
            # In a thread: a long game's replay takes a tenth of a second, and the event
            # loop, which plays the tables' moves, keeps its turns meanwhile (the
            # interpreter switches every few ms). The engine and the sentences are pure.
            drawn = await asyncio.to_thread(steps, row, seats, moves, lang,
                                            await self.ref_of(row.id))
        except Exception:  # a log these rules no longer replay: a refusal, not a trace
            log.exception("table %s: its replay could not be drawn", row.id)
            return Refused("broken")
        self._kept[key] = drawn
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return drawn


# The stored name of a seat whose person asked to be forgotten: "a former player" in the
# language of its channel. A reader of another language reads it in theirs.
_FORMER = frozenset(t(lang, "former_player") for lang in LANGS)


def _seen_as(seats: list[SeatRow], lang: str) -> list[SeatRow]:
    return [replace(s, name=t(lang, "former_player"))
            if s.user_id is None and s.name in _FORMER else s for s in seats]


def steps(row: TableRow, seats: list[SeatRow], moves: list[MoveRow], lang: str,
          ref: str) -> dict[str, Any]:
    """The replay itself: the deal, then each logged move with what it did (narrated as
    the table narrated it, in `lang`, with the seats' names as stored now), the table
    after it, every hand, and each round's points and totals where a round ended."""
    game = games.get(row.game)
    shown = _seen_as(seats, lang)
    live = Live(row=row, seats=shown, game=game, state=None, ref=ref)
    names = present.names(live, lang)
    state = game.new_game(len(seats), table_options.stored(game, row.options), row.seed)
    rounds: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = [_step(game, state, len(seats), None, [], None)]
    renderer = renderers.for_game(row.game)
    for move in moves:
        if move.seq > row.version:
            break  # only what the finished table holds
        state, events = game.apply(state, move.seat,
                                   game.parse_move(state, move.seat, move.move))
        lines = present.told(live, events, lang).lines
        ended = None
        for event in fit_for(events, None):
            points = renderer.round_points(event) if present.round_ended(live, event) \
                else None
            if points is not None:
                totals = event.get("scores") or event.get("chips") or []
                rounds.append({"round": event.get("round", event.get("deal", len(rounds) + 1)),
                               "step": len(out), "points": list(points),
                               "totals": list(totals)})
                ended = len(rounds) - 1
        out.append(_step(game, state, len(seats), move, lines, ended))
    if row.snapshot is not None and game.dump(state) != row.snapshot:
        # The log wins, as when a table is loaded; the difference is worth a look.
        log.error("table %s: its replay ends elsewhere than its snapshot", row.id)
    result = game.outcome(state)
    return {
        "table": {"ref": ref, "game": row.game, "name": game.NAME,
                  "title": str(row.settings.get("title", ""))},
        "lang": lang,
        "seats": [{"name": s.name, "bot": s.is_bot} for s in shown],
        "extra_names": names[len(shown):],
        "steps": out,
        "rounds": rounds,
        "outcome": None if result is None else {
            "scores": list(result.scores), "ranking": list(result.ranking),
            "lines": present.final_ranking(live, result, lang)},
    }


def _step(game: Any, state: Any, seats: int, move: MoveRow | None, lines: list[str],
          ended: int | None) -> dict[str, Any]:
    public = game.view(state)
    return {
        "seat": None if move is None else move.seat,
        "move": None if move is None else move.move,
        "lines": lines,
        "view": public,
        "hands": [game.view(state, s, public=public).get("hand") for s in range(seats)],
        **_unseen(state),
        "round_ended": ended,
    }


def _unseen(state: Any) -> dict[str, list[str] | None]:
    """The cards no seat's view holds: Michigan's extra hand (la veuve) until the dealer
    takes it, or keeps their own, or the auction ends; then the hand out of play (the one
    given up for it, or the extra hand nobody took). The game is over: a replay hides
    nothing, so they are shown where they exist, as any hand is. Other games deal every
    card to a seat or a draw pile their view already counts."""
    from engine import michigan

    if not isinstance(state, michigan.State):
        return {}
    return {"extra": list(state.extra) or None, "out_of_play": list(state.dead) or None}
