"""Hex geometry for pointy-top hex boards.

Cells are axial coordinates ``Hex(q, r)`` internally. Players see offset labels: the row is
``r`` and rows are drawn with odd rows shifted half a cell right ("odd-r"), so the column
letter is ``q + (r - (r & 1)) // 2``. ``Hex.from_label("C4")`` and ``hex.label`` convert.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.labels import format_label, parse_label

# Axial direction vectors, clockwise from east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    q: int
    r: int

    def __repr__(self) -> str:
        return f"Hex.from_label({self.label!r})" if self.r >= 0 and self.col >= 0 else f"Hex({self.q}, {self.r})"

    @property
    def col(self) -> int:
        return self.q + (self.r - (self.r & 1)) // 2

    @property
    def row(self) -> int:
        return self.r

    @property
    def label(self) -> str:
        return format_label(self.col, self.row)

    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        return cls(col - (row - (row & 1)) // 2, row)

    @classmethod
    def from_label(cls, text: str) -> Hex:
        parsed = parse_label(text)
        if parsed is None:
            raise ValueError(f"{text!r} is not a cell label like C4")
        return cls.from_offset(*parsed)

    def neighbours(self) -> tuple[Hex, ...]:
        return tuple(Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS)

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def pixel(self, size: float) -> tuple[float, float]:
        """Centre of the cell for a hex of circumradius ``size``, origin at Hex(0, 0)."""
        return size * math.sqrt(3) * (self.q + self.r / 2), size * 1.5 * self.r


def hexagon(center: Hex, radius: int) -> list[Hex]:
    """Every cell within ``radius`` of ``center``, sorted."""
    cells = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            cells.append(Hex(center.q + dq, center.r + dr))
    return sorted(cells)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The cells exactly ``radius`` from ``center``, in order around it, starting at the corner in
    direction 4 (south-west); walking the ring backwards is its mirror image through that corner."""
    dq, dr = DIRECTIONS[4]
    cell = Hex(center.q + dq * radius, center.r + dr * radius)
    cells = []
    for dq, dr in DIRECTIONS:
        for _ in range(radius):
            cells.append(cell)
            cell = Hex(cell.q + dq, cell.r + dr)
    return cells


def _rotate(q: int, r: int) -> tuple[int, int]:
    """60 degrees about the origin, in axial coordinates."""
    return -r, q + r


def _mirror(q: int, r: int) -> tuple[int, int]:
    """Reflection through the axis of the q direction, in axial coordinates."""
    return q + r, -r


def linear_symmetries() -> list[Callable[[int, int], tuple[int, int]]]:
    """The 12 rotations and reflections of the hex lattice about the origin."""
    ops: list[Callable[[int, int], tuple[int, int]]] = []
    for turns in range(6):
        for flip in (False, True):

            def op(q: int, r: int, turns: int = turns, flip: bool = flip) -> tuple[int, int]:
                if flip:
                    q, r = _mirror(q, r)
                for _ in range(turns):
                    q, r = _rotate(q, r)
                return q, r

            ops.append(op)
    return ops


def orbit(cell: Hex, center: Hex) -> set[Hex]:
    """The cells that ``cell`` reaches under every rotation/reflection about ``center``."""
    result = set()
    for op in linear_symmetries():
        q, r = op(cell.q - center.q, cell.r - center.r)
        result.add(Hex(q + center.q, r + center.r))
    return result
