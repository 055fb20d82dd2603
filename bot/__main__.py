"""`python -m bot`: Discord and/or Telegram when their tokens are set, else a console table."""

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator, Coroutine
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot import logs
from bot.i18n import LANGS
from bot.monitor import Health
from bot.settings import Settings, StartupError
from db.repository import Repository, StorageError

if TYPE_CHECKING:
    from adapters.web.server import WebServer

DESCRIPTION = """\
Tapis: card games (Ochs & Esel, The Game, Nix für Ungut, Michigan) for Discord and Telegram.

With DISCORD_TOKEN and/or TELEGRAM_TOKEN set (environment or .env), the bot connects to
those platforms (both in one process when both are set). With neither, it opens a local
table in this terminal where you play against bot players; the game is saved in the
database (DATABASE_URL, default sqlite:///tapis.db), so quitting and restarting resumes it.

Console commands: type a move (e.g. `7 7 J`, `pass`, `23 A1, 77 D2`) or press a numbered
button with `#N`; /hand, /table, /scores, /stats, /rules [game], /cancel, /newgame <game>
[options], /lang de|en|fr, /mydata, /forgetme, /help, /quit. Every setting is listed in
.env.example; METRICS_PORT serves /healthz and /metrics in every mode (docs/monitoring.md).

`python -m bot invite` prints the link that adds the bot to a Discord server.
`python -m bot ratings rebuild` recomputes every rating from the rating log.
"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--console", action="store_true",
                        help="play in the terminal even when chat tokens are set")
    parser.add_argument("--web", action="store_true",
                        help="play in your browser against bots: serves the table's page on "
                             "127.0.0.1 (WEB_PORT) and prints its address")
    parser.add_argument("--game", help="console: the game to open (id or name, e.g. ochs-esel); "
                                       "asked interactively when missing")
    parser.add_argument("--bots", type=int, help="console: number of bot opponents")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="console: a game or table option, repeatable (rounds=3, ox=yes, "
                             "deadline=off, bot_delay=0)")
    parser.add_argument("--database", help="override DATABASE_URL")
    parser.add_argument("--lang", choices=LANGS, help="override DEFAULT_LANG")
    parser.add_argument("--bot-delay", type=float, help="override BOT_DELAY (seconds)")
    return parser.parse_args(argv)


async def run(args: argparse.Namespace) -> int:
    from db import open_repository

    overrides: dict[str, object] = {}
    if args.database:
        overrides["database_url"] = args.database
    if args.lang:
        overrides["default_lang"] = args.lang
    if args.bot_delay is not None:
        overrides["bot_delay"] = args.bot_delay
    settings = load_settings(overrides)
    if settings is None:
        return 2
    logs.setup(settings)
    try:
        repo = open_repository(settings.database_url)
        await repo.open()
    except (ValueError, NotImplementedError, StorageError, OverflowError) as exc:
        print(logs.printable(f"tapis: cannot open the database ({exc})", settings),
              file=sys.stderr)
        return 2
    await replay_ratings(repo, settings)
    chat = bool(settings.discord_token or settings.telegram_token) and not (
        args.console or args.web)
    platforms = [name for name, token in (("discord", settings.discord_token),
                                          ("telegram", settings.telegram_token))
                 if token and chat]
    health = Health(repo, platforms)
    try:
        async with service(settings, health):
            if args.web:
                from adapters.web.local import run_local

                return await run_local(repo, settings)
            if not chat:
                from adapters.console.app import Console

                console = Console(repo, settings)
                return await console.run(game=args.game, bots=args.bots, options=args.option,
                                         lang=args.lang)
            web = await _web_beside(settings, repo)
            runners = []
            if settings.discord_token:
                from adapters.discord.app import run_discord

                runners.append(run_discord(repo, settings, health=health, web=web))
            if settings.telegram_token:
                from adapters.telegram.app import run_telegram

                runners.append(run_telegram(repo, settings, health=health, web=web))
            try:
                return await _until_signal(runners)
            except StartupError as exc:
                print(logs.printable(f"tapis: {exc}", settings), file=sys.stderr)
                return 2
            finally:
                if web is not None:
                    await web.close()
    finally:
        await repo.close()


async def _web_beside(settings: Settings, repo: Repository) -> "WebServer | None":
    """The table's web page beside the chat (WEB_URL set), listening on WEB_HOST:WEB_PORT,
    or None. Each platform hands it its tables as it makes them."""
    if settings.web_url is None:
        return None
    from adapters.web.chat import serve_beside
    from bot.web_view import Watchers

    try:
        server = await serve_beside({}, Watchers(), settings, repo)
    except OSError as exc:
        print(f"tapis: cannot serve the web page on {settings.web_host}:{settings.web_port}"
              f" (WEB_HOST, WEB_PORT: {exc.strerror or exc})", file=sys.stderr)
        raise SystemExit(2) from exc
    logging.getLogger(__name__).info("serving the tables' web page on %s:%d for %s",
                                     settings.web_host, settings.web_port, settings.web_url)
    return server


async def replay_ratings(repo: Repository, settings: Settings) -> None:
    """Apply the rating log entries a previous process stored but did not apply (its
    rating model failed on them): the ratings catch up before any game is played."""
    from bot.ratings import Rater

    try:
        applied = await repo.replay_ratings(Rater(settings.rating_season))
    except StorageError:
        logging.getLogger(__name__).exception("replaying the rating log failed")
        return
    if applied:
        logging.getLogger(__name__).info("replayed %d rated games", applied)


def load_settings(overrides: dict[str, object] | None = None) -> Settings | None:
    """The settings, or None once what is wrong with them is said in one line."""
    try:
        return Settings(**(overrides or {}))  # type: ignore[arg-type]
    except ValidationError as exc:
        # Settings checked together (a model validator) have no one name to show.
        problems = "; ".join(_problem(e["loc"], e["msg"]) for e in exc.errors())
        print(logs.printable(f"tapis: bad settings: {problems}"), file=sys.stderr)
    except SettingsError as exc:  # a source could not be read at all
        print(logs.printable(f"tapis: bad settings: {exc}"), file=sys.stderr)
    return None


def invite(argv: list[str]) -> int:
    """`python -m bot invite [APPLICATION_ID]`: print the link that adds the bot to a
    Discord server with the rights it uses; the id is read from DISCORD_TOKEN if not given."""
    parser = argparse.ArgumentParser(
        prog="python -m bot invite",
        description="Print the link that adds the bot to a Discord server, with the "
                    "permissions Tapis uses (see channels, send messages, send messages in "
                    "threads) and its slash commands.")
    parser.add_argument("application_id", nargs="?", type=int,
                        help="the Discord application id (Developer Portal, General "
                             "Information); read from DISCORD_TOKEN when left out")
    args = parser.parse_args(argv)
    from adapters.discord.invite import application_id, invite_url

    app_id = args.application_id
    if app_id is None:
        settings = load_settings()
        if settings is None:
            return 2
        app_id = application_id(settings.discord_token) if settings.discord_token else None
        if app_id is None:
            print("tapis: the application id is not in DISCORD_TOKEN (unset or not a bot "
                  "token): python -m bot invite <application id>", file=sys.stderr)
            return 2
    if not 0 < app_id < 2**63:
        print(f"tapis: {app_id} is no Discord application id", file=sys.stderr)
        return 2
    print(invite_url(app_id))
    return 0


def _problem(loc: tuple[int | str, ...], message: str) -> str:
    """`NAME: what is wrong`, the setting named once (a message may start with it)."""
    message = message.removeprefix("Value error, ")
    name = ".".join(map(str, loc)).upper()
    return message if not name or message.startswith(name) else f"{name}: {message}"


@contextlib.asynccontextmanager
async def service(settings: Settings, health: Health) -> AsyncIterator[None]:
    """What runs beside the chat, in every mode: /healthz and /metrics, the retention job."""
    from bot import monitor, retention

    runner = None
    if settings.metrics_port is not None:
        try:
            runner = await monitor.serve(health, settings.metrics_host, settings.metrics_port)
        except OSError as exc:  # the port is taken, or the host is not this machine's
            print(f"tapis: cannot serve metrics on {settings.metrics_host}:"
                  f"{settings.metrics_port} (METRICS_HOST, METRICS_PORT: "
                  f"{exc.strerror or exc})", file=sys.stderr)
            raise SystemExit(2) from exc
        logging.getLogger(__name__).info(
            "serving /healthz and /metrics on http://%s:%d", settings.metrics_host,
            monitor.bound_port(runner))
    # Without RETENTION_DAYS the sweep still deletes paused tables that can never resume.
    job = asyncio.create_task(retention.daily(health.repo, settings.retention_days))
    try:
        yield
    finally:
        job.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await job
        if runner is not None:
            await runner.cleanup()


async def _until_signal(runners: list[Coroutine[Any, Any, None]]) -> int:
    """Run the platforms until SIGINT/SIGTERM (or until one of them fails), then stop every
    one and wait until all have stopped.

    One platform stops sooner than another: Telegram's last deliveries may still be on
    their way when Discord has long closed. The database is closed only after this
    returns, and a delivery still going then would be lost (a hand sent but not stored
    is sent again after a restart), so every platform's stop is waited for, not only the
    first. A runner that fails (it could not start) stops the others the same way."""
    loop = asyncio.get_running_loop()
    tasks = [asyncio.ensure_future(runner) for runner in runners]
    stopping = asyncio.Event()
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stopping.set)
            installed.append(sig)
    signalled = asyncio.ensure_future(stopping.wait())
    try:
        waiting: set[asyncio.Future[Any]] = {*tasks, signalled}
        while waiting != {signalled}:  # a platform that ends without failing leaves the rest
            done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if signalled in done or any(t.cancelled() or t.exception() for t in done):
                break
        if stopping.is_set():
            logging.getLogger(__name__).info("stopped by signal")
    finally:
        signalled.cancel()
        for task in tasks:
            task.cancel()
        # A second signal while they stop changes nothing: stopping is already under way.
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for sig in installed:
            loop.remove_signal_handler(sig)
    for result in results:
        if isinstance(result, Exception):
            raise result
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["invite"]:
        return invite(argv[1:])
    if argv[:1] == ["ratings"]:
        from bot import ratings_cli

        settings = load_settings()
        return 2 if settings is None else ratings_cli.main(argv[1:], settings)
    args = parse_args(argv)
    try:
        return asyncio.run(run(args))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
