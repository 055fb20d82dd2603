"""Reading what the player types: on a terminal with the standard `readline` module (left
and right arrows, Home and End, Up and Down through earlier lines), else line by line.

Lines are read by a daemon thread, so Ctrl-C and the end of the program never wait for a
pending read. On a terminal the prompt belongs to readline, while the program keeps
printing (a bot's move arrives while you type): printing first erases the prompt line,
then draws it again below with what you had typed, so the prompt is always last and no
empty "›" is left behind.
"""

import codecs
import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import IO, Any, TextIO

PROMPT = "› "
_ERASE_LINE = "\r\x1b[2K"
_PASTE_OFF = "\x1b[?2004l"  # readline's bracketed paste, left on if we quit mid-line

Put = Callable[[str | None], None]


def lines_of(inp: TextIO) -> Iterator[str]:
    """Typed lines. A real file is read with `os.read` on its descriptor: a thread blocked
    in `sys.stdin.readline` holds the stream's lock, which the interpreter then cannot
    take when it shuts down after Ctrl-C. Undecodable bytes become U+FFFD."""
    try:
        fd = inp.fileno()
    except (OSError, ValueError, AttributeError):
        fd = None
    if fd is None:
        while line := inp.readline():
            yield line
        return
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        pending += decoder.decode(chunk, final=not chunk)
        *lines, pending = pending.split("\n")
        yield from (line + "\n" for line in lines)
        if not chunk:
            if pending:
                yield pending
            return


def read_plain(inp: TextIO, put: Put) -> threading.Thread:
    """Piped input (or a terminal without readline): each line as it comes."""
    def read() -> None:
        for line in lines_of(inp):
            put(line)
        put(None)

    thread = threading.Thread(target=read, name="console-input", daemon=True)
    thread.start()
    return thread


def can_edit(inp: TextIO, out: IO[str]) -> bool:
    """readline edits only the process's own terminal (`input()` uses it only then)."""
    if inp is not sys.stdin or out is not sys.stdout:
        return False
    try:
        import readline  # noqa: F401  (absent on some builds, e.g. Windows)
    except ImportError:
        return False
    return inp.isatty() and out.isatty()


class LineEditor:
    """`input()` with readline in a thread, one prompt at a time, when the program asks.

    The lock is held by the thread from the call of `input` until readline has drawn its
    prompt (its pre-input hook), and by the program while it prints, so neither writes
    into the middle of the other.
    """

    def __init__(self, out: IO[str], put: Put) -> None:
        self.out = out
        self.put = put
        self.lock = threading.Lock()
        self.active = False  # readline is reading: its prompt is on the screen
        self.erased = False  # the prompt line was erased for printing, not drawn again
        self.closed = False  # the program is ending: its last lines are not followed by one
        self._wanted = threading.Event()
        self._saved: list[Any] | None = None

    def start(self) -> None:
        import readline
        import termios

        with contextlib.suppress(termios.error):
            self._saved = termios.tcgetattr(sys.stdin.fileno())
        readline.set_pre_input_hook(self._drawn)
        threading.Thread(target=self._run, name="console-input", daemon=True).start()

    def want(self) -> None:
        """Show the prompt (now, or once the line being read is done)."""
        self._wanted.set()

    def _run(self) -> None:
        while True:
            self._wanted.wait()
            self._wanted.clear()
            self.lock.acquire()
            try:
                line: str | None = input(PROMPT) + "\n"
            except (EOFError, OSError, ValueError):
                line = None
            finally:
                if self.lock.locked() and not self.active:
                    self.lock.release()  # readline ended before drawing its prompt
            with self.lock:
                self.active = self.erased = False
            self.put(line)
            if line is None:
                return

    def _drawn(self) -> None:
        """readline's pre-input hook, in the reading thread: the prompt is on the screen."""
        self.active = True
        self.lock.release()

    @contextlib.contextmanager
    def printing(self) -> Iterator[None]:
        """Around every print: the prompt line is erased first (it is drawn again after)."""
        locked = self.lock.acquire(timeout=1)  # never stuck behind a reader gone wrong
        try:
            if self.active and not self.erased and not self.closed:
                self.out.write(_ERASE_LINE)
                self.erased = True
            yield
            self.out.flush()
        finally:
            if locked:
                self.lock.release()

    def redraw(self) -> None:
        """The prompt again, with what was typed so far, below what was printed."""
        import readline

        with self.lock:
            if self.active and self.erased and not self.closed:
                self.out.write(PROMPT + readline.get_line_buffer())
                self.out.flush()
                self.erased = False

    def close(self) -> None:
        """The terminal as it was: a reader stopped mid-line leaves it uncooked."""
        import termios

        with self.lock:
            self.closed = True  # no prompt drawn again, whatever is printed after
            if self.active:
                self.out.write(("" if self.erased else _ERASE_LINE) + _PASTE_OFF)
                self.out.flush()
        if self._saved is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._saved)
