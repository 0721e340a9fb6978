"""The conquest game state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import standings
from engine.conquest.board import CellType
from engine.errors import StateError
from engine.hexgrid import Hex
from engine.standings import Seats
from engine.stored import text, whole


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


def to_dict(state: ConquestState, name: str, version: int) -> dict[str, Any]:
    return {
        "ruleset": name,
        "version": version,
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


def from_dict(data: Mapping[str, Any]) -> ConquestState:
    """Rebuild and validate a state; anything inconsistent is a StateError, never a half-loaded game."""
    try:
        types, cells = {}, {}
        for label, entry in data["cells"].items():
            cell = Hex.from_label(label)
            types[cell] = CellType(entry["type"])
            cells[cell] = Cell(_optional_int(entry["owner"]), whole(entry["units"], 0, "conquest"))
        players = standings.from_data(data["players"], "conquest")
        autos = {Hex.from_label(s): Hex.from_label(t) for s, t in data["autos"].items()}
        traces = tuple(
            Trace(whole(seat, 0, "conquest"), Hex.from_label(s), Hex.from_label(t), whole(n, 1, "conquest"), bool(auto))
            for seat, s, t, n, auto in data["last_moves"]
        )
        state = ConquestState(
            map_name=text(data["map_name"], "conquest"),
            types=types,
            cells=cells,
            autos=autos,
            players=players,
            round=whole(data["round"], 1, "conquest"),
            round_limit=whole(data["round_limit"], 0, "conquest"),
            last_moves=traces,
            rng=whole(data["rng"], 0, "conquest"),
        )
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise StateError(f"conquest state is damaged: {type(err).__name__}: {err}") from None
    _check_consistent(state)
    return state


def upgrade_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 numbered departures and counted the rounds a seat survived; it left in the next one."""
    players = [
        {"status": p["status"], "reason": p["reason"], "left": None if p["survived"] is None else p["survived"] + 1}
        for p in data["players"]
    ]
    return {**{k: v for k, v in data.items() if k != "departures"}, "players": players}


def _optional_int(value: Any) -> int | None:
    return None if value is None else whole(value, 0, "conquest")


def _check_consistent(state: ConquestState) -> None:
    seats = len(state.players)
    if not 2 <= seats <= 6:
        raise StateError(f"conquest state is damaged: {seats} players")
    for cell, c in state.cells.items():
        if c.owner is not None and c.owner >= seats:
            raise StateError(f"conquest state is damaged: {cell.label} owned by seat {c.owner}")
    for source, target in state.autos.items():
        if (
            source not in state.cells
            or state.cells[source].owner is None
            or target not in source.neighbours()
            or target not in state.cells
        ):
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
