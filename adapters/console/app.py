"""The console table: one player at a keyboard against bot players, saved between runs.

It is an adapter like the chat ones: typed lines become `Tables` calls, deliveries become
printed lines. A chat client redraws one table message; a terminal scrolls, so the
console prints a running log instead: one line per move (the table message's `news`),
the whole table only when it matters (your turn, `/table`, a round's end), and your hand
with every legal move, numbered, always last, right above where you type.

Numbers (`#1`, `#2`, …) stand for buttons and refer to the last list printed. Everything
printed goes through `Screen` (screen.py), which makes control characters visible and
clips runaway lines, so nothing typed (or stored) can drive the terminal; deliveries are
turned into lines by `ConsoleSink` (sink.py), typed lines read by `keyboard`.
"""

import asyncio
import contextlib
import getpass
import json
import signal
import sys
from dataclasses import replace
from typing import TextIO

from adapters.console import keyboard, texts
from adapters.console.screen import Screen
from adapters.console.sink import ConsoleSink
from bot import commands, present, queries, ratings
from bot.authority import Press
from bot.clean import echo
from bot.i18n import DIALECT, t
from bot.options import resolve_game, split_game
from bot.privacy import PRIVACY_REF
from bot.settings import Settings
from bot.tables import Actor, Reply, Tables
from db.repository import LOBBY, PLAYING, Repository
from engine import games
from engine.core.notation import read_number

CHANNEL = "local"
# The console is a community of its own: its games are rated among themselves.
COMMUNITY = ratings.community("console", "local")
QUIT = {"/quit", "/exit", "quit", "exit"}
USER = Actor(user_id="you", name=getpass.getuser().capitalize() or "You", is_admin=True)
MAX_LINE = 200  # longer input is refused unread: no move or command is that long


async def _yes() -> bool:
    return True


class Console:
    def __init__(self, repo: Repository, settings: Settings, *, out: TextIO = sys.stdout,
                 inp: TextIO = sys.stdin) -> None:
        DIALECT.set(texts.DIALECT)  # this task and every task it starts speak "console"
        # No one to wait for at a solo table: no turn deadline (and no bot taking over a
        # player who stepped away) unless asked for with -o deadline=… or /options.
        settings = settings.model_copy(update={"turn_deadline": 0})
        self.screen = Screen(out)
        self.repo = repo
        self.inp = inp
        self.sink = ConsoleSink(self.screen)
        self.tables = Tables(repo, self.sink, platform="console", settings=settings,
                             every_move=True)
        self.sink.quiet = self.tables.outbox.flush
        self.sink.seated = self._seated
        self.lang = self.sink.lang = settings.default_lang
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.quitting = False  # /quit was typed (not a setup that failed)
        self._ended = False  # the input ended (Ctrl-D, Ctrl-C, /quit): nothing more is read

    def say(self, text: str, style: str = "") -> None:
        self.screen.line(text, style)

    async def ask(self, command: commands.Command) -> Reply:
        """The command, typed by the one person at the keyboard, at the console's table."""
        return await commands.run(self.tables, USER, CHANNEL, command)

    async def _seated(self, table_id: int) -> bool:
        return await queries.seated(self.tables, table_id, USER.user_id)

    # --- input ----------------------------------------------------------------------------

    def _start_reading(self) -> None:
        """Lines are read by a daemon thread, so Ctrl-C and the end of the program never
        wait for a pending read (asyncio's own threads would: "^C" then nothing)."""
        loop = asyncio.get_running_loop()

        def put(line: str | None) -> None:
            loop.call_soon_threadsafe(self._lines.put_nowait, line)

        if keyboard.can_edit(self.inp, self.screen.rich.file):
            self.screen.editor = keyboard.LineEditor(self.screen.rich.file, put)
            self.screen.editor.start()
        else:
            keyboard.read_plain(self.inp, put)
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGINT, self._lines.put_nowait, None)

    async def readline(self, prompt: str = "") -> str | None:
        """The next line, stripped; None at the end of input or on Ctrl-C."""
        if self._ended:
            return None
        if prompt:
            self.say(prompt)
        self.screen.prompt()  # with readline, nothing is read before the prompt is shown
        if self._ended:
            return None
        line = await self._lines.get()
        self.screen.at_prompt = False  # Enter moved the cursor to a new line
        if line is not None and line.strip() in QUIT:  # at any question, not only in play
            self.quitting, line = True, None
        if line is None:
            self._ended = True  # whoever asks next learns it too
            return None
        return line.rstrip("\r\n").strip()

    # --- the program ----------------------------------------------------------------------

    async def run(self, *, game: str | None, bots: int | None, options: list[str],
                  lang: str | None = None) -> int:
        """`lang` (`--lang`) is the table's language from now on, stored like a `/lang`:
        the console's own sentences always follow the table's language."""
        self._start_reading()
        # Tables before this run's (a game finished or cancelled last time) are redrawn at
        # start-up for chats that may have missed it; here they'd land in the questions.
        newest = await self.repo.newest_tables_in("console", CHANNEL)
        self.sink.since = 0 if not newest else newest[0].id + (
            newest[0].status not in {LOBBY, PLAYING})
        await self.tables.start(run_scheduler=True)
        code = 0
        try:
            if lang is not None:
                await self.ask(commands.Lang(lang, personal=False))
            self.lang = self.sink.lang = await self.tables.channel_lang(CHANNEL)
            table = await self.tables.table_for_channel(CHANNEL)
            if table is None:
                if not await self._new_table(game, bots, options):
                    code = 0 if self.quitting else 1
            else:
                self.say(t(self.lang, "console_resume", game=games.get(table.game).NAME))
                await self.ask(commands.Show())
                if table.status == PLAYING:
                    await self.ask(commands.Hand())
                await self._settle()
            if code == 0:
                await self._settle()
                await self._loop()
        finally:
            with contextlib.suppress(Exception):
                await self.tables.settle()
            open_table = await self.tables.table_for_channel(CHANNEL)
            saved = open_table is not None and open_table.status in {LOBBY, PLAYING}
            try:
                # Closed first: a bot's move still under way is printed before the farewell,
                # never after it with a prompt nobody can answer.
                await self.tables.close()
            finally:
                if self.screen.prompting:
                    self.say("")  # off the prompt line (and the terminal's "^C")
                self.say(t(self.lang, "console_saved" if saved else "console_bye"))
                if self.screen.editor is not None:
                    self.screen.editor.close()
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
        return code

    async def _settle(self) -> None:
        await self.tables.settle()
        await self.sink.turn_printed()

    async def _new_table(self, game: str | None, bots: int | None, options: list[str]) -> bool:
        """Set up from the command line, or by questions that are asked again after a
        refused answer: a typo at the terminal should not end the program."""
        asking = game is None
        ask_options = False
        while True:
            if asking:
                if ask_options:
                    answer = await self.readline(t(self.lang, "console_options_again"))
                    if answer is None:
                        return False
                    options = answer.split()
                else:
                    game, options = await self._ask_game(options)
                    if game is None:
                        return False
            reply = await self.ask(commands.NewGame(game or "", options, "console",
                                                    COMMUNITY))
            self.say(reply.text)
            if reply.ok:
                break
            if not asking:
                return False
            # A refused option asks for the options again, not for the game.
            ask_options = resolve_game(game or "") is not None and bool(options)
            if not ask_options:
                options = []
        return await self._fill_and_start(reply.table_id or 0, bots, asking=asking)

    async def _fill_and_start(self, table_id: int, bots: int | None, *, asking: bool) -> bool:
        """The bots asked for (or the question how many), then the start; at the first
        start and after every /newgame alike."""
        bounds = await queries.bots_range(self.tables, table_id)
        if bounds is None:
            return False
        low, high = bounds
        await self._settle()  # the lobby is shown before the question, not inside it
        while bots is None:
            default = max(low, min(3, high))
            answer = await self.readline(t(self.lang, "console_bots", low=low, high=high,
                                           default=default))
            if answer is None:
                return False
            if answer.startswith(("/", "#")):  # a command or a choice: the lobby, by hand
                said = await self.handle(answer)
                if said:
                    self.say(said, "yellow")
                return True
            number = read_number(answer, high + 1)
            if not answer:
                bots = default
            elif number is not None and low <= number <= high:
                bots = number
            else:
                self.say(t(self.lang, "console_bad_bots", low=low, high=high))
        self.sink.lobby_quiet = True  # the game starts right after: no lobby per bot
        try:
            for _ in range(bots):
                reply = await self.ask(commands.AddBot())
                if not reply.ok:
                    self.say(reply.text)
                    return False
            await self.tables.settle()
        finally:
            self.sink.lobby_quiet = False
        while True:
            reply = await self.ask(commands.Start())
            self.say(reply.text)
            if reply.ok or not asking:
                return reply.ok
            # An option that cannot work with these players (The Game's `first=4` with
            # three): asked again, kept in the lobby, not the end of the program.
            changed = None
            while changed is None or not changed.ok:
                answer = await self.readline(t(self.lang, "console_options_change"))
                if answer is None:
                    return False
                changed = await self.ask(commands.Options(answer.split()))
                self.say(changed.text)

    async def _ask_game(self, options: list[str]) -> tuple[str | None, list[str]]:
        ids = games.ids()
        self.say(t(self.lang, "console_pick_game"))
        for i, game_id in enumerate(ids, 1):
            self.say(f"  {i}. {t(self.lang, f'game.{game_id}')} ({game_id})")
        answer = await self.readline()
        # A command here (/help, /rules, /lang) is answered, and the question stays.
        while answer is not None and answer.startswith("/") \
                and answer.split()[0].lower() != "/newgame":
            said = await self.handle(answer[:MAX_LINE])
            if said:
                self.say(said, "yellow")
            answer = await self.readline()
        if answer is None:
            return None, options
        if len(answer) > MAX_LINE:
            answer = answer[:MAX_LINE]
        if answer.startswith("/"):  # /newgame <game> [options], as in play
            words = answer.split()[1:]
            answer, typed = split_game(words[0], words[1:]) if words else ("", [])
            options = typed or options
        number = read_number(answer, len(ids) + 1)
        game = ids[number - 1] if number is not None and 0 < number <= len(ids) else answer
        chosen = resolve_game(game)
        if chosen is None:
            return game, options  # refused, with the list of games, before any option
        if not options:
            defaults = present.default_options(games.get(chosen), self.lang)
            typed_options = await self.readline(t(self.lang, "console_options",
                                                  defaults=defaults))
            if typed_options is None:
                return None, options
            options = typed_options.split()
        return game, options

    async def _loop(self) -> None:
        while True:
            line = await self.readline()
            if line is None:
                return
            if not line:
                continue
            if len(line) > MAX_LINE:
                self.say(t(self.lang, "console_too_long", length=len(line)))
                continue
            reply_text = await self.handle(line)
            if reply_text:
                self.say(reply_text, "yellow")
            await self._settle()
            self.screen.prompt()  # after a refusal too: where to type is always shown

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
            # A move's reply is the move itself, narrated already; other buttons answer.
            return None if reply.ok and ".m:" in payload else reply.text
        word, _, rest = line.partition(" ")
        command = word.lstrip("/").lower() if word.startswith("/") else "play"
        if command == "play":
            text = rest if word.startswith("/") else line
            reply = await self.ask(commands.Play(text))
            return None if reply.ok else reply.text
        if command == "pass":
            reply = await self.ask(commands.Play("pass"))
            return None if reply.ok else reply.text
        if command == "table":
            reply = await self.ask(commands.Show())
            return None if reply.ok else reply.text
        if command == "hand":
            reply = await self.ask(commands.Hand())
            if reply.ok:
                await self._settle()
                if not self.sink.my_turn:
                    return reply.text.split("\n", 1)[-1]
                self.sink.print_turn()
                return None
            return reply.text
        simple: dict[str, commands.Command] = {
            "scores": commands.Scores(), "stats": commands.Stats(), "cancel": commands.Cancel(),
            "join": commands.Join(), "leave": commands.Leave(), "start": commands.Start(),
            "addbot": commands.AddBot(), "removebot": commands.RemoveBot()}
        if command in simple:
            return (await self.ask(simple[command])).text
        if command == "options":
            return (await self.ask(commands.Options(rest.split()))).text
        if command == "leaderboard":
            return (await self.ask(commands.Leaderboard(COMMUNITY, rest.split()))).text
        if command == "rating":
            # Nobody named: the person at the keyboard; else a name the tables showed.
            return (await self.ask(commands.Rating(COMMUNITY, None, rest.strip()))).text
        if command == "newgame":
            parts = rest.split()
            reply = await self.ask(commands.NewGame(parts[0] if parts else "", parts[1:],
                                                    "console", COMMUNITY))
            if not reply.ok:
                return reply.text
            self.say(reply.text)
            await self._fill_and_start(reply.table_id or 0, None, asking=True)
            return None
        if command == "lang":
            reply = await self.ask(commands.Lang(rest, personal=False))
            self.lang = self.sink.lang = await tables.channel_lang(CHANNEL)
            return reply.text
        if command == "mydata":
            data = await tables.privacy.my_data(USER)
            if isinstance(data, Reply):  # asked again too soon: when they may
                return data.text
            return json.dumps(data, ensure_ascii=False, indent=2)
        if command == "forgetme":
            question = await tables.privacy.forget_prompt(USER)
            self.sink.screen.line(question.text)
            self.sink.number(replace(question, ref=PRIVACY_REF))
            return None
        if command == "rules":
            text = present.rules_text(rest.strip() or await self._game_here(), self.lang)
            self.screen.line(text, "yellow", code=True)
            return None
        if command in {"help", "?"}:
            return present.help_text(self.lang)
        return t(self.lang, "console_unknown_command", command=echo(word))

    async def _game_here(self) -> str:
        """`/rules` alone during a game: the rules of the game on the table."""
        row = await self.tables.table_for_channel(CHANNEL)
        return row.game if row is not None else ""
