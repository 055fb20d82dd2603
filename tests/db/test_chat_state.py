"""What the bot keeps besides the game: message ids, deadlines, languages, preferences."""

import pytest

from db.repository import CANCELLED, Deadline, MessageRef, TableNotFound, UserSettings
from tests.db.conftest import new_table, started_table


async def test_message_ids_survive_a_restart_so_the_bot_edits_in_place(make_repo):
    async with make_repo() as before:
        table = await new_table(before)
        await before.set_message(table.id, MessageRef("table", "chat-1", "100"))
        await before.set_message(table.id, MessageRef(
            "hand:1", "dm-bo", "7", {"token": "abc", "expires": 1.5}))

    async with make_repo() as after:
        assert await after.messages(table.id) == {
            "table": MessageRef("table", "chat-1", "100"),
            "hand:1": MessageRef("hand:1", "dm-bo", "7", {"token": "abc", "expires": 1.5}),
        }


async def test_a_reposted_message_replaces_the_old_id_and_deleted_ones_are_gone(repo):
    table = await new_table(repo)
    other = await new_table(repo, channel="c2")
    await repo.set_message(table.id, MessageRef("table", "chat-1", "100"))
    await repo.set_message(other.id, MessageRef("table", "chat-2", "5"))

    await repo.set_message(table.id, MessageRef("table", "chat-1", "101"))
    assert (await repo.messages(table.id))["table"].message_id == "101"

    await repo.delete_message(table.id, "table")
    await repo.delete_message(table.id, "never-posted")
    assert await repo.messages(table.id) == {}
    assert (await repo.messages(other.id))["table"].message_id == "5"


async def test_a_message_for_a_table_that_does_not_exist_is_refused(repo):
    with pytest.raises(TableNotFound):
        await repo.set_message(404, MessageRef("table", "c", "1"))


async def test_one_deadline_per_table_the_newest_wins(repo):
    table = await started_table(repo)
    await repo.set_deadline(Deadline(table.id, seat=0, version=0, due_at=100.0, remind_at=80.0))

    await repo.set_deadline(Deadline(table.id, seat=1, version=1, due_at=200.0, remind_at=None))
    assert await repo.deadlines() == [
        Deadline(table.id, seat=1, version=1, due_at=200.0, remind_at=None, reminded=False)]


async def test_deadlines_come_soonest_first_and_clear(repo):
    late = await started_table(repo, channel="late")
    soon = await started_table(repo, channel="soon")
    await repo.set_deadline(Deadline(late.id, seat=0, version=0, due_at=500.0, remind_at=None))
    await repo.set_deadline(Deadline(soon.id, seat=1, version=0, due_at=90.0, remind_at=60.0))
    assert [d.table_id for d in await repo.deadlines()] == [soon.id, late.id]

    await repo.clear_deadline(soon.id)
    await repo.clear_deadline(soon.id)
    assert [d.table_id for d in await repo.deadlines()] == [late.id]


async def test_a_reminder_for_a_turn_already_played_marks_nothing(repo):
    table = await started_table(repo)
    await repo.set_deadline(Deadline(table.id, seat=1, version=4, due_at=100.0, remind_at=70.0))

    await repo.mark_reminded(table.id, version=3)
    assert (await repo.deadlines())[0].reminded is False
    await repo.mark_reminded(table.id, version=4)
    assert (await repo.deadlines())[0].reminded is True


async def test_deadlines_of_a_cancelled_table_do_not_fire(repo):
    table = await started_table(repo)
    await repo.set_deadline(Deadline(table.id, seat=0, version=0, due_at=100.0, remind_at=None))

    await repo.update_table(table.id, expected_version=0, status=CANCELLED)
    assert await repo.deadlines() == []


async def test_deadlines_survive_a_restart(make_repo):
    async with make_repo() as before:
        table = await started_table(before)
        await before.set_deadline(Deadline(table.id, 1, 0, due_at=100.0, remind_at=50.0,
                                           reminded=True))

    async with make_repo() as after:
        assert await after.deadlines() == [Deadline(table.id, 1, 0, 100.0, 50.0, True)]


async def test_a_stranger_follows_the_channel_language_and_gets_mentions(repo):
    assert await repo.user_settings("telegram", "u-new") == UserSettings(lang=None,
                                                                         mentions=True)
    assert await repo.channel_lang("telegram", "c1") is None


async def test_user_settings_are_per_platform_and_replace_each_other(repo):
    await repo.set_user_settings("telegram", "42", UserSettings(lang="fr", mentions=False))
    await repo.set_user_settings("telegram", "42", UserSettings(lang=None, mentions=False))

    assert await repo.user_settings("telegram", "42") == UserSettings(None, mentions=False)
    assert await repo.user_settings("discord", "42") == UserSettings()


async def test_the_app_language_is_stored_beside_the_choices_without_touching_them(repo):
    await repo.set_user_locale("telegram", "7", "fr")  # first seen: a row of its own
    assert await repo.user_settings("telegram", "7") == UserSettings(locale="fr")
    await repo.set_user_settings("telegram", "7", UserSettings(lang="en", mentions=False))
    assert await repo.user_settings("telegram", "7") == UserSettings("en", False, "fr")
    await repo.set_user_locale("telegram", "7", None)
    assert await repo.user_settings("telegram", "7") == UserSettings("en", False, None)
    assert await repo.user_settings("discord", "7") == UserSettings()


async def test_channel_language_is_per_platform_and_can_change(repo):
    await repo.set_channel_lang("discord", "general", "fr")
    await repo.set_channel_lang("discord", "general", "en")
    await repo.set_channel_lang("telegram", "general", "fr")

    assert await repo.channel_lang("discord", "general") == "en"
    assert await repo.channel_lang("telegram", "general") == "fr"


async def test_a_secret_is_made_once_and_kept_across_restarts_and_processes(make_repo):
    """The key of table references: whoever asks first stores it, everyone after reads
    that one, so two processes sharing a database draw the same buttons."""
    async with make_repo() as first, make_repo() as second:
        made = await first.secret("table-references", "one")
        assert made == "one"
        assert await second.secret("table-references", "two") == "one"
        assert await second.secret("other", "three") == "three"
    async with make_repo() as after:
        assert await after.secret("table-references", "four") == "one"
