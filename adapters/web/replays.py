"""Replays of finished games on the web: `/r/<table>` is the page, `/api/replay/<table>`
its data (`bot.replay`), both open to whoever holds the link, with no session.

A link that shows no replay (forged, a game not over, cancelled, deleted by retention)
gets a page that says why in words, in the reader's language, before any script runs.
"""

import json
from collections.abc import Callable
from html import escape
from pathlib import Path

from aiohttp import web

from adapters.web.auth import Person, Refused
from bot.i18n import LANGS, t
from bot.replay import Refused as NoReplay
from bot.replay import Replays
from bot.tables import Tables
from bot.web_view import words
from db.repository import StorageError, TableRow

STATUS = {"forged": 404, "removed": 410, "unfinished": 403, "cancelled": 403, "broken": 500}
PersonOf = Callable[[web.Request], Person | Refused | None]


class ReplayPages:
    """The two routes. `tables`: each platform's `Tables` (any of them finds any table:
    they share one database and one reference key); `person`: who the session says is
    reading, if anyone, for their own language."""

    def __init__(self, tables: dict[str, Tables], static: Path, person: PersonOf) -> None:
        self.tables = tables
        self.static = static
        self.person = person
        self._replays: Replays | None = None

    @property
    def _first(self) -> Tables:
        """Any platform's tables: beside the chat, the server starts before the adapters
        hand theirs over, so nothing is looked up until a page is asked for."""
        return next(iter(self.tables.values()))

    @property
    def default_lang(self) -> str:
        return self._first.settings.default_lang

    @property
    def replays(self) -> Replays:
        if self._replays is None:
            self._replays = Replays(self._first.repo, self._first.ref)
        return self._replays

    def add_to(self, app: web.Application) -> None:
        app.router.add_get("/r/{ref}", self.page)
        app.router.add_get("/api/replay/{ref}", self.data)

    async def page(self, request: web.Request) -> web.StreamResponse:
        ref = request.match_info["ref"]
        try:
            found = await self.replays.find(ref)
        except StorageError:
            return refusal_page(t(await self.lang(request, None), "storage_failed"),
                                await self.lang(request, None), 503)
        if isinstance(found, NoReplay):
            lang = await self.lang(request, None)
            return refusal_page(found.text(lang), lang, STATUS[found.code])
        return web.FileResponse(self.static / "replay.html")

    async def data(self, request: web.Request) -> web.StreamResponse:
        ref = request.match_info["ref"]
        lang = self.default_lang
        try:
            found = await self.replays.find(ref)
            lang = await self.lang(request, found if isinstance(found, TableRow) else None)
            drawn = found if isinstance(found, NoReplay) else await self.replays.draw(found,
                                                                                     lang)
        except StorageError:
            return web.json_response({"ok": False, "text": t(lang, "storage_failed")},
                                     status=503)
        if isinstance(drawn, NoReplay):
            return web.json_response({"ok": False, "code": drawn.code,
                                      "text": drawn.text(lang)}, status=STATUS[drawn.code])
        response = web.json_response({"ok": True, **drawn, "words": words(lang)},
                                     dumps=_dumps)
        response.enable_compression()
        return response

    async def lang(self, request: web.Request, row: TableRow | None) -> str:
        """The reader's own /lang when their session says who they are, else their
        browser's language, else the game's channel's, else the bot's default."""
        person = self.person(request)
        if isinstance(person, Person):
            tables = self.tables.get(person.platform)
            own = await tables.people.own_lang(person.user_id) if tables is not None else None
            if own in LANGS:
                return str(own)
            if person.lang and person.lang.split("-")[0].lower() in LANGS:
                return person.lang.split("-")[0].lower()
        browser = preferred(request.headers.get("Accept-Language"))
        if browser is not None:
            return browser
        if row is not None:
            tables = self.tables.get(row.platform)
            if tables is not None:
                return await tables.channel_lang(row.channel)
        return self.default_lang


def preferred(header: str | None) -> str | None:
    """The first language of `Accept-Language` the bot speaks (`fr-CH,fr;q=0.9` → `fr`),
    by the weights the browser gave; None when it names none of them."""
    ranked = []
    for order, part in enumerate((header or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        lang = tag.strip().split("-")[0].lower()
        if lang in LANGS and weight > 0:
            ranked.append((-weight, order, lang))
    return min(ranked)[2] if ranked else None


def refusal_page(text: str, lang: str, status: int) -> web.Response:
    """Why there is no replay, as a page that needs no script."""
    return web.Response(
        status=status, content_type="text/html", charset="utf-8",
        text=f"<!doctype html><html lang={escape(lang)}><meta charset=utf-8>"
             f"<meta name=viewport content='width=device-width, initial-scale=1'>"
             f"<title>Tapis</title><link rel=stylesheet href=/static/style.css>"
             f"<main><h1>Tapis</h1><p class=refusal id=refusal>{escape(text)}</p></main>")


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
