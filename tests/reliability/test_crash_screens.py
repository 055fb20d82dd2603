"""SIGKILL while a move's deliveries are in flight: after a restart the screens catch up.

A move is stored in one transaction; the table message and the hands follow from memory.
A real `python -m bot` process on the fake Telegram is killed once its move is stored and
its edits are on the wire (the fake holds them unanswered, then drops them); a second
process on the same database file must show, by itself and within 10 seconds, the table
message at the stored version and the next player's hand with buttons for that version.
"""

import asyncio
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path

from bot.render import decode_payload
from engine import games
from tests.adapters.telegram_rig import GROUP, HAND_MARK, TABLE_MARK
from tests.fakes.telegram_api import FakeMessage, FakeTelegram, FakeUser

ROOT = Path(__file__).resolve().parents[2]
CATCH_UP = 10.0  # seconds, from the new process's start


async def bot_process(fake: FakeTelegram, db: Path) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=fake.url,
               DATABASE_URL=f"sqlite:///{db}", PYTHONPATH=str(ROOT), DEFAULT_LANG="en",
               NO_PROXY="127.0.0.1,localhost", BOT_DELAY="0", PING_DELAY="0")
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=db.parent, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


def stored(db: Path) -> tuple[int, int, str, list[str | None]]:
    """The table's id, version, the user to act (by the stored snapshot) and its seats."""
    conn = sqlite3.connect(db)
    try:
        table_id, game_id, version, snapshot = conn.execute(
            "SELECT id, game, version, snapshot FROM tables ORDER BY id DESC LIMIT 1").fetchone()
        seats = [u for (u,) in conn.execute(
            "SELECT user_id FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]
    finally:
        conn.close()
    if snapshot is None:  # still a lobby
        return table_id, -1, "", seats
    game = games.get(game_id)
    to_act = game.to_act(game.load(snapshot))
    return table_id, version, str(seats[to_act[0]]), seats


def versions_of(message: FakeMessage, table_id: int) -> set[int]:
    decoded = [decode_payload(b.get("callback_data", "")) for b in message.buttons]
    return {d.version for d in decoded if d is not None and d.table_id == table_id}


def table_message(fake: FakeTelegram) -> FakeMessage | None:
    shown = [m for m in fake.find(GROUP) if m.text.startswith(TABLE_MARK)]
    return shown[-1] if shown else None


def hand_with_moves(fake: FakeTelegram, user: FakeUser, table_id: int, version: int
                    ) -> tuple[FakeMessage, str] | None:
    def ours(data: str) -> bool:
        decoded = decode_payload(data)
        return decoded is not None and (decoded.table_id, decoded.version) == (
            table_id, version) and decoded.action.startswith("m:")

    for message in fake.find(user.id):
        data = [b["callback_data"] for b in message.buttons
                if message.text.startswith(HAND_MARK) and ours(b.get("callback_data", ""))]
        if data:
            plays = [d for d in data if not d.endswith("m:pass")]
            return message, (plays or data)[0]
    return None


async def stop(*processes: asyncio.subprocess.Process | None) -> None:
    for process in processes:
        if process is not None and process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), timeout=30)


async def no_traceback(process: asyncio.subprocess.Process | None) -> None:
    """The restarted process caught up without a traceback in its log."""
    assert process is not None
    err = await process.stderr.read() if process.stderr else b""
    assert b"Traceback" not in err, err.decode()[-2000:]


async def open_ochs(fake: FakeTelegram, users: list[FakeUser], options: str) -> None:
    """The first user opens Ochs & Esel with `options` in the group, the others join, it
    starts, and every player's hand is out."""
    host, *guests = users
    await fake.wait_for_call("getUpdates", timeout=30)
    for user in users:
        fake.start_bot(user)
    fake.send_command(GROUP, host, f"/newgame ochs {options}")
    await fake.wait_for(lambda: table_message(fake), timeout=15)
    for user in guests:
        fake.send_command(GROUP, user, "/join")
    await fake.wait_for(lambda: all(u.first_name in (table_message(fake) or host).text
                                    for u in guests), timeout=15)
    fake.send_command(GROUP, host, "/start")


async def test_killed_with_a_moves_edits_in_flight_the_restarted_bot_redraws_table_and_hand(
    tmp_path,
):
    db = tmp_path / "bot.db"
    async with FakeTelegram() as fake:
        users = {str(u.id): u for u in (fake.user(101, "Alice"), fake.user(102, "Bob"),
                                        fake.user(103, "Carol"))}
        alice, bob, carol = users.values()
        fake.add_chat(GROUP, "supergroup", title="Cards")
        first = await bot_process(fake, db)
        second: asyncio.subprocess.Process | None = None
        try:
            await open_ochs(fake, [alice, bob, carol], "rounds=1")
            await fake.wait_for(lambda: stored(db)[1] == 0 and all(
                any(m.text.startswith(HAND_MARK) for m in fake.find(u.id))
                for u in users.values()), timeout=15)

            # One move plays normally, so the table shows a move; the next one is cut off.
            table_id, version, user_id, _ = stored(db)
            message, data = await fake.wait_for(
                lambda: hand_with_moves(fake, users[user_id], table_id, version), timeout=15)
            fake.press(users[user_id].id, message.message_id, users[user_id], data)
            await fake.wait_for(lambda: table_message(fake) is not None and versions_of(
                table_message(fake), table_id) == {version + 1}, timeout=15)
            table_id, version, user_id, _ = stored(db)
            message, data = await fake.wait_for(
                lambda: hand_with_moves(fake, users[user_id], table_id, version), timeout=15)

            fake.hold("editMessageText", "sendMessage", "editMessageReplyMarkup")
            press = fake.press(users[user_id].id, message.message_id, users[user_id], data)
            # Answered once stored; its table edit is then on the wire, held.
            await fake.wait_for(lambda: press.answer is not None, timeout=15)
            await fake.wait_for(lambda: any(c.chat_id == GROUP and c.method == "editMessageText"
                                            for c in fake.held_calls), timeout=15)
            first.send_signal(signal.SIGKILL)
            await first.wait()
            fake.drop_held()

            table_id, new_version, next_user, _ = stored(db)
            assert new_version == version + 1, "the move was stored before the kill"
            before = table_message(fake)
            assert before is not None and versions_of(before, table_id) == {version}, (
                "the table message was still one move behind when the process died")
            assert hand_with_moves(fake, users[next_user], table_id, new_version) is None
            assert press.answer is not None and not press.answer.get("show_alert")

            restarted = time.monotonic()
            second = await bot_process(fake, db)
            shown = await fake.wait_for(
                lambda: (m := table_message(fake)) is not None
                and versions_of(m, table_id) == {new_version} and m, timeout=CATCH_UP)
            await fake.wait_for(
                lambda: hand_with_moves(fake, users[next_user], table_id, new_version),
                timeout=max(0.1, CATCH_UP - (time.monotonic() - restarted)))

            def hands_current() -> bool:
                # Every seat's hand, the mover's too, drawn for the stored version: no hand
                # keeps the buttons of the move that was played.
                hands = {u: [m for m in fake.find(int(u)) if m.text.startswith(HAND_MARK)]
                         for u in users}
                return all(shown and all(versions_of(m, table_id) <= {new_version}
                                         for m in shown) for shown in hands.values())

            await fake.wait_for(hands_current,
                                timeout=max(0.1, CATCH_UP - (time.monotonic() - restarted)))
            assert time.monotonic() - restarted < CATCH_UP
            # The redrawn table still lists the last moves, the interrupted one included.
            assert "Last moves" in shown.text, shown.text
            assert shown.text.count("\n·") >= 2, shown.text
        finally:
            await stop(first, second)
        await no_traceback(second)


def status_of(db: Path, table_id: int) -> str:
    conn = sqlite3.connect(db)
    try:
        (status,) = conn.execute("SELECT status FROM tables WHERE id = ?",
                                 (table_id,)).fetchone()
    finally:
        conn.close()
    return str(status)


def hands_of(fake: FakeTelegram, user: FakeUser) -> list[FakeMessage]:
    return [m for m in fake.find(user.id) if m.text.startswith(HAND_MARK)]


async def test_killed_between_a_cancel_and_its_hands_the_restarted_bot_closes_the_hands(
    tmp_path,
):
    """'No screen left lying': /cancel is stored, the process dies before the hands are
    edited; the next process closes them (no move button left that answers 'out of date')."""
    db = tmp_path / "bot.db"
    async with FakeTelegram() as fake:
        users = [fake.user(101, "Alice"), fake.user(102, "Bob"), fake.user(103, "Carol")]
        alice = users[0]
        fake.add_chat(GROUP, "supergroup", title="Cards")
        first = await bot_process(fake, db)
        second: asyncio.subprocess.Process | None = None
        try:
            await open_ochs(fake, users, "rounds=1 deadline=off")
            table_id, _, user_id, _ = await fake.wait_for(
                lambda: (s := stored(db))[1] == 0 and s, timeout=15)
            to_act = next(u for u in users if str(u.id) == user_id)
            await fake.wait_for(lambda: hand_with_moves(fake, to_act, table_id, 0), timeout=15)

            fake.hold("editMessageText", "sendMessage", "editMessageReplyMarkup")
            fake.send_command(GROUP, alice, "/cancel")
            await fake.wait_for(lambda: status_of(db, table_id) == "cancelled", timeout=15)
            await fake.wait_for(lambda: fake.held_calls, timeout=15)  # its edits on the wire
            first.send_signal(signal.SIGKILL)
            await first.wait()
            fake.drop_held()
            assert hand_with_moves(fake, to_act, table_id, 0) is not None, (
                "the hand still offered its moves when the process died")

            second = await bot_process(fake, db)

            def hands_closed() -> bool:
                return all(hands_of(fake, u) and all(
                    "cancelled" in m.text and not versions_of(m, table_id)
                    for m in hands_of(fake, u)) for u in users)

            await fake.wait_for(hands_closed, timeout=CATCH_UP)
            shown = table_message(fake)
            assert shown is not None and "cancelled" in shown.text
        finally:
            await stop(first, second)
        await no_traceback(second)
