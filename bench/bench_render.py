"""Board render time for every registered ruleset that has a drawing, next to its floor.

Board: each ruleset's largest default board (``bench.positions.largest_options``) with its most
players, in busy positions (``bench.positions.BUSY``) or, for a ruleset without them, the positions
its computer players reach from turn 12 on.

Measured: CPU time (``time.process_time``) of the job a round post's images come from
(``service.runtime.workers.render_job`` with the round's close-up), i.e. all the work from the
stored state to the bytes the bot uploads: parsing, drawing, the close-up of what the turn changed
(``render.crop``), palette and PNG encoding of both images.
- ``render``: the median over RUNS positions on one map, drawn once each, in turn, after one
  other position of that map: each finds in the caches what the positions before it left, as a
  worker drawing the next turn of a game finds what its earlier turns left.
- ``cold``: a worker's first image of a map: every cache of the render package emptied, then the
  warm-up a worker does when it starts (``service.runtime.workers.warm_up``: each ruleset's opening board),
  then the position (median of COLD runs).
- ``first``: a new game's first FIRST turns, drawn in order right after a worker's warm-up (every
  cache emptied, then ``warm_up``), as the round posts of a game that just began are drawn; each
  turn's median over FIRST_RUNS such workers: the slowest of them, and the highest ratio of any of
  them to its floor. The positions are the computer's own play from the start
  (``bench.positions.played``), so each turn's ownership is new to the piece caches.

Floor: Pillow encoding the very pixels the bot sends, in the format it sends them: each sent PNG
(the board and its close-up) decoded to its palette image and saved again with
``render.png.SAVE_OPTIONS`` (median CPU time over the positions). No renderer that sends these PNGs
can beat it. Ratio = render / floor. Left out: the words of the post's alt text beyond the board's.

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
from render import clear_caches, has_drawer, png  # noqa: E402
from service.runtime.workers import Focus, render_job, warm_up  # noqa: E402

NAMES = ("Алиса", "小明", "Bob", "Zoë Ångström", "李小龙", "Дмитрий")
RUNS = 20
COLD = 5
FIRST = 5
FIRST_RUNS = 5
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


def timed(rs: Ruleset, state, names) -> tuple[list[bytes], float]:
    """A round post's images of ``state`` (the board, and its close-up where it has one), and the
    CPU ms they took from the stored state."""
    stored = rs.to_dict(state)
    start = time.process_time()
    picture = render_job(rs, stored, viewer=None, orders_text="", names=names, title=None, focus=Focus((), "Round"))
    spent = (time.process_time() - start) * 1000
    return [picture.data] + ([picture.close_up.data] if picture.close_up else []), spent


def cold_ms(rs: Ruleset, state, names) -> float:
    def fresh() -> float:
        clear_caches()
        warm_up()
        return timed(rs, state, names)[1]

    return statistics.median(fresh() for _ in range(COLD))


def first_turns(rs: Ruleset, states: list, names) -> list[tuple[list[bytes], float]]:
    """The images of a new game's first round posts (``states``, its first turns), and the CPU ms
    of each: its median over FIRST_RUNS workers, each with every cache emptied and warmed up
    before drawing the turns in order."""
    runs = []
    for _ in range(FIRST_RUNS):
        clear_caches()
        warm_up()
        runs.append([timed(rs, state, names) for state in states])
    return [(runs[0][turn][0], statistics.median(run[turn][1] for run in runs)) for turn in range(len(states))]


def first_boards(rs: Ruleset, names) -> tuple[float, float]:
    """The slowest of a new game's first FIRST round posts' images, and the highest ratio of any of
    them to the floor of its own images (the opening board compresses fastest, so the slowest is
    not always the furthest from its floor)."""
    drawn = first_turns(rs, played(rs, 0, FIRST), names)
    return max(spent for _, spent in drawn), max(spent / floor_ms(sent) for sent, spent in drawn)


def floor_ms(sent: list[bytes]) -> float:
    """Pillow's CPU ms to encode again the images sent, as they were sent."""
    images = [Image.open(io.BytesIO(data)) for data in sent]
    for image in images:
        image.load()

    def encode() -> None:
        for image in images:
            image.save(io.BytesIO(), **png.SAVE_OPTIONS)

    return statistics.median(cpu_ms(encode) for _ in range(3))


def main() -> None:
    figures = {}
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"a round post's public images (board and close-up), CPU ms; PNG options {png.SAVE_OPTIONS}; load average {load} on {os.cpu_count()} CPUs"
    )
    for name, rs in sorted(RULESETS.items()):
        kind, states = positions(name, rs)
        if not has_drawer(type(rs.view(states[0], None))):
            print(f"{name:9} no board drawing")
            continue
        names = NAMES[: rs.max_players]
        cold = cold_ms(rs, states[0], names)
        first, first_ratio = first_boards(rs, names)
        sent, times = zip(*(timed(rs, state, names) for state in states[1:] or states), strict=True)
        render = statistics.median(times)
        floor = statistics.median(floor_ms(images) for images in sent)
        size = Image.open(io.BytesIO(sent[0][0])).size
        kilobytes = max(sum(len(data) for data in images) for images in sent) / 1000
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
            f"first turns of a game up to {first:.1f} ms (ratio up to {first_ratio:.2f}), "
            f"floor {floor:.1f} ms, ratio {render / floor:.2f}"
        )
    firsts = {key: value for key, value in figures.items() if key.endswith("_first_ms")}
    ratios = [figures[key.replace("_ms", "_ratio")] for key in firsts]
    print(f"goal: every first board at most {GOAL_MS} ms and {GOAL_RATIO}x its floor")
    summary = f"first_board_ms={max(firsts.values()):.2f} first_board_ratio={max(ratios):.2f} "
    print("RESULT render " + summary + " ".join(f"{key}={value:.2f}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
