"""Authority comes from the platform, never from a payload.

A press acts only on the table of the chat its message lives in, or, from a private
chat, only on the presser's own hand message; admin rights are those the platform
reports for the table's own chat; a link seats only a member of that chat; and no one
can name a table by guessing its id.
"""

import pytest

from bot.authority import Press, RightsUnknown
from bot.i18n import t
from bot.render import encode_payload
from db.repository import FINISHED, LOBBY, PLAYING
from tests.bot.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, DAVE, people_play
from tests.reliability.checks import row_state

OTHER = "chan-2"  # Mallory's own group
MALLORY = DAVE

ELSEWHERE = {"en": "This button belongs to a table in another chat: it does nothing here.",
             "fr": "Ce bouton appartient à une table d'une autre discussion : il ne fait "
                   "rien ici."}
RIGHTS_UNKNOWN = {"en": "I couldn't check your rights just now; try again in a moment. "
                        "Nothing was changed.",
                  "fr": "Je n'ai pas pu vérifier vos droits pour l'instant ; réessayez dans "
                        "un instant. Rien n'a été changé."}


async def yes() -> bool:
    return True


async def cannot_tell() -> bool:
    raise RightsUnknown


async def lobby_with_a_bot(harness) -> int:
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.add_bot(ALICE, CHANNEL)).ok
    await tables.settle()
    return (await tables.table_for_channel(CHANNEL)).id


async def game_under_way(harness) -> int:
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "ochs-esel", ["deadline=off"])).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.join(CAROL, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    assert reply.ok, reply.text
    await tables.settle()
    return reply.table_id


async def a_legal_move(harness, table_id: int) -> str:
    live = await harness.tables.live_table(table_id)
    seat = live.game.to_act(live.state)[0]
    return f"m:{live.game.legal_moves(live.state, seat)[0]}"


@pytest.mark.parametrize("action", ["join", "leave", "start", "addbot", "removebot",
                                    "options"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_forged_lobby_press_from_another_chat_is_refused_and_changes_nothing(
        harness, action, lang):
    table_id = await lobby_with_a_bot(harness)
    version = (await harness.tables.live_table(table_id)).row.version
    await harness.tables.set_lang(MALLORY, OTHER, lang, personal=True)
    before = row_state(harness.path)
    # Mallory is admin of her own group and presses there a button naming Alice's table.
    reply = await harness.press(MALLORY, table_id, version, action, channel=OTHER, admin=True)
    assert not reply.ok and reply.text == ELSEWHERE[lang]
    # Alice's own players too: a press counts only in the table's own chat.
    reply = await harness.press(ALICE, table_id, version, action, channel=OTHER, admin=True)
    assert not reply.ok and reply.text == ELSEWHERE["en"]
    await harness.tables.settle()
    assert row_state(harness.path) == before


@pytest.mark.parametrize("action", ["hand", "move", "rematch", "leave"])
async def test_a_forged_game_press_from_another_chat_is_refused_and_changes_nothing(
        harness, action):
    table_id = await game_under_way(harness)
    live = await harness.tables.live_table(table_id)
    if action == "move":
        action = await a_legal_move(harness, table_id)
    mover = live.seats[live.game.to_act(live.state)[0]].user_id
    actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == mover)
    before = row_state(harness.path)
    reply = await harness.press(actor, table_id, live.row.version, action, channel=OTHER)
    assert not reply.ok and reply.text == ELSEWHERE["en"]
    await harness.tables.settle()
    assert row_state(harness.path) == before
    assert live.row.status == PLAYING


async def test_a_forged_rematch_of_a_finished_table_from_another_chat_is_refused(harness):
    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "nix-fur-ungut", ["rounds=1",
                                                                     "deadline=off"])).ok
    assert (await tables.add_bot(ALICE, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    live = await tables.live_table(reply.table_id)
    await tables.leave(ALICE, CHANNEL)  # bots finish it; Alice's seat stays hers to rematch
    for _ in range(500):
        await tables.settle()
        if live.row.status == FINISHED:
            break
    assert live.row.status == FINISHED
    before = row_state(harness.path)
    reply = await harness.press(ALICE, live.id, live.row.version, "rematch", channel=OTHER)
    assert not reply.ok and reply.text == ELSEWHERE["en"]
    assert row_state(harness.path) == before
    assert await tables.table_for_channel(OTHER) is None


@pytest.mark.parametrize("action", ["join", "leave", "start", "addbot", "removebot",
                                    "options", "rematch"])
async def test_a_lobby_press_from_a_private_chat_is_refused(harness, action):
    table_id = await lobby_with_a_bot(harness)
    before = row_state(harness.path)
    payload = await harness.payload(table_id, 0, action)
    reply = await harness.tables.press(CAROL, Press(payload, None, "1", yes))
    assert not reply.ok and reply.text == ELSEWHERE["en"]
    assert row_state(harness.path) == before


async def test_a_hand_press_in_private_acts_only_on_the_pressers_own_hand_message(harness):
    table_id = await game_under_way(harness)
    live = await harness.tables.live_table(table_id)
    action = await a_legal_move(harness, table_id)
    mover = live.seats[live.game.to_act(live.state)[0]]
    actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == mover.user_id)
    other = next(s for s in live.seats if s.seat != mover.seat)
    others_hand = harness.tables.outbox.ref(table_id, f"hand:{other.seat}")
    payload = await harness.payload(table_id, live.row.version, action)
    before = row_state(harness.path)

    # On a message that is not this seat's hand (another player's hand message id).
    reply = await harness.tables.press(actor, Press(payload, None, others_hand.message_id))
    assert not reply.ok and "not on your hand" in reply.text
    reply = await harness.tables.press(actor, Press(payload, None, None))
    assert not reply.ok and "not on your hand" in reply.text
    # By someone with no seat there, whatever message they press it on.
    reply = await harness.tables.press(MALLORY, Press(payload, None, others_hand.message_id))
    assert not reply.ok and reply.text == "You are not playing at this table."
    assert row_state(harness.path) == before

    # The honest press, on the mover's own hand message, plays.
    reply = await harness.press_on_hand(actor, table_id, live.row.version, action)
    assert reply.ok, reply.text
    assert live.row.version == 1


async def test_only_the_host_or_an_admin_of_the_tables_own_chat_manages_its_lobby(harness):
    table_id = await lobby_with_a_bot(harness)
    before = row_state(harness.path)
    # Bob is no admin there: refused. The actor's own claim to be an admin counts for nothing.
    reply = await harness.press(ADMIN, table_id, 0, "removebot")
    assert not reply.ok and "host" in reply.text
    assert row_state(harness.path) == before
    # An admin of the table's chat may.
    reply = await harness.press(MALLORY, table_id, 0, "removebot", admin=True)
    assert reply.ok, reply.text
    live = await harness.tables.live_table(table_id)
    assert [s.name for s in live.seats] == ["Alice", "Bob"]


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_rights_the_platform_cannot_check_refuse_and_change_nothing(harness, lang):
    table_id = await lobby_with_a_bot(harness)
    await harness.tables.set_lang(MALLORY, CHANNEL, lang, personal=True)
    before = row_state(harness.path)
    for action in ("start", "addbot", "removebot"):
        payload = await harness.payload(table_id, 0, action)
        reply = await harness.tables.press(MALLORY, Press(payload, CHANNEL, "1", cannot_tell))
        assert not reply.ok and reply.text == RIGHTS_UNKNOWN[lang]
    assert row_state(harness.path) == before
    # The host needs no check, so a platform hiccup does not stop her.
    payload = await harness.payload(table_id, 0, "removebot")
    assert (await harness.tables.press(ALICE, Press(payload, CHANNEL, "1", cannot_tell))).ok


@pytest.mark.parametrize("payload", [
    "².0.join", "1.0.join", "1_AAAAAAAAAA.0.join", "9223372036854775808_AAAAAAAAAA.0.join",
    "1_AAAAAAAAA².0.join", "1_" + "A" * 10 + ".²." + "join", "-1_AAAAAAAAAA.0.join",
    "1_AAAAAAAAAA.99999999999999999999.join", "",
])
async def test_guessed_or_malformed_references_are_refused_in_words(harness, payload):
    table_id = await lobby_with_a_bot(harness)
    assert table_id == 1  # the id is easy to guess; the reference is not
    before = row_state(harness.path)
    reply = await harness.tables.press(MALLORY, Press(payload, CHANNEL, "1", yes))
    assert not reply.ok and reply.text == "That button isn't one of mine."
    assert row_state(harness.path) == before


async def test_a_tag_made_for_one_table_does_not_name_another(harness):
    first = await lobby_with_a_bot(harness)
    assert (await harness.tables.new_game(ALICE, OTHER, "ochs-esel")).ok
    second = (await harness.tables.table_for_channel(OTHER)).id
    tag = (await harness.tables.ref(first)).split("_")[1]
    reply = await harness.tables.press(BOB, Press(f"{second}_{tag}.0.join", OTHER))
    assert not reply.ok and reply.text == "That button isn't one of mine."


async def test_references_survive_a_restart_and_differ_between_databases(harness, tmp_path,
                                                                          settings):
    from tests.bot.conftest import Harness

    table_id = await lobby_with_a_bot(harness)
    ref = await harness.tables.ref(table_id)
    await harness.restart()
    assert await harness.tables.ref(table_id) == ref
    assert (await harness.press(CAROL, table_id, 0, "join")).ok  # an old button still works
    other = Harness(tmp_path / "other.db", settings)
    await other.open()
    try:
        assert await other.tables.ref(table_id) != ref  # each bot makes its own secret
    finally:
        await other.close()


async def member_of(channels: set[str], *, except_for: str = ""):
    """The platform's answer: every user but `except_for` is a member of `channels`."""
    async def check(user_id: str, channel: str) -> bool:
        return channel in channels and user_id != except_for
    return check


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_link_seats_only_a_member_of_the_tables_chat(harness, lang):
    table_id = await lobby_with_a_bot(harness)
    ref = await harness.tables.ref(table_id)
    await harness.tables.set_lang(MALLORY, None, lang, personal=True)
    before = row_state(harness.path)
    reply = await harness.tables.join_link(MALLORY, ref, await member_of({OTHER}))
    assert not reply.ok
    assert reply.text == {"en": "Only members of the table's chat can sit at it: join that "
                                "chat first.",
                          "fr": "Seuls les membres de la discussion de la table peuvent s'y "
                                "asseoir : rejoignez-la d'abord."}[lang]

    async def unknown(user_id: str, channel: str) -> bool:
        raise RightsUnknown

    reply = await harness.tables.join_link(MALLORY, ref, unknown)
    assert not reply.ok and reply.text == RIGHTS_UNKNOWN[lang]
    assert row_state(harness.path) == before
    reply = await harness.tables.join_link(MALLORY, ref, await member_of({CHANNEL}))
    assert reply.ok, reply.text
    live = await harness.tables.live_table(table_id)
    assert MALLORY.user_id in [s.user_id for s in live.seats]


@pytest.mark.parametrize("text", ["1", "²", "9223372036854775808", "1_AAAAAAAAAA",
                                  "1_AAAAAAAAAAA", "x" * 500, "", "1_" + "²" * 10])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_guessed_or_malformed_link_is_refused_in_words(harness, text, lang):
    await lobby_with_a_bot(harness)
    await harness.tables.set_lang(MALLORY, None, lang, personal=True)
    before = row_state(harness.path)
    reply = await harness.tables.join_link(MALLORY, text, await member_of({CHANNEL}))
    assert not reply.ok
    assert reply.text == {"en": "This link does not lead to a table: ask for a fresh one in "
                                "the table's chat.",
                          "fr": "Ce lien ne mène à aucune table : demandez-en un nouveau dans "
                                "la discussion de la table."}[lang]
    assert row_state(harness.path) == before


async def test_a_link_to_a_table_no_longer_open_is_refused(harness):
    table_id = await lobby_with_a_bot(harness)
    assert (await harness.tables.cancel(ALICE, CHANNEL)).ok
    reply = await harness.tables.join_link(MALLORY, await harness.tables.ref(table_id),
                                           await member_of({CHANNEL}))
    assert not reply.ok and "no open table" in reply.text
    assert (await harness.tables.live_table(table_id)).row.status not in (LOBBY, PLAYING)


def test_payloads_name_tables_by_reference_within_telegrams_limit():
    ref = "9223372036854775807_" + "A" * 10
    assert len(f"j{ref}") <= 64
    with pytest.raises(ValueError):
        encode_payload(ref, 10**6, "m:" + "7" * 40)


async def test_a_key_that_cannot_be_read_is_refused_with_the_storage_sentence(harness,
                                                                            monkeypatch):
    from db.repository import StorageError

    table_id = await lobby_with_a_bot(harness)
    payload = await harness.payload(table_id, 0, "join")
    ref = await harness.tables.ref(table_id)
    await harness.restart()
    await harness.tables.settle()
    # The key is read on first need (the start-up redraw of recent tables may have read it
    # already): forget it, so the next press must read it again.
    harness.tables.references._key = None

    async def unreadable(*args):
        raise StorageError("disk I/O error")

    monkeypatch.setattr(harness.repo, "secret", unreadable)
    before = row_state(harness.path)
    reply = await harness.tables.press(CAROL, Press(payload, CHANNEL))
    assert not reply.ok and "couldn't save" in reply.text
    reply = await harness.tables.join_link(CAROL, ref, await member_of({CHANNEL}))
    assert not reply.ok and "couldn't save" in reply.text
    assert row_state(harness.path) == before


async def finished_game(harness):
    """Alice, Bob and a bot played Nix für Ungut to its end."""

    tables = harness.tables
    assert (await tables.new_game(ALICE, CHANNEL, "nix-fur-ungut", ["rounds=1",
                                                                     "deadline=off"])).ok
    assert (await tables.join(BOB, CHANNEL)).ok
    assert (await tables.add_bot(ALICE, CHANNEL)).ok
    reply = await tables.start_game(ALICE, CHANNEL)
    live = await tables.live_table(reply.table_id)
    await people_play(tables, live, {ALICE.user_id: ALICE, BOB.user_id: BOB}, turns=500)
    assert live.row.status == FINISHED
    return live


async def test_a_rematch_seats_again_only_those_still_in_the_tables_chat(harness):
    live = await finished_game(harness)
    assert BOB.user_id in [s.user_id for s in live.seats]
    payload = await harness.payload(live.id, live.row.version, "rematch")
    reply = await harness.tables.press(ALICE, Press(
        payload, CHANNEL, "1", is_member=await member_of({CHANNEL}, except_for=BOB.user_id)))
    assert reply.ok, reply.text
    new = await harness.tables.live_table((await harness.tables.table_for_channel(CHANNEL)).id)
    assert new.id != live.id
    assert BOB.user_id not in [s.user_id for s in new.seats]
    assert [s.is_bot for s in new.seats].count(True) == len(new.seats) - 1


async def test_a_rematch_whose_members_cannot_be_checked_asks_to_retry(harness):
    live = await finished_game(harness)

    async def unknown(user_id: str, channel: str) -> bool:
        raise RightsUnknown

    before = row_state(harness.path)
    payload = await harness.payload(live.id, live.row.version, "rematch")
    reply = await harness.tables.press(ALICE, Press(payload, CHANNEL, "1", is_member=unknown))
    assert not reply.ok and reply.text == RIGHTS_UNKNOWN["en"]
    # Nor can someone the platform says has left the chat start one.
    reply = await harness.tables.press(ALICE, Press(
        payload, CHANNEL, "1", is_member=await member_of(set())))
    assert not reply.ok and "join that chat first" in reply.text
    assert row_state(harness.path) == before


@pytest.mark.parametrize("action", ["start", "addbot", "removebot"])
async def test_a_lobby_press_on_a_game_under_way_is_answered_from_the_table_alone(
        harness, action):
    """Whether Bob is an admin changes nothing once the game runs: he is told so even when
    the platform cannot say, and the platform is not asked."""
    table_id = await game_under_way(harness)
    version = (await harness.tables.live_table(table_id)).row.version
    asked = 0

    async def is_admin() -> bool:
        nonlocal asked
        asked += 1
        raise RightsUnknown

    before = row_state(harness.path)
    payload = await harness.payload(table_id, version, action)
    reply = await harness.tables.press(BOB, Press(payload, CHANNEL, "1", is_admin=is_admin))
    assert not reply.ok
    assert reply.text == {"start": "The game has already started.",
                          "addbot": t("en", "not_in_lobby"),
                          "removebot": t("en", "not_in_lobby")}[action]
    assert asked == 0
    assert row_state(harness.path) == before
