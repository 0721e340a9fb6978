"""Entry point.

python bot.py                 run the Discord bot (configuration from the environment)
python bot.py demo [...]      play an offline game between computer players, writing images
python bot.py web              serve the games' web site (WEB_HOST, WEB_PORT, PUBLIC_URL; the bot's database)
python bot.py migrate-db --from sqlite:///FILE --to postgresql://USER:PASSWORD@HOST/DATABASE
                              copy every game into an empty database (bots on neither meanwhile)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import pathlib
import signal
import sys
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from cogs.config import Config, ConfigError, WebConfig

if TYPE_CHECKING:
    from cogs.client import GameBot

log = logging.getLogger("bot")
SHARDING_REQUIRED = 4011  # Discord's close code: a shard would hold too many servers
STOP_SECONDS = 4.0  # from SIGINT/SIGTERM to exit at most (service managers kill a few seconds later)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play a whole game between computer players, offline")
    demo.add_argument("--ruleset", help="which game (default: the first by name)")
    demo.add_argument("--players", type=int, help="number of players (default: the game's usual table)")
    demo.add_argument("--seed", type=int, default=1, help="seed for the map and the players (default: 1)")
    demo.add_argument("--level", help="the computers' level (default: the one below the strongest, a game in seconds)")
    demo.add_argument("--max-steps", type=int, default=500, help="stop an unfinished game after this many turns")
    demo.add_argument(
        "--out",
        type=pathlib.Path,
        default=pathlib.Path("demo-output"),
        help="folder for the images and summary (default: demo-output)",
    )
    commands.add_parser("web", help="serve the web site of the games, from the bots' database")
    migrate = commands.add_parser("migrate-db", help="copy every game from one database into an empty one")
    migrate.add_argument("--from", dest="source", required=True, help="sqlite:///FILE (or its path), or postgresql://…")
    migrate.add_argument(
        "--to", dest="target", required=True, help="an empty database: postgresql://… or sqlite:///FILE"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "demo":
        return _demo(args)
    if args.command == "migrate-db":
        return _migrate_db(args.source, args.target)
    if args.command == "web":
        try:
            web_config = WebConfig.from_env()
        except ConfigError as err:
            print(err, file=sys.stderr)
            return 1
        return asyncio.run(run_web(web_config))
    try:
        config = Config.from_env()
    except ConfigError as err:
        print(err, file=sys.stderr)
        return 1  # like a rejected token: the operator's settings, not the database, need fixing
    return asyncio.run(run_bot(config))


def _demo(args: argparse.Namespace) -> int:
    from engine import EngineError
    from service.demo import run_demo

    try:
        result = run_demo(args.ruleset, args.players, args.seed, args.out, args.max_steps, args.level)
    except EngineError as err:
        print(f"demo: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"demo: cannot write the game to {args.out}: {err}", file=sys.stderr)
        return 2
    played = ", ".join(f"{n} {unit}{'' if n == 1 else 's'}" for unit, n in result.turns.items())
    print(f"{played}; {len(result.images)} images, {result.summary.name} and {result.replay.name} in {args.out}")
    if not result.finished:
        print(f"demo: the game did not finish within {args.max_steps} turns", file=sys.stderr)
        return 1
    lines = result.summary.read_text(encoding="utf-8").splitlines()
    print(next((line for line in lines if line.startswith(("Winner", "Draw"))), lines[-1]))
    return 0


def _migrate_db(source: str, target: str) -> int:
    from service.storage.errors import StorageFailure, StoreError
    from service.storage.store import described, is_postgresql, sqlite_path
    from service.storage.transfer import migrate_db

    if described(source) == described(target):
        print("migrate-db: --from and --to name the same database", file=sys.stderr)
        return 2
    if not is_postgresql(source) and not sqlite_path(source).is_file():
        print(f"migrate-db: there is no database at {sqlite_path(source)}", file=sys.stderr)
        return 2
    try:
        asyncio.run(migrate_db(source, target))
    except (StoreError, StorageFailure) as err:
        print(f"migrate-db: {err}", file=sys.stderr)
        return 2
    return 0


async def run_bot(config: Config) -> int:
    """Run until SIGINT/SIGTERM; shut down cleanly so no committed turn or announcement is lost."""
    from cogs.client import GameBot

    logging.getLogger().setLevel(config.log_level)
    bot = GameBot(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    deadline: list[asyncio.TimerHandle] = []  # set by the first signal: the exit that cuts a stop short
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, _stopping, loop, stop, deadline)
    try:
        async with bot:
            await _until(stop, _serve(bot, config))
    except Exception as err:
        refusal = _refusal(err, bot)
        if refusal is None:
            raise
        print(refusal[0], file=sys.stderr)
        return refusal[1]
    for timer in deadline:  # stopped in time: the exit code is not to be cut to 1 while Python winds down
        timer.cancel()
    log.info("stopped cleanly")
    return 0


async def run_web(config: WebConfig) -> int:
    """Serve the web site until SIGINT/SIGTERM."""
    from service.storage.errors import StoreError
    from web.process import WebPortUnavailable, serve

    logging.getLogger().setLevel(config.log_level)
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    try:
        await serve(config, stop)
    except StoreError as err:
        print(f"cannot start: {err}", file=sys.stderr)
        return 2
    except WebPortUnavailable as err:
        print(err, file=sys.stderr)
        return 1
    log.info("stopped cleanly")
    return 0


class Unanswered(Exception):
    """Discord (or what DISCORD_API_BASE names) gave no usable answer while the bot was logging in."""


async def _serve(bot: GameBot, config: Config) -> None:
    """Open the database (a bad one stops the bot at once), log in within ``config.login_seconds``, connect."""
    await bot.open_service()
    where = f" (at {config.api_base})" if config.api_base else ""
    try:
        async with asyncio.timeout(config.login_seconds):
            await bot.login(config.token)
    except TimeoutError as err:  # aiohttp alone would wait 5 minutes, then raise a bare TimeoutError
        raise Unanswered(
            f"Discord did not answer the bot's login within {config.login_seconds:g} s{where}: it is "
            "probably a Discord outage or a network problem; start the bot again later."
        ) from err
    except (ValueError, TypeError, KeyError) as err:
        if not (isinstance(err, json.JSONDecodeError) or bot.user is None):
            raise
        raise Unanswered(
            f"Discord answered with something that is not JSON when the bot logged in{where}: a proxy's "
            "or captive portal's page, say. Check the network (and DISCORD_API_BASE)."
        ) from err
    await bot.connect()


async def _until(stop: asyncio.Event, work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` until it ends or a signal sets ``stop``, then cancel it wherever it is: discord.py's
    close alone ends neither a login Discord does not answer nor its retries of a gateway it cannot reach."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        task.cancel()  # nothing, if it has ended
        await asyncio.wait({task})
    if not task.cancelled():
        task.result()  # its exception, if any


def _stopping(loop: asyncio.AbstractEventLoop, stop: asyncio.Event, deadline: list[asyncio.TimerHandle]) -> None:
    """Stop cleanly, but within STOP_SECONDS whatever Discord does: a close waiting on a silent Discord
    (a post in flight, a gateway that does not acknowledge the close) is cut short. Nothing committed is
    lost that way, as with a crash: undelivered posts wait in the outbox for the next start."""
    if not stop.is_set():
        stop.set()
        deadline.append(loop.call_later(STOP_SECONDS, _exit_now))


def _exit_now() -> None:
    print(
        f"the bot did not stop within {STOP_SECONDS:g} s (Discord not answering?): exiting now; committed turns "
        "are kept and undelivered posts go out at the next start",
        file=sys.stderr,
    )
    os._exit(1)


def _refusal(err: Exception, bot: GameBot) -> tuple[str, int] | None:
    """What to tell the operator when the bot could not start, and the exit code (2: the database); None
    for an error no one foresaw, which stays a traceback."""
    import aiohttp
    import discord

    from service.runtime.health import HealthPortUnavailable
    from service.storage.errors import StoreError

    if isinstance(err, StoreError):
        return f"cannot start: {err}", 2
    if isinstance(err, HealthPortUnavailable):
        return str(err), 1
    if isinstance(err, Unanswered):
        return str(err), 1
    if isinstance(err, discord.LoginFailure):
        return (
            "Discord rejected DISCORD_TOKEN: check that it is the bot token (Bot tab of the developer "
            "portal) and that it was not reset.",
            1,
        )
    if isinstance(err, discord.PrivilegedIntentsRequired):
        return f"Discord refused the connection: {err}", 1
    if isinstance(err, aiohttp.ClientConnectionError):
        where = bot.config.api_base or "Discord"
        return f"cannot reach {where} to log in: {err}. Check the network (and DISCORD_API_BASE).", 1
    if isinstance(err, (discord.HTTPException, discord.GatewayNotFound)):
        return (
            f"Discord failed a request while the bot was starting ({err}); "
            "it is probably a Discord outage: start the bot again later.",
            1,
        )
    if isinstance(err, discord.ConnectionClosed) and err.code == SHARDING_REQUIRED:
        return (
            f"Discord refused the connection: the bot is in too many servers for {bot.shard_count} shard(s). "
            "Raise SHARD_COUNT, or unset it to run as many shards as Discord recommends.",
            1,
        )
    return None


if __name__ == "__main__":
    sys.exit(main())
