"""Single-use web sign-ins (Telegram's launch data, Discord's links) are spent in the
database the bot's processes share: one taken by a process is refused by every other."""

from collections.abc import Callable

from db.repository import Repository


async def test_a_sign_in_spent_by_one_process_is_refused_by_another(
        repo: Repository, make_repo: Callable[[], Repository]) -> None:
    assert await repo.spend_login("tg:abc", 2_000.0, 1_000.0)
    assert not await repo.spend_login("tg:abc", 2_000.0, 1_000.5)
    async with make_repo() as other:  # a second process on the same database
        assert not await other.spend_login("tg:abc", 2_000.0, 1_001.0)
        assert await other.spend_login("link:xyz", 2_000.0, 1_001.0)
    assert not await repo.spend_login("link:xyz", 2_000.0, 1_002.0)


async def test_spent_sign_ins_go_once_past_their_time(repo: Repository) -> None:
    assert await repo.spend_login("tg:old", 1_500.0, 1_000.0)
    # Past its time it is deleted (its own check refuses it as stale by then anyway).
    assert await repo.spend_login("tg:new", 3_000.0, 2_000.0)
    assert await repo.spend_login("tg:old", 3_000.0, 2_000.0)
