"""The console table: one player at a keyboard against bot players, saved between runs.

It is an adapter like the chat ones: typed lines become `Tables` calls, deliveries become
printed lines. A chat client redraws one table message; a terminal scrolls, so the
console prints a running log instead: one line per move (the table message's `news`),
the whole table only when it matters (your turn, `/table`, a round's end), and your hand
with every legal move, numbered, always last, right above where you type.

Numbers (`#1`, `#2`, …) stand for buttons and refer to the last list printed. Everything
printed goes through `Screen`, which makes control characters visible and clips runaway
lines, so nothing typed (or stored) can drive the terminal.
"""

import asyncio
import contextlib
import getpass
import json
import logging
import os
import re
import signal
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from typing import TextIO

from rich.cells import cell_len
from rich.console import Console as RichConsole
from rich.text import Text

from adapters.console import keyboard, texts
from bot import present
from bot.authority import Press
from bot.clean import echo
from bot.deliveries import Announcement, HandMessage, Notice, TableMessage
from bot.i18n import DIALECT, t
from bot.live import Told
from bot.options import resolve_game, split_game
from bot.privacy import PRIVACY_REF
from bot.render import Button, Rendering, encode_payload
from bot.renderers.the_game import SIGNAL_MARKS
from bot.settings import Settings
from bot.tables import Actor, Tables
from db.repository import LOBBY, PLAYING, MessageRef, Repository
from engine import games
from engine.core.notation import read_number
from engine.the_game import PILES, SMALL, STOP, Signal

CHANNEL = "local"
QUIT = {"/quit", "/exit", "quit", "exit"}
USER = Actor(user_id="you", name=getpass.getuser().capitalize() or "You", is_admin=True)


async def _yes() -> bool:
    return True
log = logging.getLogger(__name__)
MAX_LINE = 200  # longer input is refused unread: no move or command is that long
MAX_SHOWN = 2000  # a printed line is clipped past this many characters
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_RED_SUITS = re.compile(r"[♥♦]")
_CODE = re.compile(r"`([^`\n]+)`")  # the rules' Markdown code spans: `7 7 J`
# A continued line starts under the text after these: "  · ", "· ", "▶ ", "   🤖 ".
_HANGING = re.compile(r"^\s*(?:[·•▶]\s+)?")


def clean(text: str) -> str:
    """Control characters shown as their visible pictures (ESC as ␛), long lines clipped:
    a line someone typed or stored must never clear or recolour the terminal."""
    def visible(match: re.Match[str]) -> str:
        code = ord(match.group())
        return chr(0x2400 + code) if code < 0x20 else "␡" if code == 0x7F else "�"

    lines = []
    for line in _CONTROL.sub(visible, text.replace("\r\n", "\n")).split("\n"):
        lines.append(line if len(line) <= MAX_SHOWN else line[:MAX_SHOWN] + "…")
    return "\n".join(lines)


class Screen:
    """Printing: colour and styles through `rich` when the output is a terminal (and
    NO_COLOR is unset), plain text otherwise, which rich decides by itself."""

    def __init__(self, out: TextIO) -> None:
        # rich drops colours for NO_COLOR but keeps bold and dim; plain means plain.
        plain = bool(os.environ.get("NO_COLOR"))
        self.rich = RichConsole(file=out, highlight=False, markup=False, emoji=False,
                                soft_wrap=True, color_system=None if plain else "auto")
        self.prompting = out.isatty() if hasattr(out, "isatty") else False
        # A pipe has no width: its lines are left whole for whatever reads them.
        self.wrapping = self.prompting
        self.at_prompt = False  # the cursor sits after "› ": no second one
        self.editor: keyboard.LineEditor | None = None  # readline's, on a terminal
        self._redraw_due = False

    @property
    def width(self) -> int:
        return max(20, self.rich.width)

    def line(self, text: str, style: str = "", *, code: bool = False) -> None:
        """One printed line. On a terminal it is wrapped here, at word boundaries and by
        each character's real width (🤖 and ✋ take two cells), continued lines indented
        under the text after a bullet; the terminal's own wrapping cuts words in two.
        `code` shows `backticked` spans as code, without the backticks."""
        with self._printing():
            self._print(self._styled(clean(text), style, code))

    def _print(self, shown: Text) -> None:
        if not self.wrapping:
            self.rich.print(shown)
            return
        for part in shown.split("\n"):
            width = self.width - 1  # the last cell: some terminals wrap on writing it
            indent = cell_len(_HANGING.match(part.plain).group())  # type: ignore[union-attr]
            indent = indent if indent < width // 2 else 0
            rows = part.wrap(self.rich, width - indent, no_wrap=False)
            for i, row in enumerate(rows):
                row.rstrip()
                if i and indent:
                    row = Text(" " * indent) + row
                self.rich.print(row, soft_wrap=True)

    @staticmethod
    def _styled(text: str, style: str, code: bool) -> Text:
        shown = Text(style=style)
        if code:
            for i, piece in enumerate(_CODE.split(text)):
                shown.append(piece, style="bold cyan" if i % 2 else "")
        else:
            shown.append(text)
        shown.highlight_regex(_RED_SUITS, "red")
        shown.highlight_regex(r"(?m)^▶.*$", "bold")
        return shown

    def choices(self, labels: list[str]) -> None:
        """Numbered labels in columns as wide as the longest one, so a label is never
        split across two lines (a terminal's own wrapping would cut `[#1` from `2]`)."""
        if not labels:
            return
        with self._printing():
            self._choices([clean(label) for label in labels])

    def _choices(self, shown: list[str]) -> None:
        cell = max(cell_len(s) for s in shown) + 2  # cells, not characters: ✋ takes two
        per_line = max(1, (self.width - 1) // cell)
        for start in range(0, len(shown), per_line):
            row = Text()
            for label in shown[start:start + per_line]:
                number, _, rest = label.partition(" ")
                row.append(number, style="bold cyan")
                row.append(" " + rest + " " * (cell - cell_len(label)))
            row.highlight_regex(_RED_SUITS, "red")
            row.rstrip()
            self.rich.print(row)

    @contextlib.contextmanager
    def _printing(self) -> Iterator[None]:
        """A bot's move arriving while you type starts on a line of its own; with readline,
        it takes the prompt's place and the prompt is drawn again below it."""
        if self.editor is None:
            if self.at_prompt:
                self.rich.file.write("\n")
                self.at_prompt = False
            yield
            return
        with self.editor.printing():
            yield
        if not self._redraw_due:
            self._redraw_due = True
            with contextlib.suppress(RuntimeError):  # no loop: the program is ending
                asyncio.get_running_loop().call_soon(self._redraw)

    def _redraw(self) -> None:
        self._redraw_due = False
        if self.editor is not None:
            self.editor.redraw()

    def prompt(self) -> None:
        if self.editor is not None:
            if not self.editor.active:
                self.editor.want()
        elif self.prompting and not self.at_prompt:
            self.rich.file.write(keyboard.PROMPT)
            self.rich.file.flush()
            self.at_prompt = True


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


class Console:
    def __init__(self, repo: Repository, settings: Settings, *, out: TextIO = sys.stdout,
                 inp: TextIO = sys.stdin) -> None:
        DIALECT.set(texts.DIALECT)  # this task and every task it starts speak "console"
        # No one to wait for at a solo table: no turn deadline (and no bot taking over a
        # player who stepped away) unless asked for with -o deadline=… or /options.
        settings = settings.model_copy(update={"turn_deadline": 0})
        self.screen = Screen(out)
        self.repo = repo
        self.inp = inp
        self.sink = ConsoleSink(self.screen)
        self.tables = Tables(repo, self.sink, platform="console", settings=settings,
                             every_move=True)
        self.sink.quiet = self.tables.outbox.flush
        self.sink.seated = self._seated
        self.lang = self.sink.lang = settings.default_lang
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.quitting = False  # /quit was typed (not a setup that failed)
        self._ended = False  # the input ended (Ctrl-D, Ctrl-C, /quit): nothing more is read

    def say(self, text: str, style: str = "") -> None:
        self.screen.line(text, style)

    async def _seated(self, table_id: int) -> bool:
        live = await self.tables.live_table(table_id)
        return live is not None and any(s.user_id == USER.user_id for s in live.seats)

    # --- input ----------------------------------------------------------------------------

    def _start_reading(self) -> None:
        """Lines are read by a daemon thread, so Ctrl-C and the end of the program never
        wait for a pending read (asyncio's own threads would: "^C" then nothing)."""
        loop = asyncio.get_running_loop()

        def put(line: str | None) -> None:
            loop.call_soon_threadsafe(self._lines.put_nowait, line)

        if keyboard.can_edit(self.inp, self.screen.rich.file):
            self.screen.editor = keyboard.LineEditor(self.screen.rich.file, put)
            self.screen.editor.start()
        else:
            keyboard.read_plain(self.inp, put)
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGINT, self._lines.put_nowait, None)

    async def readline(self, prompt: str = "") -> str | None:
        """The next line, stripped; None at the end of input or on Ctrl-C."""
        if self._ended:
            return None
        if prompt:
            self.say(prompt)
        self.screen.prompt()  # with readline, nothing is read before the prompt is shown
        if self._ended:
            return None
        line = await self._lines.get()
        self.screen.at_prompt = False  # Enter moved the cursor to a new line
        if line is not None and line.strip() in QUIT:  # at any question, not only in play
            self.quitting, line = True, None
        if line is None:
            self._ended = True  # whoever asks next learns it too
            return None
        return line.rstrip("\r\n").strip()

    # --- the program ----------------------------------------------------------------------

    async def run(self, *, game: str | None, bots: int | None, options: list[str],
                  lang: str | None = None) -> int:
        """`lang` (`--lang`) is the table's language from now on, stored like a `/lang`:
        the console's own sentences always follow the table's language."""
        self._start_reading()
        # Tables before this run's (a game finished or cancelled last time) are redrawn at
        # start-up for chats that may have missed it; here they'd land in the questions.
        newest = await self.repo.newest_tables_in("console", CHANNEL)
        self.sink.since = 0 if not newest else newest[0].id + (
            newest[0].status not in {LOBBY, PLAYING})
        await self.tables.start(run_scheduler=True)
        code = 0
        try:
            if lang is not None:
                await self.tables.set_lang(USER, CHANNEL, lang, personal=False)
            self.lang = self.sink.lang = await self.tables.channel_lang(CHANNEL)
            table = await self.tables.table_for_channel(CHANNEL)
            if table is None:
                if not await self._new_table(game, bots, options):
                    code = 0 if self.quitting else 1
            else:
                self.say(t(self.lang, "console_resume", game=games.get(table.game).NAME))
                await self.tables.show(USER, CHANNEL)
                if table.status == PLAYING:
                    await self.tables.hand(USER, CHANNEL)
                await self._settle()
            if code == 0:
                await self._settle()
                await self._loop()
        finally:
            with contextlib.suppress(Exception):
                await self.tables.settle()
            open_table = await self.tables.table_for_channel(CHANNEL)
            saved = open_table is not None and open_table.status in {LOBBY, PLAYING}
            if self.screen.prompting:
                self.say("")  # off the prompt line (and the terminal's "^C")
            self.say(t(self.lang, "console_saved" if saved else "console_bye"))
            if self.screen.editor is not None:
                self.screen.editor.close()
            await self.tables.close()
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
        return code

    async def _settle(self) -> None:
        await self.tables.settle()
        await self.sink.turn_printed()

    async def _new_table(self, game: str | None, bots: int | None, options: list[str]) -> bool:
        """Set up from the command line, or by questions that are asked again after a
        refused answer: a typo at the terminal should not end the program."""
        asking = game is None
        ask_options = False
        while True:
            if asking:
                if ask_options:
                    answer = await self.readline(t(self.lang, "console_options_again"))
                    if answer is None:
                        return False
                    options = answer.split()
                else:
                    game, options = await self._ask_game(options)
                    if game is None:
                        return False
            reply = await self.tables.new_game(USER, CHANNEL, game or "", options,
                                               title="console")
            self.say(reply.text)
            if reply.ok:
                break
            if not asking:
                return False
            # A refused option asks for the options again, not for the game.
            ask_options = resolve_game(game or "") is not None and bool(options)
            if not ask_options:
                options = []
        return await self._fill_and_start(reply.table_id or 0, bots, asking=asking)

    async def _fill_and_start(self, table_id: int, bots: int | None, *, asking: bool) -> bool:
        """The bots asked for (or the question how many), then the start; at the first
        start and after every /newgame alike."""
        live = await self.tables.live_table(table_id)
        if live is None:
            return False
        low, high = max(0, live.game.SEATS.start - 1), live.game.SEATS.stop - 2
        await self._settle()  # the lobby is shown before the question, not inside it
        while bots is None:
            default = max(low, min(3, high))
            answer = await self.readline(t(self.lang, "console_bots", low=low, high=high,
                                           default=default))
            if answer is None:
                return False
            if answer.startswith(("/", "#")):  # a command or a choice: the lobby, by hand
                said = await self.handle(answer)
                if said:
                    self.say(said, "yellow")
                return True
            number = read_number(answer, high + 1)
            if not answer:
                bots = default
            elif number is not None and low <= number <= high:
                bots = number
            else:
                self.say(t(self.lang, "console_bad_bots", low=low, high=high))
        self.sink.lobby_quiet = True  # the game starts right after: no lobby per bot
        try:
            for _ in range(bots):
                reply = await self.tables.add_bot(USER, CHANNEL)
                if not reply.ok:
                    self.say(reply.text)
                    return False
            await self.tables.settle()
        finally:
            self.sink.lobby_quiet = False
        while True:
            reply = await self.tables.start_game(USER, CHANNEL)
            self.say(reply.text)
            if reply.ok or not asking:
                return reply.ok
            # An option that cannot work with these players (The Game's `first=4` with
            # three): asked again, kept in the lobby, not the end of the program.
            changed = None
            while changed is None or not changed.ok:
                answer = await self.readline(t(self.lang, "console_options_change"))
                if answer is None:
                    return False
                changed = await self.tables.set_options(USER, CHANNEL, answer.split())
                self.say(changed.text)

    async def _ask_game(self, options: list[str]) -> tuple[str | None, list[str]]:
        ids = games.ids()
        self.say(t(self.lang, "console_pick_game"))
        for i, game_id in enumerate(ids, 1):
            self.say(f"  {i}. {t(self.lang, f'game.{game_id}')} ({game_id})")
        answer = await self.readline()
        # A command here (/help, /rules, /lang) is answered, and the question stays.
        while answer is not None and answer.startswith("/") \
                and answer.split()[0].lower() != "/newgame":
            said = await self.handle(answer[:MAX_LINE])
            if said:
                self.say(said, "yellow")
            answer = await self.readline()
        if answer is None:
            return None, options
        if len(answer) > MAX_LINE:
            answer = answer[:MAX_LINE]
        if answer.startswith("/"):  # /newgame <game> [options], as in play
            words = answer.split()[1:]
            answer, typed = split_game(words[0], words[1:]) if words else ("", [])
            options = typed or options
        number = read_number(answer, len(ids) + 1)
        game = ids[number - 1] if number is not None and 0 < number <= len(ids) else answer
        if resolve_game(game) is None:
            return game, options  # refused, with the list of games, before any option
        if not options:
            answer = await self.readline(t(self.lang, "console_options"))
            if answer is None:
                return None, options
            options = answer.split()
        return game, options

    async def _loop(self) -> None:
        while True:
            line = await self.readline()
            if line is None:
                return
            if not line:
                continue
            if len(line) > MAX_LINE:
                self.say(t(self.lang, "console_too_long", length=f"{len(line):,}"))
                continue
            reply_text = await self.handle(line)
            if reply_text:
                self.say(reply_text, "yellow")
            await self._settle()
            self.screen.prompt()  # after a refusal too: where to type is always shown

    async def handle(self, line: str) -> str | None:
        tables = self.tables
        button = read_number(line[1:], 10**6) if line.startswith("#") else None
        if button is not None:
            payload = self.sink.payload(button)
            if payload is None:
                return t(self.lang, "console_no_button")
            # Every message of the console is in its one channel, its user that channel's
            # admin (a private chat is its user's own channel).
            reply = await tables.press(USER, Press(payload, CHANNEL, is_admin=_yes))
            # A move's reply is the move itself, narrated already; other buttons answer.
            return None if reply.ok and ".m:" in payload else reply.text
        word, _, rest = line.partition(" ")
        command = word.lstrip("/").lower() if word.startswith("/") else "play"
        if command == "play":
            text = rest if word.startswith("/") else line
            reply = await tables.play(USER, CHANNEL, text)
            return None if reply.ok else reply.text
        if command == "pass":
            reply = await tables.play(USER, CHANNEL, "pass")
            return None if reply.ok else reply.text
        if command == "table":
            reply = await tables.show(USER, CHANNEL)
            return None if reply.ok else reply.text
        if command == "hand":
            reply = await tables.hand(USER, CHANNEL)
            if reply.ok:
                await self._settle()
                if not self.sink.my_turn:
                    return reply.text.split("\n", 1)[-1]
                self.sink.print_turn()
                return None
            return reply.text
        simple = {"scores": tables.scores, "stats": tables.stats, "cancel": tables.cancel,
                  "join": tables.join, "leave": tables.leave, "start": tables.start_game,
                  "addbot": tables.add_bot, "removebot": tables.remove_bot}
        if command in simple:
            return (await simple[command](USER, CHANNEL)).text
        if command == "options":
            return (await tables.set_options(USER, CHANNEL, rest.split())).text
        if command == "newgame":
            parts = rest.split()
            reply = await tables.new_game(USER, CHANNEL, parts[0] if parts else "", parts[1:],
                                          title="console")
            if not reply.ok:
                return reply.text
            self.say(reply.text)
            await self._fill_and_start(reply.table_id or 0, None, asking=True)
            return None
        if command == "lang":
            reply = await tables.set_lang(USER, CHANNEL, rest, personal=False)
            self.lang = self.sink.lang = await tables.channel_lang(CHANNEL)
            return reply.text
        if command == "mydata":
            return json.dumps(await tables.privacy.my_data(USER), ensure_ascii=False, indent=2)
        if command == "forgetme":
            question = await tables.privacy.forget_prompt(USER)
            self.sink.screen.line(question.text)
            self.sink.number(replace(question, ref=PRIVACY_REF))
            return None
        if command == "rules":
            text = present.rules_text(rest.strip() or await self._game_here(), self.lang)
            self.screen.line(text, "yellow", code=True)
            return None
        if command in {"help", "?"}:
            return present.help_text(self.lang)
        return t(self.lang, "console_unknown_command", command=echo(word))

    async def _game_here(self) -> str:
        """`/rules` alone during a game: the rules of the game on the table."""
        row = await self.tables.table_for_channel(CHANNEL)
        return row.game if row is not None else ""
