"""Pieces a board repeats, such as arrows, drawn once and pasted wherever they recur: a busy board
has hundreds of arrows in a few dozen looks, and pasting one costs a fraction of drawing it.

Boards draw on a :class:`Canvas`, which knows its image so pieces can be pasted onto it; on any
other ``ImageDraw`` a piece is simply drawn, at the same place, so both give the same picture.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

PIECES = 2048
"""Pieces kept per process: a piece is a few kilobytes, so at most a few tens of megabytes."""
KEPT_CUTS = 1024
"""Cut shapes kept per process (:func:`solid`): a cell of the largest boards is about 20 KB, so at
most about 20 megabytes; the cells of a few games."""
CUTS = 48
"""Shapes a board cuts to keep (:func:`solid`): cutting a cell costs about as much as drawing it
once more, so a new game's first board cuts a few dozen and its next boards the rest, each a little
slower; pasting a kept cell then costs about half of drawing it."""

Paint = Callable[..., None]
"""Draws a piece: ``paint(canvas, (x, y), *args)`` centred on ``(x, y)``."""


class Canvas(ImageDraw.ImageDraw):
    """Pillow's drawing context for ``image``, holding the image so that pieces can be pasted."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image
        self.cuts_left = CUTS


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


Cut = tuple[Image.Image, Image.Image, tuple[int, int]]
"""A piece cut from a board: its pixels, the two-level mask of the shape, and the crop's offset from
the pixel it is drawn at."""

_cuts: OrderedDict[Hashable, Cut] = OrderedDict()  # least recently used first
_cuts_lock = threading.Lock()  # boards may be drawn in several threads


def solid(
    canvas: ImageDraw.ImageDraw,
    center: tuple[float, float],
    outline: Sequence[tuple[float, float]],
    paint: Paint,
    *args: Hashable,
) -> None:
    """``paint(canvas, center, *args)``: a shape that covers the polygon ``outline`` (its points on the
    image) and draws nothing outside it, such as a board's cell with all that is on it. On a
    :class:`Canvas` it is kept per look and position within a pixel: drawn straight on the board the
    first time, then cut from it (up to :data:`CUTS` per board). A board's cells each look their own
    (their labels), so a cell recurs only on the next turns of its game: cutting it costs a crop and
    a mask, about one drawing, where drawing a piece apart (:func:`draw`) costs three, which a new
    game's first board would pay for every cell."""
    if not isinstance(canvas, Canvas):
        paint(canvas, center, *args)
        return
    at = math.floor(center[0]), math.floor(center[1])
    key = (paint, center[0] - at[0], center[1] - at[1], args)
    with _cuts_lock:
        kept = _cuts.get(key)
        if kept is not None:
            _cuts.move_to_end(key)
    if kept is not None:
        image, mask, (dx, dy) = kept
        canvas.image.paste(image, (at[0] + dx, at[1] + dy), mask)
        return
    paint(canvas, center, *args)
    if canvas.cuts_left <= 0:
        return
    canvas.cuts_left -= 1
    left, top = math.floor(min(x for x, _ in outline)), math.floor(min(y for _, y in outline))
    right, bottom = math.ceil(max(x for x, _ in outline)) + 1, math.ceil(max(y for _, y in outline)) + 1
    if left < 0 or top < 0 or right > canvas.image.width or bottom > canvas.image.height:
        return  # partly off the board: what a cut would hold there is not the shape's
    mask = Image.new("1", (right - left, bottom - top))
    # The outline less whole pixels lands on the same pixels as on the board (the shift is exact).
    ImageDraw.Draw(mask).polygon([(x - left, y - top) for x, y in outline], fill=1)
    cut = canvas.image.crop((left, top, right, bottom)), mask, (left - at[0], top - at[1])
    with _cuts_lock:
        _cuts[key] = cut
        if len(_cuts) > KEPT_CUTS:
            _cuts.popitem(last=False)


def clear_cache() -> None:
    _piece.cache_clear()
    with _cuts_lock:
        _cuts.clear()
