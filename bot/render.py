"""Platform-neutral renderings: text blocks and buttons that adapters translate."""

from dataclasses import dataclass, field

PAYLOAD_LIMIT = 64  # Telegram's callback_data limit, the tighter of the two platforms


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    action: str  # "join", "start", "move:<notation>", ... (see bot.tables for the list)
    style: str = "secondary"  # primary, secondary, success, danger


@dataclass(slots=True)
class Rendering:
    title: str
    lines: list[str]
    buttons: list[list[Button]] = field(default_factory=list)
    version: int = 0  # the table version the buttons were drawn for

    @property
    def text(self) -> str:
        return "\n".join([self.title, *self.lines]) if self.lines else self.title


def encode_payload(table_id: int, version: int, action: str) -> str:
    """`<table>.<version>.<action>`: a press names the exact table state it was drawn for."""
    payload = f"{table_id}.{version}.{action}"
    if len(payload.encode()) > PAYLOAD_LIMIT:
        raise ValueError(f"button payload over {PAYLOAD_LIMIT} bytes: {payload!r}")
    return payload


def decode_payload(payload: str) -> tuple[int, int, str] | None:
    """None for anything that is not a payload we could have drawn (forged, truncated...)."""
    if not isinstance(payload, str) or len(payload.encode(errors="replace")) > PAYLOAD_LIMIT:
        return None
    parts = payload.split(".", 2)
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or not parts[2]:
        return None
    if not parts[2].isprintable():
        return None
    table_id, version = int(parts[0]), int(parts[1])
    if table_id > 2**62 or version > 2**62:
        return None
    return table_id, version, parts[2]


def rows(buttons: list[Button], per_row: int = 5, max_rows: int = 5) -> list[list[Button]]:
    """Discord allows 5 rows of 5; Telegram more, but a phone screen does not."""
    out = [buttons[i:i + per_row] for i in range(0, len(buttons), per_row)]
    return out[:max_rows]
