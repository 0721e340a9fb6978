"""Siege boards: the map data format, the shipped maps, and a seeded point-symmetric generator.

A map as data (shipped files in ``maps/`` and ``options["map"]`` alike)::

    {
      "name": "ford", "size": 10,                 # 10 (columns A-J) or 12 (A-L)
      "rivers": ["A5", "B5", "I6", "J6"],
      "mountains": {"C3": 1, "H8": 1}             # square -> level 1..3
    }

Capitals are not part of the data: they stand where the spec puts them (:func:`capitals`). A map
a game starts on is refused unless it is point-symmetric (a river or mountain on a square means the
same on the mirrored square, at the same level) and each capital and its four neighbours are clear;
a position's terrain (after Dig and Fill) is read with :meth:`SiegeMap.terrain`, which checks neither.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import MapError
from engine.i18n import mark, tr
from engine.mapfiles import MapGrid, Problems, drawn, grid_rows, unknown_symbol
from engine.maps import ShippedMaps, square_on_board
from engine.rng import Rng, seed_state
from engine.squaregrid import Square, SquareGrid

SIZES = (10, 12)
MAX_LEVEL = 3


@functools.cache
def capitals(size: int) -> tuple[Square, Square]:
    """Player 0 at the centre of row 1 (column E of 10, F of 12); player 1 at the mirrored square."""
    first = Square(size // 2 - 1, 0)
    return first, SquareGrid(size, size).mirror(first)


@functools.cache
def adjacency(size: int) -> dict[Square, tuple[Square, ...]]:
    """Each square's orthogonal neighbours on the board (looked up on every rule check)."""
    grid = SquareGrid(size, size)
    return {sq: tuple(n for n in sq.orthogonal() if grid.contains(n)) for sq in grid.squares()}


@functools.cache
def numbering(size: int) -> tuple[tuple[Square, ...], tuple[tuple[int, ...], ...]]:
    """The squares row by row (square ``row * size + col`` is number ``i``) and each number's
    neighbours, for the code that works on plain integers."""
    squares = tuple(sorted(adjacency(size), key=lambda sq: (sq.row, sq.col)))
    return squares, tuple(tuple(n.row * size + n.col for n in adjacency(size)[sq]) for sq in squares)


@functools.cache
def clear_zone(size: int) -> frozenset[Square]:
    """The capitals and their orthogonal neighbours: never river or mountain."""
    return frozenset(sq for capital in capitals(size) for sq in (capital, *capital.orthogonal()))


OFF_THE_BOARD = mark("{what} {label!r} is not a cell of the {size}x{size} board")


@dataclass(frozen=True)
class SiegeMap:
    name: str
    size: int
    rivers: frozenset[Square]
    mountains: Mapping[Square, int]

    @classmethod
    def from_dict(cls, data: Any) -> SiegeMap:
        """A map a game may start on: its terrain, point-symmetric, with the capitals' squares clear."""
        board = cls.terrain(data)
        grid = SquareGrid(board.size, board.size)
        problems = Problems()
        marked = board.rivers | set(board.mountains)
        for sq in sorted(marked):
            twin = grid.mirror(sq)
            if sq in clear_zone(board.size):
                problems.found.append(
                    tr("{square} is a capital or next to one; those squares must be clear", square=sq.label)
                )
            elif twin < sq and twin in marked:
                continue  # the pair was looked at from its first square
            elif (sq in board.rivers) != (twin in board.rivers) or board.mountains.get(sq) != board.mountains.get(twin):
                problems.found.append(
                    tr("the map must be point-symmetric: {square} and {twin} differ", square=sq.label, twin=twin.label)
                )
        problems.settle()
        return board

    @classmethod
    def terrain(cls, data: Any) -> SiegeMap:
        """The terrain as data says it, checked square by square only: Dig and Fill change the terrain
        during play, so a position's terrain need not be symmetric (the starting map's rules)."""
        if not isinstance(data, Mapping):
            raise MapError(tr("a siege map must be an object with size, rivers and mountains"))
        problems = Problems()
        name = data.get("name", "custom")
        if not isinstance(name, str) or not name.strip():
            problems.found.append(tr("map name must be a non-empty text"))
        size: Any = data.get("size")
        if type(size) is not int or size not in SIZES:  # 10.0 and True equal numbers but are not sizes
            problems.found.append(tr("map size must be 10 or 12, not {size!r}", size=size))
        problems.settle()  # the rest names squares of the board
        board = set(SquareGrid(size, size).squares())

        def square(label: Any, what: str) -> Square:
            return square_on_board(label, board, what, OFF_THE_BOARD, size=size)

        labels, levels = data.get("rivers", []), data.get("mountains", {})
        if not isinstance(labels, list):
            problems.found.append(tr("map rivers must be a list of squares like {example}", example='["C5", "D5"]'))
            labels = []
        if not isinstance(levels, Mapping):
            problems.found.append(tr("map mountains must be an object like {example}", example='{"C3": 2}'))
            levels = {}
        rivers = frozenset(problems.each(labels, lambda label: square(label, mark("river"))))
        mountains = {}
        for label, level in levels.items():
            with problems.entry():
                sq = square(label, mark("mountain"))
                if type(level) is not int or level not in range(1, MAX_LEVEL + 1):
                    raise MapError(
                        tr("mountain {square} must have level 1, 2 or 3, not {level!r}", square=label, level=level)
                    )
                if sq in rivers:
                    raise MapError(tr("{square} is listed as both river and mountain", square=sq.label))
                mountains[sq] = level
        problems.settle()
        return cls(name.strip(), size, rivers, mountains)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "size": self.size,
            "rivers": [sq.label for sq in sorted(self.rivers)],
            "mountains": {sq.label: level for sq, level in sorted(self.mountains.items())},
        }


GRID_LEGEND = (
    (".", mark("clear")),
    ("~", mark("river")),
    ("1", mark("mountain level 1")),
    ("2", mark("mountain level 2")),
    ("3", mark("mountain level 3")),
)


def from_grid(text: str) -> dict[str, Any]:
    """Map data of a board drawn as text: row 1 is the last line, as the board is drawn."""
    problems = Problems()
    rows = grid_rows(text, problems)
    size = len(rows)
    if rows[0] and {len(row) for row in rows} == {len(rows[0])} and len(rows[0]) != size:  # rows alike, not square
        problems.found.append(
            tr(
                "a siege grid is square, 10 rows of 10 or 12 of 12; this one has {rows} rows of {columns}",
                rows=size,
                columns=len(rows[0]),
            )
        )
    rivers, mountains = [], {}
    for line, row in enumerate(rows):
        for column, symbol in enumerate(row):
            label = Square(column, size - 1 - line).label
            if symbol == "~":
                rivers.append(label)
            elif symbol in ("1", "2", "3"):
                mountains[label] = int(symbol)
            elif symbol != ".":
                problems.found.append(unknown_symbol(line, column, symbol, GRID_LEGEND))
    problems.settle()
    return {"size": size, "rivers": rivers, "mountains": mountains}


def to_grid(data: Mapping[str, Any]) -> str:
    board = SiegeMap.terrain(data)

    def symbol(sq: Square) -> str:
        return "~" if sq in board.rivers else str(board.mountains.get(sq, "."))

    return drawn([symbol(Square(column, row)) for column in range(board.size)] for row in reversed(range(board.size)))


GRID = MapGrid(GRID_LEGEND, from_grid, to_grid)


def generate_map(seed: int | str, size: int = 10, level: int = 1) -> SiegeMap:
    """A river wandering in from each side towards the middle (a ford where the halves meet) and
    2 to size/3 mountains of ``level`` in each half; the lower half mirrors the upper half."""
    grid = SquareGrid(size, size)
    rng = Rng(seed_state(f"siege:{seed}:{size}"))
    keep_clear = {near for capital in capitals(size) for near in (capital, *capital.surrounding())}
    upper = [sq for sq in grid.squares() if sq.row < size // 2]
    rivers: set[Square] = set()
    row = size // 2 - 1 - rng.below(2)
    for col in range(size // 2):
        rivers.add(Square(col, row))
        if rng.chance(1, 3) and col < size // 2 - 1:
            row = min(size // 2 - 1, max(size // 2 - 3, row + rng.choice((-1, 1))))
            rivers.add(Square(col, row))
    spots = rng.shuffled([sq for sq in upper if sq not in rivers and sq not in keep_clear])
    mountains = dict.fromkeys(spots[: rng.between(2, size // 3)], level)
    rivers -= keep_clear
    return SiegeMap(
        f"generated-{size}x{size}",
        size,
        frozenset(rivers | {grid.mirror(sq) for sq in rivers}),
        {**mountains, **{grid.mirror(sq): lvl for sq, lvl in mountains.items()}},
    )


SHIPPED = ShippedMaps("engine.siege", SiegeMap.from_dict)
