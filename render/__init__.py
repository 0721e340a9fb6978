"""Board images: ``board_png(view, *, names, ...)`` turns what a player may see into PNG bytes.

Pure and synchronous, Pillow only, with bundled fonts so the same view always gives the same
bytes. Callers that must stay responsive run it off their event loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.conquest.state import ConquestView
from engine.fortress.state import FortressView
from engine.gra.state import GraView
from render import conquest, fortress, graph, png


def board_png(view: object, *, names: Sequence[str], orders: Sequence[object] = (), title: str | None = None) -> bytes:
    """The board of ``view`` as PNG.

    ``names[seat]`` are the players' display names. ``orders`` are the viewer's programmed,
    still-secret orders: when given, the image is that player's private one and shows them.
    """
    if isinstance(view, ConquestView):
        return png.encode(conquest.render(view, names, orders, title))
    if isinstance(view, GraView):
        return png.encode(graph.render(view, names, orders, title))
    if isinstance(view, FortressView):
        return png.encode(fortress.render(view, names, title))  # nothing is secret in fortress
    raise TypeError(f"no board drawing for {type(view).__name__}")


__all__ = ["board_png"]
