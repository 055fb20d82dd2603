"""What a table is while the bot runs: who acted, what they are told, the table in memory."""

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import clean
from bot.render import Rendering
from db.repository import Deadline, MessageRef, SeatRow, TableRow
from engine.core.protocol import Game

log = logging.getLogger(__name__)

NARRATION_LINES = 6
# Moves whose lines are kept: most moves say a line, some none (a few times the lines shown).
TOLD_MOVES = 4 * NARRATION_LINES


@dataclass(slots=True, eq=False)
class Told:
    """One move's lines, put into words when first read: `say(*args)`. The table is drawn
    when it is sent, and under a platform's pacing most moves of a busy table scroll off
    its last lines before then: those are never narrated. `args` hold what the move's
    moment decides (its events, the seat names then, the language), kept as values the
    cycle collector does not walk (`present.told`): 24 moves of 1,000 busy tables held as
    closures over their events were half the objects its every pass walked. `who`: the
    person at each seat then (None for a bot). Both stay once the lines are said, so that
    a person who asks to be forgotten is renamed in the lines of the moves they made
    (`forget`): a few hundred bytes a move, none of them walked by the collector."""

    say: Callable[..., list[str]]
    args: tuple[Any, ...] = ()
    who: tuple[str | None, ...] = ()
    _lines: list[str] | None = field(default=None, repr=False)
    # Its lines begin a new round: a running log (the console) prints them after the
    # summary of the round that ended, which is announced separately.
    new_round: bool = False

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            try:
                self._lines = self.say(*self.args)
            except Exception:  # a narration bug costs the lines, never the table
                log.exception("a move could not be narrated")
                self._lines = []
        return self._lines

    def forget(self, user_id: str, name: str) -> None:
        """Say `name` where the move named the person `user_id`: their lines are said
        again, and the move no longer knows who they were. `args[2]` is the seat names."""
        if user_id not in self.who or len(self.args) < 3:
            return
        names = list(self.args[2])
        for seat, person in enumerate(self.who):
            if person == user_id and seat < len(names):
                names[seat] = name
        self.args = (*self.args[:2], tuple(names), *self.args[3:])
        self.who = tuple(None if person == user_id else person for person in self.who)
        self._lines = None


@dataclass(frozen=True, slots=True)
class Actor:
    user_id: str
    name: str
    is_admin: bool = False  # a channel admin may cancel and kick like the host

    def __post_init__(self) -> None:
        # Names come from the platform's profile, which its user writes: stored, shown
        # and announced, so cleaned here once for every adapter.
        object.__setattr__(self, "name", clean.name(self.name))


@dataclass(frozen=True, slots=True)
class Acted:
    """Where a press acted, once it was checked (see `Tables.press`): the table, its
    reference and channel, and the presser's seat while the game is played (else None)."""

    table_id: int
    ref: str
    channel: str
    seat: int | None


@dataclass(slots=True)
class InPlace:
    """What an adapter that answers a press in place (`Press.in_place`) shows in its answer,
    drawn for the presser as it is now: their hand, or the table in place of its lobby.

    `message`: the message that showed it until now, as last sent or stored (None: none).
    `keep`, for a hand asked for: once the adapter shows it, makes that message the seat's
    hand message, the one the next changes edit; None when nothing is left to do."""

    rendering: Rendering
    message: MessageRef | None = None
    keep: Callable[[], Awaitable[None]] | None = None


@dataclass(slots=True)
class Reply:
    text: str
    ok: bool = True
    table_id: int | None = None
    reason: str | None = None  # a refusal's catalogue key or engine code, for metrics
    # When the text is a table drawn for the user (`/table`), the drawing itself, so an
    # adapter can fit it to its platform's limit the way it fits the table message.
    rendering: Rendering | None = None
    # A platform effect that comes with the answer: ask the presser to open their private
    # chat with the bot (a Telegram deep link that then seats them at the table `ref`).
    open_private: str | None = None
    # A press: where it acted (None when it was refused before reaching a table), and what
    # the adapter shows in place, when it asked to (`Press.in_place`).
    acted: Acted | None = None
    shown: InPlace | None = None


@dataclass
class Live:
    """A table as kept in memory: its row, seats and the engine state after `row.version`."""

    row: TableRow
    seats: list[SeatRow]
    game: Game
    state: Any | None
    told: deque[Told] = field(default_factory=lambda: deque(maxlen=TOLD_MOVES))
    hand_sizes: list[int] | None = None  # as last shown, to know whose hand changed
    # Whether a deadline row may exist: bot-only turns then need no write to clear it.
    deadline_stored: bool = True
    # The turn's deadline as stored, most often by the move's own transaction; its jobs are
    # armed after the move is shown (`Turns.set_deadline`).
    deadline: Deadline | None = None
    last_to_act: list[int] | None = None  # as last announced, to ping only new turns
    ref: str = ""  # "<id>_<tag>": how buttons and links name this table (`Tables.ref`)
    touched: float = 0.0  # when it was last loaded or used (`Tables._evict`)
    # Talk (The Game's signals) moved the table from `talk_base` to `talk_top` and nothing
    # else since: a move button drawn anywhere in that range still means the same play,
    # so a bot's signal between drawing and pressing does not make it "out of date".
    # Anything else that changes the version (a play, a reload) leaves `talk_top` behind.
    talk_base: int = -1
    talk_top: int = -1
    # The public view of `state`, kept for the state it was made of: a move's change is
    # shown from it, and the table message drawn from it once more when sent.
    _view: tuple[Any, dict[str, Any]] | None = field(default=None, repr=False)

    def public_view(self) -> dict[str, Any]:
        """`game.view(state)`, made once per state (read it, never change it)."""
        kept = self._view
        if kept is not None and kept[0] is self.state:
            return kept[1]
        view = self.game.view(self.state)
        self._view = (self.state, view)
        return view

    def seat_view(self, seat: int) -> dict[str, Any]:
        """`game.view(state, seat)`, extending the public view made once per state: a bot's
        move needs both views of one state (the public one drew the move before). The
        lists and dicts inside are the public view's own: read them, never change them
        (tests/engine/test_bots_views.py holds every bot to that)."""
        return self.game.view(self.state, seat, public=self.public_view())

    @property
    def id(self) -> int:
        return self.row.id

    def current(self, version: int) -> bool:
        """Whether a move button drawn at `version` still offers what it showed."""
        if version == self.row.version:
            return True
        return self.talk_top == self.row.version and self.talk_base <= version <= self.talk_top

    def seat_of(self, user_id: str) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.is_bot), None)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def last_lines(self) -> tuple[list[str], int]:
        """The table's last moves as its message shows them: up to `NARRATION_LINES` lines,
        oldest first, and how many of the last ones tell the newest move that said
        anything (kept when a long table must be cut to fit). Only the moves shown are
        put into words, newest first."""
        said: list[list[str]] = []
        count = newest = 0
        for told in reversed(self.told):
            lines = told.lines
            if lines and not newest:
                newest = len(lines)
            said.append(lines)
            count += len(lines)
            if count >= NARRATION_LINES:
                break
        shown = [line for lines in reversed(said) for line in lines][-NARRATION_LINES:]
        return shown, min(newest, len(shown))
