"""Polygons with wide outlines. Pillow draws a wide outline through a mask as large as the whole
image, made afresh for every polygon; a board has hundreds of them. Here the outline is drawn on a
scratch mask just around the polygon and stamped on: the same band, but for the odd pixel where a
coordinate rounds the other way."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.text import Colour

Point = tuple[float, float]


def polygon(
    canvas: ImageDraw.ImageDraw,
    points: Sequence[Point],
    fill: Colour | None = None,
    outline: Colour | None = None,
    width: int = 1,
) -> None:
    """What ``canvas.polygon(points, fill, outline, width)`` draws."""
    if outline is None or width <= 1:
        canvas.polygon(points, fill=fill, outline=outline, width=width)
        return
    if fill is not None:
        canvas.polygon(points, fill=fill)
    left = math.floor(min(x for x, _ in points)) - 1
    top = math.floor(min(y for _, y in points)) - 1
    right = math.ceil(max(x for x, _ in points)) + 2
    bottom = math.ceil(max(y for _, y in points)) + 2
    band = Image.new("L", (right - left, bottom - top))
    ImageDraw.Draw(band).polygon([(x - left, y - top) for x, y in points], outline=255, width=width)
    canvas.bitmap((left, top), band, fill=outline)
