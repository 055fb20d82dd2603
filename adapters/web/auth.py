"""Who is at the page: Telegram's launch data, Discord's private links, and the session
either is exchanged for.

Authority comes from the platform, never from the page: on Telegram the user id is read
from `initData` only once Telegram's signature over it checks out (an HMAC keyed with the
bot's token); on Discord from a link the bot signed for one user and one table and sent to
that user privately. Either is exchanged once for a session (a signed cookie), which the
websocket and every later request use: a reconnect shows the session, never the launch
data or the link again.

A session is signed rather than stored, so any process of a cluster accepts it; what is
spent (launch data and links exchanged already) is stored in the database the processes
share (`Repository.spend_login`), until it expires, so no process takes it twice.
"""

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

# Launch data older than this is refused: Telegram signs it when the app opens.
INIT_DATA_MAX_AGE = 3600.0
# A Discord link is sent privately and used at once; its token lives this long.
LINK_SECONDS = 15 * 60
SESSION_SECONDS = 24 * 3600
CLOCK_SKEW = 60.0  # an auth_date this far in the future is still believed


class Refused(Exception):
    """Launch data, a link or a session that cannot be believed. `code` names the reason;
    the page says it in words (adapters/web/static: `refusal.<code>`)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Person:
    """Who a session speaks for: the platform and the user id there, with the name and
    language the platform gave."""

    platform: str
    user_id: str
    name: str
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class TelegramLaunch:
    person: Person
    start_param: str | None
    auth_date: int
    hash: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(key: bytes, purpose: str, body: str) -> str:
    # One secret, a key per purpose: a session can never pass for a link, nor a link for one.
    sub = hmac.new(key, purpose.encode(), hashlib.sha256).digest()
    return _b64(hmac.new(sub, body.encode(), hashlib.sha256).digest())


def check_init_data(init_data: str, bot_token: str, now: float,
                    max_age: float = INIT_DATA_MAX_AGE) -> TelegramLaunch:
    """Telegram's check of a Mini App's launch data (core.telegram.org/bots/webapps,
    "Validating data received via the Mini App"): the fields but `hash`, as `key=value`
    lines sorted by key, signed with HMAC-SHA256 under HMAC-SHA256("WebAppData", token)."""
    if not isinstance(init_data, str) or not init_data or len(init_data) > 8192:
        raise Refused("bad_launch")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Refused("bad_launch") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a field given twice: which one was signed?
        raise Refused("bad_launch")
    received = fields.pop("hash", "")
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    if not received or not hmac.compare_digest(expected, received.lower()):
        raise Refused("bad_signature")
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        raise Refused("bad_launch") from None
    if auth_date > now + CLOCK_SKEW:
        raise Refused("bad_launch")
    if now - auth_date > max_age:
        raise Refused("stale_launch")
    try:
        user = json.loads(fields.get("user", ""))
        user_id = user["id"]
    except (ValueError, KeyError, TypeError):
        raise Refused("bad_launch") from None
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
        raise Refused("bad_launch")
    name = " ".join(str(user.get(part) or "") for part in ("first_name", "last_name")).strip()
    lang = user.get("language_code")
    person = Person("telegram", str(user_id), name or str(user_id),
                    lang if isinstance(lang, str) else None)
    return TelegramLaunch(person, fields.get("start_param"), auth_date, expected)


@dataclass(frozen=True, slots=True)
class Link:
    person: Person
    table_id: int
    nonce: str
    expires: float


class Signer:
    """Makes and checks what the web server signs: Discord links and sessions."""

    def __init__(self, secret: bytes) -> None:
        self._key = secret

    # --- Discord's private links ----------------------------------------------------------

    def link_token(self, person: Person, table_id: int, now: float,
                   lifetime: float = LINK_SECONDS) -> str:
        body = _b64(json.dumps({"p": person.platform, "u": person.user_id, "n": person.name,
                                "l": person.lang, "t": table_id, "e": int(now + lifetime),
                                "x": secrets.token_urlsafe(9)}, separators=(",", ":"))
                    .encode())
        return f"{body}.{_mac(self._key, 'link', body)}"

    def check_link(self, token: str, table_id: int, now: float) -> Link:
        """The link's person, if `token` is one this server signed, for this table, not
        expired. Spending it (single use) is the caller's: `Repository.spend_login`."""
        data = self._open(token, "link")
        try:
            person = Person(str(data["p"]), str(data["u"]), str(data["n"]),
                            data["l"] if isinstance(data.get("l"), str) else None)
            linked, expires, nonce = int(data["t"]), float(data["e"]), str(data["x"])
        except (KeyError, TypeError, ValueError):
            raise Refused("bad_link") from None
        if linked != table_id:
            raise Refused("other_table")
        if expires < now:
            raise Refused("stale_link")
        return Link(person, linked, nonce, expires)

    # --- sessions -------------------------------------------------------------------------

    def session(self, person: Person, now: float, lifetime: float = SESSION_SECONDS) -> str:
        body = _b64(json.dumps({"p": person.platform, "u": person.user_id, "n": person.name,
                                "l": person.lang, "e": int(now + lifetime)},
                               separators=(",", ":")).encode())
        return f"{body}.{_mac(self._key, 'session', body)}"

    def check_session(self, token: str, now: float) -> Person:
        data = self._open(token, "session")
        try:
            person = Person(str(data["p"]), str(data["u"]), str(data["n"]),
                            data["l"] if isinstance(data.get("l"), str) else None)
            expires = float(data["e"])
        except (KeyError, TypeError, ValueError):
            raise Refused("bad_session") from None
        if expires < now:
            raise Refused("stale_session")
        return person

    def _open(self, token: str, purpose: str) -> dict[str, Any]:
        refusal = "bad_link" if purpose == "link" else "bad_session"
        if not isinstance(token, str) or len(token) > 2048 or token.count(".") != 1:
            raise Refused(refusal)
        body, mac = token.split(".")
        if not hmac.compare_digest(_mac(self._key, purpose, body).encode(), mac.encode()):
            raise Refused(refusal)
        try:
            data = json.loads(_unb64(body))
        except ValueError:
            raise Refused(refusal) from None
        if not isinstance(data, dict):
            raise Refused(refusal)
        return data
