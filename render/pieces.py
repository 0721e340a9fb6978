"""Pieces a board repeats, such as arrows, drawn once and pasted wherever they recur: a busy board
has hundreds of arrows in a few dozen looks, and pasting one costs a fraction of drawing it.

Boards draw on a :class:`Canvas`, which knows its image so pieces can be pasted onto it; on any
other ``ImageDraw`` a piece is simply drawn, at the same place, so both give the same picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from functools import lru_cache

from PIL import Image, ImageDraw

PIECES = 2048
"""Pieces kept per process: a piece is a few kilobytes, so at most a few tens of megabytes."""

Paint = Callable[..., None]
"""Draws a piece: ``paint(canvas, (x, y), *args)`` centred on ``(x, y)``."""


class Canvas(ImageDraw.ImageDraw):
    """Pillow's drawing context for ``image``, holding the image so that pieces can be pasted."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image


def whole(point: tuple[float, float]) -> tuple[int, int]:
    """The pixel nearest to ``point``."""
    return math.floor(point[0] + 0.5), math.floor(point[1] + 0.5)


def draw(
    canvas: ImageDraw.ImageDraw,
    center: tuple[float, float],
    reach: int,
    paint: Paint,
    *args: Hashable,
    snap: bool = True,
) -> None:
    """``paint(canvas, at, *args)`` at the pixel ``at`` nearest to ``center``, from the kept piece
    when ``canvas`` is a :class:`Canvas`. ``reach`` bounds how far from ``at`` the piece may draw.
    With ``snap`` false the piece is drawn at ``center`` itself, and kept for each position within
    a pixel: for pieces that must meet their neighbours exactly, such as a board's cells."""
    if snap:
        at, within = whole(center), (0.0, 0.0)
    else:
        at = math.floor(center[0]), math.floor(center[1])
        within = center[0] - at[0], center[1] - at[1]
    if not isinstance(canvas, Canvas):
        paint(canvas, (at[0] + within[0], at[1] + within[1]), *args)
        return
    piece = _piece(reach, within, paint, args)
    if piece is not None:
        image, mask, (dx, dy) = piece
        canvas.image.paste(image, (at[0] + dx, at[1] + dy), mask)


@lru_cache(maxsize=PIECES)
def _piece(
    reach: int, within: tuple[float, float], paint: Paint, args: tuple
) -> tuple[Image.Image, Image.Image, tuple[int, int]] | None:
    """The piece cropped to what it covers, the two-level mask of what it covers (pieces are solid
    shapes with any anti-aliased text inside them; such a mask pastes three times as fast as an
    alpha channel), and the crop's offset from the pixel it is drawn at."""
    scratch = Image.new("RGBA", (2 * reach + 1, 2 * reach + 1))
    paint(ImageDraw.Draw(scratch), (reach + within[0], reach + within[1]), *args)
    box = scratch.getbbox()
    if box is None:
        return None
    piece = scratch.crop(box)
    mask = piece.getchannel("A").convert("1", dither=Image.Dither.NONE)
    return piece.convert("RGB"), mask, (box[0] - reach, box[1] - reach)


def clear_cache() -> None:
    _piece.cache_clear()
