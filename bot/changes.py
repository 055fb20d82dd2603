"""Whether the request being handled has stored a change, for what a failure may still say.

An adapter's error handler tells the user that something failed. "Nothing changed, try
again" is true only while nothing was stored for that request: once a move, a seat or a
setting is stored, trying again would be wrong (the move is played, the seat taken).
Adapters open a record when they start handling a request (`track`), `Tables` notes
every change it stores (`note`), and the error handler asks `stored`. The record is a
mutable box in a context variable, so the tasks a handler starts share it; jobs of the
scheduler run outside any request and note nothing.
"""

from contextvars import ContextVar

_record: ContextVar[list[bool] | None] = ContextVar("tapis_changes", default=None)


def track() -> None:
    """A new request starts in this task: nothing stored for it yet."""
    _record.set([False])


def note() -> None:
    """A change was stored for the request being handled (if any)."""
    record = _record.get()
    if record is not None:
        record[0] = True


def stored() -> bool:
    record = _record.get()
    return record is not None and record[0]
