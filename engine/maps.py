"""What every ruleset does with maps: list and load the shipped ones, and pick the map a game
asked for (a shipped name, explicit data, or none for a generated one)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from importlib import resources
from typing import Any, Generic, TypeVar

from engine.errors import MapError
from engine.hexgrid import Hex
from engine.i18n import map_title, mark, titled, tr
from engine.ruleset import Option
from engine.squaregrid import Square

M = TypeVar("M")
C = TypeVar("C")


OFF_THE_MAP = mark("{what} {label!r} is not a cell of the map")


def on_board(
    parse: Callable[[str], C], label: Any, cells: Collection[C], what: str, outside: str = OFF_THE_MAP, **values: Any
) -> C:
    """The cell a map file names, or a MapError saying which entry names no cell of the board: ``what``
    (a marked noun, "start cell") names the entry, ``outside`` (a marked message with ``{what}``,
    ``{label}`` and ``values``) says that it is off the board."""
    try:
        cell = parse(label) if isinstance(label, str) else None
    except ValueError:
        cell = None
    if cell is None or cell not in cells:
        raise MapError(tr(outside, what=tr(what), label=label, **values))
    return cell


def hex_on_board(label: Any, cells: Collection[Hex], what: str, outside: str = OFF_THE_MAP) -> Hex:
    return on_board(Hex.from_label, label, cells, what, outside)


def square_on_board(
    label: Any, cells: Collection[Square], what: str, outside: str = OFF_THE_MAP, **values: Any
) -> Square:
    return on_board(Square.from_label, label, cells, what, outside, **values)


class ShippedMaps(Generic[M]):
    """The ``maps/*.json`` files of a ruleset package, validated by that ruleset's ``from_dict``."""

    def __init__(self, package: str, from_dict: Callable[[Any], M]):
        self.package, self.from_dict = package, from_dict
        self._names: list[str] | None = None

    def names(self) -> list[str]:
        """Listed once: the files ship with the package, and every game card asks (through the options)."""
        if self._names is None:
            folder = resources.files(self.package) / "maps"
            self._names = sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".json"))
        return list(self._names)

    def load(self, name: str) -> M:
        if name not in self.names():
            raise MapError(
                tr("unknown map {name!r}; shipped maps: {names}", name=name, names=titled(self.names(), map_title))
            )
        text = (resources.files(self.package) / "maps" / f"{name}.json").read_text(encoding="utf-8")
        return self.from_dict(json.loads(text))

    def option(self) -> Option:
        """The ``map`` game option every ruleset offers: one of these maps, or explicit map data."""
        return Option(
            "map",
            "map",
            None,
            "A shipped map or one of this server's (/map upload); empty for a generated map",
            choices=tuple(self.names()),
        )

    def choose(self, chosen: Any, generate: Callable[[], M]) -> M:
        """The map of option ``map``: None generates one, a text names a shipped map, an object is map data."""
        given = self.given(chosen)
        return generate() if given is None else given

    def given(self, chosen: Any) -> M | None:
        """The map option ``map`` names or holds, checked; None when a map is to be generated."""
        if chosen is None:
            return None
        if isinstance(chosen, str):
            return self.load(chosen)
        if isinstance(chosen, Mapping):
            return self.from_dict(chosen)
        raise MapError(tr("option map must be map data or a shipped map name, not {kind}", kind=type(chosen).__name__))
