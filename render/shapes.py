"""Polygons with wide outlines. Pillow draws a wide outline through a mask as large as the whole
image, made afresh for every polygon; a board has hundreds of them. Here the outline is drawn on a
scratch mask just around the polygon and stamped on: the same band, but for the odd pixel where a
coordinate rounds the other way.

Also each seat's mark, a small shape that tells players apart where colours alone would not (for
colour-blind players): the same mark stands for the same seat on every board and in the legend."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import pieces
from render.style import contrast
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


def _star(tips: int, inner: float) -> tuple[Point, ...]:
    """A star's vertices on a unit circle, the first tip up; ``inner`` is the notches' radius."""
    return tuple(
        (radius * math.cos(angle), radius * math.sin(angle))
        for i in range(2 * tips)
        for radius, angle in ((1.0 if i % 2 == 0 else inner, math.radians(-90 + i * 180 / tips)),)
    )


def _plus(arm: float) -> tuple[Point, ...]:
    """A plus sign whose arms are ``arm`` wide, within the unit square."""
    a, tip = arm / 2, 0.95
    quarter = ((a, -tip), (a, -a), (tip, -a))
    turns = ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0))  # clockwise quarter turns
    return tuple((xx * x + xy * y, yx * x + yy * y) for xx, xy, yx, yy in turns for x, y in quarter)


MARKS: tuple[tuple[Point, ...], ...] = (
    tuple((0.86 * math.cos(i * math.pi / 12), 0.86 * math.sin(i * math.pi / 12)) for i in range(24)),  # circle
    ((-0.76, -0.76), (0.76, -0.76), (0.76, 0.76), (-0.76, 0.76)),  # square
    ((0.0, -1.0), (1.0, 0.74), (-1.0, 0.74)),  # triangle
    ((0.0, -1.0), (0.86, 0.0), (0.0, 1.0), (-0.86, 0.0)),  # diamond
    _star(5, 0.48),
    _plus(0.62),
)
"""Seat ``n``'s mark (``n`` as in ``style.PLAYER_COLOURS``) as a polygon within the unit circle: a
circle, a square, a triangle, a diamond, a star and a plus, shapes that stay apart when small."""


def mark(canvas: ImageDraw.ImageDraw, center: Point, seat: int, size: float, fill: Colour) -> None:
    """Seat ``seat``'s mark reaching ``size`` pixels from ``center``, filled with ``fill`` and edged
    in the ink that stands out on it, so it shows on the seat's colour and around it alike."""
    x, y = center
    points = [(x + dx * size, y + dy * size) for dx, dy in MARKS[seat % len(MARKS)]]
    polygon(canvas, points, fill, contrast(fill), max(1, round(size / 5)))


def draw_mark(canvas: ImageDraw.ImageDraw, center: Point, seat: int, size: float, fill: Colour) -> None:
    """:func:`mark`, drawn once per look and pasted: a board repeats a few marks hundreds of times."""
    pieces.draw(canvas, center, math.ceil(size) + 2, mark, seat, size, fill)
