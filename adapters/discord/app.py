"""Tapis on Discord: slash commands and buttons in, `Tables` calls out.

Every rule, check and sentence comes from `bot.tables` (already in the user's language);
this module only turns Discord interactions into `Actor`s and channel keys, and answers
each interaction in time: Discord drops an interaction not answered within 3 seconds,
so slow work is deferred and finished with a followup. Answers are ephemeral: the
public state of a table is its one message, edited in place by the outbox.
"""

import asyncio
import io
import json
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TypeVar
from urllib.parse import urlparse

import aiohttp
import discord
import discord.gateway
import yarl
from discord import app_commands
from discord.app_commands import locale_str

from adapters.discord.commands_i18n import CatalogueTranslator
from adapters.discord.metered import trace_config
from adapters.discord.sink import (
    CHANNEL_GAP,
    DiscordSink,
    content_of,
    fingerprint,
    fit,
    plain,
    view_of,
)
from adapters.web import chat as web_links
from adapters.web.auth import Person
from adapters.web.server import WebServer
from bot import changes, commands, events, logs, present, queries, ratings
from bot.authority import Press, RightsUnknown, is_move, is_signal
from bot.clock import Clock, RealClock
from bot.i18n import LANGS, t
from bot.live import Acted
from bot.monitor import Health
from bot.privacy import PRIVACY_REF
from bot.render import Rendering, encode_payload
from bot.settings import Settings, StartupError
from bot.tables import Actor, Reply, Tables
from db.repository import PLAYING, Repository, StorageError
from engine import games

log = logging.getLogger(__name__)

# Leave a second of the 3 for the network: past this the answer is deferred. One budget
# per interaction, counted from its first handling, shared by every wait before the answer.
ANSWER_WITHIN = 2.0
BUDGET_KEY = "tapis_answer_by"  # in `Interaction.extras`: the monotonic time of the deadline

T = TypeVar("T")
THREAD_TYPES = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                          discord.ChannelType.news_thread})
LANG_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}


def _data_of(interaction: discord.Interaction) -> Mapping[str, object]:
    """discord.py types `data` as a union of every kind of interaction's payload, which
    only agree on being str-keyed; a button's `custom_id` is read from that."""
    return interaction.data or {}


def actor_of(interaction: discord.Interaction) -> Actor:
    """Host/admin-only commands also accept whoever may manage messages in the channel.

    A command acts on the table of the channel it is typed in, so these are the rights in
    the table's own channel. Buttons do not use them: see `press_of`."""
    user = interaction.user
    admin = interaction.guild_id is not None and interaction.permissions.manage_messages
    logs.bind(platform="discord", channel=interaction.channel_id)
    return Actor(str(user.id), user.display_name, is_admin=admin)


def channel_of(interaction: discord.Interaction) -> str:
    # A thread's id is its own channel id: a thread hosts its own table.
    return str(interaction.channel_id)


def community_of(interaction: discord.Interaction) -> str | None:
    """The server a command was typed in (all its channels and threads together); None in
    a DM, which belongs to no server and has no ladder."""
    guild = interaction.guild_id
    return ratings.community("discord", None if guild is None else str(guild))


def can_post(interaction: discord.Interaction) -> bool:
    """Whether the bot may post in the interaction's channel, as Discord says in the
    interaction itself. Discord takes an interaction's answer whatever those rights are,
    so a table opened or posted again where the bot cannot write would be confirmed to
    its user and never appear."""
    if interaction.guild_id is None:
        return True
    perms = interaction.app_permissions
    thread = getattr(interaction.channel, "type", None) in THREAD_TYPES
    return perms.view_channel and (perms.send_messages_in_threads if thread
                                   else perms.send_messages)


def press_of(interaction: discord.Interaction, payload: str) -> Press:
    """Discord's facts about a button press: the channel (None for a DM) where the pressed
    message lives, that message, the presser's rights in that channel, and who is still
    a member of its server."""
    message = interaction.message
    guild_id = interaction.guild_id

    async def is_admin() -> bool:
        return guild_id is not None and interaction.permissions.manage_messages

    async def is_member(user_id: str, channel: str) -> bool:
        # Asked only of a press in the table's own channel, so this is the table's server.
        if guild_id is None or channel != channel_of(interaction):
            return False
        return await member_of(interaction.client, guild_id, user_id)

    return Press(payload, None if guild_id is None else channel_of(interaction),
                 str(message.id) if message is not None else None, is_admin, is_member)


async def member_of(client: discord.Client, guild_id: int, user_id: str) -> bool:
    """Whether the server lists the user among its members, asked of Discord itself
    (GET /guilds/{guild}/members/{user}): the gateway sends no member list to a bot
    without the privileged members intent."""
    if not (user_id.isascii() and user_id.isdecimal()):
        return False
    try:
        await client.http.get_member(guild_id, int(user_id))
    except discord.NotFound:  # 10007 Unknown Member (or 10004 Unknown Guild)
        return False
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
        log.warning("GET member %s of %s failed: %s", user_id, guild_id, exc)
        raise RightsUnknown from exc
    return True


class TapisDiscord(discord.Client):
    def __init__(self, repo: Repository, settings: Settings, *, clock: Clock | None = None,
                 seeds: Callable[[], int] | None = None, channel_gap: float = CHANNEL_GAP,
                 **options: object) -> None:
        # Tapis uses no voice: discord.py's warnings that voice needs PyNaCl and davey,
        # the first lines an operator would see, are about nothing it does.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread deletions; nothing else is read
        options.setdefault("http_trace", trace_config())  # counts REST calls for /metrics
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                         **options)  # type: ignore[arg-type]
        self.settings = settings
        self.clock = clock or RealClock()
        self.sink = DiscordSink(self, self.clock, channel_gap=channel_gap)
        self.tables = Tables(repo, self.sink, platform="discord", settings=settings,
                             clock=self.clock, seeds=seeds)
        self.sink.lang_of = self.tables.lang_of
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self.tree.interaction_check = self._begin  # type: ignore[method-assign]
        _add_commands(self)
        self._tables_closed = False
        self._guild_sets_to_clear = False
        self._gateway_up = False

    # --- health ---------------------------------------------------------------------------

    def connection_problem(self) -> str | None:
        """For /healthz: None while the gateway session is up."""
        if self.is_closed():
            return "client closed"
        if not self._gateway_up or not self.is_ready():
            return "gateway not connected"
        return None

    async def on_resumed(self) -> None:
        self._gateway_up = True

    async def on_disconnect(self) -> None:
        self._gateway_up = False

    # --- life cycle -----------------------------------------------------------------------

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        await self.tables.start()
        if self.settings.register_commands:
            await self.sync_commands()

    async def sync_commands(self) -> None:
        """Guild commands appear at once (development); global ones take up to an hour.

        Discord keeps the global set and each guild's set apart and shows both, so the set
        an earlier run registered in the other mode is cleared: users never see a command
        twice. Guild sets are found once the guilds are known (`on_ready`).
        """
        if self.settings.discord_guild_ids:
            for guild_id in self.settings.discord_guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            assert self.application_id is not None
            if await self.http.get_global_commands(self.application_id):
                log.info("clearing the global commands of an earlier global sync")
                await self.http.bulk_upsert_global_commands(self.application_id, [])
        else:
            await self.tree.sync()
            self._guild_sets_to_clear = True

    async def on_ready(self) -> None:
        self._gateway_up = True
        if self._guild_sets_to_clear:
            self._guild_sets_to_clear = False
            await self._clear_guild_commands()

    async def _clear_guild_commands(self) -> None:
        """Global mode: the commands an earlier guild-mode run left in a server (one request
        per server, once per start)."""
        assert self.application_id is not None
        for guild in list(self.guilds):
            try:
                if await self.http.get_guild_commands(self.application_id, guild.id):
                    log.info("clearing guild %s's commands of an earlier guild sync", guild.id)
                    await self.http.bulk_upsert_guild_commands(self.application_id, guild.id, [])
            except discord.HTTPException:
                log.warning("could not check guild %s's commands", guild.id, exc_info=True)

    async def close(self) -> None:
        # Deliver what the outbox still holds while the HTTP session is still open.
        if not self._tables_closed:
            self._tables_closed = True
            try:
                await self.tables.close()
            except Exception:
                log.exception("closing the tables failed")
        await super().close()

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await events.happened(self.tables, events.ChannelLost(str(channel.id)))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await events.happened(self.tables, events.ChannelLost(str(payload.thread_id)))

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        """Rights given back in a channel: a table closed for losing it carries on."""
        if after.permissions_for(after.guild.me).send_messages:
            await events.happened(self.tables, events.ChannelBack(str(after.id)))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot added back to a server: the tables it lost there carry on."""
        channels: list[discord.TextChannel | discord.Thread] = [*guild.text_channels,
                                                                *guild.threads]
        for channel in channels:
            if channel.permissions_for(guild.me).send_messages:  # else it would close again
                await events.happened(self.tables, events.ChannelBack(str(channel.id)))

    # --- answering ------------------------------------------------------------------------

    @staticmethod
    def budget_left(interaction: discord.Interaction) -> float:
        """Seconds left before this interaction must be acknowledged.

        Set at the first call, which every handler makes before its first wait, and counted
        from Discord's own timestamp of the interaction (the time it spent reaching us and
        waiting in our event loop is gone too), trusted for one second at most so that a
        clock running ahead of Discord's cannot spend the whole budget.
        """
        answer_by = interaction.extras.get(BUDGET_KEY)
        if answer_by is None:
            age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
            answer_by = time.monotonic() + ANSWER_WITHIN - min(max(age, 0.0), 1.0)
            interaction.extras[BUDGET_KEY] = answer_by
        return max(0.0, float(answer_by) - time.monotonic())

    async def in_time(self, interaction: discord.Interaction, work: Awaitable[T], *,
                      update: bool = False) -> T:
        """`work`'s result, acknowledging the interaction first if it would outlast what is
        left of the interaction's one budget.

        Discord counts its 3 seconds from the interaction, not from each step: two waits
        of two seconds each (loading the table, then the answer's work) would miss it. So
        every wait before the first response takes what is left, and once deferred nothing
        waits for the budget again. `update`: a button on a message that will be edited
        (deferred update, no "thinking" message).
        """
        task = asyncio.ensure_future(work)
        if not interaction.response.is_done():
            done, _ = await asyncio.wait({task}, timeout=self.budget_left(interaction))
            if not done and not interaction.response.is_done():
                try:
                    if update:
                        await interaction.response.defer()
                    else:
                        await interaction.response.defer(ephemeral=True, thinking=True)
                except discord.HTTPException:
                    # Too late to answer (Discord forgot the interaction): the work still
                    # ends here, awaited, rather than left running with nothing holding it.
                    await asyncio.wait({task})
                    raise
        return await task

    async def answer(self, interaction: discord.Interaction,
                     work: Awaitable[Reply | str]) -> None:
        """An ephemeral answer, deferred first if the work outlasts Discord's 3 seconds."""
        result = await self.in_time(interaction, work)
        # A Reply is the core's plain text (names in it); a str is our own Markdown (rules).
        if isinstance(result, Reply):
            text = content_of(result.rendering) if result.rendering else plain(result.text)
        else:
            text = fit(result)
        text = text or "…"
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            if not (isinstance(result, Reply) and result.ok):
                raise
            # Done and stored: the table shows it. The error handler's sentence says that
            # nothing changed, which would be untrue now, so the confirmation is dropped.
            log.warning("the answer to a done action was not delivered", exc_info=True)

    def ask(self, interaction: discord.Interaction, command: commands.Command
            ) -> Awaitable[Reply]:
        """The command, asked by the interaction's user in its channel."""
        return commands.run(self.tables, actor_of(interaction), channel_of(interaction),
                            command)

    async def _lang(self, interaction: discord.Interaction) -> str:
        return await self.tables.lang_of(str(interaction.user.id), channel_of(interaction))

    async def _oops(self, interaction: discord.Interaction, key: str = "discord.oops") -> None:
        """Whatever failed, the user reads one plain sentence, never a traceback; never
        "nothing was changed" once something was stored for this interaction."""
        if interaction.type is discord.InteractionType.autocomplete:
            return
        if changes.stored():
            key = "error_after_change"
        try:
            lang = await self._lang(interaction)
        except Exception:
            lang = self.settings.default_lang
        try:
            if interaction.response.is_done():
                await interaction.followup.send(t(lang, key), ephemeral=True)
            else:
                await interaction.response.send_message(t(lang, key), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about a failure", exc_info=True)

    async def _begin(self, interaction: discord.Interaction) -> bool:
        """Before every command, in the task that runs it: what it stores is recorded."""
        changes.track()
        await self._note_home(interaction)
        if interaction.type is not discord.InteractionType.autocomplete:
            await self._seen(interaction)
        return True

    async def _seen(self, interaction: discord.Interaction) -> None:
        """Private answers and hands follow the user's Discord language: each command and
        press says which it is."""
        await events.happened(self.tables, events.LocaleSeen(str(interaction.user.id),
                                                             str(interaction.locale)))

    async def _note_home(self, interaction: discord.Interaction) -> None:
        """In a cluster, the guild of the channel a table may be made in: the table's home
        is the process whose shards hold that guild (bot/driving.py)."""
        driving = self.tables.driving
        if driving is not None and interaction.guild_id is not None:
            await driving.note_home(channel_of(interaction), interaction.guild_id)

    async def _on_tree_error(self, interaction: discord.Interaction,
                             error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            await self._oops(interaction, "discord.guild_only")
            return
        name = interaction.command.name if interaction.command else "?"
        if _forgotten(getattr(error, "original", None)):
            # The work was done (or refused) all the same; only its answer came after
            # Discord's 3 seconds, and nothing can reach the user on this interaction.
            log.warning("/%s answered too late: Discord no longer knew the interaction"
                        " (this process was busy for over 3 s)", name)
            return
        log.error("/%s failed", name, exc_info=error)
        # A storage fault the command did not word itself is still the storage's.
        cause = getattr(error, "original", None)
        await self._oops(interaction, "storage_unavailable"
                         if isinstance(cause, StorageError) else "discord.oops")

    # --- buttons --------------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return  # commands and autocomplete go through the tree
        try:
            await self._press(interaction)
        except Exception as error:
            if _forgotten(error):
                log.warning("button press answered too late: Discord no longer knew the"
                            " interaction (this process was busy for over 3 s)")
                return
            log.exception("button press %r failed", _data_of(interaction).get("custom_id"))
            await self._oops(interaction, "storage_unavailable"
                             if isinstance(error, StorageError) else "discord.oops")

    async def _press(self, interaction: discord.Interaction) -> None:
        changes.track()
        await self._note_home(interaction)
        await self._seen(interaction)
        payload = str(_data_of(interaction).get("custom_id", ""))
        actor = actor_of(interaction)
        press = press_of(interaction, payload)
        action, decoded = press.action, press.button
        if press.privacy is not None:
            await self._privacy_press(interaction, actor, press)
        elif action == "hand":
            await self.show_hand(interaction, actor, press)
        elif is_move(action) or is_signal(action):
            await self._move(interaction, actor, press)
        elif action == "start" and interaction.message is not None \
                and not interaction.message.flags.ephemeral and decoded is not None:
            await self._start_on_table(interaction, interaction.message, actor, press)
        else:
            # Lobby and table buttons, rematch, and anything forged: the core judges.
            await self.answer(interaction, self.tables.press(actor, press))

    async def _privacy_press(self, interaction: discord.Interaction, actor: Actor,
                             press: Press) -> None:
        """The /forgetme question's buttons act for whoever pressed; the answer replaces
        the question, so it cannot be pressed twice."""
        payload = press.payload
        message = interaction.message
        shown_on = [getattr(child, "custom_id", None) for row in (message.components if message
                    else []) for child in getattr(row, "children", [])]
        on_question = message is not None and message.flags.ephemeral and payload in shown_on
        # Forgetting waits for the locks of the person's tables and rewrites each of them:
        # it may outlast Discord's 3 seconds, so it shares the interaction's budget.
        reply = await self.in_time(interaction, self.tables.press(actor, press),
                                   update=on_question)
        text = fit(reply.text)
        if on_question and interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=None)
        elif on_question:
            await interaction.response.edit_message(content=text, view=None)
        elif interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:  # a forged press on another message: that message stays as it is
            await interaction.response.send_message(text, ephemeral=True)

    async def mydata(self, interaction: discord.Interaction) -> None:
        """What is stored about the user, as a JSON file only they can see."""
        actor = actor_of(interaction)
        lang = await self._lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await self.tables.privacy.my_data(actor)
        except StorageError:
            log.exception("/mydata could not read the database")
            await interaction.followup.send(t(lang, "mydata_failed"), ephemeral=True)
            return
        if isinstance(data, Reply):  # asked again too soon: when they may
            await interaction.followup.send(fit(data.text), ephemeral=True)
            return
        document = json.dumps(data, ensure_ascii=False, indent=2).encode()
        await interaction.followup.send(
            t(lang, "mydata_caption"), ephemeral=True,
            file=discord.File(io.BytesIO(document), filename="tapis-my-data.json"))

    async def forgetme(self, interaction: discord.Interaction) -> None:
        question = await self.tables.privacy.forget_prompt(actor_of(interaction))
        view = view_of(PRIVACY_REF, question.version, question.buttons)
        await interaction.response.send_message(fit(question.text), ephemeral=True,
                                                view=view or discord.utils.MISSING)

    async def _move(self, interaction: discord.Interaction, actor: Actor, press: Press
                    ) -> None:
        message = interaction.message
        ephemeral = message is not None and message.flags.ephemeral
        if not ephemeral and message is not None:
            await self._move_from_dm(interaction, message, actor, press)
            return
        # Acknowledge at once ("deferred update"): what changes is the hand message itself,
        # which the outbox edits.
        await interaction.response.defer()

        def adopt(acted: Acted) -> None:
            # This press's token is fresh for 15 minutes: the hand is edited through it.
            if ephemeral and message is not None:
                self.sink.adopt(acted.table_id, actor.user_id, self.sink.ephemeral_ref(
                    interaction.channel_id or 0, message.id, interaction.token))

        reply = await self.tables.press(actor, replace(press, before=adopt))
        if reply.ok:
            return
        if reply.acted is None:  # refused before reaching a table
            await interaction.followup.send(fit(reply.text), ephemeral=True)
            return
        if ephemeral:
            # The view may be older than the table (e.g. its token had expired): redraw it.
            await self.tables.press(actor, replace(press, payload=encode_payload(
                reply.acted.ref, 0, "hand")))
        await interaction.followup.send(plain(reply.text), ephemeral=True)

    async def _move_from_dm(self, interaction: discord.Interaction, message: discord.Message,
                            actor: Actor, press: Press) -> None:
        """Answer a hand press with the updated hand itself: one request, not two.

        The interaction response edits the message the button was on (UPDATE_MESSAGE), so
        the acknowledgement and the hand's edit are one call; the outbox's own edit of the
        same hand then finds the message already showing it and is skipped. Where another
        process drives the table (bot/driving.py), it alone edits the hand, so the reply
        shows nothing in place.
        """
        with self.sink.answering(str(message.channel.id), str(message.id)):
            reply = await self.in_time(interaction, self.tables.press(
                actor, replace(press, in_place=True)), update=True)
            if not reply.ok:
                if not interaction.response.is_done():
                    await interaction.response.defer()
                await interaction.followup.send(plain(reply.text), ephemeral=True)
                return
            if interaction.response.is_done():
                return  # deferred: the outbox edits the hand as usual
            if reply.shown is None:
                await interaction.response.defer()
                return
            rendering = reply.shown.rendering
            content = content_of(rendering)
            view = await self._hand_view(rendering, actor, reply)
            try:
                await interaction.response.edit_message(
                    content=content, view=view, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                # The move is stored: never "nothing changed". The outbox edits the hand.
                log.warning("a hand press's own edit failed; the outbox redraws it",
                            exc_info=True)
                return
            self.sink.showing(str(message.channel.id), str(message.id), content, view)

    async def _hand_view(self, rendering: Rendering, actor: Actor, reply: Reply
                         ) -> discord.ui.View | None:
        """A hand shown in answer to its player's press: only they see it, so it carries
        their own link to the table's page, as the sink's edits of it do."""
        if reply.acted is None:
            return view_of(rendering.ref, rendering.version, rendering.buttons)
        return await self.sink.hand_view(rendering, reply.acted.table_id, actor.user_id,
                                         reply.acted.channel)

    async def _start_on_table(self, interaction: discord.Interaction,
                              message: discord.Message, actor: Actor, press: Press) -> None:
        """Start pressed on the lobby: the answer turns the lobby into the table itself
        (UPDATE_MESSAGE), so the channel sees no edit of its own for the start. A refusal
        is said to the presser alone, as any answer."""
        with self.sink.answering(str(message.channel.id), str(message.id)):
            reply = await self.in_time(interaction, self.tables.press(
                actor, replace(press, in_place=True)), update=True)
            if reply.shown is None or reply.acted is None or interaction.response.is_done():
                text = plain(reply.text) or "…"
                if interaction.response.is_done():
                    await interaction.followup.send(text, ephemeral=True)
                else:
                    await interaction.response.send_message(text, ephemeral=True)
                return
            rendering = reply.shown.rendering
            content = self.sink.table_content(reply.acted.table_id, rendering)
            view = view_of(rendering.ref, rendering.version, rendering.buttons)
            try:
                await interaction.response.edit_message(
                    content=content, view=view, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                # The game started: never "nothing changed". The outbox edits the table.
                log.warning("the start's own edit of the table failed", exc_info=True)
                return
            self.sink.showing(str(message.channel.id), str(message.id), content, view)

    async def show_hand(self, interaction: discord.Interaction, actor: Actor, press: Press
                        ) -> None:
        """"My hand" and /hand: in DMs when they work, else here, ephemeral, with buttons."""
        # Loading a table (first touch after a restart replays its log) may be slow: the
        # press shares the interaction's one budget (`in_time`).
        reply = await self.in_time(interaction, self.tables.press(
            actor, replace(press, in_place=True)))
        shown, acted = reply.shown, reply.acted
        if shown is None or acted is None:
            # Refused (no seat, not in play...), or a hand that could not be drawn here.
            await self.answer(interaction, self._in_dm(actor, reply))
            return
        stored = shown.message
        private = (self.sink.dms_closed(actor.user_id) or stored is None
                   or stored.extra.get("via") == "ephemeral")
        if not private:
            if shown.keep is not None:
                await shown.keep()
            await self.answer(interaction, self._in_dm(actor, reply))
            return
        rendering = shown.rendering
        content = content_of(rendering)
        view = await self._hand_view(rendering, actor, reply)
        message_id: int | None
        if interaction.response.is_done():
            # Deferred: the "thinking" answer becomes the hand, still editable as @original.
            message_id = (await interaction.edit_original_response(
                content=content, view=view)).id
        else:
            sent = await interaction.response.send_message(
                content, view=view or discord.utils.MISSING, ephemeral=True)
            message_id = sent.message_id if sent is not None else None
            if message_id is None:
                message_id = (await interaction.original_response()).id
        self.sink.adopt(acted.table_id, actor.user_id, self.sink.ephemeral_ref(
            interaction.channel_id or 0, message_id, interaction.token),
            fingerprint(content, view))
        if not (stored is not None and stored.extra.get("told")):
            lang = await self.tables.lang_of(actor.user_id, acted.channel)
            await interaction.followup.send(t(lang, "discord.hand_here"), ephemeral=True)
        # Through the core, so that this message is stored as the seat's hand display.
        if shown.keep is not None:
            await shown.keep()

    async def _in_dm(self, actor: Actor, reply: Reply) -> Reply:
        """A player's hand asked for and sent to their DMs: the answer says where it went."""
        acted = reply.acted
        if reply.ok and acted is not None and acted.seat is not None:
            lang = await self.tables.lang_of(actor.user_id, acted.channel)
            reply.text = f"{reply.text}\n\n{t(lang, 'discord.hand_in_dm')}"
        return reply


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=locale_str(games.get(g).NAME), value=g)
            for g in games.ids()]


def _title(interaction: discord.Interaction) -> str:
    name = getattr(interaction.channel, "name", None)
    return f"#{name}" if name else ""


def _add_commands(app: TapisDiscord) -> None:
    tree, tables = app.tree, app.tables
    game_choices = _game_choices()
    lang_choices = [app_commands.Choice(name=LANG_NAMES.get(code, code), value=code)
                    for code in LANGS]

    def simple(name: str, description: str, asked: commands.Command) -> None:
        """A command that is always the same question, asked in its channel."""
        async def command(interaction: discord.Interaction) -> None:
            await app.answer(interaction, app.ask(interaction, asked))

        command.__name__ = name
        tree.command(name=name, description=description)(app_commands.guild_only(command))

    simple("join", "Take a seat at this channel's table", commands.Join())
    simple("leave", "Leave this channel's table (a bot plays your seat in a game)",
           commands.Leave())
    simple("start", "Start the game (host or channel admin)", commands.Start())
    simple("addbot", "Add a bot player to the lobby (host or channel admin)", commands.AddBot())
    simple("removebot", "Remove a bot player from the lobby (host or channel admin)",
           commands.RemoveBot())
    simple("cancel", "Cancel this channel's table (host or channel admin)", commands.Cancel())

    async def cannot_post(interaction: discord.Interaction) -> Reply:
        actor = actor_of(interaction)  # in their Discord's language
        lang = await tables.lang_of(actor.user_id, channel_of(interaction))
        return Reply(t(lang, "discord.cannot_post"), ok=False)

    @tree.command(name="table", description="Post the table again at the bottom of the channel")
    @app_commands.guild_only()
    async def table(interaction: discord.Interaction) -> None:
        if not can_post(interaction):
            await app.answer(interaction, cannot_post(interaction))
            return
        await app.answer(interaction, app.ask(interaction, commands.Show()))

    simple("scores", "The scores of the game in this channel", commands.Scores())

    @tree.command(name="newgame", description="Open a table for a game in this channel")
    @app_commands.describe(game=locale_str("The game to play"),
                           options=locale_str("Options, e.g. rounds=3 ox=yes deadline=off"))
    @app_commands.rename(game=locale_str("game"), options=locale_str("options"))
    @app_commands.choices(game=game_choices)
    @app_commands.guild_only()
    async def newgame(interaction: discord.Interaction, game: app_commands.Choice[str],
                      options: str | None = None) -> None:
        if not can_post(interaction):
            await app.answer(interaction, cannot_post(interaction))
            return
        await app.answer(interaction, app.ask(interaction, commands.NewGame(
            game.value, (options or "").split(), _title(interaction),
            community_of(interaction))))

    @tree.command(name="play", description="Play a move, e.g. 7 7 J")
    @app_commands.describe(move=locale_str("Your move in the game's notation"))
    @app_commands.rename(move=locale_str("move"))
    @app_commands.guild_only()
    async def play(interaction: discord.Interaction, move: str) -> None:
        await app.answer(interaction, app.ask(interaction, commands.Play(move)))

    @play.autocomplete("move")
    async def play_suggestions(interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        # Suggestions only: whatever is sent, the table judges it (`commands.Play`).
        found = await queries.move_texts(tables, str(interaction.user.id),
                                        channel_of(interaction), current)
        return [app_commands.Choice(name=text, value=text) for text in found]

    @tree.command(name="pass", description="Pass your turn")
    @app_commands.guild_only()
    async def pass_(interaction: discord.Interaction) -> None:
        await app.answer(interaction, app.ask(interaction, commands.Play("pass")))

    @tree.command(name="hand", description="See your hand (only you can see it)")
    @app_commands.guild_only()
    async def hand(interaction: discord.Interaction) -> None:
        actor, channel = actor_of(interaction), channel_of(interaction)
        row = await app.in_time(interaction, tables.table_for_channel(channel))
        if row is None or row.status != PLAYING:
            await app.answer(interaction, commands.run(tables, actor, channel, commands.Hand()))
            return
        payload = encode_payload(await tables.ref(row.id), row.version, "hand")
        await app.show_hand(interaction, actor, press_of(interaction, payload))

    @tree.command(name="kick", description="Remove a player from the table (host or admin)")
    @app_commands.describe(member=locale_str("The player to remove"))
    @app_commands.rename(member=locale_str("member"))
    @app_commands.guild_only()
    async def kick(interaction: discord.Interaction, member: discord.Member) -> None:
        await app.answer(interaction, app.ask(interaction, commands.Kick(str(member.id))))

    @tree.command(name="options", description="See or change the table's options before it "
                                              "starts (host or admin)")
    @app_commands.describe(
        options=locale_str("e.g. rounds=3 ox=yes deadline=off; empty to see them"))
    @app_commands.rename(options=locale_str("options"))
    @app_commands.guild_only()
    async def options(interaction: discord.Interaction, options: str | None = None) -> None:
        await app.answer(interaction, app.ask(interaction,
                                              commands.Options((options or "").split())))

    @tree.command(name="stats", description="Your results in finished games")
    async def stats(interaction: discord.Interaction) -> None:
        await app.answer(interaction, app.ask(interaction, commands.Stats()))

    # Anywhere: in a DM, which belongs to no server, they are refused in words.
    rated_choices = [choice for choice in game_choices
                     if choice.value in ratings.RATED_GAMES + ratings.TEAM_GAMES]

    @tree.command(name="leaderboard", description="This server's best players, game by game")
    @app_commands.describe(game=locale_str("Which game (default: every rated game)"),
                           season=locale_str("A season, e.g. 2026-Q4 (default: the current "
                                             "one)"))
    @app_commands.rename(game=locale_str("game"), season=locale_str("season"))
    @app_commands.choices(game=rated_choices)
    async def leaderboard(interaction: discord.Interaction,
                          game: app_commands.Choice[str] | None = None,
                          season: app_commands.Range[str, 1, 20] | None = None) -> None:
        words = [word for word in (game.value if game else None, season) if word]
        await app.answer(interaction, app.ask(interaction, commands.Leaderboard(
            community_of(interaction), words)))

    @tree.command(name="rating", description="A player's ratings in this server")
    @app_commands.describe(player=locale_str("Whose ratings (default: yours)"))
    @app_commands.rename(player=locale_str("player"))
    async def rating(interaction: discord.Interaction,
                     player: discord.User | None = None) -> None:
        # The user option is Discord's own: a user id nobody typed.
        named = player or interaction.user
        await app.answer(interaction, app.ask(interaction, commands.Rating(
            community_of(interaction), str(named.id), named.display_name)))

    @tree.command(name="rules", description="The rules of a game")
    @app_commands.describe(game=locale_str("Which game (default: the one played here)"))
    @app_commands.rename(game=locale_str("game"))
    @app_commands.choices(game=game_choices)
    async def rules(interaction: discord.Interaction,
                    game: app_commands.Choice[str] | None = None) -> None:
        async def text() -> str:
            chosen = game.value if game else ""
            if not chosen:
                row = await tables.table_for_channel(channel_of(interaction))
                chosen = row.game if row else ""
            return present.rules_text(chosen, await app._lang(interaction))

        await app.answer(interaction, text())

    @tree.command(name="lang", description="The language I use with you, or in this channel")
    @app_commands.describe(language=locale_str("Language"),
                           where=locale_str("Just for you (default) or the channel"))
    @app_commands.rename(language=locale_str("language"), where=locale_str("where"))
    @app_commands.choices(language=lang_choices, where=[
        app_commands.Choice(name=locale_str("me"), value="me"),
        app_commands.Choice(name=locale_str("channel"), value="channel")])
    async def lang(interaction: discord.Interaction, language: app_commands.Choice[str],
                   where: app_commands.Choice[str] | None = None) -> None:
        personal = where is None or where.value != "channel"
        await app.answer(interaction, app.ask(interaction, commands.Lang(language.value,
                                                                         personal)))

    # Anywhere, DMs included: answers are ephemeral, seen by the person alone.
    @tree.command(name="mydata", description="Get what I store about you, as a file")
    async def mydata(interaction: discord.Interaction) -> None:
        await app.mydata(interaction)

    @tree.command(name="forgetme", description="Delete what I store about you")
    async def forgetme(interaction: discord.Interaction) -> None:
        await app.forgetme(interaction)

    @tree.command(name="help", description="What I can do")
    async def help_(interaction: discord.Interaction) -> None:
        async def text() -> str:
            return present.help_text(await app._lang(interaction))

        await app.answer(interaction, text())


async def run_discord(repo: Repository, settings: Settings, *,
                      health: Health | None = None, web: WebServer | None = None) -> None:
    """Serve Discord until cancelled (`python -m bot` with DISCORD_TOKEN set). `web`: the
    table's page (WEB_URL), which serves this bot's tables too."""
    if not settings.discord_token:
        raise ValueError("DISCORD_TOKEN is not set")
    if settings.discord_api_url:
        discord.http.Route.BASE = settings.discord_api_url.rstrip("/")
    client = (ShardedTapisDiscord(repo, settings, shard_count=settings.discord_shard_count,
                                  shard_ids=settings.discord_shard_ids)
              if settings.discord_shard_count is not None else TapisDiscord(repo, settings))
    if health is not None:
        health.watch("discord", client.connection_problem)
    if web is not None:
        offer_page(client, web)
    try:
        await client.login(settings.discord_token)
    except (discord.LoginFailure, discord.HTTPException, aiohttp.ClientError, OSError) as exc:
        await client.close()
        raise StartupError(startup_problem(exc, settings)) from exc
    if settings.discord_api_url or settings.discord_shard_count is not None:
        try:
            await _find_gateway(client, settings)
        except BaseException:
            await client.close()
            raise
    try:
        await client.connect()
    finally:
        await client.close()


def offer_page(client: TapisDiscord, web: WebServer) -> None:
    """Serve the client's tables on the web page too, and put its links on their messages:
    the public "Watch" on the table message, each player's own signed link on their hand."""
    settings = client.settings
    web.add("discord", client.tables)

    def private(user_id: str, table_id: int, ref: str) -> str | None:
        name = queries.seat_name(client.tables, table_id, user_id)
        person = Person("discord", user_id, name if name is not None else user_id)
        return web_links.private_link(settings, web.signer, person, table_id, ref)

    client.sink.watch_link = lambda ref: web_links.table_url(settings, ref)
    client.sink.private_link = private


class ShardedTapisDiscord(TapisDiscord, discord.AutoShardedClient):
    """The same bot on some of the bot's shards (DISCORD_SHARD_COUNT, DISCORD_SHARD_IDS):
    one gateway connection per shard, each carrying the events of its guilds only. REST
    calls (edits, DMs, answers) work from any process whatever the shard."""


async def _find_gateway(client: discord.Client, settings: Settings) -> None:
    """The gateway address Discord gives (GET /gateway/bot), and whether the shards may
    start: a server of one's own (DISCORD_API_URL) has its gateway elsewhere than
    discord.py's default, and sharded processes must fit in the day's session starts."""
    try:
        recommended, url, limits = await client.http.get_bot_gateway()
    except (discord.GatewayNotFound, discord.HTTPException, aiohttp.ClientError,
            OSError) as exc:
        raise StartupError(f"Discord gave no gateway address ({exc})") from exc
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    count = settings.discord_shard_count
    if count is None:
        return
    starting = len(settings.discord_shard_ids or range(count))
    if limits["remaining"] < starting:
        raise StartupError(
            f"Discord allows {limits['remaining']} more gateway session starts for "
            f"{limits['reset_after'] / 1000:.0f} s; this process needs {starting}")
    if count < recommended:
        log.warning("DISCORD_SHARD_COUNT is %d; Discord recommends %d shards for this bot",
                    count, recommended)


def startup_problem(exc: BaseException, settings: Settings) -> str:
    """The one line an operator needs when Discord cannot be reached or refuses the token."""
    server = urlparse(discord.http.Route.BASE).netloc.rpartition("@")[2]  # not credentials
    if isinstance(exc, discord.LoginFailure):
        return (f"DISCORD_TOKEN was rejected by Discord ({server}): copy the bot token again "
                "from the Developer Portal")
    if isinstance(exc, discord.HTTPException):
        return f"Discord ({server}) refused the bot's login: {exc.status} {exc.text}"
    causes = (exc, exc.__cause__, getattr(exc, "os_error", None))
    if isinstance(exc, aiohttp.ClientConnectorDNSError) \
            or any(isinstance(cause, socket.gaierror) for cause in causes):
        return (f"cannot reach Discord: the name {server.rsplit(':', 1)[0]} does not resolve "
                "(DNS failure or no network)")
    return f"cannot reach Discord at {server} ({exc}): is the network up?"


def _forgotten(error: BaseException | None) -> bool:
    """Discord's "Unknown interaction" (10062): its 3 seconds to answer had passed."""
    return isinstance(error, discord.NotFound) and error.code == 10062
