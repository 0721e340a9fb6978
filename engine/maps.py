"""What every ruleset does with maps: list and load the shipped ones, and pick the map a game
asked for (a shipped name, explicit data, or none for a generated one)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from importlib import resources
from typing import Any, Generic, TypeVar

from engine.errors import MapError
from engine.hexgrid import Hex
from engine.ruleset import Option
from engine.squaregrid import Square

M = TypeVar("M")
C = TypeVar("C")


def on_board(parse: Callable[[str], C], label: Any, cells: Collection[C], what: str, board: str = "map") -> C:
    """The cell a map file names, or a MapError saying which entry names no cell of the board."""
    try:
        cell = parse(label) if isinstance(label, str) else None
    except ValueError:
        cell = None
    if cell is None or cell not in cells:
        raise MapError(f"{what} {label!r} is not a cell of the {board}")
    return cell


def hex_on_board(label: Any, cells: Collection[Hex], what: str, board: str = "map") -> Hex:
    return on_board(Hex.from_label, label, cells, what, board)


def square_on_board(label: Any, cells: Collection[Square], what: str, board: str = "map") -> Square:
    return on_board(Square.from_label, label, cells, what, board)


class ShippedMaps(Generic[M]):
    """The ``maps/*.json`` files of a ruleset package, validated by that ruleset's ``from_dict``."""

    def __init__(self, package: str, from_dict: Callable[[Any], M]):
        self.package, self.from_dict = package, from_dict

    def names(self) -> list[str]:
        folder = resources.files(self.package) / "maps"
        return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".json"))

    def load(self, name: str) -> M:
        if name not in self.names():
            raise MapError(f"unknown map {name!r}; shipped maps: {', '.join(self.names())}")
        text = (resources.files(self.package) / "maps" / f"{name}.json").read_text(encoding="utf-8")
        return self.from_dict(json.loads(text))

    def option(self) -> Option:
        """The ``map`` game option every ruleset offers: one of these maps, or explicit map data."""
        return Option(
            "map",
            "map",
            None,
            "A shipped map (or explicit map data); empty for a generated map",
            choices=tuple(self.names()),
        )

    def choose(self, chosen: Any, generate: Callable[[], M]) -> M:
        """The map of option ``map``: None generates one, a text names a shipped map, an object is map data."""
        if chosen is None:
            return generate()
        if isinstance(chosen, str):
            return self.load(chosen)
        if isinstance(chosen, Mapping):
            return self.from_dict(chosen)
        raise MapError(f"option map must be map data or a shipped map name, not {type(chosen).__name__}")
