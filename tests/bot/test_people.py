"""People on their own, over a real SQLite file: which language a person reads, when their
hands must be drawn again, and what is kept of them in memory."""

import asyncio
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.people import People
from bot.settings import Settings
from db.repository import StorageError
from db.sqlite import SqliteRepository

PLATFORM = "test"
ALICE, BOB = "u1", "u2"
CHANNEL = "chan-1"


class Rig:
    """A `People` as `Tables` builds it, with its background work and its redraws seen."""

    def __init__(self, repo: SqliteRepository, settings: Settings) -> None:
        self.repo = repo
        self.settings = settings
        self.redrawn: list[str] = []  # whose hands were to be drawn again, in order
        self._background: list[asyncio.Task[None]] = []
        self.people = self.new()

    def new(self) -> People:
        """Another process's People on the same database (or this one after a restart)."""
        return People(self.repo, platform=PLATFORM, settings=self.settings,
                      in_background=self._run, on_lang_changed=self._redraw)

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        self._background.append(asyncio.get_running_loop().create_task(work))

    async def _redraw(self, user_id: str) -> None:
        self.redrawn.append(user_id)

    async def settle(self) -> None:
        while self._background:
            await self._background.pop(0)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    repo = SqliteRepository(str(tmp_path / "tapis.db"))
    await repo.open()
    yield Rig(repo, Settings(_env_file=None, default_lang="en"))
    await repo.close()


async def test_a_lang_of_ones_own_redraws_that_persons_hands_once(rig: Rig) -> None:
    people = rig.people
    assert await people.lang_of(ALICE, CHANNEL) == "en"

    await people.set_lang(ALICE, "fr")

    assert await people.lang_of(ALICE, CHANNEL) == "fr"
    assert await people.lang_of(BOB, CHANNEL) == "en"
    assert rig.redrawn == [ALICE]
    # Choosing it again changes nothing anyone reads: nothing is drawn again.
    await people.set_lang(ALICE, "fr")
    assert rig.redrawn == [ALICE]
    # It is stored: another process reads it too.
    assert await rig.new().lang_of(ALICE) == "fr"


async def test_the_app_language_is_read_until_a_lang_of_ones_own_is_chosen(rig: Rig) -> None:
    people = rig.people
    people.remember_locale(ALICE, "fr-FR")
    assert await people.lang_of(ALICE, CHANNEL) == "fr"  # at once, before it is stored
    await rig.settle()
    assert rig.redrawn == [ALICE]  # she had no /lang: her hands follow her app
    assert await rig.new().lang_of(ALICE) == "fr"  # stored, for hands after a restart

    await people.set_lang(ALICE, "de")
    people.remember_locale(ALICE, "en-US")
    await rig.settle()

    assert await people.lang_of(ALICE, CHANNEL) == "de"  # her choice beats her app
    assert await rig.new().lang_of(ALICE) == "de"
    assert rig.redrawn == [ALICE, ALICE]  # the /lang only: her app changed nothing she reads


async def test_an_app_language_we_do_not_speak_follows_the_channel(rig: Rig) -> None:
    people = rig.people
    await people.set_channel_lang(CHANNEL, "fr")
    people.remember_locale(BOB, "es-ES")
    people.remember_locale(ALICE, "")  # an event that does not say: no change
    await rig.settle()

    assert await people.own_lang(BOB) is None
    assert await people.lang_of(BOB, CHANNEL) == "fr"
    assert await people.lang_of(BOB) == "en"  # in private, with no channel: the default
    assert await people.channel_lang("elsewhere") == "en"


async def test_forgetting_a_person_drops_what_is_kept_of_them(rig: Rig) -> None:
    people = rig.people
    await people.set_lang(ALICE, "fr")
    await people.set_mentions(ALICE, False)
    people.remember_locale(ALICE, "de-DE")
    await rig.settle()
    await rig.repo.forget_user(PLATFORM, ALICE, names={}, default_name="Former player")
    # Kept in memory, the settings still answer until this process forgets them too.
    assert await people.lang_of(ALICE) == "fr"

    people.forget(ALICE)

    assert await people.lang_of(ALICE, CHANNEL) == "en"
    assert (await people.user_settings(ALICE)).mentions is True


async def test_a_lang_that_cannot_be_stored_changes_nothing(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    people = rig.people
    await people.set_lang(ALICE, "fr")
    rig.redrawn.clear()

    async def disk_gone(*args: Any) -> None:
        raise StorageError("the disk went away")

    monkeypatch.setattr(rig.repo, "set_user_settings", disk_gone)
    with pytest.raises(StorageError):
        await people.set_lang(ALICE, "de")
    with pytest.raises(StorageError):
        await people.set_mentions(ALICE, False)

    assert await people.lang_of(ALICE) == "fr"
    assert (await people.user_settings(ALICE)).mentions is True
    assert rig.redrawn == []


async def test_an_app_language_that_cannot_be_stored_is_tried_again_at_the_next_event(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    people = rig.people
    store = rig.repo.set_user_locale

    async def disk_gone(*args: Any) -> None:
        raise StorageError("the disk went away")

    monkeypatch.setattr(rig.repo, "set_user_locale", disk_gone)
    people.remember_locale(ALICE, "fr-FR")
    await rig.settle()
    assert rig.redrawn == []
    monkeypatch.setattr(rig.repo, "set_user_locale", store)

    people.remember_locale(ALICE, "fr-FR")  # the same language: stored this time
    await rig.settle()

    assert await rig.new().lang_of(ALICE) == "fr"
    assert rig.redrawn == [ALICE]


async def test_a_chat_with_a_new_id_keeps_its_language(rig: Rig) -> None:
    people = rig.people
    await people.set_channel_lang("old-chat", "de")

    await people.channel_moved("old-chat", "new-chat")

    assert await people.channel_lang("new-chat") == "de"
    assert await rig.new().channel_lang("new-chat") == "de"
    await people.channel_moved("plain-chat", "its-new-id")  # none chosen: none carried
    assert await rig.new().channel_lang("its-new-id") == "en"


async def test_start_up_reads_the_languages_of_many_channels_at_once(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    await rig.people.set_channel_lang("a", "fr")
    await rig.people.set_channel_lang("b", "de")
    people = rig.new()

    await people.read_channel_langs(["a", "b", "c"])

    async def no_more_reads(*args: Any) -> None:
        raise AssertionError("read one by one")

    monkeypatch.setattr(rig.repo, "channel_lang", no_more_reads)
    assert [await people.channel_lang(c) for c in ("a", "b", "c")] == ["fr", "de", "en"]
