"""Platform API requests per accepted move, over full games on the fake chat servers.

Run by hand: `python bench/platform_calls.py` (add `--games ochs-esel` to pick). For every
game, three people play a whole game in a Telegram group, and four in a Discord channel,
each pressing the buttons of the hand message in their private chat; the fake servers
record every request.

Targets (issue 9): ≤ 2 requests per accepted move on average; never above Telegram's 20
messages per minute per group without queueing. Bots' and forced moves count as accepted
moves; requests are those a user's screen depends on (sends, edits, deletes, callback
answers, chat actions), not polling.
"""

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")

from tests.adapters.telegram_rig import GROUP, Rig, group_figures, open_table, play_with_bots
from tests.fakes.telegram_api import FakeTelegram

DISCORD_COUNTED = ("POST /interactions", "POST /channels", "PATCH /channels",
                   "DELETE /channels", "POST /webhooks", "PATCH /webhooks", "POST /users/@me")

COUNTED = {"sendmessage", "editmessagetext", "editmessagereplymarkup", "answercallbackquery",
           "deletemessage", "sendchataction"}
GAMES = {"ochs-esel": "ochs-esel rounds=1", "the-game": "the-game",
         "nix-fur-ungut": "nix rounds=1", "michigan": "michigan chips=20"}


async def telegram_game(game: str, options: str, ping_delay: float,
                        humans: int = 3) -> dict[str, Any]:
    # Without flood control: the requests a game needs, unpaced (the fake is as strict as
    # Telegram by default; `telegram_strict_game` measures under the limits).
    async with FakeTelegram(strict=False) as fake:
        with tempfile.TemporaryDirectory() as tmp:
            rig = Rig(fake, Path(tmp) / "bench.db", ping_delay=ping_delay)
            await rig.start()
            try:
                users = [fake.user(501 + i, name) for i, name in
                         enumerate(["Alice", "Bob", "Carol"][:humans])]
                table_id = await open_table(rig, GROUP, users[0], users[1:], options)
                for _ in range(3 - humans):
                    fake.send_command(GROUP, users[0], "/addbot")
                    await asyncio.sleep(0.2)
                start_calls = len(fake.calls)
                fake.send_command(GROUP, users[0], "/start")
                started = time.monotonic()
                await fake.wait_for(lambda: any(
                    m.text.startswith("🂠") for m in fake.find(users[0].id)), timeout=10)
                await play_with_bots(rig, table_id, users)
                await rig.tables.settle()
                elapsed = time.monotonic() - started
                moves = len(await rig.repo.moves(table_id))
                calls = [c for c in fake.calls[start_calls:] if c.method.lower() in COUNTED]
                by_method = Counter(c.method for c in calls)
                return {
                    "game": game, "moves": moves, "requests": len(calls),
                    "per_move": len(calls) / max(1, moves),
                    "group_sends_per_min_max": fake.max_in_window(GROUP, 60.0),
                    "group_requests_per_min_max": fake.max_in_window(
                        GROUP, 60.0, methods=COUNTED),
                    "seconds": elapsed, "by_method": dict(by_method),
                }
            finally:
                await rig.stop()


async def telegram_strict_game(game: str, options: str, humans: int) -> dict[str, Any]:
    """A 4-seat game (`humans` people, bots the rest) on the fake with Telegram's flood limits
    enforced (1 message or edit per second per chat, 20 per minute per group, edits
    included), the bot with the rate limiter exactly as `python -m bot` builds it. People
    press as soon as their hand shows their turn; the table catches up at its own pace."""
    async with FakeTelegram(strict=True) as fake:
        with tempfile.TemporaryDirectory() as tmp:
            rig = Rig(fake, Path(tmp) / "bench.db", production_limiter=True, ping_delay=20)
            await rig.start()
            try:
                users = [fake.user(501 + i, name) for i, name in
                         enumerate(["Alice", "Bob", "Carol", "Dan"][:humans])]
                table_id = await open_table(rig, GROUP, users[0], users[1:], options)
                for _ in range(4 - humans):
                    fake.send_command(GROUP, users[0], "/addbot")
                await fake.wait_for(lambda: any(
                    "Players (4," in m.text for m in fake.find(GROUP)), timeout=30)
                start_calls = len(fake.calls)
                fake.send_command(GROUP, users[0], "/start")
                started = time.monotonic()
                await fake.wait_for(lambda: any(
                    m.text.startswith("🂠") for m in fake.find(users[0].id)), timeout=30)
                await play_with_bots(rig, table_id, users, settle=False)
                await rig.tables.settle()
                elapsed = time.monotonic() - started
                figures = await group_figures(rig, table_id, start_calls)
                calls = [c for c in fake.calls[start_calls:] if c.method.lower() in COUNTED]
                late = [c for c in calls if "too old" in (c.description or "")]
                return {"game": game, **figures, "requests": len(calls),
                        "per_move": len(calls) / max(1, figures["moves"]),
                        "flood_429s": len(fake.flood_events), "late_answers": len(late),
                        "seconds": elapsed}
            finally:
                await rig.stop()


def strict_row(r: dict[str, Any]) -> str:
    return (f"{r['game']:<15}{r['moves']:>6}{r['per_move']:>9.2f}{r['group_per_move']:>10.2f}"
            f"{r['group_per_min_max']:>9}{r['flood_429s']:>6}{r['late_answers']:>6}"
            f"{r['lag_max']:>9.1f}{r['catch_up']:>10.1f}{r['seconds']:>8.0f}")


async def discord_game(game: str, options: str, limits: bool = False,
                       at_once: bool = False) -> dict[str, Any]:
    """`at_once`: people press as soon as their hand shows a move instead of waiting for
    every delivery after each move (the table message then coalesces moves)."""
    from adapters.discord.sink import CHANNEL_GAP
    from tests.adapters.test_discord import Harness, open_table, play_until
    from tests.adapters.test_discord_pacing import play_at_once
    from tests.fakes.discord_api import FakeDiscord

    async with FakeDiscord(discord_like_limits=limits) as fake:
        with tempfile.TemporaryDirectory() as tmp:
            h = Harness(fake, Path(tmp) / "bench.db", ping_delay=20, channel_gap=CHANNEL_GAP)
            await h.open()
            try:
                players = ["alice", "bob", "carol", "erin"] if game != "the-game" else [
                    "alice", "bob", "carol"]
                for name in ("erin",):
                    user = fake.add_user(name)
                    fake.guild.members[user.id] = []
                start = len(fake.requests)
                words = options.split()
                table_id = await open_table(h, players, options=" ".join(words[1:]),
                                            game=GAMES_IDS[words[0]])
                begun = time.monotonic()
                if at_once:
                    await play_at_once(h, table_id, players)
                else:
                    await play_until(h, table_id, players)
                await h.quiet()
                elapsed = time.monotonic() - begun
                played = await h.tables.repo.moves(table_id)
                moves = len(played)
                counted = [r for r in fake.requests[start:]
                           if any(f"{r.method} {r.path}".startswith(p) for p in DISCORD_COUNTED)]
                channel_edits = sorted(r.at for r in counted if r.method == "PATCH"
                                       and r.path.startswith(f"/channels/{fake.channel.id}/"))
                burst, first = 0, 0
                for last, moment in enumerate(channel_edits):
                    while moment - channel_edits[first] >= 5.0:
                        first += 1
                    burst = max(burst, last - first + 1)
                in_channel = [r for r in counted
                              if r.path.startswith(f"/channels/{fake.channel.id}/")]
                # From the start on, as Telegram's group figures: the lobby's requests (its
                # message, the joins) are the last that show "waiting for players".
                lobby = [n for n, r in enumerate(in_channel) if "waiting for players" in
                         str((r.body or {}).get("content", "") if isinstance(r.body, dict)
                             else "")]
                in_game = in_channel[lobby[-1] + 1:] if lobby else in_channel
                return {"game": game, "moves": moves, "requests": len(counted),
                        "per_move": len(counted) / max(1, moves), "edits_per_5s_max": burst,
                        "channel_per_move": len(in_channel) / max(1, moves),
                        "game_channel_per_move": len(in_game) / max(1, moves),
                        "catch_up": channel_catch_up(fake, table_id, played[-1].created_at),
                        "rate_limited": sum(r.status == 429 for r in fake.requests[start:]),
                        "seconds": elapsed,
                        "by_method": dict(Counter(r.method + " " + r.route for r in counted))}
            finally:
                await h.close()


def channel_catch_up(fake: Any, table_id: int, last_move: float) -> float:
    """Seconds from the last move's storing (wall time) until the channel's table message
    showed the finished game (its rematch button), from the fake's record."""
    stored = last_move - (time.time() - time.monotonic())
    shown = [r.at for r in fake.requests
             if r.method == "PATCH" and r.status == 200
             and r.path.startswith(f"/channels/{fake.channel.id}/messages")
             and f"{table_id}_" in str(r.body) and ".rematch" in str(r.body)]
    return (min(shown) - stored) if shown else float("nan")


GAMES_IDS = {"ochs-esel": "ochs-esel", "the-game": "the-game", "nix": "nix-fur-ungut",
             "michigan": "michigan"}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--ping-delay", type=float, default=20.0,
                        help="PING_DELAY for the run (people pressing at once are never called)")
    parser.add_argument("--discord-limits", action="store_true",
                        help="the fake Discord enforces Discord-like rate limits (5 messages "
                             "per 5 s per channel, with X-RateLimit headers): slower, shows "
                             "that edits are paced rather than refused")
    parser.add_argument("--telegram-limits", action="store_true",
                        help="also play 4-seat games on a fake Telegram that enforces its "
                             "flood limits, with the rate limiter `python -m bot` builds: "
                             "requests per move to the group, 429s, late button answers, "
                             "and how long the table message takes to catch up (slow)")
    args = parser.parse_args()
    print(f"Telegram, 3 players pressing buttons in private chats, PING_DELAY={args.ping_delay}")
    print(f"{'game':<15}{'moves':>7}{'requests':>10}{'req/move':>10}{'  target':<10}"
          f"{'group sends/min':>17}{'  target':<10}")
    results = []
    for game in args.games:
        results.append(r := await telegram_game(game, GAMES[game], args.ping_delay))
        print(telegram_row(r))
        print(f"{'':<15}by method: {r['by_method']}; {r['seconds']:.1f} s")
    print(total_row(results))
    print()
    print("Telegram, 1 person and 2 bots")
    results = []
    for game in args.games:
        results.append(r := await telegram_game(game, GAMES[game], args.ping_delay, humans=1))
        print(telegram_row(r))
    print(total_row(results))
    print()
    limits = " with Discord-like rate limits" if args.discord_limits else ""
    print(f"Discord, players pressing buttons in DMs, PING_DELAY=20{limits}")
    print(f"{'game':<15}{'moves':>7}{'requests':>10}{'req/move':>10}{'  target':<10}"
          f"{'table edits/5 s':>17}{'  limit':<12}{'429s':>6}{'chan/move':>10}"
          f"{'from start':>11}")
    results = []
    for game in args.games:
        results.append(r := await discord_game(game, GAMES[game], args.discord_limits))
        print(f"{game:<15}{r['moves']:>7}{r['requests']:>10}{r['per_move']:>10.2f}"
              f"{'  ≤ 2':<10}{r['edits_per_5s_max']:>17}{'  5 (queued)':<12}"
              f"{r['rate_limited']:>6}{r['channel_per_move']:>10.2f}"
              f"{r['game_channel_per_move']:>11.2f}")
        print(f"{'':<15}{r['seconds']:.1f} s; table caught up {r['catch_up']:.1f} s after "
              f"the last move; {r['by_method']}")
    print(total_row(results))
    if args.telegram_limits:
        print()
        print("Discord with Discord-like limits, people pressing as soon as their hand allows")
        for game in args.games:
            r = await discord_game(game, GAMES[game], True, at_once=True)
            print(f"{game:<15}{r['moves']:>7}{r['requests']:>10}{r['per_move']:>10.2f}"
                  f"{'':<10}{r['edits_per_5s_max']:>17}{'':<12}"
                  f"{r['rate_limited']:>6}{r['channel_per_move']:>10.2f}"
                  f"{r['game_channel_per_move']:>11.2f}   caught up {r['catch_up']:.1f} s")
        print()
        for humans in (1, 4):
            print(f"Telegram, strict flood limits, limiter as `python -m bot` builds it, "
                  f"4 seats ({humans} people, {4 - humans} bots), PING_DELAY=20")
            print(f"{'game':<15}{'moves':>6}{'req/mv':>9}{'group/mv':>10}{'grp/min':>9}"
                  f"{'429s':>6}{'late':>6}{'lag max':>9}{'catch-up':>10}{'secs':>8}")
            for game in args.games:
                print(strict_row(await telegram_strict_game(game, GAMES[game], humans)))
            print()


def telegram_row(r: dict[str, Any]) -> str:
    return (f"{r['game']:<15}{r['moves']:>7}{r['requests']:>10}{r['per_move']:>10.2f}"
            f"{'  ≤ 2':<10}{r['group_sends_per_min_max']:>17}{'  ≤ 20':<10}")


def total_row(results: list[dict[str, Any]]) -> str:
    moves = sum(r["moves"] for r in results)
    requests = sum(r["requests"] for r in results)
    return (f"{'all':<15}{moves:>7}{requests:>10}{requests / max(1, moves):>10.2f}"
            f"{'  ≤ 2':<10}")

if __name__ == "__main__":
    asyncio.run(main())
