"""The conquest board: owned cells in their player's colour and mark, unit counts, cell types, last
round's moves, standing auto-moves and, for one player's eyes only, his programmed orders.

The layout depends on the map alone (never on orders), so a test or a caller can ask
:func:`cell_center` where a cell is drawn.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.conquest.board import CellType
from engine.conquest.orders import Auto, Move, StopAuto
from engine.conquest.state import CellView, ConquestView
from engine.hexgrid import Hex
from engine.i18n import map_title, mark, ntr, tr
from render import hexboard, legend, pieces, shapes, text
from render.frame import Frame, canvas_for, draw_legend, frame_for, header, own_seat
from render.hexboard import HexLayout, Point
from render.style import INK, MUTED, NEUTRAL, WHITE, ink_on, mix, player_colour
from render.text import Colour

VIEW = ConquestView  # what ``draw`` draws: this ruleset's view

METAL: dict[CellType, Colour] = {
    CellType.BRONZE: (196, 122, 58),
    CellType.SILVER: (170, 186, 204),
    CellType.GOLD: (250, 200, 40),
}
OUTLINE: Colour = (70, 70, 76)

# How far, in hex circumradii, an arrow keeps to its right when the opposite arrow is drawn too.
LANE = 0.25


def layout(view: ConquestView) -> Frame:
    """Image size and cell positions for this map (the same for every viewer and any orders)."""
    return frame_for((c.cell for c in view.cells), len(view.players), KEYS)


def cell_center(view: ConquestView, cell: Hex) -> tuple[int, int]:
    """The pixel at the middle of ``cell``; it always shows the cell's owner (or neutral) colour."""
    x, y = layout(view).hexes.center(cell)
    return round(x), round(y)


def draw(view: ConquestView, names: Sequence[str], orders: Sequence[object], title: str | None) -> Image.Image:
    """The board as an RGB image; ``orders`` given means the viewer's private image."""
    if len(names) != len(view.players):
        raise ValueError(f"names has {len(names)} entries; this game has {len(view.players)} players")
    if orders and view.viewer is None:
        raise ValueError("orders are private: render them with the view of the player who gave them")
    geometry = layout(view)
    image, canvas = canvas_for(geometry)
    private = bool(orders)
    _header(canvas, view, geometry, title, private)
    hexes = geometry.hexes
    for cell in view.cells:
        _cell(canvas, hexes, cell)
    _draw_flows(canvas, hexes, private_flows(view, orders) if private else public_flows(view))
    draw_legend(canvas, geometry, entries(view, names, private), KEYS)
    return image


def _header(canvas: ImageDraw.ImageDraw, view: ConquestView, geometry: Frame, title: str | None, private: bool) -> None:
    if view.over:
        heading = tr("Game over after round {number}", number=view.round - 1)
    elif view.round_limit:
        heading = tr("Round {number} of {limit}", number=view.round, limit=view.round_limit)
    else:
        heading = tr("Round {number}", number=view.round)
    if title:
        heading = f"{heading} — {title}"
    if private:
        header(
            canvas, geometry, heading, tr("Your orders — only you can see this"), player_colour(own_seat(view.viewer))
        )
        return
    if view.over:
        status = tr("Final position")
    elif view.last_moves:
        status = tr("Arrows show last round's moves")
    else:
        status = tr("Starting position") if view.round == 1 else tr("Nobody moved last round")
    header(canvas, geometry, heading, tr("{status} · map {map}", status=status, map=map_title(view.map_name)))


def _cell(canvas: ImageDraw.ImageDraw, hexes: HexLayout, cell: CellView) -> None:
    """The unit count just above the centre (so the centre pixel always shows the owner's colour),
    the label just below it, and the production badge of a better cell at the bottom. Arrows cross
    the edges, around this column, and rarely hide any of it. The face is kept cut from the board
    (:func:`pieces.solid`): every cell has a look of its own (its label)."""
    size = hexes.size
    fill = NEUTRAL if cell.owner is None else player_colour(cell.owner)
    x, y = center = hexes.center(cell.cell)
    pieces.solid(canvas, center, hexboard.outline(size, center), _face, size, fill, cell.type, cell.label, cell.owner)
    if cell.owner is not None or cell.units:
        digits = str(cell.units)
        big = round(size * 0.52)
        big = min(big, int(big * size * 0.85 / text.width(digits, big, bold=True)))
        stroke = max(2, round(size / 18)) if cell.owner is not None else 0
        baseline = (x, y - size * 0.08 - stroke - 1.5)
        text.draw(
            canvas,
            baseline,
            digits,
            big,
            WHITE if stroke else INK,
            bold=True,
            anchor="ms",
            stroke=stroke,
            stroke_fill=INK,
        )


def _face(
    canvas: ImageDraw.ImageDraw, center: Point, size: float, fill: Colour, kind: CellType, label: str, owner: int | None
) -> None:
    """All of a cell but its units. The owner's mark sits in the top corner, clear of the units and
    the label."""
    x, y = center
    _tile(canvas, HexLayout(size, center), Hex(0, 0), fill, kind)
    if owner is not None:
        shapes.mark(canvas, (x, y - size * 0.75), owner, size * 0.16, WHITE)
    text.draw(canvas, (x, y + size * 0.30), label, _label_size(size), ink_on(fill), anchor="ms", spelled=True)
    if kind in METAL:
        hexboard.pill(
            canvas, (x, y + size * 0.56), f"+{kind.production}", round(size * 0.26), METAL[kind], INK, OUTLINE
        )


def _label_size(size: float) -> int:
    return round(size * 0.27)


def label_size(view: ConquestView) -> int:
    """The text size of the cell labels orders name, as this view's board draws them."""
    return _label_size(layout(view).hexes.size)


def _tile(canvas: ImageDraw.ImageDraw, hexes: HexLayout, cell: Hex, fill: Colour, kind: CellType) -> None:
    """A filled hex; better cells get a metal ring inside the border, visible at a glance."""
    size = hexes.size
    hexboard.hexagon(canvas, hexes, cell, fill, OUTLINE, width=max(2, round(size / 22)))
    if kind in METAL:
        # The ring and its thin dark edges, as nested hexes filled in turn.
        ring = max(3, round(size * 0.11))
        hexboard.hexagon(canvas, hexes, cell, METAL[kind], OUTLINE, inset=size * 0.05)
        hexboard.hexagon(canvas, hexes, cell, fill, OUTLINE, inset=size * 0.05 + 1 + ring)


@dataclass(frozen=True, slots=True)
class Flow:
    """One arrow: units that moved, a standing auto-move (``standing``: drawn like a fast-forward
    sign), or an order. ``weight`` 0 is faint background, 1 public, 2 the viewer's own orders."""

    source: Hex
    target: Hex
    seat: int
    label: str | None
    standing: bool
    weight: int


def public_flows(view: ConquestView) -> list[Flow]:
    """Last round's moves, one arrow per edge and direction. A move an auto-move made is drawn like
    any other: that it will go on moving is a plan, and plans are secret. Edges are looked up by
    their cells' coordinates, which hash far faster than the cells."""
    ends: dict[tuple[int, int, int, int], tuple[Hex, Hex]] = {}
    moved: dict[tuple[int, int, int, int], int] = defaultdict(int)
    movers: dict[tuple[int, int, int, int], int] = {}
    for trace in view.last_moves:
        edge = (trace.source, trace.target)
        key = _edge_order(edge)
        ends[key] = edge
        moved[key] += trace.units
        movers[key] = trace.seat
    return [Flow(*ends[key], movers[key], str(moved[key]), False, 1) for key in sorted(ends)]


def private_flows(view: ConquestView, orders: Sequence[object]) -> list[Flow]:
    """The viewer's orders in bold over a faint last round; his standing auto-moves stay visible
    unless an order replaces or stops them (the view holds no one else's)."""
    seat = own_seat(view.viewer)
    moved: dict[tuple[Hex, Hex], int] = defaultdict(int)
    for order in orders:
        if isinstance(order, Move):
            moved[order.source, order.target] += order.units
    new_autos = {(o.source, o.target) for o in orders if isinstance(o, Auto)}
    stopped = {o.source for o in orders if isinstance(o, StopAuto)}
    replaced = stopped | {source for source, _ in new_autos}
    movers = {(t.source, t.target): t.seat for t in view.last_moves}
    background = [Flow(*edge, seat, None, False, 0) for edge, seat in sorted(movers.items(), key=_item_order)]
    flows: dict[tuple[Hex, Hex], Flow] = {}
    for cell in view.cells:
        if cell.auto is None or cell.owner != seat:
            continue
        edge = (cell.cell, cell.auto)
        if cell.cell not in replaced:
            flows[edge] = Flow(*edge, seat, None, True, 1)
        elif cell.cell in stopped:
            flows[edge] = Flow(*edge, seat, "×", True, 2)
    own_autos = new_autos | {edge for edge, f in flows.items() if f.seat == seat and f.label is None}
    for edge in sorted(set(moved) | new_autos, key=_edge_order):
        label = str(moved[edge]) if edge in moved else None
        flows[edge] = Flow(*edge, seat, label, edge in own_autos, 2)
    return background + [flows[edge] for edge in sorted(flows, key=_edge_order)]


def _edge_order(edge: tuple[Hex, Hex]) -> tuple[int, int, int, int]:
    """The cells' coordinates: sorts edges as comparing the cells would, in a fraction of the time."""
    source, target = edge
    return source.q, source.r, target.q, target.r


def _item_order(item: tuple[tuple[Hex, Hex], int]) -> tuple[int, int, int, int]:
    return _edge_order(item[0])


def _draw_flows(canvas: ImageDraw.ImageDraw, hexes: HexLayout, flows: Sequence[Flow]) -> None:
    """Arrows sit across the shared edge; when both directions of an edge are drawn, each keeps to
    its right so neither hides the other."""
    size = hexes.size
    edges = {_edge_order((f.source, f.target)) for f in flows}
    for flow in flows:
        lane = LANE * size if _edge_order((flow.target, flow.source)) in edges else 0.0
        direction = hexes.direction(flow.source, flow.target)
        where = hexes.along(flow.source, flow.target, 0.5, lane)
        colour = player_colour(flow.seat)
        if flow.weight == 0:
            hexboard.block_arrow(
                canvas,
                where,
                direction,
                "",
                round(size * 0.2),
                mix(colour, WHITE, 0.3),
                WHITE,
                mix(INK, WHITE, 0.4),
                mix(WHITE, INK, 0.05),
                flow.standing,
            )
        elif flow.weight == 1:
            hexboard.block_arrow(
                canvas, where, direction, flow.label or "", round(size * 0.3), colour, WHITE, INK, WHITE, flow.standing
            )
        else:
            hexboard.block_arrow(
                canvas, where, direction, flow.label or "", round(size * 0.31), WHITE, INK, INK, colour, flow.standing
            )


def entries(view: ConquestView, names: Sequence[str], private: bool = False) -> list[legend.Entry]:
    cells: dict[int, int] = defaultdict(int)
    units: dict[int, int] = defaultdict(int)
    production: dict[int, int] = defaultdict(int)
    for cell in view.cells:
        if cell.owner is not None:
            cells[cell.owner] += 1
            units[cell.owner] += cell.units
            production[cell.owner] += cell.type.production
    entries = []
    for seat, player in enumerate(view.players):
        name = legend.player_name(names, seat, view.viewer if private else None)
        held, strength = ntr("{n} cell", "{n} cells", cells[seat]), ntr("{n} unit", "{n} units", units[seat])
        holdings = f"{held} · {strength}"
        if player.playing:
            detail = tr("{holdings} · +{production} per round", holdings=holdings, production=production[seat])
        else:
            detail = f"{tr(player.status)} · {holdings}"
        entries.append(legend.Entry(seat, name, detail, player.playing))
    return entries


def _type_icon(kind: CellType) -> legend.Icon:
    def icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
        _tile(canvas, HexLayout(size * 0.5, center), Hex(0, 0), NEUTRAL, kind)

    return icon


def _move_icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    hexboard.block_arrow(canvas, center, (1.0, 0.0), "3", round(size * 0.42), MUTED, WHITE, INK, WHITE)


def _auto_icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    hexboard.block_arrow(canvas, center, (1.0, 0.0), "", round(size * 0.36), MUTED, WHITE, INK, WHITE, standing=True)


CELL_WORDS = {
    CellType.NORMAL: mark("normal +{production}"),
    CellType.BRONZE: mark("bronze +{production}"),
    CellType.SILVER: mark("silver +{production}"),
    CellType.GOLD: mark("gold +{production}"),
}


KEYS = (
    *(legend.Key(CELL_WORDS[kind], _type_icon(kind), (("production", kind.production),)) for kind in CellType),
    legend.Key(mark("moved last round"), _move_icon),
    legend.Key(mark("standing auto-move"), _auto_icon),
)


def spots(view: ConquestView) -> dict[str, Point]:
    """Each cell's label, as orders name it, and the pixel at its middle (for close-ups)."""
    hexes = layout(view).hexes
    return {cell.label: hexes.center(cell.cell) for cell in view.cells}


def touched(view: ConquestView) -> list[str]:
    """The cells last round's moves left or reached, by label."""
    labels = {cell.cell: cell.label for cell in view.cells}
    return list(dict.fromkeys(labels[end] for trace in view.last_moves for end in (trace.source, trace.target)))
