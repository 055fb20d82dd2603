"""The web server without a browser: what its websocket sends (never a hidden card), who
it lets in, and the exchange of Telegram's launch data and Discord's links for a session."""

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.web.auth import Person, Signer
from adapters.web.local import serve_local
from adapters.web.server import COOKIE, WebServer
from bot.i18n import t
from bot.settings import Settings
from bot.tables import Actor, Tables
from bot.web_view import Watchers, seat_view
from db.repository import StorageError
from db.sqlite import SqliteRepository
from tests.bot.conftest import RecordingSink
from tests.web.test_auth import TOKEN, launch, signed


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = SqliteRepository(tmp_path / "web.db", writer_process=False)
    await repository.open()
    yield repository
    await repository.close()


ADA, BOB = Actor("42", "Ada"), Actor("43", "Bob")


def settings(**extra: Any) -> Settings:
    return Settings(_env_file=None, **{"bot_delay": 0.2, **extra})  # type: ignore[arg-type]


async def frames_until(ws: aiohttp.ClientWebSocketResponse, done: Any,
                       within: float = 20.0) -> list[dict[str, Any]]:
    seen = []
    async with asyncio.timeout(within):
        while True:
            frame = json.loads((await ws.receive()).data)
            seen.append(frame)
            if done(frame):
                return seen


async def test_a_local_page_gets_its_own_hand_and_never_another_seats(repo):
    server, tables, port = await serve_local(repo, settings(), 0)
    url = f"http://127.0.0.1:{port}"
    checked = 0
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers={"Origin": url}) as ws:
            await ws.send_json({"type": "open", "ref": ""})
            choose = json.loads((await ws.receive()).data)
            assert choose["type"] == "choose"
            assert "ochs-esel" in [g["id"] for g in choose["games"]]
            await ws.send_json({"type": "new", "game": "ochs-esel", "bots": 2,
                                "options": "rounds=1"})
            for _ in range(40):
                frames = await frames_until(ws, lambda f: f["type"] == "view" and (
                    f["moves"] or f["table"]["status"] != "playing"))
                for frame in frames:
                    if frame["type"] != "view":
                        continue
                    live = await tables.live_table(frame["table"]["id"])
                    assert live is not None and frame["seat"] == 0
                    if frame["table"]["status"] == "playing":
                        assert frame["hands"] is None  # nobody's hand but one's own
                        if live.row.version == frame["table"]["version"]:
                            # Exactly the seat's view: every key and value, no more.
                            mine = json.loads(json.dumps(live.seat_view(0)))
                            assert frame["view"] == mine
                            checked += 1
                        for seat in (1, 2):
                            theirs = live.game.view(live.state, seat)["hand"]
                            assert frame["view"]["hand"] != theirs or not theirs
                last = frames[-1]
                if last["table"]["status"] != "playing":
                    break
                await ws.send_json({"type": "play", "text": last["moves"][0]["text"]})
            assert last["table"]["status"] == "finished"
            assert last["outcome"] is not None
            # The game is over: every hand is public now.
            assert last["hands"] is not None and len(last["hands"]) == 3
    finally:
        await server.close()
        await tables.close()
    assert checked >= 3


async def test_a_refused_move_answers_the_chats_sentence_and_changes_nothing(repo):
    # Bots that wait half a minute: nothing but the refused press could change the table.
    server, tables, port = await serve_local(repo, settings(default_lang="fr",
                                                            bot_delay=30), 0)
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers={"Origin": url}) as ws:
            await ws.send_json({"type": "open", "ref": ""})
            await ws.receive()
            await ws.send_json({"type": "new", "game": "the-game", "bots": 1, "options": ""})
            view = (await frames_until(ws, lambda f: f["type"] == "view"))[-1]
            # A bot's signal is talk, made at once whatever its delay: let it land first.
            await asyncio.sleep(0.5)
            before = await tables.live_table(view["table"]["id"])
            assert before is not None
            version = before.row.version
            await ws.send_json({"type": "play", "text": "play 1000 A1"})
            reply = (await frames_until(ws, lambda f: f["type"] == "reply"))[-1]
            assert reply["ok"] is False and reply["text"]
            live = await tables.live_table(view["table"]["id"])
            assert live is not None
            from bot.i18n import t
            assert reply["text"] != t("en", "no_game")
            assert live.row.version == version
    finally:
        await server.close()
        await tables.close()


async def test_a_socket_from_another_origin_is_refused(repo):
    server, tables, port = await serve_local(repo, settings(), 0)
    try:
        async with aiohttp.ClientSession() as http:
            for origin in ("http://evil.example", None):
                headers = {"Origin": origin} if origin else {}
                with pytest.raises(aiohttp.WSServerHandshakeError) as exc:
                    await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers)
                assert exc.value.status == 403
            # Another name for this machine (DNS rebinding) is no loopback page either.
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers={
                    "Origin": "http://evil.example", "Host": "evil.example"})
    finally:
        await server.close()
        await tables.close()


async def test_the_web_port_serves_no_metrics(repo):
    server, tables, port = await serve_local(repo, settings(), 0)
    try:
        async with aiohttp.ClientSession() as http:
            for path in ("/metrics", "/healthz"):
                async with http.get(f"http://127.0.0.1:{port}{path}") as answer:
                    assert answer.status == 404
            async with http.get(f"http://127.0.0.1:{port}/") as answer:
                assert answer.status == 200
                assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    finally:
        await server.close()
        await tables.close()


PUBLIC = "https://tapis.example"


async def chat_server(repo, is_member=None) -> tuple[WebServer, Tables, int, str, int]:
    """A Telegram table in chat `-100`, seated by user 42 and a bot, and the web server an
    operator runs beside it; its reference and id."""
    watchers = Watchers()
    tables = Tables(repo, RecordingSink(), platform="telegram",
                    settings=settings())
    await tables.start(run_scheduler=True)
    host = Actor("42", "Ada")
    reply = await tables.new_game(host, "-100", "ochs-esel", [])
    assert reply.ok
    await tables.add_bot(host, "-100")
    await tables.add_bot(host, "-100")
    assert (await tables.start_game(host, "-100")).ok
    table_id = reply.table_id or 0
    server = WebServer({"telegram": tables}, watchers, Signer(b"s" * 32), public_url=PUBLIC,
                       telegram_token=TOKEN, is_member=is_member)
    port = await server.start("127.0.0.1", 0)
    return server, tables, port, await tables.ref(table_id), table_id


async def test_telegram_launch_data_opens_the_players_seat_once(repo):
    server, tables, port, ref, _ = await chat_server(repo)
    url = f"http://127.0.0.1:{port}"
    data = signed(launch(start_param=ref, auth_date=str(int(time.time()) - 5)))
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{url}/api/telegram", json={"initData": data}) as answer:
                assert answer.status == 200
                assert (await answer.json())["ref"] == ref
                cookie = answer.cookies[COOKIE]
            # Sent cross-site from Telegram's frame, and never to a script of the page.
            assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "None"
            async with http.ws_connect(f"{url}/ws", headers={
                    "Origin": PUBLIC, "Cookie": f"{COOKIE}={cookie.value}"}) as ws:
                await ws.send_json({"type": "open", "ref": ref})
                frame = (await frames_until(ws, lambda f: f["type"] in {"view", "refused"}))[-1]
                assert frame["type"] == "view" and frame["seat"] == 0
                assert frame["view"]["hand"]
            # The same launch data again: refused, in words.
            async with http.post(f"{url}/api/telegram", json={"initData": data}) as answer:
                assert answer.status == 403
                body = await answer.json()
                assert body["code"] == "replayed" and body["text"]
    finally:
        await server.close()
        await tables.close()


async def test_launch_data_is_refused_in_words_while_the_database_is_out(repo, monkeypatch):
    """Whether launch data was used already is the shared database's to say: while it
    cannot answer, the page is refused in words and given no session."""
    server, tables, port, ref, _ = await chat_server(repo)
    url = f"http://127.0.0.1:{port}"
    data = signed(launch(start_param=ref, auth_date=str(int(time.time()) - 5)))

    async def out(*args: Any) -> bool:
        raise StorageError("the database is out")

    monkeypatch.setattr(repo, "spend_login", out)
    try:
        async with aiohttp.ClientSession() as http, http.post(
                f"{url}/api/telegram", json={"initData": data}) as answer:
            assert answer.status == 403 and COOKIE not in answer.cookies
            body = await answer.json()
            assert body["code"] == "storage"
            assert body["text"] == t("en", "web_refused_storage")
    finally:
        await server.close()
        await tables.close()


async def test_forged_launch_data_is_refused_and_opens_nothing(repo):
    server, tables, port, ref, _ = await chat_server(repo)
    url = f"http://127.0.0.1:{port}"
    genuine = signed(launch(start_param=ref, auth_date=str(int(time.time()) - 5)))
    forged = genuine.replace("Ada", "Eve")
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{url}/api/telegram", json={"initData": forged}) as answer:
                assert answer.status == 403
                assert (await answer.json())["code"] == "bad_signature"
            assert not [c for c in http.cookie_jar if c.key == COOKIE]
            async with http.ws_connect(f"{url}/ws", headers={"Origin": PUBLIC}) as ws:
                await ws.send_json({"type": "open", "ref": ref})
                frame = json.loads((await ws.receive()).data)
                assert frame["type"] == "refused" and frame["code"] == "login"
            # A session cookie made up by the page is no session.
            http.cookie_jar.update_cookies({COOKIE: "eyJ1IjoiNDIifQ.AAAA"})
            async with http.ws_connect(f"{url}/ws", headers={"Origin": PUBLIC}) as ws:
                await ws.send_json({"type": "open", "ref": ref})
                frame = json.loads((await ws.receive()).data)
                assert frame["type"] == "refused" and frame["code"] == "bad_session"
    finally:
        await server.close()
        await tables.close()


async def test_someone_without_a_seat_sees_only_the_public_table_if_a_member(repo):
    members = {"77"}

    async def is_member(person: Person, table_id: int) -> bool:
        return person.user_id in members

    server, tables, port, ref, table_id = await chat_server(repo, is_member)
    url = f"http://127.0.0.1:{port}"
    signer = server.signer
    try:
        for user, expected in (("77", "view"), ("78", "refused")):
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                http.cookie_jar.update_cookies({COOKIE: signer.session(
                    Person("telegram", user, "Guest"), time.time())})
                async with http.ws_connect(f"{url}/ws", headers={"Origin": PUBLIC}) as ws:
                    await ws.send_json({"type": "open", "ref": ref})
                    frame = json.loads((await ws.receive()).data)
                    assert frame["type"] == expected
                    if expected == "view":
                        assert frame["seat"] is None and "hand" not in frame["view"]
                        assert frame["moves"] == []
                        # A spectator's move is refused like a stranger's in chat.
                        await ws.send_json({"type": "play", "text": "pass"})
                        reply = (await frames_until(ws, lambda f: f["type"] == "reply"))[-1]
                        assert reply["ok"] is False
                    else:
                        assert frame["code"] == "not_member" and frame["text"]
        # A reference we never made names no table.
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            http.cookie_jar.update_cookies({COOKIE: signer.session(
                Person("telegram", "42", "Ada"), time.time())})
            async with http.ws_connect(f"{url}/ws", headers={"Origin": PUBLIC}) as ws:
                await ws.send_json({"type": "open", "ref": f"{table_id}_AAAAAAAAAA"})
                frame = json.loads((await ws.receive()).data)
                assert frame["type"] == "refused" and frame["code"] == "no_table"
    finally:
        await server.close()
        await tables.close()


async def test_a_discord_link_is_exchanged_once_for_its_table_only(repo):
    server, tables, port, ref, table_id = await chat_server(repo)
    url = f"http://127.0.0.1:{port}"
    ada = Person("telegram", "42", "Ada")
    token = server.signer.link_token(ada, table_id, time.time())
    other = server.signer.link_token(ada, table_id + 1, time.time())
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(f"{url}/t/{ref}", params={"token": other},
                                allow_redirects=False) as answer:
                assert answer.status == 403
                assert "another table" in await answer.text()
            async with http.get(f"{url}/t/{ref}", params={"token": token},
                                allow_redirects=False) as answer:
                assert answer.status == 303
                assert answer.headers["Location"] == f"/t/{ref}"
                cookie = answer.cookies[COOKIE]
            async with http.ws_connect(f"{url}/ws", headers={
                    "Origin": PUBLIC, "Cookie": f"{COOKIE}={cookie.value}"}) as ws:
                await ws.send_json({"type": "open", "ref": ref})
                frame = (await frames_until(ws, lambda f: f["type"] in {"view", "refused"}))[-1]
                assert frame["type"] == "view" and frame["seat"] == 0
        async with aiohttp.ClientSession() as http, http.get(
                f"{url}/t/{ref}", params={"token": token}, allow_redirects=False) as answer:
            assert answer.status == 403
            assert "used already" in await answer.text()
    finally:
        await server.close()
        await tables.close()


async def test_python_m_bot_web_prints_its_address_and_serves_the_page(tmp_path):
    """The command a newcomer types: it says where to point the browser, on loopback."""
    import os
    import sys

    env = {**os.environ, "WEB_PORT": "0", "NO_PROXY": "127.0.0.1,localhost"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--web", "--database", f"sqlite:///{tmp_path}/t.db",
        env=env, stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).resolve().parents[2])
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        assert "http://127.0.0.1:" in line
        url = line[line.index("http://"):].split()[0]
        async with aiohttp.ClientSession() as http, http.get(url) as answer:
            assert answer.status == 200
            assert '<script type="module" src="/static/app.js">' in await answer.text()
    finally:
        process.terminate()
        assert await asyncio.wait_for(process.wait(), 20) == 0


async def test_beside_the_chat_the_page_is_off_without_web_url_and_links_work_with_it(repo):
    from adapters.web.chat import miniapp_link, private_link, serve_beside, table_url

    watchers = Watchers()
    tables = Tables(repo, RecordingSink(), platform="telegram",
                    settings=settings())
    off = settings()
    assert await serve_beside({"telegram": tables}, watchers, off, repo) is None
    assert table_url(off, "7_abcdefghij") is None
    on = settings(web_url=PUBLIC, web_port=0, telegram_miniapp="tapis")
    assert miniapp_link(on, "TapisBot", "7_abcdefghij") == \
        "https://t.me/TapisBot/tapis?startapp=7_abcdefghij"
    await tables.start(run_scheduler=True)
    host = Actor("42", "Ada")
    reply = await tables.new_game(host, "-100", "ochs-esel", [])
    await tables.add_bot(host, "-100")
    await tables.add_bot(host, "-100")
    await tables.start_game(host, "-100")
    ref = await tables.ref(reply.table_id or 0)
    server = await serve_beside({"telegram": tables}, watchers, on, repo)
    assert server is not None and server.runner is not None
    port = next(a[1] for a in server.runner.addresses if isinstance(a, tuple))
    link = private_link(on, server.signer, Person("telegram", "42", "Ada"),
                        reply.table_id or 0, ref)
    assert link is not None and link.startswith(f"{PUBLIC}/t/{ref}?token=")
    try:
        async with aiohttp.ClientSession() as http, http.get(
                link.replace(PUBLIC, f"http://127.0.0.1:{port}"),
                allow_redirects=False) as answer:
            assert answer.status == 303
    finally:
        await server.close()
        await tables.close()


async def test_a_turn_with_a_deadline_is_sent_with_the_seconds_left(repo):
    from bot.web_view import seat_view

    server, tables, _port, _ref, table_id = await chat_server(repo)
    try:
        async with asyncio.timeout(10):
            while True:  # the bots move first, if the deal says so
                view = await seat_view(tables, table_id, "42")
                assert view is not None
                if view["to_act"] == [0]:
                    break
                await asyncio.sleep(0.05)
        assert view["moves"]
        assert 290 < view["deadline_in"] <= 300 and view["deadline_seat"] == 0
    finally:
        await server.close()
        await tables.close()


async def two_and_a_bot(repo: SqliteRepository, *, bot_delay: float
                        ) -> tuple[Tables, int, str]:
    """A started Ochs & Esel table of Telegram's group -100: Ada (42), Bob (43) and a bot;
    its tables, its id and the reference its page is opened with."""
    tables = Tables(repo, RecordingSink(), platform="telegram",
                    settings=settings(bot_delay=bot_delay))
    await tables.start(run_scheduler=True)
    reply = await tables.new_game(ADA, "-100", "ochs-esel", [])
    assert (await tables.join(BOB, "-100")).ok
    await tables.add_bot(ADA, "-100")
    assert (await tables.start_game(ADA, "-100")).ok
    table_id = reply.table_id or 0
    return tables, table_id, await tables.ref(table_id)


async def test_two_pages_at_one_table_each_see_the_others_move_within_a_second(repo):
    watchers = Watchers()
    tables, table_id, ref = await two_and_a_bot(repo, bot_delay=0.1)
    server = WebServer({"telegram": tables}, watchers, Signer(b"s" * 32), public_url=PUBLIC)
    port = await server.start("127.0.0.1", 0)
    url = f"http://127.0.0.1:{port}/ws"

    async def page(person: Actor) -> aiohttp.ClientWebSocketResponse:
        cookie = server.signer.session(Person("telegram", person.user_id, person.name),
                                       time.time())
        ws = await http.ws_connect(url, headers={"Origin": PUBLIC,
                                                 "Cookie": f"{COOKIE}={cookie}"})
        await ws.send_json({"type": "open", "ref": ref})
        return ws

    try:
        async with aiohttp.ClientSession() as http:
            pages = {"42": await page(ADA), "43": await page(BOB)}
            first = {uid: (await frames_until(ws, lambda f: f["type"] == "view"))[-1]
                     for uid, ws in pages.items()}
            watched = 0
            for _ in range(12):
                live = await tables.live_table(table_id)
                assert live is not None and live.state is not None
                version = live.row.version
                to_act = live.game.to_act(live.state)[0]
                if live.seats[to_act].is_bot:  # the bot's turn: wait until it moved
                    for uid, ws in pages.items():
                        first[uid] = (await frames_until(ws, lambda f, v=version: f["type"] ==
                                                         "view" and f["table"]["version"] > v))[-1]
                    continue
                mover = live.seats[to_act].user_id
                other = next(uid for uid in pages if uid != mover)
                if not first[mover]["moves"]:
                    first[mover] = (await frames_until(pages[mover], lambda f: bool(
                        f.get("moves"))))[-1]
                started = time.monotonic()
                await pages[mover].send_json({"type": "play",
                                              "text": first[mover]["moves"][0]["text"]})
                seen = await frames_until(pages[other], lambda f, v=version: f["type"] ==
                                          "view" and f["table"]["version"] > v, within=1.0)
                assert time.monotonic() - started < 1.0
                assert seen[-1]["seat"] == next(s.seat for s in live.seats
                                                if s.user_id == other)
                first[other] = seen[-1]
                first[mover] = (await frames_until(pages[mover], lambda f, v=version: f[
                    "type"] == "view" and f["table"]["version"] > v))[-1]
                watched += 1
                if watched == 2:
                    break
            assert watched == 2
            for ws in pages.values():
                await ws.close()
    finally:
        await server.close()
        await tables.close()


async def test_pages_sharing_a_table_version_each_get_only_their_own_seats_view(repo):
    from bot.web_view import last_said

    """What every page of a table version is sent alike is drawn once per version and
    language: two players and a spectator of one version, two languages, each frame
    still holds exactly its own seat's view (the spectator's, the public's)."""
    async def member(person: Person, table_id: int) -> bool:
        return True

    tables, table_id, ref = await two_and_a_bot(repo, bot_delay=0.05)
    server = WebServer({"telegram": tables}, Watchers(), Signer(b"s" * 32), public_url=PUBLIC,
                       telegram_token=TOKEN, is_member=member)
    port = await server.start("127.0.0.1", 0)
    people = {"ada": Person("telegram", "42", "Ada", "en"),
              "ada again": Person("telegram", "42", "Ada", "en"),
              "bob": Person("telegram", "43", "Bob", "en"),
              "cy": Person("telegram", "44", "Cy", "en"),
              "dora": Person("telegram", "45", "Dora", "fr")}
    checked: dict[str, int] = dict.fromkeys(people, 0)
    said_fr = 0
    try:
        async with aiohttp.ClientSession() as http:
            pages = {}
            for who, person in people.items():
                cookie = server.signer.session(person, time.time())
                pages[who] = await http.ws_connect(
                    f"http://127.0.0.1:{port}/ws",
                    headers={"Origin": PUBLIC, "Cookie": f"{COOKIE}={cookie}"})
                await pages[who].send_json({"type": "open", "ref": ref})
            for _ in range(8):
                await tables.settle()
                live = await tables.live_table(table_id)
                assert live is not None and live.state is not None
                version = live.row.version
                for who, ws in pages.items():
                    frame = (await frames_until(ws, lambda f, v=version: f["type"] == "view"
                                                and f["table"]["version"] >= v))[-1]
                    now = await tables.live_table(table_id)
                    assert now is not None
                    if frame["table"]["version"] != now.row.version:
                        continue
                    holder = now.seat_of(people[who].user_id)
                    expected = now.public_view() if holder is None \
                        else now.seat_view(holder.seat)
                    assert frame["view"] == json.loads(json.dumps(expected)), who
                    assert frame["seat"] == (None if holder is None else holder.seat)
                    assert frame["hands"] is None
                    assert frame["lang"] == ("fr" if who == "dora" else "en")
                    # The last moves in the reader's language, said again for Dora.
                    assert frame["last"] == last_said(now, frame["lang"])
                    if who == "dora" and frame["last"]:
                        assert frame["last"] != now.last_lines()[0]
                        said_fr += 1
                    if holder is None:
                        assert "hand" not in frame["view"] and frame["moves"] == []
                    checked[who] += 1
                if live.game.outcome(live.state) is not None:
                    break
                mover = live.game.to_act(live.state)[0]
                actor = {"42": ADA, "43": BOB}.get(live.seats[mover].user_id or "")
                if actor is not None:
                    move = live.game.legal_moves(live.state, mover)[0]
                    assert (await tables.play(actor, "-100", str(move))).ok
            assert all(checked.values()) and said_fr, checked
            for ws in pages.values():
                await ws.close()
    finally:
        await server.close()
        await tables.close()


async def test_a_german_pages_move_buttons_say_the_chats_german_words(repo):
    """Michigan's dealer decides in words (swap, keep, auction): a German page labels them
    as the German chat's buttons do, while what it plays stays the move's notation."""
    tables = Tables(repo, RecordingSink(), platform="telegram",
                    settings=settings(bot_delay=30))
    await tables.start(run_scheduler=True)
    try:
        opened = await tables.new_game(Actor("42", "Ada"), "-100", "michigan", [])
        for user_id, name in (("43", "Bea"), ("44", "Cleo")):
            assert (await tables.join(Actor(user_id, name), "-100")).ok
        assert (await tables.start_game(Actor("42", "Ada"), "-100")).ok
        live = await tables.live_table(opened.table_id or 0)
        assert live is not None and live.state is not None
        to_act = live.seats[live.game.to_act(live.state)[0]]
        view = await seat_view(tables, live.id, to_act.user_id, "de")
        assert view is not None
        labels = {move["text"]: move["label"] for move in view["moves"]}
        assert labels == {"swap": t("de", "mi.btn.swap"), "keep": t("de", "mi.btn.keep"),
                          "auction": t("de", "mi.btn.auction")}
        assert "Behalten" in labels.values()
    finally:
        await tables.close()
