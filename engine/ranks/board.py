"""Ranks boards: the map data format, shipped maps, and a seeded symmetric generator.

A map as data (shipped files in ``maps/`` and ``options["map"]`` alike)::

    {
      "name": "duel", "width": 8, "height": 8,
      "cities": ["B2", "C2", "B3", ...],   # city cells; 4-connected groups of them are the cities
      "tracks": ["G2", "G3", "G4", ...],   # NPC track cells (never city cells)
      "npcs": ["G3"],                      # NPC pawns at the start, each on a track cell
      "capitals": ["B2", "G7"]             # one city cell per seat, each in a different city
    }

A map is played by exactly as many players as it has capitals (2 to 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.errors import MapError
from engine.i18n import mark, tr
from engine.mapfiles import MapGrid, Problems, drawn, grid_rows, unknown_symbol
from engine.maps import ShippedMaps, square_on_board
from engine.rng import Rng, seed_state
from engine.squaregrid import Square, SquareGrid

MIN_SIDE, MAX_SIDE = 5, 26
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def reading_order(square: Square) -> tuple[int, int]:
    """Top row first, then left to right (the order NPCs act in, and default spawn cells)."""
    return square.row, square.col


def groups(cells: Iterable[Square]) -> tuple[tuple[Square, ...], ...]:
    """The 4-connected groups of ``cells``, each in reading order, ordered by their first cell."""
    left = set(cells)
    found = []
    while left:
        start = min(left, key=reading_order)
        group, frontier = {start}, [start]
        while frontier:
            for near in frontier.pop().orthogonal():
                if near in left and near not in group:
                    group.add(near)
                    frontier.append(near)
        left -= group
        found.append(tuple(sorted(group, key=reading_order)))
    return tuple(sorted(found, key=lambda g: reading_order(g[0])))


@dataclass(frozen=True)
class RanksMap:
    name: str
    grid: SquareGrid
    cities: tuple[tuple[Square, ...], ...]  # each city's cells in reading order
    tracks: frozenset[Square]
    npcs: frozenset[Square]
    capitals: tuple[Square, ...]  # seat order

    @property
    def players(self) -> int:
        return len(self.capitals)

    def city_of(self, square: Square) -> tuple[Square, ...] | None:
        return self._city_by_cell.get(square)

    @cached_property
    def _city_by_cell(self) -> dict[Square, tuple[Square, ...]]:
        """Each city cell's city: a board asks for every cell's, every turn."""
        return {cell: city for city in self.cities for cell in city}

    def to_dict(self) -> dict[str, Any]:
        def labels(cells: Iterable[Square]) -> list[str]:
            return [c.label for c in sorted(cells, key=reading_order)]

        return {
            "name": self.name,
            "width": self.grid.width,
            "height": self.grid.height,
            "cities": labels(c for city in self.cities for c in city),
            "tracks": labels(self.tracks),
            "npcs": labels(self.npcs),
            "capitals": [c.label for c in self.capitals],
        }

    @classmethod
    def from_dict(cls, data: Any) -> RanksMap:
        """Validate map data; the MapError lists every bad entry, each by name."""
        if not isinstance(data, Mapping):
            raise MapError(tr("a ranks map must be an object with width, height, cities, tracks, npcs and capitals"))
        problems = Problems()
        name = data.get("name", "custom")
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            problems.found.append(tr("map name must be a non-empty text of at most 60 characters"))
        for what in ("width", "height"):
            value = data.get(what)
            if isinstance(value, bool) or not isinstance(value, int) or not MIN_SIDE <= value <= MAX_SIDE:
                problems.found.append(
                    tr(
                        "map {key} must be a whole number from {low} to {high}, not {value!r}",
                        key=what,
                        low=MIN_SIDE,
                        high=MAX_SIDE,
                        value=value,
                    )
                )
        problems.settle()  # the rest names squares of the board
        grid = SquareGrid(data["width"], data["height"])
        board = set(grid.squares())
        cities = _cells(data, "cities", mark("city cell"), board, problems)
        tracks = _cells(data, "tracks", mark("track cell"), board, problems)
        npcs = _cells(data, "npcs", mark("NPC"), board, problems)
        for cell in sorted(cities & tracks, key=reading_order):
            problems.found.append(
                tr("{cell} is both a city cell and a track cell; a cell is one or the other", cell=cell.label)
            )
        for cell in sorted(npcs - tracks, key=reading_order):
            problems.found.append(tr("NPC {cell} is not on a track cell; NPCs stand on tracks", cell=cell.label))
        labels = data.get("capitals")
        if not isinstance(labels, list) or not MIN_PLAYERS <= len(labels) <= MAX_PLAYERS:
            problems.found.append(
                tr(
                    "map capitals must list one city cell per player, {low} to {high} of them",
                    low=MIN_PLAYERS,
                    high=MAX_PLAYERS,
                )
            )
            labels = []
        capitals = problems.each(labels, lambda label: square_on_board(label, board, mark("capital")))
        city_groups = groups(cities)
        homes = []
        for capital in capitals:
            home = next((city for city in city_groups if capital in city), None)
            if home is None:
                problems.found.append(
                    tr("capital {cell} is not a city cell; a capital lies in its player's city", cell=capital.label)
                )
            elif home in homes:
                problems.found.append(
                    tr("capital {cell} shares a city with another capital; each needs its own", cell=capital.label)
                )
            homes.append(home)
        problems.settle()
        return cls(name.strip(), grid, city_groups, frozenset(tracks), frozenset(npcs), tuple(capitals))


def _cells(data: Mapping[str, Any], key: str, what: str, board: set[Square], problems: Problems) -> set[Square]:
    labels = data.get(key, [])
    if not isinstance(labels, list) or len(labels) > len(board):
        problems.found.append(tr("map {key} must be a list of cells like C4, at most one per cell", key=key))
        return set()
    cells: set[Square] = set()
    for cell in problems.each(labels, lambda label: square_on_board(label, board, what)):
        if cell in cells:
            problems.found.append(tr("{what} {cell} is listed twice in {key}", what=tr(what), cell=cell.label, key=key))
        cells.add(cell)
    return cells


GRID_LEGEND = (
    (".", mark("open ground")),
    ("#", mark("city cell")),
    ("=", mark("NPC track")),
    ("N", mark("NPC on its track")),
    ("1", mark("capital of seat 1 (2, 3, 4: of the others)")),
)
CAPITAL_SYMBOLS = tuple(str(seat) for seat in range(1, MAX_PLAYERS + 1))


def from_grid(text: str) -> dict[str, Any]:
    """Map data of a board drawn as text, a line a row; capitals are city cells, NPCs stand on track."""
    problems = Problems()
    rows = grid_rows(text, problems)
    kinds: dict[str, list[str]] = {"#": [], "=": [], "N": []}
    capitals: dict[str, list[str]] = {symbol: [] for symbol in CAPITAL_SYMBOLS}
    for line, row in enumerate(rows):
        for column, symbol in enumerate(row):
            label = Square(column, line).label
            if symbol in capitals:
                capitals[symbol].append(label)
            elif symbol in kinds:
                kinds[symbol].append(label)
            elif symbol != ".":
                problems.found.append(unknown_symbol(line, column, symbol, GRID_LEGEND))
    seats = [symbol for symbol in CAPITAL_SYMBOLS if capitals[symbol]]
    if seats != list(CAPITAL_SYMBOLS[: len(seats)]) or len(seats) < MIN_PLAYERS:
        problems.found.append(
            tr(
                "draw a capital for each seat, 1 and 2 (3 and 4 for more players); the grid has {seats}",
                seats=", ".join(seats) or "-",
            )
        )
    for symbol in seats:
        if len(capitals[symbol]) > 1:
            problems.found.append(
                tr(
                    "draw capital {seat} once; the grid has it at {cells}",
                    seat=symbol,
                    cells=", ".join(capitals[symbol]),
                )
            )
    problems.settle()
    return {
        "width": len(rows[0]),
        "height": len(rows),
        "cities": kinds["#"] + [capitals[seat][0] for seat in seats],
        "tracks": kinds["="] + kinds["N"],
        "npcs": kinds["N"],
        "capitals": [capitals[seat][0] for seat in seats],
    }


def to_grid(data: Mapping[str, Any]) -> str:
    board = RanksMap.from_dict(data)

    def symbol(square: Square) -> str:
        if square in board.capitals:
            return str(board.capitals.index(square) + 1)
        if square in board.npcs:
            return "N"
        return "=" if square in board.tracks else "#" if board.city_of(square) else "."

    return drawn(
        [symbol(Square(column, row)) for column in range(board.grid.width)] for row in range(board.grid.height)
    )


GRID = MapGrid(GRID_LEGEND, from_grid, to_grid)


# --- generator ------------------------------------------------------------------------------

SEATS_BY_COUNT = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # which corners the players take


def generate_map(players: int, seed: int | str, side: int = 11) -> RanksMap:
    """A square board with a quarter-turn symmetry: a home city in every corner (two players take
    opposite corners, three leave one corner neutral), a city in the middle, and neutral cities and
    NPC tracks placed at random once and repeated in all four quarters, so no corner is better."""
    grid = SquareGrid(side, side)
    rng = Rng(seed_state(f"ranks:{seed}:{side}"))
    home = [Square(1, 1), Square(2, 1), Square(1, 2), Square(2, 2)]
    middle = {Square((side - 1) // 2, (side - 1) // 2), Square(side // 2, side // 2)}
    middle |= {Square((side - 1) // 2, side // 2), Square(side // 2, (side - 1) // 2)}
    cities: set[Square] = set(middle) | {q for c in home for q in _orbit(grid, c)}
    blocked = {n for c in cities for n in (c, *c.orthogonal())}
    tracks: set[Square] = set()
    npcs: set[Square] = set()
    for _ in range(60):
        if len(tracks) >= 8 * side // 5:
            break
        step = rng.choice(((1, 0), (0, 1)))
        start = Square(rng.below(side), rng.below(side))
        segment = [start.offset(step[0] * i, step[1] * i) for i in range(3 + rng.below(2))]
        if _place(grid, segment, blocked | tracks, tracks):
            npcs |= _orbit(grid, rng.choice(segment))
    blocked |= tracks
    placed = 0
    for _ in range(200):
        if placed >= side // 5:
            break
        start = Square(rng.below(side), rng.below(side))
        shape = [start] + ([rng.choice(start.orthogonal())] if rng.chance(1, 2) else [])
        if _place(grid, shape, blocked, cities):
            blocked |= {n for c in cities for n in (c, *c.orthogonal())}
            placed += 1
    capitals = tuple(_rotated(grid, Square(1, 1), turns) for turns in SEATS_BY_COUNT[players])
    return RanksMap.from_dict(
        {
            "name": f"generated-{side}x{side}",
            "width": side,
            "height": side,
            "cities": [c.label for c in cities],
            "tracks": [c.label for c in tracks],
            "npcs": [c.label for c in npcs],
            "capitals": [c.label for c in capitals],
        }
    )


def _rotated(grid: SquareGrid, square: Square, turns: int) -> Square:
    for _ in range(turns):
        square = grid.rotate(square)
    return square


def _orbit(grid: SquareGrid, square: Square) -> set[Square]:
    return {_rotated(grid, square, turns) for turns in range(4)}


def _place(grid: SquareGrid, shape: list[Square], blocked: set[Square], into: set[Square]) -> bool:
    """Add ``shape`` and its three turned copies to ``into`` if they fit on the board, avoid
    ``blocked`` and keep apart from each other (a copy touching another would merge with it)."""
    copies = [[_rotated(grid, c, turns) for c in shape] for turns in range(4)]
    cells = {c for copy in copies for c in copy}
    if not all(grid.contains(c) for c in cells) or cells & blocked:
        return False
    for i, copy in enumerate(copies):
        others = {c for j, other in enumerate(copies) if j != i for c in other} - set(copy)
        if any(n in others for c in copy for n in (c, *c.orthogonal())) and set(copy) != cells:
            return False
    into |= cells
    return True


SHIPPED = ShippedMaps("engine.ranks", RanksMap.from_dict)
