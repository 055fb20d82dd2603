"""/mydata and /forgetme on Telegram: python-telegram-bot against the fake Bot API, a real
SQLite file read back afterwards."""

import json
import time

from bot.i18n import t
from bot.privacy import PRIVACY_REF
from bot.render import encode_payload
from db.repository import FINISHED, PLAYING, UserSettings
from tests.adapters.telegram_rig import (
    GROUP,
    hand_messages,
    open_table,
    play_moves,
    press_for_next_player,
)

NAME = "Zephyrine"
OTHER_GROUP = -1005550001


def file_bytes(rig):
    found = b""
    for path in (rig.db, rig.db.with_name(rig.db.name + "-wal")):
        if path.exists():
            found += path.read_bytes()
    return found


async def finished_and_running_tables(rig, fake):
    """Zephyrine plays a whole game with Bob and Carol, then starts another with Bob."""
    zephyrine, bob, carol = fake.user(11, NAME), fake.user(12, "Bob"), fake.user(13, "Carol")
    players = (zephyrine, bob, carol)
    done = await open_table(rig, GROUP, zephyrine, [bob, carol])
    fake.send_command(GROUP, zephyrine, "/start")
    await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
    await play_moves(rig, done, players, limit=400)
    assert (await rig.tables.live_table(done)).row.status == FINISHED
    fake.add_chat(OTHER_GROUP, "supergroup", title="Second")
    running = await open_table(rig, OTHER_GROUP, zephyrine, [bob])
    fake.send_command(OTHER_GROUP, zephyrine, "/addbot")
    fake.send_command(OTHER_GROUP, zephyrine, "/start")
    await fake.wait_for(lambda: rig.tables.table(running).live.row.status == PLAYING)
    return players, done, running


async def play_with_bots(rig, table_id, human):
    """The human presses their moves; bots (her seat's now among them) play theirs."""
    for _ in range(400):
        live = await rig.tables.live_table(table_id)
        if live.row.status == FINISHED:
            return
        if live.seats[live.game.to_act(live.state)[0]].is_bot:
            await rig.fake.wait_for(lambda live=live, version=live.row.version:
                                    live.row.version != version)
        else:
            await press_for_next_player(rig, table_id, {str(human.id): human})


async def last_private(fake, user, contains=""):
    return (await fake.wait_for(lambda: fake.find(user.id, contains=contains)))[-1]


async def test_mydata_sends_a_json_document_of_what_is_stored(rig, fake):
    (zephyrine, _, _), done, running = await finished_and_running_tables(rig, fake)
    fake.send_command(zephyrine.id, zephyrine, "/lang fr", chat_type="private")
    await fake.wait_for(lambda: fake.find(zephyrine.id, contains=t("fr", "lang_set_personal")))

    fake.send_command(zephyrine.id, zephyrine, "/mydata", chat_type="private")

    call = await fake.wait_for_call("sendDocument", timeout=10)
    assert call.chat_id == zephyrine.id
    message = await fake.wait_for(
        lambda: [m for m in fake.find(zephyrine.id) if m.document is not None])
    document = message[-1].document
    assert document["file_name"].endswith(".json")
    data = json.loads(document["content"])
    assert data["user_id"] == str(zephyrine.id) and data["settings"]["language"] == "fr"
    by_table = {entry["table"]: entry for entry in data["tables"]}
    assert set(by_table) == {done, running}
    assert by_table[done]["seats"][0]["name"] == NAME
    assert by_table[done]["results"][0]["rank"] >= 1
    assert by_table[running]["status"] == PLAYING and by_table[running]["you_host"]
    # Nothing about Bob but what he shares with her tables.
    assert all(seat["name"] == NAME for entry in data["tables"] for seat in entry["seats"])


async def test_mydata_and_forgetme_in_a_group_are_refused_and_send_nothing_there(rig, fake):
    zephyrine = fake.user(11, NAME)
    fake.add_chat(GROUP, "supergroup", title="Cards")
    fake.start_bot(zephyrine)
    for command in ("/mydata", "/forgetme"):
        fake.send_command(GROUP, zephyrine, command)
    await fake.wait_for(lambda: len(fake.find(zephyrine.id, contains=t(
        "en", "private_only"))) == 2)
    assert fake.calls_to("sendDocument") == []
    assert not any(m.buttons for m in fake.find(GROUP))


async def test_forgetme_asks_then_removes_the_name_keeps_scores_and_a_bot_takes_the_seat(
        rig, fake):
    (zephyrine, bob, carol), done, running = await finished_and_running_tables(rig, fake)
    fake.send_command(zephyrine.id, zephyrine, "/lang fr", chat_type="private")
    await fake.wait_for(lambda: fake.find(zephyrine.id, contains=t("fr", "lang_set_personal")))
    results_before = [(r.seat, r.score, r.rank) for r in await rig.repo.results(done)]
    bob_stats = await rig.repo.stats("telegram", str(bob.id))
    carol_stats = await rig.repo.stats("telegram", str(carol.id))
    assert NAME.encode() in file_bytes(rig)

    fake.send_command(zephyrine.id, zephyrine, "/forgetme", chat_type="private")
    question = await last_private(fake, zephyrine, t("fr", "forget_ask")[:30])
    assert [b["text"] for b in question.buttons] == [t("fr", "btn_forget"), t("fr", "btn_keep")]
    # Asking changed nothing yet.
    assert (await rig.repo.user_settings("telegram", str(zephyrine.id))).lang == "fr"

    forget = next(b["callback_data"] for b in question.buttons
                  if b["text"] == t("fr", "btn_forget"))
    press = fake.press(zephyrine.id, question.message_id, zephyrine, forget)
    await fake.wait_for(lambda: press.answer is not None, timeout=10)
    assert not press.answer.get("show_alert")
    await fake.wait_for(lambda: question.text == t("fr", "forget_done"))
    assert question.buttons == []

    await rig.tables.settle()
    assert NAME.encode() not in file_bytes(rig)
    assert await rig.repo.user_settings("telegram", str(zephyrine.id)) == UserSettings()
    assert [(r.seat, r.score, r.rank) for r in await rig.repo.results(done)] == results_before
    # The group never chose a language: the default's "a former player" stands for her.
    assert {r.name for r in await rig.repo.results(done)} == {
        t("en", "former_player"), "Bob", "Carol"}
    assert await rig.repo.stats("telegram", str(bob.id)) == bob_stats
    assert await rig.repo.stats("telegram", str(carol.id)) == carol_stats
    assert await rig.repo.stats("telegram", str(zephyrine.id)) == []
    seat = (await rig.repo.get_seats(running))[0]
    assert seat.is_bot and seat.user_id is None and seat.former_user_id is None
    # The game goes on without her: Bob can still play it to the end.
    live = await rig.tables.live_table(running)
    assert live.row.status == PLAYING and live.seat_of(str(zephyrine.id)) is None
    await play_with_bots(rig, running, bob)
    assert (await rig.tables.live_table(running)).row.status == FINISHED
    await rig.tables.settle()
    assert NAME.encode() not in file_bytes(rig)


async def test_forget_buttons_are_honoured_only_fresh_and_in_the_private_chat(rig, fake):
    zephyrine, bob = fake.user(11, NAME), fake.user(12, "Bob")
    fake.add_chat(GROUP, "supergroup", title="Cards")
    table = await open_table(rig, GROUP, zephyrine, [bob])
    lobby = fake.find(GROUP)[-1]
    fresh = encode_payload(PRIVACY_REF, int(time.time() // 60), "forget")
    stale = encode_payload(PRIVACY_REF, int(time.time() // 60) - 60, "forget")

    # Forged onto the group's table message: refused there, and the message is untouched.
    text_before = lobby.text
    press = fake.press(GROUP, lobby.message_id, bob, fresh, forged=True)
    await fake.wait_for(lambda: press.answer is not None)
    assert press.answer["show_alert"] and press.answer["text"] == t("en", "private_only")
    # An hour-old confirmation in her private chat: expired.
    welcome = fake.find(zephyrine.id)[-1]
    press = fake.press(zephyrine.id, welcome.message_id, zephyrine, stale, forged=True)
    await fake.wait_for(lambda: press.answer is not None)
    assert press.answer["show_alert"] and press.answer["text"] == t("en", "forget_expired")

    live = await rig.tables.live_table(table)
    assert [s.name for s in live.seats] == [NAME, "Bob"]
    assert lobby.text == text_before and welcome.text != t("en", "forget_done")
    assert NAME.encode() in file_bytes(rig)


async def test_mydata_again_within_a_minute_is_answered_in_words_with_when(rig, fake):
    zephyrine = fake.user(11, NAME)
    fake.start_bot(zephyrine)
    fake.send_command(zephyrine.id, zephyrine, "/lang fr", chat_type="private")
    await fake.wait_for(lambda: fake.find(zephyrine.id, contains=t("fr", "lang_set_personal")))

    fake.send_command(zephyrine.id, zephyrine, "/mydata", chat_type="private")
    await fake.wait_for_call("sendDocument", timeout=10)
    fake.send_command(zephyrine.id, zephyrine, "/mydata", chat_type="private")

    too_soon = t("fr", "mydata_too_soon", seconds=60).split(" dans ")[0]
    (answer,) = await fake.wait_for(lambda: fake.find(zephyrine.id, contains=too_soon))
    seconds = int(answer.text.rsplit(" dans ", 1)[1].split()[0])
    assert 50 <= seconds <= 60 and answer.text == t("fr", "mydata_too_soon", seconds=seconds)
    assert answer.document is None and len(fake.calls_to("sendDocument")) == 1
