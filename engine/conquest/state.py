"""The conquest game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import standings, stored
from engine.conquest.board import MAX_CELLS, MAX_SIDE, CellType
from engine.errors import StateError
from engine.hexgrid import Hex
from engine.standings import Seats

GAME = "conquest"


@dataclass(frozen=True, slots=True)
class Cell:
    owner: int | None  # seat, or None for neutral
    units: int


@dataclass(frozen=True, slots=True)
class Trace:
    """Units that moved last round, for the arrows on the board."""

    seat: int
    source: Hex
    target: Hex
    units: int
    auto: bool


@dataclass(frozen=True)
class ConquestState:
    map_name: str
    types: Mapping[Hex, CellType]
    cells: Mapping[Hex, Cell]
    autos: Mapping[Hex, Hex]
    players: Seats  # a seat leaves in the round being played then
    round: int  # the round being played; round - 1 rounds are complete
    round_limit: int  # 0: none
    last_moves: tuple[Trace, ...]
    rng: int

    def is_playing(self, seat: int) -> bool:
        return 0 <= seat < len(self.players) and self.players[seat].playing

    def playing(self) -> list[int]:
        return standings.still_in(self.players)

    def cells_of(self, seat: int) -> list[Hex]:
        return sorted(h for h, c in self.cells.items() if c.owner == seat)

    def units_of(self, seat: int) -> int:
        return sum(c.units for c in self.cells.values() if c.owner == seat)

    @property
    def over(self) -> bool:
        limit_reached = self.round_limit and self.round > self.round_limit
        return len(self.playing()) <= 1 or bool(limit_reached)


def to_data(state: ConquestState) -> dict[str, Any]:
    """The state's fields as stored (the ruleset adds the envelope)."""
    return {
        "map_name": state.map_name,
        "cells": {
            h.label: {"type": state.types[h].value, "owner": c.owner, "units": c.units}
            for h, c in sorted(state.cells.items())
        },
        "autos": {s.label: t.label for s, t in sorted(state.autos.items())},
        "players": standings.to_data(state.players),
        "round": state.round,
        "round_limit": state.round_limit,
        "last_moves": [[t.seat, t.source.label, t.target.label, t.units, t.auto] for t in state.last_moves],
        "rng": state.rng,
    }


def from_data(data: Mapping[str, Any]) -> ConquestState:
    """Rebuild and validate a state; anything inconsistent is a StateError naming the field, never a
    half-loaded game."""
    read = stored.Fields(data, GAME, known=("ruleset", "version"))
    players = standings.from_data(read.listed("players", 2, 6), GAME)
    types, cells = {}, {}
    for label, entry in read.keyed("cells", MAX_CELLS).items():
        cell, entry = _on_board(label, f"cells.{label}"), stored.Fields(entry, GAME, f"cells.{label}")
        types[cell] = CellType(entry.one_of("type", [t.value for t in CellType]))
        owner = entry["owner"]
        cells[cell] = Cell(
            None if owner is None else entry.whole("owner", 0, len(players) - 1), entry.whole("units", 0, stored.MOST)
        )
        entry.done()

    def on_map(label: Any, where: str) -> Hex:
        cell = stored.cell(label, where, GAME)
        if cell not in cells:
            raise stored.damaged(GAME, where, f"{label} is not a cell of the map")
        return cell

    autos = {on_map(s, f"autos.{s}"): on_map(t, f"autos.{s}") for s, t in read.keyed("autos", len(cells)).items()}
    traces = []
    for number, entry in enumerate(read.listed("last_moves", 0, 6 * len(cells))):
        where = f"last_moves[{number}]"
        seat, source, target, units, auto = stored.listed(entry, 5, 5, where, GAME)
        traces.append(
            Trace(
                stored.whole(seat, 0, len(players) - 1, where, GAME),
                on_map(source, where),
                on_map(target, where),
                stored.whole(units, 1, stored.MOST, where, GAME),
                stored.flag(auto, where, GAME),
            )
        )
    state = ConquestState(
        map_name=read.text("map_name"),
        types=types,
        cells=cells,
        autos=autos,
        players=players,
        round=read.whole("round", 1, stored.MOST),
        round_limit=read.whole("round_limit", 0, stored.MOST),
        last_moves=tuple(traces),
        rng=read.whole("rng", 0, stored.RNG_MOST),
    )
    read.done()
    _check_consistent(state)
    return state


def upgrade_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 numbered departures and counted the rounds a seat survived; it left in the next one."""
    players = [
        {"status": p["status"], "reason": p["reason"], "left": None if p["survived"] is None else p["survived"] + 1}
        for p in data["players"]
    ]
    return {**{k: v for k, v in data.items() if k != "departures"}, "players": players}


def _on_board(label: Any, where: str) -> Hex:
    cell = stored.cell(label, where, GAME)
    if not (0 <= cell.col < MAX_SIDE and cell.row < MAX_SIDE):
        raise stored.damaged(GAME, where, f"{label} is off a board of {MAX_SIDE} by {MAX_SIDE} cells")
    return cell


def _check_consistent(state: ConquestState) -> None:
    if not state.cells:
        raise StateError("conquest state is damaged: cells is empty")
    for source, target in state.autos.items():
        if state.cells[source].owner is None or target not in source.neighbours():
            raise StateError(f"conquest state is damaged: auto-move {source.label}>{target.label}")


@dataclass(frozen=True)
class CellView:
    cell: Hex
    label: str
    type: CellType
    owner: int | None
    units: int
    auto: Hex | None


@dataclass(frozen=True)
class ConquestView:
    """Everything a viewer may see. Conquest has no fog; programmed orders never enter the state, and
    standing auto-moves appear on the viewer's own cells only."""

    viewer: int | None
    map_name: str
    round: int
    round_limit: int
    over: bool
    cells: tuple[CellView, ...]
    players: Seats
    last_moves: tuple[Trace, ...]


def make_view(state: ConquestState, viewer: int | None) -> ConquestView:
    """Standing auto-moves are orders, so a viewer sees his own only (the public none)."""
    cells = tuple(
        CellView(h, h.label, state.types[h], c.owner, c.units, state.autos.get(h) if c.owner == viewer else None)
        for h, c in sorted(state.cells.items())
    )
    return ConquestView(
        viewer, state.map_name, state.round, state.round_limit, state.over, cells, state.players, state.last_moves
    )
