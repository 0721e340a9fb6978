"""A map preview for the create flow: the starting board of a game with the chosen options, drawn
before anyone has joined (seats are named "Seat 1", "Seat 2", …). It works for every ruleset, since
it draws the ruleset's own opening position with its own drawing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import EngineError, Ruleset
from render import board_png


def map_preview_png(rs: Ruleset, options: Mapping[str, Any], players: int | None = None, seed: int = 0) -> bytes:
    """PNG of the board ``options`` choose (``options["map"]``: a shipped map name or map data).
    ``players`` defaults to the largest table the map can seat; a map no table fits raises the
    engine's error for the smallest one."""
    counts = [players] if players is not None else range(rs.max_players, rs.min_players - 1, -1)
    failure: EngineError | None = None
    for count in counts:
        try:
            state = rs.setup(count, options, seed=seed)
        except EngineError as err:
            failure = err
            continue
        names = [f"Seat {seat + 1}" for seat in range(count)]
        return board_png(rs.view(state, None), names=names, title="Map preview")
    raise failure
