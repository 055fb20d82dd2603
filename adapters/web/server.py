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

from adapters.web import boards
from adapters.web.auth import (
    INIT_DATA_MAX_AGE,
    Person,
    Refused,
    Signer,
    check_init_data,
)
from adapters.web.replays import ReplayPages
from bot.commands import AddBot, Command, Join, NewGame, Play, Start, run
from bot.i18n import LANGS, t
from bot.live import Actor, Live
from bot.tables import Tables
from bot.web_view import Watchers, genuine_table, public_part, seat_part
from db.repository import LOBBY, StorageError

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
PAGES_PER_TURN = 50  # pages sent their change before the event loop is let go again
BACKED_UP = 64 * 1024  # unsent bytes on a page's socket past which it gets its own sender
# Who is at a Discord table's public "Watch" page: nobody in particular.
WATCHER = Person("discord", "", "")
# Seconds between two looks at the tables shown here that another process drives.
POLL_EVERY = 0.5


@dataclass(eq=False)
class Page:
    """One open page: its socket, who is at it, and the table it shows."""

    ws: web.WebSocketResponse
    person: Person | None = None
    tables: Tables | None = None
    table_id: int | None = None
    stop_watching: Callable[[], None] | None = None
    dirty: bool = False
    pushing: asyncio.Task[None] | None = None  # a send to a socket that is backed up
    transport: asyncio.BaseTransport | None = None
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
                 clock: Callable[[], float] = time.time, default_lang: str = "en",
                 poll_every: float = POLL_EVERY) -> None:
        self.tables: dict[str, Tables] = {}
        self.members: dict[str, MemberCheck] = {}
        self.watchers = watchers
        self.default_lang = default_lang
        self.poll_every = poll_every
        self._seen: dict[tuple[str, int], tuple[object, ...]] = {}
        self._polling: asyncio.Task[None] | None = None
        self.signer = signer
        self.public_origin = _origin(public_url) if public_url else None
        self.local = local
        self.local_channel = local_channel
        self.telegram_token = telegram_token
        self.said = said  # what was announced at a table, where the page is its only client
        self.clock = clock
        self.pages: set[Page] = set()
        self._frames: dict[tuple[object, ...], tuple[float, str]] = {}
        # Per table version and language: the JSON of what all its pages are sent alike.
        self._shared: dict[tuple[object, ...], str] = {}
        self._dirty: dict[Page, None] = {}  # pages to send their change, in order told
        self._draining: asyncio.Task[None] | None = None
        self.runner: web.AppRunner | None = None
        for platform, platform_tables in tables.items():
            self.add(platform, platform_tables, is_member)

    def add(self, platform: str, tables: Tables, is_member: MemberCheck | None = None) -> None:
        """Serve `platform`'s tables too (an adapter hands them over once it made them):
        their pages hear of every delivery as the outbox takes it. `is_member` says whether
        someone without a seat is in a table's chat, and may see it."""
        self.tables[platform] = tables
        self.watchers.attach(tables)
        if is_member is not None:
            self.members[platform] = is_member
        self.default_lang = tables.settings.default_lang

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
        self._polling = asyncio.get_running_loop().create_task(self._poll())
        for address in self.runner.addresses:
            if isinstance(address, tuple):
                return int(address[1])
        raise RuntimeError("the web server listens on no TCP port")

    async def close(self) -> None:
        if self._polling is not None:
            self._polling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._polling
            self._polling = None
        if self._draining is not None:
            self._draining.cancel()
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
            except Refused as exc:
                return _refusal_page(t(self._lang(None), f"web_refused_{exc.code}"))
            try:
                await self._spend(tables, "link:" + link.nonce, link.expires)
            except Refused as exc:
                # The hand shows the same link for a few minutes: its holder, already in
                # a session of theirs in this browser, opens it again. Anyone else is
                # refused, as the link is spent.
                if self._person(request) != link.person:
                    return _refusal_page(t(self._lang(None), f"web_refused_{exc.code}"))
                raise web.HTTPSeeOther(f"/t/{ref}") from None
            response = web.HTTPSeeOther(f"/t/{ref}")
            self._set_session(request, response, link.person)
            raise response
        return _refusal_page(t(lang, "web_refused_no_table"))

    async def _spend(self, tables: Tables, key: str, until: float) -> None:
        """Use a single-use sign-in once, across every process of the bot: they share the
        database, so launch data or a link taken by one is refused by all the others."""
        try:
            fresh = await tables.repo.spend_login(key, until, self.clock())
        except StorageError:
            raise Refused("storage") from None
        if not fresh:
            raise Refused("replayed")

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
            await self._spend(next(iter(self.tables.values())), "tg:" + launch.hash,
                              launch.auth_date + INIT_DATA_MAX_AGE)
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
        return lang if lang in LANGS else self.default_lang

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
        page = Page(ws, transport=request.transport)
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
        elif kind == "join" and self.local is None:
            await self._join(page)
        elif kind == "new" and self.local is not None:
            await self._new_local(page, data)
        elif kind == "ladder":
            await boards.send(page, self._page_lang)

    async def _open(self, page: Page, found: Person | Refused | None, ref: object) -> None:
        if isinstance(found, Refused):
            await self._refuse(page, found.code, None)
            return
        if found is None:
            found = await self._watcher(ref)
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
        is_member = self.members.get(tables.platform)
        if found.user_id and live.seat_of(found.user_id) is None and self.local is None and (
                is_member is None or not await _member(is_member, found, table_id)):
            await self._refuse(page, "not_member", found)
            return
        page.person, page.tables, page.table_id = found, tables, table_id
        if page.stop_watching is not None:
            page.stop_watching()
        page.stop_watching = self.watchers.watch(table_id, lambda _id: self._changed(page))
        page.last = ()
        self._changed(page)

    async def _watcher(self, ref: object) -> Person | None:
        """Discord's public "Watch" link: whoever has a Discord table's reference (it is
        on the table message, in the channel) sees its public view, as the channel shows
        it, with no login; they act for no seat. Telegram's spectators log in (their
        membership of the chat decides), so no one watches one of its tables this way."""
        tables = self.tables.get("discord")
        if tables is None or not isinstance(ref, str) or not ref:
            return None
        table_id = await genuine_table(tables, ref)
        if table_id is None:
            return None
        live = await tables.live_table(table_id)
        return WATCHER if live is not None and live.row.platform == "discord" else None

    async def _refuse(self, page: Page, code: str, person: Person | None) -> None:
        await page.ws.send_json({"type": "refused", "code": code,
                                 "text": t(self._lang(person), f"web_refused_{code}")})

    def _actor(self, page: Page) -> Actor:
        assert page.person is not None
        return Actor(page.person.user_id, page.person.name, is_admin=self.local is not None)

    async def _play(self, page: Page, text: str) -> None:
        """A move, at the page's own table: through the same door as `/play`, and judged by
        the table (the seat must be the person's, now: a page left open after its seat
        went to a bot is refused in words)."""
        await self._command(page, Play(text, table_id=page.table_id))

    async def _join(self, page: Page) -> None:
        """Someone the platform lists in the table's chat joins its open lobby from the
        page, as `/join` typed there would; a lobby that is no longer the channel's table
        (it started, or was cancelled) is refused as a join would be."""
        await self._command(page, Join())

    async def _command(self, page: Page, command: Command) -> None:
        if page.tables is None or page.table_id is None or page.person is None:
            return
        if not page.person.user_id:  # a Discord watcher: no one, no seat
            await self._refuse(page, "login", None)
            return
        tables = page.tables
        try:
            live = await tables.live_table(page.table_id)
            if live is None:
                return
            if isinstance(command, Join):
                current = await tables.table_for_channel(live.row.channel)
                if current is None or current.id != page.table_id \
                        or current.status != LOBBY:
                    await self._reply(page, False, t(await self._page_lang(page), "no_table"))
                    return
            reply = await run(tables, self._actor(page), live.row.channel, command)
        except StorageError:
            await self._reply(page, False, t(self._lang(page.person), "storage_failed"))
            return
        await self._reply(page, reply.ok, reply.text)
        self._changed(page)

    async def _reply(self, page: Page, ok: bool, text: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await page.ws.send_json({"type": "reply", "ok": ok, "text": "" if ok else text})

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
        channel = self.local_channel
        reply = await run(tables, actor, channel,
                          NewGame(str(game)[:40], str(options)[:200].split(), title="web"))
        if reply.ok:
            for _ in range(max(0, min(int(bots), 12))):
                reply = await run(tables, actor, channel, AddBot())
                if not reply.ok:
                    break
            if reply.ok:
                reply = await run(tables, actor, channel, Start())
        if not reply.ok:
            await page.ws.send_json({"type": "reply", "ok": False, "text": reply.text})
            return
        await self._open(page, self.local, "")

    # --- tables another process drives ---------------------------------------------------

    async def _poll(self) -> None:
        """Several processes: a move made through another one reaches this process's
        outbox only when this one drives the table. The tables pages show here and this
        process does not drive are read again now and then (one row each: a copy kept here
        is read afresh only when its version moved), and their pages told of a change."""
        while True:
            await asyncio.sleep(self.poll_every)
            try:
                await self._look_again()
            except Exception:
                log.exception("web: looking at other processes' tables failed")

    async def _look_again(self) -> None:
        watched = set(self.watchers.watching())
        for platform, tables in self.tables.items():
            if tables.driving is None:
                continue
            for table_id in watched:
                if tables.drives(table_id):
                    continue
                try:
                    live = await tables.live_table(table_id)
                except StorageError:
                    continue
                if live is None or live.row.platform != platform:
                    continue
                seen = (live.row.version, live.row.updated_at, live.row.status)
                # First sight too: a page may have been drawn from an older copy. A page
                # is never sent the same table twice, so a needless look costs no frame.
                if self._seen.get((platform, table_id)) != seen:
                    self.watchers.changed(table_id)
                self._seen[(platform, table_id)] = seen
        self._seen = {key: value for key, value in self._seen.items() if key[1] in watched}

    # --- pushing -------------------------------------------------------------------------------

    def _changed(self, page: Page) -> None:
        """The table changed: the page gets its view on the next drain (changes meanwhile
        are folded into one frame), or once the frame being sent to it is out."""
        page.dirty = True
        if page.pushing is not None and not page.pushing.done():
            return  # its own sender sends the newest once the socket takes it
        self._dirty[page] = None
        if self._draining is None or self._draining.done():
            self._draining = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """One task sends every page its change, a few pages at a time, each time after
        the presses already waiting: a press's reply is what its player waits for, and a
        page only needs the newest state, whenever it comes. A page whose socket is backed
        up gets its own sender, so that one slow reader holds up no other page."""
        while self._dirty:
            await asyncio.sleep(0)  # presses made ready on this turn go first
            pages, self._dirty = list(self._dirty), {}
            # The pages of one table told in one batch read it once: the same copy, or
            # for a table another process drives, one row read for all of them.
            read: dict[tuple[str, int], Live | None] = {}
            for n, page in enumerate(pages):
                if n and n % PAGES_PER_TURN == 0:
                    await asyncio.sleep(0)
                if not page.dirty or page.ws.closed:
                    continue
                if page.pushing is not None and not page.pushing.done():
                    continue
                if _backed_up(page):
                    page.pushing = asyncio.get_running_loop().create_task(self._push(page))
                    continue
                try:
                    await self._send_once(page, read)
                except Exception:  # one page's failure is no other page's
                    log.exception("a web page could not be sent its table")

    async def _push(self, page: Page) -> None:
        while page.dirty and not page.ws.closed:
            if not await self._send_once(page):
                return

    async def _send_once(self, page: Page,
                         read: dict[tuple[str, int], Live | None] | None = None) -> bool:
        """Send the page its newest frame if it shows something new; False when the page
        cannot be sent anything (its table unreadable, its socket gone). `read`: the
        tables read for the pages of this batch."""
        page.dirty = False
        try:
            drawn = await self._frame(page, read)
        except StorageError:
            log.warning("a web page's table could not be read", exc_info=True)
            return False
        # The same table for the same seat is not sent twice (only its deadline's
        # seconds would differ, which the page counts down itself).
        if drawn is None or drawn[0] == page.last:
            return True
        page.last, frame = drawn
        try:
            await page.ws.send_str(frame)
            page.frames += 1
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def _frame(self, page: Page, read: dict[tuple[str, int], Live | None] | None = None
                     ) -> tuple[tuple[object, ...], str] | None:
        """The page's next frame. What every page of a table version is sent alike (names,
        narration and words in one language, every hand once the game is over:
        `public_part`) is drawn and encoded once per version and language; each seat adds
        its own view (`seat_part`), drawn once per seat and shared by that seat's pages
        (every spectator of a table is the public). A page's frame is its seat's part and
        the shared one, and never another seat's: the shared part takes no seat."""
        if page.tables is None or page.table_id is None or page.person is None:
            return None
        tables = page.tables
        live = await self._live(tables, page.table_id, read)
        if live is None:
            return None
        holder = live.seat_of(page.person.user_id)
        seat = None if holder is None else holder.seat
        lang = await self._page_lang(page, live)
        said = self.said(live.id) if self.said is not None else None
        version = (tables.platform, live.id, live.row.version, live.row.updated_at)
        key = (*version, seat, lang, tuple(said or ()))
        now = time.monotonic()
        kept = self._frames.get(key)
        if kept is not None and now - kept[0] < FRAME_REUSE:
            return key, kept[1]
        shared = self._shared.get((*version, lang))
        if shared is None:
            ref = live.ref or await tables.ref(live.id)
            shared = json.dumps(public_part(live, ref, lang), ensure_ascii=False,
                                separators=(",", ":"))[1:-1]
            if len(self._shared) >= KEPT_FRAMES:
                self._shared.clear()
            self._shared[(*version, lang)] = shared
        own = seat_part(live, seat, tables.clock.now(), lang)
        if said is not None:
            own["said"] = said
        status = live.row.status
        if self.local is None and status == LOBBY and seat is None and page.person.user_id:
            own["can_join"] = True  # a spectator the platform lists in the chat
        if self.local is not None and status not in {"lobby", "playing"}:
            own["games"] = _games()  # a new table may be opened from the page
        frame = '{"type":"view",' + shared + "," + json.dumps(
            own, ensure_ascii=False, separators=(",", ":"))[1:]
        if len(self._frames) >= KEPT_FRAMES:
            self._frames.clear()
        self._frames[key] = (now, frame)
        return key, frame

    async def _live(self, tables: Tables, table_id: int,
                    read: dict[tuple[str, int], Live | None] | None = None) -> Live | None:
        """The table as it is now, asked once per batch of pages (`Tables.live_table` gives
        a table this process drives from memory, and reads one another process drives)."""
        if read is None:
            return await tables.live_table(table_id)
        key = (tables.platform, table_id)
        if key not in read:
            read[key] = await tables.live_table(table_id)
        return read[key]

    async def _page_lang(self, page: Page, live: Live | None = None) -> str:
        """The player's own /lang, else their app's language, else the table's channel's.
        (Read from the people's settings kept in memory: no read once they are known, and
        a /lang shows on the page with the table's next change.)"""
        assert page.tables is not None and page.person is not None
        own = await page.tables.people.own_lang(page.person.user_id)
        if own:
            return own
        if page.person.lang and page.person.lang.split("-")[0] in LANGS:
            return page.person.lang.split("-")[0]
        if live is None:
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


async def _member(is_member: MemberCheck, person: Person, table_id: int) -> bool:
    """Whether the platform lists the person in the table's chat; not known (the
    platform did not answer) counts as no."""
    try:
        return await is_member(person, table_id)
    except Exception:
        log.warning("web: membership of table %s could not be asked", table_id, exc_info=True)
        return False


def _backed_up(page: Page) -> bool:
    """The socket holds unsent bytes: a send to it now could wait for its reader."""
    transport = page.transport
    if not isinstance(transport, asyncio.WriteTransport):
        return False
    return transport.is_closing() or transport.get_write_buffer_size() > BACKED_UP


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
