"""The leaderboard panel of a table's page, without a browser: the community's ladder for
the table's game as /leaderboard writes it, in the reader's language, and only ever the
board of the page's own table, whatever the page's message names."""

import json
import time

import aiohttp

from adapters.web.auth import Person, Signer
from adapters.web.server import COOKIE, WebServer
from bot.ratings import Rater
from bot.tables import Actor, Tables
from bot.web_view import Watchers
from db.ratings import RatedGame
from db.repository import FINISHED, PLAYING, ResultRow, SeatRow
from tests.bot.conftest import RecordingSink
from tests.web.test_auth import TOKEN
from tests.web.test_server import PUBLIC, frames_until, repo, settings

__all__ = ["repo"]  # the fixture, shared with test_server

HOME = "telegram:-100"
ELSEWHERE = "telegram:-200"


def shown(user: str) -> str:
    return "Ada" if user == "42" else user.capitalize()


async def rated(repo, community: str, names: list[str], channel: str) -> None:
    """A finished, rated Michigan game of `names` (user ids), placed in that order."""
    table = await repo.create_table(
        platform="telegram", channel=channel, game="michigan", options={}, settings={},
        seed=1, host=names[0], seats=[SeatRow(i, n, shown(n)) for i, n in
                                      enumerate(names)], community=community)
    await repo.update_table(table.id, expected_version=0, status=PLAYING, reset_moves=True,
                            snapshot="s0")
    placings = [(f"u:{n}", place) for place, n in enumerate(names, start=1)]
    await repo.commit_move(
        table.id, seq=1, seat=0, move="end", actor="player", snapshot="s1",
        results=[ResultRow(i, n, f"u:{n}", False, 0, i + 1) for i, n in enumerate(names)],
        rating=RatedGame("michigan", len(names), placings, Rater("quarter"),
                         {f"u:{n}": shown(n) for n in names}))
    row = await repo.get_table(table.id)
    await repo.update_table(table.id, expected_version=row.version, status=FINISHED)


async def table(tables: Tables, channel: str, community: str | None, *options: str) -> str:
    host = Actor("42", "Ada")
    reply = await tables.new_game(host, channel, "michigan", list(options),
                                  community=community)
    assert reply.ok, reply.text
    await tables.add_bot(host, channel)
    await tables.add_bot(host, channel)
    assert (await tables.start_game(host, channel)).ok
    return await tables.ref(reply.table_id or 0)


async def ladder_of(url: str, signer: Signer, person: Person, ref: str,
                    asked: dict[str, object]) -> dict[str, object]:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        http.cookie_jar.update_cookies({COOKIE: signer.session(person, time.time())})
        async with http.ws_connect(f"{url}/ws", headers={"Origin": PUBLIC}) as ws:
            # Asked before the page opened a table: no answer (the view comes first).
            await ws.send_json({"type": "ladder"})
            await ws.send_json({"type": "open", "ref": ref})
            first = json.loads((await ws.receive()).data)
            assert first["type"] == "view", first
            await ws.send_json({"type": "ladder", **asked})
            return (await frames_until(ws, lambda f: f["type"] == "ladder"))[-1]


async def test_the_page_shows_its_communitys_ladder_and_only_that_one(repo):
    eleven = [f"p{n}" for n in range(11)]
    for n in range(3):
        await rated(repo, HOME, [*eleven, "42"], f"h{n}")
        await rated(repo, ELSEWHERE, ["eve", "42"], f"e{n}")
    await rated(repo, HOME, ["newcomer", "p10"], "h9")  # one game: not listed yet
    tables = Tables(repo, RecordingSink(), platform="telegram", settings=settings())
    await tables.start(run_scheduler=True)
    home = await table(tables, "-100", HOME)
    elsewhere = await table(tables, "-200", ELSEWHERE)
    friendly = await table(tables, "-101", HOME, "rated=no")
    private = await table(tables, "42", None)
    server = WebServer({"telegram": tables}, Watchers(), Signer(b"s" * 32), public_url=PUBLIC,
                       telegram_token=TOKEN)
    url = f"http://127.0.0.1:{await server.start('127.0.0.1', 0)}"
    ada = Person("telegram", "42", "Ada", "fr")
    try:
        board = await ladder_of(url, server.signer, ada, home, {})
        lines = str(board["text"]).splitlines()
        # French, as Ada reads it: the title, the top 10, her own 12th place, the count.
        assert lines[0].startswith("🏆 Michigan, saison ")
        assert lines[1].startswith("1. P0 — 1\u202f") and "(3 parties)" in lines[1]
        assert [line.split(".")[0] for line in lines[1:11]] == [str(n) for n in range(1, 11)]
        assert lines[11].startswith("Vous : 12. Ada — 1\u202f") and "(3 parties)" in lines[11]
        assert lines[12].startswith("12 joueurs")
        assert "Newcomer" not in board["text"] and "Eve" not in board["text"]

        # A forged request names another table, another reference, another community:
        # the board is still the page's own table's, from its own community.
        forged = await ladder_of(url, server.signer, ada, home, {
            "ref": elsewhere, "table": 2, "table_id": 2, "community": ELSEWHERE,
            "game": "ochs-esel"})
        assert forged["text"] == board["text"]
        # Its own page in the other group shows that group's board, in English for Bo.
        other = await ladder_of(url, server.signer, Person("telegram", "42", "Ada", "en"),
                                elsewhere, {})
        assert "1. Eve — " in str(other["text"]) and "P0" not in str(other["text"])

        # A friendly table and a private chat's have no board: the panel is hidden.
        assert (await ladder_of(url, server.signer, ada, friendly, {}))["text"] is None
        assert (await ladder_of(url, server.signer, ada, private, {}))["text"] is None
    finally:
        await server.close()
        await tables.close()


async def test_a_page_refused_its_table_is_never_sent_a_board(repo):
    for n in range(3):
        await rated(repo, HOME, ["ana", "bo"], f"h{n}")
    tables = Tables(repo, RecordingSink(), platform="telegram", settings=settings())
    await tables.start(run_scheduler=True)
    home = await table(tables, "-100", HOME)
    server = WebServer({"telegram": tables}, Watchers(), Signer(b"s" * 32), public_url=PUBLIC,
                       telegram_token=TOKEN)  # nobody but the seated may look
    url = f"http://127.0.0.1:{await server.start('127.0.0.1', 0)}"
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            http.cookie_jar.update_cookies({COOKIE: server.signer.session(
                Person("telegram", "77", "Mallory"), time.time())})
            async with http.ws_connect(f"{url}/ws", headers={"Origin": PUBLIC}) as ws:
                await ws.send_json({"type": "open", "ref": home})
                refused = json.loads((await ws.receive()).data)
                assert refused["type"] == "refused" and refused["code"] == "not_member"
                await ws.send_json({"type": "ladder", "ref": home, "community": HOME})
                await ws.send_json({"type": "open", "ref": home})  # answered, unlike it
                answer = json.loads((await ws.receive()).data)
                assert answer["type"] == "refused"
    finally:
        await server.close()
        await tables.close()
