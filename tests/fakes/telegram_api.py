"""A fake Telegram Bot API server on 127.0.0.1 for the real python-telegram-bot to talk to.

Point an `Application` at it and run long polling::

    async with FakeTelegram() as fake:
        app = fake.application_builder().build()     # token, base_url, base_file_url set
        app.add_handler(CommandHandler("newgame", newgame))
        async with polling(app):
            alice = fake.user(1, "Alice")
            fake.send_command(-1001, alice, "/newgame ochs-esel")
            await fake.wait_for(lambda: fake.find(-1001, contains="Ochs"))

Why a fake rather than mocks: the adapter is only right if python-telegram-bot, talking
HTTP, gets the answers Telegram would give — including the refusals that shape the
adapter (403 before a user pressed Start, 429 floods, "message is not modified", an edit
without `reply_markup` dropping the keyboard). Those behaviours are reproduced here from
the Bot API documentation and docs/platforms.md.

What tests read:
- `fake.chat(id).messages`: every message of the chat, users' and the bot's, in order,
  deleted ones kept with `deleted=True`, each with its edit `history`.
- `fake.last_message(id)` / `fake.find(id, contains=...)`: what users see of the bot
  (its messages that are not deleted), text with the HTML markup already rendered.
- `fake.calls`: every request in completion order (`Call(method, params, time, status)`),
  `fake.unknown_calls` for methods the fake does not speak, `fake.flood_events` for
  every 429 it answered.

As strict as Telegram by default: flood control counts new messages and edits alike, one a
second in any chat, 20 a minute in a group, 30 a second over all chats, and answers 429
with `retry_after` beyond that; callback queries expire `callback_ttl` seconds after the
press. A test that cannot spend Telegram's real time says so: `pace=0.05` keeps every rule
with its windows 20 times shorter (the bot's limiter is scaled alike by the test), and
`strict=False` turns flood control off (then only `group_limit`, if given, counts, and
only new messages). Only HTML `parse_mode` is rendered (other modes are stored verbatim).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import os
import re
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from telegram.ext import Application, ApplicationBuilder

JSON = dict[str, Any]

logger = logging.getLogger(__name__)

BOT_ID = 7_000_000_001
BOT_FIRST_NAME = "Tapis"

# Bot API limits (docs/platforms.md): text after entity parsing, button data, callback answers.
MAX_TEXT = 4096
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER = 200
MAX_COMMANDS = 100

# ChatPermissions' fields: every right a group gives its members (all on by default).
CHAT_PERMISSIONS = (
    "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
    "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
    "can_send_other_messages", "can_add_web_page_previews", "can_change_info",
    "can_invite_users", "can_pin_messages", "can_manage_topics")
NO_RIGHTS_TO_SEND = "not enough rights to send text messages to the chat"


# Fields that are strings in the Bot API and must not be JSON-decoded even when they look
# like numbers ("123" as a callback_query_id, "true" as a message text).
# fmt: off
STRING_FIELDS = frozenset({
    "text", "caption", "parse_mode", "callback_query_id", "inline_message_id", "url",
    "secret_token", "language_code", "description", "short_description", "name", "ip_address",
    "business_connection_id", "message_effect_id",
})
# fmt: on

# Methods whose success puts a new message in a chat: these count for the flood limit.
SEND_METHODS = frozenset({"sendMessage", "sendDocument"})
# What Telegram's flood control counts in `strict` mode: new messages and edits alike.
PACED_METHODS = frozenset({"sendMessage", "sendDocument", "editMessageText",
                           "editMessageReplyMarkup"})
# Telegram's flood limits as observed (docs/platforms.md): per chat, per group, overall.
CHAT_LIMIT, CHAT_WINDOW = 1, 1.0
GROUP_LIMIT, GROUP_WINDOW = 20, 60.0
OVERALL_LIMIT, OVERALL_WINDOW = 30, 1.0
# Telegram answers a late answerCallbackQuery with a 400 (the limit is undocumented; a
# query is commonly seen to expire after about 15 seconds).
CALLBACK_TTL = 15.0
# Webhook deliveries (setWebhook's documentation): at most max_connections (default 40) at
# once; a failed one is retried "after a reasonable amount of attempts" given up: here 5,
# 1, 2, 3, 4 seconds apart (times `pace`).
WEBHOOK_ATTEMPTS, WEBHOOK_RETRY = 5, 1.0
TOO_OLD = "query is too old and response timeout expired or query id is invalid"

COMMAND_RE = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")
COMMAND_NAME_RE = re.compile(r"^[a-z0-9_]{1,32}$")
DEEP_LINK_PAYLOAD_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

# Tags Telegram accepts in parse_mode=HTML (Bot API "HTML style").
# fmt: off
HTML_TAGS = frozenset({
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
    "code", "pre", "blockquote", "tg-emoji",
})
# fmt: on


class ApiError(Exception):
    """A refusal the fake answers with, shaped like Telegram's `{"ok": false, ...}` body."""

    def __init__(self, status: int, description: str, retry_after: int | None = None,
                 migrate_to: int | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after
        self.migrate_to = migrate_to

    def body(self) -> JSON:
        body: JSON = {"ok": False, "error_code": self.status, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to is not None:
            body["parameters"] = {"migrate_to_chat_id": self.migrate_to}
        return body


def bad_request(what: str) -> ApiError:
    return ApiError(400, f"Bad Request: {what}")


def forbidden(what: str) -> ApiError:
    return ApiError(403, f"Forbidden: {what}")


@dataclass(frozen=True)
class FakeUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    def to_api(self) -> JSON:
        user: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            user["username"] = self.username
        if self.language_code:
            user["language_code"] = self.language_code
        return user


BOT_USER = FakeUser(BOT_ID, BOT_FIRST_NAME, is_bot=True)
# The placeholder senders of messages sent on behalf of a chat (Bot API, Message.from: "a
# fake sender user in non-channel chats"): one for everyone posting as one of their
# channels, one for every anonymous admin of a group.
CHANNEL_BOT = FakeUser(136817688, "Channel", username="Channel_Bot", is_bot=True)
GROUP_ANONYMOUS_BOT = FakeUser(1087968824, "Group", username="GroupAnonymousBot",
                               is_bot=True)


@dataclass(frozen=True)
class Version:
    """A message as it looked before an edit."""

    text: str
    reply_markup: JSON | None
    time: float


@dataclass
class FakeMessage:
    message_id: int
    chat_id: int
    sender: FakeUser
    text: str
    date: int
    thread_id: int | None = None
    reply_markup: JSON | None = None
    raw_text: str | None = None
    parse_mode: str | None = None
    entities: list[JSON] = field(default_factory=list)
    reply_to: int | None = None
    history: list[Version] = field(default_factory=list)
    edit_date: int | None = None
    deleted: bool = False
    # sendDocument: {"file_name", "mime_type", "content": bytes}; `text` is then the caption.
    document: JSON | None = None
    # Sent on behalf of a chat (a channel of the sender's, or the group by an anonymous
    # admin): that chat, as the API shows it; `sender` is then a placeholder user.
    sender_chat: JSON | None = None

    @property
    def from_bot(self) -> bool:
        return self.sender.id == BOT_ID

    @property
    def buttons(self) -> list[JSON]:
        """Inline buttons, row by row flattened: what a user can press under the message."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    @property
    def button_texts(self) -> list[str]:
        return [button["text"] for button in self.buttons]

    def button(self, text: str) -> JSON:
        for button in self.buttons:
            if button["text"] == text:
                return button
        raise LookupError(
            f"no button {text!r} under message {self.message_id}: {self.button_texts}"
        )


@dataclass
class FakeChat:
    id: int
    type: str
    title: str | None = None
    is_forum: bool = False
    user: FakeUser | None = None  # the other side of a private chat
    messages: list[FakeMessage] = field(default_factory=list)
    topics: set[int] = field(default_factory=set)
    closed_topics: set[int] = field(default_factory=set)
    # The members' default rights (ChatPermissions), set by an admin for the whole group:
    # what a member without a status of their own, the bot included, may do.
    permissions: JSON = field(default_factory=lambda: dict.fromkeys(CHAT_PERMISSIONS, True))

    def to_api(self) -> JSON:
        chat: JSON = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            chat["first_name"] = self.user.first_name
            if self.user.username:
                chat["username"] = self.user.username
        else:
            chat["title"] = self.title or f"Chat {self.id}"
        if self.is_forum:
            chat["is_forum"] = True
        return chat

    def message(self, message_id: int) -> FakeMessage:
        for message in self.messages:
            if message.message_id == message_id:
                return message
        raise LookupError(f"no message {message_id} in chat {self.id}")

    @property
    def visible(self) -> list[FakeMessage]:
        return [m for m in self.messages if not m.deleted]

    @property
    def bot_messages(self) -> list[FakeMessage]:
        """The bot's messages a user of this chat still sees, oldest first."""
        return [m for m in self.visible if m.from_bot]


@dataclass(frozen=True)
class Call:
    """One request as the fake received it; `time` is `time.monotonic()` on arrival."""

    method: str
    params: JSON
    time: float
    status: int
    description: str | None = None
    # Which client sent it, when several processes share the bot: the NAME of a base URL
    # `{url}/via/NAME` (Telegram cannot tell them apart; a test of several processes can).
    sender: str = ""

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | str | None:
        return self.params.get("chat_id")


@dataclass(frozen=True)
class FloodEvent:
    """A 429 the fake answered, from `fail_next` or the group limiter."""

    method: str
    chat_id: int | str | None
    time: float
    retry_after: int
    reason: str  # "injected", "group_limit", "chat_limit" or "overall_limit"


@dataclass
class CallbackPress:
    """A button press injected by a test; `answer` holds the answerCallbackQuery params."""

    id: str
    user: FakeUser
    chat_id: int
    message_id: int
    data: str
    answer: JSON | None = None
    at: float = field(default_factory=time.monotonic)  # when the user pressed


@dataclass
class _Failure:
    times: int
    status: int
    description: str
    retry_after: int | None


class _HtmlRenderer(HTMLParser):
    """Turns parse_mode=HTML text into what the user reads, refusing what Telegram refuses."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.open: list[str] = []
        self.error: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in HTML_TAGS:
            self.error = self.error or f'Unsupported start tag "{tag}"'
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.error = self.error or f'Unexpected end tag "{tag}"'
            return
        self.open.pop()

    def handle_data(self, data: str) -> None:
        # A bare "<" must be written &lt; (Bot API: "All <, > and & symbols that are not
        # a part of a tag or an HTML entity must be replaced").
        if "<" in data:
            self.error = self.error or "Unexpected character '<'"
        self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        known = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
        if name not in known:
            self.error = self.error or f'Unsupported HTML entity "&{name};"'
        self.out.append(known.get(name, ""))

    def handle_charref(self, name: str) -> None:
        number = int(name[1:], 16) if name[:1] in "xX" else int(name)
        self.out.append(chr(number))


def render_html(text: str) -> str:
    renderer = _HtmlRenderer()
    renderer.feed(text)
    renderer.close()
    if renderer.error is None and renderer.open:
        renderer.error = f'Can\'t find end tag corresponding to start tag "{renderer.open[-1]}"'
    if renderer.error:
        raise bad_request(f"can't parse entities: {renderer.error}")
    return "".join(renderer.out)


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def command_entities(text: str) -> list[JSON]:
    """bot_command entities as Telegram clients mark them (offsets in UTF-16 units)."""
    return [
        {
            "type": "bot_command",
            "offset": _utf16_len(text[: match.start()]),
            "length": _utf16_len(match.group()),
        }
        for match in COMMAND_RE.finditer(text)
    ]


def _decode_params(raw: dict[str, Any]) -> JSON:
    """Form fields arrive as strings with nested objects JSON-encoded; give them their types."""
    params: JSON = {}
    for key, value in raw.items():
        if isinstance(value, web.FileField):
            params[key] = {"file_name": value.filename, "content_type": value.content_type,
                           "content": value.file.read()}
        elif isinstance(value, str) and key not in STRING_FIELDS:
            try:
                params[key] = json.loads(value)
            except ValueError:
                params[key] = value  # e.g. chat_id "@channel"
        else:
            params[key] = value
    return params


def _validate_reply_markup(markup: Any, chat: FakeChat | None = None) -> JSON | None:
    """As Telegram checks an inline keyboard: a `web_app` button only in a private chat
    (elsewhere Telegram answers BUTTON_TYPE_INVALID)."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    for row in markup.get("inline_keyboard", []):
        for button in row:
            if not button.get("text"):
                raise bad_request("text buttons are unallowed in the inline keyboard")
            data = button.get("callback_data")
            if data is not None and not (1 <= len(str(data).encode()) <= MAX_CALLBACK_DATA_BYTES):
                raise bad_request("BUTTON_DATA_INVALID")
            web_app = button.get("web_app")
            if web_app is not None and chat is not None and chat.type != "private":
                raise bad_request("BUTTON_TYPE_INVALID")
    return markup


def _ensure_no_proxy() -> dict[str, str | None]:
    """httpx honours proxy variables; requests to the fake must never leave the machine."""
    saved: dict[str, str | None] = {}
    for name in ("NO_PROXY", "no_proxy"):
        saved[name] = os.environ.get(name)
        hosts = [h for h in (saved[name] or "").split(",") if h]
        for host in ("127.0.0.1", "localhost"):
            if host not in hosts:
                hosts.append(host)
        os.environ[name] = ",".join(hosts)
    return saved


def _restore_env(saved: dict[str, str | None]) -> None:
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


# What ChatMemberAdministrator carries: the bot as an admin that may run the group.
ADMIN_RIGHTS: JSON = {
    "can_be_edited": False, "can_manage_chat": True, "can_change_info": True,
    "can_delete_messages": True, "can_invite_users": True, "can_restrict_members": True,
    "can_pin_messages": True, "can_promote_members": False, "can_manage_video_chats": True,
    "is_anonymous": False, "can_post_stories": False, "can_edit_stories": False,
    "can_delete_stories": False,
}


class FakeTelegram:
    """The Bot API subset the Tapis adapter uses, with Telegram's refusals, on a free port."""

    def __init__(
        self,
        *,
        token: str = "123456:TEST-TOKEN",
        bot_username: str = "tapis_test_bot",
        group_limit: int | None = None,
        group_window: float = GROUP_WINDOW,
        strict: bool = True,
        pace: float = 1.0,
        callback_ttl: float = CALLBACK_TTL,
    ) -> None:
        """`strict` (the default): Telegram's flood control as observed, counting edits too:
        at most one message or edit per second in any chat, 20 a minute in a group (unless
        `group_limit` says otherwise), 30 a second over all chats; over it, 429 with
        `retry_after`.

        `pace`: every flood window multiplied by it (1.0 is Telegram's). Less than 1 is
        an explicit leniency for tests that play whole games and cannot wait Telegram's
        real time: the same rules, sooner over.

        `strict=False`: no flood control, except `group_limit` if given: 429 to the
        sendMessage that would be the limit+1st in a group within `group_window` seconds.

        `callback_ttl`: seconds after a press when its answer is refused as too old."""
        self.token = token
        self.bot_username = bot_username
        self.strict = strict
        self.pace = pace
        self.group_limit = group_limit if group_limit is not None or not strict else GROUP_LIMIT
        self.group_window = group_window * pace
        self.chat_limit = CHAT_LIMIT if strict else None
        self.chat_window = CHAT_WINDOW * pace
        self.overall_limit = OVERALL_LIMIT if strict else None
        self.overall_window = OVERALL_WINDOW * pace
        self.callback_ttl = callback_ttl

        self.calls: list[Call] = []
        self.unknown_calls: list[Call] = []
        self.flood_events: list[FloodEvent] = []
        self.presses: dict[str, CallbackPress] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.webhook: JSON | None = None

        self._users: dict[int, FakeUser] = {}
        self._chats: dict[int, FakeChat] = {}
        self._started: set[int] = set()
        self._blocked: set[int] = set()
        self._kicked: set[int] = set()
        # The bot's own status in each group when not a plain member ("left",
        # "administrator", "restricted"), and a restricted bot's rights there.
        self._bot_status: dict[int, str] = {}
        self._bot_rights: dict[int, JSON] = {}
        self._migrated: dict[int, int] = {}  # old group id -> its supergroup's id
        self._admins: dict[int, dict[int, str]] = defaultdict(dict)  # chat -> user -> status
        # Who is in each group, as getChatMember reports: whoever wrote or pressed a button
        # there, or was set; anyone else has "left", as Telegram says of a non-member.
        self._members: dict[int, set[int]] = defaultdict(set)
        self._statuses: dict[int, dict[int, str]] = defaultdict(dict)  # left, kicked, ...
        self._webhook_tasks: set[asyncio.Task[None]] = set()
        self._webhook_slots: asyncio.Semaphore | None = None
        self.webhook_deliveries: list[int] = []  # HTTP status of each update POSTed
        self.webhook_given_up: list[JSON] = []  # updates no attempt delivered
        self._updates: list[JSON] = []
        self._allowed_updates: list[str] | None = None
        self._update_ids = itertools.count(10_000)
        self._message_ids: dict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1))
        self._press_ids = itertools.count(900_000)
        self._failures: dict[str, deque[_Failure]] = defaultdict(deque)
        self._held: set[str] = set()  # methods whose calls wait, unanswered, for release
        self._slow: list[tuple[str, float, JSON]] = []  # (method, delay, params to match)
        self.slowed_calls: list[Call] = []  # calls made to wait by `slow`, on arrival
        self._release = asyncio.Event()
        self.held_calls: list[Call] = []  # calls that waited and were never carried out
        self._group_sends: dict[int, deque[float]] = defaultdict(deque)
        self._chat_sends: dict[int, deque[float]] = defaultdict(deque)
        self._all_sends: deque[float] = deque()
        self._poll_generation = 0
        self._closing = False
        self._updates_changed = asyncio.Event()
        self._activity = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._saved_env: dict[str, str | None] = {}
        self.url = ""

        self._methods: dict[str, tuple[str, Callable[[JSON], Any]]] = {
            name.lower(): (name, handler)
            for name, handler in {
                "getMe": self._get_me,
                "getUpdates": self._get_updates,
                "setWebhook": self._set_webhook,
                "deleteWebhook": self._delete_webhook,
                "getWebhookInfo": self._get_webhook_info,
                "sendMessage": self._send_message,
                "sendDocument": self._send_document,
                "editMessageText": self._edit_message_text,
                "editMessageReplyMarkup": self._edit_message_reply_markup,
                "deleteMessage": self._delete_message,
                "answerCallbackQuery": self._answer_callback_query,
                "setMyCommands": self._set_my_commands,
                "sendChatAction": self._send_chat_action,
                "getChatMember": self._get_chat_member,
                "getChatAdministrators": self._get_chat_administrators,
                "getChat": self._get_chat,
                "getMyCommands": self._get_my_commands,
                "deleteMyCommands": self._delete_my_commands,
            }.items()
        }

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        self._saved_env = _ensure_no_proxy()
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/via/{sender}/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/{tail:.*}", self._handle_stray)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"

    async def stop(self) -> None:
        for task in list(self._webhook_tasks):
            task.cancel()
        # Long polls left behind by a client that went away still wait on the server side:
        # wake them so the runner does not sit out its shutdown timeout.
        self._closing = True
        self._wake_pollers()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        _restore_env(self._saved_env)

    @property
    def base_url(self) -> str:
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    def application_builder(self) -> ApplicationBuilder:
        """An ApplicationBuilder aimed at this fake; add handlers, rate limiter, then build()."""
        from telegram.ext import ApplicationBuilder

        return (
            ApplicationBuilder()
            .token(self.token)
            .base_url(self.base_url)
            .base_file_url(self.base_file_url)
        )

    # ------------------------------------------------------------------ the world

    def user(
        self,
        user_id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = None,
    ) -> FakeUser:
        user = FakeUser(user_id, first_name, username, language_code)
        self._users[user_id] = user
        return user

    def add_chat(
        self,
        chat_id: int,
        chat_type: str | None = None,
        *,
        title: str | None = None,
        is_forum: bool = False,
    ) -> FakeChat:
        """A group the bot is a member of (private chats are made by `user` + a message)."""
        chat = self._chats.get(chat_id)
        if chat is None:
            chat_type = chat_type or ("supergroup" if chat_id < -1_000_000_000_000 else "group")
            chat = FakeChat(chat_id, chat_type, title=title, is_forum=is_forum)
            self._chats[chat_id] = chat
        chat.is_forum = chat.is_forum or is_forum
        return chat

    def chat(self, chat_id: int) -> FakeChat:
        try:
            return self._chats[chat_id]
        except KeyError:
            raise LookupError(f"chat {chat_id} has seen no message yet") from None

    def last_message(self, chat_id: int, *, thread_id: int | None = None) -> FakeMessage:
        """The bot's newest message still shown in the chat (in `thread_id` if given)."""
        found = self.find(chat_id, thread_id=thread_id)
        if not found:
            raise LookupError(f"the bot shows no message in chat {chat_id}")
        return found[-1]

    def find(
        self, chat_id: int, *, contains: str = "", thread_id: int | None = None
    ) -> list[FakeMessage]:
        """The bot's messages still shown in the chat whose text contains `contains`."""
        if chat_id not in self._chats:
            return []
        return [
            m
            for m in self._chats[chat_id].bot_messages
            if contains in m.text and (thread_id is None or m.thread_id == thread_id)
        ]

    def block(self, user: FakeUser) -> None:
        """The user blocks the bot: every call into their private chat answers 403."""
        self._blocked.add(user.id)

    def kick_bot(self, chat_id: int) -> None:
        """The bot is removed from a group: calls into it answer 403."""
        self._kicked.add(chat_id)

    def remove_bot(self, chat_id: int, by: FakeUser, status: str = "kicked") -> None:
        """An admin removes the bot ("kicked") or it leaves ("left"): calls into the group
        answer 403 and the bot gets the `my_chat_member` update Telegram sends."""
        old = self._bot_member_api(chat_id)
        self._kicked.add(chat_id)
        self._bot_status[chat_id] = status
        self._bot_status_changed(chat_id, by, old)

    def add_bot(self, chat_id: int, by: FakeUser, status: str = "member") -> None:
        """The bot is added (back) to a group, or given rights there ("administrator"):
        calls into it work again and the bot gets the `my_chat_member` update."""
        old = self._bot_member_api(chat_id)
        if chat_id in self._kicked:
            old = {"status": "left", "user": self._bot_api()}
        self._kicked.discard(chat_id)
        self._bot_status[chat_id] = status
        self._bot_rights.pop(chat_id, None)
        self._bot_status_changed(chat_id, by, old)

    def restrict_bot(self, chat_id: int, by: FakeUser, **rights: bool) -> None:
        """An admin restricts the bot in a supergroup (restrictChatMember): it stays a member
        with the rights given here (`can_send_messages=False` mutes it; the others stay on)
        and gets the `my_chat_member` update. Sending there is then refused with Telegram's
        400 "not enough rights to send text messages to the chat"."""
        old = self._bot_member_api(chat_id)
        self._kicked.discard(chat_id)
        self._bot_status[chat_id] = "restricted"
        self._bot_rights[chat_id] = dict.fromkeys(CHAT_PERMISSIONS, True) | rights
        self._bot_status_changed(chat_id, by, old)

    def set_permissions(self, chat_id: int, **rights: bool) -> None:
        """An admin changes what every member of the group may do (setChatPermissions):
        `can_send_messages=False` lets only admins write, the bot included unless it is one.
        Telegram sends the bot no update for this."""
        chat = self.add_chat(chat_id)
        chat.permissions = chat.permissions | rights

    def _bot_member_api(self, chat_id: int) -> JSON:
        """The bot's ChatMember in a group, with the fields its status carries."""
        status = self._bot_status_of(chat_id)
        bot: JSON = {"status": status, "user": self._bot_api()}
        if status == "restricted":
            bot |= self._restricted_fields(chat_id)
        elif status == "kicked":
            bot["until_date"] = 0
        elif status == "administrator":
            bot |= ADMIN_RIGHTS
        return bot

    def _bot_status_of(self, chat_id: int) -> str:
        if chat_id in self._kicked:
            return self._bot_status.get(chat_id, "kicked")
        return self._bot_status.get(chat_id, "member")

    def _restricted_fields(self, chat_id: int) -> JSON:
        rights = self._bot_rights.get(chat_id) or dict.fromkeys(CHAT_PERMISSIONS, False)
        return {"is_member": True, "until_date": 0, "can_edit_tag": False,
                "can_react_to_messages": True, **rights}

    def _check_bot_may_send(self, chat: FakeChat) -> None:
        """Telegram's refusal of a message from a bot that may not write in the group: a
        restricted bot's own rights, else the group's default rights (admins have theirs)."""
        if chat.type == "private":
            return
        status = self._bot_status_of(chat.id)
        if status in ("administrator", "creator"):
            return
        rights = self._bot_rights.get(chat.id, {}) if status == "restricted" else {}
        if not (rights.get("can_send_messages", True)
                and chat.permissions.get("can_send_messages", True)):
            raise bad_request(NO_RIGHTS_TO_SEND)

    def _bot_status_changed(self, chat_id: int, by: FakeUser, old: JSON) -> None:
        """The `my_chat_member` update Telegram sends when the bot's own status changes."""
        chat = self.add_chat(chat_id)
        self._push_update("my_chat_member", {
            "chat": chat.to_api(), "from": by.to_api(), "date": int(time.time()),
            "old_chat_member": old, "new_chat_member": self._bot_member_api(chat_id),
        })

    def close_topic(self, chat_id: int, thread_id: int, by: FakeUser, *,
                    closed: bool = True) -> None:
        """An admin closes (or reopens) a forum topic: while closed, the bot (no topic
        rights) may neither post nor edit there ("TOPIC_CLOSED"); members see the service
        message."""
        chat = self.add_chat(chat_id, "supergroup", is_forum=True)
        chat.topics.add(thread_id)
        (chat.closed_topics.add if closed else chat.closed_topics.discard)(thread_id)
        self._push_update("message", {
            "message_id": next(self._message_ids[chat.id]), "from": by.to_api(),
            "chat": chat.to_api(), "date": int(time.time()), "message_thread_id": thread_id,
            "is_topic_message": True,
            "forum_topic_closed" if closed else "forum_topic_reopened": {},
        })

    def migrate(self, chat_id: int, new_chat_id: int, by: FakeUser) -> None:
        """The group becomes a supergroup with a new id, as Telegram does when a group is
        made public or gets topics: the old id answers 400 with `migrate_to_chat_id`, and
        both chats get the service message."""
        old = self.add_chat(chat_id, "group")
        new = self.add_chat(new_chat_id, "supergroup", title=old.title)
        self._migrated[chat_id] = new_chat_id
        for chat, field_name, other in ((old, "migrate_to_chat_id", new_chat_id),
                                        (new, "migrate_from_chat_id", chat_id)):
            self._push_update("message", {
                "message_id": next(self._message_ids[chat.id]), "from": by.to_api(),
                "chat": chat.to_api(), "date": int(time.time()), field_name: other,
            })

    def set_admin(self, chat_id: int, user: FakeUser, status: str = "administrator") -> None:
        """`user` is an administrator (or "creator") of the group, as getChatMember reports."""
        self._users.setdefault(user.id, user)
        self.add_chat(chat_id)
        self._admins[chat_id][user.id] = status

    def set_member(self, chat_id: int, user: FakeUser, status: str = "member") -> None:
        """`user`'s status in the group: "member", "left" (never joined or left),
        "kicked" (banned), or "restricted" (a member with fewer rights)."""
        self._users.setdefault(user.id, user)
        self.add_chat(chat_id)
        self._statuses[chat_id][user.id] = status
        if status in ("member", "restricted"):
            self._members[chat_id].add(user.id)
        else:
            self._members[chat_id].discard(user.id)

    # ------------------------------------------------------------------ injecting updates

    def send_text(
        self,
        chat_id: int,
        user: FakeUser,
        text: str,
        *,
        chat_type: str | None = None,
        thread_id: int | None = None,
        reply_to: int | None = None,
        sender_chat: JSON | None = None,
    ) -> FakeMessage:
        """`user` writes `text` in the chat; /commands in it get bot_command entities, as
        Telegram clients mark them. `thread_id` makes the chat a forum and the message a
        topic message."""
        self._users.setdefault(user.id, user)
        chat = self._chat_for(chat_id, user, chat_type, thread_id)
        if chat.type != "private" and self._statuses[chat_id].get(user.id) not in (
                "left", "kicked"):
            self._members[chat_id].add(user.id)  # only a member can write there
        if chat.type == "private":
            # Writing to the bot is what "starting" it means; it also lifts a block.
            self._started.add(user.id)
            self._blocked.discard(user.id)
        message = FakeMessage(
            message_id=next(self._message_ids[chat_id]),
            chat_id=chat_id,
            sender=user,
            text=text,
            date=int(time.time()),
            thread_id=thread_id,
            entities=command_entities(text),
            reply_to=reply_to,
            sender_chat=sender_chat,
        )
        chat.messages.append(message)
        self._push_update("message", self._message_api(message))
        return message

    def send_command(
        self,
        chat_id: int,
        user: FakeUser,
        text: str,
        *,
        chat_type: str | None = None,
        thread_id: int | None = None,
    ) -> FakeMessage:
        """`text` is the command line as typed: "/newgame ochs-esel" or "/newgame@bot x"."""
        if not COMMAND_RE.match(text):
            raise ValueError(f"not a command: {text!r}")
        return self.send_text(chat_id, user, text, chat_type=chat_type, thread_id=thread_id)

    def send_as_chat(self, chat_id: int, text: str, *, channel_id: int | None = None,
                     title: str = "A channel", thread_id: int | None = None) -> FakeMessage:
        """`text` written in group `chat_id` on behalf of a chat: a channel (`channel_id`),
        as any user may in a group that allows it, else the group itself, as its anonymous
        admins write. Telegram then names a placeholder as the sender, the same for all."""
        if channel_id is None:
            sender, sender_chat = GROUP_ANONYMOUS_BOT, self.add_chat(chat_id).to_api()
        else:
            sender, sender_chat = CHANNEL_BOT, {"id": channel_id, "type": "channel",
                                                "title": title}
        return self.send_text(chat_id, sender, text, thread_id=thread_id,
                              sender_chat=sender_chat)

    def start_bot(self, user: FakeUser, payload: str | None = None) -> FakeMessage:
        """`user` opens the bot in private, through `t.me/<bot>?start=<payload>` if given."""
        if payload is not None and not DEEP_LINK_PAYLOAD_RE.match(payload):
            raise ValueError(f"Telegram refuses deep-link payload {payload!r}")
        text = "/start" if payload is None else f"/start {payload}"
        return self.send_command(user.id, user, text, chat_type="private")

    def press(
        self,
        chat_id: int,
        message_id: int,
        user: FakeUser,
        data: str,
        *,
        stale: bool = False,
        forged: bool = False,
    ) -> CallbackPress:
        """`user` presses the inline button carrying `data` under the bot's message. Only a
        button the message really shows can be pressed, unless `stale` (a button an earlier
        version showed: the user's client had not received the edit yet) or `forged` (any
        data, as a modified client could send)."""
        message = self.chat(chat_id).message(message_id)
        if message.deleted:
            raise LookupError(f"message {message_id} in chat {chat_id} was deleted")
        shown = [b.get("callback_data") for b in message.buttons]
        if stale:
            for version in message.history:
                rows = (version.reply_markup or {}).get("inline_keyboard", [])
                shown += [b.get("callback_data") for row in rows for b in row]
        if not forged and data not in shown:
            raise LookupError(
                f"message {message_id} shows no button with data {data!r}: {message.buttons}"
            )
        self._users.setdefault(user.id, user)
        if chat_id < 0 and self._statuses[chat_id].get(user.id) not in ("left", "kicked"):
            self._members[chat_id].add(user.id)  # only a member sees the group's buttons
        press = CallbackPress(str(next(self._press_ids)), user, chat_id, message_id, data)
        self.presses[press.id] = press
        self._push_update(
            "callback_query",
            {
                "id": press.id,
                "from": user.to_api(),
                "message": self._message_api(message),
                "chat_instance": f"ci{abs(chat_id)}",
                "data": data,
            },
        )
        return press

    def press_button(
        self, chat_id: int, message_id: int, user: FakeUser, text: str
    ) -> CallbackPress:
        """Press a button by the label users read."""
        button = self.chat(chat_id).message(message_id).button(text)
        return self.press(chat_id, message_id, user, button["callback_data"])

    # ------------------------------------------------------------------ faults

    def fail_next(
        self,
        method: str,
        times: int = 1,
        retry_after: int | None = 1,
        *,
        status: int = 429,
        description: str | None = None,
    ) -> None:
        """The next `times` calls of `method` are refused, by default with a flood 429."""
        if description is None:
            description = (
                f"Too Many Requests: retry after {retry_after}" if status == 429 else "Error"
            )
        self._failures[method.lower()].append(
            _Failure(times, status, description, retry_after if status == 429 else None)
        )

    def hold(self, *methods: str) -> None:
        """Calls of `methods` from now on get no answer and change nothing until `drop_held`:
        a request in flight, as when the bot's process is killed before Telegram answers."""
        self._held.update(m.lower() for m in methods)
        self._release = asyncio.Event()

    def slow(self, method: str, seconds: float, **params: Any) -> None:
        """Calls of `method` whose params include `params` are answered `seconds` late, and
        carried out as usual: a slow network, or a request in flight when the bot is told to
        stop."""
        self._slow.append((method.lower(), seconds, params))

    def drop_held(self) -> None:
        """Stop holding: the waiting calls end with an error and are never carried out (their
        sender is gone); later calls are served as usual."""
        self._held.clear()
        self._release.set()

    # ------------------------------------------------------------------ records

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def max_in_window(
        self, chat_id: int, window: float = 60.0, methods: Iterable[str] = SEND_METHODS
    ) -> int:
        """Most successful `methods` calls into one chat within any `window` seconds: the
        burst figure to compare with Telegram's 20 messages per minute per group."""
        wanted = {m.lower() for m in methods}
        times = sorted(
            c.time
            for c in self.calls
            if c.ok and c.method.lower() in wanted and c.chat_id == chat_id
        )
        best, start = 0, 0
        for end, moment in enumerate(times):
            while moment - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until `predicate()` is truthy, re-checked after every request the fake answers."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            event = self._activity
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def wait_for_call(self, method: str, timeout: float = 5.0, **params: Any) -> Call:
        """The first recorded `method` call whose params include `params`."""

        def match() -> Call | None:
            for call in self.calls_to(method):
                if all(call.params.get(k) == v for k, v in params.items()):
                    return call
            return None

        return await self.wait_for(match, timeout)

    # ------------------------------------------------------------------ HTTP

    async def _handle_stray(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"ok": False, "error_code": 404, "description": "Not Found"}, status=404
        )

    async def _handle(self, request: web.Request) -> web.Response:
        arrived = time.monotonic()
        name, handler = self._methods.get(
            request.match_info["method"].lower(), (request.match_info["method"], None)
        )
        params: JSON = {}
        try:
            try:
                params = await self._read_params(request)
            except ValueError:
                raise bad_request("can't parse request body") from None
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            if handler is None:
                raise ApiError(404, "Not Found")
            if name.lower() in self._held:
                self.held_calls.append(Call(name, params, arrived, 0, "held"))
                self._activity.set()
                self._activity = asyncio.Event()
                await self._release.wait()
                raise ApiError(500, "Internal Server Error: held and dropped")
            for method, delay, match in self._slow:
                if method == name.lower() and all(str(params.get(k)) == str(v)
                                                  for k, v in match.items()):
                    self.slowed_calls.append(Call(name, params, arrived, 0, "slowed"))
                    self._activity.set()
                    self._activity = asyncio.Event()
                    await asyncio.sleep(delay)
            self._check_failures(name, params, arrived)
            result = handler(params)
            if asyncio.iscoroutine(result):
                result = await result
        except ApiError as error:
            call = Call(name, params, arrived, error.status, error.description,
                        sender=request.match_info.get("sender", ""))
            self._record(call, unknown=handler is None)
            return web.json_response(error.body(), status=error.status)
        except Exception as error:
            # A bug in the fake, not a Telegram refusal: make it loud in the test's failure.
            logger.exception("fake Telegram failed on %s %s", name, params)
            description = f"fake Telegram bug: {error!r}"
            self._record(Call(name, params, arrived, 500, description))
            body = {"ok": False, "error_code": 500, "description": description}
            return web.json_response(body, status=500)
        self._record(Call(name, params, arrived, 200,
                          sender=request.match_info.get("sender", "")))
        return web.json_response({"ok": True, "result": result})

    async def _read_params(self, request: web.Request) -> JSON:
        raw: dict[str, Any] = dict(request.query)
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
                if not isinstance(body, dict):
                    raise ValueError("a JSON body must be an object")
                raw.update(body)
            else:
                raw.update(await request.post())
        return _decode_params(raw)

    def _record(self, call: Call, *, unknown: bool = False) -> None:
        self.calls.append(call)
        if unknown:
            self.unknown_calls.append(call)
        self._activity.set()
        self._activity = asyncio.Event()

    def _check_failures(self, method: str, params: JSON, now: float) -> None:
        queue = self._failures.get(method.lower())
        if not queue:
            return
        failure = queue[0]
        failure.times -= 1
        if failure.times <= 0:
            queue.popleft()
        if failure.retry_after is not None:
            self.flood_events.append(
                FloodEvent(method, params.get("chat_id"), now, failure.retry_after, "injected")
            )
        raise ApiError(failure.status, failure.description, failure.retry_after)

    def _check_group_limit(self, method: str, chat_id: int) -> None:
        """Telegram's flood control: 20 messages per minute per group when `group_limit` is
        set (sendMessage only, unless `strict`, where edits count too), and in `strict`
        mode one message or edit per second in any chat and 30 a second over all."""
        if method not in (PACED_METHODS if self.strict else SEND_METHODS):
            return
        now = time.monotonic()
        windows = []
        if self.group_limit is not None and chat_id < 0:
            windows.append((self._group_sends[chat_id], self.group_limit, self.group_window,
                            "group_limit"))
        if self.chat_limit is not None:
            windows.append((self._chat_sends[chat_id], self.chat_limit, self.chat_window,
                            "chat_limit"))
        if self.overall_limit is not None:
            windows.append((self._all_sends, self.overall_limit, self.overall_window,
                            "overall_limit"))
        for sent, limit, window, reason in windows:
            while sent and now - sent[0] >= window:
                sent.popleft()
            if len(sent) >= limit:
                retry_after = max(1, math.ceil(sent[0] + window - now))
                self.flood_events.append(FloodEvent(method, chat_id, now, retry_after, reason))
                raise ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)
        for sent, *_ in windows:
            sent.append(now)

    # ------------------------------------------------------------------ updates

    def _push_update(self, kind: str, payload: JSON) -> None:
        update = {"update_id": next(self._update_ids), kind: payload}
        if self.webhook is not None:
            # Telegram POSTs each update to the webhook instead of keeping it for getUpdates.
            task = asyncio.get_running_loop().create_task(self._post_to_webhook(update))
            self._webhook_tasks.add(task)
            task.add_done_callback(self._webhook_tasks.discard)
            return
        self._updates.append(update)
        self._wake_pollers()

    async def _post_to_webhook(self, update: JSON) -> None:
        """As Telegram does: at most the webhook's `max_connections` (default 40) requests
        at once, and an update whose request fails (no answer, or not 2xx) is sent again a
        few times, later, before it is given up."""
        import aiohttp

        assert self.webhook is not None
        webhook = self.webhook
        headers = {"Content-Type": "application/json"}
        secret = webhook.get("secret_token")
        if secret:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret
        if self._webhook_slots is None:
            self._webhook_slots = asyncio.Semaphore(int(webhook.get("max_connections") or 40))
        for attempt in range(WEBHOOK_ATTEMPTS):
            status = 0
            async with self._webhook_slots:
                try:
                    async with (
                        aiohttp.ClientSession() as session,
                        session.post(webhook["url"], data=json.dumps(update),
                                     headers=headers) as r,
                    ):
                        status = r.status
                except (aiohttp.ClientError, TimeoutError):
                    logger.warning("fake Telegram could not reach the webhook (attempt %d)",
                                   attempt + 1)
            self.webhook_deliveries.append(status)
            if 200 <= status < 300:
                break
            if attempt + 1 == WEBHOOK_ATTEMPTS:
                self.webhook_given_up.append(update)
            else:
                await asyncio.sleep(WEBHOOK_RETRY * (attempt + 1) * self.pace)
        self._activity.set()
        self._activity = asyncio.Event()

    def _wake_pollers(self) -> None:
        self._updates_changed.set()
        self._updates_changed = asyncio.Event()

    def _pending(self, limit: int) -> list[JSON]:
        allowed = self._allowed_updates
        pending = [u for u in self._updates if not allowed or any(kind in u for kind in allowed)]
        return pending[:limit]

    async def _get_updates(self, params: JSON) -> list[JSON]:
        if self.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = int(params.get("offset") or 0)
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        if params.get("allowed_updates"):
            self._allowed_updates = list(params["allowed_updates"])
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = float(params.get("timeout") or 0)

        # A newer getUpdates ends the older one, as Telegram does; the older one is usually
        # a long poll whose client was cancelled at shutdown and is no longer listening.
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake_pollers()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            pending = self._pending(limit)
            if pending or self._closing:
                return pending
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            event = self._updates_changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    # ------------------------------------------------------------------ chats

    def _chat_for(
        self, chat_id: int, user: FakeUser, chat_type: str | None, thread_id: int | None
    ) -> FakeChat:
        if chat_type == "private" or (chat_type is None and chat_id > 0):
            if chat_id != user.id:
                raise ValueError("a private chat's id is its user's id")
            chat = self._chats.get(chat_id) or FakeChat(chat_id, "private", user=user)
            self._chats[chat_id] = chat
            return chat
        chat = self.add_chat(chat_id, chat_type, is_forum=thread_id is not None)
        if thread_id is not None:
            chat.topics.add(thread_id)
        return chat

    def _target_chat(self, params: JSON) -> FakeChat:
        """The chat a bot call aims at, refusing as Telegram does when the bot may not write."""
        chat_id = params.get("chat_id")
        if not isinstance(chat_id, int):
            raise bad_request("chat not found")
        if chat_id > 0:
            if chat_id not in self._users:
                raise bad_request("chat not found")
            if chat_id in self._blocked:
                raise forbidden("bot was blocked by the user")
            if chat_id not in self._started:
                raise forbidden("bot can't initiate conversation with a user")
            return self._chats[chat_id]
        chat = self._chats.get(chat_id)
        if chat is None:
            raise bad_request("chat not found")
        if chat_id in self._migrated:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           migrate_to=self._migrated[chat_id])
        if chat_id in self._kicked:
            if self._bot_status.get(chat_id) == "left":
                raise forbidden(f"bot is not a member of the {chat.type} chat")
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        return chat

    def _message_api(self, message: FakeMessage, *, nested: bool = False) -> JSON:
        chat = self._chats[message.chat_id]
        api: JSON = {
            "message_id": message.message_id,
            "from": message.sender.to_api(),
            "chat": chat.to_api(),
            "date": message.date,
        }
        if message.sender_chat is not None:
            api["sender_chat"] = message.sender_chat
        if message.document is None:
            api["text"] = message.text
        else:
            api["document"] = {
                "file_id": f"doc-{message.chat_id}-{message.message_id}",
                "file_unique_id": f"u{message.chat_id}{message.message_id}",
                "file_name": message.document["file_name"],
                "mime_type": message.document["mime_type"],
                "file_size": len(message.document["content"]),
            }
            if message.text:
                api["caption"] = message.text
        if message.entities:
            api["entities"] = message.entities
        if chat.is_forum and message.thread_id is not None:
            api["message_thread_id"] = message.thread_id
            api["is_topic_message"] = True
        if message.reply_markup:
            api["reply_markup"] = message.reply_markup
        if message.edit_date is not None:
            api["edit_date"] = message.edit_date
        if message.reply_to is not None and not nested:
            with contextlib.suppress(LookupError):
                api["reply_to_message"] = self._message_api(
                    chat.message(message.reply_to), nested=True
                )
        return api

    def _rendered(self, params: JSON) -> str:
        raw = params.get("text")
        if not isinstance(raw, str) or not raw.strip():
            raise bad_request("message text is empty")
        text = render_html(raw) if str(params.get("parse_mode", "")).upper() == "HTML" else raw
        if not text.strip():
            raise bad_request("message text is empty")
        # Telegram counts the text left after entity parsing (`&#x27;` is one character),
        # in UTF-16 code units as its entity offsets are.
        if _utf16_len(text) > MAX_TEXT:
            raise bad_request("message is too long")
        return text

    def _editable(self, params: JSON) -> tuple[FakeChat, FakeMessage]:
        if "inline_message_id" in params:
            raise bad_request("inline messages are not supported by the fake")
        chat = self._target_chat(params)
        try:
            message = chat.message(int(params.get("message_id") or 0))
        except LookupError:
            raise bad_request("message to edit not found") from None
        if message.deleted:
            raise bad_request("message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        if message.thread_id is not None and message.thread_id in chat.closed_topics:
            raise bad_request("TOPIC_CLOSED")
        return chat, message

    @staticmethod
    def _edit(message: FakeMessage, text: str, raw: str, markup: JSON | None, mode: Any) -> None:
        if text == message.text and markup == message.reply_markup:
            raise bad_request(
                "message is not modified: specified new message content and reply markup "
                "are exactly the same as a current content and reply markup of the message"
            )
        message.history.append(Version(message.text, message.reply_markup, time.monotonic()))
        message.text, message.raw_text, message.reply_markup = text, raw, markup
        message.parse_mode = mode
        message.edit_date = int(time.time())

    # ------------------------------------------------------------------ methods

    def _bot_api(self) -> JSON:
        return BOT_USER.to_api() | {"username": self.bot_username}

    def _member_api(self, chat_id: int, user_id: int) -> JSON:
        user = self._users.get(user_id)
        if user_id == BOT_ID:
            return self._bot_member_api(chat_id)
        if user is None:
            raise bad_request("user not found")
        status = self._admins.get(chat_id, {}).get(user_id) \
            or self._statuses.get(chat_id, {}).get(user_id) \
            or ("member" if chat_id > 0 or self._is_member(chat_id, user_id) else "left")
        member: JSON = {"status": status, "user": user.to_api()}
        if status == "restricted":
            member |= {"is_member": True, "until_date": 0} | dict.fromkeys(
                ("can_send_messages", "can_send_audios", "can_send_documents",
                 "can_send_photos", "can_send_videos", "can_send_video_notes",
                 "can_send_voice_notes", "can_send_polls", "can_send_other_messages",
                 "can_add_web_page_previews", "can_change_info", "can_invite_users",
                 "can_pin_messages", "can_manage_topics", "can_react_to_messages"), False)
        elif status == "kicked":
            member["until_date"] = 0
        if status == "creator":
            member["is_anonymous"] = False
        elif status == "administrator":
            member |= {"can_be_edited": False, "is_anonymous": False}
            member |= dict.fromkeys(
                ("can_manage_chat", "can_delete_messages", "can_manage_video_chats",
                 "can_restrict_members", "can_promote_members", "can_change_info",
                 "can_invite_users", "can_post_stories", "can_edit_stories",
                 "can_delete_stories"), True)
        return member

    def _is_member(self, chat_id: int, user_id: int) -> bool:
        # A group that became a supergroup keeps its members.
        old = [o for o, new in self._migrated.items() if new == chat_id]
        return any(user_id in self._members.get(c, set()) for c in [chat_id, *old])

    def _send_chat_action(self, params: JSON) -> bool:
        self._target_chat(params)  # the same refusals as a message: 403 before /start
        return True

    def _get_chat_member(self, params: JSON) -> JSON:
        chat = self._target_chat(params)
        return self._member_api(chat.id, int(params.get("user_id") or 0))

    def _get_chat(self, params: JSON) -> JSON:
        """ChatFullInfo: the fields python-telegram-bot requires, and a group's default
        member rights (`permissions`)."""
        chat = self._target_chat(params)
        info = chat.to_api() | {
            "accent_color_id": 0, "max_reaction_count": 11,
            "accepted_gift_types": {"unlimited_gifts": False, "limited_gifts": False,
                                    "unique_gifts": False, "premium_subscription": False,
                                    "gifts_from_channels": False}}
        if chat.type != "private":
            info["permissions"] = dict(chat.permissions)
        return info

    def _get_chat_administrators(self, params: JSON) -> list[JSON]:
        chat = self._target_chat(params)
        return [self._member_api(chat.id, user_id) for user_id in self._admins.get(chat.id, {})]

    def _get_me(self, params: JSON) -> JSON:
        return BOT_USER.to_api() | {
            "username": self.bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _set_webhook(self, params: JSON) -> bool:
        self._webhook_slots = None  # max_connections may have changed
        if not params.get("url"):
            self.webhook = None
        else:
            self.webhook = params
        return True

    def _delete_webhook(self, params: JSON) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    def _get_webhook_info(self, params: JSON) -> JSON:
        return {
            "url": (self.webhook or {}).get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    def _send_message(self, params: JSON) -> JSON:
        chat = self._target_chat(params)
        self._check_bot_may_send(chat)
        text = self._rendered(params)
        markup = _validate_reply_markup(params.get("reply_markup"), chat)
        thread_id = params.get("message_thread_id")
        if chat.is_forum and thread_id is not None and thread_id not in chat.topics:
            raise bad_request("message thread not found")
        if chat.is_forum and thread_id in chat.closed_topics:
            raise bad_request("TOPIC_CLOSED")
        self._check_group_limit("sendMessage", chat.id)
        reply = params.get("reply_parameters") or {}
        message = FakeMessage(
            message_id=next(self._message_ids[chat.id]),
            chat_id=chat.id,
            sender=BOT_USER,
            text=text,
            date=int(time.time()),
            thread_id=thread_id if chat.is_forum else None,
            reply_markup=markup,
            raw_text=params["text"],
            parse_mode=params.get("parse_mode"),
            reply_to=reply.get("message_id") or params.get("reply_to_message_id"),
        )
        chat.messages.append(message)
        return self._message_api(message)

    def _send_document(self, params: JSON) -> JSON:
        """A file uploaded with the request (multipart); the fake knows no stored file ids."""
        chat = self._target_chat(params)
        self._check_bot_may_send(chat)
        document = params.get("document")
        if isinstance(document, str):
            raise bad_request("wrong remote file identifier specified")
        if not isinstance(document, dict) or "content" not in document:
            raise bad_request("there is no document in the request")
        content = document["content"]
        if not content:
            raise bad_request("file must be non-empty")
        if len(content) > 50 * 1024 * 1024:
            raise ApiError(413, "Request Entity Too Large")
        caption = params.get("caption") or ""
        if params.get("parse_mode"):
            caption = render_html(caption) if str(params["parse_mode"]).upper() == "HTML" \
                else caption
        if _utf16_len(caption) > 1024:
            raise bad_request("message caption is too long")
        markup = _validate_reply_markup(params.get("reply_markup"), chat)
        self._check_group_limit("sendDocument", chat.id)
        message = FakeMessage(
            message_id=next(self._message_ids[chat.id]),
            chat_id=chat.id,
            sender=BOT_USER,
            text=caption,
            date=int(time.time()),
            reply_markup=markup,
            document={"file_name": document.get("file_name") or "document",
                      "mime_type": document.get("content_type") or "application/octet-stream",
                      "content": content},
        )
        chat.messages.append(message)
        return self._message_api(message)

    def _edit_message_text(self, params: JSON) -> JSON:
        chat, message = self._editable(params)
        text = self._rendered(params)
        # Telegram drops an inline keyboard the edit does not repeat.
        markup = _validate_reply_markup(params.get("reply_markup"), chat)
        self._check_group_limit("editMessageText", chat.id)
        self._edit(message, text, params["text"], markup, params.get("parse_mode"))
        return self._message_api(message)

    def _edit_message_reply_markup(self, params: JSON) -> JSON:
        chat, message = self._editable(params)
        markup = _validate_reply_markup(params.get("reply_markup"), chat)
        self._check_group_limit("editMessageReplyMarkup", chat.id)
        self._edit(
            message, message.text, message.raw_text or message.text, markup, message.parse_mode
        )
        return self._message_api(message)

    def _delete_message(self, params: JSON) -> bool:
        chat = self._target_chat(params)
        try:
            message = chat.message(int(params.get("message_id") or 0))
        except LookupError:
            raise bad_request("message to delete not found") from None
        if message.deleted:
            raise bad_request("message to delete not found")
        message.deleted = True
        return True

    def _answer_callback_query(self, params: JSON) -> bool:
        press = self.presses.get(str(params.get("callback_query_id")))
        if press is None or press.answer is not None \
                or time.monotonic() - press.at > self.callback_ttl:
            raise bad_request(TOO_OLD)
        if len(params.get("text") or "") > MAX_CALLBACK_ANSWER:
            raise bad_request("MESSAGE_TOO_LONG")
        press.answer = params
        return True

    @staticmethod
    def _commands_key(params: JSON) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), params.get("language_code") or ""

    def _set_my_commands(self, params: JSON) -> bool:
        # "A two-letter ISO 639-1 language code. If empty, commands will be applied to all
        # users from the given scope, for whose language there are no dedicated commands."
        language = params.get("language_code")
        if language and not re.fullmatch(r"[a-z]{2}", str(language)):
            raise bad_request("LANG_CODE_INVALID")
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            if not COMMAND_NAME_RE.match(str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._commands_key(params)] = commands
        return True

    def _get_my_commands(self, params: JSON) -> list[JSON]:
        return self.commands.get(self._commands_key(params), [])

    def _delete_my_commands(self, params: JSON) -> bool:
        self.commands.pop(self._commands_key(params), None)
        return True


@contextlib.asynccontextmanager
async def polling(app: Application, *, timeout: float = 5.0) -> AsyncIterator[Application]:
    """Run `app` with long polling for the block, then stop it in the order PTB expects."""
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.0, timeout=timeout)
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()
