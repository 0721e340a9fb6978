"""Drawing pieces for pointy-top hex boards, shared by every ruleset played on hexes.

Geometry comes from ``engine.hexgrid.Hex.pixel``; this module only scales and shifts it onto the
image and draws cells, labelled arrows and badges. Nothing here knows the game rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import ImageDraw

from engine.hexgrid import Hex
from render import pieces, shapes, text
from render.text import Colour

Point = tuple[float, float]
SQRT3 = math.sqrt(3)
CORNERS = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(-90, 270, 60))
"""A pointy-top hex's vertices around a unit circle, clockwise from the top."""


@dataclass(frozen=True, slots=True)
class HexLayout:
    """Where cells go on the image: circumradius ``size`` in pixels, and the shift of Hex(0, 0)."""

    size: float
    origin: Point

    def shifted(self, dx: float, dy: float) -> HexLayout:
        return HexLayout(self.size, (self.origin[0] + dx, self.origin[1] + dy))

    def center(self, cell: Hex) -> Point:
        x, y = cell.pixel(self.size)
        return x + self.origin[0], y + self.origin[1]

    def corners(self, cell: Hex, inset: float = 0.0) -> list[Point]:
        """The six vertices, clockwise from the top, pulled ``inset`` pixels towards the centre."""
        cx, cy = self.center(cell)
        radius = self.size - inset * 2 / SQRT3
        return [(cx + radius * dx, cy + radius * dy) for dx, dy in CORNERS]

    def direction(self, source: Hex, target: Hex) -> Point:
        """The unit vector from ``source``'s centre towards ``target``'s."""
        return _unit(self.center(source), self.center(target))

    def along(self, source: Hex, target: Hex, t: float, offset: float = 0.0) -> Point:
        """The point ``t`` of the way from ``source``'s centre to ``target``'s, moved ``offset``
        pixels to the right of that direction (so the two directions of an edge use two lanes)."""
        (x0, y0), (x1, y1) = start, end = self.center(source), self.center(target)
        ux, uy = _unit(start, end)
        return x0 + (x1 - x0) * t - uy * offset, y0 + (y1 - y0) * t + ux * offset


def _unit(start: Point, end: Point) -> Point:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    return (x1 - x0) / length, (y1 - y0) / length


def fit(cells: Iterable[Hex], width: float, height: float, smallest: float, largest: float) -> tuple[HexLayout, Point]:
    """The largest layout (circumradius within ``smallest``..``largest``) that fits ``cells`` in a
    ``width`` x ``height`` box at the origin, with the board's size in pixels."""
    points = [cell.pixel(1.0) for cell in cells]
    min_x = min(x for x, _ in points) - SQRT3 / 2
    min_y = min(y for _, y in points) - 1
    span_x = max(x for x, _ in points) + SQRT3 / 2 - min_x
    span_y = max(y for _, y in points) + 1 - min_y
    size = max(smallest, min(largest, width / span_x, height / span_y))
    return HexLayout(size, (-min_x * size, -min_y * size)), (span_x * size, span_y * size)


def outline(size: float, center: Point) -> list[Point]:
    """The polygon a whole cell of circumradius ``size`` centred on ``center`` covers: what
    :func:`hexagon` fills first, with no inset."""
    return HexLayout(size, center).corners(Hex(0, 0))


def hexagon(
    canvas: ImageDraw.ImageDraw,
    layout: HexLayout,
    cell: Hex,
    fill: Colour | None,
    outline: Colour | None = None,
    width: int = 1,
    inset: float = 0.0,
) -> None:
    """A hex pulled ``inset`` pixels in; a wide outline is a band ``width`` pixels inside its edge, as
    Pillow draws it, made of plain polygons (faster than :func:`shapes.polygon` for this shape)."""
    outer = layout.corners(cell, inset)
    if outline is None or width <= 1:
        canvas.polygon(outer, fill=fill, outline=outline, width=width)
        return
    inner = layout.corners(cell, inset + width)
    if fill is not None:
        canvas.polygon(outer, fill=outline)
        canvas.polygon(inner, fill=fill)
        return
    for side in range(6):
        after = (side + 1) % 6
        canvas.polygon((outer[side], outer[after], inner[after], inner[side]), fill=outline)


def block_arrow(
    canvas: ImageDraw.ImageDraw,
    center: Point,
    direction: Point,
    label: str,
    size: int,
    fill: Colour,
    ink: Colour,
    outline: Colour,
    casing: Colour,
    standing: bool = False,
    keep: bool = True,
) -> None:
    """A short, wide arrow centred on ``center`` (to the nearest pixel) and pointing along
    ``direction`` (a unit vector), with ``label`` (an amount) upright in its body, which grows to
    hold it at any angle. It is laid on a ``casing`` band so it stands out even on a cell of its own
    colour. A ``standing`` arrow has a notched tail and a chevron behind it, like a fast-forward
    sign, for orders that repeat. A hex board repeats arrows in a few directions, so each look is
    drawn once and kept (see :mod:`render.pieces`); ``keep`` false is for arrows that seldom recur,
    since keeping one costs about three times drawing it."""
    heading = (round(direction[0], 4), round(direction[1], 4))
    if not keep:
        _arrow(canvas, pieces.whole(center), heading, label, size, fill, ink, outline, casing, standing)
        return
    reach = math.ceil(2.2 * size + text.width(label, size, bold=True) / 2) + 6
    pieces.draw(canvas, center, reach, _arrow, heading, label, size, fill, ink, outline, casing, standing)


def _arrow(
    canvas: ImageDraw.ImageDraw,
    center: Point,
    direction: Point,
    label: str,
    size: int,
    fill: Colour,
    ink: Colour,
    outline: Colour,
    casing: Colour,
    standing: bool,
) -> None:
    ux, uy = direction
    wide, tall = (text.width(label, size, bold=True), size * text.CAP_HEIGHT) if label else (0.0, 0.0)
    half = min(size * 0.85, max(size * 0.62, (wide * abs(uy) + tall * abs(ux)) / 2 + size * 0.15))
    body = max(size, wide * abs(ux) + tall * abs(uy) + size * 0.45)
    head = size * 0.68
    notch = min(half * 0.6, body / 3) if standing else 0.0
    gap, thick = size * 0.2, size * 0.34
    shift = (gap + thick) / 2 if standing else 0.0
    tail = -(body + head) / 2
    band = max(2.0, size / 8)

    def place(points: list[Point]) -> list[Point]:
        """From the arrow's own frame (x along it, y across) onto the image."""
        x, y = center
        return [(x + (a + shift) * ux - b * uy, y + (a + shift) * uy + b * ux) for a, b in points]

    outlines = [lambda grow: _block(body, head, half, notch, grow)]
    if standing:
        outlines.append(lambda grow: _chevron(tail - gap, notch, thick, half, grow))
    for shape in outlines:
        canvas.polygon(place(shape(band)), fill=casing, outline=outline)
    for shape in outlines:
        shapes.polygon(canvas, place(shape(0.0)), fill, outline, max(1, round(band / 2)))
    if label:
        text.draw(canvas, place([(-head / 2, 0.0)])[0], label, size, ink, bold=True, anchor="mm")


def _block(body: float, head: float, half: float, notch: float, grow: float) -> list[Point]:
    """The arrow outline in its own frame: x along the arrow, centred on the middle of its length."""
    tail, tip = -(body + head) / 2 - grow, (body + head) / 2 + grow * 2
    base = (body + head) / 2 - head - grow
    side, wing = half + grow, half + head * 0.6 + grow * 1.8
    points = [(tail, side), (base, side), (base, wing), (tip, 0.0), (base, -wing), (base, -side), (tail, -side)]
    if notch:
        points.append((tail + notch, 0.0))
    return points


def _chevron(front: float, depth: float, thick: float, half: float, grow: float) -> list[Point]:
    """A chevron whose front edge ends at ``front`` and points forward by ``depth``."""
    back, side = front - thick - grow, half + grow
    front += grow
    return [
        (front, side),
        (front + depth + grow, 0.0),
        (front, -side),
        (back, -side),
        (back + depth, 0.0),
        (back, side),
    ]


def pill(
    canvas: ImageDraw.ImageDraw, center: Point, label: str, size: int, fill: Colour, ink: Colour, outline: Colour
) -> None:
    """A rounded tag with ``label`` centred on ``center`` (to the nearest pixel), such as a cell's
    production badge; each look is drawn once and kept."""
    reach = math.ceil(text.width(label, size, bold=True) / 2 + size) + 2
    pieces.draw(canvas, center, reach, _pill, label, size, fill, ink, outline)


def _pill(
    canvas: ImageDraw.ImageDraw, center: Point, label: str, size: int, fill: Colour, ink: Colour, outline: Colour
) -> None:
    half_w = text.width(label, size, bold=True) / 2 + size * 0.35
    half_h = size * 0.62
    x, y = center
    canvas.rounded_rectangle(
        (x - half_w, y - half_h, x + half_w, y + half_h),
        radius=half_h,
        fill=fill,
        outline=outline,
        width=max(1, size // 9),
    )
    text.draw(canvas, center, label, size, ink, bold=True, anchor="mm")
