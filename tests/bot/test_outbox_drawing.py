"""Messages are drawn when they are sent: one replaced while it waited is never drawn."""

import asyncio

from bot.deliveries import TableMessage
from bot.live import TOLD_MOVES, Told
from bot.outbox import Outbox
from bot.render import Rendering
from db.repository import MessageRef, Unreachable


class SlowSink:
    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.shown: list[str] = []

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        self.shown.append(msg.rendering.text)  # drawn, then the request takes its time
        await self.release.wait()
        return MessageRef(key="table", chat=msg.channel, message_id="1")


class NoStore:
    async def messages(self, table_id: int) -> dict[str, MessageRef]:
        return {}

    async def set_message(self, table_id: int, ref: MessageRef) -> None:
        return None


async def _nothing(*_args: object) -> None:
    return None


async def test_a_table_message_replaced_while_waiting_is_never_drawn():
    sink = SlowSink()
    outbox = Outbox(sink, NoStore(), on_channel_gone=_nothing,  # type: ignore[arg-type]
                    on_unreachable=_nothing)
    drawn: list[int] = []
    state = {"version": 0}

    def draw(n: int):
        def make() -> Rendering:
            drawn.append(n)
            return Rendering(title=f"table at v{state['version']}", lines=[], version=n)
        return make

    outbox.put(TableMessage(table_id=1, channel="c", draw=draw(1)))
    await asyncio.sleep(0)  # the first is in flight, waiting for the platform
    for n in (2, 3, 4):  # three moves meanwhile: each replaces the one pending
        state["version"] = n
        outbox.put(TableMessage(table_id=1, channel="c", draw=draw(n)))
    sink.release.set()
    await outbox.flush()
    assert drawn == [1, 4]  # the two replaced renderings cost nothing
    assert sink.shown == ["table at v0", "table at v4"]


async def test_news_of_replaced_messages_is_kept_up_to_what_a_table_narrates():
    """The console prints each move's lines from the news; a channel waiting its turn
    keeps the news of the moves meanwhile, but no more than a table keeps to narrate."""
    sink = SlowSink()
    outbox = Outbox(sink, NoStore(), on_channel_gone=_nothing,  # type: ignore[arg-type]
                    on_unreachable=_nothing)

    def message(move: int) -> TableMessage:
        return TableMessage(table_id=1, channel="c",
                            draw=lambda: Rendering(title=f"v{move}", lines=[]),
                            news=[Told(lambda move=move: [f"move {move}"])])

    outbox.put(message(0))
    await asyncio.sleep(0)  # in flight
    for move in range(1, 4):
        outbox.put(message(move))
    [pending] = next(iter(q for q in outbox._queues.values() if q))
    assert [told.lines for told in pending.news] == [["move 1"], ["move 2"], ["move 3"]]
    for move in range(4, 100):
        outbox.put(message(move))
    [pending] = next(iter(q for q in outbox._queues.values() if q))
    assert [told.lines for told in pending.news] == [
        [f"move {m}"] for m in range(100 - TOLD_MOVES, 100)]
    sink.release.set()
    await outbox.flush()
    assert sink.shown == ["v0", "v99"]


class DownFor:
    """A database that cannot be reached for the first `calls` reads of message ids."""

    def __init__(self, calls: int) -> None:
        self.calls = calls

    async def messages(self, table_id: int) -> dict[str, MessageRef]:
        if self.calls > 0:
            self.calls -= 1
            raise Unreachable("ConnectionRefusedError: [Errno 111] Connect call failed")
        return {}

    async def set_message(self, table_id: int, ref: MessageRef) -> None:
        return None


class ShownSink:
    def __init__(self) -> None:
        self.shown: list[str] = []

    async def show_table(self, msg: TableMessage, ref: MessageRef | None) -> MessageRef:
        self.shown.append(msg.rendering.text)
        return MessageRef(key="table", chat=msg.channel, message_id="1")


async def test_a_delivery_waits_out_a_database_outage_longer_than_its_attempts():
    """Twenty tries against a database that is down (far more than the 5 attempts a
    failing delivery gets): the table message is shown once it is back, not given up."""
    sink = ShownSink()
    outbox = Outbox(sink, DownFor(20), on_channel_gone=_nothing,  # type: ignore[arg-type]
                    on_unreachable=_nothing, backoff=0.001)
    outbox.put(TableMessage(table_id=1, channel="c",
                            draw=lambda: Rendering(title="the stored table", lines=[])))
    await asyncio.wait_for(outbox.flush(), 10)
    assert sink.shown == ["the stored table"]


async def test_a_delivery_for_a_table_driven_elsewhere_meanwhile_is_left_to_its_driver():
    sink = ShownSink()
    driven = {1}
    outbox = Outbox(sink, DownFor(3), on_channel_gone=_nothing,  # type: ignore[arg-type]
                    on_unreachable=_nothing, backoff=0.001, drives=driven.__contains__)
    outbox.put(TableMessage(table_id=1, channel="c",
                            draw=lambda: Rendering(title="the stored table", lines=[])))
    await asyncio.sleep(0)
    driven.clear()  # the process lost its link: another process draws the table
    await asyncio.wait_for(outbox.flush(), 10)
    assert sink.shown == []


async def test_closing_ends_deliveries_that_wait_whatever_for():
    sink = SlowSink()  # never answers: a flood wait, a platform that hangs
    outbox = Outbox(sink, NoStore(), on_channel_gone=_nothing,  # type: ignore[arg-type]
                    on_unreachable=_nothing)
    outbox.put(TableMessage(table_id=1, channel="c",
                            draw=lambda: Rendering(title="t", lines=[])))
    await asyncio.sleep(0)
    await asyncio.wait_for(outbox.close(within=0.2), 5)
    assert outbox.depth() == 0


async def test_observers_hear_of_each_delivery_as_it_is_queued_and_cannot_stop_it():
    """The web pages hear of a move when the outbox takes its deliveries, while the chat
    still waits; an observer that fails changes nothing for the chat."""
    sink = SlowSink()
    outbox = Outbox(sink, NoStore(), on_channel_gone=_nothing,  # type: ignore[arg-type]
                    on_unreachable=_nothing)
    heard: list[int | None] = []

    def broken(_delivery: object) -> None:
        raise RuntimeError("a page's bug")

    outbox.observe(broken)
    outbox.observe(lambda delivery: heard.append(delivery.table_id))  # type: ignore[attr-defined]
    for table_id in (1, 2):
        outbox.put(TableMessage(table_id=table_id, channel=f"c{table_id}",
                                draw=lambda: Rendering(title="t", lines=[])))
    assert heard == [1, 2]  # before anything reached the chat
    assert sink.shown == []
    sink.release.set()
    await outbox.flush()
    assert sink.shown == ["t", "t"]
