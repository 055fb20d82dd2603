"""The console table: reads commands from stdin, prints the table and your hand.

It is an adapter like the chat ones: lines become `Tables` calls, deliveries become
printed blocks. Buttons are numbered (`#1`, `#2`, ...) because a terminal has no buttons.
"""

import asyncio
import getpass
import itertools
import json
import sys
from dataclasses import replace
from typing import TextIO

from bot import present
from bot.authority import Press
from bot.deliveries import Announcement, HandMessage, Notice, TableMessage
from bot.i18n import t
from bot.options import resolve_game
from bot.privacy import PRIVACY_REF, decode_privacy
from bot.render import Button, Rendering, encode_payload
from bot.settings import Settings
from bot.tables import Actor, Tables
from db.repository import MessageRef, Repository
from engine import games
from engine.core.notation import read_number

CHANNEL = "local"
USER = Actor(user_id="you", name=getpass.getuser().capitalize() or "You", is_admin=True)


async def _yes() -> bool:
    return True
FIRST = {"hand": 1, "table": 31, "announce": 41}  # hands have at most 25 buttons


class ConsoleSink:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.buttons: dict[str, list[str]] = {"hand": [], "table": [], "announce": []}
        self._ids = itertools.count(1)

    def _print(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _numbered(self, where: str, rendering: Rendering) -> str:
        self.buttons[where] = []
        labels = []
        for button in (b for row in rendering.buttons for b in row):
            self.buttons[where].append(encode_payload(rendering.ref, rendering.version,
                                                     button.action))
            labels.append(f"[#{FIRST[where] + len(self.buttons[where]) - 1}] {button.label}")
        return "  ".join(labels)

    def payload(self, number: int) -> str | None:
        # Each block has its own range, so a block redrawn later never renumbers another.
        for where, first in FIRST.items():
            buttons = self.buttons[where]
            if first <= number < first + len(buttons):
                return buttons[number - first]
        return None

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        self._print("\n" + "─" * 60 + "\n" + msg.rendering.text)
        self._renumber(msg.rendering, "table")
        return ref or MessageRef(key="table", chat="console", message_id=str(next(self._ids)))

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        self._print("\n" + msg.rendering.text)
        self._renumber(msg.rendering, "hand")
        return ref or MessageRef(key=f"hand:{msg.seat}", chat="console",
                                 message_id=str(next(self._ids)))

    def _renumber(self, rendering: Rendering, where: str) -> None:
        line = self._numbered(where, rendering)
        if line:
            self._print(line)

    def show_buttons(self, ref: str, rendering: Rendering) -> None:
        """A question with its buttons, numbered like an announcement's."""
        self._print(rendering.text)
        self._renumber(replace(rendering, ref=ref), "announce")

    async def announce(self, msg: Announcement) -> None:
        if msg.kind == "turn":
            return  # the only human is at the keyboard: the hand already says "your turn"
        self._print("📣 " + msg.text)
        if msg.buttons:
            rendering = Rendering("", [], msg.buttons, msg.version, msg.ref)
            self._renumber(rendering, "announce")

    async def notify(self, msg: Notice) -> None:
        self._print("✉ " + msg.text)


class Console:
    def __init__(self, repo: Repository, settings: Settings, *, out: TextIO = sys.stdout,
                 inp: TextIO = sys.stdin) -> None:
        self.out = out
        self.inp = inp
        self.sink = ConsoleSink(out)
        self.tables = Tables(repo, self.sink, platform="console", settings=settings)
        self.lang = settings.default_lang

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def readline(self, prompt: str = "") -> str | None:
        if prompt:
            self.out.write(prompt)
            self.out.flush()
        line = await asyncio.to_thread(self.inp.readline)
        return None if line == "" else line.strip()

    async def run(self, *, game: str | None, bots: int | None, options: list[str]) -> int:
        await self.tables.start(run_scheduler=True)
        try:
            table = await self.tables.table_for_channel(CHANNEL)
            if table is None:
                if not await self._new_table(game, bots, options):
                    return 1
            else:
                self.say(t(self.lang, "console_resume", game=games.get(table.game).NAME))
                await self.tables.show(USER, CHANNEL)
                if table.status == "playing":
                    await self.tables.hand(USER, CHANNEL)
            await self.tables.settle()
            await self._loop()
        finally:
            await self.tables.settle()
            await self.tables.close()
        return 0

    async def _new_table(self, game: str | None, bots: int | None, options: list[str]) -> bool:
        """Set up from the command line, or by questions that are asked again after a
        refused answer: a typo at the terminal should not end the program."""
        asking = game is None
        while True:
            if asking:
                game, options = await self._ask_game(options)
                if game is None:
                    return False
            reply = await self.tables.new_game(USER, CHANNEL, game or "", options,
                                               title="console")
            self.say(reply.text)
            if reply.ok:
                break
            if not asking:
                return False
            options = []
        live = await self.tables.live_table(reply.table_id or 0)
        assert live is not None
        low, high = max(0, live.game.SEATS.start - 1), live.game.SEATS.stop - 2
        await self.tables.settle()  # the lobby is shown before the question, not inside it
        while bots is None:
            default = max(low, min(3, high))
            answer = await self.readline(t(self.lang, "console_bots", low=low, high=high,
                                           default=default) + " ")
            if answer is None:
                return False
            number = read_number(answer, high + 1)
            if not answer:
                bots = default
            elif number is not None and low <= number <= high:
                bots = number
            else:
                self.say(t(self.lang, "console_bad_bots", low=low, high=high))
        for _ in range(bots):
            reply = await self.tables.add_bot(USER, CHANNEL)
            if not reply.ok:
                self.say(reply.text)
                return False
        reply = await self.tables.start_game(USER, CHANNEL)
        self.say(reply.text)
        return reply.ok

    async def _ask_game(self, options: list[str]) -> tuple[str | None, list[str]]:
        ids = games.ids()
        self.say(t(self.lang, "console_pick_game"))
        for i, game_id in enumerate(ids, 1):
            self.say(f"  {i}. {games.get(game_id).NAME} ({game_id})")
        answer = await self.readline("> ")
        if answer is None:
            return None, options
        number = read_number(answer, len(ids) + 1)
        game = ids[number - 1] if number is not None and 0 < number <= len(ids) else answer
        if resolve_game(game) is None:
            return game, options  # refused, with the list of games, before any option
        if not options:
            answer = await self.readline(t(self.lang, "console_options") + " ")
            if answer is None:
                return None, options
            options = answer.split()
        return game, options

    async def _loop(self) -> None:
        while True:
            line = await self.readline()
            if line is None or line in {"/quit", "/exit", "quit", "exit"}:
                return
            if not line:
                continue
            reply_text = await self.handle(line)
            if reply_text:
                self.say(reply_text)
            await self.tables.settle()

    async def handle(self, line: str) -> str | None:
        tables = self.tables
        button = read_number(line[1:], 10**6) if line.startswith("#") else None
        if button is not None:
            payload = self.sink.payload(button)
            if payload is None:
                return t(self.lang, "console_no_button")
            # Every message of the console is in its one channel, its user that channel's
            # admin (a private chat is its user's own channel).
            reply = await tables.press(USER, Press(payload, CHANNEL, is_admin=_yes))
            privacy = decode_privacy(payload) is not None  # its answer is all there is
            return reply.text if privacy or not reply.ok else None
        word, _, rest = line.partition(" ")
        command = word.lstrip("/").lower() if word.startswith("/") else "play"
        if command == "play":
            text = rest if word.startswith("/") else line
            reply = await tables.play(USER, CHANNEL, text)
            return None if reply.ok else reply.text
        if command == "pass":
            reply = await tables.play(USER, CHANNEL, "pass")
            return None if reply.ok else reply.text
        simple = {"hand": tables.hand, "table": tables.show, "scores": tables.scores,
                  "stats": tables.stats, "cancel": tables.cancel, "join": tables.join,
                  "leave": tables.leave, "start": tables.start_game}
        if command in simple:
            reply = await simple[command](USER, CHANNEL)
            return None if command in {"hand", "table"} and reply.ok else reply.text
        if command == "newgame":
            parts = rest.split()
            reply = await tables.new_game(USER, CHANNEL, parts[0] if parts else "", parts[1:],
                                          title="console")
            return reply.text
        if command == "lang":
            reply = await tables.set_lang(USER, CHANNEL, rest, personal=False)
            self.lang = (await tables.channel_lang(CHANNEL))
            return reply.text
        if command == "mydata":
            return json.dumps(await tables.my_data(USER), ensure_ascii=False, indent=2)
        if command == "forgetme":
            question = await tables.forget_prompt(USER)
            self.sink.show_buttons(PRIVACY_REF, question)
            return None
        if command == "rules":
            return present.rules_text(rest.strip(), self.lang)
        return present.help_text(self.lang) + "\n" + t(self.lang, "console_help")


def buttons_of(rendering: Rendering) -> list[Button]:
    return [b for row in rendering.buttons for b in row]
