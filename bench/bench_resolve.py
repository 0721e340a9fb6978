"""Engine time per turn, for every registered ruleset on its largest map.

1. Every ruleset: a game on its largest map (the last ``size`` choice, the largest ``width`` and
   ``height``) with its most players, played by its own computer players (the weakest level,
   ``bench.positions.quick_level``) for up to 40 turns; each
   turn's ``resolve`` is timed on its own (the computer players' thinking is not counted). Prints
   the median and the slowest turn.
2. Conquest's worst case: the largest 6-player map with every cell owned and three orders per cell
   (``bench/positions.py``), resolve and parse+validate of those orders from text.

Ends with ``RESULT resolve <ruleset>_ms=<median> … conquest_busy_ms=…``.
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.positions import busy_position, largest_options, quick_level  # noqa: E402
from engine import RULESETS, Ruleset, find_ruleset  # noqa: E402

TURNS = 40


def turn_times(rs: Ruleset) -> list[float]:
    state = rs.setup(rs.max_players, largest_options(rs), seed=1)
    times = []
    for turn in range(TURNS):
        if rs.outcome(state) is not None:
            break
        orders = {seat: rs.ai_orders(state, seat, turn, level=quick_level(rs)) for seat in rs.acting_players(state)}
        start = time.perf_counter()
        state = rs.resolve(state, orders).state
        times.append((time.perf_counter() - start) * 1000)
    return times


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    figures = {}
    for name, rs in sorted(RULESETS.items()):
        times = turn_times(rs)
        figures[f"{name}_ms"] = statistics.median(times)
        print(
            f"{name:9} {rs.max_players} players, options {largest_options(rs) or 'default'}: "
            f"resolve {statistics.median(times):.2f} ms per turn (median of {len(times)}), slowest {max(times):.2f} ms"
        )
    rs = find_ruleset("conquest")
    state, orders = busy_position(rs)
    texts = {seat: rs.format_orders(o) for seat, o in orders.items()}
    count = sum(len(o) for o in orders.values())
    resolve = median_ms(lambda: rs.resolve(state, orders), 30)
    parse = median_ms(lambda: [rs.parse_orders(state, s, t) for s, t in texts.items()], 30)
    figures["conquest_busy_ms"], figures["conquest_busy_parse_ms"] = resolve, parse
    print(
        f"conquest busy: {len(state.cells)} cells, 6 players, {count} orders: resolve {resolve:.1f} ms (median of 30)"
    )
    print(f"conquest busy: parse+validate of the same {count} orders from text: {parse:.1f} ms (median of 30)")
    print("RESULT resolve " + " ".join(f"{key}={value:.2f}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
