"""Render time of the largest conquest map (6 players, 169 cells) next to its floor.

The floor is Pillow's PNG encoding of a same-size RGB image with the same content (the drawn board
itself), saved with the same ``save()`` options: no renderer that outputs this PNG can beat it by
much. Positions: a real game after 8 rounds, and a busy one where every cell moved three ways last
round and keeps an auto-move. Prints figures; asserts nothing.
"""

from __future__ import annotations

import io
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import busy_position  # noqa: E402
from engine import find_ruleset  # noqa: E402
from render import board_png, conquest, png  # noqa: E402

NAMES = ("Алиса", "小明", "Bob", "Zoë Ångström", "李小龙", "Дмитрий")
RUNS = 15


def played(rs):
    state = rs.setup(6, {"size": "large"}, seed=1)
    for _ in range(8):
        state = rs.resolve(state, {s: rs.ai_orders(state, s, 1) for s in rs.acting_players(state)}).state
    return state


def busy(rs):
    state, orders = busy_position(rs)
    return rs.resolve(state, orders).state


def median_ms(fn) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def save(image) -> None:
    image.save(io.BytesIO(), **png.SAVE_OPTIONS)


def report(label: str, view, orders=()) -> None:
    data = board_png(view, names=NAMES, orders=orders)
    drawn = conquest.render(view, NAMES, orders, None)
    total = median_ms(lambda: board_png(view, names=NAMES, orders=orders))
    draw = median_ms(lambda: conquest.render(view, NAMES, orders, None))
    encode = median_ms(lambda: png.encode(drawn))
    floor = median_ms(lambda: save(drawn))
    print(
        f"{label}: {drawn.width}x{drawn.height} px, {len(data) / 1000:.0f} KB, {len(view.last_moves)} moves last round"
    )
    print(f"  board_png          {total:6.1f} ms  (draw {draw:.1f} + palette and encode {encode:.1f})")
    print(f"  floor: RGB save()  {floor:6.1f} ms  (same size and content, options {png.SAVE_OPTIONS})")


def main() -> None:
    rs = find_ruleset("conquest")
    board_png(rs.view(rs.setup(2, {}, seed=1), None), names=NAMES[:2])  # load fonts once
    state = played(rs)
    print(f"conquest board, largest map, median of {RUNS} runs")
    report("after 8 rounds, public", rs.view(state, None))
    report("after 8 rounds, private", rs.view(state, 0), rs.ai_orders(state, 0, 2))
    report("busy position, public", rs.view(busy(rs), None))


if __name__ == "__main__":
    main()
