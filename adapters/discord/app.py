"""Tapis on Discord: slash commands and buttons in, `Tables` calls out.

Every rule, check and sentence comes from `bot.tables` (already in the user's language);
this module only turns Discord interactions into `Actor`s and channel keys, and answers
each interaction in time: Discord drops an interaction not answered within 3 seconds,
so slow work is deferred and finished with a followup. Answers are ephemeral: the
public state of a table is its one message, edited in place by the outbox.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping

import discord
from discord import app_commands
from discord.app_commands import locale_str

from adapters.discord.commands_i18n import CatalogueTranslator
from adapters.discord.sink import DiscordSink, content_of, fingerprint, fit, view_of
from bot import present
from bot.clock import Clock, RealClock
from bot.i18n import LANGS, t
from bot.render import decode_payload, encode_payload
from bot.settings import Settings
from bot.tables import Actor, Reply, Tables
from db.repository import PLAYING, MessageRef, Repository
from engine import games

log = logging.getLogger(__name__)

# Leave a second of the 3 for the network: past this the answer is deferred.
ANSWER_WITHIN = 2.0
LANG_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}


def _data_of(interaction: discord.Interaction) -> Mapping[str, object]:
    """discord.py types `data` as a union of every kind of interaction's payload, which
    only agree on being str-keyed; a button's `custom_id` is read from that."""
    return interaction.data or {}


def actor_of(interaction: discord.Interaction) -> Actor:
    """Host/admin-only commands also accept whoever may manage messages in the channel."""
    user = interaction.user
    admin = interaction.guild_id is not None and interaction.permissions.manage_messages
    tables = getattr(interaction.client, "tables", None)
    if tables is not None:  # private answers and hands follow the user's Discord language
        tables.remember_locale(str(user.id), str(interaction.locale))
    return Actor(str(user.id), user.display_name, is_admin=admin)


def channel_of(interaction: discord.Interaction) -> str:
    # A thread's id is its own channel id: a thread hosts its own table.
    return str(interaction.channel_id)


class TapisDiscord(discord.Client):
    def __init__(self, repo: Repository, settings: Settings, *, clock: Clock | None = None,
                 seeds: Callable[[], int] | None = None, **options: object) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread deletions; nothing else is read
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                         **options)  # type: ignore[arg-type]
        self.settings = settings
        self.clock = clock or RealClock()
        self.sink = DiscordSink(self, self.clock)
        self.tables = Tables(repo, self.sink, platform="discord", settings=settings,
                             clock=self.clock, seeds=seeds)
        self.sink.lang_of = self.tables.lang_of
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        _add_commands(self)
        self._tables_closed = False

    # --- life cycle -----------------------------------------------------------------------

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        await self.tables.start()
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Guild commands appear at once (development); global ones take up to an hour."""
        if self.settings.discord_guild_ids:
            for guild_id in self.settings.discord_guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

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
        await self.tables.channel_closed(str(channel.id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.tables.channel_closed(str(payload.thread_id))

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        """Rights given back in a channel: a table closed for losing it carries on."""
        if after.permissions_for(after.guild.me).send_messages:
            await self.tables.channel_back(str(after.id))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot added back to a server: the tables it lost there carry on."""
        channels: list[discord.TextChannel | discord.Thread] = [*guild.text_channels,
                                                                *guild.threads]
        for channel in channels:
            if channel.permissions_for(guild.me).send_messages:  # else it would close again
                await self.tables.channel_back(str(channel.id))

    # --- answering ------------------------------------------------------------------------

    async def answer(self, interaction: discord.Interaction,
                     work: Awaitable[Reply | str]) -> None:
        """An ephemeral answer, deferred first if the work outlasts Discord's 3 seconds."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done:
            await interaction.response.defer(ephemeral=True, thinking=True)
        result = await task
        text = fit((result.text if isinstance(result, Reply) else result) or "…")
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _lang(self, interaction: discord.Interaction) -> str:
        return await self.tables.lang_of(str(interaction.user.id), channel_of(interaction))

    async def _oops(self, interaction: discord.Interaction, key: str = "discord.oops") -> None:
        """Whatever failed, the user reads one plain sentence, never a traceback."""
        if interaction.type is discord.InteractionType.autocomplete:
            return
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

    async def _on_tree_error(self, interaction: discord.Interaction,
                             error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            await self._oops(interaction, "discord.guild_only")
            return
        name = interaction.command.name if interaction.command else "?"
        log.error("/%s failed", name, exc_info=error)
        await self._oops(interaction)

    # --- buttons --------------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return  # commands and autocomplete go through the tree
        try:
            await self._press(interaction)
        except Exception:
            log.exception("button press %r failed", _data_of(interaction).get("custom_id"))
            await self._oops(interaction)

    async def _press(self, interaction: discord.Interaction) -> None:
        payload = str(_data_of(interaction).get("custom_id", ""))
        actor = actor_of(interaction)
        decoded = decode_payload(payload)
        action = decoded[2] if decoded else ""
        if decoded and action == "hand":
            await self.show_hand(interaction, actor, decoded[0], payload)
        elif decoded and action.startswith("m:"):
            await self._move(interaction, actor, decoded[0], payload)
        else:
            # Lobby and table buttons, rematch, and anything forged: the core judges.
            await self.answer(interaction, self.tables.press(actor, payload))

    async def _move(self, interaction: discord.Interaction, actor: Actor, table_id: int,
                    payload: str) -> None:
        message = interaction.message
        ephemeral = message is not None and message.flags.ephemeral
        if not ephemeral and message is not None:
            await self._move_from_dm(interaction, message, actor, table_id, payload)
            return
        # Acknowledge at once ("deferred update"): what changes is the hand message itself,
        # which the outbox edits.
        await interaction.response.defer()
        if ephemeral and message is not None:
            # This press's token is fresh for 15 minutes: the hand is edited through it.
            self.sink.adopt(table_id, actor.user_id, self.sink.ephemeral_ref(
                interaction.channel_id or 0, message.id, interaction.token))
        reply = await self.tables.press(actor, payload)
        if reply.ok:
            return
        if ephemeral:
            # The view may be older than the table (e.g. its token had expired): redraw it.
            await self.tables.press(actor, encode_payload(table_id, 0, "hand"))
        await interaction.followup.send(fit(reply.text), ephemeral=True)

    async def _move_from_dm(self, interaction: discord.Interaction, message: discord.Message,
                            actor: Actor, table_id: int, payload: str) -> None:
        """Answer a hand press with the updated hand itself: one request, not two.

        The interaction response edits the message the button was on (UPDATE_MESSAGE), so
        the acknowledgement and the hand's edit are one call; the outbox's own edit of the
        same hand then finds the message already showing it and is skipped.
        """
        with self.sink.answering(str(message.channel.id), str(message.id)):
            work = asyncio.ensure_future(self.tables.press(actor, payload))
            done, _ = await asyncio.wait({work}, timeout=ANSWER_WITHIN)
            if not done:
                await interaction.response.defer()
            reply = await work
            if not reply.ok:
                if not interaction.response.is_done():
                    await interaction.response.defer()
                await interaction.followup.send(fit(reply.text), ephemeral=True)
                return
            if interaction.response.is_done():
                return  # deferred: the outbox edits the hand as usual
            rendering = await self.tables.hand_rendering_for_table(actor, table_id)
            if rendering is None:
                await interaction.response.defer()
                return
            content = content_of(rendering)
            view = view_of(table_id, rendering.version, rendering.buttons)
            await interaction.response.edit_message(
                content=content, view=view, allowed_mentions=discord.AllowedMentions.none())
            self.sink.showing(str(message.channel.id), str(message.id), content, view)

    async def show_hand(self, interaction: discord.Interaction, actor: Actor, table_id: int,
                        payload: str) -> None:
        """"My hand" and /hand: in DMs when they work, else here, ephemeral, with buttons."""
        # Loading a table (first touch after a restart replays its log) may be slow:
        # past two seconds the answer is deferred, so Discord's 3 s window is never missed.
        loading = asyncio.ensure_future(self.tables.live_table(table_id))
        done, _ = await asyncio.wait({loading}, timeout=ANSWER_WITHIN)
        if not done:
            await interaction.response.defer(ephemeral=True, thinking=True)
        live = await loading
        seat = None
        if live is not None and live.row.status == PLAYING and live.row.platform == "discord":
            seat = live.seat_of(actor.user_id)
        if live is None or seat is None:
            await self.answer(interaction, self.tables.press(actor, payload))
            return
        stored = await self._hand_ref(table_id, seat.seat, actor.user_id)
        private = (self.sink.dms_closed(actor.user_id) or stored is None
                   or stored.extra.get("via") == "ephemeral")
        rendering = await self.tables.hand_rendering_for_table(actor, table_id)
        if not private or rendering is None:
            await self.answer(interaction, self._hand_in_dm(actor, payload, live.row.channel))
            return
        content = content_of(rendering)
        view = view_of(table_id, rendering.version, rendering.buttons)
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
        self.sink.adopt(table_id, actor.user_id, self.sink.ephemeral_ref(
            interaction.channel_id or 0, message_id, interaction.token),
            fingerprint(content, view))
        if not (stored is not None and stored.extra.get("told")):
            lang = await self.tables.lang_of(actor.user_id, live.row.channel)
            await interaction.followup.send(t(lang, "discord.hand_here"), ephemeral=True)
        # Through the core, so that this message is stored as the seat's hand display.
        await self.tables.press(actor, payload)

    async def _hand_in_dm(self, actor: Actor, payload: str, channel: str) -> Reply:
        reply = await self.tables.press(actor, payload)
        if reply.ok:
            lang = await self.tables.lang_of(actor.user_id, channel)
            reply.text = f"{reply.text}\n\n{t(lang, 'discord.hand_in_dm')}"
        return reply

    async def _hand_ref(self, table_id: int, seat: int, user_id: str) -> MessageRef | None:
        key = f"hand:{seat}"
        ref = self.tables.outbox.ref(table_id, key)
        if ref is None:
            ref = (await self.tables.repo.messages(table_id)).get(key)
        if ref is not None and ref.extra.get("user") not in (None, user_id):
            return None  # the seat changed hands: that message was somebody else's
        return ref


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

    def simple(name: str, description: str, method: str) -> None:
        """A command that is one `Tables` call on (actor, channel)."""
        async def command(interaction: discord.Interaction) -> None:
            call: Callable[[Actor, str], Awaitable[Reply]] = getattr(app.tables, method)
            await app.answer(interaction, call(actor_of(interaction), channel_of(interaction)))

        command.__name__ = name
        tree.command(name=name, description=description)(app_commands.guild_only(command))

    simple("join", "Take a seat at this channel's table", "join")
    simple("leave", "Leave this channel's table (a bot plays your seat in a game)", "leave")
    simple("start", "Start the game (host or channel admin)", "start_game")
    simple("addbot", "Add a bot player to the lobby (host or channel admin)", "add_bot")
    simple("removebot", "Remove a bot player from the lobby (host or channel admin)",
           "remove_bot")
    simple("cancel", "Cancel this channel's table (host or channel admin)", "cancel")
    simple("table", "Post the table again at the bottom of the channel", "show")
    simple("scores", "The scores of the game in this channel", "scores")

    @tree.command(name="newgame", description="Open a table for a game in this channel")
    @app_commands.describe(game=locale_str("The game to play"),
                           options=locale_str("Options, e.g. rounds=3 ox=yes deadline=off"))
    @app_commands.rename(game=locale_str("game"), options=locale_str("options"))
    @app_commands.choices(game=game_choices)
    @app_commands.guild_only()
    async def newgame(interaction: discord.Interaction, game: app_commands.Choice[str],
                      options: str | None = None) -> None:
        await app.answer(interaction, tables.new_game(
            actor_of(interaction), channel_of(interaction), game.value,
            (options or "").split(), title=_title(interaction)))

    @tree.command(name="play", description="Play a move, e.g. 7 7 J")
    @app_commands.describe(move=locale_str("Your move in the game's notation"))
    @app_commands.rename(move=locale_str("move"))
    @app_commands.guild_only()
    async def play(interaction: discord.Interaction, move: str) -> None:
        await app.answer(interaction, tables.play(actor_of(interaction),
                                                  channel_of(interaction), move))

    @play.autocomplete("move")
    async def play_suggestions(interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        # Suggestions only: whatever is sent, `tables.play` judges it.
        row = await tables.table_for_channel(channel_of(interaction))
        if row is None or row.status != PLAYING:
            return []
        live = await tables.live_table(row.id)
        seat = live.seat_of(str(interaction.user.id)) if live else None
        if live is None or seat is None or live.state is None:
            return []
        if seat.seat not in live.game.to_act(live.state):
            return []
        wanted = current.strip().lower()
        found: list[str] = []
        for move in live.game.legal_moves(live.state, seat.seat):
            text = str(move)
            if wanted in text.lower() and text not in found and len(text) <= 100:
                found.append(text)
                if len(found) == 25:
                    break
        return [app_commands.Choice(name=text, value=text) for text in found]

    @tree.command(name="pass", description="Pass your turn")
    @app_commands.guild_only()
    async def pass_(interaction: discord.Interaction) -> None:
        await app.answer(interaction, tables.play(actor_of(interaction),
                                                  channel_of(interaction), "pass"))

    @tree.command(name="hand", description="See your hand (only you can see it)")
    @app_commands.guild_only()
    async def hand(interaction: discord.Interaction) -> None:
        actor, channel = actor_of(interaction), channel_of(interaction)
        row = await tables.table_for_channel(channel)
        if row is None or row.status != PLAYING:
            await app.answer(interaction, tables.hand(actor, channel))
            return
        await app.show_hand(interaction, actor, row.id,
                            encode_payload(row.id, row.version, "hand"))

    @tree.command(name="kick", description="Remove a player from the table (host or admin)")
    @app_commands.describe(member=locale_str("The player to remove"))
    @app_commands.rename(member=locale_str("member"))
    @app_commands.guild_only()
    async def kick(interaction: discord.Interaction, member: discord.Member) -> None:
        await app.answer(interaction, tables.kick(actor_of(interaction),
                                                  channel_of(interaction), str(member.id)))

    @tree.command(name="options", description="See or change the table's options before it "
                                              "starts (host or admin)")
    @app_commands.describe(
        options=locale_str("e.g. rounds=3 ox=yes deadline=off; empty to see them"))
    @app_commands.rename(options=locale_str("options"))
    @app_commands.guild_only()
    async def options(interaction: discord.Interaction, options: str | None = None) -> None:
        await app.answer(interaction, tables.set_options(
            actor_of(interaction), channel_of(interaction), (options or "").split()))

    @tree.command(name="stats", description="Your results in finished games")
    async def stats(interaction: discord.Interaction) -> None:
        await app.answer(interaction, tables.stats(actor_of(interaction),
                                                   channel_of(interaction)))

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
        await app.answer(interaction, tables.set_lang(
            actor_of(interaction), channel_of(interaction), language.value, personal=personal))

    @tree.command(name="help", description="What I can do")
    async def help_(interaction: discord.Interaction) -> None:
        async def text() -> str:
            return present.help_text(await app._lang(interaction))

        await app.answer(interaction, text())


async def run_discord(repo: Repository, settings: Settings) -> None:
    """Serve Discord until cancelled (`python -m bot` with DISCORD_TOKEN set)."""
    if not settings.discord_token:
        raise ValueError("DISCORD_TOKEN is not set")
    client = TapisDiscord(repo, settings)
    try:
        await client.start(settings.discord_token)
    finally:
        await client.close()
