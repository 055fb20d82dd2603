"""Printing to the terminal: everything the console prints goes through `Screen`, which
makes control characters visible, clips runaway lines, wraps at word boundaries by cell
width, and keeps readline's prompt last (see `keyboard`)."""

import asyncio
import contextlib
import os
import re
from collections.abc import Iterator
from typing import TextIO

from rich.cells import cell_len
from rich.console import Console as RichConsole
from rich.text import Text

from adapters.console import keyboard

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
