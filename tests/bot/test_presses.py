"""One press, one reply: `Tables.press` checks a press and reads its table once, and its
reply says where it acted and, for an adapter that answers in place, what to show there.
A press naming another table, version or seat than the presser may act on is refused
before it reaches a table, and changes nothing."""

from dataclasses import replace

from bot.authority import Press
from bot.live import Acted
from bot.render import encode_payload
from bot.tables import Tables
from db.repository import PLAYING
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE
from tests.bot.test_authority import a_legal_move, game_under_way, yes
from tests.reliability.checks import row_state


def _counting_loads(monkeypatch) -> list[int]:
    """The tables read for a person's press or command, in order."""
    loads: list[int] = []
    real = Tables.loaded_table

    async def counted(self, table_id, **kwargs):
        loads.append(table_id)
        return await real(self, table_id, **kwargs)

    monkeypatch.setattr(Tables, "loaded_table", counted)
    return loads


def _mover(live):
    seat = live.seats[live.game.to_act(live.state)[0]]
    return next(a for a in (ALICE, BOB, CAROL) if a.user_id == seat.user_id), seat.seat


async def test_a_hand_asked_for_in_place_comes_drawn_and_is_kept_once_shown(
        harness, monkeypatch):
    table_id = await game_under_way(harness)
    tables = harness.tables
    live = await tables.live_table(table_id)
    seat = live.seat_of(BOB.user_id).seat
    shown_before = harness.sink.hands[(table_id, BOB.user_id)]
    loads = _counting_loads(monkeypatch)
    payload = await harness.payload(table_id, live.row.version, "hand")

    reply = await tables.press(BOB, Press(payload, CHANNEL, in_place=True))

    assert reply.ok and loads == [table_id]
    assert reply.acted == Acted(table_id, live.ref, CHANNEL, seat)
    assert reply.shown is not None and "Your hand" in reply.shown.rendering.text
    assert reply.text == reply.shown.rendering.text
    assert reply.shown.message == tables.outbox.ref(table_id, f"hand:{seat}")
    await tables.settle()
    assert harness.sink.hands[(table_id, BOB.user_id)] is shown_before, "not sent twice"
    await reply.shown.keep()
    await tables.settle()
    assert harness.sink.hands[(table_id, BOB.user_id)] is not shown_before


async def test_a_hand_asked_for_elsewhere_is_sent_as_ever(harness):
    table_id = await game_under_way(harness)
    tables = harness.tables
    live = await tables.live_table(table_id)
    shown_before = harness.sink.hands[(table_id, BOB.user_id)]
    payload = await harness.payload(table_id, live.row.version, "hand")
    reply = await tables.press(BOB, Press(payload, CHANNEL))
    assert reply.ok and reply.shown is None and "Your hand" in reply.text
    await tables.settle()
    assert harness.sink.hands[(table_id, BOB.user_id)] is not shown_before


async def test_a_spectator_asking_for_a_hand_is_told_and_shown_nothing(harness):
    table_id = await game_under_way(harness)
    live = await harness.tables.live_table(table_id)
    payload = await harness.payload(table_id, live.row.version, "hand")
    reply = await harness.tables.press(DAVE, Press(payload, CHANNEL, in_place=True))
    assert not reply.ok and reply.text == "You are not playing at this table."
    assert reply.shown is None and reply.acted is not None and reply.acted.seat is None


async def test_a_move_pressed_on_the_hand_returns_the_new_hand_and_reads_the_table_once(
        harness, monkeypatch):
    table_id = await game_under_way(harness)
    tables = harness.tables
    live = await tables.live_table(table_id)
    mover, seat = _mover(live)
    action = await a_legal_move(harness, table_id)
    hand = tables.outbox.ref(table_id, f"hand:{seat}")
    payload = await harness.payload(table_id, live.row.version, action)
    seen: list[Acted] = []
    loads = _counting_loads(monkeypatch)

    reply = await tables.press(mover, Press(payload, None, hand.message_id, in_place=True,
                                            before=seen.append))

    assert reply.ok, reply.text
    assert loads == [table_id]
    assert seen == [reply.acted] and reply.acted.seat == seat
    assert reply.shown is not None and reply.shown.rendering.version == live.row.version == 1


async def test_start_pressed_on_the_lobby_returns_the_table_to_show_in_its_place(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    await tables.settle()
    table_id = (await tables.table_for_channel(CHANNEL)).id
    lobby = tables.outbox.ref(table_id, "table")
    payload = await harness.payload(table_id, 0, "start")

    reply = await tables.press(ALICE, Press(payload, CHANNEL, lobby.message_id, in_place=True))

    assert reply.ok, reply.text
    assert (await tables.live_table(table_id)).row.status == PLAYING
    assert reply.shown is not None and reply.shown.message == lobby
    assert "Alice" in reply.shown.rendering.text


async def test_start_pressed_on_another_message_starts_but_shows_nothing_in_place(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    await tables.settle()
    table_id = (await tables.table_for_channel(CHANNEL)).id
    payload = await harness.payload(table_id, 0, "start")
    reply = await tables.press(ALICE, Press(payload, CHANNEL, "not-the-lobby", in_place=True))
    assert reply.ok and reply.shown is None


async def test_forged_presses_are_refused_before_any_table_and_change_nothing(harness):
    table_id = await game_under_way(harness)
    tables = harness.tables
    live = await tables.live_table(table_id)
    mover, seat = _mover(live)
    action = await a_legal_move(harness, table_id)
    own_hand = tables.outbox.ref(table_id, f"hand:{seat}")
    other_seat = next(s.seat for s in live.seats if s.seat != seat)
    others_hand = tables.outbox.ref(table_id, f"hand:{other_seat}")
    ref = live.ref
    tampered = ref[:-1] + ("A" if ref[-1] != "A" else "B")
    seen: list[Acted] = []
    before = row_state(harness.path)

    forged = [
        # Another chat's table named from this one, and a reference the bot never made.
        Press(encode_payload(ref, live.row.version, action), "chan-2", is_admin=yes),
        Press(encode_payload(tampered, live.row.version, action), CHANNEL),
        Press(encode_payload(f"{table_id + 1}_{ref.split('_', 1)[1]}", 0, action), CHANNEL),
        # Another seat's hand message, in a private chat.
        Press(encode_payload(ref, live.row.version, action), None, others_hand.message_id),
        # Garbage.
        Press("x" * 60, CHANNEL),
    ]
    for press in forged:
        reply = await tables.press(mover, replace(press, in_place=True, before=seen.append))
        assert not reply.ok, press
        assert reply.acted is None and reply.shown is None, press
    assert seen == []
    assert row_state(harness.path) == before
    # A version the table has moved past: checked, acted on, refused as out of date.
    honest = Press(encode_payload(ref, live.row.version, action), None, own_hand.message_id)
    assert (await tables.press(mover, honest)).ok
    await tables.settle()
    after_the_move = row_state(harness.path)
    reply = await tables.press(mover, replace(honest, in_place=True))
    assert not reply.ok and "out of date" in reply.text
    assert reply.acted is not None and reply.shown is None
    assert row_state(harness.path) == after_the_move
