"""Replay time and size for every registered ruleset that has a drawing.

Game: each ruleset's largest default board with its most players (``bench.positions.played``),
played by the computer for up to ``--turns`` turns (default 120, the most frames a replay shows).
Worst case: for the rulesets with busy positions (``bench.positions.BUSY``: every cell owned, as
much on the board as the rules allow), as many busy positions whose ownership changes everywhere
from each to the next (nothing for the animation to keep from frame to frame), and its whole CPU
time and bytes; the worst of them is ``replay_worst_*`` (goal: at most 5 MB and 10 s).

Measured: CPU time (``time.process_time``) of ``service.runtime.workers.replay_job``, i.e. all the work a
worker does for a replay (each board drawn, shrunk, captioned, put on the shared palette, encoded as
GIF and as WebP), per frame shown; the bytes uploaded, the format chosen, and the frame size. With
Discord's default upload limit nothing has to be scaled down or dropped for these games; a game
that did would show it as a smaller width or fewer frames than positions.

CPU time still grows when other processes share the machine, hence the load average in the output.

Ends with ``RESULT replay replay_worst_kb=… replay_worst_s=… <ruleset>_ms_per_frame=… <ruleset>_kb=…
<ruleset>_frames=… <ruleset>_format=… <ruleset>_busy_kb=… <ruleset>_busy_s=…``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import BUSY, played  # noqa: E402
from engine import RULESETS  # noqa: E402
from render import has_drawer  # noqa: E402
from render.replay import UPLOAD_LIMIT  # noqa: E402
from service.runtime.workers import (
    ReplayStep,  # noqa: E402
    replay_job,  # noqa: E402
)

NAMES = ("Алиса", "小明", "Bob", "Zoë Ångström", "李小龙", "Дмитрий")


def replayed(rs, states):
    """The replay a worker makes of these positions, and its CPU seconds."""
    stored = [json.dumps(rs.to_dict(state)) for state in states]
    steps = [ReplayStep(n, stored[n - 1] if n else None, after) for n, after in enumerate(stored)]
    start = time.process_time()
    made = replay_job(rs, steps, names=NAMES[: rs.max_players], finished=False, limit=UPLOAD_LIMIT)
    return made, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=120, help="turns played (default: 120)")
    args = parser.parse_args(argv)
    figures = []
    worst: list[tuple[float, float]] = []  # per busy replay: KB and CPU seconds
    print(f"load average {os.getloadavg()[0]:.1f}; upload limit {UPLOAD_LIMIT} bytes")
    for name, rs in sorted(RULESETS.items()):
        states = played(rs, 0, args.turns + 1)
        if not has_drawer(type(rs.view(states[0], None))):
            continue
        made, seconds = replayed(rs, states)
        per_frame = seconds * 1000 / made.frames
        kb = len(made.data) / 1024
        print(
            f"{name:10} {len(states):4} positions -> {made.frames:4} frames {made.width}x{made.height} "
            f"{made.format:4} {kb:8.0f} KB {per_frame:7.1f} ms per frame"
        )
        figures += [
            f"{name}_ms_per_frame={per_frame:.1f}",
            f"{name}_kb={kb:.0f}",
            f"{name}_frames={made.frames}",
            f"{name}_format={made.format}",
        ]
        if name in BUSY:
            busy, seconds = replayed(rs, [BUSY[name](rs, variant) for variant in range(args.turns + 1)])
            worst.append((len(busy.data) / 1024, seconds))
            print(
                f"{'':10} {args.turns + 1:4} busy positions -> {busy.format} {worst[-1][0]:8.0f} KB in {seconds:.1f} s CPU"
            )
            figures += [f"{name}_busy_kb={worst[-1][0]:.0f}", f"{name}_busy_s={seconds:.1f}"]
    kb, seconds = max(kb for kb, _ in worst), max(s for _, s in worst)
    print(f"worst replay {kb:.0f} KB, {seconds:.1f} s CPU (goal: at most {5 * 1024} KB and 10 s)")
    print(f"RESULT replay replay_worst_kb={kb:.0f} replay_worst_s={seconds:.1f} " + " ".join(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
