"""/mydata and /forgetme on Discord: discord.py against the fake Discord, a real SQLite
file read back afterwards."""

import json

import pytest

from bot.i18n import t
from bot.privacy import PRIVACY_REF, decode_privacy
from bot.render import decode_payload, encode_payload
from db.repository import FINISHED, PLAYING, UserSettings
from tests.adapters.test_discord import Harness, open_table, play_until
from tests.adapters.test_discord_answers import slowed
from tests.fakes.discord_api import FakeDiscord

pytestmark = pytest.mark.timeout(60)

NAME = "zephyrine"
SHOWN = b"ephyrine"  # her display name is "Zephyrine"
GUILD_MEMBERS = {NAME: "en-US", "erin": "en-US"}  # the `fake` of tests/adapters/conftest.py


def file_bytes(h: Harness) -> bytes:
    return b"".join(p.read_bytes() for p in (h.path, h.path.with_name(h.path.name + "-wal"))
                    if p.exists())


async def finished_then_running(h: Harness, fake: FakeDiscord) -> tuple[int, int]:
    done = await open_table(h, [NAME, "bob", "carol"])
    await play_until(h, done, [NAME, "bob", "carol"])
    assert (await h.tables.live_table(done)).row.status == FINISHED
    second = fake.add_channel(fake.guild, "second")
    running = await open_table(h, [NAME, "bob"], second, game="the-game", options="")
    return done, running


async def bob_plays_on(h: Harness, fake: FakeDiscord, table_id: int) -> None:
    """Bob presses a move of this table's hand each time; the bot in her seat plays its own."""
    for _ in range(400):
        live = await h.tables.live_table(table_id)
        if live.row.status != PLAYING:
            return
        moves = [(m, c) for m in fake.dms("bob") for c in m.custom_ids()
                 if (d := decode_payload(c)) and d.table_id == table_id
                 and d.version == live.row.version and d.action.startswith("m:")]
        assert moves, f"bob has no move at version {live.row.version}"
        message, choice = next(((m, c) for m, c in moves if not c.endswith("m:end")),
                               moves[0])
        await h.click(message, choice, "bob")
    raise AssertionError("the game did not end")


async def test_mydata_answers_a_json_file_only_the_user_sees(h, fake):
    done, running = await finished_then_running(h, fake)
    await h.slash("lang", NAME, language="fr")

    await h.slash("mydata", NAME)

    (upload,) = [r for r in fake.requests if r.uploads]
    (name, content), = upload.uploads.items()
    assert name.endswith(".json")
    assert upload.body.get("flags", 0) & 64, "the file must be ephemeral"
    data = json.loads(content)
    zephyrine = fake.user(NAME)
    assert data["user_id"] == str(zephyrine.id) and data["settings"]["language"] == "fr"
    assert {entry["table"] for entry in data["tables"]} == {done, running}
    assert all(seat["name"] == "Zephyrine" for entry in data["tables"] for seat in entry["seats"])


async def test_forgetme_removes_her_name_keeps_scores_and_her_seat_goes_to_a_bot(h, fake):
    done, running = await finished_then_running(h, fake)
    zephyrine = str(fake.user(NAME).id)
    bob = str(fake.user("bob").id)
    await h.slash("lang", NAME, language="fr")
    results_before = [(r.seat, r.score, r.rank) for r in await h.tables.repo.results(done)]
    bob_stats = await h.tables.repo.stats("discord", bob)
    assert SHOWN in file_bytes(h)

    await h.slash("forgetme", NAME)
    (question,) = [m for m in fake.ephemerals(NAME) if m.content == t("fr", "forget_ask")]
    assert [b["label"] for b in question.buttons()] == [t("fr", "btn_forget"),
                                                      t("fr", "btn_keep")]
    assert (await h.tables.repo.user_settings("discord", zephyrine)).lang == "fr"
    [forget] = [c for c in question.custom_ids() if decode_privacy(c) is not None
                and c.endswith(".forget")]
    await h.click(question, forget, NAME)

    assert question.content == t("fr", "forget_done") and question.buttons() == []
    assert SHOWN not in file_bytes(h)
    repo = h.tables.repo
    assert await repo.user_settings("discord", zephyrine) == UserSettings()
    assert [(r.seat, r.score, r.rank) for r in await repo.results(done)] == results_before
    assert t("en", "former_player") in {r.name for r in await repo.results(done)}
    assert await repo.stats("discord", bob) == bob_stats
    assert await repo.stats("discord", zephyrine) == []
    live = await h.tables.live_table(running)
    assert live.row.status == PLAYING and live.seats[0].is_bot
    await bob_plays_on(h, fake, running)
    assert (await h.tables.live_table(running)).row.status == FINISHED
    assert SHOWN not in file_bytes(h)


async def test_a_forged_forget_press_on_the_table_message_leaves_that_message_alone(h, fake):
    table = await open_table(h, [NAME, "bob", "carol"])
    [message] = [m for m in fake.channel_messages(fake.channel) if m.custom_ids()]
    before = message.content
    forged = encode_payload(PRIVACY_REF, int(h.clock.now() // 60), "keep")

    await h.click(message, forged, "bob", seen="forged")

    assert message.content == before
    assert decode_payload(message.custom_ids()[0]).table_id == table
    assert t("en", "forget_kept") in h.said_to("bob")
    assert [s.name for s in (await h.tables.live_table(table)).seats] == [
        "Zephyrine", "Bob", "Carol"]


@pytest.mark.parametrize("action", ["forget", "keep"])
async def test_a_slow_forget_is_still_answered_on_the_question(h, fake, monkeypatch, action):
    """Forgetting waits for the locks of her tables in play and rewrites every one of them:
    past Discord's 3 seconds the press must be acknowledged first, then the question
    replaced, not left to "This interaction failed" while her data went all the same."""
    await open_table(h, [NAME, "bob", "carol"])
    await h.slash("forgetme", NAME)
    (question,) = [m for m in fake.ephemerals(NAME) if m.content == t("en", "forget_ask")]
    [pressed] = [c for c in question.custom_ids() if decode_privacy(c) is not None
                 and c.endswith(f".{action}")]
    slowed(monkeypatch, h.tables, "press", 3.5)

    press = await h.click(question, pressed, NAME)

    assert press.response_type == 6  # acknowledged in time, the question edited after
    assert question.content == t("en", f"forget_{'done' if action == 'forget' else 'kept'}")
    assert question.buttons() == []
    assert not any("went wrong" in m.content for m in fake.messages.values())
