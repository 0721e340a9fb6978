"""Entry point.

python bot.py                 run the Discord bot (configuration from the environment)
python bot.py demo [...]      play an offline game between computer players, writing images
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import pathlib
import signal
import sys
from collections.abc import Mapping
from dataclasses import dataclass

log = logging.getLogger("bot")


class ConfigError(Exception):
    """The environment does not describe a bot we can run."""


@dataclass(frozen=True)
class Config:
    token: str
    database: pathlib.Path
    dev_guild: int | None = None
    api_base: str | None = None
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Config:
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: create a bot in the Discord developer portal, copy its "
                "token, and run DISCORD_TOKEN=... make run. (`python bot.py demo` needs no token.)"
            )
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        api_base = env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None
        if api_base and not api_base.startswith(("http://", "https://")):
            raise ConfigError(f"DISCORD_API_BASE must be an http(s) URL, not {api_base!r}")
        return cls(
            token=token,
            database=pathlib.Path(env.get("DATABASE_PATH", "data/games.sqlite3")),
            dev_guild=int(guild) if guild else None,
            api_base=api_base,
            log_level=level,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play a whole game between computer players, offline")
    demo.add_argument("--ruleset", default="conquest", help="which game (default: conquest)")
    demo.add_argument("--players", type=int, help="number of players (default: the game's usual table)")
    demo.add_argument("--seed", type=int, default=1, help="seed for the map and the players (default: 1)")
    demo.add_argument("--max-steps", type=int, default=500, help="stop an unfinished game after this many turns")
    demo.add_argument(
        "--out",
        type=pathlib.Path,
        default=pathlib.Path("demo-output"),
        help="folder for the images and summary (default: demo-output)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "demo":
        return _demo(args)
    try:
        config = Config.from_env()
    except ConfigError as err:
        print(err, file=sys.stderr)
        return 2
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
    print(f"{result.rounds} rounds; {len(result.images)} images and {result.summary.name} in {args.out}")
    if not result.finished:
        print(f"demo: the game did not finish within {args.max_steps} turns", file=sys.stderr)
        return 1
    lines = result.summary.read_text(encoding="utf-8").splitlines()
    print(next((line for line in lines if line.startswith(("Winner", "Draw"))), lines[-1]))
    return 0


async def run_bot(config: Config) -> int:
    """Run until SIGINT/SIGTERM; shut down cleanly so no committed turn or announcement is lost."""
    import discord

    from cogs.client import GameBot

    logging.getLogger().setLevel(config.log_level)
    bot = GameBot(config)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: loop.create_task(bot.close()))
    try:
        async with bot:
            await bot.start(config.token)
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
    log.info("stopped cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
