"""Deliveries become printed lines: the console's `Sink`. A chat client redraws one table
message; a terminal scrolls, so this prints a running log: one line per move, the whole
table when it matters, and your hand with every legal move, numbered, last."""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from adapters.console.screen import Screen
from bot.deliveries import Announcement, HandMessage, Notice, TableMessage
from bot.i18n import t
from bot.live import Told
from bot.render import Button, Rendering, encode_payload
from bot.renderers.the_game import SIGNAL_MARKS
from db.repository import MessageRef
from engine.the_game import PILES, SMALL, STOP, Signal

log = logging.getLogger(__name__)


class ConsoleSink:
    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.choices: list[str] = []  # payloads of the last numbered list printed
        self._numbered_hand = False  # that list is your moves
        self.table: Rendering | None = None
        self.table_id = 0
        self.hand: Rendering | None = None
        self._moves_shown: tuple[tuple[str, str], ...] | None = None  # your moves printed last
        self._in_turn = False  # the table was drawn for this turn of yours already
        self._table_due = False
        self._lobby_shown = ""
        self.lobby_quiet = False  # set while the start-up adds its bots: one lobby, not one each
        self._ids = 0
        self.lang = "en"
        # Set by Console: waits until every queued delivery is out; whether you are seated.
        self.quiet: Callable[[], Awaitable[None]] | None = None
        self.seated: Callable[[int], Awaitable[bool]] | None = None
        self._seated = True
        self._is_lobby = False
        self._turn_task: asyncio.Task[None] | None = None
        self._held: list[Told] = []
        # The first table this run may show (opened or resumed); None: not known yet.
        self.since: int | None = None

    def _ref(self, key: str) -> MessageRef:
        self._ids += 1
        return MessageRef(key=key, chat="console", message_id=str(self._ids))

    # --- deliveries -----------------------------------------------------------------------

    def _old(self, table_id: int) -> bool:
        """A delivery of a table before the one you play (a finished or cancelled game's
        last redraw, sent again at a restart): not printed into the start questions."""
        return self.since is None or table_id < self.since

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        if self._old(msg.table_id):
            return ref or self._ref("table")
        self.table, self.table_id = msg.rendering, msg.table_id
        actions = {b.action for row in msg.rendering.buttons for b in row}
        was_lobby, self._is_lobby = self._is_lobby, "join" in actions or "start" in actions
        if was_lobby and not self._is_lobby and not self._numbered_hand:
            self.choices = []  # the lobby's numbers (#1 Leave) mean nothing in the game
        if self._is_lobby:  # the lobby: short, and changed by you
            if self.seated is not None:
                self._seated = await self.seated(msg.table_id)
            shown = f"{msg.table_id}:{msg.rendering.text}"  # a new table's lobby, even alike
            if shown != self._lobby_shown and not self.lobby_quiet:
                self._lobby_shown = shown
                self.print_table()
        elif msg.news is not None:  # a move: its lines (a move may narrate nothing)
            for told in msg.news:
                if told.new_round:  # after the summary of the round that ended
                    self._held.append(told)
                    self._later()
                elif self._held:
                    self._held.append(told)
                else:
                    self._narrate(told)
        else:  # a redraw with nothing new to narrate: the start, /table, a seat change
            self._table_due = True
            self._later()
        return ref or self._ref("table")

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        if self._old(msg.table_id):
            return ref or self._ref(f"hand:{msg.seat}")
        self.hand = msg.rendering
        if not self.my_turn:
            self._in_turn, self._moves_shown = False, None
        elif self._moves_shown != self._moves():
            self._later()
        else:  # the same moves (a bot's signal, say): nothing to print, newer numbers
            self._renumber()
        return ref or self._ref(f"hand:{msg.seat}")

    def _narrate(self, told: Told) -> None:
        for line in told.lines:
            self.screen.line(f"  · {line}", "dim")

    def _release(self) -> None:
        """The new round's lines, held until the last round's summary was printed."""
        held, self._held = self._held, []
        for told in held:
            self._narrate(told)

    async def announce(self, msg: Announcement) -> None:
        if msg.kind == "turn" or self._old(msg.table_id):
            return  # the only person here is at the keyboard, and sees the moves below
        self.screen.line("")
        self.screen.line(msg.text, "bold" if msg.kind == "result" else "")
        if msg.kind == "result" and self._held:
            self.screen.line("")
            self._release()
        if msg.buttons:
            self.number(Rendering("", [], msg.buttons, msg.version, msg.ref))
        elif msg.kind == "result":
            self._table_due = True  # a round's end: where everyone stands now
            self._later()

    async def notify(self, msg: Notice) -> None:
        self.screen.line(msg.text, "italic")

    # --- printing -------------------------------------------------------------------------

    @property
    def my_turn(self) -> bool:
        return self.hand is not None and any(
            b.action.startswith("m:") for row in self.hand.buttons for b in row)

    def _later(self) -> None:
        """Print the table and your turn once every queued delivery is out: announcements
        of the same change (a deal's summary) may still be on their way, and your hand and
        moves must come after them, right above where you type."""
        if self._turn_task is None or self._turn_task.done():
            self._turn_task = asyncio.create_task(self._when_quiet())

    async def _when_quiet(self) -> None:
        if self.quiet is not None:
            await self.quiet()
        self._release()
        self.refresh()

    def _moves(self) -> tuple[tuple[str, str], ...]:
        return tuple((b.label, b.action) for row in (self.hand.buttons if self.hand else [])
                     for b in row)

    def _renumber(self) -> None:
        """Your moves' numbers keep pointing at the same moves, at the hand's new version."""
        if self._numbered_hand and self.hand is not None:
            self.choices = [encode_payload(self.hand.ref, self.hand.version, b.action)
                            for b in _with_small_signals(
                                [b for row in self.hand.buttons for b in row])]

    def refresh(self) -> None:
        """What changed, once: the table at the start of your turn (or when due: the start,
        /table, a round's end), your hand and moves when they changed. Within a turn
        (The Game plays several cards), your new hand is enough."""
        turn_due = self.my_turn and self._moves_shown != self._moves()
        if self._table_due or (turn_due and not self._in_turn):
            self._table_due = False
            self.print_table()
            turn_due = self.my_turn
        if turn_due:
            self.print_turn()

    async def turn_printed(self) -> None:
        if self._turn_task is not None:
            try:
                await self._turn_task
            except Exception:
                log.exception("printing the turn failed")

    def print_table(self) -> None:
        if self.table is None:
            return
        header = t(self.lang, "table_last")
        self.screen.line("")
        self.screen.line("─" * min(60, self.screen.width), "dim")
        self.screen.line(self.table.title, "bold")
        for line in _without_log(self.table.lines, header):
            self.screen.line(line)
        # Your own console: Join while seated (or Leave while not) is no choice to offer.
        lobby_skip = {"join" if self._seated else "leave"} if self._is_lobby else set()
        buttons = [b for row in self.table.buttons for b in row
                   if b.action != "hand" and b.action not in lobby_skip]
        if buttons:
            self.number(Rendering("", [], [buttons], self.table.version, self.table.ref))

    def print_turn(self) -> None:
        """Your hand and your numbered moves, last, then the prompt."""
        if self.hand is None or not self.my_turn:
            return
        self._moves_shown, self._in_turn = self._moves(), True
        self.screen.line("")
        for line in self.hand.lines:
            self.screen.line(line)
        self.number(self.hand, title=t(self.lang, "console_your_moves"))
        self.screen.prompt()

    def number(self, rendering: Rendering, title: str = "") -> None:
        buttons = _with_small_signals([b for row in rendering.buttons for b in row])
        self.choices = [encode_payload(rendering.ref, rendering.version, b.action)
                        for b in buttons]
        self._numbered_hand = rendering is self.hand
        if title:
            self.screen.line(title, "bold")
        self.screen.choices([f"#{i} {b.label}" for i, b in enumerate(buttons, 1)])

    def payload(self, number: int) -> str | None:
        return self.choices[number - 1] if 0 < number <= len(self.choices) else None


_STOP_SIGNALS = {f"s:{Signal(pile, STOP)}": pile for pile in PILES}


def _with_small_signals(buttons: list[Button]) -> list[Button]:
    """The Game's signal button steps none → ✋ → ⚠ → ↩, one tap each, which a chat's
    buttons fit; here each ✋ choice has its ⚠ (no big jump) beside it, one number away."""
    out = []
    for button in buttons:
        out.append(button)
        pile = _STOP_SIGNALS.get(button.action)
        if pile is not None:
            out.append(Button(f"{SIGNAL_MARKS[SMALL]} {pile}", f"s:{Signal(pile, SMALL)}",
                              button.style))
    return out


def _without_log(lines: list[str], header: str) -> list[str]:
    """The table without its "Last moves" list: the console printed each of them already."""
    out, skipping = [], False
    for line in lines:
        if line == header:
            skipping = True
            continue
        if skipping and line.startswith("· "):
            continue
        skipping = False
        out.append(line)
    return out
