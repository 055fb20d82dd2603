"""Tables: the router that finds the table an event is for and hands it the request.

Adapters reach it through three doors: a command through `bot.commands.run`, a press
through `Tables.press`, a platform's news through `bot.events.happened`; timers come from
the scheduler (`_run_job`). Each finds the table (by channel, by a button's reference, by
a timer), reading it if need be, and hands the request to that table's `bot.table.Table`,
which owns its lock, its state, its timers and its deliveries. Kept here is what is no
one table's: which tables this process drives, the `Host` every table is given, and the
life of the process; which tables it holds in memory is `bot.held`'s, the references
buttons carry `bot.references`'. What an
event does before or around a table lives in a module of its own, each given this object
through a Protocol of what it needs: start-up and take-overs (`bot.startup`), the safety
net (`bot.stuck`), opening a table (`bot.opening`), a press's check and action
(`bot.presses`), the commands that only show (`bot.views`), /lang and /mentions
(`bot.choices`), platform events (`bot.events`); languages and settings are
`bot.people`'s, and a person's own data `bot.privacy`'s. Each command returns a `Reply`
(a sentence for the person who acted, already in their language).
"""

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot import choices, events, logs, metrics, opening, present, presses, startup, stuck, views
from bot.authority import MemberCheck, Press, RightsUnknown
from bot.clock import Clock, RealClock
from bot.deliveries import Delivery, with_called
from bot.driving import Driving
from bot.faults import answers_storage_faults
from bot.held import Held
from bot.host import Host
from bot.i18n import t
from bot.live import Actor, Live, Reply
from bot.outbox import Outbox, Sink
from bot.people import People
from bot.presses import Pressed
from bot.privacy import Privacy
from bot.references import References
from bot.render import Rendering
from bot.scheduler import Job, Scheduler
from bot.settings import Settings
from bot.table import MAX_MOVE_CHARS, LobbyMoved, Table
from db.repository import PLAYING, Repository, TableRow
from engine import BadOptions
from engine.core.protocol import Game

log = logging.getLogger(__name__)

# What adapters and tests take from here with `Tables`.
__all__ = ["MAX_MOVE_CHARS", "Actor", "Live", "LobbyMoved", "Press", "Reply", "RightsUnknown",
           "Table", "Tables"]


class Tables:
    # The class of each table's driver: benchmarks count moves with a subclass.
    table_type: type[Table] = Table

    def __init__(
        self, repo: Repository, sink: Sink, *, platform: str, settings: Settings | None = None,
        clock: Clock | None = None, seeds: Callable[[], int] | None = None,
        every_move: bool = False,
    ) -> None:
        self.repo = repo
        # A client with room for every legal move as a button (the console's numbered list).
        self.every_move = every_move
        # Tests fix the seeds to compare runs; in play every table gets a fresh random one.
        self._seeds = seeds or (lambda: secrets.randbelow(2**62))
        self.platform = platform
        self.settings = settings or Settings()
        self.clock = clock or RealClock()
        # With several processes on one database, each drives its share of the tables
        # (bot/driving.py); alone (SQLite), this one drives them all and checks nothing.
        cluster = repo.cluster()
        self.driving = Driving(self, cluster) if cluster is not None else None
        drives = self.driving.drives if self.driving is not None else None
        self.outbox = Outbox(sink, repo, on_channel_gone=self._channel_gone,
                             on_unreachable=self._unreachable, drives=drives,
                             elsewhere=self.driving.elsewhere if self.driving else None,
                             queued=self.stamp)
        self.scheduler = Scheduler(self.clock, self._run_job, accepts=drives)
        metrics.QUEUE.labels(platform).set_function(self.outbox.depth)
        self.privacy = Privacy(self)
        # Languages and settings, for this process's tables and commands alike.
        self.people = People(repo, platform=platform, settings=self.settings,
                             in_background=self.in_background,
                             on_lang_changed=self._show_hands_of)
        # The tables this process holds, and those whose state is in memory (`bot.held`).
        self.held = Held(lambda table_id: self.table_type(self.host, table_id),
                         clock=self.clock, settings=self.settings, forget=self.outbox.forget)
        self._loaded = self.held.loaded
        self._background: set[asyncio.Task[None]] = set()
        self._watching: asyncio.Task[None] | None = None  # `unstick`, now and then
        # Tables the last look found waiting on nothing, with the stamp they had then.
        self._suspects: dict[int, tuple[int, str, float]] = {}
        # Tables whose move log this process checked against their snapshot (once each).
        self.verified: set[int] = set()
        self.repaired: list[int] = []  # tables whose snapshot was rebuilt from the move log
        self.references = References(repo)
        # All a table needs of the rest of the bot: each table is given this, never `self`.
        # A person's language is asked of `self.lang_of` at each call: whatever stands in
        # for it (the adapters' tests put a storage fault there) must word a table's
        # replies as it words the commands'.
        self.host: Host[Table] = Host(
            repo=repo, outbox=self.outbox, scheduler=self.scheduler, clock=self.clock,
            settings=self.settings, platform=platform, every_move=every_move,
            lang_of=lambda user_id, channel: self.lang_of(user_id, channel),
            channel_lang=self.people.channel_lang, own_lang=self.people.own_lang,
            user_settings=self.people.user_settings,
            refuse=self.refuse, bad_options=self.bad_options,
            used=self.used, read=self.read, opened=self.opened, drives=self.drives,
            verified=self.verified, repaired=self.repaired,
            ref=self.ref, new_seed=self.new_seed, in_background=self.in_background)

    # --- life cycle -----------------------------------------------------------------------

    async def start(self, *, run_scheduler: bool = True) -> None:
        """Resume every unfinished table this process drives (`bot.startup`), then run its
        timers and, now and then, the safety net (`unstick`)."""
        if self.driving is not None:
            await self.driving.join()  # its share first: it resumes only the tables it drives
        await startup.resume(self, alone=self.driving is None)
        if run_scheduler:
            self.scheduler.start()
            self._watching = asyncio.get_running_loop().create_task(stuck.watch(self.unstick))
            if self.driving is not None:
                self.driving.start()

    async def close(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watching
            self._watching = None
        await self.scheduler.stop()
        await self._background_done()
        await self.outbox.close()
        if self.driving is not None:
            await self.driving.stop()

    async def settle(self) -> None:
        """Run what is due now and deliver everything queued: tests and shutdown wait on it."""
        while True:
            ran = await self.scheduler.run_due()
            await self.outbox.flush()
            await self._background_done()
            if not ran:
                return

    async def _background_done(self) -> None:
        if self._background:
            for result in await asyncio.gather(*self._background, return_exceptions=True):
                if isinstance(result, Exception):
                    log.error("a background write failed", exc_info=result)

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` without waiting for it; `settle` and `close` do wait for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def new_seed(self) -> int:
        return self._seeds()

    # --- the tables in memory -------------------------------------------------------------

    def table(self, table_id: int) -> Table:
        return self.held.table(table_id)

    def in_memory(self, table_id: int) -> Table | None:
        return self.held.in_memory(table_id)

    async def loaded_table(self, table_id: int, *, check: bool = True) -> Table | None:
        """The table with its state read (and its log checked, with `check`), up to date
        for a person's command or press; None when there is no such table, or it could
        not be restored.

        With several processes, a change made at another one reaches the driver by a
        notice, which may still be on its way: the driver looks first (one read), so it
        never answers from a copy older than what the person saw happen."""
        table = self.table(table_id)
        if await table.load(check=check) is None:
            self.let_go_if_unused(table)
            return None
        if self.driving is not None and self.drives(table_id):
            await table.catch_up()
        return table

    def used(self, table: Table) -> None:
        self.held.used(table)

    def read(self, table: Table) -> None:
        self.held.read(table)

    def drop(self, table_id: int) -> None:
        self.held.drop(table_id)

    def let_go_if_unused(self, table: Table) -> None:
        self.held.let_go_if_unused(table)

    async def in_channel(self, channel: str) -> Table | None:
        logs.bind(platform=self.platform, channel=channel)
        row = await self.repo.open_table_in(self.platform, channel)
        if row is None:
            return None
        logs.bind(table_id=row.id)
        return await self.loaded_table(row.id)

    async def _with_table(self, actor: Actor, channel: str,
                          handler: Callable[[Table, Actor], Awaitable[Reply]]) -> Reply:
        """Commands typed in a channel act on its open table; buttons name theirs."""
        table = await self.in_channel(channel)
        if table is None:
            return await self.refuse(actor, channel, "no_table")
        return await handler(table, actor)

    async def opened(self, table_id: int) -> Table:
        """A table this process just created: it drives it, and its state is read."""
        if self.driving is not None:
            await self.driving.adopt(table_id)
        table = await self.loaded_table(table_id)
        assert table is not None
        return table

    async def _run_job(self, job: Job) -> None:
        logs.bind(platform=self.platform, table_id=job.table_id)
        table = self.table(job.table_id)
        await table.turns.run(job)
        self.let_go_if_unused(table)

    async def unstick(self) -> int:
        """The safety net (`bot.stuck`) over the tables in memory this process drives: how
        many waited on nothing and had their next turn arranged."""
        found, self._suspects = await stuck.unstick(
            [table for table in list(self._loaded.values()) if self.drives(table.id)],
            self._suspects, self.clock.now())
        return found

    # --- driving (several processes on one database) ----------------------------------------

    def drives(self, table_id: int) -> bool:
        """Whether this process runs the table's timers and makes its deliveries."""
        return self.driving is None or self.driving.drives(table_id)

    def idle(self, table_id: int) -> bool:
        """Nothing under way for the table here: it can be handed to another process."""
        table = self.held.tables.get(table_id)
        return (table is None or not table.busy()) and not self.outbox.busy(table_id)

    def let_go(self, table_id: int) -> None:
        """Another process drives the table now: no timer of it stays here, and its copy
        is read again before it is used."""
        self.scheduler.drop(table_id)
        self.outbox.forget(table_id)
        self.read_again(table_id)

    def read_again(self, table_id: int) -> None:
        self.held.read_again(table_id)

    async def take_over(self, table_id: int) -> None:
        await startup.take_over(self, table_id)

    async def catch_up(self, table_id: int) -> None:
        """Show a change another process made to a table this one drives."""
        if self.drives(table_id):
            await self.table(table_id).catch_up()

    # --- table references -----------------------------------------------------------------

    async def ref(self, table_id: int) -> str:
        """How buttons and links name a table (`bot.references`)."""
        return await self.references.ref(table_id)

    async def genuine(self, table_id: int, tag: str) -> bool:
        return await self.references.genuine(table_id, tag)

    # --- languages and settings -----------------------------------------------------------
    # Kept by `self.people`; these are what the adapters, bot/queries.py and bot/privacy.py
    # ask here (tables ask their host).

    async def channel_lang(self, channel: str) -> str:
        return await self.people.channel_lang(channel)

    def remember_locale(self, user_id: str, locale: str | None) -> None:
        self.people.remember_locale(user_id, locale)

    async def lang_of(self, user_id: str, channel: str | None = None) -> str:
        return await self.people.lang_of(user_id, channel)

    @answers_storage_faults
    async def set_lang(self, actor: Actor, channel: str, lang: str, *, personal: bool) -> Reply:
        return await choices.set_lang(self, actor, channel, lang, personal=personal)

    async def _show_hands_of(self, user_id: str) -> None:
        await choices.show_hands_of(self, user_id)

    @answers_storage_faults
    async def set_mentions(self, actor: Actor, on: bool) -> Reply:
        return await choices.set_mentions(self, actor, on)

    async def refuse(self, actor: Actor, channel: str | None, key: str, /,
                      **params: Any) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, key, **params), ok=False, reason=key)

    async def give_up_seat(self, table_id: int, actor: Actor) -> None:
        """/forgetme: leave the table as /leave does."""
        table = self.table(table_id)
        await table.give_up_seat(actor)
        self.let_go_if_unused(table)

    def forget_settings(self, user_id: str) -> None:
        self.people.forget(user_id)

    def naming(self, user_id: str) -> list[Table]:
        return self.held.naming(user_id)

    async def forget_everywhere(self, user_id: str) -> bool:
        """The person was forgotten in the database: every other process serving this
        platform drops them from what it holds; False if one did not say it had in time."""
        if self.driving is None:
            return True
        return await self.driving.forget_everywhere(user_id)

    async def forgotten_here(self, user_id: str) -> None:
        """Another process forgot the person: this one's copies, settings and hand message
        ids stop naming them (each table under its lock, as the forgetting process did)."""
        self.forget_settings(user_id)
        for table in self.naming(user_id):
            async with table.lock:
                await table.forgotten(user_id)
            self.outbox.forget(table.id)

    # --- commands: the lobby --------------------------------------------------------------

    @answers_storage_faults
    async def new_game(self, actor: Actor, channel: str, game_text: str,
                       option_words: list[str] | None = None, *, title: str = "",
                       community: str | None = None) -> Reply:
        return await opening.new_game(self, actor, channel, game_text, option_words or [],
                                      title, community)

    async def bad_options(self, actor: Actor, channel: str, exc: BadOptions, game: Game
                          ) -> Reply:
        lang = await self.lang_of(actor.user_id, channel)
        return Reply(t(lang, "bad_options", message=present.option_problems(exc, game, lang)),
                     ok=False)

    @answers_storage_faults
    async def set_options(self, actor: Actor, channel: str, words: list[str]) -> Reply:
        table = await self.in_channel(channel)
        if table is None:
            return await self.refuse(actor, channel, "no_table")
        if not words:
            return await table.options_text(actor)
        return await table.set_options(actor, words)

    @answers_storage_faults
    async def join(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.join)

    @answers_storage_faults
    async def leave(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.leave)

    @answers_storage_faults
    async def add_bot(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.add_bot)

    @answers_storage_faults
    async def remove_bot(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.remove_bot)

    @answers_storage_faults
    async def start_game(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.start)

    @answers_storage_faults
    async def cancel(self, actor: Actor, channel: str) -> Reply:
        return await self._with_table(actor, channel, Table.cancel)

    @answers_storage_faults
    async def kick(self, actor: Actor, channel: str, target: str) -> Reply:
        table = await self.in_channel(channel)
        if table is None:
            return await self.refuse(actor, channel, "no_table")
        return await table.kick(actor, target)

    @answers_storage_faults
    async def join_link(self, actor: Actor, text: str, is_member: MemberCheck) -> Reply:
        return await opening.join_link(self, actor, text, is_member)

    # --- commands and presses: moves ------------------------------------------------------

    @answers_storage_faults
    async def play(self, actor: Actor, channel: str, text: str) -> Reply:
        table = await self.in_channel(channel)
        if table is None or table.live.row.status != PLAYING:
            metrics.REFUSED.labels(self.platform, "no_game").inc()
            return await self.refuse(actor, channel, "no_game")
        return await table.play(actor, text, expected_version=None)

    @answers_storage_faults
    async def play_at(self, actor: Actor, table_id: int, text: str) -> Reply:
        """A move at the table `table_id`, of this platform: the table's own checks decide
        (the seat is the actor's, it is their turn), as for a move typed in its channel."""
        table = await self.loaded_table(table_id)
        if table is None or table.live.row.platform != self.platform \
                or table.live.row.status != PLAYING:
            metrics.REFUSED.labels(self.platform, "no_game").inc()
            return await self.refuse(actor, None if table is None else table.live.row.channel,
                                     "no_game")
        return await table.play(actor, text, expected_version=None)

    @answers_storage_faults
    async def press(self, actor: Actor, press: Press) -> Reply:
        """A button press from anywhere (channel or private chat), validated from scratch:
        the one entry point of presses. The table is checked and read once (`pressed`); the
        reply says where the press acted and, for an adapter that answers it in place, what
        to show (`Reply.shown`).

        Who may do what comes from the platform's facts in `press`, never from the
        payload nor from `actor.is_admin`: see `bot.authority`.
        """
        if press.privacy is not None:  # the /forgetme question: it acts for whoever pressed
            return await self.privacy.privacy_press(actor, *press.privacy)
        found = await self.pressed(actor, press)
        if isinstance(found, Reply):
            return found
        return await presses.act(self, actor, press, found)

    async def pressed(self, actor: Actor, press: Press) -> Pressed | Reply:
        """The table a press may act on, read once, or the refusal (`presses.check`)."""
        return await presses.check(self, actor, press)

    # --- commands: what the table shows (`bot.views`) -------------------------------------

    @answers_storage_faults
    async def hand(self, actor: Actor, channel: str) -> Reply:
        return await views.hand(self, actor, channel)

    async def hand_rendering_for_table(self, actor: Actor, table_id: int) -> Rendering | None:
        return await views.hand_rendering(self, actor, table_id)

    @answers_storage_faults
    async def show(self, actor: Actor, channel: str) -> Reply:
        return await views.show(self, actor, channel)

    @answers_storage_faults
    async def scores(self, actor: Actor, channel: str) -> Reply:
        return await views.scores(self, actor, channel)

    @answers_storage_faults
    async def stats(self, actor: Actor, channel: str | None = None) -> Reply:
        return await views.stats(self, actor, channel)

    # --- platform events ------------------------------------------------------------------

    async def _channel_gone(self, table_id: int) -> None:
        await events.channel_gone(self, table_id)

    async def _unreachable(self, table_id: int, user_id: str) -> None:
        table = self.table(table_id)
        await table.unreachable(user_id)
        self.let_go_if_unused(table)

    def stamp(self, delivery: Delivery) -> None:
        """An announcement queued here learns whom it calls (`deliveries.with_called`)."""
        with_called(delivery, self.live_table)

    async def channel_back(self, channel: str) -> list[int]:
        """A table closed when the bot lost `channel` carries on (`events.channel_back`)."""
        return await events.channel_back(self, channel)

    async def table_for_channel(self, channel: str) -> TableRow | None:
        table = await self.in_channel(channel)
        return None if table is None else table.live.row

    async def live_table(self, table_id: int) -> Live | None:
        """The table's state, read (and its log checked) if need be: None when there is no
        such table, or it could not be restored."""
        return await self.table(table_id).load()
