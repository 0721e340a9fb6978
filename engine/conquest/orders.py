"""Conquest orders: value types, the notation players type, and validation.

Notation (case-insensitive; orders separated by ``;``, ``,`` or new lines)::

    C4>C5 3        move 3 units from C4 to the adjacent C5 (also C4-C5 3, C4 C5 3)
    C4>C5          move every unit C4 has at the start of the round
    auto C4>C5     standing order: each round, units left in C4 after its fixed moves go to C5
    stop C4        cancel C4's standing auto-move
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import notation
from engine.completion import after, split_last
from engine.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    NotActingError,
    OrderError,
    OrderSyntaxError,
    raise_collected,
)
from engine.hexgrid import Hex
from engine.i18n import joined, ntr, tr
from engine.notation import CELL, number, words

if TYPE_CHECKING:
    from engine.conquest.state import ConquestState

COLOUR_NAMES = ("red", "blue", "green", "orange", "purple", "brown")


@dataclass(frozen=True, slots=True)
class Move:
    """Move a fixed number of units from ``source`` to the adjacent ``target``."""

    source: Hex
    target: Hex
    units: int

    def __str__(self) -> str:
        return f"{self.source.label}>{self.target.label} {self.units}"


@dataclass(frozen=True, slots=True)
class Auto:
    """Standing order: every round, the units left in ``source`` after fixed moves go to ``target``."""

    source: Hex
    target: Hex

    def __str__(self) -> str:
        return f"auto {self.source.label}>{self.target.label}"


@dataclass(frozen=True, slots=True)
class StopAuto:
    """Cancel the standing auto-move of ``source``."""

    source: Hex

    def __str__(self) -> str:
        return f"stop {self.source.label}"


Order = Move | Auto | StopAuto

_CELL = f"({CELL})"
_ARROW = r"\s*(?:->|>|-|\s)\s*"
_MOVE = re.compile(rf"^{_CELL}{_ARROW}{_CELL}(?:\s+(?:x\s*)?({number(6)}|all))?$")
_AUTO = re.compile(rf"^auto\s+{_CELL}{_ARROW}{_CELL}$")
_STOP = re.compile(rf"^(?:stop\s+{_CELL}|auto\s+{_CELL}\s+off)$")


def parse(state: ConquestState, seat: int, text: str) -> list[Order]:
    """Parse and validate a seat's whole set of orders for this round; all problems reported at once."""
    orders: list[Order] = notation.parse_lines(text, lambda line: _parse_line(state, line))
    validate(state, seat, orders)
    return orders


def hide_running_autos(state: ConquestState, seat: int, text: str) -> str:
    """``seat``'s orders of a past round (as they were formatted) without the auto-moves still running
    in ``state``: a standing order stays secret while it runs (the rules' orders are secret until
    they have done their work), and is shown once it stops."""
    shown, hidden = [], 0
    for line in filter(None, (piece.strip() for piece in text.split(";"))):
        if (match := _AUTO.match(words(line))) and _running(state, seat, match.group(1), match.group(2), line):
            hidden += 1
        else:
            shown.append(line)
    if hidden:
        shown.append(ntr("({n} auto-move still running: secret)", "({n} auto-moves still running: secret)", hidden))
    return "; ".join(shown)


def _running(state: ConquestState, seat: int, source: str, target: str, line: str) -> bool:
    cell = notation.cell(source, line)
    return cell in state.autos and state.autos[cell] == notation.cell(target, line) and state.cells[cell].owner == seat


def _parse_line(state: ConquestState, line: str) -> Order:
    if match := _STOP.match(line):
        return StopAuto(_label(state, match.group(1) or match.group(2), line))
    if match := _AUTO.match(line):
        return Auto(_label(state, match.group(1), line), _label(state, match.group(2), line))
    if match := _MOVE.match(line):
        source, target = _label(state, match.group(1), line), _label(state, match.group(2), line)
        amount = match.group(3)
        if amount is None or amount == "all":
            units = state.cells[source].units
            if units == 0:
                raise IllegalOrderError(tr("{line!r}: {cell} has no units to move", line=line, cell=source.label))
        else:
            units = int(amount)
        return Move(source, target, units)
    raise OrderSyntaxError(
        tr(
            "{line!r} is not an order; write C4>C5 3 (move 3), C4>C5 (move all), auto C4>C5, or stop C4",
            line=line,
        )
    )


def _label(state: ConquestState, text: str, line: str) -> Hex:
    cell = notation.cell(text, line)
    if cell not in state.types:
        raise IllegalOrderError(tr("{line!r}: {cell} is not a cell of this map", line=line, cell=cell.label))
    return cell


def _colour(seat: int | None) -> str:
    return tr("neutral") if seat is None else tr(COLOUR_NAMES[seat])


def _not_yours(text: str, label: str, owner: int | None, yours: list[Hex]) -> IllegalOrderError:
    """An order from a cell of someone else: whose it is (by colour here, by name in the bot)."""
    mine = joined(c.label for c in yours) or tr("none")

    def naming(who) -> str:
        if owner is None:
            return tr("{line!r}: {cell} is neutral, not yours; your cells: {mine}", line=text, cell=label, mine=mine)
        return tr(
            "{line!r}: {cell} belongs to {owner}, not to you; your cells: {mine}",
            line=text,
            cell=label,
            owner=who(owner),
            mine=mine,
        )

    return IllegalOrderError(naming(_colour), naming=naming)


def _named(cell: Hex) -> str:
    """A cell's label, or its coordinates when it lies left of or above every label."""
    return cell.label if cell.row >= 0 and cell.col >= 0 else repr(cell)


def _shown(order: Order) -> str:
    """An order as typed, or as code when one of its cells has no label."""
    try:
        return str(order)
    except ValueError:
        return repr(order)


def validate(state: ConquestState, seat: int, orders: Sequence[Order]) -> None:
    """Check a seat's order set against the start-of-round position; raise one error for all problems."""
    if not state.is_playing(seat):
        raise NotActingError(tr("seat {seat} is not playing in this game", seat=seat))
    problems: list[OrderError] = []
    moved: dict[Hex, list[Move]] = defaultdict(list)
    standing: dict[Hex, list[Order]] = defaultdict(list)
    for order in orders:
        text = _shown(order)
        cell = state.cells.get(order.source)
        if cell is None:
            problems.append(
                IllegalOrderError(
                    tr("{line!r}: {cell} is not a cell of this map", line=text, cell=_named(order.source))
                )
            )
            continue
        if cell.owner != seat:
            problems.append(_not_yours(text, order.source.label, cell.owner, state.cells_of(seat)))
            continue
        if isinstance(order, (Move, Auto)) and (
            order.target not in state.types or order.target not in order.source.neighbours()
        ):
            near = sorted(c.label for c in order.source.neighbours() if c in state.types)
            why = (
                tr("{line!r}: {cell} is not a cell of this map; neighbours: {near}")
                if order.target not in state.types
                else tr("{line!r}: {cell} is not adjacent to {source}; neighbours: {near}")
            )
            problems.append(
                IllegalOrderError(
                    why.format(line=text, cell=_named(order.target), source=order.source.label, near=joined(near))
                )
            )
            continue
        if isinstance(order, Move):
            if order.units < 1:
                problems.append(IllegalOrderError(tr("{line!r}: move at least 1 unit", line=text)))
                continue
            moved[order.source].append(order)
        else:
            standing[order.source].append(order)
            if isinstance(order, StopAuto) and order.source not in state.autos:
                problems.append(
                    IllegalOrderError(
                        tr("{line!r}: {cell} has no auto-move to stop", line=text, cell=order.source.label)
                    )
                )
    for source, moves in moved.items():
        total, have = sum(m.units for m in moves), state.cells[source].units
        if total > have:
            listed = ", ".join(str(m) for m in moves)
            problems.append(
                IllegalOrderError(
                    ntr(
                        "{orders}: {cell} has {n} unit at the start of the round, these orders move {total}",
                        "{orders}: {cell} has {n} units at the start of the round, these orders move {total}",
                        have,
                        orders=listed,
                        cell=source.label,
                        total=total,
                    )
                )
            )
    for source, entries in standing.items():
        if len(entries) > 1:
            listed = ", ".join(dict.fromkeys(str(e) for e in entries))
            problems.append(
                AmbiguousOrderError(
                    tr(
                        "{orders}: {cell} can have one auto-move order per round; keep one",
                        orders=listed,
                        cell=source.label,
                    )
                )
            )
    raise_collected(problems)


def suggest(state: ConquestState, seat: int, text: str) -> list[str]:
    """Legal single orders for ``seat`` that extend the last line of ``text`` (case-insensitive).

    Earlier lines of ``text`` are kept as typed, so a player can build several orders in one box;
    the units they already move are not offered again, nor a second auto-move for a cell.
    """
    if not state.is_playing(seat):
        return []
    head, last = split_last(text)
    typed = words(last)
    committed: dict[Hex, int] = defaultdict(int)
    standing = set()
    for line in notation.split(head):
        try:
            order = _parse_line(state, line)
        except OrderError:
            continue
        if isinstance(order, Move):
            committed[order.source] += order.units
        else:
            standing.add(order.source)
    options = []
    for source in state.cells_of(seat):
        units = state.cells[source].units - committed[source]
        for target in sorted((n for n in source.neighbours() if n in state.cells), key=lambda h: h.label):
            if units > 0:
                options.append(str(Move(source, target, units)))
            if source not in standing:
                options.append(str(Auto(source, target)))
        if source in state.autos and source not in standing:
            options.append(str(StopAuto(source)))
    matches = [o for o in options if o.lower().startswith(typed)]
    if not matches and typed:  # "C4 5" or "c4>d4" typed: offer the amounts that fit
        matches = [o for o in options if typed.split(" ")[0].replace("-", ">") in o.lower()]
    return after(head, matches)
