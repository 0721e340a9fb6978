"""What every ruleset does with maps: list and load the shipped ones, and pick the map a game
asked for (a shipped name, explicit data, or none for a generated one)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Generic, TypeVar

from engine.errors import MapError
from engine.hexgrid import Hex
from engine.i18n import map_title, mark, ntr, titled, tr
from engine.ruleset import Option
from engine.squaregrid import Square

M = TypeVar("M")
C = TypeVar("C")


OFF_THE_MAP = mark("{what} {label!r} is not a cell of the map")


class Problems:
    """Every problem of a map file at once rather than only the first: each check runs in ``entry()``,
    which notes its MapError and lets the next check run; ``settle()`` raises all noted as one."""

    def __init__(self) -> None:
        self.found: list[str] = []

    @contextmanager
    def entry(self) -> Iterator[None]:
        try:
            yield
        except MapError as err:
            self.found.extend(err.problems)

    def each(self, entries: Iterable[Any], read: Callable[[Any], C]) -> list[C]:
        """``read`` of every entry that it reads, a problem noted for every other."""
        sound = []
        for entry in entries:
            with self.entry():
                sound.append(read(entry))
        return sound

    def settle(self) -> None:
        """Raise the problems noted so far (a check that needs the earlier entries sound comes after)."""
        if self.found:
            raise MapError.of(self.found)


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


@dataclass(frozen=True)
class MapGrid:
    """A ruleset's maps drawn as text, one line a row as the board is drawn (what /map upload takes
    beside JSON, for the games on a grid): ``legend`` says what each symbol stands for (marked texts),
    ``read`` makes map data of a drawing (a MapError lists every problem, each by row and column),
    ``draw`` a drawing of map data."""

    legend: tuple[tuple[str, str], ...]
    read: Callable[[str], dict[str, Any]]
    draw: Callable[[Mapping[str, Any]], str]

    def example(self, data: Mapping[str, Any]) -> str:
        """``data`` drawn, with the legend under it (for /rules and the README)."""
        legend = ", ".join(f"`{symbol}` {tr(meaning)}" for symbol, meaning in self.legend)
        return f"```\n{self.draw(data)}\n```\n{legend}"


def grid_rows(text: str, problems: Problems) -> list[list[str]]:
    """The rows of a map drawn as text, first line first: every character of a line but spaces is a
    cell (spaces only line cells up). A row empty or of another length than the first is a problem."""
    lines = text.replace("\r\n", "\n").replace("\t", " ").strip("\n").split("\n")
    rows = [[symbol for symbol in line if symbol != " "] for line in lines]
    for number, row in enumerate(rows, 1):
        if len(row) != len(rows[0]):
            problems.found.append(
                ntr(
                    "grid row {row} has {n} cell; row 1 has {first}",
                    "grid row {row} has {n} cells; row 1 has {first}",
                    len(row),
                    row=number,
                    first=len(rows[0]),
                )
            )
    if not rows[0]:
        problems.found.append(tr("the grid is empty: draw one line of symbols per row"))
    return rows


def unknown_symbol(row: int, column: int, symbol: str, legend: tuple[tuple[str, str], ...]) -> str:
    """The problem of a cell drawn with a symbol the grid has not (row and column counted from 1)."""
    return tr(
        "grid row {row}, column {column}: {symbol!r} is none of {symbols}",
        row=row + 1,
        column=column + 1,
        symbol=symbol,
        symbols=" ".join(known for known, _ in legend),
    )


def drawn(rows: Iterable[Iterable[str]], shifted: bool = False) -> str:
    """Rows of symbols as a grid's text, a space between cells (``shifted``: odd rows half a cell
    right, as hexes are drawn)."""
    return "\n".join((" " if shifted and number % 2 else "") + " ".join(row) for number, row in enumerate(rows))


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
