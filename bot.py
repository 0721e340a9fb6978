"""Entry point.

python bot.py                 run the Discord bot (configuration from the environment)
python bot.py demo [...]      play an offline game between computer players, writing images
python bot.py migrate-db --from sqlite:///FILE --to postgresql://USER:PASSWORD@HOST/DATABASE
                              copy every game into an empty database (bots on neither meanwhile)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import pathlib
import signal
import sys

from cogs.config import Config, ConfigError

log = logging.getLogger("bot")
SHARDING_REQUIRED = 4011  # Discord's close code: a shard would hold too many servers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play a whole game between computer players, offline")
    demo.add_argument("--ruleset", help="which game (default: the first by name)")
    demo.add_argument("--players", type=int, help="number of players (default: the game's usual table)")
    demo.add_argument("--seed", type=int, default=1, help="seed for the map and the players (default: 1)")
    demo.add_argument("--max-steps", type=int, default=500, help="stop an unfinished game after this many turns")
    demo.add_argument(
        "--out",
        type=pathlib.Path,
        default=pathlib.Path("demo-output"),
        help="folder for the images and summary (default: demo-output)",
    )
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
        result = run_demo(args.ruleset, args.players, args.seed, args.out, args.max_steps)
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
    import aiohttp
    import discord

    from cogs.client import GameBot
    from service.storage.errors import StoreError

    logging.getLogger().setLevel(config.log_level)
    bot = GameBot(config)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: loop.create_task(bot.close()))
    try:
        async with bot:
            await bot.open_service()  # before connecting: a bad database stops the bot at once
            await bot.start(config.token)
    except StoreError as err:
        print(f"cannot start: {err}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN: check that it is the bot token (Bot tab of the developer "
            "portal) and that it was not reset.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired as err:
        print(f"Discord refused the connection: {err}", file=sys.stderr)
        return 1
    except aiohttp.ClientConnectionError as err:
        where = config.api_base or "Discord"
        print(f"cannot reach {where} to log in: {err}. Check the network (and DISCORD_API_BASE).", file=sys.stderr)
        return 1
    except (discord.HTTPException, discord.GatewayNotFound) as err:
        print(
            f"Discord failed a request while the bot was starting ({err}); "
            "it is probably a Discord outage: start the bot again later.",
            file=sys.stderr,
        )
        return 1
    except discord.ConnectionClosed as err:
        if err.code != SHARDING_REQUIRED:
            raise
        print(
            f"Discord refused the connection: the bot is in too many servers for {bot.shard_count} shard(s). "
            "Raise SHARD_COUNT, or unset it to run as many shards as Discord recommends.",
            file=sys.stderr,
        )
        return 1
    log.info("stopped cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
