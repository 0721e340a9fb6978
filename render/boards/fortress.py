"""The fortress field: territory in each player's colour and mark, water and mountains, cities, fortresses,
generals, whose move it is and how many moves are left, and the last move highlighted.

Symbols sit in the middle of a cell and the label at its foot, so :func:`fill_point` (just under a
cell's top corner) always shows who owns the cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from engine.fortress.board import MOUNTAIN, WATER
from engine.fortress.orders import Build, Walk, WalkBuild
from engine.fortress.state import MODES, FortressView
from engine.hexgrid import Hex
from engine.i18n import mark, ntr, tr
from render import hexboard, legend, pieces, shapes, text
from render.frame import Frame, canvas_for, draw_legend, frame_for, header, own_seat
from render.hexboard import HexLayout, Point
from render.style import INK, NEUTRAL, WHITE, ink_on, mix, player_colour
from render.text import Colour

VIEW = FortressView  # what ``draw`` draws: this ruleset's view

WATER_COLOUR: Colour = (120, 180, 230)
MOUNTAIN_COLOUR: Colour = (150, 130, 110)
HIGHLIGHT: Colour = (255, 214, 0)
OUTLINE: Colour = (70, 70, 76)


def layout(view: FortressView) -> Frame:
    return frame_for(view.state.terrain, 2, keys(view))


def _in_order(cells: Iterable[Hex]) -> list[Hex]:
    """``cells`` in their order (q, then r), sorted by key: the hundreds of cells of a board sort
    several times faster so than by comparing cells."""
    return sorted(cells, key=lambda cell: (cell.q, cell.r))


def fill_point(view: FortressView, cell: Hex) -> tuple[int, int]:
    """A pixel that always shows the cell's fill (owner colour, or the neutral/terrain colour)."""
    hexes = layout(view).hexes
    x, y = hexes.center(cell)
    return round(x), round(y - hexes.size * 0.72)


def cell_fill(view: FortressView, cell: Hex) -> Colour:
    owner = view.state.owners.get(cell)
    terrain = view.state.terrain[cell]
    if owner is not None:
        return player_colour(owner)
    return WATER_COLOUR if terrain == WATER else MOUNTAIN_COLOUR if terrain == MOUNTAIN else NEUTRAL


def draw(view: FortressView, names: Sequence[str], orders: Sequence[object], title: str | None) -> Image.Image:
    """The board as an RGB image; ``orders`` given (the move its player is composing) means his
    private image, which draws them instead of the last move."""
    if len(names) != 2:
        raise ValueError(f"names has {len(names)} entries; fortress has 2 players")
    if orders and view.viewer is None:
        raise ValueError("orders are private: render them with the view of the player who gave them")
    geometry = layout(view)
    image, canvas = canvas_for(geometry)
    _header(canvas, view, geometry, names, title, bool(orders))
    hexes = geometry.hexes
    state = view.state
    for cell in _in_order(state.terrain):
        _cell(canvas, hexes, view, cell)
    if orders:
        _orders(canvas, hexes, player_colour(own_seat(view.viewer)), orders)
    for cell in () if orders else state.last:
        hexboard.hexagon(
            canvas, hexes, cell, None, HIGHLIGHT, width=max(4, round(hexes.size * 0.12)), inset=hexes.size * 0.04
        )
    draw_legend(canvas, geometry, entries(view, names), keys(view))
    return image


def _header(
    canvas: ImageDraw.ImageDraw,
    view: FortressView,
    geometry: Frame,
    names: Sequence[str],
    title: str | None,
    private: bool = False,
) -> None:
    state = view.state
    total = 2 * state.moves
    if view.to_move is None:
        a, b = state.score(0), state.score(1)
        if a == b:
            heading = tr("Game over — a draw")
        else:
            winner = legend.player_name(names, 0 if a > b else 1)
            more, fewer = f"{max(a, b):g}", f"{min(a, b):g}"
            heading = tr("Game over — {player} wins {more} to {fewer}", player=winner, more=more, fewer=fewer)
    else:
        heading = tr(
            "Move {number} of {total} — {player} to play",
            number=state.turn + 1,
            total=total,
            player=legend.player_name(names, view.to_move),
        )
    if title:
        heading = f"{heading} — {title}"
    if private:
        header(
            canvas, geometry, heading, tr("Your orders — only you can see this"), player_colour(own_seat(view.viewer))
        )
        return
    # Each player's moves left are in the legend, under his name: on a small field the subline has
    # room for the mode alone.
    subline = tr("Mode {mode}: {name} · highlighted: the last move", mode=state.mode, name=tr(MODES[state.mode]))
    header(canvas, geometry, heading, subline)


def _orders(canvas: ImageDraw.ImageDraw, hexes: HexLayout, colour: Colour, orders: Sequence[object]) -> None:
    """The viewer's move as given: a general's walk as arrows from cell to cell, and the cells where
    a fortress would be built ringed in white and his colour."""
    ring = max(4, round(hexes.size * 0.12))
    for order in orders:
        path = (
            order.path
            if isinstance(order, Walk)
            else (order.source, order.target)
            if isinstance(order, WalkBuild)
            else ()
        )
        for source, target in zip(path, path[1:]):
            (x0, y0), (x1, y1) = hexes.center(source), hexes.center(target)
            length = math.hypot(x1 - x0, y1 - y0)
            direction = ((x1 - x0) / length, (y1 - y0) / length)
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            hexboard.block_arrow(canvas, centre, direction, "", round(hexes.size * 0.35), colour, WHITE, INK, WHITE)
        built = order.cell if isinstance(order, Build) else order.target if isinstance(order, WalkBuild) else None
        if built is not None:  # white, then his colour: it shows on his own cells too
            hexboard.hexagon(canvas, hexes, built, None, WHITE, width=ring, inset=hexes.size * 0.04)
            hexboard.hexagon(canvas, hexes, built, None, colour, width=ring, inset=hexes.size * 0.04 + ring)


def _cell(canvas: ImageDraw.ImageDraw, hexes: HexLayout, view: FortressView, cell: Hex) -> None:
    state = view.state
    size = hexes.size
    fill = cell_fill(view, cell)
    x, y = center = hexes.center(cell)
    pieces.solid(canvas, center, hexboard.outline(size, center), _face, size, fill, cell.label, state.owners.get(cell))
    middle = (x, y - size * 0.08)
    terrain = state.terrain[cell]
    if terrain == WATER:
        _symbol(canvas, middle, _waves, size * 0.5, WHITE if cell in state.owners else mix(WATER_COLOUR, INK, 0.5))
    elif terrain == MOUNTAIN:
        _symbol(canvas, middle, _peak, size * 0.5)
    if cell in state.cities:
        _symbol(canvas, middle, _city, size * 0.46)
    elif cell in state.fortresses:
        _symbol(canvas, middle, _fortress, size * 0.5, player_colour(state.fortresses[cell]), state.fortresses[cell])
    if cell in state.generals:
        seat = state.generals[cell]
        _symbol(canvas, (x, y + size * 0.05), _general, size * 0.3, seat, player_colour(seat))


def _label_size(size: float) -> int:
    return round(size * 0.26)


def label_size(view: FortressView) -> int:
    """The text size of the cell labels orders name, as this view's board draws them."""
    return _label_size(layout(view).hexes.size)


def _face(canvas: ImageDraw.ImageDraw, center: Point, size: float, fill: Colour, label: str, owner: int | None) -> None:
    """The tile, its label and its owner's mark (at the upper right, clear of the symbols, the label
    and :func:`fill_point`); kept cut from the board (:func:`pieces.solid`), the symbols on it as
    pieces of their own."""
    x, y = center
    hexboard.hexagon(canvas, HexLayout(size, center), Hex(0, 0), fill, OUTLINE, width=max(2, round(size / 22)))
    text.draw(canvas, (x, y + size * 0.66), label, _label_size(size), ink_on(fill), anchor="ms", spelled=True)
    if owner is not None:
        shapes.mark(canvas, (x + size * 0.55, y - size * 0.35), owner, size * 0.15, WHITE)


def _symbol(canvas: ImageDraw.ImageDraw, center: Point, paint: pieces.Paint, size: float, *args: object) -> None:
    """A symbol of ``size`` (it keeps within about that far of its centre), drawn once per look and kept."""
    pieces.draw(canvas, center, math.ceil(size * 1.25) + 4, paint, size, *args)


def _waves(canvas: ImageDraw.ImageDraw, center: Point, size: float, colour: Colour) -> None:
    x, y = center
    for row in (-0.3, 0.05, 0.4):
        points = [
            (x - size * 0.7 + i * size * 0.14, y + row * size + math.sin(i * 1.2) * size * 0.1) for i in range(11)
        ]
        canvas.line(points, fill=colour, width=max(2, round(size / 9)))


def _peak(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    x, y = center
    shapes.polygon(
        canvas,
        [
            (x - size * 0.8, y + size * 0.5),
            (x - size * 0.15, y - size * 0.6),
            (x + size * 0.2, y - size * 0.05),
            (x + size * 0.4, y - size * 0.35),
            (x + size * 0.85, y + size * 0.5),
        ],
        mix(MOUNTAIN_COLOUR, INK, 0.35),
        WHITE,
        max(1, round(size / 12)),
    )
    canvas.polygon(
        [(x - size * 0.33, y - size * 0.32), (x - size * 0.15, y - size * 0.6), (x + size * 0.02, y - size * 0.32)],
        fill=WHITE,
    )


def _city(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """A five-pointed star: the city, which never changes hands."""
    x, y = center
    points = []
    for i in range(10):
        radius = size if i % 2 == 0 else size * 0.45
        angle = math.radians(-90 + i * 36)
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    shapes.polygon(canvas, points, WHITE, INK, max(2, round(size / 10)))


def _fortress(canvas: ImageDraw.ImageDraw, center: Point, size: float, builder: Colour, seat: int | None) -> None:
    """A small castle with battlements, in the colour of the player who built it and with his mark
    on its wall; the legend's castle, nobody's, has a door there."""
    x, y = center
    w, h = size * 0.8, size * 0.55
    top = y - h / 2
    merlon = w * 2 / 5
    outline = [(x - w, y + h), (x - w, top - h * 0.5)]
    for i in range(5):
        left = x - w + i * merlon
        up = top - h * 0.5 if i % 2 == 0 else top
        outline += [(left, up), (left + merlon, up)]
    outline += [(x + w, top - h * 0.5), (x + w, y + h)]
    shapes.polygon(canvas, outline, mix(builder, INK, 0.25), WHITE, max(2, round(size / 9)))
    if seat is None:
        canvas.rectangle((x - w * 0.22, y + h * 0.15, x + w * 0.22, y + h), fill=INK)
    else:
        shapes.mark(canvas, (x, y + h * 0.3), seat, h * 0.62, WHITE)


def _general(canvas: ImageDraw.ImageDraw, center: Point, radius: float, seat: int, colour: Colour) -> None:
    """A "G" on his player's mark, in ``colour``."""
    shapes.mark(canvas, center, seat, radius * 1.16, colour)
    text.draw(canvas, center, "G", round(radius * 1.2), WHITE, bold=True, anchor="mm")


def territory_text(view: FortressView, seat: int) -> str:
    """A seat's count in the legend: "12 cells", and seat 0's komi beside it ("12 cells + 4 komi")."""
    return legend.with_komi(ntr("{n} cell", "{n} cells", view.territory[seat]), view.state.komi_of(seat))


def entries(view: FortressView, names: Sequence[str]) -> list[legend.Entry]:
    entries = []
    for seat in (0, 1):
        standing = view.state.players[seat]
        cells = territory_text(view, seat)
        moves = ntr("{n} move left", "{n} moves left", view.moves_left[seat])
        detail = f"{cells} · {moves}"
        if not standing.playing:
            detail = tr("out ({reason}) · {detail}", reason=legend.departure(standing), detail=detail)
        elif view.to_move == seat:
            detail = tr("to play · {detail}", detail=detail)
        name = legend.player_name(names, seat, view.viewer)
        entries.append(legend.Entry(seat, name, detail, standing.playing))
    return entries


def _icon(draw_symbol) -> legend.Icon:
    def icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
        hexboard.hexagon(canvas, HexLayout(size * 0.5, center), Hex(0, 0), NEUTRAL, OUTLINE, width=2)
        draw_symbol(canvas, center, size * 0.26)

    return icon


def _last_icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    hexboard.hexagon(canvas, HexLayout(size * 0.5, center), Hex(0, 0), NEUTRAL, HIGHLIGHT, width=4)


CITY = legend.Key(mark("city"), _icon(_city))
FORTRESS = legend.Key(mark("fortress"), _icon(lambda c, p, s: _fortress(c, p, s, (120, 120, 120), None)))
GENERAL = legend.Key(mark("general"), _icon(lambda c, p, s: _general(c, p, s * 0.7, 0, (120, 120, 120))))
WATER_KEY = legend.Key(mark("water"), _icon(lambda c, p, s: _waves(c, p, s, WATER_COLOUR)))
MOUNTAIN_KEY = legend.Key(mark("mountain"), _icon(_peak))
LAST_MOVE = legend.Key(mark("last move"), _last_icon)


def keys(view: FortressView) -> tuple[legend.Key, ...]:
    """The legend's symbols: those on the board now (a field without water has no water to explain)."""
    state = view.state
    kinds = set(state.terrain.values())
    shown = (
        (CITY, True),
        (FORTRESS, bool(state.fortresses)),
        (GENERAL, bool(state.generals)),
        (WATER_KEY, WATER in kinds),
        (MOUNTAIN_KEY, MOUNTAIN in kinds),
        (LAST_MOVE, bool(state.last)),
    )
    return tuple(key for key, present in shown if present)


def spots(view: FortressView) -> dict[str, Point]:
    """Each cell's label, as orders name it, and the pixel at its middle (for close-ups)."""
    hexes = layout(view).hexes
    return {cell.label: hexes.center(cell) for cell in _in_order(view.state.terrain)}


def touched(view: FortressView) -> list[str]:
    """The cells the last move changed, by label."""
    return [cell.label for cell in view.state.last]
