"""What a map file is checked and drawn with: its problems gathered so that a refusal names every one,
and the text grid the games on a grid also take a map as. Apart from ``engine.maps`` (which needs the
ruleset's options), so that a ruleset's contract can name ``MapGrid``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.errors import MapError
from engine.i18n import ntr, tr

C = TypeVar("C")


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


def grid_rows(text: str, problems: Problems, words: bool = False) -> list[list[str]]:
    """The rows of a map drawn as text, first line first: every character of a line but spaces is a
    cell (spaces only line cells up), or with ``words`` every word is. Blank lines before and after
    the drawing are no rows; a row empty, or of another length than most rows, is a problem."""
    lines = text.replace("\r\n", "\n").replace("\t", " ").split("\n")
    rows = [line.split() if words else [symbol for symbol in line if symbol != " "] for line in lines]
    while len(rows) > 1 and not rows[-1]:
        rows.pop()
    while len(rows) > 1 and not rows[0]:
        rows.pop(0)
    if not rows[0]:
        problems.found.append(tr("the grid is empty: draw one line of symbols per row"))
        return rows
    usual = Counter(len(row) for row in rows).most_common(1)[0][0]
    for number, row in enumerate(rows, 1):
        if len(row) != usual:
            problems.found.append(
                ntr(
                    "grid row {row} has {n} cell; the others have {usual}",
                    "grid row {row} has {n} cells; the others have {usual}",
                    len(row),
                    row=number,
                    usual=usual,
                )
            )
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
