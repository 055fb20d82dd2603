"""`python -m bot ratings rebuild|replay`: the operator's commands over the rating log."""

import argparse
import asyncio
import sys
import time

from bot.ratings import Rater
from bot.settings import Settings
from db.repository import StorageError

DESCRIPTION = """\
rebuild: recompute every rating, leaderboard and team record from the rating log, in
sequence order, in one transaction (the same numbers as the games' own updates).
replay: apply the log entries the ratings have not taken in yet (done at every start).
Safe while the bot runs: a game ending meanwhile waits for the rebuild's commit."""


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot ratings", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("rebuild", "replay"))
    parser.add_argument("--database", help="override DATABASE_URL")
    return parser.parse_args(argv)


async def run(args: argparse.Namespace, settings: Settings) -> int:
    from db import open_repository

    url = args.database or settings.database_url
    try:
        repo = open_repository(url)
        await repo.open()
    except (ValueError, StorageError) as exc:
        print(f"tapis: cannot open the database ({exc})", file=sys.stderr)
        return 2
    rater = Rater(settings.rating_season)
    started = time.perf_counter()
    try:
        if args.action == "rebuild":
            count = await repo.rebuild_ratings(rater)
        else:
            count = await repo.replay_ratings(rater)
    except StorageError as exc:
        print(f"tapis: ratings {args.action} failed, nothing changed ({exc})", file=sys.stderr)
        return 1
    finally:
        await repo.close()
    print(f"ratings {args.action}: {count} rated games applied in "
          f"{time.perf_counter() - started:.1f} s")
    return 0


def main(argv: list[str], settings: Settings) -> int:
    return asyncio.run(run(parse(argv), settings))
