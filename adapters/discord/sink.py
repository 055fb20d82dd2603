"""Deliveries from the core, carried to Discord: channel messages, DMs, ephemeral hands.

A player whose DMs are closed sees their hand in an ephemeral message ("only you can see
this"). Discord lets the bot edit it only through an interaction token, for 15 minutes;
the token and its expiry ride in `MessageRef.extra`, every press on that message brings
a fresh token, and once the last one has expired the player is asked, once, to press
"My hand" again instead of being left with a silently stale view.

Results (a round's summary, the final ranking) ride in the table message's own edit for
the move that produced them, and stay there until the next result replaces them: one
request to the channel for that move instead of two. The core puts the table before the
result, so the sink sees the result while the table waits for its turn; a result that
comes too late for that edit, or that pings someone, is a message of its own as before.
"""

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import discord
from discord.http import Route

from bot.clock import Clock
from bot.deliveries import (
    Announcement,
    ChannelGone,
    Delivery,
    HandMessage,
    MessageGone,
    Notice,
    TableMessage,
    UserUnreachable,
)
from bot.i18n import t
from bot.render import Button, Rendering, clip, encode_payload
from bot.render import fit as render_fit
from db.repository import MessageRef

log = logging.getLogger(__name__)

CONTENT_LIMIT = 2000
LABEL_LIMIT = 80
TOKEN_TTL = 15 * 60.0
DM_RETRY = 3600.0  # seconds before a refused DM is tried again
SHOWN_KEPT = 20_000  # messages whose last content is remembered
# Seconds a player's signed link to the web page is shown again (it is valid 15 minutes).
LINK_KEPT = 5 * 60.0
ANSWER_WAIT = 3.0  # an interaction must be answered within 3 s anyway
# An edit started a moment before the token dies still fails; a little margin avoids it.
TOKEN_MARGIN = 30.0

# Seconds between two of the bot's messages or edits in one channel. Discord allows 5 per
# 5 s there; one a second stays clear of it, and moves made faster than that coalesce into
# one table edit (the outbox takes the newest drawing when the channel's turn comes).
CHANNEL_GAP = 1.0
# Loop turns a table edit waits, before it goes, for the result of the same move: the core
# puts both in the outbox within one step, so their workers start one right after the other.
RESULT_GRACE = 3
# Seconds a result waits for its table's edit, beyond the channel's pacing, before it is
# sent on its own (the edit was delayed, or failed).
FOLD_WAIT = 5.0

# Discord's JSON error codes that mean "this channel is no more, for this bot".
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
CANNOT_DM = 50007
UNKNOWN_MESSAGE = 10008
ARCHIVED_THREAD = 50083

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def fit(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Discord refuses content over 2,000 characters: cut it visibly rather than fail."""
    return clip(text, limit)


def plain(text: str) -> str:
    """Text from the core (names included) shown as written: Discord reads content as
    Markdown, so a name like `*_Bob_*` or `||x||` would restyle everything after it."""
    return fit(discord.utils.escape_markdown(text))


def _content(rendering: Rendering) -> str:
    lines = [discord.utils.escape_markdown(line) for line in rendering.lines]
    return "\n".join([f"**{discord.utils.escape_markdown(rendering.title)}**", *lines])


def content_of(rendering: Rendering) -> str:
    """The rendering as Discord content, escaped, and fitted to 2,000 characters by dropping
    old narration and shortening names rather than cutting the newest move off its end."""
    return fit(_content(render_fit(rendering, lambda r: len(_content(r)), CONTENT_LIMIT)))


def with_result(rendering: Rendering, result: list[str]) -> Rendering:
    """The table with a result's lines after whose turn it is and before the narration of
    older moves, so that fitting drops old narration before any of them."""
    if not result:
        return rendering
    start, stop = rendering.narration
    at = max(0, start - 1) if stop > start else len(rendering.lines)  # before "Last moves"
    lines = [*rendering.lines[:at], "", *result, "", *rendering.lines[at:]]
    shift = len(result) + 2
    narration = (start + shift, stop + shift) if stop > start else rendering.narration
    return replace(rendering, lines=lines, narration=narration)


def view_of(ref: str, version: int, buttons: list[list[Button]],
            link: tuple[str, str] | None = None) -> discord.ui.View | None:
    """Buttons whose custom ids name the table (by its reference) and the version they
    were drawn for; `link` (label, address), a link button to the table's web page, on a
    row of its own.

    The view is stopped before it is sent: presses are answered by `on_interaction` from
    the custom id alone (so they survive restarts), and a stopped view is not kept in
    discord.py's view store, which would otherwise grow with every message forever.
    """
    if not buttons and link is None:
        return None
    view = discord.ui.View(timeout=None)
    seen: set[str] = set()
    for row_no, row in enumerate(buttons[:4] if link is not None else buttons[:5]):
        for button in row[:5]:
            custom_id = encode_payload(ref, version, button.action)
            if custom_id in seen:  # Discord refuses a message with two equal custom ids
                continue
            seen.add(custom_id)
            view.add_item(discord.ui.Button(
                label=fit(button.label, LABEL_LIMIT), custom_id=custom_id, row=row_no,
                style=STYLES.get(button.style, discord.ButtonStyle.secondary)))
    if link is not None:
        view.add_item(discord.ui.Button(label=fit(link[0], LABEL_LIMIT), url=link[1],
                                        row=min(len(buttons), 4)))
    view.stop()
    return view


def fingerprint(content: str, view: discord.ui.View | None) -> str:
    components = view.to_components() if view is not None else []
    raw = json.dumps([content, components], sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(raw.encode()).hexdigest()


def _foldable(msg: Announcement) -> bool:
    """A result that pings nobody may ride in the table's edit; a ping needs a new message."""
    return msg.kind == "result" and not msg.mentions


def _channel_error(exc: discord.HTTPException) -> bool:
    if isinstance(exc, discord.Forbidden):
        return True
    return exc.code in {UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS}


class DiscordSink:
    """The `bot.outbox.Sink` for Discord."""

    def __init__(self, client: discord.Client, clock: Clock,
                 lang_of: Any = None, channel_gap: float = CHANNEL_GAP) -> None:
        self.client = client
        self.clock = clock
        self.channel_gap = channel_gap
        self._next_in: dict[str, float] = {}  # channel -> when it may take the next message
        # lang_of(user_id, channel) -> language; set by the app once Tables exists.
        self.lang_of = lang_of
        # user id -> when a DM was last refused; retried after DM_RETRY (they may open DMs).
        self._dm_closed: dict[str, float] = {}
        self._fresh: dict[tuple[int, str], MessageRef] = {}
        # What each message shows now, to skip edits that would change nothing.
        self._shown: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._answering: dict[tuple[str, str], asyncio.Future[None]] = {}
        # Results on their way, each with whether its table's edit took it (table id ->
        # [(result, taken)]); what each table's message carries now; the version each
        # table's message was last drawn for.
        self._coming: dict[int, list[tuple[Announcement, asyncio.Future[bool]]]] = {}
        self._carried: OrderedDict[int, list[str]] = OrderedDict()
        self._drawn: OrderedDict[int, int] = OrderedDict()
        # The table's web page (WEB_URL), set by the app: `watch_link(ref)` its public view
        # (the table message's "Watch"), `private_link(user, table id, ref)` a player's own
        # signed link, only ever sent privately. None: no page is offered.
        self.watch_link: Callable[[str], str | None] | None = None
        self.private_link: Callable[[str, int, str], str | None] | None = None
        # A player's link is kept a while, so that a hand drawn again looks the same (an
        # edit that changes nothing is skipped): (table id, user) -> (made at, address).
        self._links: OrderedDict[tuple[int, str], tuple[float, str]] = OrderedDict()

    # --- what the app tells the sink --------------------------------------------------------

    def dms_closed(self, user_id: str) -> bool:
        since = self._dm_closed.get(user_id)
        if since is not None and self.clock.now() - since > DM_RETRY:
            del self._dm_closed[user_id]
            return False
        return since is not None

    def adopt(self, table_id: int, user_id: str, ref: MessageRef,
              shown: str | None = None) -> None:
        """An ephemeral message (with a fresh token) now shows this player's hand."""
        self._fresh[(table_id, user_id)] = ref
        if shown is not None:
            self._remember((ref.chat, ref.message_id), shown)

    def ephemeral_ref(self, channel_id: int, message_id: int, token: str,
                      told: bool = True) -> MessageRef:
        return MessageRef(key="hand", chat=str(channel_id), message_id=str(message_id),
                          extra={"via": "ephemeral", "token": token,
                                 "expires": self.clock.now() + TOKEN_TTL - TOKEN_MARGIN,
                                 "told": told})

    async def hand_view(self, rendering: Rendering, table_id: int, user_id: str,
                        channel: str) -> discord.ui.View | None:
        """A hand's buttons, and its "Open table" link when the page is offered: for a
        message only its player sees (a DM, an ephemeral answer)."""
        link = None
        if self.private_link is not None and rendering.ref:
            key = (table_id, user_id)
            kept = self._links.get(key)
            now = self.clock.now()
            if kept is None or now - kept[0] > LINK_KEPT:
                made = self.private_link(user_id, table_id, rendering.ref)
                kept = (now, made) if made is not None else None
                if kept is not None:
                    self._links[key] = kept
                    self._links.move_to_end(key)
                    while len(self._links) > SHOWN_KEPT:
                        self._links.popitem(last=False)
            if kept is not None:
                lang = await self.lang_of(user_id, channel) if self.lang_of else "en"
                link = (t(lang, "web_open"), kept[1])
        return view_of(rendering.ref, rendering.version, rendering.buttons, link)

    async def table_view(self, rendering: Rendering, channel: str) -> discord.ui.View | None:
        """The table message's buttons, and its public "Watch" link when the page is
        offered: the public view only, what the channel already shows."""
        url = self.watch_link(rendering.ref) if self.watch_link and rendering.ref else None
        link = None
        if url is not None:
            lang = await self.lang_of("", channel) if self.lang_of else "en"
            link = (t(lang, "web_watch"), url)
        return view_of(rendering.ref, rendering.version, rendering.buttons, link)

    # --- Sink -------------------------------------------------------------------------------

    async def turn(self, delivery: Delivery) -> None:
        """Wait for the channel's next slot before the outbox picks what to send there."""
        if isinstance(delivery, Announcement) and _foldable(delivery) \
                and self._drawn.get(delivery.table_id, -1) < delivery.version:
            taken = asyncio.get_running_loop().create_future()
            self._coming.setdefault(delivery.table_id, []).append((delivery, taken))
            return  # no slot of its own unless the table's edit leaves it behind
        if isinstance(delivery, TableMessage):
            for _ in range(RESULT_GRACE):
                await asyncio.sleep(0)  # the result of the same move registers meanwhile
        if self.channel_gap <= 0 or isinstance(delivery, HandMessage | Notice):
            return
        now = time.monotonic()
        slot = max(now, self._next_in.get(delivery.channel, 0.0))
        self._next_in[delivery.channel] = slot + self.channel_gap
        if len(self._next_in) > SHOWN_KEPT:
            for idle in [c for c, at in self._next_in.items() if at < now]:
                del self._next_in[idle]
        if slot > now:
            await asyncio.sleep(slot - now)

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        rendering = msg.rendering
        actions = {b.action for row in rendering.buttons for b in row}
        for result, taken in self._coming.pop(msg.table_id, []):
            if result.version <= rendering.version and not taken.done() and all(
                    b.action in actions for row in result.buttons for b in row):
                self._carry(msg.table_id, result.text.split("\n"))
                taken.set_result(True)
            else:
                self._coming.setdefault(msg.table_id, []).append((result, taken))
        self._drawn[msg.table_id] = rendering.version
        self._drawn.move_to_end(msg.table_id)
        while len(self._drawn) > SHOWN_KEPT:
            self._drawn.popitem(last=False)
        content = self.table_content(msg.table_id, rendering)
        view = await self.table_view(rendering, msg.channel)
        if ref is not None:
            await self._edit_channel_message(ref, content, view, gone=ChannelGone)
            return ref
        channel = self.client.get_partial_messageable(int(msg.channel))
        try:
            sent = await channel.send(content, view=view or discord.utils.MISSING,
                                      allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            if _channel_error(exc) or isinstance(exc, discord.NotFound):
                raise ChannelGone(msg.channel) from exc
            raise
        self._remember((msg.channel, str(sent.id)), fingerprint(content, view))
        return MessageRef(key="table", chat=msg.channel, message_id=str(sent.id))

    def table_content(self, table_id: int, rendering: Rendering) -> str:
        """The table message's content: the table and the last result it carries."""
        return content_of(with_result(rendering, self.carried(table_id)))

    def carried(self, table_id: int) -> list[str]:
        """The lines of the last result the table's message shows."""
        return self._carried.get(table_id, [])

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        fresh = self._fresh.pop((msg.table_id, msg.user_id), None)
        if fresh is not None:
            told = bool(ref and ref.extra.get("told"))
            ref = MessageRef(key=fresh.key, chat=fresh.chat, message_id=fresh.message_id,
                             extra={**fresh.extra, "told": told or fresh.extra.get("told")})
        if ref is not None and ref.extra.get("via") == "ephemeral":
            return await self._show_ephemeral_hand(msg, ref)
        return await self._show_dm_hand(msg, ref)

    async def announce(self, msg: Announcement) -> None:
        if await self._taken_by_table(msg):
            return  # shown in the table's edit for the same move
        mentions = [f"<@{user}>" for user in msg.mentions if user.isdigit()]
        content = fit(" ".join([*mentions, discord.utils.escape_markdown(msg.text)]))
        view = view_of(msg.ref, msg.version, msg.buttons)
        allowed = discord.AllowedMentions(
            everyone=False, roles=False,
            users=[discord.Object(int(user)) for user in msg.mentions if user.isdigit()])
        channel = self.client.get_partial_messageable(int(msg.channel))
        try:
            await channel.send(content, view=view or discord.utils.MISSING,
                               allowed_mentions=allowed)
        except discord.HTTPException as exc:
            if _channel_error(exc) or isinstance(exc, discord.NotFound):
                raise ChannelGone(msg.channel) from exc
            raise

    async def notify(self, msg: Notice) -> None:
        if self.dms_closed(msg.user_id):
            raise UserUnreachable(msg.user_id)
        channel = await self._dm_channel(msg.user_id)
        try:
            await channel.send(plain(msg.text), allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            self._dm_closed[msg.user_id] = self.clock.now()
            raise UserUnreachable(msg.user_id) from exc

    # --- hands --------------------------------------------------------------------------------

    async def _show_dm_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        content = content_of(msg.rendering)
        view = await self.hand_view(msg.rendering, msg.table_id, msg.user_id, msg.channel)
        if ref is not None:
            await self._edit_channel_message(ref, content, view, gone=UserUnreachable)
            return ref
        if self.dms_closed(msg.user_id):
            raise UserUnreachable(msg.user_id)
        channel = await self._dm_channel(msg.user_id)
        try:
            sent = await channel.send(content, view=view or discord.utils.MISSING,
                                      allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            # 50007: DMs closed or the bot blocked; the core tells the channel once.
            self._dm_closed[msg.user_id] = self.clock.now()
            raise UserUnreachable(msg.user_id) from exc
        self._dm_closed.pop(msg.user_id, None)
        self._remember((str(channel.id), str(sent.id)), fingerprint(content, view))
        return MessageRef(key=f"hand:{msg.seat}", chat=str(channel.id), message_id=str(sent.id),
                          extra={"via": "dm"})

    async def _show_ephemeral_hand(self, msg: HandMessage, ref: MessageRef) -> MessageRef:
        content = content_of(msg.rendering)
        view = await self.hand_view(msg.rendering, msg.table_id, msg.user_id, msg.channel)
        shown = fingerprint(content, view)
        key = (ref.chat, ref.message_id)
        if self._shown.get(key) == shown:
            return ref
        token = ref.extra.get("token")
        alive = bool(token) and float(ref.extra.get("expires", 0)) > self.clock.now()
        if alive:
            route = Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                          webhook_id=self.client.application_id, webhook_token=token)
            payload = {"content": content,
                       "components": view.to_components() if view is not None else [],
                       "allowed_mentions": {"parse": []}}
            try:
                await self.client.http.request(route, json=payload)
            except discord.HTTPException as exc:
                # 401 50027 (token expired), 404 10015/10008 (view dismissed): not showable.
                if exc.status not in (401, 404):
                    raise
                log.info("ephemeral hand of %s no longer editable: %s", msg.user_id, exc)
            else:
                self._remember(key, shown)
                return ref
        if ref.extra.get("asked"):
            return ref
        lang = await self.lang_of(msg.user_id, msg.channel) if self.lang_of else "en"
        await self.announce(Announcement(
            table_id=msg.table_id, channel=msg.channel, mentions=[msg.user_id],
            text=t(lang, "discord.hand_expired")))
        extra = {k: v for k, v in ref.extra.items() if k != "token"}
        return MessageRef(key=ref.key, chat=ref.chat, message_id=ref.message_id,
                          extra={**extra, "asked": True})

    # --- plumbing ------------------------------------------------------------------------------

    def showing(self, chat: str, message_id: str, content: str,
                view: discord.ui.View | None) -> None:
        """The app changed a message itself (in an interaction response): note what it shows."""
        self._remember((chat, message_id), fingerprint(content, view))

    @contextlib.contextmanager
    def answering(self, chat: str, message_id: str) -> Iterator[None]:
        """A press on this message is being answered with the message's new look: edits of
        it wait for that answer, and are skipped when it already shows the same."""
        key = (chat, message_id)
        done = asyncio.get_running_loop().create_future()
        self._answering[key] = done
        try:
            yield
        finally:
            if self._answering.get(key) is done:
                del self._answering[key]
            done.set_result(None)

    async def _taken_by_table(self, msg: Announcement) -> bool:
        """Wait for the table's edit of the same move to take this result; False when it
        went without it, or did not come in time (the result is then a message of its own)."""
        coming = self._coming.get(msg.table_id, [])
        taken = next((f for result, f in coming if result is msg), None)
        if taken is None:
            return False
        try:
            return await asyncio.wait_for(asyncio.shield(taken),
                                          max(0.0, self.channel_gap) + FOLD_WAIT)
        except TimeoutError:
            return False
        finally:
            left = [(r, f) for r, f in self._coming.get(msg.table_id, []) if r is not msg]
            if left:
                self._coming[msg.table_id] = left
            else:
                self._coming.pop(msg.table_id, None)

    def _carry(self, table_id: int, lines: list[str]) -> None:
        self._carried[table_id] = lines
        self._carried.move_to_end(table_id)
        while len(self._carried) > SHOWN_KEPT:
            self._carried.popitem(last=False)

    def _remember(self, key: tuple[str, str], shown: str) -> None:
        self._shown[key] = shown
        self._shown.move_to_end(key)
        while len(self._shown) > SHOWN_KEPT:
            self._shown.popitem(last=False)

    async def _dm_channel(self, user_id: str) -> discord.DMChannel:
        try:
            return await self.client.create_dm(discord.Object(int(user_id)))
        except discord.HTTPException as exc:
            raise UserUnreachable(user_id) from exc

    async def _edit_channel_message(self, ref: MessageRef, content: str,
                                    view: discord.ui.View | None,
                                    gone: type[ChannelGone | UserUnreachable]) -> None:
        shown = fingerprint(content, view)
        key = (ref.chat, ref.message_id)
        answer = self._answering.get(key)
        if answer is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(answer), ANSWER_WAIT)
        if self._shown.get(key) == shown:
            return  # nothing changed for the reader: spare the request (and the rate limit)
        channel = self.client.get_partial_messageable(int(ref.chat))
        message = channel.get_partial_message(int(ref.message_id))
        try:
            await message.edit(content=content, view=view,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            with contextlib.suppress(KeyError):
                del self._shown[key]
            if exc.code in (UNKNOWN_MESSAGE, ARCHIVED_THREAD):
                # An archived thread's messages cannot be edited; a new message (which
                # unarchives the thread) takes the table's place.
                raise MessageGone(ref.message_id) from exc
            if _channel_error(exc) or exc.code == UNKNOWN_CHANNEL:
                raise gone(ref.chat) from exc
            raise
        self._remember(key, shown)
