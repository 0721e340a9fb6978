"""Positions shared by the benchmarks: each ruleset's largest default board, and busy positions on it
(every cell owned, as much on the board as the rules allow) to time the worst case.

``BUSY[name](rs, variant)`` is a busy state of that ruleset, ready to view; variants share the map
and differ in who owns what and in the numbers shown, like turns of one game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine import Ruleset
from engine.conquest.orders import Auto, Move
from engine.conquest.state import Cell
from engine.fortress.board import LAND, MOUNTAIN
from engine.gra.state import Phase, Trace


def largest_options(rs: Ruleset) -> dict:
    """The last ``size`` choice, or the largest ``size``, ``width`` and ``height`` numbers; other
    options at their defaults."""
    options = {}
    for option in rs.options_schema():
        if option.name == "size" and option.kind == "choice":
            options["size"] = option.choices[-1]
        elif option.name in ("size", "width", "height") and option.kind == "int":
            options[option.name] = option.maximum
    return options


def quick_level(rs: Ruleset) -> str:
    """The computer level that plays the games of the benches timing the engine, the images and the
    stores: the weakest, which thinks least (a stronger one would take most of their time, and
    ``bench_ladder`` measures the levels)."""
    return rs.bot_levels[0].name


def played(rs: Ruleset, first: int, count: int) -> list:
    """Positions of a game on the largest board with the most players, played by the computer
    (``quick_level``): after ``first`` turns and the ``count - 1`` turns that follow (fewer if the
    game ends)."""
    state = rs.setup(rs.max_players, largest_options(rs), seed=1)
    states = []
    for turn in range(first + count):
        if turn >= first:
            states.append(state)
        if rs.outcome(state) is not None:
            break
        level = quick_level(rs)
        state = rs.resolve(
            state, {s: rs.ai_orders(state, s, turn, level=level) for s in rs.acting_players(state)}
        ).state
    return states or [state]


def busy_position(rs, shift: int = 0):
    """Every cell split among six players by nearest start, 30 units each, three orders per cell;
    ``shift`` hands each player's cells to the next seat."""
    state = rs.setup(6, {"size": "large"}, seed=1)
    starts = [state.cells_of(seat)[0] for seat in range(6)]
    owner = {h: (min(range(6), key=lambda s: (h.distance(starts[s]), s)) + shift) % 6 for h in state.cells}
    cells = {h: Cell(owner[h], 30 + shift) for h in state.cells}
    state = replace(state, cells=cells)
    orders = {seat: [] for seat in range(6)}
    for h in sorted(state.cells):
        near = [n for n in h.neighbours() if n in state.cells]
        orders[cells[h].owner] += [Move(h, near[0], 7), Move(h, near[-1], 5), Auto(h, near[len(near) // 2])]
    return state, orders


def busy_conquest(rs, variant: int):
    """The busy position after its orders resolved: 507 moves and a standing auto-move on every cell."""
    state, orders = busy_position(rs, variant)
    return rs.resolve(state, orders).state


def busy_fortress(rs, variant: int):
    """The largest field in the mode with water and mountains, every cell but the mountains owned
    (split by nearest city), a fortress on every third land cell, a general on every seventh and a
    ten-cell last move."""
    state = rs.setup(2, {**largest_options(rs), "mode": 3}, seed=1)
    cells = sorted(c for c, kind in state.terrain.items() if kind != MOUNTAIN)
    owners = {c: (min((0, 1), key=lambda s: c.distance(state.cities[s])) + variant) % 2 for c in cells}
    land = [c for c in cells if state.terrain[c] == LAND]
    return replace(
        state,
        owners=owners,
        fortresses={c: owners[c] for c in land[variant % 3 :: 3]},
        generals={c: owners[c] for c in land[variant % 7 :: 7]},
        turn=state.moves + variant % 2,
        last=tuple(land[len(land) // 2 + variant :][:10]),
    )


def busy_gra(rs, variant: int):
    """The largest graph in its move phase: every node owned (by nearest start) with a ready army and
    every other one spawning, a move out of every node last turn, a fight on every fifth edge and on
    every ninth node."""
    state = rs.setup(6, largest_options(rs), seed=1)
    graph = state.graph
    starts = list(graph.nodes)[:: len(graph.nodes) // 6][:6]
    distances = [graph.distances_from(start) for start in starts]
    owners = {n: (min(range(6), key=lambda s: (distances[s].get(n, 10**6), s)) + variant) % 6 for n in graph.nodes}
    near = graph.adjacency
    moves = [Trace("move", owners[n], (n, near[n][0]), 1 + (n + variant) % 40) for n in graph.nodes if near[n]]
    fights = [Trace("edge_fight", None, edge, 3) for edge in sorted(graph.edges)[::5]]
    battles = [Trace("node_fight", owners[n], (n,), 0) for n in graph.nodes[::9]]
    return replace(
        state,
        phase=Phase.MOVE,
        owners=owners,
        ready={n: (owners[n], 1 + (n * 7 + variant) % 60) for n in graph.nodes},
        spawning={n: (owners[n], 1 + n % 5) for n in graph.nodes[::2]},
        turn=12 + variant,
        last=(*moves, *fights, *battles),
    )


BUSY: dict[str, Callable[[Ruleset, int], object]] = {
    "conquest": busy_conquest,
    "fortress": busy_fortress,
    "gra": busy_gra,
}
