"""Discord's REST calls in /metrics: every request discord.py makes, by route, 429s too."""

from collections import Counter

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from adapters.discord.metered import route_of
from bot import metrics
from tests.adapters import test_discord_privacy as with_zephyrine
from tests.adapters.test_discord import open_table

GUILD_MEMBERS = with_zephyrine.GUILD_MEMBERS  # the same guild as the privacy tests


def scrape() -> dict[tuple[str, frozenset], float]:
    text = generate_latest(metrics.REGISTRY).decode()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def count(samples, name, **labels):
    wanted = set(labels.items())
    return sum(v for (n, found), v in samples.items() if n == name and wanted <= found)


async def test_discord_requests_are_counted_by_route_and_a_429_is_counted_once(h, fake):
    before = scrape()
    already = len(fake.requests)
    fake.fail_next("POST /channels/*/messages", 429, retry_after=0.05)

    await open_table(h, ["zephyrine", "bob", "carol"])

    after = scrape()
    made = Counter(route_of(r.method, r.path) for r in fake.requests[already:])
    assert made["POST /channels/:id/messages"] >= 2  # the refused one and its retry
    for route, n in made.items():
        assert count(after, "tapis_platform_requests_total", platform="discord",
                     method=route) - count(before, "tapis_platform_requests_total",
                                           platform="discord", method=route) == n, route
    assert count(after, "tapis_platform_errors_total", platform="discord", status="429") \
        - count(before, "tapis_platform_errors_total", platform="discord", status="429") == 1
    # No label carries an id or an interaction token (both have digits; routes have none).
    routes = {m for (_, labels) in after for k, m in labels if k == "method"
              and ("platform", "discord") in labels}
    assert routes and not any(ch.isdigit() for route in routes for ch in route)
    assert h.app.connection_problem() is None
