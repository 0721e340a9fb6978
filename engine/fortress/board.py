"""Fortress fields: the map data format, shipped maps, and a seeded symmetric generator per mode.

A map as data (shipped files in ``maps/`` and ``options["map"]`` alike)::

    {
      "name": "valley", "width": 10, "height": 8,
      "cities": ["C4", "H5"],                 # player 0's city, then player 1's
      "mountains": ["E3", "F6"], "water": ["D6", "G3"]
    }

The field is a rectangle of pointy-top hexes in odd-r layout (odd rows drawn half a cell right),
labelled like conquest (column letter, row number). Cities and their neighbours are land.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import MapError
from engine.hexgrid import Hex
from engine.i18n import mark, tr
from engine.mapfiles import MapGrid, Problems, drawn, grid_rows, unknown_symbol
from engine.maps import ShippedMaps, hex_on_board
from engine.rng import Rng, seed_state

LAND, WATER, MOUNTAIN = "land", "water", "mountain"
DEFAULT_SIZE = (11, 10)
CITY_DISTANCE = 3  # cities at least this far apart share no neighbour, so both start with the same land
SIDES = (4, 26)  # the fewest and most columns or rows of a field (stored games are held to it too)


OFF_THE_FIELD = mark("{what} {label!r} is not a cell of the field")


@dataclass(frozen=True)
class FortressMap:
    name: str
    width: int
    height: int
    cities: tuple[Hex, Hex]
    terrain: Mapping[Hex, str]  # every cell of the field

    @classmethod
    def from_dict(cls, data: Any) -> FortressMap:
        """Validate map data; the MapError lists every bad entry, each by name."""
        if not isinstance(data, Mapping):
            raise MapError(tr("a fortress map must be an object with width, height, cities, mountains and water"))
        problems = Problems()
        name = data.get("name", "custom")
        if not isinstance(name, str) or not name.strip():
            problems.found.append(tr("map name must be a non-empty text"))
        width, height = (_side(data, key, problems) for key in ("width", "height"))
        problems.settle()  # the rest names cells of the field
        field = {Hex.from_offset(c, r) for r in range(height) for c in range(width)}
        cities = data.get("cities")
        if not isinstance(cities, list) or len(cities) != 2:
            raise MapError(tr("map cities must list two cells, player 0's city then player 1's"))
        city_cells = problems.each(cities, lambda label: hex_on_board(label, field, mark("city"), OFF_THE_FIELD))
        problems.settle()  # the terrain's checks measure from the cities
        apart = city_cells[0].distance(city_cells[1])
        if apart < CITY_DISTANCE:
            problems.found.append(
                tr(
                    "cities {first} and {second} are {apart} apart; they must be at least {least} apart, so that no "
                    "cell is a neighbour of both",
                    first=city_cells[0].label,
                    second=city_cells[1].label,
                    apart=apart,
                    least=CITY_DISTANCE,
                )
            )
        terrain = {cell: LAND for cell in field}
        seen: dict[str, set[Hex]] = {MOUNTAIN: set(), WATER: set()}
        for kind, key, what in ((MOUNTAIN, "mountains", mark("mountain")), (WATER, "water", mark("water"))):
            labels = data.get(key, [])
            if not isinstance(labels, list):
                problems.found.append(tr("map {key} must be a list of cells", key=key))
                continue
            for cell in problems.each(
                labels, functools.partial(hex_on_board, cells=field, what=what, outside=OFF_THE_FIELD)
            ):
                if cell in seen[kind]:
                    problems.found.append(
                        tr("{what} {cell} is listed twice in {key}", what=tr(what), cell=cell.label, key=key)
                    )
                elif terrain[cell] != LAND:
                    problems.found.append(tr("{cell} is listed as both water and mountain", cell=cell.label))
                elif any(cell == city or cell in city.neighbours() for city in city_cells):
                    if not any(cell in cells for cells in seen.values()):  # said once, however often listed
                        problems.found.append(
                            tr("{cell} is a city or next to one; those cells must be land", cell=cell.label)
                        )
                else:
                    terrain[cell] = kind
                seen[kind].add(cell)
        problems.settle()
        return cls(name.strip(), width, height, (city_cells[0], city_cells[1]), terrain)


def _side(data: Mapping[str, Any], key: str, problems: Problems) -> int:
    """The map's width or height: a whole number of cells within ``SIDES`` (else a problem noted)."""
    value: Any = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not SIDES[0] <= value <= SIDES[1]:
        problems.found.append(
            tr(
                "map {key} must be a whole number from {low} to {high}, not {value!r}",
                key=key,
                low=SIDES[0],
                high=SIDES[1],
                value=value,
            )
        )
    return value


GRID_LEGEND = (
    (".", mark("land")),
    ("^", mark("mountain")),
    ("~", mark("water")),
    ("1", mark("the first player's city")),
    ("2", mark("the second player's city")),
)
TERRAIN_SYMBOLS = {"^": MOUNTAIN, "~": WATER}


def from_grid(text: str) -> dict[str, Any]:
    """Map data of a field drawn as text, a line a row (odd rows may be indented half a cell)."""
    problems = Problems()
    rows = grid_rows(text, problems)
    cities: dict[str, list[str]] = {"1": [], "2": []}
    terrain: dict[str, list[str]] = {MOUNTAIN: [], WATER: []}
    for line, row in enumerate(rows):
        for column, symbol in enumerate(row):
            label = Hex.from_offset(column, line).label
            if symbol in cities:
                cities[symbol].append(label)
            elif symbol in TERRAIN_SYMBOLS:
                terrain[TERRAIN_SYMBOLS[symbol]].append(label)
            elif symbol != ".":
                problems.found.append(unknown_symbol(line, column, symbol, GRID_LEGEND))
    for seat, cells in cities.items():
        if len(cells) != 1:
            problems.found.append(
                tr(
                    "draw city {seat} once; the grid has it {count} times ({cells})",
                    seat=seat,
                    count=len(cells),
                    cells=", ".join(cells) or "-",
                )
            )
    problems.settle()
    return {
        "width": len(rows[0]),
        "height": len(rows),
        "cities": [cities["1"][0], cities["2"][0]],
        "mountains": terrain[MOUNTAIN],
        "water": terrain[WATER],
    }


def to_grid(data: Mapping[str, Any]) -> str:
    field = FortressMap.from_dict(data)
    symbols = {WATER: "~", MOUNTAIN: "^", LAND: "."}

    def symbol(cell: Hex) -> str:
        return str(field.cities.index(cell) + 1) if cell in field.cities else symbols[field.terrain[cell]]

    return drawn(
        ([symbol(Hex.from_offset(column, row)) for column in range(field.width)] for row in range(field.height)),
        shifted=True,
    )


GRID = MapGrid(GRID_LEGEND, from_grid, to_grid)


def reading_order(cell: Hex) -> tuple[int, int]:
    return cell.row, cell.col


def mirror(cell: Hex, width: int, height: int) -> Hex:
    """The cell opposite through the field's centre (a symmetry of odd-r rectangles of even height)."""
    return Hex.from_offset(width - 1 - cell.col, height - 1 - cell.row)


def generate_map(
    mode: int, seed: int | str, width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1]
) -> FortressMap:
    """Cities on opposite sides; in modes 2 and 3 about a tenth of the field each of water and mountains.
    Point-symmetric, so neither player has the better side (heights are rounded up to even)."""
    height += height % 2
    city = _city(width, height)
    cities = (city, mirror(city, width, height))
    terrain = {Hex.from_offset(c, r): LAND for r in range(height) for c in range(width)}
    if mode >= 2:
        rng = Rng(seed_state(f"fortress:{seed}:{width}x{height}"))
        keep_clear = {c for city in cities for c in (city, *city.neighbours())}
        for cell in sorted(terrain, key=reading_order):
            twin = mirror(cell, width, height)
            if reading_order(cell) > reading_order(twin) or cell in keep_clear:
                continue
            roll = rng.below(100)
            kind = MOUNTAIN if roll < 10 else WATER if roll < 20 else LAND
            terrain[cell] = terrain[twin] = kind
    return FortressMap(f"generated-{width}x{height}-mode{mode}", width, height, cities, terrain)


def _city(width: int, height: int) -> Hex:
    """Player 0's city: a fifth of the way across, just above the middle row; on a field too narrow
    for that, the nearest cell to it that is far enough from its mirror image (player 1's city)."""
    wanted = Hex.from_offset(max(1, width // 5), height // 2 - 1)
    field = [Hex.from_offset(c, r) for r in range(height) for c in range(width)]
    far_enough = (c for c in field if c.distance(mirror(c, width, height)) >= CITY_DISTANCE)
    return min(far_enough, key=lambda c: (c.distance(wanted), reading_order(c)))


SHIPPED = ShippedMaps("engine.fortress", FortressMap.from_dict)
