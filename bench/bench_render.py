"""Board render time for every registered ruleset that has a drawing, next to its floor.

Board: each ruleset's largest default board (``bench.positions.largest_options``) with its most
players, in busy positions (``bench.positions.BUSY``) or, for a ruleset without them, the positions
its computer players reach from turn 12 on.

Measured: CPU time (``time.process_time``) of ``render.board_png`` for the public image, i.e. all
the work from a view to the bytes the bot uploads (drawing, palette, PNG encoding).
- ``render``: the median over RUNS positions on one map, drawn once each, in turn, after one
  other position of that map: each finds in the caches what the positions before it left, as a
  worker drawing the next turn of a game finds what its earlier turns left.
- ``cold``: a worker's first image of a map: every cache of the render package emptied, then the
  warm-up a worker does when it starts (``service.runtime.workers.warm_up``: each ruleset's opening board),
  then the position (median of COLD runs).
- ``first``: a new game's first FIRST turns, each drawn once in order right after a worker's
  warm-up (every cache emptied, then ``warm_up``), as the round posts of a game that just began
  are drawn: the slowest of them, and its ratio to the floor of the same images. The positions are
  the computer's own play from the start (``bench.positions.played``), so each turn's ownership is
  new to the piece caches.

Floor: Pillow encoding the very pixels the bot sends, in the format it sends them: each sent PNG
decoded to its palette image and saved again with ``render.png.SAVE_OPTIONS`` (median CPU time over
the positions). No renderer that sends these PNGs can beat it. Ratio = render / floor.

CPU time still grows when other processes share the machine, hence the load average in the output.

Ends with ``RESULT render first_board_ms=<slowest ruleset> first_board_ratio=<highest>
<ruleset>_ms=… <ruleset>_ratio=… <ruleset>_cold_ms=… <ruleset>_first_ms=… <ruleset>_first_ratio=…
<ruleset>_kb=…``.
"""

from __future__ import annotations

import io
import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bench.positions import BUSY, played  # noqa: E402
from engine import RULESETS, Ruleset  # noqa: E402
from render import board_png, clear_caches, has_drawer, png  # noqa: E402
from service.runtime.workers import warm_up  # noqa: E402

NAMES = ("Алиса", "小明", "Bob", "Zoë Ångström", "李小龙", "Дмитрий")
RUNS = 20
COLD = 5
FIRST = 5
GOAL_MS, GOAL_RATIO = 100, 2


def positions(name: str, rs: Ruleset) -> tuple[str, list]:
    """One position to warm up with, then RUNS more on the same map."""
    if name in BUSY:
        return "busy", [BUSY[name](rs, variant) for variant in range(RUNS + 1)]
    return "played from turn 12", played(rs, 12, RUNS + 1)


def cpu_ms(fn) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def timed(view, names) -> tuple[bytes, float]:
    start = time.process_time()
    data = board_png(view, names=names)
    return data, (time.process_time() - start) * 1000


def cold_ms(view, names) -> float:
    def fresh() -> float:
        clear_caches()
        warm_up()
        return timed(view, names)[1]

    return statistics.median(fresh() for _ in range(COLD))


def first_boards(rs: Ruleset, names) -> tuple[float, float]:
    """The slowest of a new game's first FIRST boards, drawn in turn after a worker's warm-up, and
    its ratio to the floor of the same image."""
    clear_caches()
    warm_up()
    drawn = [timed(rs.view(state, None), names) for state in played(rs, 0, FIRST)]
    data, slowest = max(drawn, key=lambda pair: pair[1])
    return slowest, slowest / floor_ms(data)


def floor_ms(data: bytes) -> float:
    sent = Image.open(io.BytesIO(data))
    sent.load()
    return statistics.median(cpu_ms(lambda: sent.save(io.BytesIO(), **png.SAVE_OPTIONS)) for _ in range(3))


def main() -> None:
    figures = {}
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"public board images, CPU ms; PNG options {png.SAVE_OPTIONS}; load average {load} on {os.cpu_count()} CPUs")
    for name, rs in sorted(RULESETS.items()):
        kind, states = positions(name, rs)
        views = [rs.view(state, None) for state in states]
        if not has_drawer(type(views[0])):
            print(f"{name:9} no board drawing")
            continue
        names = NAMES[: rs.max_players]
        cold = cold_ms(views[0], names)
        first, first_ratio = first_boards(rs, names)
        sent, times = zip(*(timed(view, names) for view in views[1:] or views), strict=True)
        render = statistics.median(times)
        floor = statistics.median(floor_ms(data) for data in sent)
        size = Image.open(io.BytesIO(sent[0])).size
        kilobytes = max(len(data) for data in sent) / 1000
        figures |= {
            f"{name}_ms": render,
            f"{name}_ratio": render / floor,
            f"{name}_cold_ms": cold,
            f"{name}_first_ms": first,
            f"{name}_first_ratio": first_ratio,
            f"{name}_kb": kilobytes,
        }
        print(
            f"{name:9} {kind}, {rs.max_players} players, {size[0]}x{size[1]} px, up to {kilobytes:.0f} KB: "
            f"render {render:.1f} ms (median of {len(times)}, slowest {max(times):.1f}), cold {cold:.1f} ms, "
            f"first turns of a game up to {first:.1f} ms (ratio {first_ratio:.2f}), "
            f"floor {floor:.1f} ms, ratio {render / floor:.2f}"
        )
    firsts = {key: value for key, value in figures.items() if key.endswith("_first_ms")}
    ratios = [figures[key.replace("_ms", "_ratio")] for key in firsts]
    print(f"goal: every first board at most {GOAL_MS} ms and {GOAL_RATIO}x its floor")
    summary = f"first_board_ms={max(firsts.values()):.2f} first_board_ratio={max(ratios):.2f} "
    print("RESULT render " + summary + " ".join(f"{key}={value:.2f}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
