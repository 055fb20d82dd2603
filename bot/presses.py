"""What a checked press does, and what it answers: one reply, with the platform effects
that come with it.

`Tables.press` is the one entry point of presses: it has a press checked and its table
read once (`check`, through `Tables.pressed`: the payload is one the bot drew, the message
pressed is in that table's chat or is the presser's own hand message), then acted on here.
The reply says where the press acted (`Reply.acted`) and, for an adapter that answers the
press in place (`Press.in_place`), what to show there (`Reply.shown`): the hand asked for,
a move's new hand, or the table in place of the lobby whose Start was pressed.
"""

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot import logs, metrics, present
from bot.authority import MANAGING, Press, RightsUnknown, is_move, is_signal, private_action
from bot.i18n import t
from bot.live import Acted, Actor, InPlace, Reply
from bot.render import Payload, Rendering
from bot.table import Table
from db.repository import FINISHED, LOBBY, PLAYING, MessageRef, StorageError


@dataclass(frozen=True, slots=True)
class Pressed:
    """A press checked: the table it may act on (read), what its button says, and where
    it acts as the reply tells it."""

    table: Table
    payload: Payload
    acted: Acted


class Refs(Protocol):
    def ref(self, table_id: int, key: str) -> MessageRef | None: ...


class Messages(Protocol):
    async def messages(self, table_id: int) -> dict[str, MessageRef]: ...


class Host(Protocol):
    """What a press needs of the tables around it."""

    platform: str

    @property
    def outbox(self) -> Refs: ...

    @property
    def repo(self) -> Messages: ...

    def drives(self, table_id: int) -> bool: ...

    async def lang_of(self, user_id: str, channel: str | None = None) -> str: ...

    async def channel_lang(self, channel: str) -> str: ...

    async def refuse(self, actor: Actor, channel: str | None, key: str, /,
                     **params: Any) -> Reply: ...

    async def genuine(self, table_id: int, tag: str) -> bool: ...

    async def loaded_table(self, table_id: int) -> Table | None: ...

    async def hand_rendering_for_table(self, actor: Actor, table_id: int
                                       ) -> Rendering | None: ...


async def check(host: Host, actor: Actor, press: Press) -> Pressed | Reply:
    """The table a press may act on, read once, or the refusal: the payload must be one
    we drew, and the pressed message must be in that table's chat, or be the
    presser's own hand message of that table in their private chat."""
    decoded = press.button
    try:
        genuine = decoded is not None and await host.genuine(decoded.table_id, decoded.tag)
    except StorageError:  # the key could not be read
        return await host.refuse(actor, press.channel, "storage_failed")
    if decoded is None or not genuine:
        return await host.refuse(actor, press.channel, "bad_button")
    table = await host.loaded_table(decoded.table_id)
    if table is None or table.live.row.platform != host.platform:
        return await host.refuse(actor, press.channel, "bad_button")
    live = table.live
    if press.channel is not None:
        if press.channel != live.row.channel:
            return await host.refuse(actor, press.channel, "button_elsewhere")
    elif not private_action(decoded.action):
        return await host.refuse(actor, None, "button_elsewhere")
    else:
        seat = live.seat_of(actor.user_id)
        if seat is None:
            # A hand message kept from a seat a bot has taken since: how to come back, if
            # they may.
            return await host.refuse(actor, live.row.channel, table.unseated(actor))
        try:
            shown = await hand_message(host, live.id, seat.seat, actor.user_id)
        except StorageError:
            return await host.refuse(actor, live.row.channel, "storage_failed")
        if shown is None or shown.message_id != press.message_id:
            return await host.refuse(actor, live.row.channel, "button_not_your_hand")
    seated = live.seat_of(actor.user_id) if live.row.status == PLAYING else None
    return Pressed(table, decoded, Acted(live.id, live.ref, live.row.channel,
                                         None if seated is None else seated.seat))


async def hand_message(host: Host, table_id: int, seat: int, user_id: str
                       ) -> MessageRef | None:
    """The message that shows `user_id` their hand at `seat`, as last sent or stored:
    None when there is none, or when it was somebody else's (the seat changed hands)."""
    key = f"hand:{seat}"
    ref = host.outbox.ref(table_id, key)
    if ref is None:
        ref = (await host.repo.messages(table_id)).get(key)
    if ref is not None and ref.extra.get("user") not in (None, user_id):
        return None
    return ref


async def act(host: Host, actor: Actor, press: Press, found: Pressed) -> Reply:
    """The checked press carried out, and its reply."""
    if press.before is not None:
        press.before(found.acted)
    reply = await _act(host, actor, press, found)
    reply.acted = found.acted
    if press.in_place and reply.ok and reply.shown is None:
        reply.shown = await _in_place(host, actor, press, found)
    return reply


async def _act(host: Host, actor: Actor, press: Press, found: Pressed) -> Reply:
    table, payload = found.table, found.payload
    live = table.live
    action, channel = payload.action, live.row.channel
    if action == "join" and press.can_reach is not None and not await press.can_reach():
        # Seated only once their hand can reach them: they are asked to open it first.
        return Reply(t(await host.lang_of(actor.user_id), "needs_private_chat_short"),
                     open_private=live.ref)
    logs.bind(platform=host.platform, table_id=live.id, channel=channel)
    actor = Actor(actor.user_id, actor.name)
    # Only a lobby's answer depends on the presser's rights (a running game refuses
    # Start whoever presses it): the platform is asked only then.
    if action in MANAGING and live.row.status == LOBBY and live.row.host != actor.user_id:
        try:
            # The press is in the table's own chat (checked above): its rights are asked.
            actor = Actor(actor.user_id, actor.name, is_admin=await press.is_admin())
        except RightsUnknown:
            return await host.refuse(actor, channel, "rights_unknown")
    lang = await host.lang_of(actor.user_id, channel)
    if is_move(action):
        if live.row.status != PLAYING or not live.current(payload.version):
            metrics.REFUSED.labels(host.platform, "out_of_date").inc()
            return Reply(t(lang, "out_of_date"), ok=False)
        return await table.play(actor, action[2:], expected_version=payload.version)
    if is_signal(action):
        # Talk (The Game's signals): valid whatever happened since the button was drawn.
        if live.row.status != PLAYING:
            metrics.REFUSED.labels(host.platform, "out_of_date").inc()
            return Reply(t(lang, "out_of_date"), ok=False)
        return await table.play(actor, action[2:], expected_version=None, talk_only=True)
    if action == "rematch":
        if live.row.status != FINISHED:
            return Reply(t(lang, "out_of_date"), ok=False)
        return await table.rematch(actor, press.is_member)
    if action == "hand" and press.in_place and found.acted.seat is not None:
        shown = await _hand_in_place(host, actor, table, found.acted.seat)
        if shown is not None:
            return Reply(shown.rendering.text, table_id=live.id, shown=shown)
    handlers: dict[str, Callable[[Table, Actor], Awaitable[Reply]]] = {
        "join": Table.join, "leave": Table.leave, "addbot": Table.add_bot,
        "start": Table.start, "hand": Table.hand_for, "options": Table.options_text,
        "removebot": Table.remove_bot}
    handler = handlers.get(action)
    if handler is None:
        return Reply(t(lang, "bad_button"), ok=False)
    return await handler(table, actor)

async def _hand_in_place(host: Host, actor: Actor, table: Table, seat: int) -> InPlace | None:
    """The presser's hand, drawn for the adapter to show where it was asked for; it
    becomes their hand message once shown (`InPlace.keep`). None when it cannot be
    drawn: the hand is then shown as any other asks for it."""
    live = table.live
    stored = await hand_message(host, live.id, seat, actor.user_id)
    rendering = await host.hand_rendering_for_table(actor, live.id)
    if rendering is None:
        return None
    return InPlace(rendering, stored, keep=functools.partial(table.showing.show_hand, seat))

async def _in_place(host: Host, actor: Actor, press: Press, found: Pressed) -> InPlace | None:
    """After a move or a signal, the presser's new hand; after a start, the table, if
    the press was on its message. Only where this process drives the table: its driver,
    another process, edits the messages, never two processes in turn."""
    live = found.table.live
    if not host.drives(live.id):
        return None
    action = found.payload.action
    if is_move(action) or is_signal(action):
        rendering = await host.hand_rendering_for_table(actor, live.id)
        return None if rendering is None else InPlace(rendering)
    if action == "start":
        shown = host.outbox.ref(live.id, "table")
        if shown is None or shown.message_id != press.message_id:
            return None  # a press forged onto another message: it stays as it is
        return InPlace(present.table(live, await host.channel_lang(live.row.channel)),
                       shown)
    return None


__all__ = ["Host", "Pressed", "act", "check", "hand_message"]
