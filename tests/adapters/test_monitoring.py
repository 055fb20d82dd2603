"""/healthz and /metrics as a supervisor and a Prometheus scraper see them, over HTTP, with
the real Telegram adapter on the fake Bot API and a real SQLite file."""

import asyncio
from collections import Counter

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot import monitor
from bot.monitor import Health
from db.repository import FINISHED
from tests.adapters.telegram_rig import (
    GROUP,
    Rig,
    hand_messages,
    move_button,
    open_table,
    play_moves,
)


class Scraper:
    def __init__(self, runner):
        self.base = f"http://127.0.0.1:{monitor.bound_port(runner)}"

    async def get(self, path):
        async with aiohttp.ClientSession() as session, session.get(self.base + path) as answer:
            return answer.status, await answer.text()

    async def until_health(self, status, timeout=15.0):
        """The text of /healthz once it answers `status` (polled as a supervisor would)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            got, text = await self.get("/healthz")
            if got == status:
                return text
            assert loop.time() < deadline, f"/healthz stayed {got}: {text}"
            await asyncio.sleep(0.05)

    async def samples(self):
        """{(name, frozenset(labels)): value} of one scrape, read by prometheus-client's own
        text parser (which refuses anything that is not the exposition format)."""
        status, text = await self.get("/metrics")
        assert status == 200
        found = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                found[(sample.name, frozenset(sample.labels.items()))] = sample.value
        return found


def total(samples, name, **labels):
    wanted = set(labels.items())
    return sum(value for (sample, found), value in samples.items()
               if sample == name and wanted <= found)


def delta(after, before, name, **labels):
    return total(after, name, **labels) - total(before, name, **labels)


async def test_healthz_turns_503_when_the_database_goes_and_200_when_it_returns(fake, tmp_path):
    rig = Rig(fake, tmp_path / "tapis.db")
    health = Health(None, ["telegram"])  # type: ignore[arg-type]
    await rig.start()
    health.repo = rig.repo
    runner = await monitor.serve(health, "127.0.0.1", 0)
    scraper = Scraper(runner)
    try:
        status, text = await scraper.get("/healthz")
        assert (status, text) == (503, "telegram: not started yet\n")
        health.watch("telegram", rig.bot.connection_problem)
        assert await scraper.get("/healthz") == (200, "ok\n")

        await rig.repo.close()
        status, text = await scraper.get("/healthz")
        assert status == 503 and text.startswith("database: ") and text.count("\n") == 1
        # /metrics still answers, without the table counts it could not read.
        samples = await scraper.samples()
        assert total(samples, "tapis_tables") == 0

        await rig.repo.open()
        assert await scraper.get("/healthz") == (200, "ok\n")

        # The Bot API failing the long poll: unhealthy until a poll succeeds again.
        fake.fail_next("getUpdates", 1, status=502, description="Bad Gateway")
        assert await scraper.until_health(503) == "telegram: getUpdates: HTTP 502\n"
        assert await scraper.until_health(200) == "ok\n"

        await rig.bot.stop()
        assert await scraper.get("/healthz") == (503, "telegram: not connected\n")
    finally:
        await runner.cleanup()
        await rig.stop()


async def test_metrics_count_a_played_game_exactly(fake, tmp_path):
    players = (fake.user(11, "Alice"), fake.user(12, "Bob"), fake.user(13, "Carol"))
    rig = Rig(fake, tmp_path / "tapis.db")
    await rig.start()
    runner = await monitor.serve(Health(rig.repo, []), "127.0.0.1", 0)
    scraper = Scraper(runner)
    try:
        before = await scraper.samples()
        calls_before = Counter(c.method for c in fake.calls)
        table_id = await open_table(rig, GROUP, *players[:1], list(players[1:]))
        fake.send_command(GROUP, players[0], "/start")
        await fake.wait_for(lambda: all(hand_messages(fake, p) for p in players))
        during = await scraper.samples()
        assert total(during, "tapis_tables", game="ochs-esel", status="playing") == 1

        # One refusal of each kind a user can cause: out of turn, and a stale button.
        live = await rig.tables.live_table(table_id)
        idle = next(p for p in players
                    if str(p.id) != live.seats[live.game.to_act(live.state)[0]].user_id)
        fake.send_command(GROUP, idle, "/play 5")
        await fake.wait_for(lambda: fake.find(idle.id, contains="not your turn"))
        mover = next(p for p in players if str(p.id) == live.seats[
            live.game.to_act(live.state)[0]].user_id)
        message, data = await fake.wait_for(lambda: move_button(fake, mover, table_id, 0))
        pressed = await play_moves(rig, table_id, players, limit=1)
        press = fake.press(mover.id, message.message_id, mover, data, stale=True)
        await fake.wait_for(lambda: press.answer is not None)
        assert press.answer["show_alert"]
        fake.fail_next("sendMessage", 1, retry_after=1)  # one flood refusal, retried
        pressed += await play_moves(rig, table_id, players, limit=400)
        await rig.tables.settle()

        after = await scraper.samples()
        moves = await rig.repo.moves(table_id)
        assert (await rig.tables.live_table(table_id)).row.status == FINISHED
        accepted = "tapis_moves_accepted_total"
        assert delta(after, before, accepted, platform="telegram") == len(moves)
        assert delta(after, before, accepted, game="ochs-esel", actor="player") == pressed
        assert delta(after, before, "tapis_moves_refused_total", reason="not_your_turn") == 1
        refused = delta(after, before, "tapis_moves_refused_total", platform="telegram")
        assert delta(after, before, "tapis_moves_refused_total", reason="out_of_date") == 1
        assert refused == 2
        # Timed: every move judged at the table (a stale button is refused before that).
        assert delta(after, before, "tapis_move_latency_seconds_count",
                     platform="telegram") == pressed + 1
        assert total(after, "tapis_tables", game="ochs-esel", status="finished") == 1
        assert total(after, "tapis_tables", game="ochs-esel", status="playing") == 0

        # Platform calls, by method, exactly as the Bot API received them; the 429 too.
        received = Counter(c.method for c in fake.calls) - calls_before
        for method in ("sendMessage", "editMessageText", "answerCallbackQuery"):
            assert delta(after, before, "tapis_platform_requests_total", platform="telegram",
                         method=method) == received[method], method
        assert delta(after, before, "tapis_platform_errors_total", platform="telegram",
                     method="sendMessage", status="429") == 1
        since = total(after, "tapis_platform_seconds_since_success", platform="telegram")
        assert 0 <= since < 5
        assert total(after, "tapis_delivery_queue_depth", platform="telegram") == 0
    finally:
        await runner.cleanup()
        await rig.stop()
