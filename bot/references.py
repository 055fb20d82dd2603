"""How buttons and links name a table: its id and a tag only this bot can make (an HMAC
under a secret stored in the database on first run), so no one can name a table they
were never shown by counting ids."""

import base64
import hashlib
import hmac
import secrets

from bot.render import TAG_LENGTH, encode_ref
from db.repository import Repository

# The stored secret that keys table references: generated on first run.
REFERENCE_SECRET = "table-references"


class References:
    def __init__(self, repo: Repository) -> None:
        self._repo = repo
        self._key: bytes | None = None

    async def ref(self, table_id: int) -> str:
        if self._key is None:
            stored = await self._repo.secret(REFERENCE_SECRET, secrets.token_urlsafe(32))
            self._key = stored.encode()
        digest = hmac.new(self._key, f"table:{table_id}".encode(), hashlib.sha256).digest()
        return encode_ref(table_id, base64.urlsafe_b64encode(digest).decode()[:TAG_LENGTH])

    async def genuine(self, table_id: int, tag: str) -> bool:
        # Checked before the table is loaded: a forged reference costs no database read.
        expected = await self.ref(table_id)
        return hmac.compare_digest(expected.encode(), encode_ref(table_id, tag).encode())
