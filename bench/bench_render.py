"""Board render time for every registered ruleset that has a drawing, next to its floor.

Board: each ruleset's largest default board (``bench.positions.largest_options``) with its most
players, in a busy position (``bench.positions.BUSY``) or, for a ruleset without one, a position its
computer players reached in 12 turns.

Measured: CPU time (``time.process_time``) of ``render.board_png`` for the public image, i.e. all
the work from a view to the bytes the bot uploads (drawing, palette, PNG encoding). Median of RUNS
renders that alternate between two positions on the same map, as consecutive turns of one game
would, so nothing from one render's position is reused by the next. ``cold`` is a render after
every cache of the render package was emptied, as in a worker's first render of a map.

Floor: Pillow encoding the very pixels the bot sends, in the format it sends them: the bot's PNG
decoded to its palette image and saved again with ``render.png.SAVE_OPTIONS`` (median CPU time). No
renderer that sends this PNG can beat it. Ratio = render / floor.

Ends with ``RESULT render <ruleset>_ms=… <ruleset>_ratio=… <ruleset>_kb=…`` for each ruleset.
"""

from __future__ import annotations

import io
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bench.positions import BUSY, played  # noqa: E402
from engine import RULESETS, Ruleset  # noqa: E402
from render import board_png, has_drawer, png  # noqa: E402

NAMES = ("Алиса", "小明", "Bob", "Zoë Ångström", "李小龙", "Дмитрий")
RUNS = 20


def positions(name: str, rs: Ruleset) -> tuple[str, list]:
    if name in BUSY:
        return "busy", [BUSY[name](rs, variant) for variant in (0, 1)]
    return "played 11 and 12 turns", [played(rs, 11), played(rs, 12)]


def cpu_ms(fn) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def render_ms(views: list, names: tuple[str, ...]) -> float:
    """Median over RUNS renders alternating between the views."""
    return statistics.median(cpu_ms(lambda view=views[run % 2]: board_png(view, names=names)) for run in range(RUNS))


def floor_ms(data: bytes) -> float:
    sent = Image.open(io.BytesIO(data))
    sent.load()
    return statistics.median(cpu_ms(lambda: sent.save(io.BytesIO(), **png.SAVE_OPTIONS)) for _ in range(RUNS))


def main() -> None:
    figures = {}
    print(f"public board images, median CPU ms of {RUNS} runs; PNG options {png.SAVE_OPTIONS}")
    for name, rs in sorted(RULESETS.items()):
        kind, states = positions(name, rs)
        views = [rs.view(state, None) for state in states]
        if not has_drawer(type(views[0])):
            print(f"{name:9} no board drawing")
            continue
        names = NAMES[: rs.max_players]
        images = [board_png(view, names=names) for view in views]
        render = render_ms(views, names)
        floor = statistics.median(floor_ms(data) for data in images)
        size = Image.open(io.BytesIO(images[0])).size
        kilobytes = max(len(data) for data in images) / 1000
        figures |= {f"{name}_ms": render, f"{name}_ratio": render / floor, f"{name}_kb": kilobytes}
        print(
            f"{name:9} {kind}, {rs.max_players} players, "
            f"{size[0]}x{size[1]} px, {kilobytes:.0f} KB: render {render:.1f} ms, floor {floor:.1f} ms, "
            f"ratio {render / floor:.2f}"
        )
    print("RESULT render " + " ".join(f"{key}={value:.2f}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
