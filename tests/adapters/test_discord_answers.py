"""True answers in time on Discord.

One 3-second budget per interaction, whatever the number of slow steps before the answer:
the fake answers a first response after 3 s with 404 / 10062 (Unknown interaction), as
Discord does, so a budget spent twice leaves the user with "This interaction failed".
And once a change is stored, no answer says that nothing changed."""

import asyncio
import time
from typing import Any

import pytest

from bot import changes
from bot.i18n import t
from bot.tables import Tables
from db.repository import StorageError
from tests.adapters.test_discord import button, hand_of, open_table, table_messages

pytestmark = pytest.mark.timeout(60)

FIRST_STEP, SECOND_STEP = 1.8, 1.4  # each under the 2 s wait, together over Discord's 3 s
GUILD_MEMBERS = {"erin": "en-US"}  # the `fake` of tests/adapters/conftest.py


def slowed(monkeypatch: pytest.MonkeyPatch, tables: Any, name: str, seconds: float) -> None:
    """`tables.<name>` as a slow store makes it: the same answer, `seconds` later."""
    real = getattr(tables, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await real(*args, **kwargs)

    monkeypatch.setattr(tables, name, slow)


async def test_my_hand_from_a_spectator_with_a_slow_store_is_deferred_once_and_answered(
        h, fake, monkeypatch):
    await open_table(h, ["alice", "bob", "carol"])
    [table] = table_messages(fake, fake.channel)
    slowed(monkeypatch, h.tables, "pressed", FIRST_STEP)  # loading the table
    slowed(monkeypatch, h.tables, "press", SECOND_STEP)  # then the answer's own work

    press = await h.click(table, button(table, "hand"), "erin")

    assert press.response_type == 5  # deferred within Discord's window, once
    [answer] = [m for m in fake.ephemerals("erin") if m.interaction_id == press.id]
    assert answer.content == "You are not playing at this table."
    assert not answer.loading


async def test_slash_hand_with_a_slow_store_still_shows_the_hand_in_time(h, fake, monkeypatch):
    await open_table(h, ["alice", "bob", "dave"])  # dave's DMs are closed: ephemeral hand
    slowed(monkeypatch, h.tables, "pressed", FIRST_STEP)
    slowed(monkeypatch, h.tables, "hand_rendering_for_table", SECOND_STEP)

    asked = await h.slash("hand", "dave")

    assert asked.response_type == 5
    hand = hand_of(h, "dave")
    assert hand is not None and "Your hand:" in hand.content and not hand.loading


async def test_a_join_whose_answer_discord_refuses_is_never_reported_as_nothing_changed(
        h, fake):
    await h.slash("newgame", "alice", game="ochs-esel")
    fake.fail_next("POST /interactions/*", status=400, code=50035, message="Invalid Form Body")

    await fake.slash("join", user="bob")
    [lobby] = table_messages(fake, fake.channel)
    await fake.wait_for(lambda: "Bob" in lobby.content)  # joined and shown
    await h.quiet()
    assert not any("nothing was changed" in m.content or "went wrong" in m.content
                   for m in fake.messages.values())


async def test_a_failure_after_a_stored_join_says_the_join_counts(h, fake, monkeypatch):
    await h.slash("newgame", "alice", game="ochs-esel")
    lang_of = Tables.lang_of

    async def store_gone_after_a_change(self: Tables, *args: Any) -> str:
        if changes.stored():
            raise StorageError("the disk went away")
        return await lang_of(self, *args)

    monkeypatch.setattr(Tables, "lang_of", store_gone_after_a_change)
    joined = await h.slash("join", "bob")

    [lobby] = table_messages(fake, fake.channel)
    assert "Bob" in lobby.content
    [answer] = [m for m in fake.ephemerals("bob") if m.interaction_id == joined.id]
    assert answer.content == ("Something went wrong on my side after your action was saved: "
                              "it counts, and the table shows where things stand.")
    # A failure before anything is stored still says so.
    monkeypatch.setattr(Tables, "lang_of", lang_of)

    async def store_gone(*args: Any) -> Any:
        raise StorageError("the disk went away")

    monkeypatch.setattr(h.tables, "join", store_gone)
    refused = await h.slash("join", "carol")
    [answer] = [m for m in fake.ephemerals("carol") if m.interaction_id == refused.id]
    # Carol's Discord speaks French; a storage fault is worded as one, "nothing changed"
    assert answer.content == t("fr", "storage_unavailable")


async def test_time_lost_before_the_handler_runs_counts_against_the_budget(
        h, fake, monkeypatch):
    """A busy event loop: the press waits 1.2 s before its handler runs. The budget counts
    from Discord's timestamp of the interaction, so the deferral still comes in time."""
    await open_table(h, ["alice", "bob", "carol"])
    [table] = table_messages(fake, fake.channel)
    remember = h.tables.remember_locale

    def busy_loop(*args: Any) -> None:
        time.sleep(1.2)  # blocks the whole loop, as a burst of other work would
        remember(*args)

    monkeypatch.setattr(h.tables, "remember_locale", busy_loop)
    slowed(monkeypatch, h.tables, "pressed", FIRST_STEP)

    press = await h.click(table, button(table, "hand"), "erin")

    assert press.response_type == 5
    [answer] = [m for m in fake.ephemerals("erin") if m.interaction_id == press.id]
    assert answer.content == "You are not playing at this table."


async def test_a_command_answered_after_discord_forgot_it_still_counts_and_logs_no_crash(
        h, fake, monkeypatch, caplog):
    """The whole loop blocked for 3.5 s before /join's handler, and the join slow: its
    deferral comes after Discord's window has closed. The join is stored all the same;
    the log says the answer came too late, as a warning, with no traceback at ERROR for
    an operator to chase."""
    await h.slash("newgame", "alice", game="ochs-esel", options="rounds=1")
    remember = h.tables.remember_locale
    blocked = False

    def busy_loop(*args: Any) -> None:
        nonlocal blocked
        if not blocked:
            blocked = True
            time.sleep(3.5)
        remember(*args)

    monkeypatch.setattr(h.tables, "remember_locale", busy_loop)
    slowed(monkeypatch, h.tables, "join", FIRST_STEP)  # so the answer is deferred, too late
    caplog.set_level("WARNING", logger="adapters.discord.app")
    joined = await fake.slash("join", user="bob")
    await fake.wait_for(lambda: blocked, what="the join's handler")
    await h.quiet()

    assert blocked and not joined.acknowledged  # Discord refused the late answer
    row = await h.tables.table_for_channel(str(fake.channel.id))
    assert row is not None
    seats = await h.tables.repo.get_seats(row.id)
    assert any(seat.name == "Bob" for seat in seats), seats
    said = [r for r in caplog.records if r.name == "adapters.discord.app"]
    assert any("answered too late" in r.getMessage() for r in said)
    assert not [r for r in said if r.levelname == "ERROR"]
