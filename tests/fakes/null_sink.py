"""A platform that shows nothing: for runs about what is stored (crash test, service bench)."""

from bot.deliveries import Announcement, HandMessage, Notice, TableMessage
from db.repository import MessageRef


class NullSink:
    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        return ref or MessageRef(key="table", chat=msg.channel, message_id="1")

    async def show_hand(self, msg: HandMessage, ref: MessageRef | None) -> MessageRef:
        return ref or MessageRef(key=f"hand:{msg.seat}", chat=msg.user_id, message_id="1")

    async def announce(self, msg: Announcement) -> None:
        return None

    async def notify(self, msg: Notice) -> None:
        return None
