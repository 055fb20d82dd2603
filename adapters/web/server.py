"""The web server: the page, its files, the exchange of launch data or links for a session,
and one websocket per open page.

The page is a client like a chat: a move it sends is the text a chat player types, judged
by the same entry point (`Tables.play`), and a refusal comes back as the chat's sentence.
What it shows is pushed to it as its seat's view (`bot.web_view.seat_view`) whenever the
table changes, and in full at every (re)connection, which is how a page catches up.
"""

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from adapters.web.auth import (
    INIT_DATA_MAX_AGE,
    Person,
    Refused,
    Signer,
    Spent,
    check_init_data,
)
from adapters.web.replays import ReplayPages
from bot.i18n import LANGS, t
from bot.live import Actor
from bot.tables import Tables
from bot.web_view import Watchers, genuine_table, seat_view
from db.repository import StorageError

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("adapters.web") / "static"))
COOKIE = "tapis_session"
MAX_FRAME = 16 * 1024  # a move is a line of text; nothing a page sends is longer
# The page and everything it loads come from this server: no other origin, no inline code.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'")
MemberCheck = Callable[[Person, int], Awaitable[bool]]
# A drawing is shared by the pages of one seat for this long (its deadline's seconds age).
FRAME_REUSE = 0.5
KEPT_FRAMES = 4096


@dataclass(eq=False)
class Page:
    """One open page: its socket, who is at it, and the table it shows."""

    ws: web.WebSocketResponse
    person: Person | None = None
    tables: Tables | None = None
    table_id: int | None = None
    stop_watching: Callable[[], None] | None = None
    dirty: bool = False
    pushing: asyncio.Task[None] | None = None
    last: tuple[object, ...] = ()  # what the last frame sent showed (`WebServer._frame`)
    frames: int = 0


class WebServer:
    """`tables`: each platform's `Tables`, by platform name. `local`: the one person of
    `python -m bot --web` (no login); else people come through Telegram or Discord."""

    def __init__(self, tables: dict[str, Tables], watchers: Watchers, signer: Signer, *,
                 public_url: str | None = None, local: Person | None = None,
                 telegram_token: str | None = None, is_member: MemberCheck | None = None,
                 local_channel: str = "local",
                 said: Callable[[int], list[str]] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.tables = tables
        self.watchers = watchers
        self.signer = signer
        self.public_origin = _origin(public_url) if public_url else None
        self.local = local
        self.local_channel = local_channel
        self.telegram_token = telegram_token
        self.is_member = is_member
        self.said = said  # what was announced at a table, where the page is its only client
        self.clock = clock
        self.spent = Spent()
        self.pages: set[Page] = set()
        self._frames: dict[tuple[object, ...], tuple[float, str]] = {}
        self.runner: web.AppRunner | None = None

    # --- serving ---------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024, middlewares=[_headers])
        app.router.add_get("/", self._index)
        app.router.add_get("/t/{ref}", self._table_page)
        app.router.add_post("/api/telegram", self._telegram)
        app.router.add_get("/ws", self._socket)
        app.router.add_static("/static/", STATIC, follow_symlinks=False)
        ReplayPages(self.tables, STATIC, self._person).add_to(app)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen; the port actually bound (for port 0)."""
        self.runner = web.AppRunner(self.app(), access_log=None)  # no IP address is logged
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        for address in self.runner.addresses:
            if isinstance(address, tuple):
                return int(address[1])
        raise RuntimeError("the web server listens on no TCP port")

    async def close(self) -> None:
        for page in list(self.pages):
            with contextlib.suppress(Exception):
                await page.ws.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # --- pages and sessions -----------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _table_page(self, request: web.Request) -> web.StreamResponse:
        """A table's page; with `?token=` (a Discord link), the link is exchanged for a
        session first and the page shown without it, so the token leaves the address bar."""
        token = request.query.get("token")
        if token is None:
            return web.FileResponse(STATIC / "index.html")
        ref = request.match_info["ref"]
        lang = self._lang(None)
        for tables in self.tables.values():
            table_id = await genuine_table(tables, ref)
            if table_id is None:
                continue
            try:
                link = self.signer.check_link(token, table_id, self.clock())
                self.spent.spend("link:" + link.nonce, link.expires, self.clock())
            except Refused as exc:
                return _refusal_page(t(self._lang(None), f"web_refused_{exc.code}"))
            response = web.HTTPSeeOther(f"/t/{ref}")
            self._set_session(request, response, link.person)
            raise response
        return _refusal_page(t(lang, "web_refused_no_table"))

    async def _telegram(self, request: web.Request) -> web.Response:
        """A Mini App's launch data, checked, exchanged once for a session."""
        if self.telegram_token is None:
            raise web.HTTPNotFound()
        try:
            body = await request.json()
            init_data = body.get("initData") if isinstance(body, dict) else None
        except (ValueError, UnicodeDecodeError):
            init_data = None
        now = self.clock()
        try:
            launch = check_init_data(init_data or "", self.telegram_token, now)
            self.spent.spend("tg:" + launch.hash, launch.auth_date + INIT_DATA_MAX_AGE, now)
        except Refused as exc:
            return web.json_response({"ok": False, "code": exc.code,
                                      "text": t(self._lang(None), f"web_refused_{exc.code}")},
                                     status=403)
        response = web.json_response({"ok": True, "ref": launch.start_param or ""})
        self._set_session(request, response, launch.person)
        return response

    def _set_session(self, request: web.Request, response: web.StreamResponse,
                     person: Person) -> None:
        secure = request.secure or (self.public_origin or "").startswith("https:")
        # Inside Telegram's web client the page is a frame of another site: its cookie must
        # be sent cross-site, which browsers allow only to a Secure, SameSite=None cookie.
        response.set_cookie(COOKIE, self.signer.session(person, self.clock()), httponly=True,
                            secure=secure, samesite="None" if secure else "Lax", path="/")

    def _person(self, request: web.Request) -> Person | Refused | None:
        if self.local is not None:
            return self.local
        token = request.cookies.get(COOKIE)
        if token is None:
            return None
        try:
            return self.signer.check_session(token, self.clock())
        except Refused as exc:
            return exc

    def _lang(self, person: Person | None) -> str:
        lang = person.lang if person is not None else None
        if lang:
            lang = lang.split("-")[0].lower()
        return lang if lang in LANGS else next(iter(self.tables.values())).settings.default_lang

    def _origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if self.local is not None:
            # Loopback only: the Host must be this machine, so that another site whose
            # name points at 127.0.0.1 (DNS rebinding) cannot pass for this one.
            host = urlsplit(f"http://{request.host}").hostname
            return host in {"127.0.0.1", "localhost", "::1"} and origin == \
                f"http://{request.host}"
        return origin is not None and origin == self.public_origin

    # --- the websocket ----------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not self._origin_ok(request):
            return web.Response(status=403, text=t(self._lang(None), "web_refused_origin"))
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_FRAME)
        await ws.prepare(request)
        page = Page(ws)
        self.pages.add(page)
        found = self._person(request)
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(data, dict):
                    continue
                await self._received(page, found, data)
        finally:
            self.pages.discard(page)
            if page.stop_watching is not None:
                page.stop_watching()
            if page.pushing is not None:
                page.pushing.cancel()
        return ws

    async def _received(self, page: Page, found: Person | Refused | None,
                        data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == "open":
            await self._open(page, found, data.get("ref"))
        elif kind == "play" and isinstance(data.get("text"), str):
            await self._play(page, data["text"][:200])
        elif kind == "new" and self.local is not None:
            await self._new_local(page, data)

    async def _open(self, page: Page, found: Person | Refused | None, ref: object) -> None:
        if isinstance(found, Refused):
            await self._refuse(page, found.code, None)
            return
        if found is None:
            await self._refuse(page, "login", None)
            return
        tables = self.tables.get(found.platform) or next(iter(self.tables.values()))
        table_id = None
        if isinstance(ref, str) and ref:
            table_id = await genuine_table(tables, ref)
        elif self.local is not None:
            row = await tables.table_for_channel(self.local_channel)
            if row is None:
                await page.ws.send_json({"type": "choose", "games": _games(),
                                         "words": _page_words(self._lang(found))})
                return
            table_id = row.id
        live = await tables.live_table(table_id) if table_id is not None else None
        if table_id is None or live is None or live.row.platform != tables.platform:
            await self._refuse(page, "no_table", found)
            return
        # Someone without a seat sees the public table if the platform lists them in the
        # table's chat, as for invitation links; nobody else sees anything.
        if live.seat_of(found.user_id) is None and self.local is None and (
                self.is_member is None or not await self.is_member(found, table_id)):
            await self._refuse(page, "not_member", found)
            return
        page.person, page.tables, page.table_id = found, tables, table_id
        if page.stop_watching is not None:
            page.stop_watching()
        page.stop_watching = self.watchers.watch(table_id, lambda _id: self._changed(page))
        page.last = ()
        self._changed(page)

    async def _refuse(self, page: Page, code: str, person: Person | None) -> None:
        await page.ws.send_json({"type": "refused", "code": code,
                                 "text": t(self._lang(person), f"web_refused_{code}")})

    def _actor(self, page: Page) -> Actor:
        assert page.person is not None
        return Actor(page.person.user_id, page.person.name, is_admin=self.local is not None)

    async def _play(self, page: Page, text: str) -> None:
        if page.tables is None or page.table_id is None or page.person is None:
            return
        tables = page.tables
        live = await tables.live_table(page.table_id)
        if live is None:
            return
        # `Tables.play` plays at the channel's current table: a page of an older table of
        # that channel must not play at the new one.
        current = await tables.table_for_channel(live.row.channel)
        if current is None or current.id != page.table_id:
            reply_text, ok = t(self._lang(page.person), "no_game"), False
        else:
            try:
                reply = await tables.play(self._actor(page), live.row.channel, text)
            except StorageError:
                reply_text, ok = t(self._lang(page.person), "storage_failed"), False
            else:
                reply_text, ok = reply.text, reply.ok
        await page.ws.send_json({"type": "reply", "ok": ok, "text": "" if ok else reply_text})
        self._changed(page)

    async def _new_local(self, page: Page, data: dict[str, Any]) -> None:
        """`--web`: a new table at the local channel, its bots, and the start, as the
        console's questions would; each refusal is shown as the chat's sentence."""
        tables = next(iter(self.tables.values()))
        assert self.local is not None
        actor = Actor(self.local.user_id, self.local.name, is_admin=True)
        game = data.get("game") if isinstance(data.get("game"), str) else ""
        options = data.get("options") if isinstance(data.get("options"), str) else ""
        wanted = data.get("bots")
        bots = wanted if isinstance(wanted, int) and not isinstance(wanted, bool) else 2
        reply = await tables.new_game(actor, self.local_channel, str(game)[:40],
                                      str(options)[:200].split(), title="web")
        if reply.ok:
            for _ in range(max(0, min(int(bots), 12))):
                reply = await tables.add_bot(actor, self.local_channel)
                if not reply.ok:
                    break
            if reply.ok:
                reply = await tables.start_game(actor, self.local_channel)
        if not reply.ok:
            await page.ws.send_json({"type": "reply", "ok": False, "text": reply.text})
            return
        await self._open(page, self.local, "")

    # --- pushing -------------------------------------------------------------------------------

    def _changed(self, page: Page) -> None:
        """The table changed: the page gets its view once the one being sent is out;
        changes meanwhile are folded into the next one."""
        page.dirty = True
        if page.pushing is None or page.pushing.done():
            page.pushing = asyncio.get_running_loop().create_task(self._push(page))

    async def _push(self, page: Page) -> None:
        while page.dirty and not page.ws.closed:
            page.dirty = False
            try:
                drawn = await self._frame(page)
            except StorageError:
                log.warning("a web page's table could not be read", exc_info=True)
                return
            # The same table for the same seat is not sent twice (only its deadline's
            # seconds would differ, which the page counts down itself).
            if drawn is None or drawn[0] == page.last:
                continue
            page.last, frame = drawn
            try:
                await page.ws.send_str(frame)
                page.frames += 1
            except (ConnectionError, RuntimeError):
                return

    async def _frame(self, page: Page) -> tuple[tuple[object, ...], str] | None:
        """The page's next frame. Pages of the same seat (every spectator of a table is
        the public) share one drawing of a change: a table watched by hundreds of pages
        is drawn once per seat, not once per page."""
        if page.tables is None or page.table_id is None or page.person is None:
            return None
        live = await page.tables.live_table(page.table_id)
        if live is None:
            return None
        holder = live.seat_of(page.person.user_id)
        lang = await self._page_lang(page)
        said = self.said(live.id) if self.said is not None else None
        key = (page.tables.platform, live.id, live.row.version, live.row.updated_at,
               None if holder is None else holder.seat, lang, tuple(said or ()))
        now = time.monotonic()
        kept = self._frames.get(key)
        if kept is not None and now - kept[0] < FRAME_REUSE:
            return key, kept[1]
        view = await seat_view(page.tables, page.table_id, page.person.user_id, lang)
        if view is None:
            return None
        if said is not None:
            view["said"] = said
        if self.local is not None and view["table"]["status"] not in {"lobby", "playing"}:
            view["games"] = _games()  # a new table may be opened from the page
        frame = json.dumps({"type": "view", **view}, ensure_ascii=False,
                           separators=(",", ":"))
        if len(self._frames) >= KEPT_FRAMES:
            self._frames.clear()
        self._frames[key] = (now, frame)
        return key, frame

    async def _page_lang(self, page: Page) -> str:
        """The player's own /lang, else their app's language, else the table's channel's."""
        assert page.tables is not None and page.person is not None
        own = await page.tables.people.own_lang(page.person.user_id)
        if own:
            return own
        if page.person.lang and page.person.lang.split("-")[0] in LANGS:
            return page.person.lang.split("-")[0]
        live = await page.tables.live_table(page.table_id or 0)
        if live is None:
            return self._lang(None)
        return await page.tables.channel_lang(live.row.channel)


@web.middleware
async def _headers(request: web.Request,
                   handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                   ) -> web.StreamResponse:
    response = await handler(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cache-Control", "no-cache")
    return response


def _origin(url: str) -> str:
    parts = urlsplit(url)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    return f"{parts.scheme}://{parts.hostname}{port}"


def _refusal_page(text: str) -> web.Response:
    from html import escape

    return web.Response(status=403, content_type="text/html", charset="utf-8",
                        text=f"<!doctype html><meta charset=utf-8><meta name=viewport "
                             f"content='width=device-width'><title>Tapis</title>"
                             f"<p>{escape(text)}</p>")


def _games() -> list[dict[str, Any]]:
    from engine import games

    return [{"id": g, "name": games.get(g).NAME, "seats": [games.get(g).SEATS.start,
                                                           games.get(g).SEATS.stop - 1]}
            for g in games.ids()]


def _page_words(lang: str) -> dict[str, str]:
    from bot.web_view import words

    return words(lang)
