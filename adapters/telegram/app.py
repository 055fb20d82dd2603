"""The Telegram bot: commands and button presses become `Tables` calls.

Groups play; private chats carry each player's hand. A group topic of a forum is a table
of its own (channel key "<chat_id>:<thread_id>"). Every sentence a user reads comes from
the core, already translated, except the few English-only ones marked below.

Run by `python -m bot` through `run_telegram(repo, settings)`; tests drive `TelegramBot`
directly against tests/fakes/telegram_api.py.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from html import escape
from typing import Any
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Message,
    Update,
    User,
)
from telegram.constants import ChatAction, ChatMemberStatus, ChatType
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from adapters.telegram.format import MAX_ANSWER, Place, clip, deep_link
from adapters.telegram.sink import NO_PREVIEW, TelegramSink
from bot import present
from bot.clock import Clock
from bot.i18n import LANGS, t
from bot.render import decode_payload
from bot.settings import Settings
from bot.tables import Actor, Reply, Tables
from db.repository import Repository, StorageError

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
ADMIN_TTL = 60.0  # seconds an admin check is trusted; promotions are rare, checks cost a call
FLOOD_RETRIES = 3  # AIORateLimiter's default of 0 would raise RetryAfter at once
JOIN_PREFIX = "j"  # deep-link payload "j<table id>": seat me at that table
# Lobby buttons for which being a group admin matters.
MANAGING = {"start", "addbot", "removebot", "options"}

# Command menus: (command, catalogue key of its description), per chat kind.
GROUP_COMMANDS = [(c, f"cmd.{c}") for c in (
    "newgame", "join", "leave", "addbot", "removebot", "start", "play", "pass", "hand",
    "table", "rules", "scores", "stats", "cancel", "kick", "lang", "mentions", "options",
    "help")]
PRIVATE_COMMANDS = [("start", "cmd.start_private")] + [
    (c, f"cmd.{c}") for c in ("help", "rules", "stats", "lang", "mentions")]

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


def place_of(message: Message) -> Place:
    """Topic messages of a forum carry their thread; a reply thread elsewhere is no table."""
    thread = message.message_thread_id if message.is_topic_message else None
    return Place(message.chat_id, thread)


def actor_name(user: User) -> str:
    return clip(user.full_name or user.username or str(user.id), 64)


def build_application(settings: Settings, *, rate_limiter: BaseRateLimiter | None = None
                      ) -> Application:
    if not settings.telegram_token:
        raise ValueError("TELEGRAM_TOKEN is not set")
    builder = (ApplicationBuilder().token(settings.telegram_token)
               .rate_limiter(rate_limiter or AIORateLimiter(max_retries=FLOOD_RETRIES))
               .concurrent_updates(True))
    if settings.telegram_api_url:
        # A self-hosted Bot API server: calls go to {url}/bot<token>/<method>.
        base = settings.telegram_api_url.rstrip("/")
        builder = builder.base_url(f"{base}/bot").base_file_url(f"{base}/file/bot")
    return builder.build()


class TelegramBot:
    def __init__(self, repo: Repository, settings: Settings, *, clock: Clock | None = None,
                 seeds: Callable[[], int] | None = None,
                 rate_limiter: BaseRateLimiter | None = None, listen: str = "0.0.0.0",
                 poll_timeout: float = 10.0) -> None:
        self.settings = settings
        self.listen = listen
        self.poll_timeout = poll_timeout
        self.app = build_application(settings, rate_limiter=rate_limiter)
        self._reachable: set[int] = set()  # users the bot may write to privately
        self._admins: dict[tuple[int, int], tuple[bool, float]] = {}
        self.sink = TelegramSink(self.app.bot, on_reachable=self._reachable.add,
                                 on_unreachable=self._reachable.discard)
        self.tables = Tables(repo, self.sink, platform=PLATFORM, settings=settings,
                             clock=clock, seeds=seeds)
        self.sink.tables = self.tables
        self._register()

    # --- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        await self.app.initialize()  # getMe: the username `/cmd@bot` is matched against
        await self._set_commands()
        await self.tables.start()
        await self.app.start()
        assert self.app.updater is not None
        if self.settings.telegram_webhook_url:
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
            await self.app.stop()
        await self.tables.close()
        await self.app.shutdown()

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
        }
        # Only new messages: an edited "/start" must not start a second game.
        only_new = filters.UpdateType.MESSAGE
        for name, handler in commands.items():
            self.app.add_handler(CommandHandler(name, handler, filters=only_new))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._migrated))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_REOPENED,
                                            self._topic_reopened))
        self.app.add_handler(CallbackQueryHandler(self._press))
        self.app.add_handler(ChatMemberHandler(self._my_membership,
                                               ChatMemberHandler.MY_CHAT_MEMBER))
        self.app.add_error_handler(self._on_error)

    # --- who is acting --------------------------------------------------------------------

    async def _actor(self, update: Update, *, admin: bool = False) -> tuple[Actor, Place]:
        message = update.effective_message
        user = update.effective_user
        assert message is not None and user is not None
        place = place_of(message)
        is_admin = False
        if message.chat.type == ChatType.PRIVATE:
            self._reachable.add(user.id)
            is_admin = True  # a private chat is its user's own channel
        elif admin:
            is_admin = await self._is_admin(message.chat_id, user.id, message)
        self.tables.remember_locale(str(user.id), user.language_code)
        return Actor(str(user.id), actor_name(user), is_admin=is_admin), place

    async def _is_admin(self, chat_id: int, user_id: int, message: Message | None = None
                        ) -> bool:
        if message is not None and message.sender_chat is not None \
                and message.sender_chat.id == chat_id:
            return True  # an anonymous admin writes as the group itself
        cached = self._admins.get((chat_id, user_id))
        now = time.monotonic()
        if cached is not None and cached[1] > now:
            return cached[0]
        try:
            member = await self.app.bot.get_chat_member(chat_id, user_id)
            is_admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
        except TelegramError:
            log.warning("getChatMember %s/%s failed; treating as no admin", chat_id, user_id)
            return False
        self._admins[(chat_id, user_id)] = (is_admin, now + ADMIN_TTL)
        return is_admin

    async def _can_reach(self, user_id: int) -> bool:
        """Whether the bot may write to the user privately (they pressed Start, never
        blocked it). Asked once with an invisible chat action, then remembered."""
        if user_id in self._reachable:
            return True
        try:
            await self.app.bot.send_chat_action(user_id, ChatAction.TYPING)
        except (Forbidden, BadRequest):
            return False
        self._reachable.add(user_id)
        return True

    # --- answering ------------------------------------------------------------------------

    async def _dm(self, user_id: int, text: str) -> bool:
        try:
            await self.app.bot.send_message(user_id, clip(text, 4096))
        except (Forbidden, BadRequest):
            self._reachable.discard(user_id)
            return False
        self._reachable.add(user_id)
        return True

    async def _in_chat(self, message: Message, text: str) -> None:
        await message.reply_text(clip(text, 4096), do_quote=message.chat.type != ChatType.PRIVATE)

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
        elif ok == "chat":
            await self._in_chat(message, reply.text)
        elif ok == "private":
            if private:
                await self._in_chat(message, reply.text)
            else:
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
        reply = await self.tables.new_game(actor, place.key, args[0] if args else "",
                                           args[1:], title=title)
        await self._answer(update, reply)
        if reply.ok and reply.table_id is not None and place.chat_id < 0 \
                and not await self._can_reach(int(actor.user_id)):
            # The host is seated already; the link only opens the chat their hand needs.
            await self._send_deep_link(message, actor, reply.table_id)

    async def _join_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        message = update.effective_message
        assert message is not None
        table = await self.tables.table_for_channel(place.key)
        if table is not None and place.chat_id < 0 \
                and not await self._can_reach(int(actor.user_id)):
            # Seated only once their hand can reach them: the deep link opens the private
            # chat and `/start j<table>` seats them.
            await self._send_deep_link(message, actor, table.id)
            return
        reply = await self.tables.join(actor, place.key)
        if not reply.ok or place.chat_id > 0:
            await self._answer(update, reply, "chat")
        elif not await self._dm(int(actor.user_id), reply.text) and table is not None:
            # The chat action got through but the message did not: seated, yet their hand
            # cannot reach them until they open the private chat.
            await self._send_deep_link(message, actor, table.id)

    async def _send_deep_link(self, message: Message, actor: Actor, table_id: int) -> None:
        link = deep_link(self.app.bot.username, f"{JOIN_PREFIX}{table_id}")
        text = t(await self.tables.lang_of(actor.user_id, None), "needs_private_chat",
                 name=escape(actor.name), link=f'<a href="{escape(link)}">{escape(link)}</a>')
        await message.reply_html(text, link_preview_options=NO_PREVIEW)

    async def _start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None
        if message.chat.type != ChatType.PRIVATE:
            actor, place = await self._actor(update, admin=True)
            await self._answer(update, await self.tables.start_game(actor, place.key))
            return
        actor, place = await self._actor(update)
        payload = (context.args or [""])[0]
        if payload.startswith(JOIN_PREFIX) and payload[len(JOIN_PREFIX):].isdigit():
            await self._deep_join(update, actor, int(payload[len(JOIN_PREFIX):]))
            return
        lang = await self.tables.lang_of(actor.user_id)
        await self._in_chat(message, present.help_text(lang))

    async def _deep_join(self, update: Update, actor: Actor, table_id: int) -> None:
        """`t.me/<bot>?start=j<table>`: the private chat is open now, so take the seat."""
        message = update.effective_message
        assert message is not None
        reply = await self.tables.join_table(actor, table_id)
        await self._in_chat(message, reply.text)

    async def _leave(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self.tables.leave(actor, place.key), "private")

    async def _addbot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        await self._answer(update, await self.tables.add_bot(actor, place.key))

    async def _removebot(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        await self._answer(update, await self.tables.remove_bot(actor, place.key))

    async def _play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        text = " ".join(context.args or [])
        await self._answer(update, await self.tables.play(actor, place.key, text))

    async def _pass(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self.tables.play(actor, place.key, "pass"))

    async def _hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self.tables.hand(actor, place.key))

    async def _table(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self.tables.show(actor, place.key))

    async def _rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        lang = await self.tables.lang_of(actor.user_id, place.key)
        text = present.rules_text(" ".join(context.args or []), lang)
        await self._answer(update, Reply(text), "chat")

    async def _help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        lang = await self.tables.lang_of(actor.user_id, place.key)
        await self._answer(update, Reply(present.help_text(lang)), "chat")

    async def _options(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        reply = await self.tables.set_options(actor, place.key, list(context.args or []))
        await self._answer(update, reply, "chat")

    async def _scores(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self.tables.scores(actor, place.key), "chat")

    async def _stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update)
        await self._answer(update, await self.tables.stats(actor, place.key), "chat")

    async def _cancel(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        await self._answer(update, await self.tables.cancel(actor, place.key))

    async def _lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, place = await self._actor(update, admin=True)
        words = [w.lower() for w in context.args or []]
        private = place.chat_id > 0
        personal = private or "me" in words
        lang = next((w for w in words if w != "me"), "")
        reply = await self.tables.set_lang(actor, place.key, lang, personal=personal)
        await self._answer(update, reply, "private" if personal and not private else "chat")

    async def _mentions(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        actor, _ = await self._actor(update)
        word = " ".join(context.args or []).strip().lower()
        if word not in {"on", "off", "oui", "non", "yes", "no"}:
            lang = await self.tables.lang_of(actor.user_id)
            await self._answer(update, Reply(t(lang, "mentions_usage"), ok=False))
            return
        reply = await self.tables.set_mentions(actor, word in {"on", "oui", "yes"})
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
        await self._answer(update, await self.tables.kick(actor, place.key, target))

    # --- buttons --------------------------------------------------------------------------

    async def _press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        user = query.from_user
        data = query.data or ""
        decoded = decode_payload(data)
        action = decoded[2] if decoded else ""
        chat = query.message.chat if query.message is not None else None
        in_group = chat is not None and chat.type != ChatType.PRIVATE
        if chat is not None and chat.type == ChatType.PRIVATE:
            self._reachable.add(user.id)
        is_admin = in_group and action in MANAGING and chat is not None \
            and await self._is_admin(chat.id, user.id)
        self.tables.remember_locale(str(user.id), user.language_code)
        actor = Actor(str(user.id), actor_name(user), is_admin=is_admin)
        if action == "join" and decoded is not None and not await self._can_reach(user.id):
            link = deep_link(self.app.bot.username, f"{JOIN_PREFIX}{decoded[0]}")
            await query.answer(t(await self.tables.lang_of(actor.user_id),
                                 "needs_private_chat_short"), url=link)
            return
        reply = await self.tables.press(actor, data)
        if reply.ok and action in {"join", "leave"}:
            await self._dm(user.id, reply.text)
        await query.answer(clip(reply.text, MAX_ANSWER), show_alert=not reply.ok)

    # --- platform events ------------------------------------------------------------------

    async def _my_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        changed = update.my_chat_member
        if changed is None:
            return
        member = changed.new_chat_member
        if member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
            await self.tables.chat_closed(str(changed.chat.id))
        elif member.status != ChatMemberStatus.RESTRICTED or (
                getattr(member, "is_member", False)
                and getattr(member, "can_send_messages", False)):
            # Added back, or given rights: tables closed for losing the chat carry on.
            await self.tables.channel_back(str(changed.chat.id), with_topics=True)

    async def _topic_reopened(self, update: Update, context: ContextTypes.DEFAULT_TYPE
                              ) -> None:
        """A closed topic's table was closed on its first refused message: it resumes."""
        message = update.effective_message
        if message is not None:
            await self.tables.channel_back(place_of(message).key)

    async def _migrated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup (made public, topics on): its tables follow it."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self.tables.chat_moved(str(message.chat.id), str(message.migrate_to_chat_id))
        elif message.migrate_from_chat_id:
            await self.tables.chat_moved(str(message.migrate_from_chat_id), str(message.chat.id))

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log the traceback; the user reads one plain translated sentence, never a trace."""
        log.error("update %r failed", update, exc_info=context.error)
        if not isinstance(update, Update) or update.effective_user is None:
            return
        lang = "en"
        with contextlib.suppress(Exception):
            lang = await self.tables.lang_of(str(update.effective_user.id))
        # A storage fault the command did not word itself is still the storage's.
        text = t(lang, "storage_unavailable" if isinstance(context.error, StorageError)
                 else "error_generic")
        with contextlib.suppress(TelegramError):
            if update.callback_query is not None:
                await update.callback_query.answer(text, show_alert=True)
            elif update.effective_message is not None:
                await update.effective_message.reply_text(text)


async def run_telegram(repo: Repository, settings: Settings) -> None:
    """Run until cancelled (`python -m bot` cancels on SIGINT/SIGTERM), then stop cleanly:
    queued deliveries are sent before the HTTP client closes."""
    bot = TelegramBot(repo, settings)
    await bot.start()
    log.info("Telegram bot @%s running (%s)", bot.app.bot.username,
             "webhook" if settings.telegram_webhook_url else "long polling")
    try:
        await asyncio.Event().wait()
    finally:
        await bot.stop()


__all__ = ["TelegramBot", "build_application", "run_telegram"]
