"""The fairness verdict ``/map upload`` gives a server's map, given to every shipped map and to each
ruleset's generated default map: seeded self-play at ``service.fairness.LEVEL``, every seat the same
computer, with the fewest players the map takes; wins per seat against "every seat wins equally
often" (chi-square), and the verdict (fair / favours seat N / too few decisive games).

Leaves out: other player counts than the fewest, stronger levels (the bot measures at one level, in
the background), and human play.

Usage: python bench/bench_map_fairness.py [--games 40] [--ruleset NAME]
Ends with ``RESULT map_fairness maps=… fair=… favoured=… undecided=… <ruleset>_<map>=<verdict>:<p>…``.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import RULESETS  # noqa: E402
from service.fairness import GAMES, measure  # noqa: E402
from service.ops.lobby import playable_options, seat_counts, shipped_maps  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--ruleset", action="append", help="only these rulesets (default: every one)")
    args = parser.parse_args()
    figures: dict[str, str] = {}
    kinds = {"fair": 0, "favoured": 0, "undecided": 0}
    for name, rs in sorted(RULESETS.items()):
        if args.ruleset and name not in args.ruleset:
            continue
        for map_name in (*shipped_maps(rs), None):
            options = playable_options(rs, map_name) if map_name else rs.normalize_options({})
            players = min(seat_counts(rs, options))
            began = time.process_time()
            verdict = measure(rs, options, players, args.games)
            kind = "undecided" if not verdict.measured else "favoured" if verdict.favoured is not None else "fair"
            kinds[kind] += 1
            label = map_name or "generated"
            figures[f"{name}_{label}".replace("-", "_")] = f"{kind}:{verdict.p:.3f}"
            print(f"{name:9} {label:13} {players}p: {verdict.text()} [{time.process_time() - began:.0f} s CPU]")
    print(
        f"RESULT map_fairness maps={sum(kinds.values())} "
        + " ".join(f"{key}={value}" for key, value in kinds.items())
        + " "
        + " ".join(f"{key}={value}" for key, value in figures.items())
    )


if __name__ == "__main__":
    main()
