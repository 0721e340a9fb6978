"""The ranks board: cities, NPC tracks and NPCs, capitals, every army with its rank as a shape and a
letter (pawn ●P, archer ◆A, knight ▲K, tank ■T) and its player's mark, exp pools in the legend, and the last turn's
moves (arrows) and captures (red crosses); a private image draws the viewer's orders being composed.

The layout depends on the board alone, so :func:`layout` and :func:`fill_point` tell a test where
each cell's own colour shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.i18n import map_title, mark, ntr, tr
from engine.ranks.board import RanksMap
from engine.ranks.orders import Blast, Move, Spawn, Upgrade
from engine.ranks.state import ARCHER, KNIGHT, PAWN, TANK, RanksView
from engine.squaregrid import Square
from render import hexboard, legend, pieces, shapes, text
from render.frame import HEADER, MARGIN, MIN_WIDTH, canvas_for, draw_legend, header, own_seat
from render.style import INK, NEUTRAL, WHITE, ink_on, mix, player_colour
from render.text import Colour

VIEW = RanksView  # what ``draw`` draws: this ruleset's view

BOARD_BOX = 1180
SMALLEST, LARGEST = 44, 104
CITY: Colour = (242, 178, 168)
TRACK: Colour = (200, 40, 40)
NPC: Colour = (40, 160, 70)
HIGHLIGHT: Colour = (255, 214, 0)
CAPTURE: Colour = (200, 20, 20)
GRID: Colour = (150, 150, 150)
LETTERS = {PAWN: "P", ARCHER: "A", KNIGHT: "K", TANK: "T"}
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the board sits in the image (the frame's ``width``, ``height`` and ``legend_top``)."""

    cell: int
    left: int
    top: int
    width: int
    height: int
    legend_top: int

    def box(self, square: Square) -> tuple[int, int, int, int]:
        x, y = self.left + square.col * self.cell, self.top + square.row * self.cell
        return x, y, x + self.cell, y + self.cell

    def center(self, square: Square) -> Point:
        x0, y0, x1, y1 = self.box(square)
        return (x0 + x1) / 2, (y0 + y1) / 2


def layout(board: RanksMap, players: int) -> Layout:
    side = max(board.grid.width, board.grid.height)
    cell = max(SMALLEST, min(LARGEST, BOARD_BOX // side))
    board_w, board_h = cell * board.grid.width, cell * board.grid.height
    width = max(MIN_WIDTH, board_w + 2 * MARGIN)
    top = MARGIN + HEADER
    legend_top = top + board_h + MARGIN
    height = legend_top + legend.height(players, KEYS, width - 2 * MARGIN) + MARGIN
    return Layout(cell, (width - board_w) // 2, top, width, height, legend_top)


def fill_point(view: RanksView, square: Square) -> tuple[int, int]:
    """A pixel that shows the cell's own fill when no arrow crosses it: top middle, inside the track
    and capital outlines, above any army or NPC."""
    frame = layout(view.state.board, len(view.state.players))
    x0, y0, _, _ = frame.box(square)
    return round(x0 + frame.cell * 0.5), round(y0 + frame.cell * 0.16)


def cell_fill(view: RanksView, square: Square) -> Colour:
    return CITY if view.state.board.city_of(square) else NEUTRAL


def draw(view: RanksView, names: Sequence[str], orders: Sequence[object], title: str | None) -> Image.Image:
    """The board as an RGB image; ``orders`` given means the viewer's private image."""
    state = view.state
    if len(names) != len(state.players):
        raise ValueError(f"names has {len(names)} entries; this game has {len(state.players)} players")
    if orders and view.viewer is None:
        raise ValueError("orders are private: render them with the view of the player who gave them")
    frame = layout(state.board, len(state.players))
    image, canvas = canvas_for(frame)
    _header(canvas, view, frame, names, title, bool(orders))
    for square in state.board.grid.squares():
        _cell(canvas, frame, view, square)
    if orders:
        _orders(canvas, frame, view, orders)
    else:
        _last_turn(canvas, frame, view)
    draw_legend(canvas, frame, entries(view, names), KEYS)
    return image


def _header(
    canvas: ImageDraw.ImageDraw, view: RanksView, frame: Layout, names: Sequence[str], title: str | None, private: bool
) -> None:
    state = view.state
    if view.to_move is None:
        heading = tr("Game over after turn {number}", number=state.turn)
    else:
        heading = tr(
            "Turn {number} of {limit} — {player} to play",
            number=state.turn + 1,
            limit=state.turn_limit,
            player=legend.player_name(names, view.to_move),
        )
    if title:
        heading = f"{heading} — {title}"
    if private:
        header(canvas, frame, heading, tr("Your orders — only you can see this"), player_colour(own_seat(view.viewer)))
        return
    status = tr("Arrows: last turn's moves · red crosses: captures") if state.last else tr("Starting position")
    header(canvas, frame, heading, tr("{status} · map {map}", status=status, map=map_title(state.board.name)))


def _cell(canvas: ImageDraw.ImageDraw, frame: Layout, view: RanksView, square: Square) -> None:
    state = view.state
    size = frame.cell
    x0, y0, x1, y1 = frame.box(square)
    reach = math.ceil(size / 2)  # the marks and pieces stay inside their cell, and are pasted
    fill = cell_fill(view, square)
    canvas.rectangle((x0, y0, x1, y1), fill=fill, outline=GRID, width=1)
    if square in state.board.tracks:
        inset = max(3, size // 14)
        canvas.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=TRACK, width=max(3, size // 16))
    if square in state.board.capitals:
        seat = state.board.capitals.index(square)
        owner = player_colour(seat)
        canvas.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=owner, width=max(4, size // 12))
        pieces.draw(canvas, (x1 - size * 0.2, y0 + size * 0.3), reach, _crown, size * 0.13, owner)
        # under the crown, the mark of the player whose capital it is (an army on it has its own)
        shapes.draw_mark(canvas, (x1 - size * 0.17, y0 + size * 0.42), seat, size * 0.095, WHITE)
    text.draw(canvas, (x0 + size * 0.12, y0 + size * 0.2), square.label, _label_size(size), ink_on(fill), spelled=True)
    center = frame.center(square)
    if square in state.npcs:
        pieces.draw(canvas, (center[0], center[1] + size * 0.05), reach, _disk, size * 0.27, NPC)
    army = state.armies.get(square)
    if army is not None:
        at = (center[0], center[1] + size * 0.05)
        pieces.draw(canvas, at, reach, _army, size * 0.3, army.rank, player_colour(army.seat))
        # its player's mark at its lower left, clear of the crown, the label and a capture's cross
        shapes.draw_mark(canvas, (at[0] - size * 0.28, at[1] + size * 0.27), army.seat, size * 0.095, WHITE)


def _disk(canvas: ImageDraw.ImageDraw, center: Point, radius: float, colour: Colour) -> None:
    x, y = center
    canvas.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=WHITE, width=3)


def _army(canvas: ImageDraw.ImageDraw, center: Point, radius: float, rank: int, colour: Colour) -> None:
    """Each rank its own shape, and its letter: a circle, a diamond, a triangle, a square."""
    x, y = center
    r = radius
    outline, width = INK, max(2, round(r / 9))
    if rank == PAWN:
        canvas.ellipse(
            (x - r * 0.85, y - r * 0.85, x + r * 0.85, y + r * 0.85), fill=colour, outline=outline, width=width
        )
    elif rank == ARCHER:
        canvas.polygon(
            [(x, y - r * 1.1), (x + r * 1.1, y), (x, y + r * 1.1), (x - r * 1.1, y)],
            fill=colour,
            outline=outline,
            width=width,
        )
    elif rank == KNIGHT:
        canvas.polygon(
            [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.85), (x - r * 1.1, y + r * 0.85)],
            fill=colour,
            outline=outline,
            width=width,
        )
    else:
        canvas.rectangle(
            (x - r * 0.95, y - r * 0.95, x + r * 0.95, y + r * 0.95), fill=colour, outline=outline, width=width * 2
        )
    shift = r * 0.22 if rank == KNIGHT else 0.0
    text.draw(
        canvas, (x, y + shift), LETTERS[rank], round(r * 0.95), WHITE, bold=True, anchor="mm", stroke=1, stroke_fill=INK
    )


def _crown(canvas: ImageDraw.ImageDraw, base: Point, size: float, colour: Colour) -> None:
    """The capital's mark, in the colour of the player it belongs to."""
    x, y = base
    points = [(x - size, y), (x - size, y - size), (x - size * 0.5, y - size * 0.5), (x, y - size * 1.2)]
    points += [(x + size * 0.5, y - size * 0.5), (x + size, y - size), (x + size, y)]
    canvas.polygon(points, fill=colour, outline=INK, width=2)


def _arrow(canvas: ImageDraw.ImageDraw, frame: Layout, source: Square, target: Square, fill: Colour) -> None:
    (ax, ay), (bx, by) = frame.center(source), frame.center(target)
    length = math.hypot(bx - ax, by - ay)
    middle = ((ax + bx) / 2, (ay + by) / 2)
    size = max(12, round(frame.cell * 0.26))
    hexboard.block_arrow(canvas, middle, ((bx - ax) / length, (by - ay) / length), "", size, fill, INK, INK, WHITE)


def _cross(canvas: ImageDraw.ImageDraw, frame: Layout, square: Square) -> None:
    """In the cell's lower right corner, clear of the army that took it."""
    _, _, x1, y1 = frame.box(square)
    size, width = frame.cell * 0.24, max(4, frame.cell // 14)
    left, top, right, bottom = x1 - size - 6, y1 - size - 6, x1 - 6, y1 - 6
    canvas.line((left, top, right, bottom), fill=CAPTURE, width=width)
    canvas.line((left, bottom, right, top), fill=CAPTURE, width=width)


def _ring(canvas: ImageDraw.ImageDraw, frame: Layout, square: Square, colour: Colour, around: bool = False) -> None:
    x0, y0, x1, y1 = frame.box(square)
    grow = frame.cell if around else -max(2, frame.cell // 20)
    canvas.rectangle((x0 - grow, y0 - grow, x1 + grow, y1 + grow), outline=colour, width=max(4, frame.cell // 14))


def _last_turn(canvas: ImageDraw.ImageDraw, frame: Layout, view: RanksView) -> None:
    for trace in view.state.last:
        if trace.kind == "capture":
            _cross(canvas, frame, trace.target)
        elif trace.kind in ("spawn", "upgrade"):
            _ring(canvas, frame, trace.target, HIGHLIGHT)
        elif trace.kind == "blast":
            _ring(canvas, frame, trace.target, CAPTURE, around=True)
    for trace in view.state.last:
        if trace.kind in ("move", "npc") and trace.source is not None:
            _arrow(canvas, frame, trace.source, trace.target, NPC if trace.kind == "npc" else HIGHLIGHT)


def _label_size(cell: float) -> int:
    return max(11, round(cell * 0.16))


def label_size(view: RanksView) -> int:
    """The text size of the square labels orders name, as this view's board draws them."""
    return _label_size(layout(view.state.board, len(view.state.players)).cell)


def _orders(canvas: ImageDraw.ImageDraw, frame: Layout, view: RanksView, orders: Sequence[object]) -> None:
    """The viewer's orders as given: arrows, blast areas, spawn cells, and ``+n`` on upgrades."""
    colour = player_colour(own_seat(view.viewer))
    for order in orders:
        if isinstance(order, Move):
            _arrow(canvas, frame, order.source, order.target, mix(colour, WHITE, 0.25))
        elif isinstance(order, Blast):
            _ring(canvas, frame, order.cell, colour, around=True)
        elif isinstance(order, Spawn):
            for cell in order.cells:
                _ring(canvas, frame, cell, colour)
        elif isinstance(order, Upgrade):
            x0, y0, x1, _ = frame.box(order.cell)
            hexboard.pill(
                canvas,
                (x1 - frame.cell * 0.22, y0 + frame.cell * 0.2),
                f"+{order.levels}",
                max(12, frame.cell // 5),
                colour,
                WHITE,
                INK,
            )


def entries(view: RanksView, names: Sequence[str]) -> list[legend.Entry]:
    entries = []
    for seat, standing in enumerate(view.state.players):
        armies = view.armies[seat]
        detail = " · ".join((ntr("{n} army", "{n} armies", armies), tr("{exp} exp", exp=view.state.exp[seat])))
        if not standing.playing:
            detail = tr("out ({reason})", reason=legend.departure(standing))
        elif view.to_move == seat:
            detail = tr("to play · {detail}", detail=detail)
        name = legend.player_name(names, seat, view.viewer)
        entries.append(legend.Entry(seat, name, detail, standing.playing))
    return entries


def _key_cell(fill: Colour, draw_more=None) -> legend.Icon:
    def icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
        x, y = center
        half = size * 0.45
        canvas.rectangle((x - half, y - half, x + half, y + half), fill=fill, outline=GRID, width=1)
        if draw_more:
            draw_more(canvas, center, size)

    return icon


KEYS = (
    legend.Key(mark("city"), _key_cell(CITY)),
    legend.Key(
        mark("track"),
        _key_cell(
            NEUTRAL,
            lambda c, p, s: c.rectangle(
                (p[0] - s * 0.38, p[1] - s * 0.38, p[0] + s * 0.38, p[1] + s * 0.38), outline=TRACK, width=3
            ),
        ),
    ),
    legend.Key(mark("NPC"), _key_cell(NEUTRAL, lambda c, p, s: _disk(c, p, s * 0.3, NPC))),
    legend.Key(
        mark("capital"), _key_cell(CITY, lambda c, p, s: _crown(c, (p[0], p[1] + s * 0.2), s * 0.25, (120, 120, 120)))
    ),
    *(
        legend.Key(name, _key_cell(NEUTRAL, lambda c, p, s, rank=rank: _army(c, p, s * 0.3, rank, (120, 120, 120))))
        for rank, name in (
            (PAWN, mark("pawn")),
            (ARCHER, mark("archer")),
            (KNIGHT, mark("knight")),
            (TANK, mark("tank")),
        )
    ),
    legend.Key(
        mark("capture"),
        _key_cell(
            NEUTRAL,
            lambda c, p, s: c.line(
                (p[0] - s * 0.3, p[1] - s * 0.3, p[0] + s * 0.3, p[1] + s * 0.3), fill=CAPTURE, width=4
            ),
        ),
    ),
)


def spots(view: RanksView) -> dict[str, Point]:
    """Each square's label, as orders name it, and the pixel at its middle (for close-ups)."""
    frame = layout(view.state.board, len(view.state.players))
    return {square.label: frame.center(square) for square in view.state.board.grid.squares()}


def touched(view: RanksView) -> list[str]:
    """The squares the last turn's moves, captures and spawns touched, by label."""
    ends = (end for trace in view.state.last for end in (trace.source, trace.target) if end is not None)
    return list(dict.fromkeys(square.label for square in ends))
