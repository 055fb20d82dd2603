"""The `Sink` the core's outbox delivers through: table, hands, announcements, notices.

Telegram's refusals become the core's delivery errors (bot/deliveries.py): a group that
threw the bot out is `ChannelGone`, a user who never pressed Start or blocked the bot is
`UserUnreachable`, a deleted message is `MessageGone`. "Message is not modified" is a
success: the user already sees that text. Anything else is raised again so the outbox
retries it and logs it when it gives up — nothing is dropped silently.
"""

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
    WebAppInfo,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden

from adapters.telegram.format import (
    Place,
    announcement_html,
    keyboard,
    rendering_html,
    with_link,
)
from adapters.telegram.limits import ChatPacer
from bot import events
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
from db.repository import MessageRef

if TYPE_CHECKING:
    from bot.tables import Tables

log = logging.getLogger(__name__)

T = TypeVar("T")

NO_PREVIEW = LinkPreviewOptions(is_disabled=True)

# Bot API descriptions (lower-cased) that mean the message to edit is no longer there.
GONE_MESSAGE = ("message to edit not found", "message can't be edited", "message_id_invalid",
                "message to delete not found")
# ... that mean the group or topic is no longer a place the bot can write to.
GONE_CHAT = ("chat not found", "message thread not found", "topic_deleted", "topic_closed",
             "not enough rights", "have no rights", "chat_write_forbidden")


def _is_not_modified(error: BadRequest) -> bool:
    return "message is not modified" in error.message.lower()


class TelegramSink:
    def __init__(self, bot: Bot, *, on_reachable: Callable[[int], None] | None = None,
                 on_unreachable: Callable[[int], None] | None = None,
                 pacer: ChatPacer | None = None,
                 table_url: Callable[[str], str | None] = lambda _ref: None,
                 miniapp_link: Callable[[str, str], str | None] = lambda _bot, _ref: None
                 ) -> None:
        self.bot = bot
        # The table's web page (WEB_URL): a `web_app` button on the hand message, which
        # Telegram allows in a private chat only, and on the group's table message a link
        # to the direct-link Mini App (TELEGRAM_MINIAPP). None: no page is offered.
        self._table_url = table_url
        self._miniapp_link = miniapp_link
        self.pacer = pacer
        self.tables: Tables | None = None  # set once the Tables that uses this sink exists
        self._on_reachable = on_reachable or (lambda _user: None)
        self._on_unreachable = on_unreachable or (lambda _user: None)

    # --- the Sink protocol ------------------------------------------------------------------

    async def turn(self, delivery: Delivery) -> None:
        """Wait for the chat's next free slot under the flood limits before the outbox picks
        what to send: what goes then is the newest rendering, not one that waited."""
        if self.pacer is None:
            return
        if isinstance(delivery, HandMessage | Notice):
            await self.pacer.turn(int(delivery.user_id))
        else:
            await self.pacer.turn(Place.parse(delivery.channel).chat_id)

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        place = Place.parse(msg.channel)
        markup = keyboard(msg.rendering.ref, msg.rendering.version, msg.rendering.buttons)
        link = self._miniapp_link(self.bot.username, msg.rendering.ref) \
            if msg.rendering.ref else None
        if link is not None:
            lang = await self.tables.channel_lang(msg.channel) if self.tables else "en"
            markup = with_link(markup, InlineKeyboardButton(t(lang, "web_open"), url=link))
        return await self._show(place, None, "table", msg.table_id, msg.rendering.version,
                                rendering_html(msg.rendering), markup, ref)

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        user = int(msg.user_id)
        markup = keyboard(msg.rendering.ref, msg.rendering.version, msg.rendering.buttons)
        url = self._table_url(msg.rendering.ref) if msg.rendering.ref else None
        if url is not None:
            lang = await self.tables.lang_of(msg.user_id) if self.tables else "en"
            markup = with_link(markup, InlineKeyboardButton(t(lang, "web_open"),
                                                            web_app=WebAppInfo(url)))
        new = await self._show(Place(user), user, f"hand:{msg.seat}", msg.table_id,
                               msg.rendering.version, rendering_html(msg.rendering), markup,
                               ref)
        self._on_reachable(user)
        return new

    async def announce(self, msg: Announcement) -> None:
        place = Place.parse(msg.channel)
        if msg.called is None and self.tables is not None:
            self.tables.stamp(msg)  # made outside the outbox (a test's): judged the same
        called = await msg.called() if msg.called is not None else None
        if called is not None and not called.still:
            # A group allows ~20 messages a minute: when the rate limiter holds a turn call
            # back until the player has already played, posting it would only mislead.
            log.info("table %s: call for %s skipped, no longer their turn", msg.table_id,
                     msg.mentions)
            return
        names = called.names if called is not None else dict.fromkeys(msg.mentions, "")
        await self._guard(place, None, lambda at: self.bot.send_message(
            at.chat_id, announcement_html(msg.text, names), parse_mode=ParseMode.HTML,
            message_thread_id=at.thread_id, link_preview_options=NO_PREVIEW,
            reply_markup=keyboard(msg.ref, msg.version, msg.buttons)))

    async def notify(self, msg: Notice) -> None:
        user = int(msg.user_id)
        await self._guard(Place(user), user, lambda at: self.bot.send_message(
            at.chat_id, announcement_html(msg.text, {}), parse_mode=ParseMode.HTML,
            link_preview_options=NO_PREVIEW))

    # --- helpers ----------------------------------------------------------------------------

    async def _show(self, place: Place, user: int | None, key: str, table_id: int,
                    version: int, html: str, markup: InlineKeyboardMarkup | None,
                    ref: MessageRef | None) -> MessageRef:
        if ref is not None:
            try:
                await self._guard(place, user, lambda _at: self.bot.edit_message_text(
                    html, chat_id=int(ref.chat), message_id=int(ref.message_id),
                    parse_mode=ParseMode.HTML, reply_markup=markup,
                    link_preview_options=NO_PREVIEW), edit=True)
            except BadRequest as error:
                if _is_not_modified(error):
                    return ref
                raise
            return ref
        sent = await self._guard(place, user, lambda at: self.bot.send_message(
            at.chat_id, html, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=at.thread_id, link_preview_options=NO_PREVIEW))
        assert isinstance(sent, Message)
        return MessageRef(key=key, chat=str(sent.chat_id), message_id=str(sent.message_id))

    async def _guard(self, place: Place, user: int | None,
                        call: Callable[[Place], Awaitable[T]], *, edit: bool = False) -> T:
        """Run one Bot API call at `place`, translating Telegram's refusals into delivery
        errors; a group that became a supergroup is followed to its new id."""
        try:
            return await call(place)
        except Forbidden as error:
            if user is not None:
                self._on_unreachable(user)
                raise UserUnreachable(str(user)) from error
            raise ChannelGone(place.key) from error
        except ChatMigrated as error:
            # A group became a supergroup under a new id: its tables move there, and what
            # was to be sent goes there; a message of the old chat can no longer be edited.
            new = Place(int(error.new_chat_id), place.thread_id)
            log.info("chat %s migrated to %s", place.chat_id, new.chat_id)
            if self.tables is not None:
                await events.happened(self.tables,
                                      events.ChatMoved(str(place.chat_id), str(new.chat_id)))
            if edit:
                raise MessageGone(str(error)) from error
            return await self._guard(new, user, call)
        except BadRequest as error:
            text = error.message.lower()
            if _is_not_modified(error):
                raise
            if any(marker in text for marker in GONE_MESSAGE):
                raise MessageGone(text) from error
            if any(marker in text for marker in GONE_CHAT):
                if user is not None:
                    self._on_unreachable(user)
                    raise UserUnreachable(str(user)) from error
                raise ChannelGone(place.key) from error
            raise
