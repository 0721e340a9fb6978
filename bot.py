"""Entry point.

    python bot.py                 run the Discord bot (needs DISCORD_TOKEN)
    python bot.py demo [...]      play an offline game between computer players, writing images
"""

from __future__ import annotations

import argparse
import logging
import os
import pathlib
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play a whole game between computer players, offline")
    demo.add_argument("--ruleset", default="conquest", help="which game (default: conquest)")
    demo.add_argument("--players", type=int, default=3, help="number of players (default: 3)")
    demo.add_argument("--seed", type=int, default=1, help="seed for the map and the players (default: 1)")
    demo.add_argument("--out", type=pathlib.Path, default=pathlib.Path("demo-output"),
                      help="folder for the images and summary (default: demo-output)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "demo":
        return _demo(args)
    return _run_bot()


def _demo(args: argparse.Namespace) -> int:
    from engine import EngineError
    from service.demo import run_demo

    try:
        result = run_demo(args.ruleset, args.players, args.seed, args.out)
    except EngineError as err:
        print(f"demo: {err}", file=sys.stderr)
        return 2
    print(f"{result.rounds} rounds; {len(result.images)} images and {result.summary.name} in {args.out}")
    lines = result.summary.read_text(encoding="utf-8").splitlines()
    print(next((line for line in lines if line.startswith(("Winner", "Draw"))), lines[-1]))
    return 0


def _run_bot() -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("DISCORD_TOKEN is not set: create a bot at the Discord developer portal, copy its token, "
              "and run DISCORD_TOKEN=... make run. (`python bot.py demo` works without one.)", file=sys.stderr)
        return 2
    print("The Discord client is not part of this build yet; `python bot.py demo` shows the games offline.",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
