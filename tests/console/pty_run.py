"""Running `python -m bot` on a pseudo-terminal, as a person at a terminal runs it: the
program sees a TTY (colour, prompt, terminal width), and the test reads what it prints
until the prompt, then types."""

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
PROMPT = "› "


class Terminal:
    def __init__(self, db: Path, *args: str, columns: int = 100,
                 env: dict[str, str] | None = None) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
        base = {k: v for k, v in os.environ.items()
                if k not in {"DISCORD_TOKEN", "TELEGRAM_TOKEN", "NO_COLOR", "COLUMNS"}}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "--database", f"sqlite:///{db}", "--bot-delay", "0",
             *args],
            stdin=slave, stdout=slave, stderr=slave, cwd=db.parent, close_fds=True,
            env={**base, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", **(env or {})})
        os.close(slave)
        self._seen = b""
        self._read_to = 0

    def __enter__(self) -> "Terminal":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)

    def _pump(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the program ended and closed its side
            return False
        self._seen += chunk
        return bool(chunk)

    def raw(self) -> str:
        return self._seen.decode(errors="replace")

    def text(self) -> str:
        return ANSI.sub("", self.raw()).replace("\r\n", "\n")

    def until_prompt(self, timeout: float = 60) -> str:
        """What was printed since the last prompt, up to and including the next one."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text()
            at = text.find(PROMPT, self._read_to)
            if at >= 0:
                screen = text[self._read_to:at + len(PROMPT)]
                self._read_to = at + len(PROMPT)
                return screen
            self._pump(0.2)
        raise AssertionError(f"no prompt within {timeout}s; screen:\n{self.text()[-3000:]}")

    def wait_for(self, text: str, timeout: float = 60) -> str:
        """What was printed since the last read, up to and including `text`: for screens
        where bots keep moving, and the prompt is drawn again after each of their lines."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.text()[self._read_to:]
            at = screen.find(text)
            if at >= 0:
                self._read_to += at + len(text)
                return screen[:at + len(text)]
            self._pump(0.2)
        raise AssertionError(f"no {text!r} within {timeout}s; screen:\n{self.text()[-3000:]}")

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def send(self, line: str) -> None:
        self.write(line.encode() + b"\r")

    def wait_exit(self, timeout: float = 20) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._pump(0.1)
        while self._pump(0.1):
            pass
        code = self.proc.poll()
        if code is None:
            raise AssertionError(f"still running after {timeout}s:\n{self.text()[-3000:]}")
        return code
