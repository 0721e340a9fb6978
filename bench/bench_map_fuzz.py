"""Random and mutated map files through ``/map upload``'s checks, per ruleset (``bench.mapfiles``).

Each file goes through ``service.ops.maps.checked``: what ``/map upload`` does with a file before it
stores it (read, name, the ruleset's own map checks, the player counts it seats). Counted: maps
accepted, clear refusals (a GameError with its message), unexpected exceptions (any other: the goal
is 0), and the CPU time of each file (goal: none over 1 s; the slowest is printed).

Leaves out: Discord's own checks on an attachment (its size, fetched before: ``refuse_large``), the
database write, and the preview image drawn for an accepted map.

Usage: python bench/bench_map_fuzz.py [--files 10000] [--seed 1]
Ends with ``RESULT map_fuzz files=… accepted=… refused=… unexpected=… over_1s=… slowest_ms=…``.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
import traceback

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.mapfiles import map_file  # noqa: E402
from engine import RULESETS  # noqa: E402
from service.errors import GameError  # noqa: E402
from service.ops.maps import checked  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=10_000, help="files per ruleset")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    totals = {"files": 0, "accepted": 0, "refused": 0, "unexpected": 0, "over_1s": 0}
    slowest = 0.0
    for name, rs in sorted(RULESETS.items()):
        rng = random.Random(f"{args.seed}-{name}")
        counts = dict.fromkeys(totals, 0)
        own_slowest = 0.0
        for _ in range(args.files):
            content = map_file(rs, rng)
            started = time.process_time()
            try:
                checked(rs, content, None, "fuzz.txt")
                counts["accepted"] += 1
            except GameError:
                counts["refused"] += 1
            except Exception:  # noqa: BLE001 - what the bench counts
                counts["unexpected"] += 1
                if counts["unexpected"] <= 3:
                    print(f"{name}: unexpected on {content[:200]!r}\n{traceback.format_exc()}")
            spent = time.process_time() - started
            counts["files"] += 1
            counts["over_1s"] += spent > 1.0
            own_slowest = max(own_slowest, spent)
        print(
            f"{name:9} {counts['files']} files: {counts['accepted']} maps, {counts['refused']} refused, "
            f"{counts['unexpected']} unexpected, {counts['over_1s']} over 1 s, slowest {own_slowest * 1000:.1f} ms"
        )
        totals = {key: totals[key] + counts[key] for key in totals}
        slowest = max(slowest, own_slowest)
    print(
        "RESULT map_fuzz "
        + " ".join(f"{key}={value}" for key, value in totals.items())
        + f" slowest_ms={slowest * 1000:.1f}"
    )


if __name__ == "__main__":
    main()
