"""Board images as Discord files. Rendering is CPU work: callers run these in a thread."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from render import board_png
from service import GameMaster
from service.models import Game


def board_file(
    master: GameMaster,
    game: Game,
    state: dict[str, Any],
    *,
    viewer: int | None = None,
    orders_text: str = "",
    title: str | None = None,
    filename: str | None = None,
) -> discord.File:
    """The board of ``state``; with ``orders_text`` and ``viewer``, the private view of his orders."""
    rs = master.ruleset(game.row)
    loaded = rs.from_dict(state)
    orders: Sequence[Any] = rs.parse_orders(loaded, viewer, orders_text) if viewer is not None and orders_text else ()
    png = board_png(rs.view(loaded, viewer), names=game.names(), orders=orders, title=title)
    name = filename or (f"game-{game.id}-orders.png" if orders else f"game-{game.id}-board.png")
    return discord.File(io.BytesIO(png), filename=name)
