"""Square-grid geometry for the square boards: labels like ``C4``, orthogonal and diagonal steps."""

from __future__ import annotations

import functools
from typing import NamedTuple

from engine.labels import format_label, parse_label

ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))  # up, down, left, right
DIAGONAL: tuple[tuple[int, int], ...] = ((-1, -1), (1, -1), (-1, 1), (1, 1))
KNIGHT: tuple[tuple[int, int], ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class Square(NamedTuple):
    """A square of the board. A named tuple, not a dataclass: the computer players hash millions of
    squares a move, and a tuple hashes and compares in C."""

    col: int
    row: int

    def __repr__(self) -> str:
        return f"Square.from_label({self.label!r})"

    @property
    def label(self) -> str:
        return format_label(self.col, self.row)

    @classmethod
    def from_label(cls, text: str) -> Square:
        parsed = parse_label(text)
        if parsed is None:
            raise ValueError(f"{text!r} is not a square label like C4")
        return cls(*parsed)

    def offset(self, dcol: int, drow: int) -> Square:
        return Square(self.col + dcol, self.row + drow)

    def orthogonal(self) -> tuple[Square, ...]:
        return _steps(self, ORTHOGONAL)

    def diagonal(self) -> tuple[Square, ...]:
        return _steps(self, DIAGONAL)

    def surrounding(self) -> tuple[Square, ...]:
        return self.orthogonal() + self.diagonal()

    def knight_jumps(self) -> tuple[Square, ...]:
        return _steps(self, KNIGHT)


@functools.lru_cache(maxsize=1 << 16)
def _steps(square: Square, deltas: tuple[tuple[int, int], ...]) -> tuple[Square, ...]:
    """The squares ``deltas`` away, kept: the computer players ask for the same few hundred squares'
    neighbours millions of times a game."""
    return tuple(square.offset(*d) for d in deltas)


class SquareGrid(NamedTuple):
    width: int
    height: int

    def contains(self, square: Square) -> bool:
        return 0 <= square.col < self.width and 0 <= square.row < self.height

    def squares(self) -> list[Square]:
        return [Square(c, r) for r in range(self.height) for c in range(self.width)]

    def mirror(self, square: Square) -> Square:
        """The point-mirrored square (180 degree rotation about the board's centre)."""
        return Square(self.width - 1 - square.col, self.height - 1 - square.row)

    def rotate(self, square: Square) -> Square:
        """The square a quarter turn clockwise about the centre (a symmetry of square boards only)."""
        return Square(self.height - 1 - square.row, square.col)
