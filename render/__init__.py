"""Board images: ``board_png(view, *, names, ...)`` turns what a player may see into PNG bytes.

Pure and synchronous, Pillow only, with bundled fonts so the same view always gives the same
bytes. Callers that must stay responsive run it off their event loop. Each process keeps bounded
caches of what boards repeat (text masks, cells, arrows, symbols): they change the time a board
takes, never its bytes; ``clear_caches`` empties them.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from engine.i18n import tr
from render import boards, legend, pieces, png, text
from render.crop import Places
from render.summary import coloured

Drawer = Callable[[Any, Sequence[str], Sequence[object], str | None], Image.Image]
"""Draws a view: ``(view, names, orders, title) -> image``."""
Entries = Callable[[Any, Sequence[str]], Sequence[legend.Entry]]
"""A view's legend entries, one per seat: ``(view, names) -> entries``."""

_DRAWERS: dict[type, Drawer] = {}
_ENTRIES: dict[type, Entries] = {}
_PLACES: dict[type, Places] = {}


def register_drawer(
    view_type: type, drawer: Drawer, entries: Entries | None = None, places: Places | None = None
) -> None:
    """Make ``board_png`` draw views of ``view_type`` (each ruleset's view has its own type): how a
    game kept outside this package (a plug-in's own folder) gets its board drawn. ``entries``, the
    players' lines of its legend, also describe it in words (``describe``); ``places``, where its
    places are drawn, gives its large boards close-ups (``render.crop``)."""
    _DRAWERS[view_type] = drawer
    if entries is not None:
        _ENTRIES[view_type] = entries
    if places is not None:
        _PLACES[view_type] = places


def places_of(view: object) -> Places | None:
    """Where the board of ``view`` draws its places; None for a board without close-ups."""
    return _PLACES.get(type(view))


def describe(view: object, *, names: Sequence[str], title: str | None = None) -> list[str]:
    """The board in words, for a screen reader (an image's alt text): its title, then each player's
    colour, name and holdings as the legend shows them."""
    lines = [title] if title else []
    for seat, entry in enumerate(seat_entries(view, names)):
        lines.append(tr("{player}: {holdings}", player=coloured(entry.name, seat), holdings=entry.detail))
    return lines


def seat_entries(view: object, names: Sequence[str]) -> Sequence[legend.Entry]:
    """Each player's line of the board's legend (his name and holdings), for pages that show them as text."""
    entries = _ENTRIES.get(type(view))
    return entries(view, names) if entries else ()


def has_drawer(view_type: type) -> bool:
    """Whether ``board_png`` can draw views of ``view_type``."""
    return view_type in _DRAWERS


def clear_caches() -> None:
    """Empty every cache of the package, as in a fresh worker process (images do not change)."""
    text.clear_caches()
    pieces.clear_cache()


def board_png(view: object, *, names: Sequence[str], orders: Sequence[object] = (), title: str | None = None) -> bytes:
    """The board of ``view`` as PNG.

    ``names[seat]`` are the players' display names. ``orders`` are the viewer's programmed,
    still-secret orders: when given, the image is that player's private one and shows them.
    """
    return png.encode(board_image(view, names=names, orders=orders, title=title))


def board_image(
    view: object, *, names: Sequence[str], orders: Sequence[object] = (), title: str | None = None
) -> Image.Image:
    """The board of ``view`` as an RGB image, before encoding (a replay frame)."""
    drawer = _DRAWERS.get(type(view))
    if drawer is None:
        raise TypeError(f"no board drawing for {type(view).__name__}")
    return drawer(view, names, orders, title)


def _register_boards() -> None:
    """Register the drawing of every module in ``render.boards`` (one per ruleset, named after it)."""
    for board in pkgutil.iter_modules(boards.__path__, f"{boards.__name__}."):
        module = importlib.import_module(board.name)
        places = Places(module.spots, module.touched, module.label_size)
        register_drawer(module.VIEW, module.draw, module.entries, places)


_register_boards()

__all__ = [
    "Drawer",
    "Entries",
    "Places",
    "board_image",
    "board_png",
    "clear_caches",
    "describe",
    "has_drawer",
    "places_of",
    "register_drawer",
]
