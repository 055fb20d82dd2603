"""A local imitation of the Discord REST API and gateway, for driving the real discord.py.

The tests of the Discord adapter run the genuine discord.py `Client` (with its
`CommandTree` and `ui.View`s) against this server on 127.0.0.1, so that what is
checked is what a Discord user would see: the messages in a channel, a player's DMs,
the ephemeral answers only they can read. Nothing of discord.py is mocked; only the
addresses it talks to are changed (`Route.BASE`, `DiscordWebSocket.DEFAULT_GATEWAY`).

Payload shapes, error codes and limits follow Discord's documented behaviour as far as
the bot can notice it (see docs/platforms.md): a bot that breaks a platform rule
(an empty or too long message, a sixth button in a row, a late interaction answer, a
DM to a user who closed them, a followup after 15 minutes) gets the error the real
Discord would give, so the adapter's handling of it can be tested.

Usage::

    async with FakeDiscord() as fake:          # also points discord.py here, then back
        client = MyClient(intents=..., **fake.client_options())
        async with fake.running(client):       # started, ready; closed cleanly on exit
            await tree.sync(guild=discord.Object(fake.guild.id))
            interaction = await fake.slash("play", user="alice", options={"game": "ochs"})
            await fake.wait_for(lambda: interaction.acknowledged)
            assert fake.ephemerals("alice")[-1].content == "..."
            press = await fake.click(fake.channel_messages(fake.channel)[-1], "draw", user="bob")

Reading the outcome: `channel_messages`, `dms`, `ephemerals` (what users see, every
version kept in `FakeMessage.history`), `interactions`, `events` (creations, edits,
deletions, syncs...) and `requests` (method, route template, time, status) for counts
and benchmarks. Making things go wrong: a user with `dms_open=False` (dave by default),
`fail_next(...)`, `rate_limit(...)`, and `clock.advance(...)` to age interaction tokens.
As strict as Discord by default: an interaction must be answered within 3 s, its token
lives 15 minutes, and Discord-like rate limits hold (`discord_like_limits=False` or a
shorter `pace` to relax them, each with a reason). One FakeDiscord at a time per process:
discord.py's addresses are class attributes.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import fnmatch
import itertools
import json
import math
import re
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# Discord's component types that a user can press or pick from (buttons and selects).
BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
ACTION_ROW = 1

# Option types of application commands whose value is a snowflake resolved in `resolved`.
OPTION_USER, OPTION_CHANNEL, OPTION_ROLE, OPTION_MENTIONABLE = 6, 7, 8, 9

Json = dict[str, Any]


def _perm_value(perms: discord.Permissions) -> str:
    return str(perms.value)


EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    add_reactions=True,
    embed_links=True,
    attach_files=True,
    use_application_commands=True,
    create_public_threads=True,
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(
    manage_messages=True, manage_threads=True, create_private_threads=True
)


class FakeClock:
    """Monotonic time that a test can push forward, to expire interaction tokens at once."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self.offset

    def wall(self) -> datetime:
        return datetime.fromtimestamp(time.time() + self.offset, UTC)

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    global_name: str | None = None  # the display name, when not the capitalized username

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
        }


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: discord.Permissions
    position: int = 0
    managed: bool = False

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": _perm_value(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    """A guild text channel (type 0), a thread (11 public, 12 private) or a DM (type 1)."""

    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    created_at: str = ""
    archived: bool = False  # threads: Discord archives idle ones
    # Permission bits a member overwrite denies the bot here (a thread follows its parent).
    bot_denied: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: list[FakeRole] = field(default_factory=list)
    channel_ids: list[int] = field(default_factory=list)
    # user id -> role ids (besides @everyone)
    members: dict[int, list[int]] = field(default_factory=dict)
    joined_at: str = ""


@dataclass
class FakeMessage:
    """One message as Discord stores it, with every version the bot gave it."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    components: list[Json] = field(default_factory=list)
    embeds: list[Json] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    # Set for an ephemeral message: the only user who sees it.
    visible_to: int | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    mentions: list[int] = field(default_factory=list)
    timestamp: str = ""
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[Json] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred answer still showing "Bot is thinking…"."""
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> int:
        return len(self.history) - 1

    def all_components(self) -> list[Json]:
        """Every component, action rows flattened, in reading order."""
        out: list[Json] = []

        def walk(items: list[Json]) -> None:
            for item in items:
                out.append(item)
                walk(item.get("components", []))
                if "accessory" in item:
                    walk([item["accessory"]])

        walk(self.components)
        return out

    def buttons(self) -> list[Json]:
        return [c for c in self.all_components() if c.get("type") == BUTTON]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def component(self, custom_id: str) -> Json:
        for c in self.all_components():
            if c.get("custom_id") == custom_id:
                return c
        raise KeyError(f"message {self.id} has no component {custom_id!r}: {self.custom_ids()}")

    def snapshot(self) -> Json:
        return {
            "content": self.content,
            "components": copy.deepcopy(self.components),
            "embeds": copy.deepcopy(self.embeds),
            "flags": self.flags,
            "attachments": list(self.attachments),
        }


@dataclass
class FakeInteraction:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    created_at: float
    data: Json
    message_id: int | None = None
    response_type: int | None = None
    response_message_id: int | None = None
    autocomplete_choices: list[Json] | None = None
    modal: Json | None = None
    followup_ids: list[int] = field(default_factory=list)
    # The gateway connection Discord sent it on (its `via` name, "" for the plain address);
    # None when no connection of its shard was up: the bot never saw it.
    delivered_to: str | None = None

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


@dataclass
class RequestRecord:
    method: str
    path: str
    route: str
    at: float
    status: int = 0
    body: Any = None
    query: dict[str, str] = field(default_factory=dict)
    uploads: dict[str, bytes] = field(default_factory=dict)  # multipart files by name
    sender: str = ""  # the `via` name in the address the caller used ("" for the plain one)

    @property
    def key(self) -> str:
        return f"{self.method} {self.route}"


@dataclass
class Event:
    """Something a user could notice: a message appearing, changing or vanishing, etc."""

    kind: str
    at: float
    data: Json


@dataclass
class _Limit:
    """A declared rate limit: `limit` requests per `per` seconds for each major parameter."""

    pattern: str
    limit: int
    per: float
    # major parameter (channel, guild or webhook) -> (window start, requests in window)
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)

    def take(self, major: str, now: float) -> tuple[bool, int, float]:
        """Count one request; answer (allowed, remaining, seconds until the window resets)."""
        start, used = self.windows.get(major, (now, 0))
        if now - start >= self.per:
            start, used = now, 0
        reset_after = start + self.per - now
        if used >= self.limit:
            return False, 0, reset_after
        self.windows[major] = (start, used + 1)
        return True, self.limit - used - 1, reset_after


# Approximations of Discord's per-route buckets (the real ones are discovered from the
# X-RateLimit headers and may change): 5 messages per 5 s per channel is the
# long-standing figure, interaction webhooks allow 5 per 2 s, and a bot has 50 requests
# per second overall, interaction callbacks excepted.
DISCORD_LIKE_LIMITS: tuple[tuple[str, int, float], ...] = (
    ("POST /channels/{channel_id}/messages", 5, 5.0),
    ("PATCH /channels/{channel_id}/messages/{message_id}", 5, 5.0),
    ("DELETE /channels/{channel_id}/messages/{message_id}", 5, 1.0),
    ("POST /webhooks/{application_id}/{token}", 5, 2.0),
    ("PATCH /webhooks/{application_id}/{token}/messages/{message_id}", 5, 2.0),
)
DISCORD_GLOBAL_LIMIT = (50, 1.0)


@dataclass
class _Failure:
    pattern: str
    status: int
    retry_after: float
    code: int
    message: str
    is_global: bool
    remaining: int


class DiscordError(Exception):
    """Raised inside a handler to answer with Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


# The locales Discord accepts in *_localizations (its "Locales" reference table).
DISCORD_LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk",
    "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})
# Chat-input command and option names: 1-32 letters (any script), digits, - or _,
# lowercase where the script has case (Discord's ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$).
_COMMAND_NAME = re.compile(r"[-_\w]{1,32}")


def _valid_name(name: object) -> bool:
    return isinstance(name, str) and bool(_COMMAND_NAME.fullmatch(name)) and name == name.lower()


def _check_command(cmd: Json, path: str) -> None:
    """Names, descriptions and their localizations as Discord validates them."""
    if not _valid_name(cmd.get("name", "")):
        raise _form_error(f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Invalid name.")
    description = cmd.get("description", "")
    if not isinstance(description, str) or len(description) > 100 or (
            path.count(".") and not description):
        raise _form_error(f"{path}.description", "BASE_TYPE_BAD_LENGTH",
                          "Must be between 1 and 100 in length.")
    for kind, check in (("name_localizations", _valid_name),
                         ("description_localizations",
                          lambda d: isinstance(d, str) and 1 <= len(d) <= 100)):
        localized = cmd.get(kind) or {}
        for locale, text in localized.items():
            if locale not in DISCORD_LOCALES:
                raise _form_error(f"{path}.{kind}.{locale}", "LOCALE_INVALID",
                                  "Invalid locale.")
            if not check(text):
                raise _form_error(f"{path}.{kind}.{locale}",
                                  "APPLICATION_COMMAND_INVALID_NAME" if kind.startswith("name")
                                  else "BASE_TYPE_BAD_LENGTH", "Invalid localization.")
    for locale in _localized_names_clash(cmd.get("options") or []):
        raise _form_error(f"{path}.options", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                          f"Option names must be unique in {locale}.")
    for i, option in enumerate(cmd.get("options") or []):
        if option.get("type") in (1, 2):  # subcommand (group): checked like a command
            _check_command(option, f"{path}.options.{i}")
            continue
        if not _valid_name(option.get("name", "")):
            raise _form_error(f"{path}.options.{i}.name", "APPLICATION_COMMAND_INVALID_NAME",
                              "Invalid name.")
        _check_command({**option, "options": []}, f"{path}.options.{i}")
        for j, choice in enumerate(option.get("choices") or []):
            names = [choice.get("name", ""), *(choice.get("name_localizations") or {}).values()]
            if not all(isinstance(n, str) and 1 <= len(n) <= 100 for n in names):
                raise _form_error(f"{path}.options.{i}.choices.{j}.name", "BASE_TYPE_BAD_LENGTH",
                                  "Must be between 1 and 100 in length.")
            for locale in choice.get("name_localizations") or {}:
                if locale not in DISCORD_LOCALES:
                    raise _form_error(f"{path}.options.{i}.choices.{j}.name_localizations",
                                      "LOCALE_INVALID", "Invalid locale.")


def _localized_names_clash(items: list[Json]) -> list[str]:
    """Locales in which two commands (or two options of one command) would read alike."""
    clashes = []
    locales = {loc for item in items for loc in (item.get("name_localizations") or {})}
    for locale in sorted(locales):
        seen = [(item.get("name_localizations") or {}).get(locale, item.get("name"))
                for item in items]
        if len(seen) != len(set(seen)):
            clashes.append(locale)
    return clashes


def _form_error(path: str, code: str, message: str) -> DiscordError:
    errors: Json = {}
    node = errors
    parts = path.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = {"_errors": [{"code": code, "message": message}]}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


class _Session:
    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None = None,
                 via: str = "") -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard  # (id, count) as IDENTIFY gave it; None: the one shard of one
        self.via = via
        self.seq = 0
        self.backlog: list[Json] = []
        self.ws: web.WebSocketResponse | None = None


@dataclass
class _Route:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Callable[..., Awaitable[Any]]
    auth: bool


class FakeDiscord:
    """Discord's REST API and gateway on 127.0.0.1, with a small world to play in.

    The default world: the bot "tapis"; users alice, bob, carol (DMs open) and dave
    (DMs closed); a guild with #general, #cards and a public thread "table-1" under
    #cards. Add more with `add_user`, `add_guild`, `add_channel`, `add_thread` before
    the client connects.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        heartbeat_interval: float = 0.5,
        ack_deadline: float | None = 3.0,
        token_ttl: float = 15 * 60,
        default_world: bool = True,
        discord_like_limits: bool = True,
        pace: float = 1.0,
    ) -> None:
        """`discord_like_limits` (the default): Discord's per-route buckets and its global
        limit (DISCORD_LIKE_LIMITS), announced in X-RateLimit headers, 429 beyond them.
        `pace`: every such window multiplied by it (1.0 is Discord's); less than 1 is an
        explicit leniency for tests that cannot spend Discord's real time, with the same
        rules. `discord_like_limits=False`: no limit but those a test declares."""
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.ack_deadline = ack_deadline
        self.token_ttl = token_ttl
        self.clock = FakeClock()
        self._last_id = 0

        self.requests: list[RequestRecord] = []
        self.events: list[Event] = []
        self.unhandled: list[RequestRecord] = []
        self.server_errors: list[str] = []
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_channel: dict[int, list[FakeMessage]] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.global_commands: list[Json] = []
        self.guild_commands: dict[int, list[Json]] = {}
        self.heartbeats = 0
        self.identifies = 0
        self.resumes = 0
        # Discord's sharding rules: more guilds than this on one connection is refused
        # (close code 4011); GET /gateway/bot recommends one shard per `guilds_per_shard`.
        self.max_guilds_per_shard = 2_500
        self.guilds_per_shard = 1_000
        self.session_starts = 1_000  # IDENTIFYs left today (session_start_limit.remaining)
        self.undelivered: list[FakeInteraction] = []

        self._failures: list[_Failure] = []
        self._limits: list[_Limit] = []
        self._global_limit: _Limit | None = None
        if discord_like_limits:
            for pattern, limit, per in DISCORD_LIKE_LIMITS:
                self.rate_limit(pattern, limit, per * pace)
            global_limit, per = DISCORD_GLOBAL_LIMIT
            self.global_rate_limit(global_limit, per * pace)
        self._sessions: dict[str, _Session] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._changed = asyncio.Event()
        self._component_ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._routes: list[_Route] = []
        self._saved_discord: tuple[str, yarl.URL] | None = None
        self.port = 0

        self.bot = self.add_user("tapis", bot=True)
        self.application_id = self.bot.id
        self.owner = self.add_user("owner")
        self._register_routes()
        if default_world:
            self._build_default_world()

    # ------------------------------------------------------------------ world

    def snowflake(self) -> int:
        ms = int(self.clock.wall().timestamp() * 1000)
        self._last_id = max(self._last_id + 1, (ms - DISCORD_EPOCH_MS) << 22)
        return self._last_id

    def _now_iso(self) -> str:
        return self.clock.wall().isoformat()

    def add_user(
        self, name: str, *, bot: bool = False, dms_open: bool = True, locale: str = "en-US",
        global_name: str | None = None,
    ) -> FakeUser:
        """`global_name`: the display name (Discord allows 1 to 32 characters)."""
        if global_name is not None and not 1 <= len(global_name) <= 32:
            raise ValueError("Discord display names are 1 to 32 characters")
        user = FakeUser(self.snowflake(), name, bot=bot, dms_open=dms_open, locale=locale,
                        global_name=global_name)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, members: list[FakeUser] | None = None, *,
                  shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild the bot is in; with `shard` (id, count), one whose id Discord routes to
        that shard (guilds made in one millisecond would all share a shard)."""
        guild_id = self.snowflake()
        if shard is not None:
            ms = guild_id >> 22
            guild_id = (ms + (shard[0] - ms) % shard[1]) << 22
            self._last_id = max(self._last_id, guild_id)
        guild = FakeGuild(guild_id, name, self.owner.id, joined_at=self._now_iso())
        guild.roles.append(FakeRole(guild.id, "@everyone", EVERYONE_PERMISSIONS))
        bot_role = FakeRole(self.snowflake(), self.bot.name, BOT_PERMISSIONS, 1, managed=True)
        guild.roles.append(bot_role)
        self.guilds[guild.id] = guild
        guild.members[self.bot.id] = [bot_role.id]
        guild.members[self.owner.id] = []
        for user in members or []:
            guild.members[user.id] = []
        return guild

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(
            self.snowflake(), 0, name, guild_id=guild.id, position=len(guild.channel_ids)
        )
        channel.created_at = self._now_iso()
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_thread(self, parent: FakeChannel, name: str, *, private: bool = False) -> FakeChannel:
        thread = FakeChannel(
            self.snowflake(),
            12 if private else 11,
            name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.owner.id,
        )
        thread.created_at = self._now_iso()
        self.channels[thread.id] = thread
        return thread

    def _build_default_world(self) -> None:
        self.alice = self.add_user("alice")
        self.bob = self.add_user("bob")
        self.carol = self.add_user("carol", locale="fr")
        self.dave = self.add_user("dave", dms_open=False)
        self.guild = self.add_guild("Tapis Test", [self.alice, self.bob, self.carol, self.dave])
        self.channel = self.add_channel(self.guild, "general")
        self.cards = self.add_channel(self.guild, "cards")
        self.thread = self.add_thread(self.cards, "table-1")

    def user(self, ref: FakeUser | int | str) -> FakeUser:
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, int):
            return self.users[ref]
        for user in self.users.values():
            if user.name == ref:
                return user
        raise KeyError(f"no fake user named {ref!r}")

    def get_channel(self, ref: FakeChannel | int | str) -> FakeChannel:
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int):
            return self.channels[ref]
        for channel in self.channels.values():
            if channel.name == ref:
                return channel
        raise KeyError(f"no fake channel named {ref!r}")

    def dm_channel(self, user: FakeUser | int | str) -> FakeChannel:
        """The DM channel between the bot and `user`, opened if need be."""
        user = self.user(user)
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient_id == user.id:
                return channel
        channel = FakeChannel(self.snowflake(), 1, recipient_id=user.id)
        self.channels[channel.id] = channel
        return channel

    # --------------------------------------------------------------- payloads

    def member_payload(self, guild: FakeGuild, user: FakeUser, *, with_user: bool = True) -> Json:
        payload: Json = {
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in guild.members[user.id]],
            "joined_at": guild.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = user.payload()
        return payload

    def member_permissions(self, guild: FakeGuild, user: FakeUser) -> discord.Permissions:
        perms = discord.Permissions.none()
        for role in guild.roles:
            if role.id == guild.id or role.id in guild.members[user.id]:
                perms |= role.permissions
        if user.id == guild.owner_id:
            perms = discord.Permissions.all()
        return perms

    def bot_permissions(self, channel: FakeChannel) -> discord.Permissions:
        """The bot's rights in a guild channel: its roles', less what the channel's (or,
        for a thread, its parent's) overwrite denies it, as Discord computes them."""
        assert channel.guild_id is not None
        perms = self.member_permissions(self.guilds[channel.guild_id], self.bot)
        if perms.administrator:
            return discord.Permissions.all()
        where = self.channels[channel.parent_id] if channel.parent_id else channel
        return discord.Permissions(perms.value & ~where.bot_denied)

    def deny_bot(self, channel: FakeChannel, perms: discord.Permissions) -> None:
        """An admin takes rights from the bot in `channel` by a member overwrite."""
        channel.bot_denied = perms.value

    def channel_payload(self, channel: FakeChannel) -> Json:
        if channel.is_dm:
            assert channel.recipient_id is not None
            return {
                "id": str(channel.id),
                "type": 1,
                "last_message_id": self._last_message_id(channel.id),
                "flags": 0,
                "recipients": [self.users[channel.recipient_id].payload()],
            }
        payload: Json = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "last_message_id": self._last_message_id(channel.id),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if channel.is_thread:
            payload.update(
                parent_id=str(channel.parent_id),
                owner_id=str(channel.owner_id),
                message_count=sum(1 for m in self._visible(channel.id)),
                total_message_sent=sum(1 for m in self._visible(channel.id)),
                member_count=len(self.guilds[channel.guild_id or 0].members),
                thread_metadata={
                    "archived": channel.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": channel.created_at,
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": channel.created_at,
                },
            )
        else:
            payload.update(
                position=channel.position,
                permission_overwrites=[
                    {"id": str(self.bot.id), "type": 1, "allow": "0",
                     "deny": str(channel.bot_denied)}] if channel.bot_denied else [],
                parent_id=None,
                topic=None,
                nsfw=False,
                default_auto_archive_duration=1440,
                default_thread_rate_limit_per_user=0,
            )
        return payload

    def guild_payload(self, guild: FakeGuild, intents: int = INTENT_GUILD_MEMBERS) -> Json:
        channels = [self.channels[c] for c in guild.channel_ids]
        threads = [c for c in self.channels.values() if c.is_thread and c.guild_id == guild.id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": str(channels[0].id) if channels else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "widget_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "features": [],
            "application_id": None,
            "roles": [r.payload() for r in guild.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(guild.members),
            "voice_states": [],
            # Without the privileged GUILD_MEMBERS intent Discord lists the bot alone.
            "members": [
                self.member_payload(guild, self.users[u])
                for u in guild.members
                if intents & INTENT_GUILD_MEMBERS or u == self.bot.id
            ],
            "channels": [
                {k: v for k, v in self.channel_payload(c).items() if k != "guild_id"}
                for c in channels
            ],
            "threads": [self.channel_payload(t) for t in threads],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "activity_instances": [],
            "incidents_data": None,
        }

    def message_payload(self, message: FakeMessage) -> Json:
        author = self.users[message.author_id]
        payload: Json = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "type": message.type,
            "content": message.content,
            "author": author.payload(),
            "timestamp": message.timestamp,
            "edited_timestamp": message.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self.users[u].payload() for u in message.mentions if u in self.users],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(i + 1),
                    "filename": name,
                    "size": 0,
                    "url": f"http://127.0.0.1:{self.port}/attachments/{name}",
                    "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{name}",
                }
                for i, name in enumerate(message.attachments)
            ],
            "embeds": copy.deepcopy(message.embeds),
            "components": copy.deepcopy(message.components),
            "pinned": False,
            "flags": message.flags,
        }
        if message.guild_id is not None:
            payload["guild_id"] = str(message.guild_id)
        if message.webhook_id is not None:
            payload["webhook_id"] = str(message.webhook_id)
            payload["application_id"] = str(self.application_id)
        if message.interaction_id is not None and message.interaction_id in self.interactions:
            inter = self.interactions[message.interaction_id]
            payload["interaction_metadata"] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": self.users[inter.user_id].payload(),
                "authorizing_integration_owners": self._integration_owners(inter.guild_id),
            }
        return payload

    def _gateway_message_payload(self, message: FakeMessage, session: _Session) -> Json:
        payload = self.message_payload(message)
        guild = self.guilds.get(message.guild_id or 0)
        if guild is not None and message.author_id in guild.members:
            payload["member"] = self.member_payload(
                guild, self.users[message.author_id], with_user=False
            )
        # Without the privileged MESSAGE_CONTENT intent a bot reads other users' guild
        # messages with their content blanked, unless it is mentioned.
        if (
            not session.intents & INTENT_MESSAGE_CONTENT
            and message.guild_id is not None
            and message.author_id != self.bot.id
            and self.bot.id not in message.mentions
        ):
            payload.update(content="", embeds=[], attachments=[], components=[])
        return payload

    def _integration_owners(self, guild_id: int | None) -> Json:
        return {"0": str(guild_id)} if guild_id is not None else {"1": str(self.owner.id)}

    def _last_message_id(self, channel_id: int) -> str | None:
        in_channel = self._by_channel.get(channel_id)
        return str(in_channel[-1].id) if in_channel else None

    # ------------------------------------------------------ what users see

    def _visible(self, channel_id: int) -> list[FakeMessage]:
        return [
            m
            for m in self._by_channel.get(channel_id, [])
            if not m.deleted and m.visible_to is None
        ]

    def channel_messages(self, channel: FakeChannel | int | str) -> list[FakeMessage]:
        """What everybody sees in a guild channel or thread, oldest first."""
        return self._visible(self.get_channel(channel).id)

    def dms(self, user: FakeUser | int | str) -> list[FakeMessage]:
        """What `user` sees in their DM with the bot, oldest first."""
        return self._visible(self.dm_channel(user).id)

    def ephemerals(
        self, user: FakeUser | int | str, channel: FakeChannel | int | str | None = None
    ) -> list[FakeMessage]:
        """The "Only you can see this" messages shown to `user`, oldest first."""
        uid = self.user(user).id
        cid = None if channel is None else self.get_channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.visible_to == uid and not m.deleted and (cid is None or m.channel_id == cid)
        ]

    def message(self, message_id: int) -> FakeMessage:
        return self.messages[message_id]

    def requests_to(self, pattern: str) -> list[RequestRecord]:
        """Requests whose "METHOD /route/{template}" or "METHOD /concrete/path" match."""
        return [r for r in self.requests if _matches(pattern, r)]

    def commands(self, guild: FakeGuild | int | None = None) -> list[Json]:
        """The application commands Discord would show: global, or a guild's own."""
        if guild is None:
            return self.global_commands
        gid = guild.id if isinstance(guild, FakeGuild) else guild
        return self.guild_commands.get(gid, [])

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = ""
    ) -> Any:
        """Wait until `predicate()` is truthy (checked after every change) and return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fake Discord: timed out waiting for {what or predicate}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.05))

    def _record(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, time.monotonic(), data))
        self._touch()

    def _touch(self) -> None:
        self._changed.set()

    # ------------------------------------------------------ failure injection

    def fail_next(
        self,
        route_pattern: str,
        status: int = 429,
        *,
        retry_after: float = 0.05,
        code: int = 0,
        message: str = "",
        is_global: bool = False,
        times: int = 1,
    ) -> None:
        """Answer the next `times` requests matching `route_pattern` with an error.

        The pattern is an fnmatch pattern over "METHOD /route/{template}" or
        "METHOD /concrete/path" (e.g. "POST /channels/*/messages"). A 429 carries the
        `Via` header, JSON `retry_after` and X-RateLimit headers, so discord.py sleeps
        and retries as it would against Discord.
        """
        if not message:
            message = "You are being rate limited." if status == 429 else f"Injected {status}"
        self._failures.append(
            _Failure(route_pattern, status, retry_after, code, message, is_global, times)
        )

    def rate_limit(self, route_pattern: str, limit: int, per: float) -> None:
        """Enforce `limit` requests per `per` seconds on matching routes, per channel,
        guild or interaction token, announcing the bucket in X-RateLimit headers as
        Discord does (so discord.py mostly waits before it would be refused)."""
        self._limits.append(_Limit(route_pattern, limit, per))

    def global_rate_limit(self, limit: int, per: float = 1.0) -> None:
        """Enforce a bot-wide limit on all requests but interaction callbacks."""
        self._global_limit = _Limit("*", limit, per)

    def _bucket_of(self, record: RequestRecord) -> str:
        for limit in self._limits:
            if _matches(limit.pattern, record):
                return _bucket(limit.pattern)
        return _bucket(record.route)

    def _check_limits(self, record: RequestRecord, params: dict[str, str]) -> dict[str, str]:
        """Count the request against the declared limits; the headers to answer with."""
        now = time.monotonic()
        exempt = record.route.endswith("/callback")
        if self._global_limit is not None and not exempt:
            allowed, _, reset_after = self._global_limit.take("", now)
            if not allowed:
                raise _RateLimitedError(reset_after, is_global=True)
        major = params.get("channel_id") or params.get("guild_id") or params.get("token") or ""
        for limit in self._limits:
            if _matches(limit.pattern, record):
                allowed, remaining, reset_after = limit.take(major, now)
                if not allowed:
                    raise _RateLimitedError(reset_after, bucket=_bucket(limit.pattern))
                return _ratelimit_headers(
                    limit.limit, remaining, reset_after, _bucket(limit.pattern)
                )
        # No declared limit: advertise a roomy bucket, so that discord.py neither
        # serialises nor pauses concurrent requests on one route.
        return _ratelimit_headers(1000, 999, 1.0, _bucket(record.route))

    # --------------------------------------------------------------- server

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    def base_url_via(self, name: str) -> str:
        """The REST address for a caller that the fake records as `name` (`sender` of its
        requests, `delivered_to` of the interactions sent on its gateway connections): so
        that a test running several bot processes can tell who did what."""
        return f"http://127.0.0.1:{self.port}/via/{name}/api/v10"

    @property
    def gateway_url(self) -> yarl.URL:
        return yarl.URL(f"ws://127.0.0.1:{self.port}/")

    def _gateway_url_via(self, via: str) -> yarl.URL:
        return self.gateway_url if not via else yarl.URL(
            f"ws://127.0.0.1:{self.port}/via/{via}/")

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/via/{via}", self._gateway)
        app.router.add_get("/via/{via}/", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_route("*", "/via/{via}/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=aiohttp.WSCloseCode.GOING_AWAY)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def point_discord_here(self) -> None:
        """Make discord.py's REST and gateway addresses this server's (undo: `restore`)."""
        if self._saved_discord is None:
            self._saved_discord = (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            )
        discord.http.Route.BASE = self.base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self.gateway_url

    def restore_discord(self) -> None:
        if self._saved_discord is not None:
            base, gateway = self._saved_discord
            discord.http.Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
            self._saved_discord = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self.point_discord_here()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.restore_discord()
        await self.close()

    @staticmethod
    def client_options() -> Json:
        """Client keyword arguments that make start-up take a fraction of a second."""
        return {"guild_ready_timeout": 0.05, "chunk_guilds_at_startup": False}

    @contextlib.asynccontextmanager
    async def running(
        self, client: discord.Client, *, timeout: float = 10.0
    ) -> AsyncIterator[discord.Client]:
        """Run `client` against this server until it is ready; close it cleanly on exit."""
        task = asyncio.create_task(client.start(self.token), name="fake-discord-client")
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait(
                {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if task in done:
                task.result()
                raise RuntimeError("discord client stopped before it was ready")
            if ready not in done:
                raise TimeoutError("discord client did not become ready")
            yield client
        finally:
            ready.cancel()
            await client.close()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, timeout)

    # -------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: _Session | None = None
        via = request.match_info.get("via", "")
        try:
            await ws.send_json(
                {"op": 10, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}
            )
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    self.heartbeats += 1
                    await ws.send_json({"op": 11})
                elif op == 2:
                    session = await self._identify(ws, data, via)
                elif op == 6:
                    session = await self._resume(ws, data)
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: Json, via: str = ""
                        ) -> _Session | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        if shard is not None:
            if not (isinstance(shard, list) and len(shard) == 2
                    and all(type(n) is int for n in shard)  # a bool is no shard number
                    and shard[1] >= 1 and 0 <= shard[0] < shard[1]):
                await ws.close(code=4010, message=b"Invalid shard.")
                return None
            shard = (shard[0], shard[1])
        if sum(1 for g in self.guilds if _on_shard(shard, g)) > self.max_guilds_per_shard:
            await ws.close(code=4011, message=b"Sharding required.")
            return None
        if self.session_starts <= 0:
            # Discord ends the connection when the day's session starts are spent.
            await ws.close(code=4000, message=b"Session start limit reached.")
            return None
        self.session_starts -= 1
        self.identifies += 1
        session = _Session(uuid.uuid4().hex, int(data.get("intents", 0)), shard, via)
        self._sessions[session.id] = session
        session.ws = ws
        await self._send(
            session,
            "READY",
            {
                "v": 10,
                "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds
                           if _on_shard(shard, g)],
                **({"shard": list(shard)} if shard is not None else {}),
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": str(self._gateway_url_via(via)),
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "_trace": ["fake-discord"],
            },
        )
        for guild in self.guilds.values():
            if _on_shard(shard, guild.id):
                await self._send(session, "GUILD_CREATE",
                                 self.guild_payload(guild, session.intents))
        self._touch()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> _Session | None:
        session = self._sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.token:
            await ws.send_json({"op": 9, "d": False})
            return None
        self.resumes += 1
        session.ws = ws
        seen = data.get("seq") or 0
        for frame in session.backlog:
            if frame["s"] > seen:
                await ws.send_json(frame)
        await self._send(session, "RESUMED", {"_trace": ["fake-discord"]})
        self._touch()
        return session

    async def _send(self, session: _Session, event: str, data: Json) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append(frame)
        del session.backlog[:-1000]
        if session.ws is not None and not session.ws.closed:
            # A socket closing under our feet keeps the frame in the backlog for RESUME,
            # as Discord does; it must not turn the REST call that caused it into a 500.
            with contextlib.suppress(ConnectionError, RuntimeError):
                await session.ws.send_json(frame)

    async def dispatch(self, event: str, data: Json, *, intent: int | None = None) -> str | None:
        """Send a gateway event to every identified bot session (subscribed to `intent`)
        of the shard of the event's guild (shard 0 for an event of no guild, a DM's); the
        `via` name of a live connection that got it, None if none did."""
        guild_id = data.get("guild_id")
        guild = int(guild_id) if guild_id is not None else None
        got = None
        for session in list(self._sessions.values()):
            if (intent is None or session.intents & intent) and _on_shard(session.shard, guild):
                await self._send(session, event, data)
                if session.ws is not None and not session.ws.closed:
                    got = session.via
        return got

    def _connected(self) -> bool:
        return any(s.ws is not None and not s.ws.closed for s in self._sessions.values())

    def shard_connections(self) -> dict[tuple[int, int] | None, list[str]]:
        """The live gateway connections by shard (id, count): the `via` name of each."""
        live: dict[tuple[int, int] | None, list[str]] = {}
        for session in self._sessions.values():
            if session.ws is not None and not session.ws.closed:
                live.setdefault(session.shard, []).append(session.via)
        return live

    async def reconnect_request(self) -> None:
        """Ask the bot to reconnect (op 7); discord.py then resumes its session."""
        for session in self._sessions.values():
            if session.ws is not None:
                await session.ws.send_json({"op": 7, "d": None})

    async def drop_connections(self, code: int = 4000) -> None:
        """Close the gateway sockets as a network hiccup would; the bot should resume."""
        for session in self._sessions.values():
            if session.ws is not None:
                await session.ws.close(code=code)

    # ---------------------------------------------------- what users do

    def _new_interaction(
        self,
        type_: int,
        user: FakeUser,
        channel: FakeChannel,
        data: Json,
        message: FakeMessage | None = None,
    ) -> tuple[FakeInteraction, Json]:
        if not self._connected():
            raise RuntimeError("no bot is connected to the fake gateway")
        inter = FakeInteraction(
            id=self.snowflake(),
            token="itok-" + uuid.uuid4().hex,
            type=type_,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            created_at=self.clock.now(),
            data=data,
            message_id=message.id if message else None,
        )
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        channel_payload = self.channel_payload(channel)
        payload: Json = {
            "id": str(inter.id),
            "application_id": str(self.application_id),
            "type": type_,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "token": inter.token,
            "version": 1,
            "locale": user.locale,
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
            "authorizing_integration_owners": self._integration_owners(channel.guild_id),
            "context": 1 if channel.is_dm else 0,
        }
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise ValueError(f"{user.name} is not a member of {guild.name}")
            member = self.member_payload(guild, user)
            member["permissions"] = _perm_value(self.member_permissions(guild, user))
            channel_payload["permissions"] = member["permissions"]
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member,
                app_permissions=_perm_value(self.bot_permissions(channel)),
            )
        else:
            payload["user"] = user.payload()
            payload["app_permissions"] = _perm_value(BOT_PERMISSIONS)
        if message is not None:
            payload["message"] = self.message_payload(message)
        self._record("interaction_create", id=inter.id, type=type_, user=user.id, data=data)
        return inter, payload

    def _find_command(self, name: str, guild_id: int | None) -> tuple[Json, int | None]:
        if guild_id is not None:
            for cmd in self.guild_commands.get(guild_id, []):
                if cmd["name"] == name:
                    return cmd, guild_id
        for cmd in self.global_commands:
            if cmd["name"] == name:
                return cmd, None
        raise LookupError(
            f"/{name} is not registered (global or in this guild): the bot must sync its "
            "command tree before users can see the command"
        )

    def _command_data(
        self, path: str, options: Json, guild_id: int | None, focused: str | None
    ) -> Json:
        names = path.split()
        cmd, cmd_guild = self._find_command(names[0], guild_id)
        data: Json = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1)}
        if cmd_guild is not None:
            data["guild_id"] = str(cmd_guild)
        resolved: Json = {}
        spec_options: list[Json] = cmd.get("options", [])
        holder = data
        for sub in names[1:]:
            spec = next((o for o in spec_options if o["name"] == sub), None)
            if spec is None or spec.get("type") not in (1, 2):
                raise LookupError(f"/{path}: no subcommand {sub!r}")
            node: Json = {"name": sub, "type": spec["type"], "options": []}
            holder.setdefault("options", []).append(node)
            holder, spec_options = node, spec.get("options", [])
        opts = []
        for name, value in options.items():
            spec = next((o for o in spec_options if o["name"] == name), None)
            if spec is None:
                raise LookupError(f"/{path} has no option {name!r}")
            opt_type = spec["type"]
            opt: Json = {"name": name, "type": opt_type, "value": value}
            if opt_type in (OPTION_USER, OPTION_MENTIONABLE) and not isinstance(value, str):
                user = self.user(value)
                opt["value"] = str(user.id)
                resolved.setdefault("users", {})[str(user.id)] = user.payload()
                if guild_id is not None and user.id in self.guilds[guild_id].members:
                    member = self.member_payload(self.guilds[guild_id], user, with_user=False)
                    resolved.setdefault("members", {})[str(user.id)] = member
            elif opt_type == OPTION_CHANNEL and not isinstance(value, str):
                channel = self.get_channel(value)
                opt["value"] = str(channel.id)
                resolved.setdefault("channels", {})[str(channel.id)] = {
                    **self.channel_payload(channel),
                    "permissions": _perm_value(EVERYONE_PERMISSIONS),
                }
            if name == focused:
                opt["focused"] = True
                opt["value"] = str(value)
            opts.append(opt)
        for required in spec_options:
            if required.get("required") and required["name"] not in options and focused is None:
                raise LookupError(f"/{path}: Discord requires option {required['name']!r}")
        if opts:
            holder["options"] = opts
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        command: str,
        *,
        user: FakeUser | int | str,
        channel: FakeChannel | int | str | None = None,
        options: Json | None = None,
    ) -> FakeInteraction:
        """A user runs "/command" (or "/group sub") with `options` in `channel`.

        User and channel options may be given as FakeUser / FakeChannel; they are sent
        as snowflakes with their `resolved` objects, as Discord does.
        """
        who = self.user(user)
        where = self.get_channel(channel if channel is not None else self.channel)
        data = self._command_data(command, options or {}, where.guild_id, None)
        inter, payload = self._new_interaction(2, who, where, data)
        await self._deliver(inter, payload)
        return inter

    async def autocomplete(
        self,
        command: str,
        *,
        user: FakeUser | int | str,
        focused: str,
        options: Json,
        channel: FakeChannel | int | str | None = None,
    ) -> FakeInteraction:
        """A user types into option `focused` of "/command"; the bot answers choices."""
        who = self.user(user)
        where = self.get_channel(channel if channel is not None else self.channel)
        data = self._command_data(command, options, where.guild_id, focused)
        inter, payload = self._new_interaction(4, who, where, data)
        await self._deliver(inter, payload)
        return inter

    async def click(
        self,
        message: FakeMessage | int,
        custom_id: str,
        *,
        user: FakeUser | int | str,
        seen: str = "current",
    ) -> FakeInteraction:
        """A user presses the button `custom_id` of `message`.

        `seen="earlier"` presses a button the message showed in an earlier version, as a
        client that has not yet received the edit does; `seen="forged"` sends any custom
        id at all, as a modified client can.
        """
        return await self._component(message, custom_id, user, None, seen=seen)

    async def choose(
        self,
        message: FakeMessage | int,
        custom_id: str,
        values: list[str],
        *,
        user: FakeUser | int | str,
    ) -> FakeInteraction:
        """A user picks `values` in the select menu `custom_id` of `message`."""
        return await self._component(message, custom_id, user, values)

    async def _component(
        self,
        message: FakeMessage | int,
        custom_id: str,
        user: FakeUser | int | str,
        values: list[str] | None,
        *,
        seen: str = "current",
    ) -> FakeInteraction:
        msg = message if isinstance(message, FakeMessage) else self.messages[message]
        who = self.user(user)
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted: nobody can press its buttons")
        if msg.visible_to is not None and msg.visible_to != who.id:
            raise ValueError(f"{who.name} cannot see the ephemeral message {msg.id}")
        if seen == "forged":
            comp: Json = {"type": BUTTON, "custom_id": custom_id}
        elif seen == "earlier":
            comp = _earlier_component(msg, custom_id)
        else:
            comp = msg.component(custom_id)
        if comp.get("disabled"):
            raise ValueError(f"{custom_id!r} is disabled: Discord does not let users press it")
        data: Json = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] in SELECT_TYPES:
            if values is None:
                raise ValueError(f"{custom_id!r} is a select menu: use choose()")
            allowed = {o["value"] for o in comp.get("options", [])}
            if comp["type"] == 3 and not set(values) <= allowed:
                raise ValueError(f"{values} are not among the options {sorted(allowed)}")
            data["values"] = values
        elif values is not None:
            raise ValueError(f"{custom_id!r} is a button: use click()")
        inter, payload = self._new_interaction(3, who, self.channels[msg.channel_id], data, msg)
        await self._deliver(inter, payload)
        return inter

    async def _deliver(self, inter: FakeInteraction, payload: Json) -> None:
        inter.delivered_to = await self.dispatch("INTERACTION_CREATE", payload)
        if inter.delivered_to is None:
            # Its shard has no connection: Discord shows the user "This interaction failed".
            self.undelivered.append(inter)
            self._record("interaction_undelivered", id=inter.id, guild=inter.guild_id)

    async def say(
        self,
        channel: FakeChannel | int | str,
        content: str,
        *,
        user: FakeUser | int | str,
        mentions: list[FakeUser] | None = None,
    ) -> FakeMessage:
        """A user posts `content` in a channel (or, with a DM channel, to the bot)."""
        who = self.user(user)
        where = self.get_channel(channel)
        msg = self._create_message(
            where, who.id, {"content": content}, mentions=[u.id for u in mentions or []]
        )
        await self._echo("MESSAGE_CREATE", msg)
        return msg

    # ------------------------------------------------------------ messages

    def _validate_message(self, body: Json, *, creating: bool, files: list[str]) -> None:
        content = body.get("content") or ""
        if len(content) > 2000:
            raise _form_error("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
        embeds = body.get("embeds") or []
        if len(embeds) > 10:
            raise _form_error("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        if sum(_embed_size(e) for e in embeds) > 6000:
            raise _form_error("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds 6000.")
        components = body.get("components") or []
        is_v2 = bool((body.get("flags") or 0) & (1 << 15))
        if not is_v2 and len(components) > 5:
            raise _form_error("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        seen: set[str] = set()
        for r, row in enumerate(components):
            if not is_v2 and row.get("type") != ACTION_ROW:
                raise _form_error(f"components.{r}.type", "UNION_TYPE_CHOICES", "Not a row.")
            children = row.get("components", [])
            if row.get("type") == ACTION_ROW:
                buttons = [c for c in children if c.get("type") == BUTTON]
                if len(buttons) > 5 or (len(children) > 1 and len(buttons) != len(children)):
                    raise _form_error(
                        f"components.{r}.components",
                        "BASE_TYPE_MAX_LENGTH",
                        "An action row holds up to 5 buttons or a single select menu.",
                    )
            for c, comp in enumerate(children):
                where = f"components.{r}.components.{c}"
                cid = comp.get("custom_id")
                if cid is not None:
                    if not 1 <= len(cid) <= 100:
                        raise _form_error(
                            f"{where}.custom_id",
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        )
                    if cid in seen:
                        raise _form_error(
                            f"{where}.custom_id",
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        )
                    seen.add(cid)
                elif comp.get("type") == BUTTON and comp.get("style") not in (5, 6):
                    raise _form_error(f"{where}.custom_id", "BASE_TYPE_REQUIRED", "Required.")
                if comp.get("type") == BUTTON and len(comp.get("label") or "") > 80:
                    raise _form_error(
                        f"{where}.label", "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."
                    )
                if comp.get("type") == 3 and not 1 <= len(comp.get("options", [])) <= 25:
                    raise _form_error(
                        f"{where}.options",
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 25 in length.",
                    )
        if creating and not (content or embeds or components or files or body.get("poll")):
            raise DiscordError(400, 50006, "Cannot send an empty message")

    def _with_component_ids(self, components: list[Json]) -> list[Json]:
        # Discord numbers every component of a message it stores and echoes the numbers.
        out = copy.deepcopy(components)

        def walk(items: list[Json]) -> None:
            for item in items:
                item.setdefault("id", next(self._component_ids))
                walk(item.get("components", []))

        walk(out)
        return out

    def _create_message(
        self,
        channel: FakeChannel,
        author_id: int,
        body: Json,
        *,
        files: list[str] | None = None,
        visible_to: int | None = None,
        webhook: bool = False,
        interaction: FakeInteraction | None = None,
        type_: int = 0,
        flags: int = 0,
        mentions: list[int] | None = None,
        validate: bool = True,
    ) -> FakeMessage:
        if validate:
            self._validate_message(body, creating=True, files=files or [])
        msg = FakeMessage(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author_id,
            content=body.get("content") or "",
            components=self._with_component_ids(body.get("components") or []),
            embeds=copy.deepcopy(body.get("embeds") or []),
            attachments=list(files or []),
            flags=flags | ((body.get("flags") or 0) & ~EPHEMERAL),
            type=type_,
            visible_to=visible_to,
            webhook_id=self.application_id if webhook else None,
            interaction_id=interaction.id if interaction else None,
            mentions=mentions or [],
            timestamp=self._now_iso(),
        )
        if visible_to is not None:
            msg.flags |= EPHEMERAL
        msg.history.append(msg.snapshot())
        self.messages[msg.id] = msg
        self._by_channel.setdefault(channel.id, []).append(msg)
        self._record("message_create", id=msg.id, channel=channel.id, **msg.snapshot())
        return msg

    def _edit_message(self, msg: FakeMessage, body: Json, files: list[str] | None = None) -> None:
        self._validate_message(body, creating=False, files=files or [])
        if "content" in body:
            msg.content = body["content"] or ""
        if "components" in body:
            msg.components = self._with_component_ids(body["components"] or [])
        if "embeds" in body:
            msg.embeds = copy.deepcopy(body["embeds"] or [])
        if "attachments" in body or files:
            kept = [a.get("filename", "") for a in body.get("attachments") or [] if "id" in a]
            msg.attachments = [n for n in msg.attachments if n in kept] + list(files or [])
        if "flags" in body and body["flags"] is not None:
            msg.flags = (msg.flags & (EPHEMERAL | LOADING)) | (body["flags"] & ~EPHEMERAL)
        msg.flags &= ~LOADING
        msg.edited_timestamp = self._now_iso()
        msg.history.append(msg.snapshot())
        self._record("message_edit", id=msg.id, channel=msg.channel_id, **msg.snapshot())

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._record("message_delete", id=msg.id, channel=msg.channel_id)

    async def _echo(self, event: str, msg: FakeMessage) -> None:
        # Discord tells the bot about messages it can see, its own included; ephemeral
        # messages exist only for their recipient and are never dispatched.
        if msg.visible_to is not None:
            return
        channel = self.channels[msg.channel_id]
        intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
        for session in self._sessions.values():
            if not session.intents & intent or not _on_shard(session.shard, msg.guild_id):
                continue
            if event == "MESSAGE_DELETE":
                data: Json = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
                if msg.guild_id is not None:
                    data["guild_id"] = str(msg.guild_id)
            else:
                data = self._gateway_message_payload(msg, session)
            await self._send(session, event, data)

    # ----------------------------------------------------------------- REST

    def _register_routes(self) -> None:
        def add(method: str, template: str, handler: Callable[..., Any], auth: bool = True) -> None:
            parts = re.split(r"\{(\w+)\}", template)
            # re.split keeps the placeholder names at the odd positions.
            pattern = "".join(
                f"(?P<{part}>[^/]+)" if i % 2 else re.escape(part) for i, part in enumerate(parts)
            )
            self._routes.append(_Route(method, template, re.compile(f"^{pattern}$"), handler, auth))

        add("GET", "/users/@me", self._get_me)
        add("GET", "/oauth2/applications/@me", self._get_application)
        add("GET", "/applications/@me", self._get_application)
        add("GET", "/gateway", self._get_gateway, auth=False)
        add("GET", "/gateway/bot", self._get_gateway)
        add("GET", "/users/{user_id}", self._get_user)
        add("POST", "/users/@me/channels", self._open_dm)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        add("PUT", "/applications/{application_id}/commands", self._put_commands)
        add("GET", "/applications/{application_id}/commands", self._get_commands)
        add("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands)
        add("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands)
        add("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, False)
        add("POST", "/webhooks/{application_id}/{token}", self._followup, False)
        add("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", self._wh_get, False)
        add(
            "PATCH",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self._wh_edit,
            False,
        )
        add(
            "DELETE",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self._wh_delete,
            False,
        )
        add("GET", "/channels/{channel_id}", self._get_channel)
        add("POST", "/channels/{channel_id}/typing", self._typing)
        add("POST", "/channels/{channel_id}/threads", self._create_thread)
        add("GET", "/channels/{channel_id}/messages", self._history)
        add("POST", "/channels/{channel_id}/messages", self._post_message)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message_route)

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        record = RequestRecord(
            request.method, path, path, time.monotonic(), query=dict(request.query),
            sender=request.match_info.get("via", ""),
        )
        self.requests.append(record)
        try:
            body, files = await _read_body(request, record.uploads)
            record.body = body
            route, params = self._match(request.method, path)
            if route is None:
                self.unhandled.append(record)
                raise DiscordError(404, 0, "404: Not Found")
            record.route = route.template
            failure = self._take_failure(record)
            if failure is not None:
                record.status = failure.status
                if failure.status == 429:
                    return _too_many_response(
                        failure.retry_after,
                        failure.is_global,
                        failure.message,
                        failure.code,
                        self._bucket_of(record),
                    )
                raise DiscordError(failure.status, failure.code, failure.message)
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
            headers = self._check_limits(record, params)
            result = await route.handler(body=body, files=files, query=request.query,
                                         record=record, **params)
        except _RateLimitedError as exc:
            record.status = 429
            self._record("rate_limited", route=record.route, retry_after=exc.retry_after)
            return _too_many_response(exc.retry_after, exc.is_global, bucket=exc.bucket)
        except DiscordError as exc:
            record.status = exc.status
            error: Json = {"message": exc.message, "code": exc.code}
            if exc.errors:
                error["errors"] = exc.errors
            return _json_response(error, exc.status)
        except Exception as exc:
            # A bug of the fake must fail the test at once: a 500 would make discord.py
            # retry for seconds and perhaps deliver a message twice.
            record.status = 400
            self.server_errors.append(f"{record.method} {record.path}: {exc!r}")
            return _json_response({"message": f"fake Discord failed: {exc!r}", "code": 0}, 400)
        finally:
            self._touch()
        if result is None:
            record.status = 204
            return web.Response(status=204, headers=headers)
        record.status = 200
        return _json_response(result, 200, headers)

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str]]:
        for route in self._routes:
            if route.method != method:
                continue
            found = route.regex.match(path)
            if found:
                return route, found.groupdict()
        return None, {}

    def _take_failure(self, record: RequestRecord) -> _Failure | None:
        for failure in self._failures:
            if _matches(failure.pattern, record):
                failure.remaining -= 1
                if failure.remaining <= 0:
                    self._failures.remove(failure)
                return failure
        return None

    # -- users, application, commands

    async def _get_me(self, **_: Any) -> Json:
        return {**self.bot.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}

    async def _get_application(self, **_: Any) -> Json:
        return {
            "id": str(self.application_id),
            "name": self.bot.name,
            "description": "",
            "icon": None,
            "cover_image": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "tags": [],
            "rpc_origins": [],
            "terms_of_service_url": None,
            "privacy_policy_url": None,
            "guild_id": None,
            "primary_sku_id": None,
            "slug": None,
            "custom_install_url": None,
            "install_params": None,
            "integration_types_config": {},
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "event_webhooks_url": None,
            "event_webhooks_status": 1,
            "event_webhooks_types": [],
            "bot": {**self.bot.payload()},
        }

    async def _get_gateway(self, record: RequestRecord | None = None, **_: Any) -> Json:
        via = record.sender if record is not None else ""
        return {
            "url": str(self._gateway_url_via(via)).rstrip("/"),
            "shards": max(1, math.ceil(len(self.guilds) / self.guilds_per_shard)),
            "session_start_limit": {
                "total": 1000,
                "remaining": self.session_starts,
                "reset_after": 24 * 3600 * 1000,
                "max_concurrency": 1,
            },
        }

    async def _get_user(self, user_id: str, **_: Any) -> Json:
        user = self.users.get(int(user_id))
        if user is None:
            raise _unknown("User", 10013)
        return user.payload()

    async def _get_member(self, guild_id: str, user_id: str, **_: Any) -> Json:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise _unknown("Guild", 10004)
        if int(user_id) not in guild.members:
            raise _unknown("Member", 10007)
        return self.member_payload(guild, self.users[int(user_id)])

    async def _open_dm(self, body: Json, **_: Any) -> Json:
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            raise _unknown("User", 10013)
        channel = self.dm_channel(user)
        self._record("dm_open", user=user.id, channel=channel.id)
        return self.channel_payload(channel)

    def _check_app(self, application_id: str) -> None:
        if int(application_id) != self.application_id:
            raise _unknown("Application", 10002)

    async def _put_commands(
        self, application_id: str, body: list[Json], guild_id: str | None = None, **_: Any
    ) -> list[Json]:
        self._check_app(application_id)
        if guild_id is not None and int(guild_id) not in self.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        if len(body) > 100:
            raise _form_error("_root", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        old = self.guild_commands.get(int(guild_id), []) if guild_id else self.global_commands
        old_ids = {c["name"]: c["id"] for c in old}
        stored = []
        for locale in _localized_names_clash(body):
            raise _form_error("_root", "APPLICATION_COMMANDS_DUPLICATE_NAME",
                              f"Application command names must be unique in {locale}.")
        for index, cmd in enumerate(body):
            _check_command(cmd, str(index))
            stored.append(
                {
                    "id": old_ids.get(cmd["name"]) or str(self.snowflake()),
                    "application_id": str(self.application_id),
                    "version": str(self.snowflake()),
                    "type": 1,
                    "description": "",
                    "default_member_permissions": None,
                    "nsfw": False,
                    **cmd,
                    **({"guild_id": guild_id} if guild_id else {}),
                }
            )
        if guild_id is not None:
            self.guild_commands[int(guild_id)] = stored
        else:
            self.global_commands = stored
        self._record(
            "command_sync",
            guild=int(guild_id) if guild_id else None,
            names=[c["name"] for c in stored],
        )
        return stored

    async def _get_commands(
        self, application_id: str, guild_id: str | None = None, **_: Any
    ) -> list[Json]:
        self._check_app(application_id)
        return self.guild_commands.get(int(guild_id), []) if guild_id else self.global_commands

    # -- interactions

    def _interaction_by_token(self, application_id: str, token: str) -> FakeInteraction:
        self._check_app(application_id)
        inter = self._by_token.get(token)
        if inter is None or self.clock.now() - inter.created_at > self.token_ttl:
            # What Discord answers once the 15 minutes of an interaction token are over.
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return inter

    async def _callback(
        self, interaction_id: str, token: str, body: Json, files: list[str], query: Any, **_: Any
    ) -> Json | None:
        inter = self.interactions.get(int(interaction_id))
        if inter is None or inter.token != token:
            raise _unknown("interaction", 10062)
        age = self.clock.now() - inter.created_at
        if age > self.token_ttl or (self.ack_deadline is not None and age > self.ack_deadline):
            raise _unknown("interaction", 10062)
        if inter.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind = body["type"]
        data: Json = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[inter.type]
        if kind not in allowed:
            raise DiscordError(400, 40043, f"Interaction callback type {kind} is not allowed here")
        channel = self.channels[inter.channel_id]
        message: FakeMessage | None = None
        if kind in (4, 5):
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            message = self._create_message(
                channel,
                self.bot.id,
                data,
                files=files,
                visible_to=inter.user_id if ephemeral else None,
                webhook=True,
                interaction=inter,
                type_=20 if inter.type == 2 else 0,
                flags=LOADING if kind == 5 else 0,
                validate=kind == 4,
            )
            inter.response_message_id = message.id
            await self._echo("MESSAGE_CREATE", message)
        elif kind in (6, 7):
            assert inter.message_id is not None
            inter.response_message_id = inter.message_id
            message = self.messages[inter.message_id]
            if kind == 7:
                self._edit_message(message, data, files)
                await self._echo("MESSAGE_UPDATE", message)
        elif kind == 8:
            choices = data.get("choices", [])
            if len(choices) > 25:
                raise _form_error("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
            inter.autocomplete_choices = choices
        elif kind == 9:
            inter.modal = data
        inter.response_type = kind
        self._record(
            "interaction_response", id=inter.id, type=kind, message=inter.response_message_id
        )
        if query.get("with_response") not in ("1", "true", "True"):
            return None
        answer: Json = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            answer["resource"]["message"] = self.message_payload(message)
        return answer

    def _webhook_message(self, inter: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            if inter.response_message_id is None:
                raise _unknown("Message", 10008)
            mid = inter.response_message_id
        else:
            mid = int(message_id)
            if mid not in inter.followup_ids and mid != inter.response_message_id:
                raise _unknown("Message", 10008)
        msg = self.messages[mid]
        if msg.deleted:
            raise _unknown("Message", 10008)
        return msg

    async def _followup(
        self, application_id: str, token: str, body: Json, files: list[str], **_: Any
    ) -> Json:
        inter = self._interaction_by_token(application_id, token)
        if not inter.acknowledged:
            raise _unknown("Webhook", 10015)
        original = self.messages.get(inter.response_message_id or 0)
        if original is not None and original.loading and inter.response_type == 5:
            # The first followup after a deferral fills in the "thinking" message.
            self._edit_message(original, body, files)
            inter.followup_ids.append(original.id)
            await self._echo("MESSAGE_UPDATE", original)
            return self.message_payload(original)
        ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
        msg = self._create_message(
            self.channels[inter.channel_id],
            self.bot.id,
            body,
            files=files,
            visible_to=inter.user_id if ephemeral else None,
            webhook=True,
            interaction=inter,
        )
        inter.followup_ids.append(msg.id)
        await self._echo("MESSAGE_CREATE", msg)
        return self.message_payload(msg)

    async def _wh_get(self, application_id: str, token: str, message_id: str, **_: Any) -> Json:
        inter = self._interaction_by_token(application_id, token)
        return self.message_payload(self._webhook_message(inter, message_id))

    async def _wh_edit(
        self,
        application_id: str,
        token: str,
        message_id: str,
        body: Json,
        files: list[str],
        **_: Any,
    ) -> Json:
        inter = self._interaction_by_token(application_id, token)
        msg = self._webhook_message(inter, message_id)
        self._edit_message(msg, body, files)
        await self._echo("MESSAGE_UPDATE", msg)
        return self.message_payload(msg)

    async def _wh_delete(self, application_id: str, token: str, message_id: str, **_: Any) -> None:
        inter = self._interaction_by_token(application_id, token)
        msg = self._webhook_message(inter, message_id)
        self._delete_message(msg)
        await self._echo("MESSAGE_DELETE", msg)

    # -- channels

    def _channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise _unknown("Channel", 10003)
        return channel

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        channel = self._channel(channel_id)
        msg = self.messages.get(int(message_id))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.visible_to:
            raise _unknown("Message", 10008)
        return msg

    async def _get_channel(self, channel_id: str, **_: Any) -> Json:
        return self.channel_payload(self._channel(channel_id))

    async def _typing(self, channel_id: str, **_: Any) -> None:
        self._channel(channel_id)

    async def _create_thread(self, channel_id: str, body: Json, **_: Any) -> Json:
        parent = self._channel(channel_id)
        if parent.is_dm or parent.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        thread = self.add_thread(parent, body["name"], private=body.get("type") == 12)
        thread.owner_id = self.bot.id
        payload = {**self.channel_payload(thread), "newly_created": True}
        await self.dispatch("THREAD_CREATE", payload, intent=1)  # GUILDS intent
        self._record("thread_create", id=thread.id, parent=parent.id, name=thread.name)
        return self.channel_payload(thread)

    async def _history(self, channel_id: str, query: Any, **_: Any) -> list[Json]:
        channel = self._channel(channel_id)
        limit = int(query.get("limit", 50))
        msgs = sorted(self._visible(channel.id), key=lambda m: m.id, reverse=True)
        if "before" in query:
            msgs = [m for m in msgs if m.id < int(query["before"])]
        if "after" in query:
            msgs = [m for m in msgs if m.id > int(query["after"])]
        return [self.message_payload(m) for m in msgs[:limit]]

    async def _post_message(self, channel_id: str, body: Json, files: list[str], **_: Any) -> Json:
        channel = self._channel(channel_id)
        if channel.is_dm:
            assert channel.recipient_id is not None
            if not self.users[channel.recipient_id].dms_open:
                raise DiscordError(403, 50007, "Cannot send messages to this user")
        else:
            perms = self.bot_permissions(channel)
            if not perms.view_channel:
                raise DiscordError(403, 50001, "Missing Access")
            if not (perms.send_messages_in_threads if channel.is_thread
                    else perms.send_messages):
                raise DiscordError(403, 50013, "Missing Permissions")
        channel.archived = False  # a message sent to an archived thread unarchives it
        reply_to = (body.get("message_reference") or {}).get("message_id")
        msg = self._create_message(
            channel, self.bot.id, body, files=files, type_=19 if reply_to else 0
        )
        await self._echo("MESSAGE_CREATE", msg)
        return self.message_payload(msg)

    async def _get_message(self, channel_id: str, message_id: str, **_: Any) -> Json:
        return self.message_payload(self._channel_message(channel_id, message_id))

    async def _patch_message(
        self, channel_id: str, message_id: str, body: Json, files: list[str], **_: Any
    ) -> Json:
        msg = self._channel_message(channel_id, message_id)
        if msg.author_id != self.bot.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if self._channel(channel_id).archived:
            raise DiscordError(400, 50083, "Thread is archived")
        self._edit_message(msg, body, files)
        await self._echo("MESSAGE_UPDATE", msg)
        return self.message_payload(msg)

    async def _delete_message_route(self, channel_id: str, message_id: str, **_: Any) -> None:
        msg = self._channel_message(channel_id, message_id)
        self._delete_message(msg)
        await self._echo("MESSAGE_DELETE", msg)


def _on_shard(shard: tuple[int, int] | None, guild_id: int | None) -> bool:
    """Whether Discord sends the events of `guild_id` (None: DMs) to a connection on
    `shard`: guild events to shard (guild_id >> 22) % count, DMs to shard 0 only."""
    if shard is None:
        return True
    shard_id, count = shard
    return shard_id == 0 if guild_id is None else (guild_id >> 22) % count == shard_id


def _earlier_component(msg: FakeMessage, custom_id: str) -> Json:
    for version in reversed(msg.history):
        older = FakeMessage(0, 0, None, 0, components=version["components"])
        with contextlib.suppress(KeyError):
            return older.component(custom_id)
    raise KeyError(f"message {msg.id} never showed a component {custom_id!r}")


def _matches(pattern: str, record: RequestRecord) -> bool:
    return fnmatch.fnmatchcase(f"{record.method} {record.route}", pattern) or fnmatch.fnmatchcase(
        f"{record.method} {record.path}", pattern
    )


def _embed_size(embed: Json) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    return size


async def _read_body(request: web.Request, uploads: dict[str, bytes] | None = None
                     ) -> tuple[Any, list[str]]:
    """The JSON body of a request, and the names of any uploaded files (their contents go
    to `uploads`)."""
    if request.content_type.startswith("multipart/"):
        body: Any = {}
        files: list[str] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                content = await part.read()
                files.append(part.filename or part.name or "file")
                if uploads is not None:
                    uploads[files[-1]] = bytes(content)
        return body, files
    raw = await request.read()
    return (json.loads(raw) if raw else {}), []


class _RateLimitedError(Exception):
    def __init__(self, retry_after: float, *, is_global: bool = False, bucket: str = "") -> None:
        super().__init__(f"rate limited for {retry_after:.3f}s")
        self.retry_after, self.is_global, self.bucket = retry_after, is_global, bucket


def _bucket(pattern: str) -> str:
    return "fake-" + uuid.uuid5(uuid.NAMESPACE_URL, pattern).hex[:12]


def _ratelimit_headers(
    limit: int, remaining: int, reset_after: float, bucket: str
) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
    }


def _json_response(data: Any, status: int, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses a body as JSON only if Content-Type is exactly application/json
    # (aiohttp's json_response would append "; charset=utf-8").
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _too_many_response(
    retry_after: float,
    is_global: bool,
    message: str = "You are being rate limited.",
    code: int = 0,
    bucket: str = "",
) -> web.Response:
    body = {"message": message, "retry_after": retry_after, "global": is_global, "code": code}
    headers = {
        # Without Via, discord.py takes a 429 for a Cloudflare ban and gives up.
        "Via": "1.1 google",
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    else:
        headers.update(_ratelimit_headers(1, 0, retry_after, bucket))
    return _json_response(body, 429, headers)
