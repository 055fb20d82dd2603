"""`python -m bot` on some of the bot's Discord shards: settings that cannot work are said
in one line; a process connects its shards only and answers the guilds on them."""

import asyncio
import os
import signal
import sys

import pytest

from tests.adapters.test_startup import ROOT, one_clear_line, run_bot
from tests.fakes.discord_api import FakeDiscord

pytestmark = pytest.mark.timeout(90)


@pytest.mark.parametrize(("env", "words"), [
    ({"DISCORD_SHARD_IDS": "1"}, ["DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT"]),
    ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "0,2"}, ["[2] not below", "0 to 1"]),
    ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "one"}, ["DISCORD_SHARD_IDS"]),
    ({"DISCORD_SHARD_COUNT": "0"}, ["DISCORD_SHARD_COUNT"]),
    ({"DISCORD_SHARD_COUNT": "3", "DISCORD_SHARD_IDS": "1,1"}, ["lists a shard twice"]),
])
async def test_shard_settings_that_cannot_work_are_said_in_one_line(tmp_path, env, words):
    status, err = await run_bot(tmp_path, DISCORD_TOKEN="x.y.z", **env)
    one_clear_line(status, err, "bad settings", *words)


async def test_too_few_session_starts_left_stop_the_start_in_one_line(tmp_path):
    async with FakeDiscord() as fake:
        fake.session_starts = 1
        status, err = await run_bot(tmp_path, DISCORD_TOKEN=fake.token,
                                    DISCORD_API_URL=fake.base_url, DISCORD_SHARD_COUNT="4",
                                    DISCORD_SHARD_IDS="0,3")
    one_clear_line(status, err, "1 more gateway session starts", "needs 2")
    assert fake.identifies == 0


async def test_a_process_on_one_shard_answers_its_guilds_and_never_sees_the_others(tmp_path):
    async with FakeDiscord(pace=0.2) as fake:
        alice = fake.user("alice")
        mine = fake.add_channel(fake.add_guild("Mine", [alice], shard=(1, 2)), "cards")
        theirs = fake.add_channel(fake.add_guild("Theirs", [alice], shard=(0, 2)), "cards")
        environ = {k: v for k, v in os.environ.items()
                   if not k.startswith(("DISCORD_", "TELEGRAM_"))}
        environ.update(DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}", PYTHONPATH=str(ROOT),
                       NO_PROXY="127.0.0.1,localhost", DISCORD_TOKEN=fake.token,
                       DISCORD_API_URL=fake.base_url_via("one"), DISCORD_SHARD_COUNT="2",
                       DISCORD_SHARD_IDS="1")
        log = (tmp_path / "bot.log").open("wb")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=environ, stdout=log, stderr=log)
        try:
            await fake.wait_for(lambda: fake.shard_connections() and fake.global_commands,
                                timeout=30, what="the shard connected")
            assert fake.shard_connections() == {(1, 2): ["one"]}
            answered = await fake.slash("help", user=alice, channel=mine)
            await fake.wait_for(lambda: answered.acknowledged, timeout=10)
            assert answered.delivered_to == "one"
            lost = await fake.slash("help", user=alice, channel=theirs)
            assert lost.delivered_to is None and not lost.acknowledged
            assert {r.sender for r in fake.requests} == {"one"}
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), 30)
            log.close()
        assert proc.returncode == 0, (tmp_path / "bot.log").read_text()
        assert fake.server_errors == [] and fake.unhandled == []
