"""Build small conquest positions by hand for rule tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from engine import find_ruleset
from engine.conquest.orders import Move, Order
from engine.conquest.sim import Geometry, Step
from engine.conquest.state import Cell, ConquestState
from engine.hexgrid import Hex, linear_symmetries

RS = find_ruleset("conquest")

# A 4x3 block of normal cells; A1 and D3 are the start cells.
STRIP = {
    "name": "strip",
    "layout": ["n n n n", "n n n n", "n n n n"],
    "starts": {"2": ["A1", "D3"], "3": ["A1", "D3", "D1"]},
}


def position(
    cells: dict[str, tuple[int | None, int]],
    players: int = 2,
    layout: dict | None = None,
    types: dict[str, str] | None = None,
    **options,
) -> ConquestState:
    """A state on ``layout`` (default STRIP) where exactly ``cells`` are set; all others neutral and empty."""
    state = RS.setup(players, {"map": layout or STRIP, **options}, seed=7)
    new_cells = {h: Cell(None, 0) for h in state.cells}
    for label, (owner, units) in cells.items():
        new_cells[Hex.from_label(label)] = Cell(owner, units)
    new_types = dict(state.types)
    for label, kind in (types or {}).items():
        new_types[Hex.from_label(label)] = type(next(iter(new_types.values())))(kind)
    return replace(state, cells=new_cells, types=new_types)


def cell(state: ConquestState, label: str) -> Cell:
    return state.cells[Hex.from_label(label)]


def play(state: ConquestState, orders: dict[int, str]):
    """Parse each seat's text and resolve the round; returns the Resolution."""
    parsed = {seat: RS.parse_orders(state, seat, text) for seat, text in orders.items()}
    return RS.resolve(state, parsed)


def before_production(state: ConquestState, label: str) -> tuple[int | None, int]:
    """Owner and units of a cell with this round's production taken back out, to read battle results."""
    c = cell(state, label)
    bonus = state.types[Hex.from_label(label)].production if c.owner is not None else 0
    return c.owner, c.units - bonus


def symmetries_mapping(source: Hex, target: Hex) -> list[Callable[[Hex], Hex]]:
    """Every lattice symmetry (rotation/reflection plus translation) that sends source to target."""
    maps: list[Callable[[Hex], Hex]] = []
    for op in linear_symmetries():
        sq, sr = op(source.q, source.r)
        tq, tr = target.q - sq, target.r - sr

        def move(cell: Hex, op: Callable[[int, int], tuple[int, int]] = op, tq: int = tq, tr: int = tr) -> Hex:
            q, r = op(cell.q, cell.r)
            return Hex(q + tq, r + tr)

        maps.append(move)
    return maps


def steps_of(geometry: Geometry, orders: Iterable[Order]) -> list[Step]:
    """A seat's fixed moves as steps (standing orders are not steps; see ``stops``)."""
    return [(geometry.index[o.source], geometry.index[o.target], o.units) for o in orders if isinstance(o, Move)]
