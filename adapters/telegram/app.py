"""The Telegram bot: commands and button presses become `Tables` calls.

Groups play; private chats carry each player's hand. A group topic of a forum is a table
of its own (channel key "<chat_id>:<thread_id>"). Every sentence a user reads comes from
the core, already translated, except the few English-only ones marked below.

Run by `python -m bot` through `run_telegram(repo, settings)`; tests drive `TelegramBot`
directly against tests/fakes/telegram_api.py.
"""

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Coroutine
from html import escape
from typing import Any
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    CallbackQuery,
    InputFile,
    MaybeInaccessibleMessage,
    Message,
    Update,
    User,
)
from telegram.constants import ChatAction, ChatMemberStatus, ChatType, MessageEntityType
from telegram.error import BadRequest, Forbidden, InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from adapters.telegram.format import MAX_ANSWER, Place, clip, deep_link, fit_text, keyboard
from adapters.telegram.limits import ChatPacer
from adapters.telegram.metered import MeteredRequest
from adapters.telegram.sink import NO_PREVIEW, TelegramSink
from adapters.telegram.usernames import Usernames
from adapters.web import chat as web_links
from adapters.web.auth import Person
from adapters.web.server import WebServer
from bot import changes, commands, events, logs, present, queries, ratings
from bot.authority import Press, RightsUnknown
from bot.clock import Clock
from bot.i18n import LANGS, t
from bot.monitor import Health
from bot.privacy import PRIVACY_REF
from bot.settings import Settings, StartupError
from bot.tables import Actor, Reply, Tables
from db.repository import Repository, StorageError

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
ADMIN_TTL = 60.0  # seconds an admin check is trusted; promotions are rare, checks cost a call
JOIN_PREFIX = "j"  # deep-link payload "j<table reference>": seat me at that table

# Command menus: (command, catalogue key of its description), per chat kind.
GROUP_COMMANDS = [(c, f"cmd.{c}") for c in (
    "newgame", "join", "leave", "addbot", "removebot", "start", "play", "pass", "hand",
    "table", "rules", "scores", "stats", "leaderboard", "rating", "cancel", "kick", "lang",
    "mentions", "options", "help")]
# /leaderboard and /rating are in the private menu only to be refused there in their own
# words (a private chat has no community), not with the tables' "play in a group".
PRIVATE_COMMANDS = [("start", "cmd.start_private")] + [
    (c, f"cmd.{c}") for c in ("help", "rules", "stats", "leaderboard", "rating", "lang",
                              "mentions", "mydata", "forgetme")]
# Commands that act on the chat's table: in a private chat there is none to act on, and a
# lobby opened there could never start (its Start button and /start are a private chat's
# hand and deep link), so they are refused there in words.
GROUP_ONLY = frozenset(c for c, _ in GROUP_COMMANDS) - {c for c, _ in PRIVATE_COMMANDS}

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


class SentAsChat(Exception):
    """A command sent on behalf of a chat (one of the sender's channels, or the group by an
    anonymous admin): Telegram then names a placeholder user, the same for everyone who
    writes so, so it may not act as a person (take a seat, host, play)."""


def place_of(message: Message) -> Place:
    """Topic messages of a forum carry their thread; a reply thread elsewhere is no table."""
    thread = message.message_thread_id if message.is_topic_message else None
    return Place(message.chat_id, thread)


def actor_name(user: User) -> str:
    return clip(user.full_name or user.username or str(user.id), 64)


def build_application(settings: Settings, *, rate_limiter: BaseRateLimiter | None = None,
                      requests: tuple[MeteredRequest, MeteredRequest] | None = None
                      ) -> Application:
    """`requests`: the (calls, long poll) HTTP clients, kept by the caller that wants to
    know whether the last call failed."""
    if not settings.telegram_token:
        raise ValueError("TELEGRAM_TOKEN is not set")
    # The builder's own pool sizes (256, and 1 for the long poll), counted for /metrics.
    calls, polls = requests or (MeteredRequest(connection_pool_size=256),
                                MeteredRequest(connection_pool_size=1))
    builder = (ApplicationBuilder().token(settings.telegram_token)
               .rate_limiter(rate_limiter or ChatPacer(
                   overall_per_second=settings.telegram_messages_per_second))
               .concurrent_updates(True)
               .request(calls).get_updates_request(polls))
    if settings.telegram_api_url:
        # A self-hosted Bot API server: calls go to {server}/bot<token>/<method>. The setting
        # is documented as http://host:port/bot; the bare server address works too.
        base = settings.telegram_api_url.rstrip("/").removesuffix("/bot")
        builder = builder.base_url(f"{base}/bot").base_file_url(f"{base}/file/bot")
    return builder.build()


# Seconds a stopping process lets the updates under way finish.
STOP_WITHIN = 3.0


class TelegramBot:
    def __init__(self, repo: Repository, settings: Settings, *, clock: Clock | None = None,
                 seeds: Callable[[], int] | None = None,
                 rate_limiter: BaseRateLimiter | None = None, listen: str = "0.0.0.0",
                 poll_timeout: float = 10.0) -> None:
        self.settings = settings
        self.listen = listen
        self.poll_timeout = poll_timeout
        self._requests = (MeteredRequest(connection_pool_size=256),
                          MeteredRequest(connection_pool_size=1))
        self.app = build_application(settings, rate_limiter=rate_limiter,
                                     requests=self._requests)
        self._reachable: set[int] = set()  # users the bot may write to privately
        self._usernames = Usernames()  # for `/rating @username`
        self._handling: set[asyncio.Task[Any]] = set()  # updates being handled now
        self._admins: dict[tuple[int, int], tuple[bool, float]] = {}
        # Forum topics seen closed ("<chat>:<thread>"), from Telegram's service messages:
        # Telegram has no call that tells whether a topic is closed.
        self._closed_topics: set[str] = set()
        pacer = self.app.bot.rate_limiter
        self.sink = TelegramSink(
            self.app.bot, on_reachable=self._reachable.add,
            on_unreachable=self._reachable.discard,
            pacer=pacer if isinstance(pacer, ChatPacer) else None,
            table_url=lambda ref: web_links.table_url(settings, ref),
            miniapp_link=lambda bot, ref: web_links.miniapp_link(settings, bot, ref))
        self.tables = Tables(repo, self.sink, platform=PLATFORM, settings=settings,
                             clock=clock, seeds=seeds)
        self.sink.tables = self.tables
        self._register()

    # --- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        await self.app.initialize()  # getMe: the username `/cmd@bot` is matched against
        if self.settings.register_commands:
            await self._set_commands()
        await self.tables.start()
        await self.app.start()
        assert self.app.updater is not None
        if not self.settings.telegram_receive:
            log.info("TELEGRAM_RECEIVE is off: this process drives tables, takes no updates")
        elif self.settings.telegram_webhook_url:
            url = self.settings.telegram_webhook_url
            if not self.settings.telegram_webhook_secret:
                log.warning("TELEGRAM_WEBHOOK_SECRET is not set: anyone can post updates")
            await self.app.updater.start_webhook(
                listen=self.listen, port=self.settings.telegram_webhook_port,
                url_path=urlparse(url).path.lstrip("/"), webhook_url=url,
                secret_token=self.settings.telegram_webhook_secret,
                allowed_updates=ALLOWED_UPDATES)
        else:
            await self.app.updater.start_polling(
                poll_interval=0.0, timeout=int(self.poll_timeout),
                allowed_updates=ALLOWED_UPDATES)

    async def stop(self) -> None:
        """Stop taking updates, deliver what is queued, then close the HTTP client."""
        updater = self.app.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.app.running:
            # The updates being handled end first, for STOP_WITHIN seconds at most: an
            # answer waiting out a flood limit (a minute, at times) must not hold a SIGTERM.
            stopping = asyncio.ensure_future(self.app.stop())
            if not (await asyncio.wait({stopping}, timeout=STOP_WITHIN))[0]:
                log.warning("stopping: %d updates still being handled are ended",
                            len(self._handling))
                for task in list(self._handling):
                    task.cancel()
            await stopping
        await self.tables.close()
        await self.app.shutdown()

    def connection_problem(self) -> str | None:
        """For /healthz: None while updates come in and the Bot API answers."""
        updater = self.app.updater
        if not self.app.running or updater is None or (
                self.settings.telegram_receive and not updater.running):
            return "not connected"
        calls, polls = self._requests
        return polls.failing or calls.failing

    async def _set_commands(self) -> None:
        bot = self.app.bot
        try:
            # The default menu in the bot's default language, and one per catalogue language
            # for users whose Telegram speaks it.
            for lang in (None, *LANGS):
                text = lang or self.settings.default_lang
                for commands, scope in ((GROUP_COMMANDS, BotCommandScopeAllGroupChats()),
                                        (PRIVATE_COMMANDS, BotCommandScopeAllPrivateChats())):
                    await bot.set_my_commands([BotCommand(c, t(text, k)) for c, k in commands],
                                              scope=scope, language_code=lang)
        except TelegramError:
            log.exception("setMyCommands failed; commands still work when typed")

    def _register(self) -> None:
        commands: dict[str, Handler] = {
            "newgame": self._newgame, "join": self._join_command, "leave": self._leave,
            "addbot": self._addbot, "removebot": self._removebot,
            "start": self._start, "play": self._play,
            "pass": self._pass, "hand": self._hand, "table": self._table,
            "rules": self._rules, "scores": self._scores, "stats": self._stats,
            "cancel": self._cancel, "kick": self._kick, "lang": self._lang, "help": self._help,
            "mentions": self._mentions, "options": self._options,
            "mydata": self._mydata, "forgetme": self._forgetme,
            "leaderboard": self._leaderboard, "rating": self._rating,
        }
        # First of every update, in the task that handles it: what it stores is recorded.
        self.app.add_handler(TypeHandler(Update, self._begin), group=-1)
        # Only new messages: an edited "/start" must not start a second game.
        only_new = filters.UpdateType.MESSAGE
        for name, handler in commands.items():
            if name in GROUP_ONLY:
                handler = self._in_groups(handler)
            self.app.add_handler(CommandHandler(name, handler, filters=only_new))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._migrated))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED,
                                            self._topic_closed))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_REOPENED,
                                            self._topic_reopened))
        self.app.add_handler(CallbackQueryHandler(self._press))
        self.app.add_handler(ChatMemberHandler(self._my_membership,
                                               ChatMemberHandler.MY_CHAT_MEMBER))
        self.app.add_error_handler(self._on_error)

    async def _begin(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        changes.track()
        if update.message is not None:
            self._usernames.saw(update.message)
        task = asyncio.current_task()
        if task is not None:
            self._handling.add(task)
            task.add_done_callback(self._handling.discard)

    # --- who is acting --------------------------------------------------------------------

    async def _actor(self, update: Update, *, admin: bool = False, person: bool = True
                     ) -> tuple[Actor, Place]:
        """Who acts, and where. `admin`: the command needs the chat's rights (an anonymous
        admin, writing as the group itself, has them). `person`: it acts as someone (takes a
        seat, hosts, plays, changes their settings), which a message sent on behalf of a
        chat cannot: raises `SentAsChat`, unless it is an anonymous admin's admin command."""
        message = update.effective_message
        user = update.effective_user
        assert message is not None and user is not None
        place = place_of(message)
        logs.bind(platform=PLATFORM, channel=place.key)
        sender_chat = message.sender_chat
        if person and sender_chat is not None and not (
                admin and sender_chat.id == message.chat_id):
            raise SentAsChat
        is_admin = False
        if message.chat.type == ChatType.PRIVATE:
            self._reachable.add(user.id)
            is_admin = True  # a private chat is its user's own channel
        elif admin:
            try:
                is_admin = await self._is_admin(message.chat_id, user.id, message)
            except RightsUnknown:
                # The host of the chat's table needs no rights to manage it: a Telegram
                # hiccup must not stop them. Anyone else is asked to try again.
                table = await self.tables.table_for_channel(place.key)
                if table is None or table.host != str(user.id):
                    raise
        await events.happened(self.tables, events.LocaleSeen(str(user.id), user.language_code))
        return Actor(str(user.id), actor_name(user), is_admin=is_admin), place

    async def _is_admin(self, chat_id: int, user_id: int, message: Message | None = None
                        ) -> bool:
        """Raises `RightsUnknown` when Telegram cannot say: a real admin is then told to
        try again, not treated as a stranger."""
        if message is not None and message.sender_chat is not None \
                and message.sender_chat.id == chat_id:
            return True  # an anonymous admin writes as the group itself
        cached = self._admins.get((chat_id, user_id))
        now = time.monotonic()
        if cached is not None and cached[1] > now:
            return cached[0]
        status = await self._status_in(chat_id, user_id)
        is_admin = status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
        self._admins[(chat_id, user_id)] = (is_admin, now + ADMIN_TTL)
        return is_admin

    async def _is_member(self, user_id: str, channel: str) -> bool:
        """Whether the user belongs to the chat of the table at `channel` (a deep link or
        a rematch seats only its members). Not cached: asked once per link or rematch."""
        status = await self._status_in(Place.parse(channel).chat_id, int(user_id))
        return status not in (None, ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)

    async def web_member(self, person: Person, table_id: int) -> bool:
        """Whether someone at the table's web page without a seat may watch it: Telegram
        lists them in the table's chat, as for an invitation link."""
        if person.platform != PLATFORM or not person.user_id.lstrip("-").isdecimal():
            return False
        channel = await queries.channel_of(self.tables, table_id)
        return channel is not None and await self._is_member(person.user_id, channel)

    async def _status_in(self, chat_id: int, user_id: int) -> str | None:
        """The user's status in the chat, as getChatMember says; None when Telegram says
        there is no such participant; `RightsUnknown` when it cannot say."""
        try:
            member = await self.app.bot.get_chat_member(chat_id, user_id)
        except BadRequest:
            return None  # "user not found", "PARTICIPANT_ID_INVALID": not in that chat
        except TelegramError as exc:
            log.warning("getChatMember %s/%s failed: %s", chat_id, user_id, exc)
            raise RightsUnknown from exc
        if member.status == ChatMemberStatus.RESTRICTED and not getattr(member, "is_member",
                                                                        True):
            return ChatMemberStatus.LEFT  # restricted but gone from the chat
        return member.status

    async def _may_post(self, place: Place) -> bool:
        """Whether the bot may send messages at `place`, as Telegram says before it tries:
        its own status in the group (a restricted bot's rights), else the group's rights
        for every member; in a topic seen closed, only an admin that manages topics.

        Asked before a table is opened or posted again there: a message the group refuses
        would leave a table nobody sees. When Telegram cannot say, the bot tries, as before.
        """
        if place.chat_id > 0:
            return True
        bot = self.app.bot
        try:
            member = await bot.get_chat_member(place.chat_id, bot.id)
            if member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
                return False
            admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
            if place.key in self._closed_topics:
                return member.status == ChatMemberStatus.OWNER or (
                    admin and bool(getattr(member, "can_manage_topics", False)))
            if admin:
                return True
            if member.status == ChatMemberStatus.RESTRICTED and not (
                    getattr(member, "is_member", True)
                    and getattr(member, "can_send_messages", True)):
                return False
            permissions = (await bot.get_chat(place.chat_id)).permissions
        except Forbidden:
            return False  # not in the group (any more)
        except TelegramError as error:
            log.warning("rights of the bot in %s unknown (%s); trying", place.key, error)
            return True
        return permissions is None or permissions.can_send_messages is not False

    async def _cannot_post(self, update: Update, actor: Actor) -> None:
        """Says why privately: Telegram lets the bot write nowhere else. To someone who never
        opened the bot it cannot write at all; then nothing is opened, and that is all."""
        message = update.effective_message
        assert message is not None
        lang = await self.tables.lang_of(actor.user_id)
        text = t(lang, "cannot_post_here", chat=message.chat.title or str(message.chat_id))
        if not await self._dm(int(actor.user_id), text):
            log.info("%s may not be written in, and %s cannot be told", place_of(message).key,
                     actor.user_id)

    async def _can_reach(self, user_id: int) -> bool:
        """Whether the bot may write to the user privately (they pressed Start, never
        blocked it). Asked once with an invisible chat action, then remembered.

        When Telegram gives no answer (network down, timeout, flood limit) the answer is
        unknown and not remembered; it counts as "no": the user then gets the deep link,
        which seats them whether or not their private chat was open, where seating them
        blind could leave a seat whose hand reaches nobody.
        """
        if user_id in self._reachable:
            return True
        try:
            await self.app.bot.send_chat_action(user_id, ChatAction.TYPING)
        except (Forbidden, BadRequest):
            return False
        except TelegramError as error:
            log.warning("reachability of %s unknown (%s); offering the deep link", user_id,
                        error)
            return False
        self._reachable.add(user_id)
        return True

    # --- answering ------------------------------------------------------------------------

    async def _dm(self, user_id: int, text: str) -> bool | None:
        """True once sent; False when Telegram refuses the private chat (never started,
        blocked); None when it could not be sent for another reason (flood limit past the
        limiter's retries, network), which says nothing about the private chat."""
        try:
            await self.app.bot.send_message(user_id, fit_text(text))
        except (Forbidden, BadRequest):
            self._reachable.discard(user_id)
            return False
        except TelegramError as error:
            log.warning("private message to %s not sent: %s", user_id, error)
            return None
        self._reachable.add(user_id)
        return True

    async def _confirm(self, send: Awaitable[object]) -> None:
        """Send the confirmation of a change that is already stored, or drop it.

        Past this point no answer may say "nothing changed": if Telegram refuses or cannot
        be reached, the confirmation is dropped (logged) instead of reaching the error
        handler, whose sentence says nothing changed. The table or hand message shows the
        change, and the outbox keeps trying to deliver those.
        """
        try:
            await send
        except TelegramError as error:
            log.warning("confirmation of a stored change dropped: %s", error)

    async def _in_chat(self, message: Message, text: str) -> None:
        await message.reply_text(fit_text(text), do_quote=message.chat.type != ChatType.PRIVATE)

    async def _run(self, actor: Actor, place: Place, command: commands.Command) -> Reply:
        return await commands.run(self.tables, actor, place.key, command)

    async def _answer(self, update: Update, reply: Reply | None, ok: str = "none") -> None:
        """Refusals go privately when possible, else as a reply in the group; successes
        where `ok` says: "chat" (the answer is for everyone), "private" or "none" (the
        table or hand message already shows what changed)."""
        message, user = update.effective_message, update.effective_user
        if reply is None or message is None or user is None:
            return
        private = message.chat.type == ChatType.PRIVATE
        if not reply.ok:
            if private or not await self._dm(user.id, reply.text):
                await self._in_chat(message, reply.text)
        elif ok == "chat" or (ok == "private" and private):
            await self._confirm(self._in_chat(message, reply.text))
        elif ok == "private":
            await self._dm(user.id, reply.text)

    # --- commands -------------------------------------------------------------------------

    async def _newgame(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        args = context.args or []
        message = update.effective_message
        assert message is not None
        title = message.chat.title or actor.name
        topic = message.reply_to_message.forum_topic_created if (
            place.thread_id is not None and message.reply_to_message) else None
        if topic is not None:
            title = f"{title} · {topic.name}"
        if not await self._may_post(place):
            await self._cannot_post(update, actor)
            return
        reply = await commands.run(self.tables, actor, place.key, commands.NewGame(
            args[0] if args else "", args[1:], title, self._community(message)))
        await self._answer(update, reply)
        if reply.ok and reply.table_id is not None and place.chat_id < 0 \
                and not await self._can_reach(int(actor.user_id)):
            # The host is seated already; the link only opens the chat their hand needs.
            await self._confirm(self._send_deep_link(message, actor, reply.table_id))

    async def _join_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        message = update.effective_message
        assert message is not None
        table = await self.tables.table_for_channel(place.key)
        if table is not None and place.chat_id < 0 \
                and not await self._can_reach(int(actor.user_id)):
            # Seated only once their hand can reach them: the deep link opens the private
            # chat and `/start j<table reference>` seats them.
            await self._send_deep_link(message, actor, table.id)
            return
        reply = await commands.run(self.tables, actor, place.key, commands.Join())
        if not reply.ok or place.chat_id > 0:
            await self._answer(update, reply, "chat")
        elif await self._dm(int(actor.user_id), reply.text) is False and table is not None:
            # The chat action got through but the message did not: seated, yet their hand
            # cannot reach them until they open the private chat. (Not sent for another
            # reason, e.g. a flood limit: dropped, the lobby message shows them seated.)
            await self._confirm(self._send_deep_link(message, actor, table.id))

    async def _send_deep_link(self, message: Message, actor: Actor, table_id: int) -> None:
        link = deep_link(self.app.bot.username, f"{JOIN_PREFIX}{await self.tables.ref(table_id)}")
        text = t(await self.tables.lang_of(actor.user_id, None), "needs_private_chat",
                 name=escape(actor.name), link=f'<a href="{escape(link)}">{escape(link)}</a>')
        await message.reply_html(text, link_preview_options=NO_PREVIEW)

    async def _start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None
        if message.chat.type != ChatType.PRIVATE:
            actor, place = await self._actor(update, admin=True)
            await self._answer(update, await commands.run(self.tables, actor, place.key,
                                                           commands.Start()))
            return
        actor, place = await self._actor(update)
        payload = (context.args or [""])[0]
        if payload.startswith(JOIN_PREFIX):
            await self._deep_join(update, actor, payload[len(JOIN_PREFIX):])
            return
        lang = await self.tables.lang_of(actor.user_id)
        await self._in_chat(message, present.help_text(lang))

    async def _deep_join(self, update: Update, actor: Actor, ref: str) -> None:
        """`t.me/<bot>?start=j<table reference>`: the private chat is open now, so take
        the seat, if Telegram says the user is a member of the table's chat."""
        message = update.effective_message
        assert message is not None
        reply = await commands.run(self.tables, actor, place_of(message).key,
                                   commands.JoinLink(ref, self._is_member))
        if reply.ok:
            await self._confirm(self._in_chat(message, reply.text))
        else:
            await self._in_chat(message, reply.text)

    async def _leave(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self._run(actor, place, commands.Leave()), "private")

    async def _addbot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        await self._answer(update, await self._run(actor, place, commands.AddBot()))

    async def _removebot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        await self._answer(update, await self._run(actor, place, commands.RemoveBot()))

    async def _play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        text = " ".join(context.args or [])
        await self._answer(update, await self._run(actor, place, commands.Play(text)))

    async def _pass(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self._run(actor, place, commands.Play("pass")))

    async def _hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self._run(actor, place, commands.Hand()))

    async def _table(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, person=False)
        if not await self._may_post(place):
            await self._cannot_post(update, actor)
            return
        await self._answer(update, await self._run(actor, place, commands.Show()))

    async def _rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, person=False)
        lang = await self.tables.lang_of(actor.user_id, place.key)
        text = present.rules_text(" ".join(context.args or []), lang)
        await self._answer(update, Reply(text), "chat")

    async def _help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, person=False)
        lang = await self.tables.lang_of(actor.user_id, place.key)
        await self._answer(update, Reply(present.help_text(lang)), "chat")

    async def _options(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        reply = await self._run(actor, place, commands.Options(list(context.args or [])))
        await self._answer(update, reply, "chat")

    async def _scores(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, person=False)
        await self._answer(update, await self._run(actor, place, commands.Scores()), "chat")

    async def _stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self._run(actor, place, commands.Stats()), "chat")

    async def _cancel(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        await self._answer(update, await self._run(actor, place, commands.Cancel()))

    async def _lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        words = [w.lower() for w in context.args or []]
        message = update.effective_message
        assert message is not None
        private = message.chat.type == ChatType.PRIVATE
        personal = private or "me" in words
        # Rights are asked only for the channel's language: a Telegram hiccup must not
        # stop anyone choosing their own.
        actor, place = await self._actor(update, admin=not personal)
        lang = next((w for w in words if w != "me"), "")
        reply = await self._run(actor, place, commands.Lang(lang, personal))
        await self._answer(update, reply, "private" if personal and not private else "chat")

    async def _mentions(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        word = " ".join(context.args or []).strip().lower()
        if word not in {"on", "off", "oui", "non", "yes", "no"}:
            lang = await self.tables.lang_of(actor.user_id)
            await self._answer(update, Reply(t(lang, "mentions_usage"), ok=False))
            return
        reply = await self._run(actor, place, commands.Mentions(word in {"on", "oui", "yes"}))
        await self._answer(update, reply, "private")

    async def _kick(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        message = update.effective_message
        assert message is not None
        replied = message.reply_to_message
        # Replying to the player's message names them without spelling their name.
        if replied is not None and replied.from_user is not None \
                and not replied.from_user.is_bot and replied.forum_topic_created is None:
            target = str(replied.from_user.id)
        else:
            target = " ".join(context.args or [])
        await self._answer(update, await self._run(actor, place, commands.Kick(target)))

    # --- ratings --------------------------------------------------------------------------

    @staticmethod
    def _community(message: Message) -> str | None:
        """The group a command was typed in (a forum topic counts for its whole group);
        None in a private chat, which has no ladder."""
        private = message.chat.type == ChatType.PRIVATE
        return ratings.community(PLATFORM, None if private else str(message.chat_id))

    async def _leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, person=False)
        message = update.effective_message
        assert message is not None
        command = commands.Leaderboard(self._community(message), list(context.args or []))
        await self._answer(update, await self._run(actor, place, command), "chat")

    async def _rating(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The player by a reply to their message, a mention Telegram resolved (a user
        without a username), a @username seen in this group, or the name tables showed."""
        actor, place = await self._actor(update, person=False)
        message = update.effective_message
        assert message is not None
        community = self._community(message)
        args = list(context.args or [])
        replied = message.reply_to_message
        mentioned = next((entity.user for entity in message.entities
                          if entity.type == MessageEntityType.TEXT_MENTION and entity.user),
                         None)
        if replied is not None and replied.from_user is not None and not args \
                and not replied.from_user.is_bot and replied.forum_topic_created is None:
            command = commands.Rating(community, str(replied.from_user.id),
                                      actor_name(replied.from_user))
        elif mentioned is not None:
            command = commands.Rating(community, str(mentioned.id), actor_name(mentioned))
        elif len(args) == 1 and args[0].startswith("@"):
            found = self._usernames.find(message.chat_id, args[0])
            command = commands.Rating(community, None, args[0]) if found is None \
                else commands.Rating(community, str(found), args[0])
        else:
            command = commands.Rating(community, None, " ".join(args))
        await self._answer(update, await self._run(actor, place, command), "chat")

    # --- privacy --------------------------------------------------------------------------

    async def _private_only(self, update: Update, actor: Actor) -> bool:
        """What is said about one person is said in their private chat, not in a group."""
        message = update.effective_message
        assert message is not None
        if message.chat.type == ChatType.PRIVATE:
            return True
        lang = await self.tables.lang_of(actor.user_id)
        await self._answer(update, Reply(t(lang, "private_only"), ok=False))
        return False

    def _in_groups(self, handler: Handler) -> Handler:
        """`handler` in a group or topic; in a private chat, the sentence saying where
        tables are played instead."""
        async def in_groups(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            message = update.effective_message
            if message is None or message.chat.type != ChatType.PRIVATE:
                await handler(update, context)
                return
            actor, _ = await self._actor(update)
            lang = await self.tables.lang_of(actor.user_id)
            await self._answer(update, Reply(t(lang, "group_only"), ok=False))

        return in_groups

    async def _mydata(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, _ = await self._actor(update)
        if not await self._private_only(update, actor):
            return
        message = update.effective_message
        assert message is not None
        lang = await self.tables.lang_of(actor.user_id)
        try:
            data = await self.tables.privacy.my_data(actor)
        except StorageError:
            log.exception("/mydata could not read the database")
            await self._in_chat(message, t(lang, "mydata_failed"))
            return
        if isinstance(data, Reply):  # asked again too soon: when they may
            await self._in_chat(message, data.text)
            return
        document = json.dumps(data, ensure_ascii=False, indent=2).encode()
        await message.reply_document(InputFile(document, filename="tapis-my-data.json"),
                                     caption=t(lang, "mydata_caption"), do_quote=False)

    async def _forgetme(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, _ = await self._actor(update)
        if not await self._private_only(update, actor):
            return
        message = update.effective_message
        assert message is not None
        question = await self.tables.privacy.forget_prompt(actor)
        await message.reply_text(question.text, do_quote=False, reply_markup=keyboard(
            PRIVACY_REF, question.version, question.buttons))

    # --- buttons --------------------------------------------------------------------------

    async def _press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The platform's facts about a press (who, on which message, in which chat or
        topic, with which rights there) go to the core, which decides what it may do."""
        query = update.callback_query
        assert query is not None
        user = query.from_user
        chat = query.message.chat if query.message is not None else None
        logs.bind(platform=PLATFORM, channel=chat.id if chat is not None else None)
        await events.happened(self.tables, events.LocaleSeen(str(user.id), user.language_code))
        actor = Actor(str(user.id), actor_name(user))
        press = self._press_of(query.message, user.id, query.data or "")
        if press is None:
            # An inline-mode message, or one too old to say which topic it is in.
            await query.answer(t(await self.tables.lang_of(actor.user_id), "out_of_date"),
                               show_alert=True)
            return
        action = press.action
        if press.privacy is not None:
            await self._privacy_press(query, actor, press)
            return
        reply = await self.tables.press(actor, press)
        if reply.open_private is not None:
            link = deep_link(self.app.bot.username, f"{JOIN_PREFIX}{reply.open_private}")
            await query.answer(reply.text, url=link)
            return
        if not reply.ok:
            await query.answer(clip(reply.text, MAX_ANSWER), show_alert=True)
            return
        # Stored: the button's answer first (a press expires), then the private copy of a
        # seat change; either may be dropped, never reported as "nothing changed".
        await self._confirm(query.answer(clip(reply.text, MAX_ANSWER)))
        if action in {"join", "leave"}:
            await self._dm(user.id, reply.text)

    async def _privacy_press(self, query: CallbackQuery, actor: Actor, press: Press) -> None:
        """The /forgetme question's buttons, honoured only in a private chat; the answer
        replaces the question, so it cannot be pressed twice."""
        data = press.payload
        if press.channel is not None:
            lang = await self.tables.lang_of(actor.user_id)
            await query.answer(clip(t(lang, "private_only"), MAX_ANSWER), show_alert=True)
            return
        reply = await self.tables.press(actor, press)
        await query.answer(clip(reply.text, MAX_ANSWER), show_alert=not reply.ok)
        message = query.message
        markup = message.reply_markup if isinstance(message, Message) else None
        shown = [b.callback_data for row in (markup.inline_keyboard if markup else ())
                 for b in row]
        if data in shown:  # only the question itself; a forged press elsewhere edits nothing
            with contextlib.suppress(TelegramError):
                await query.edit_message_text(clip(reply.text, 4096))

    def _press_of(self, message: MaybeInaccessibleMessage | None, user_id: int, data: str
                  ) -> Press | None:
        """Where the pressed message lives, as Telegram says: its chat, and its topic when
        it is a topic message. A message older than Telegram shows (inaccessible) still
        names its chat, which is enough outside forums."""
        if message is None:
            return None  # a button under an inline-mode message: none of ours
        chat = message.chat
        if isinstance(message, Message):
            place = place_of(message)
        elif chat.is_forum:
            return None  # no telling which topic it is in
        else:
            place = Place(chat.id)
        message_id = message.message_id
        if chat.type == ChatType.PRIVATE:
            self._reachable.add(user_id)
            return Press(data, None, str(message_id), is_member=self._is_member)

        async def is_admin() -> bool:
            return await self._is_admin(chat.id, user_id)

        async def can_reach() -> bool:
            return await self._can_reach(user_id)

        return Press(data, place.key, str(message_id), is_admin, self._is_member, can_reach)

    # --- platform events ------------------------------------------------------------------

    async def _my_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        changed = update.my_chat_member
        if changed is None:
            return
        member = changed.new_chat_member
        if member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
            await events.happened(self.tables,
                                  events.ChannelLost(str(changed.chat.id), whole_chat=True))
        elif member.status != ChatMemberStatus.RESTRICTED or (
                getattr(member, "is_member", False)
                and getattr(member, "can_send_messages", False)):
            # Added back, or given rights: tables closed for losing the chat carry on.
            await events.happened(self.tables,
                                  events.ChannelBack(str(changed.chat.id), with_topics=True))

    async def _topic_closed(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Remembered so that no table is opened in it (its table, if any, pauses on its
        first refused message)."""
        message = update.effective_message
        if message is not None:
            self._closed_topics.add(place_of(message).key)

    async def _topic_reopened(self, update: Update, context: ContextTypes.DEFAULT_TYPE
                              ) -> None:
        """A closed topic's table was closed on its first refused message: it resumes."""
        message = update.effective_message
        if message is not None:
            self._closed_topics.discard(place_of(message).key)
            await events.happened(self.tables, events.ChannelBack(place_of(message).key))

    async def _migrated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup (made public, topics on): its tables follow it."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await events.happened(self.tables, events.ChatMoved(
                str(message.chat.id), str(message.migrate_to_chat_id)))
        elif message.migrate_from_chat_id:
            await events.happened(self.tables, events.ChatMoved(
                str(message.migrate_from_chat_id), str(message.chat.id)))

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log the traceback; the user reads one plain translated sentence, never a trace."""
        if isinstance(context.error, SentAsChat) and isinstance(update, Update) \
                and update.effective_message is not None:
            message = update.effective_message
            lang = await self.tables.channel_lang(place_of(message).key)
            with contextlib.suppress(TelegramError):
                await self._in_chat(message, t(lang, "as_yourself"))
            return
        unknown = isinstance(context.error, RightsUnknown)
        if unknown:  # Telegram could not tell whether the user is an admin: ask to retry
            log.warning("update %r: rights unknown", update)
        else:
            log.error("update %r failed", update, exc_info=context.error)
        if not isinstance(update, Update) or update.effective_user is None:
            return
        lang = "en"
        with contextlib.suppress(Exception):
            lang = await self.tables.lang_of(str(update.effective_user.id))
        # After a stored change "nothing changed" is no longer true: say it counts. A
        # storage fault the command did not word itself is still the storage's.
        if unknown:
            key = "rights_unknown"
        elif changes.stored():
            key = "error_after_change"
        elif isinstance(context.error, StorageError):
            key = "storage_unavailable"
        else:
            key = "error_generic"
        text = t(lang, key)
        with contextlib.suppress(TelegramError):
            if update.callback_query is not None:
                await update.callback_query.answer(text, show_alert=True)
            elif update.effective_message is not None:
                await update.effective_message.reply_text(text)


def startup_problem(exc: TelegramError, settings: Settings) -> str:
    """The one line an operator needs when Telegram cannot be reached or refuses the bot."""
    # The server's address, never its credentials (a self-hosted server behind basic auth).
    url = urlparse(settings.telegram_api_url or "https://api.telegram.org")
    server = url.netloc.rpartition("@")[2]
    if isinstance(exc, InvalidToken):
        return (f"TELEGRAM_TOKEN was rejected by Telegram ({server}): check it with "
                "@BotFather")
    if isinstance(exc, BadRequest):
        return f"Telegram ({server}) refused the bot's start-up: {exc.message}"
    if _name_lookup_failed(exc):
        return (f"cannot reach Telegram: the name {server.rsplit(':', 1)[0]} does not "
                "resolve (DNS failure or no network; see TELEGRAM_API_URL)")
    return f"cannot reach Telegram at {server} ({exc.message}): is the network up?"


def _name_lookup_failed(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    for _ in range(10):
        if seen is None:
            return False
        if isinstance(seen, socket.gaierror) or "name resolution" in str(seen).lower() \
                or "name or service not known" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


async def run_telegram(repo: Repository, settings: Settings, *,
                       health: Health | None = None, web: WebServer | None = None) -> None:
    """Run until cancelled (`python -m bot` cancels on SIGINT/SIGTERM), then stop cleanly:
    queued deliveries are sent before the HTTP client closes. `web`: the table's page
    (WEB_URL), which serves this bot's tables too."""
    bot = TelegramBot(repo, settings)
    if web is not None:
        web.add(PLATFORM, bot.tables, bot.web_member)
    if health is not None:
        health.watch(PLATFORM, bot.connection_problem)
    try:
        await bot.start()
    except (InvalidToken, NetworkError, BadRequest) as exc:
        with contextlib.suppress(Exception):
            await bot.stop()
        raise StartupError(startup_problem(exc, settings)) from exc
    log.info("Telegram bot @%s running (%s)", bot.app.bot.username,
             "webhook" if settings.telegram_webhook_url else "long polling")
    try:
        await asyncio.Event().wait()
    finally:
        await bot.stop()


__all__ = ["TelegramBot", "build_application", "run_telegram"]
