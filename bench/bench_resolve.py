"""Resolve time of one conquest round on the largest 6-player map with every cell ordered.

Every cell is owned (split among the six players by nearest start) and holds 30 units; each cell
sends two fixed moves and an auto-move to its neighbours. Prints the median of several runs, plus
the time to parse all those orders from text.
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import busy_position  # noqa: E402
from engine import find_ruleset  # noqa: E402


def build():
    rs = find_ruleset("conquest")
    state, orders = busy_position(rs)
    texts = {seat: rs.format_orders(o) for seat, o in orders.items()}
    return rs, state, orders, texts


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    rs, state, orders, texts = build()
    count = sum(len(o) for o in orders.values())
    resolve = median_ms(lambda: rs.resolve(state, orders), 30)
    parse = median_ms(lambda: [rs.parse_orders(state, s, t) for s, t in texts.items()], 30)
    print(f"conquest resolve, {len(state.cells)} cells, 6 players, {count} orders: {resolve:.1f} ms (median of 30)")
    print(f"conquest parse+validate of the same {count} orders from text: {parse:.1f} ms (median of 30)")


if __name__ == "__main__":
    main()
