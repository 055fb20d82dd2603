"""JSON snapshots of dataclass states.

States are plain dataclasses of lists, ints and strings, so one pydantic `TypeAdapter`
per game validates a loaded snapshot. (Each game copies its own state in `apply`, field
by field: a generic deep copy costs more than the rest of a move.) Keys are sorted and
separators fixed so that two equal states dump to the same bytes: replay == snapshot is
checked byte for byte.

orjson writes them: every move stores one, and the standard library's encoder was a
twelfth of a move's CPU time (orjson writes the same bytes, sorted keys and all, about
six times faster; `tests/engine/test_snapshots.py` holds it to the standard library's
output), and reads them back at every load and resume. It is handed the state itself:
orjson asks `_fields` for each dataclass in it and sorts the dicts that gives, the same
dicts pydantic's serializer made for it at a quarter more of the dump's time.
"""

from collections.abc import Callable
from dataclasses import fields
from typing import Any, Generic, TypeVar

import orjson
from pydantic import TypeAdapter, ValidationError

from engine.core.errors import BadOptions

S = TypeVar("S")

# Keys sorted, as `json.dumps(sort_keys=True)` sorts them (ints too, which it writes as strings).
# Dataclasses passed through to `_fields`: orjson's own writes their fields unsorted.
_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
_READERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _fields(value: Any) -> dict[str, Any]:
    """A dataclass as the dict of its fields (what `dataclasses.asdict` gives one level
    down: orjson comes back for the dataclasses inside)."""
    reader = _READERS.get(type(value))
    if reader is None:
        reader = _READERS[type(value)] = _reader(type(value))
    return reader(value)


def _reader(kind: type) -> Callable[[Any], dict[str, Any]]:
    """The function reading one dataclass's fields, written out for them as `dataclasses`
    writes `__init__`: `lambda v: {"card": v.card, "seat": v.seat}` reads four times
    faster than a loop of `getattr`, and a snapshot holds dozens of small dataclasses
    (chips on the board, plays of a trick), a third of a dump's time."""
    try:
        names = [field.name for field in fields(kind)]
    except TypeError:
        raise TypeError(f"{kind.__name__} is not part of a snapshot") from None
    # Field names are identifiers (the class statement made them): nothing else is read.
    reader: Callable[[Any], dict[str, Any]] = eval(
        "lambda v: {" + ", ".join(f"{name!r}: v.{name}" for name in names) + "}")
    return reader


class Snapshots(Generic[S]):
    def __init__(self, state_type: type[S], game_id: str, version: int = 1) -> None:
        self._adapter: TypeAdapter[S] = TypeAdapter(state_type)
        self.game_id = game_id
        self.version = version

    def dump(self, state: S) -> str:
        body = {"game": self.game_id, "format": self.version, "state": state}
        return orjson.dumps(body, option=_SORTED, default=_fields).decode()

    def load(self, text: str) -> S:
        try:
            body: dict[str, Any] = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise BadOptions(f"snapshot is not JSON: {exc}") from exc
        if body.get("game") != self.game_id:
            raise BadOptions(f"snapshot is for {body.get('game')!r}, not {self.game_id!r}")
        if body.get("format") != self.version:
            raise BadOptions(f"snapshot format {body.get('format')!r} is not {self.version}")
        try:
            return self._adapter.validate_python(body["state"])
        except (ValidationError, KeyError) as exc:
            raise BadOptions(f"snapshot does not fit {self.game_id}: {exc}") from exc
