"""A lean copy of the conquest round for the computer players' searches: cells as list indices, no
events, no traces, no validation. It must resolve exactly as ``rules.resolve_round`` does (a
property test holds the two together); a search simulates thousands of rounds a move, and the
full round with its events costs several times more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.conquest.orders import Move, Order, StopAuto
from engine.conquest.state import ConquestState
from engine.hexgrid import Hex

NEUTRAL = -1
Step = tuple[int, int, int]  # source index, target index, units


@dataclass(frozen=True)
class Geometry:
    """The map as indices: each cell's neighbours and production."""

    hexes: tuple[Hex, ...]
    index: Mapping[Hex, int]
    near: tuple[tuple[int, ...], ...]
    production: tuple[int, ...]

    @classmethod
    def of(cls, state: ConquestState) -> Geometry:
        hexes = tuple(sorted(state.types))
        index = {h: i for i, h in enumerate(hexes)}
        near = tuple(tuple(index[n] for n in h.neighbours() if n in index) for h in hexes)
        return cls(hexes, index, near, tuple(state.types[h].production for h in hexes))

    def move(self, step: Step) -> Move:
        source, target, units = step
        return Move(self.hexes[source], self.hexes[target], units)


@dataclass(frozen=True)
class Position:
    """Owners (``NEUTRAL`` or a seat) and units per cell, the seats still playing, and the standing
    auto-moves (source index to target index)."""

    owner: tuple[int, ...]
    units: tuple[int, ...]
    alive: frozenset[int]
    autos: Mapping[int, int]

    @classmethod
    def of(cls, state: ConquestState, geometry: Geometry) -> Position:
        cells = [state.cells[h] for h in geometry.hexes]
        return cls(
            tuple(NEUTRAL if c.owner is None else c.owner for c in cells),
            tuple(c.units for c in cells),
            frozenset(state.playing()),
            {geometry.index[s]: geometry.index[t] for s, t in state.autos.items()},
        )

    def cells_of(self, seat: int) -> list[int]:
        return [i for i, owner in enumerate(self.owner) if owner == seat]


def play(
    geometry: Geometry, position: Position, steps: Mapping[int, Iterable[Step]], stopped: Iterable[int] = ()
) -> Position:
    """The next position after every seat's ``steps``; the auto-moves of ``stopped`` seats are
    cancelled first (computer players stop their own and plan every round afresh)."""
    units = position.units
    gone = set(stopped)
    autos = {s: t for s, t in position.autos.items() if position.owner[s] not in gone}
    out: dict[int, int] = {}
    arrivals: dict[int, dict[int, int]] = {}
    for seat, seat_steps in steps.items():
        for source, target, n in seat_steps:
            out[source] = out.get(source, 0) + n
            party = arrivals.setdefault(target, {})
            party[seat] = party.get(seat, 0) + n
    for source, target in autos.items():
        holder = position.owner[source]
        remaining = units[source] - out.get(source, 0)
        if holder in position.alive and remaining > 0:
            out[source] = out.get(source, 0) + remaining
            party = arrivals.setdefault(target, {})
            party[holder] = party.get(holder, 0) + remaining
    owner = list(position.owner)
    after = list(units)
    for cell in set(out) | set(arrivals):
        before = owner[cell]
        parties = {}
        stayed = units[cell] - out.get(cell, 0)
        if stayed > 0:
            parties[before] = stayed
        for seat, n in arrivals.get(cell, {}).items():
            parties[seat] = parties.get(seat, 0) + n
        if not parties:
            after[cell] = 0
            continue
        ranked = sorted(parties.items(), key=lambda item: -item[1])
        first, most = ranked[0]
        if len(ranked) > 1 and ranked[1][1] == most:
            owner[cell], after[cell] = NEUTRAL, 0
            continue
        after[cell] = most - (ranked[1][1] if len(ranked) > 1 else 0)
        if first != NEUTRAL:
            owner[cell] = first
    after = [n if seat == NEUTRAL else n + made for n, seat, made in zip(after, owner, geometry.production)]
    kept = {s: t for s, t in autos.items() if owner[s] == position.owner[s]}
    alive = position.alive & set(owner)
    return Position(tuple(owner), tuple(after), frozenset(alive), kept)


def stops(state: ConquestState, seat: int) -> list[Order]:
    """Orders cancelling every standing auto-move of ``seat``."""
    return [StopAuto(cell) for cell, c in sorted(state.cells.items()) if c.owner == seat and cell in state.autos]


def as_orders(state: ConquestState, seat: int, geometry: Geometry, steps: Iterable[Step]) -> list[Order]:
    """A computer's orders for ``steps``: its standing auto-moves stopped (it plans every round
    afresh), then one move per source and target, in board order."""
    total: dict[tuple[int, int], int] = {}
    for source, target, units in steps:
        total[source, target] = total.get((source, target), 0) + units
    moves = [geometry.move((source, target, units)) for (source, target), units in sorted(total.items())]
    return [*stops(state, seat), *moves]
