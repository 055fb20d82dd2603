"""The web page beside the chat: a page hears of a move when it is committed (not after the
chat's pacing), a move from a page plays at the page's own table with the chat's
authority, Discord's public "Watch" page, and spectators joining a lobby."""

import asyncio
import time
from typing import Any

import aiohttp
import pytest

from adapters.web.auth import Person, Signer
from adapters.web.server import COOKIE, WebServer
from bot.deliveries import Delivery
from bot.tables import Actor, Tables
from bot.web_view import Watchers
from tests.bot.conftest import RecordingSink
from tests.web.test_server import PUBLIC, frames_until, repo, settings

__all__ = ["repo"]

HOST = Actor("42", "Ada")


class HeldSink(RecordingSink):
    """A chat whose pacing never gives a message its turn (a Telegram group at its flood
    limit): nothing reaches the chat while the test runs."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def turn(self, delivery: Delivery) -> None:
        await self.gate.wait()


async def game(repo: Any, sink: RecordingSink, platform: str = "telegram",
               channel: str = "-100", start: bool = True, bot_delay: float = 0.2
               ) -> tuple[Tables, int]:
    tables = Tables(repo, sink, platform=platform, settings=settings(bot_delay=bot_delay))
    await tables.start(run_scheduler=True)
    reply = await tables.new_game(HOST, channel, "ochs-esel", [])
    assert reply.ok
    await tables.add_bot(HOST, channel)
    await tables.add_bot(HOST, channel)
    if start:
        assert (await tables.start_game(HOST, channel)).ok
    return tables, reply.table_id or 0


async def serve(tables: Tables, is_member: Any = None) -> tuple[WebServer, str]:
    server = WebServer({tables.platform: tables}, Watchers(), Signer(b"s" * 32),
                       public_url=PUBLIC, is_member=is_member)
    port = await server.start("127.0.0.1", 0)
    return server, f"http://127.0.0.1:{port}"


def cookie(server: WebServer, user_id: str, platform: str = "telegram") -> dict[str, str]:
    person = Person(platform, user_id, "Someone")
    return {"Origin": PUBLIC, "Cookie": f"{COOKIE}={server.signer.session(person, time.time())}"}


def views(frame: dict[str, Any]) -> bool:
    return frame["type"] in {"view", "refused"}


async def refused_and_unchanged(ws: Any, tables: Tables, table_id: int, move: str) -> None:
    """The page plays `move`: it is refused in words, and the table stays as it was."""
    before = await tables.live_table(table_id)
    assert before is not None
    await ws.send_json({"type": "play", "text": move})
    answer = (await frames_until(ws, lambda f: f["type"] == "reply"))[-1]
    assert not answer["ok"] and answer["text"]
    after = await tables.live_table(table_id)
    assert after is not None and after.row.version == before.row.version


async def test_a_page_sees_a_move_while_the_chat_waits_for_its_turn(repo):
    sink = HeldSink()
    tables, table_id = await game(repo, sink)
    server, url = await serve(tables)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers=cookie(server, "42")) as ws:
            await ws.send_json({"type": "open", "ref": await tables.ref(table_id)})
            first = (await frames_until(ws, views))[-1]
            assert first["type"] == "view"
            version = first["table"]["version"]
            if first["moves"]:  # our turn: play; else a bot plays on its own
                await ws.send_json({"type": "play", "text": first["moves"][0]["text"]})
            later = await frames_until(
                ws, lambda f: f["type"] == "view" and f["table"]["version"] > version,
                within=5)
            assert later[-1]["table"]["version"] > version
            # ... and the chat has not been sent a thing yet: the page did not wait for it.
            assert not sink.tables and not sink.hands
    finally:
        sink.gate.set()
        await server.close()
        await tables.close()


async def test_a_move_for_a_seat_not_theirs_is_refused_in_words_and_changes_nothing(repo):
    sink = RecordingSink()
    tables, table_id = await game(repo, sink, bot_delay=30)  # nobody moves meanwhile

    async def member(person: Person, table_id: int) -> bool:
        return True

    server, url = await serve(tables, member)
    try:
        live = await tables.live_table(table_id)
        assert live is not None and live.state is not None
        seat = live.game.to_act(live.state)[0]
        move = str(live.game.legal_moves(live.state, seat)[0])
        version = live.row.version
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers=cookie(server, "99")) as ws:
            await ws.send_json({"type": "open", "ref": await tables.ref(table_id)})
            frame = (await frames_until(ws, views))[-1]
            assert frame["type"] == "view" and frame["seat"] is None
            assert frame["hands"] is None and "hand" not in (frame["view"] or {})
            await ws.send_json({"type": "play", "text": move})
            reply = (await frames_until(ws, lambda f: f["type"] == "reply"))[-1]
            assert not reply["ok"] and reply["text"]
        now = await tables.live_table(table_id)
        assert now is not None and now.row.version == version
        assert all(s.user_id != "99" for s in now.seats)
    finally:
        await server.close()
        await tables.close()


async def test_a_page_left_open_after_its_seat_went_to_a_bot_changes_nothing(repo):
    sink = RecordingSink()
    tables = Tables(repo, sink, platform="telegram", settings=settings(bot_delay=30))
    await tables.start(run_scheduler=True)
    ben = Actor("43", "Ben")
    reply = await tables.new_game(HOST, "-100", "ochs-esel", [])
    await tables.join(ben, "-100")
    await tables.add_bot(HOST, "-100")
    assert (await tables.start_game(HOST, "-100")).ok
    table_id = reply.table_id or 0
    server, url = await serve(tables)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers=cookie(server, "43")) as ws:
            await ws.send_json({"type": "open", "ref": await tables.ref(table_id)})
            frame = (await frames_until(ws, views))[-1]
            assert frame["type"] == "view" and frame["seat"] == 1
            hand = frame["view"]["hand"]
            assert (await tables.leave(ben, "-100")).ok  # a bot takes the seat over
            live = await tables.live_table(table_id)
            assert live is not None and live.seats[1].is_bot
            await refused_and_unchanged(ws, tables, table_id, f"play {hand[0]}")
    finally:
        await server.close()
        await tables.close()


async def test_a_page_of_an_ended_table_cannot_play_at_the_channels_next_one(repo):
    sink = RecordingSink()
    tables, old_id = await game(repo, sink, bot_delay=30)
    server, url = await serve(tables)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers=cookie(server, "42")) as ws:
            await ws.send_json({"type": "open", "ref": await tables.ref(old_id)})
            assert (await frames_until(ws, views))[-1]["type"] == "view"
            assert (await tables.cancel(HOST, "-100")).ok
            new = await tables.new_game(HOST, "-100", "ochs-esel", [])
            await tables.add_bot(HOST, "-100")
            await tables.add_bot(HOST, "-100")
            assert (await tables.start_game(HOST, "-100")).ok
            live = await tables.live_table(new.table_id or 0)
            assert live is not None and live.state is not None
            assert live.seats[0].user_id == "42"
            # A move Ada could make at the new table, sent from the old table's page.
            seat = live.game.to_act(live.state)[0]
            await refused_and_unchanged(ws, tables, live.id,
                                        str(live.game.legal_moves(live.state, seat)[0]))
    finally:
        await server.close()
        await tables.close()


async def test_discord_watch_link_shows_the_public_table_and_acts_for_no_one(repo):
    sink = RecordingSink()
    tables, table_id = await game(repo, sink, platform="discord", channel="555")
    server, url = await serve(tables)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers={"Origin": PUBLIC}) as ws:
            await ws.send_json({"type": "open", "ref": await tables.ref(table_id)})
            frame = (await frames_until(ws, views))[-1]
            assert frame["type"] == "view" and frame["seat"] is None
            assert "hand" not in frame["view"]
            await ws.send_json({"type": "play", "text": "pass"})
            assert (await frames_until(ws, lambda f: f["type"] == "refused"))[-1]["text"]
            # A reference this bot never made opens nothing.
            await ws.send_json({"type": "open", "ref": "1.AAAAAAAAAAAAAAAA"})
            assert (await frames_until(ws, views))[-1]["type"] == "refused"
    finally:
        await server.close()
        await tables.close()


@pytest.mark.parametrize("member", [True, False])
async def test_a_telegram_spectator_joins_the_lobby_from_the_page_if_a_member(repo, member):
    sink = RecordingSink()
    tables, table_id = await game(repo, sink, start=False)
    asked: list[tuple[str, int]] = []

    async def is_member(person: Person, table: int) -> bool:
        asked.append((person.user_id, table))
        return member

    server, url = await serve(tables, is_member)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers=cookie(server, "77")) as ws:
            await ws.send_json({"type": "open", "ref": await tables.ref(table_id)})
            frame = (await frames_until(ws, views))[-1]
            assert asked == [("77", table_id)]
            if not member:
                assert frame["type"] == "refused" and frame["code"] == "not_member"
                assert "members" in frame["text"]
                return
            assert frame["type"] == "view" and frame["can_join"]
            await ws.send_json({"type": "join"})
            answer = (await frames_until(ws, lambda f: f["type"] == "reply"))[-1]
            assert answer["ok"], answer
        live = await tables.live_table(table_id)
        assert live is not None and any(s.user_id == "77" for s in live.seats)
    finally:
        await server.close()
        await tables.close()


async def test_a_page_sees_within_a_second_a_move_made_through_another_process():
    """PostgreSQL, two processes' tables on one database: A drives the table, B serves its
    page. A move made through A reaches B's page within a second."""
    from tests.db.conftest import postgres_schema

    async with postgres_schema() as schema:
        await two_processes(schema)


async def two_processes(schema: str) -> None:
    from tests.db.conftest import postgres_repository

    repos = [postgres_repository(schema), postgres_repository(schema)]
    for one in repos:
        await one.open()
    driver = Tables(repos[0], RecordingSink(), platform="telegram",
                    settings=settings(bot_delay=30))
    other = Tables(repos[1], RecordingSink(), platform="telegram",
                   settings=settings(bot_delay=30))
    server = None
    try:
        await driver.start(run_scheduler=True)
        await other.start(run_scheduler=True)
        people = [HOST, Actor("43", "Ben"), Actor("44", "Cy")]
        reply = await driver.new_game(HOST, "-100", "ochs-esel", [])
        for person in people[1:]:
            await driver.join(person, "-100")
        assert (await driver.start_game(HOST, "-100")).ok
        table_id = reply.table_id or 0
        assert driver.drives(table_id) and not other.drives(table_id)
        server, url = await serve(other)
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"{url}/ws", headers=cookie(server, "42")) as ws:
            await ws.send_json({"type": "open", "ref": await other.ref(table_id)})
            first = (await frames_until(ws, views))[-1]
            assert first["type"] == "view"
            live = await driver.live_table(table_id)
            assert live is not None and live.state is not None
            seat = live.game.to_act(live.state)[0]
            actor = people[seat]
            move = str(live.game.legal_moves(live.state, seat)[0])
            played_at = time.monotonic()
            played = await driver.play(actor, "-100", move)
            assert played.ok, played
            await frames_until(ws, lambda f: f["type"] == "view"
                               and f["table"]["version"] > first["table"]["version"],
                               within=1.0)
            assert time.monotonic() - played_at < 1.0
    finally:
        if server is not None:
            await server.close()
        await other.close()
        await driver.close()
        for one in repos:
            await one.close()
