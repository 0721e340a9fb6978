"""Positions shared by the benchmarks: the largest 6-player map with every cell owned and ordered."""

from __future__ import annotations

from dataclasses import replace

from engine.conquest.orders import Auto, Move
from engine.conquest.state import Cell


def busy_position(rs):
    """Every cell split among six players by nearest start, 30 units each, three orders per cell."""
    state = rs.setup(6, {"size": "large"}, seed=1)
    starts = [state.cells_of(seat)[0] for seat in range(6)]
    cells = {h: Cell(min(range(6), key=lambda s: (h.distance(starts[s]), s)), 30) for h in state.cells}
    state = replace(state, cells=cells)
    orders = {seat: [] for seat in range(6)}
    for h in sorted(state.cells):
        near = [n for n in h.neighbours() if n in state.cells]
        orders[cells[h].owner] += [Move(h, near[0], 7), Move(h, near[-1], 5), Auto(h, near[len(near) // 2])]
    return state, orders
