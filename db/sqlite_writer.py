"""The group commit of moves, run in a child process of its own.

Why a process: a group commit is some forty SQLite statements, and between any two of them
aiosqlite's thread needs the GIL back. While the event loop is busy playing the next moves
it hands the GIL over only every 5 ms (the switch interval) or when it waits, so the commit
made progress only in the loop's pauses: storage and play took turns on two cores
(measured: the loop idle about 30 % of the time with every move in flight waiting for the
commit under way). A child process has its own interpreter: the commit runs on the other
core beside the play, and the loop pays only for pickling the batch and reading the answer.

The protocol is the child's stdin and stdout: a request is a 4-byte big-endian length and a
pickled list of `(function, args)` items, each run as `function(db, *args)` in its own
savepoint of one transaction (`db.transactions.each_in_savepoint`); the answer is framed the same
way, `("ok", outcomes)` with a result or a refusal per item, or `("failed", message)` when
the whole transaction failed. One request is in flight at a time. The child ends when its
stdin closes, so it never outlives the bot, and not by SIGINT or SIGTERM, which it
ignores: a Ctrl-C or a service manager's stop sent to the whole process group must not end
it before the bot's last commits. A child whose parent died while it committed finishes
the batch and ends quietly: its answer has nobody to go to.

`TAPIS_TEST_WRITER_DIES_AFTER_COMMIT`, for tests only, names a file: when it exists after a
batch has committed, the child deletes it and kills itself before answering, so a test
can lose exactly that answer (the parent then cannot know whether the batch was stored).
"""

import asyncio
import contextlib
import os
import pickle
import signal
import sqlite3
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from db.transactions import bound, configure, each_in_savepoint, transaction

_LENGTH = struct.Struct(">I")

# The package root: the child imports `db.sqlite` from the same place as the bot, whatever
# the working directory it was started from.
_ROOT = str(Path(__file__).resolve().parent.parent)

Item = tuple[Callable[..., Any], tuple[Any, ...]]


class WriterFailed(Exception):
    """The whole batch failed: the child stopped, or SQLite failed the transaction (a
    read-only or full file, an I/O error; its message says which)."""


class WriterProcess:
    """The parent's side: starts the child, sends it batches, reads its answers."""

    def __init__(self, path: str, busy_timeout: float) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._child: asyncio.subprocess.Process | None = None

    @property
    def running(self) -> bool:
        """A child that can take a batch: one that died between batches (its stdout at its
        end) is replaced before the next one rather than fail it."""
        child = self._child
        return (child is not None and child.returncode is None
                and child.stdout is not None and not child.stdout.at_eof())

    async def _start(self) -> asyncio.subprocess.Process:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [_ROOT, *filter(None, [env.get("PYTHONPATH")])])
        return await asyncio.create_subprocess_exec(
            sys.executable, "-c", "from db.sqlite_writer import main; main()", self.path,
            repr(self.busy_timeout),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
        )

    async def run(self, items: list[Item]) -> list[Any]:
        """The outcome of each item, in order: its result or the refusal it raised."""
        if not self.running:
            await self.stop()
            self._child = await self._start()
        child = self._child
        assert child is not None and child.stdin is not None and child.stdout is not None
        payload = pickle.dumps(items, pickle.HIGHEST_PROTOCOL)
        try:
            child.stdin.write(_LENGTH.pack(len(payload)) + payload)
            answer = await _read_frame(child.stdout)
        except (OSError, asyncio.IncompleteReadError) as error:
            await self.stop()
            raise WriterFailed(f"the database writer stopped: {error}") from error
        except asyncio.CancelledError:
            # Its answer is still to come, maybe half read: that child is let go (it
            # finishes the batch it has and ends, its stdin closed), and the next batch
            # starts a fresh one rather than read an answer that is not its own.
            self._child = None
            child.stdin.close()
            finishing = asyncio.get_running_loop().create_task(_finish(child))
            _let_go.add(finishing)
            finishing.add_done_callback(_let_go.discard)
            raise
        if answer[0] == "ok":
            return list(answer[1])
        raise WriterFailed(answer[1])

    async def stop(self) -> None:
        """Close the child's stdin and wait for it to finish the batch it has, if any."""
        child, self._child = self._child, None
        if child is None:
            return
        if child.stdin is not None:
            child.stdin.close()
            with contextlib.suppress(OSError):
                await child.stdin.wait_closed()
        try:
            await asyncio.wait_for(child.wait(), 10)
        except TimeoutError:
            child.kill()
            await child.wait()


_let_go: set[asyncio.Task[None]] = set()  # children let go, until they have ended


async def _finish(child: asyncio.subprocess.Process) -> None:
    """Read what a child let go still says (an answer bigger than the pipe's buffer would
    block it forever) until it ends."""
    assert child.stdout is not None
    while await child.stdout.read(1 << 16):
        pass
    await child.wait()


async def _read_frame(stream: asyncio.StreamReader) -> Any:
    (length,) = _LENGTH.unpack(await stream.readexactly(_LENGTH.size))
    return pickle.loads(await stream.readexactly(length))


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None


def serve(path: str, busy_timeout: float, requests: BinaryIO, answers: BinaryIO) -> None:
    """The child's loop: one connection, one transaction per request, until stdin ends."""
    dies_after_commit = os.environ.get("TAPIS_TEST_WRITER_DIES_AFTER_COMMIT")
    db = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None,
                         check_same_thread=False)
    try:
        configure(db)
        while (header := _read_exactly(requests, _LENGTH.size)) is not None:
            (length,) = _LENGTH.unpack(header)
            body = _read_exactly(requests, length)
            if body is None:
                break
            items: list[Item] = pickle.loads(body)
            bodies = [bound(function, args) for function, args in items]
            try:
                answer: tuple[Any, ...] = ("ok", transaction(db, each_in_savepoint, bodies))
            except sqlite3.Error as error:
                answer = ("failed", str(error))
            except Exception as error:  # reported to the parent, not lost
                answer = ("failed", f"{type(error).__name__}: {error}")
            if answer[0] == "ok" and dies_after_commit and os.path.exists(dies_after_commit):
                os.remove(dies_after_commit)
                os.kill(os.getpid(), signal.SIGKILL)
            frame = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
            try:
                answers.write(_LENGTH.pack(len(frame)) + frame)
                answers.flush()
            except BrokenPipeError:
                # The parent died while this batch committed: nobody is left to answer or
                # send another. What is still buffered goes nowhere, so that closing the
                # pipe at exit raises no second, unheard error.
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, answers.fileno())
                os.close(devnull)
                break
    finally:
        db.close()


def main() -> None:
    """The child's entry point: `python -c "from db.sqlite_writer import main; main()" PATH
    BUSY_TIMEOUT` (`-m` would import this module twice, once through `db`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # The answers get stdout's pipe to themselves: anything printed goes to stderr.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.argv[1], float(sys.argv[2]), sys.stdin.buffer, answers)
