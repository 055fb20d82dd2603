"""Replay links on the web server, without a browser: the page and its data for a finished
game, to anyone with the link; a refusal page in words, in the reader's language, for a
forged link, a game in play and a cancelled one."""

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.web.auth import Person, Signer
from adapters.web.replays import preferred
from adapters.web.server import COOKIE, WebServer
from bot.i18n import t
from bot.settings import Settings
from bot.tables import Actor, Tables
from bot.web_view import Watchers, seat_view
from db.repository import FINISHED
from db.sqlite import SqliteRepository
from tests.bot.conftest import RecordingSink

PUBLIC = "https://tapis.example"
ADA = Actor("42", "Ada")


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """A Telegram bot's tables and the web server beside them: a finished game in chat
    -100 (Ada and two bots), a game in play in chat -200."""
    repo = SqliteRepository(tmp_path / "replays.db", writer_process=False)
    await repo.open()
    watchers = Watchers()
    tables = Tables(repo, RecordingSink(), platform="telegram",
                    settings=Settings(_env_file=None, bot_delay=0))  # type: ignore[call-arg]
    watchers.attach(tables)
    await tables.start(run_scheduler=True)
    server = WebServer({"telegram": tables}, watchers, Signer(b"s" * 32), public_url=PUBLIC)
    port = await server.start("127.0.0.1", 0)
    try:
        finished = await game(tables, "-100")
        for _ in range(400):
            await tables.settle()
            live = await tables.live_table(finished)
            assert live is not None and live.state is not None
            if live.row.status == FINISHED:
                break
            if 0 in live.game.to_act(live.state):
                move = live.game.legal_moves(live.state, 0)[0]
                assert (await tables.play(ADA, "-100", str(move))).ok
        else:
            raise AssertionError("the game did not end")
        playing = await game(tables, "-200")
        yield {"url": f"http://127.0.0.1:{port}", "tables": tables, "server": server,
               "finished": await tables.ref(finished), "finished_id": finished,
               "playing": await tables.ref(playing)}
    finally:
        await server.close()
        await tables.close()
        await repo.close()


async def game(tables: Tables, chat: str) -> int:
    reply = await tables.new_game(ADA, chat, "ochs-esel", ["rounds=1", "deadline=off"])
    assert reply.ok, reply.text
    await tables.add_bot(ADA, chat)
    await tables.add_bot(ADA, chat)
    assert (await tables.start_game(ADA, chat)).ok
    return reply.table_id or 0


async def get(url: str, lang: str = "en", cookie: str | None = None
              ) -> tuple[int, str, dict[str, str]]:
    headers = {"Accept-Language": lang}
    if cookie is not None:
        headers["Cookie"] = f"{COOKIE}={cookie}"
    async with aiohttp.ClientSession() as http, http.get(url, headers=headers) as answer:
        return answer.status, await answer.text(), dict(answer.headers)


async def test_a_finished_games_link_opens_its_replay_with_no_login(site):
    status, page, headers = await get(f"{site['url']}/r/{site['finished']}")
    assert status == 200 and "/static/replay.js" in page
    assert "default-src 'self'" in headers["Content-Security-Policy"]

    async with aiohttp.ClientSession() as http, http.get(
            f"{site['url']}/api/replay/{site['finished']}",
            headers={"Accept-Language": "fr-CH, de;q=0.5", "Accept-Encoding": "gzip"}) as got:
        assert got.status == 200 and got.headers["Content-Encoding"] == "gzip"
        data = await got.json()
    assert data["ok"] and data["lang"] == "fr"
    live = await site["tables"].live_table(site["finished_id"])
    assert len(data["steps"]) == live.row.version + 1
    assert all(len(hand) for hand in data["steps"][0]["hands"])  # every hand, from the deal
    assert data["words"]["web_replay_step"] == t("fr", "web_replay_step", step="{step}",
                                                 steps="{steps}")
    # The live page of the finished table links to it.
    view = await seat_view(site["tables"], site["finished_id"], ADA.user_id)
    assert view is not None and view["replay"] == f"/r/{site['finished']}"


async def test_a_readers_own_language_comes_first(site):
    tables = site["tables"]
    assert (await tables.set_lang(ADA, "-100", "de", personal=True)).ok
    session = site["server"].signer.session(Person("telegram", ADA.user_id, "Ada"),
                                            time.time())
    _, body, _ = await get(f"{site['url']}/api/replay/{site['finished']}", "fr", session)
    assert '"lang":"de"' in body
    _, body, _ = await get(f"{site['url']}/api/replay/{site['finished']}", "fr")
    assert '"lang":"fr"' in body


@pytest.mark.parametrize(("which", "code", "status"), [
    ("forged", "forged", 404), ("altered", "forged", 404), ("playing", "unfinished", 403)])
async def test_no_replay_is_shown_and_the_page_says_why(site, which, code, status):
    ref = {"forged": "1_AAAAAAAAAA", "playing": site["playing"],
           "altered": site["finished"][:-1] + ("x" if site["finished"][-1] != "x" else "y")
           }[which]
    for lang in ("de", "en"):
        got, page, _ = await get(f"{site['url']}/r/{ref}", lang)
        assert got == status
        assert t(lang, f"web_replay_refused_{code}").replace("'", "&#x27;") in page
        assert "replay.js" not in page
        got, body, _ = await get(f"{site['url']}/api/replay/{ref}", lang)
        assert got == status and f'"code": "{code}"' in body and '"steps"' not in body


async def test_a_cancelled_game_has_no_replay(site):
    tables = site["tables"]
    assert (await tables.cancel(ADA, "-200")).ok
    got, page, _ = await get(f"{site['url']}/r/{site['playing']}", "en")
    assert got == 403 and t("en", "web_replay_refused_cancelled") in page


def test_the_browsers_languages_are_read_by_their_weights():
    assert preferred("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert preferred("ja, en;q=0.2, fr;q=0.7") == "fr"
    assert preferred("ja, zh") is None
    assert preferred(None) is None
    assert preferred("fr;q=0, en;q=bad, de;q=0.1") == "de"
