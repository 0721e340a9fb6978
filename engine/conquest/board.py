"""Conquest maps: cell types, the map data format, shipped maps and the symmetric generator.

A map as data (shipped files in ``maps/`` and ``options["map"]`` alike)::

    {
      "name": "duel",
      "layout": ["n n b", "n g n", "b n n"],   # rows top to bottom, one token per column:
                                               #   n normal, b bronze, s silver, g gold, . no cell
                                               # (at most 26 rows, 26 columns and 400 cells)
      "garrisons": {"B1": 4},                  # neutral units at the start
      "starts": {"2": ["A1", "C3"]}            # start cells for each supported player count
    }

Rows use the board's odd-r layout: odd rows (2, 4, ... as labelled) are drawn half a cell right.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.errors import MapError
from engine.hexgrid import DIRECTIONS, Hex, hexagon, orbit, ring
from engine.i18n import mark, ntr, tr
from engine.mapfiles import MapGrid, Problems, drawn, grid_rows, unknown_symbol
from engine.maps import ShippedMaps, hex_on_board
from engine.rng import Rng, seed_state


class CellType(Enum):
    NORMAL = "normal"
    BRONZE = "bronze"
    SILVER = "silver"
    GOLD = "gold"

    @property
    def production(self) -> int:
        return PRODUCTION[self]

    @property
    def token(self) -> str:
        return self.value[0]


PRODUCTION = {CellType.NORMAL: 1, CellType.BRONZE: 2, CellType.SILVER: 5, CellType.GOLD: 10}
_BY_TOKEN = {t.token: t for t in CellType}
SIZES = {"small": 4, "medium": 5, "large": 6}
# Explicit maps stay within what the board picture, the bot's budget and a post can carry; the
# largest generated map (five players, large) has up to 225 cells in 19 rows and 17 columns.
MAX_SIDE, MAX_CELLS = 26, 400


@dataclass(frozen=True)
class ConquestMap:
    name: str
    types: Mapping[Hex, CellType]
    garrisons: Mapping[Hex, int]
    starts: Mapping[int, tuple[Hex, ...]]

    @classmethod
    def from_dict(cls, data: Any) -> ConquestMap:
        """Validate map data; the MapError lists every bad entry, each by name."""
        if not isinstance(data, Mapping):
            raise MapError(tr("a conquest map must be an object with name, layout, garrisons and starts"))
        problems = Problems()
        name = data.get("name", "custom")
        if not isinstance(name, str) or not name.strip():
            problems.found.append(tr("map name must be a non-empty text"))
        types: dict[Hex, CellType] = {}
        with problems.entry():
            types = _parse_layout(data.get("layout"), problems)
        problems.settle()  # the rest names cells of the layout
        garrisons = _parse_garrisons(data.get("garrisons", {}), types, problems)
        starts = _parse_starts(data.get("starts"), types, problems)
        for cells in starts.values():
            for cell in cells:
                if garrisons.get(cell):
                    problems.found.append(tr("start cell {cell} cannot hold a neutral garrison", cell=cell.label))
        with problems.entry():
            _check_connected(types)
        problems.settle()
        return cls(name.strip(), types, garrisons, starts)


def _parse_layout(layout: Any, problems: Problems) -> dict[Hex, CellType]:
    if not isinstance(layout, list) or not layout or not all(isinstance(row, str) for row in layout):
        raise MapError(tr('map layout must be a list of rows of text, like ["n n b", "n g n"]'))
    rows, columns = len(layout), max(len(row.split()) for row in layout)
    if rows > MAX_SIDE:
        raise MapError(
            ntr(
                "map layout has {n} row; a conquest map has at most {most}",
                "map layout has {n} rows; a conquest map has at most {most}",
                rows,
                most=MAX_SIDE,
            )
        )
    if columns > MAX_SIDE:
        raise MapError(
            ntr(
                "map layout has {n} column; a conquest map has at most {most}",
                "map layout has {n} columns; a conquest map has at most {most}",
                columns,
                most=MAX_SIDE,
            )
        )
    types: dict[Hex, CellType] = {}
    before = len(problems.found)
    for row, line in enumerate(layout):
        for col, token in enumerate(line.split()):
            if token == ".":
                continue
            if token.lower() not in _BY_TOKEN:
                problems.found.append(
                    tr(
                        "layout row {row}, column {column}: {token!r} is not one of n, b, s, g, .",
                        row=row + 1,
                        column=col + 1,
                        token=token,
                    )
                )
                continue
            types[Hex.from_offset(col, row)] = _BY_TOKEN[token.lower()]
    if len(problems.found) > before:
        return types
    if len(types) < 2:
        raise MapError(tr("a map needs at least two cells"))
    if len(types) > MAX_CELLS:
        raise MapError(
            ntr(
                "map layout has {n} cell; a conquest map has at most {most}",
                "map layout has {n} cells; a conquest map has at most {most}",
                len(types),
                most=MAX_CELLS,
            )
        )
    return types


GRID_LEGEND = (
    (".", mark("no cell")),
    ("n", mark("normal")),
    ("b", mark("bronze")),
    ("s", mark("silver")),
    ("g", mark("gold")),
    ("b3", mark("a cell with 3 neutral units")),
    ("n@1", mark("seat 1's start (@2 to @6: the others')")),
)
GRID_TOKEN = re.compile(r"([nbsg])(?:(\d{1,5})|@([1-6]))?", re.IGNORECASE)


def from_grid(text: str) -> dict[str, Any]:
    """Map data of a board drawn as text, a word a cell (odd rows may be indented half a cell); the
    seats drawn decide the one player count the map takes."""
    problems = Problems()
    rows = grid_rows(text, problems, words=True)
    layout: list[str] = []
    garrisons: dict[str, int] = {}
    starts: dict[int, list[str]] = {}
    for line, row in enumerate(rows):
        tokens = []
        for column, word in enumerate(row):
            drawn = GRID_TOKEN.fullmatch(word)
            if drawn is None:
                if word != ".":
                    problems.found.append(unknown_symbol(line, column, word, GRID_LEGEND))
                tokens.append(".")
                continue
            kind, units, seat = drawn.groups()
            tokens.append(kind.lower())
            label = Hex.from_offset(column, line).label
            if units is not None:
                garrisons[label] = int(units)
            if seat is not None:
                starts.setdefault(int(seat), []).append(label)
        layout.append(" ".join(tokens))
    if sorted(starts) != list(range(1, len(starts) + 1)) or len(starts) < 2:
        problems.found.append(
            tr(
                "mark a start for each seat, @1 and @2 (to @6 for more players); the grid has {seats}",
                seats=", ".join(f"@{seat}" for seat in sorted(starts)) or "-",
            )
        )
    for seat, cells in sorted(starts.items()):
        if len(cells) > 1:
            problems.found.append(
                tr("mark start @{seat} once; the grid has it at {cells}", seat=seat, cells=", ".join(cells))
            )
    problems.settle()
    return {
        "layout": layout,
        "garrisons": garrisons,
        "starts": {str(len(starts)): [starts[seat][0] for seat in sorted(starts)]},
    }


def to_grid(data: Mapping[str, Any]) -> str:
    """A map drawn as text, with the starts of the fewest players it takes (a drawing holds one count)."""
    board = ConquestMap.from_dict(data)
    seats = {cell: seat for seat, cell in enumerate(board.starts[min(board.starts)], 1)}

    def word(cell: Hex) -> str:
        if cell not in board.types:
            return "."
        kind = board.types[cell].token
        return f"{kind}@{seats[cell]}" if cell in seats else f"{kind}{board.garrisons.get(cell) or ''}"

    rows, columns = max(c.row for c in board.types) + 1, max(c.col for c in board.types) + 1
    return drawn(
        ([word(Hex.from_offset(column, row)) for column in range(columns)] for row in range(rows)), shifted=True
    )


GRID = MapGrid(GRID_LEGEND, from_grid, to_grid)


def _parse_garrisons(data: Any, types: Mapping[Hex, CellType], problems: Problems) -> dict[Hex, int]:
    if not isinstance(data, Mapping):
        problems.found.append(tr("map garrisons must be an object like {example}", example='{"C3": 4}'))
        return {}
    garrisons = {}
    for label, units in data.items():
        with problems.entry():
            cell = hex_on_board(label, types, mark("garrison cell"))
            if isinstance(units, bool) or not isinstance(units, int) or not 0 <= units <= 10_000:
                raise MapError(
                    tr(
                        "garrison of {cell} must be a whole number from 0 to 10000, not {units!r}",
                        cell=label,
                        units=units,
                    )
                )
            garrisons[cell] = units
    return garrisons


def _parse_starts(data: Any, types: Mapping[Hex, CellType], problems: Problems) -> dict[int, tuple[Hex, ...]]:
    if not isinstance(data, Mapping) or not data:
        problems.found.append(tr("map starts must be an object like {example}", example='{"2": ["A1", "H8"]}'))
        return {}
    starts = {}
    for count_text, labels in data.items():
        with problems.entry():
            if count_text not in ("2", "3", "4", "5", "6"):  # not int(): it would take " 3" or another script's digit
                raise MapError(tr("starts key {key!r} must be a player count from 2 to 6", key=count_text))
            count = int(count_text)
            if not isinstance(labels, list) or len(labels) != count:
                raise MapError(
                    ntr("starts for {n} player must list {n} cell", "starts for {n} players must list {n} cells", count)
                )
            cells = problems.each(labels, lambda label: hex_on_board(label, types, mark("start cell")))
            if len(cells) < count:
                continue
            if len(set(cells)) != count:
                raise MapError(
                    ntr("starts for {n} player repeat a cell", "starts for {n} players repeat a cell", count)
                )
            starts[count] = tuple(cells)
    return starts


def _check_connected(types: Mapping[Hex, CellType]) -> None:
    first = min(types)
    seen = {first}
    frontier = [first]
    while frontier:
        cell = frontier.pop()
        for near in cell.neighbours():
            if near in types and near not in seen:
                seen.add(near)
                frontier.append(near)
    if len(seen) != len(types):
        lost = sorted(set(types) - seen)[0]
        raise MapError(
            tr("every cell must be reachable; {cell} is cut off from {first}", cell=lost.label, first=first.label)
        )


# Which corners of the hexagon the players start on, by player count (directions from east,
# clockwise). Each set is mapped onto itself by rotations/reflections of the board, so every
# player sees the same position. Five players have no such set on hexes (see ``_spread``).
START_CORNERS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}
# The one ring round the centre on which five starts can all be the same number of steps from
# their two neighbours (6); on rings 4 and 6 one pair would be a step nearer or farther, and that
# pair lost or won far more often in self-play.
FIVE_RING = 5


def generate_map(num_players: int, size: str, seed: int | str) -> ConquestMap:
    """A map on which every start has the same surroundings, or as near as hexes allow.

    Cells that look alike from the starts share one rolled type and garrison. With 2, 3, 4 or 6
    players the map is a hexagon, the starts are corners and "alike" means one orbit under the 12
    symmetries, so the map is exactly symmetric. Five players have no symmetric layout on hexes
    (six corners with one left empty gave its two neighbours most wins): their starts are spread
    evenly round ``FIVE_RING``; the map is the hexagon inside it plus the cells a few steps from a
    start, less the outermost cells of the starts nearest to more cells than the others (a start
    on a corner of the ring had more room, and one along a side more contested cells; both showed
    in the wins); "alike" means the same distances to the centre and to the two nearest starts.
    What still differs is how each start sits on the grid; the seed turns the ring, so no seat
    keeps the same spot, and bench/bench_fairness.py measures both seats and spots.
    """
    rng = Rng(hash_seed(seed, num_players, size))
    center = Hex(0, 0)
    if num_players == 5:
        reach = SIZES[size] - 2
        radius = FIVE_RING + reach
        starts = _spread(ring(center, FIVE_RING), num_players, rng)
        cells = [
            c
            for c in hexagon(center, radius)
            if c.distance(center) <= FIVE_RING or min(c.distance(start) for start in starts) <= reach
        ]
        cells = _even_regions(cells, starts, center)
        near_start = {c for start in starts for c in (start, *start.neighbours())}

        def alike(cell: Hex) -> Hashable:
            return cell.distance(center), *sorted(cell.distance(start) for start in starts)[:2]

    else:
        radius = SIZES[size] + (1 if num_players == 6 else 0)
        cells = hexagon(center, radius)
        corners = [Hex(dq * (radius - 1), dr * (radius - 1)) for dq, dr in DIRECTIONS]
        starts = tuple(corners[k] for k in START_CORNERS[num_players])
        near_start = {c for corner in corners for c in (corner, *corner.neighbours())}

        def alike(cell: Hex) -> Hashable:
            return min(orbit(cell, center))

    rolled: dict[Hashable, tuple[CellType, int]] = {}
    types: dict[Hex, CellType] = {}
    garrisons: dict[Hex, int] = {}
    for cell in cells:
        key = alike(cell)
        if key not in rolled:
            rolled[key] = _roll_cell(rng, cell.distance(center), radius, cell in near_start, cell == center)
        types[cell], garrison = rolled[key]
        if garrison:
            garrisons[cell] = garrison
    move = _to_labels(cells)
    return ConquestMap(
        f"generated-{size}-{num_players}p",
        {move(c): t for c, t in types.items()},
        {move(c): n for c, n in garrisons.items()},
        {num_players: tuple(move(start) for start in starts)},
    )


def _even_regions(cells: list[Hex], starts: tuple[Hex, ...], center: Hex) -> list[Hex]:
    """``cells`` less the outermost of each start's own cells (nearer to it than to any other start)
    beyond what the start with fewest has, so that every start is nearest to as many cells."""
    own: dict[int, list[Hex]] = {k: [] for k in range(len(starts))}
    for cell in cells:
        (near, seat), (second, _) = sorted((cell.distance(start), k) for k, start in enumerate(starts))[:2]
        if near < second:
            own[seat].append(cell)
    fewest = min(len(mine) for mine in own.values())
    spare = {
        c for mine in own.values() for c in sorted(mine, key=lambda c: (-c.distance(center), c))[: len(mine) - fewest]
    }
    return [c for c in cells if c not in spare]


def _to_labels(cells: list[Hex]) -> Callable[[Hex], Hex]:
    """The translation that puts ``cells`` in the labelled quarter, touching row 1 and column A."""
    top = min(c.r for c in cells)
    left = min(Hex(c.q, c.r - top).col for c in cells)
    return lambda c: Hex(c.q - left, c.r - top)


def _spread(cells: list[Hex], count: int, rng: Rng) -> tuple[Hex, ...]:
    """``count`` of the ring's ``cells``, evenly spaced round it from a seeded first one: the same
    distance from the centre, and as near the same distance from each other as the ring allows."""
    first = rng.below(len(cells))
    return tuple(cells[(first + round(k * len(cells) / count)) % len(cells)] for k in range(count))


def _roll_cell(rng: Rng, distance: int, radius: int, near_start: bool, is_center: bool) -> tuple[CellType, int]:
    if is_center:
        return CellType.GOLD, rng.between(18, 26)
    if near_start:
        return CellType.NORMAL, 0
    roll = rng.below(100)
    if roll < 6 and distance <= radius // 2 + 1:
        return CellType.GOLD, rng.between(16, 24)
    if roll < 16:
        return CellType.SILVER, rng.between(7, 12)
    if roll < 40:
        return CellType.BRONZE, rng.between(2, 6)
    return CellType.NORMAL, rng.between(0, 3) if rng.chance(1, 2) else 0


def hash_seed(*parts: Any) -> int:
    return seed_state(":".join(str(p) for p in parts))


SHIPPED = ShippedMaps("engine.conquest", ConquestMap.from_dict)
