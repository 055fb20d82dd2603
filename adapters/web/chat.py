"""The web page beside the chat platforms (WEB_URL set): the server, and the links the
platforms' adapters put on their messages.

`python -m bot` starts the server (`serve_beside`) when WEB_URL is set, and each platform's
adapter hands it its `Tables` (`WebServer.add`), whose outbox then tells the pages of every
change; what an adapter shows its users is one of the links below. Nothing here sends a
message: the adapters do.
"""

import secrets
import time
from urllib.parse import quote

from adapters.web.auth import Person, Signer
from adapters.web.server import MemberCheck, WebServer
from bot.settings import Settings
from bot.tables import Tables
from bot.web_view import Watchers
from db.repository import Repository

SECRET_NAME = "web_secret"


async def signer_for(settings: Settings, repo: Repository) -> Signer:
    """WEB_SECRET, or the key made at first use and kept in the database, so that every
    process of a cluster signs and checks alike."""
    secret = settings.web_secret or await repo.secret(SECRET_NAME, secrets.token_urlsafe(32))
    return Signer(secret.encode())


async def serve_beside(tables: dict[str, Tables], watchers: Watchers, settings: Settings,
                       repo: Repository, *, is_member: MemberCheck | None = None
                       ) -> WebServer | None:
    """The page's server for these platforms' tables, listening on WEB_HOST:WEB_PORT; None
    when WEB_URL is unset (no page is offered)."""
    if settings.web_url is None:
        return None
    server = WebServer(tables, watchers, await signer_for(settings, repo),
                       public_url=settings.web_url, telegram_token=settings.telegram_token,
                       is_member=is_member)
    await server.start(settings.web_host, settings.web_port)
    return server


def table_url(settings: Settings, ref: str) -> str | None:
    """The table's page, for the Telegram hand message's `web_app` button (a private chat
    only) and Discord's public "Watch" link: it opens the public view to anyone the
    platform lets see the table."""
    if settings.web_url is None:
        return None
    return f"{settings.web_url.rstrip('/')}/t/{quote(ref, safe='')}"


def private_link(settings: Settings, signer: Signer, person: Person, table_id: int,
                 ref: str, now: float | None = None) -> str | None:
    """A Discord player's own link to the table: signed for them and this table, spent by
    its first use. Anyone who sees it can use it first, so it is only ever sent privately
    (the ephemeral "My hand" answer, the DM hand)."""
    base = table_url(settings, ref)
    if base is None:
        return None
    token = signer.link_token(person, table_id, time.time() if now is None else now)
    return f"{base}?token={token}"


def miniapp_link(settings: Settings, bot_username: str, ref: str) -> str | None:
    """The group's link to the direct-link Mini App (`t.me/<bot>/<app>?startapp=<table>`):
    Telegram allows a `web_app` button only in private chats."""
    if settings.web_url is None or settings.telegram_miniapp is None:
        return None
    return f"https://t.me/{bot_username}/{settings.telegram_miniapp}?startapp={ref}"
