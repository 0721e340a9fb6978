"""Ranks orders: value types and the notation players type.

Notation (case-insensitive; separate orders with ``;``, ``,`` or new lines)::

    spawn            a spawn turn: a pawn in every city you control, on its first empty cell
    spawn C4 F7      the same, choosing the cells (one per city; cities not named use the default)
    C4>C5            move the army on C4 to C5 (a capture when C5 holds an army or an NPC)
    blast D2         the tank on D2 stays and clears the 8 cells around it of others' armies and NPCs
    up D2            upgrade the army on D2 one rank (1 exp); ``up D2 3`` three ranks (pawn to tank)
    pass             no spawn and no move (upgrades may still follow)

A turn is a spawn or moves (in the order given), then upgrades, which name where armies stand
after the moves: ``C4>C5; D2>E3; up E3``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import OrderSyntaxError
from engine.i18n import mark, tr
from engine.notation import CELL, number, square
from engine.squaregrid import Square


@dataclass(frozen=True, slots=True)
class Spawn:
    cells: tuple[Square, ...] = ()  # chosen cells; cities not named here get their first empty cell

    def __str__(self) -> str:
        return " ".join(["spawn", *(c.label for c in self.cells)])


@dataclass(frozen=True, slots=True)
class Move:
    source: Square
    target: Square

    def __str__(self) -> str:
        return f"{self.source.label}>{self.target.label}"


@dataclass(frozen=True, slots=True)
class Blast:
    cell: Square

    def __str__(self) -> str:
        return f"blast {self.cell.label}"


@dataclass(frozen=True, slots=True)
class Upgrade:
    cell: Square
    levels: int = 1

    def __str__(self) -> str:
        return f"up {self.cell.label}" + (f" {self.levels}" if self.levels > 1 else "")


Order = Spawn | Move | Blast | Upgrade

PATTERNS = {
    "spawn": re.compile(rf"^spawn((?:\s+{CELL})*)$"),
    "move": re.compile(rf"^({CELL})\s*>\s*({CELL})$"),
    "blast": re.compile(rf"^blast\s+({CELL})$"),
    "up": re.compile(rf"^up\s+({CELL})(?:\s+({number(3)}))?$"),
    "pass": re.compile(r"^pass$"),
}
HINT = mark("write `spawn`, `spawn C4 F7`, `C4>C5`, `blast D2`, `up D2`, `up D2 3` or `pass`")


def read_line(line: str) -> Order | None:
    """One order line as typed (None for ``pass``); the cells are not checked against a board yet."""
    if match := PATTERNS["spawn"].match(line):
        return Spawn(tuple(square(cell, line) for cell in re.findall(CELL, match.group(1))))
    if match := PATTERNS["move"].match(line):
        return Move(square(match.group(1), line), square(match.group(2), line))
    if match := PATTERNS["blast"].match(line):
        return Blast(square(match.group(1), line))
    if match := PATTERNS["up"].match(line):
        return Upgrade(square(match.group(1), line), int(match.group(2) or 1))
    if PATTERNS["pass"].match(line):
        return None
    raise OrderSyntaxError(tr("{line!r} is not an order; {hint}", line=line, hint=tr(HINT)))
