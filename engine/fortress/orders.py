"""Fortress orders: value types and the notation players type.

Notation (case-insensitive; several general actions separated by ``;``)::

    C4 / build C4   modes 1-2: build a fortress on C4. Mode 3: the general on C4 builds there.
    C4>D4           mode 3: the general on C4 walks one cell (also: leaves the water onto D4)
    C4>D4>D5        mode 3: walks two cells along that path
    C4>D5           mode 3: two cells, when only one path between them is open
    C4>D4 build     mode 3: walks one cell and builds there at once (also: C4>D4+)
    pass            do nothing this turn (what a missed deadline does)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.hexgrid import Hex
from engine.notation import CELL


@dataclass(frozen=True, slots=True)
class Build:
    cell: Hex

    def __str__(self) -> str:
        return f"build {self.cell.label}"


@dataclass(frozen=True, slots=True)
class Walk:
    path: tuple[Hex, ...]  # the general's cell, then one or two cells

    def __str__(self) -> str:
        return ">".join(c.label for c in self.path)


@dataclass(frozen=True, slots=True)
class WalkBuild:
    source: Hex
    target: Hex

    def __str__(self) -> str:
        return f"{self.source.label}>{self.target.label} build"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


Order = Build | Walk | WalkBuild | Pass
Action = Build | Walk | WalkBuild  # what one general does in mode 3: every order but a pass

PATTERNS = {
    "pass": re.compile(r"^pass$"),
    "build": re.compile(rf"^(?:build\s+({CELL})|({CELL})\s+build|({CELL}))$"),
    "walk_build": re.compile(rf"^({CELL})\s*>\s*({CELL})\s*(?:\+|build)$"),
    "walk": re.compile(rf"^({CELL})\s*>\s*({CELL})(?:\s*>\s*({CELL}))?$"),
}
