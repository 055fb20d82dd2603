"""The page as Telegram opens it: a Telegram table on the fake Bot API, the web server
beside it (WEB_URL), and chromium opening the `web_app` address of the player's hand
message with the launch data Telegram adds. A move tapped there shows in the chat."""

import json
import socket
import threading
import time
from pathlib import Path
from urllib.parse import quote

from adapters.web.auth import Signer
from adapters.web.server import WebServer
from bot.tables import Actor
from bot.web_view import Watchers
from tests.adapters.telegram_rig import GROUP, Rig, hand_messages, table_messages
from tests.fakes.telegram_api import FakeTelegram
from tests.web.conftest import LoopThread, wait_until
from tests.web.test_auth import signed
from tests.web.test_browser import PHONE, my_turn, tap_move


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TelegramBeside(LoopThread):
    """The fake Telegram, the bot on it and the web server beside it, in a thread with its
    own event loop: the browser is driven from this one."""

    def __init__(self, database: Path) -> None:
        super().__init__()
        self.database = database
        self.port = free_port()
        self.fake: FakeTelegram | None = None
        self.rig: Rig | None = None

    def start(self) -> "TelegramBeside":
        async def serve(ready: threading.Event) -> None:
            async with FakeTelegram() as fake:
                url = f"http://127.0.0.1:{self.port}"
                rig = Rig(fake, self.database, web_url=url, bot_delay=0)
                bot = await rig.start()
                server = WebServer({}, Watchers(), Signer(b"t" * 32), public_url=url,
                                   telegram_token=fake.token)
                server.add("telegram", rig.tables, bot.web_member)
                await server.start("127.0.0.1", self.port)
                self.fake, self.rig = fake, rig
                try:
                    await self.serve_until_stopped(ready)
                finally:
                    await server.close()
                    await rig.stop()

        self.launch(serve, "the bot and its web server")
        return self


def test_the_hand_messages_web_app_opens_the_table_and_a_tapped_move_shows_in_chat(
        browser, tmp_path: Path):
    beside = TelegramBeside(tmp_path / "tapis.db").start()
    try:
        fake, rig = beside.fake, beside.rig
        assert fake is not None and rig is not None
        alice = fake.user(11, "Alice")

        async def open_game() -> None:
            fake.start_bot(alice)
            fake.send_command(GROUP, alice, "/newgame ochs-esel rounds=1")
            await fake.wait_for(lambda: table_messages(fake, GROUP))
            host = Actor(str(alice.id), "Alice")
            await rig.tables.add_bot(host, str(GROUP))
            await rig.tables.add_bot(host, str(GROUP))
            assert (await rig.tables.start_game(host, str(GROUP))).ok

        beside.run(open_game())

        def web_app() -> str | None:
            for message in reversed(hand_messages(fake, alice)):
                for row in (message.reply_markup or {}).get("inline_keyboard", []):
                    for button in row:
                        if "web_app" in button:
                            return str(button["web_app"]["url"])
            return None

        address = wait_until(web_app)
        # What Telegram adds to the address it opens: the launch data, signed with the
        # bot's token (no start_param: a web_app button of a private chat sends none).
        launch = signed({"user": json.dumps({"id": alice.id, "first_name": "Alice"}),
                         "auth_date": str(int(time.time()) - 5), "chat_instance": "1"},
                        token=fake.token)
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{address}#tgWebAppData={quote(launch)}&tgWebAppVersion=7.0")
        page.wait_for_selector("body[data-status=playing]")
        view = wait_until(lambda: my_turn(page), within=30)
        assert view["seat"] == 0 and view["view"]["hand"]
        table = table_messages(fake, GROUP)[-1]
        before = len(table.history)
        stored_before = beside.run(rig.tables.repo.get_table(view["table"]["id"])).version
        tap_move(page, view["moves"][0])
        # The move is the table's, and the group's table message is edited to show it.
        wait_until(lambda: beside.run(rig.tables.repo.get_table(view["table"]["id"])).version
                   > stored_before)
        wait_until(lambda: len(table.history) > before and "Alice" in table.text, within=20)
        page.close()
    finally:
        beside.stop()
