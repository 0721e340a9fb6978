"""The gra board: nodes in their owner's colour and mark with soldier counts, spawning soldiers as a badge,
edges inside one player's land drawn in his colour, last turn's moves and fights, and private views
of one player's picks or programmed orders.

:func:`fill_point` gives a pixel of a node that always shows its owner's (or neutral) colour.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.gra.orders import Create, Keep, Move, Pick
from engine.gra.state import GraView, Phase
from engine.i18n import joined, map_title, mark, ntr, tr
from render import hexboard, legend, pieces, shapes, text
from render.frame import BOARD_BOX, HEADER, MARGIN, MIN_WIDTH, canvas_for, draw_legend, header, own_seat
from render.hexboard import Point
from render.style import BACKGROUND, INK, MUTED, NEUTRAL, WHITE, ink_on, mix, player_colour
from render.text import Colour

VIEW = GraView  # what ``draw`` draws: this ruleset's view

SPAWN: Colour = (255, 214, 0)
EDGE: Colour = (150, 150, 156)
PHASE_WORDS = {
    Phase.NEGOTIATE: mark("choosing start nodes"),
    Phase.MOVE: mark("move phase"),
    Phase.CREATE: mark("creating phase"),
    Phase.SPLIT: mark("split territory: choose the part to keep"),
}


@dataclass(frozen=True, slots=True)
class GraphFrame:
    scale: float
    origin: Point
    radius: float
    width: int
    height: int
    legend_top: int

    def at(self, position: tuple[float, float]) -> Point:
        return self.origin[0] + position[0] * self.scale, self.origin[1] + position[1] * self.scale


def layout(view: GraView) -> GraphFrame:
    """Node positions scaled to a phone-friendly width; depends on the map alone."""
    graph = view.state.graph
    xs, ys = [p[0] for p in graph.positions], [p[1] for p in graph.positions]
    span_x, span_y = max(xs) - min(xs) or 1.0, max(ys) - min(ys) or 1.0
    shortest = min(math.dist(graph.positions[a - 1], graph.positions[b - 1]) for a, b in graph.edges) or 1.0
    pad = 40.0
    scale = min((BOARD_BOX - 2 * pad) / span_x, (BOARD_BOX - 2 * pad) / span_y, 220.0 / shortest)
    radius = max(13.0, min(30.0, shortest * scale * 0.32))
    board_w, board_h = span_x * scale + 2 * pad, span_y * scale + 2 * pad
    width = max(MIN_WIDTH, round(board_w) + 2 * MARGIN)
    origin = ((width - board_w) / 2 + pad - min(xs) * scale, MARGIN + HEADER + pad - min(ys) * scale)
    legend_top = round(MARGIN + HEADER + board_h + MARGIN)
    height = legend_top + legend.height(len(view.state.players), KEYS, width - 2 * MARGIN) + MARGIN
    return GraphFrame(scale, origin, radius, width, height, legend_top)


def fill_point(view: GraView, node: int) -> tuple[int, int]:
    frame = layout(view)
    x, y = frame.at(view.state.graph.positions[node - 1])
    return round(x), round(y - frame.radius * 0.72)


def node_fill(view: GraView, node: int) -> Colour:
    owner = view.state.owners.get(node)
    return NEUTRAL if owner is None else player_colour(owner)


def draw(view: GraView, names: Sequence[str], orders: Sequence[object], title: str | None) -> Image.Image:
    state = view.state
    if len(names) != len(state.players):
        raise ValueError(f"names has {len(names)} entries; this game has {len(state.players)} players")
    if orders and view.viewer is None:
        raise ValueError("orders are private: render them with the view of the player who gave them")
    frame = layout(view)
    image, canvas = canvas_for(frame)
    _header(canvas, view, frame, names, title, bool(orders))
    _edges(canvas, view, frame)
    if not orders:
        _last_turn(canvas, view, frame)
    for node in state.graph.nodes:
        _node(canvas, view, frame, node)
    if orders:
        _private(canvas, view, frame, orders)
    for node in state.graph.nodes:  # on top of the pick rings: players type these numbers
        _number(canvas, frame, state.graph.positions[node - 1], node)
    draw_legend(canvas, frame, entries(view, names, bool(orders)), KEYS)
    return image


def _header(
    canvas: ImageDraw.ImageDraw,
    view: GraView,
    frame: GraphFrame,
    names: Sequence[str],
    title: str | None,
    private: bool,
) -> None:
    state = view.state
    heading = (
        tr("Game over")
        if state.over
        else tr("Turn {number} — {phase}", number=state.turn + 1, phase=tr(PHASE_WORDS[state.phase]))
    )
    if title:
        heading = f"{heading} — {title}"
    if private:
        header(canvas, frame, heading, tr("Your orders — only you can see this"), player_colour(own_seat(view.viewer)))
        return
    waiting = joined(
        text.drawable(names[s]).strip() or tr("Player {number}", number=s + 1) for s in sorted(view.acting)
    )
    sub = tr("Playing now: {players}", players=waiting) if waiting and not state.over else ""
    sub = tr("Final position") if state.over else sub
    rest = tr("arrows: last move phase · map {map}", map=map_title(state.graph.name))
    header(canvas, frame, heading, f"{sub} · {rest}" if sub else rest)


def _edges(canvas: ImageDraw.ImageDraw, view: GraView, frame: GraphFrame) -> None:
    state = view.state
    for a, b in sorted(state.graph.edges):
        pa, pb = frame.at(state.graph.positions[a - 1]), frame.at(state.graph.positions[b - 1])
        owner = state.owners.get(a)
        if owner is not None and owner == state.owners.get(b):
            canvas.line((pa, pb), fill=mix(player_colour(owner), WHITE, 0.25), width=max(5, round(frame.radius / 3)))
        else:
            canvas.line((pa, pb), fill=EDGE, width=max(3, round(frame.radius / 7)))


def _node(canvas: ImageDraw.ImageDraw, view: GraView, frame: GraphFrame, node: int) -> None:
    state = view.state
    x, y = frame.at(state.graph.positions[node - 1])
    r = frame.radius
    fill = node_fill(view, node)
    canvas.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=max(2, round(r / 10)))
    owner = state.owners.get(node)
    if owner is not None:  # on the rim at the upper left, clear of the soldiers, the badge and the number
        shapes.draw_mark(canvas, (x - r * 0.8, y - r * 0.8), owner, r * 0.42, WHITE)
    army = state.ready.get(node)
    if army:
        text.draw(
            canvas,
            (x, y + r * 0.12),
            str(army[1]),
            round(r * 1.0),
            WHITE,
            bold=True,
            anchor="mm",
            stroke=max(2, round(r / 9)),
            stroke_fill=INK,
        )
    spawning = state.spawning.get(node)
    if spawning:
        hexboard.pill(canvas, (x + r * 0.85, y + r * 0.75), f"+{spawning[1]}", round(r * 0.55), SPAWN, INK, INK)


def _label_size(radius: float) -> int:
    return round(max(13, radius * 0.58))


def label_size(view: GraView) -> int:
    """The text size of the node numbers orders name, as this view's board draws them."""
    return _label_size(layout(view).radius)


def _number(canvas: ImageDraw.ImageDraw, frame: GraphFrame, position: tuple[float, float], node: int) -> None:
    """The node's number at its lower left, ringed in the background colour so that an edge or a
    pick ring under it never hides a digit ("22" read as "2")."""
    (x, y), r = frame.at(position), frame.radius
    text.draw(
        canvas,
        (x - r * 0.95, y + r * 1.05),
        str(node),
        _label_size(r),
        ink_on(BACKGROUND),
        bold=True,
        anchor="mm",
        stroke=max(2, round(r / 12)),
        stroke_fill=BACKGROUND,
        spelled=True,
    )


def _last_turn(canvas: ImageDraw.ImageDraw, view: GraView, frame: GraphFrame) -> None:
    positions = view.state.graph.positions
    for trace in view.state.last:
        if trace.kind == "move":
            a, b = trace.nodes
            colour = NEUTRAL if trace.seat is None else player_colour(trace.seat)
            _arrow(canvas, frame, positions[a - 1], positions[b - 1], str(trace.soldiers), colour, WHITE)
        elif trace.kind == "edge_fight":
            a, b = trace.nodes
            size = frame.radius * 0.55
            pieces.draw(
                canvas, _between(frame, positions[a - 1], positions[b - 1], 0.5), math.ceil(size) + 3, _burst, size
            )
        else:
            x, y = frame.at(positions[trace.nodes[0] - 1])
            r = frame.radius * 1.3
            canvas.ellipse((x - r, y - r, x + r, y + r), outline=(220, 30, 30), width=max(3, round(r / 8)))


def _between(frame: GraphFrame, a: tuple[float, float], b: tuple[float, float], t: float) -> Point:
    (x0, y0), (x1, y1) = frame.at(a), frame.at(b)
    return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t


def _arrow(canvas: ImageDraw.ImageDraw, frame: GraphFrame, a, b, label: str, fill: Colour, ink: Colour) -> None:
    (x0, y0), (x1, y1) = frame.at(a), frame.at(b)
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    direction = ((x1 - x0) / length, (y1 - y0) / length)
    # Edges point every way and carry any number, so an arrow seldom recurs: not worth keeping.
    hexboard.block_arrow(
        canvas,
        _between(frame, a, b, 0.55),
        direction,
        label,
        round(frame.radius * 0.62),
        fill,
        ink,
        INK,
        WHITE,
        keep=False,
    )


def _burst(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    """A red star where armies fought on an edge."""
    x, y = center
    points = [
        (
            x + (size if i % 2 == 0 else size * 0.45) * math.cos(math.radians(i * 30)),
            y + (size if i % 2 == 0 else size * 0.45) * math.sin(math.radians(i * 30)),
        )
        for i in range(12)
    ]
    shapes.polygon(canvas, points, (220, 30, 30), WHITE, 2)


def _private(canvas: ImageDraw.ImageDraw, view: GraView, frame: GraphFrame, orders: Sequence[object]) -> None:
    positions = view.state.graph.positions
    colour = player_colour(own_seat(view.viewer))
    created: dict[int, int] = defaultdict(int)
    for order in orders:
        if isinstance(order, Move):
            _arrow(
                canvas, frame, positions[order.source - 1], positions[order.target - 1], str(order.soldiers), WHITE, INK
            )
        elif isinstance(order, Create):
            for node in order.nodes:
                created[node] += 1
        elif isinstance(order, (Pick, Keep)):
            for node in order.nodes if isinstance(order, Pick) else (order.node,):
                x, y = frame.at(positions[node - 1])
                r = frame.radius * 1.35
                canvas.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(4, round(r / 6)))
    for node, number in created.items():
        x, y = frame.at(positions[node - 1])
        hexboard.pill(
            canvas,
            (x + frame.radius * 0.85, y - frame.radius * 0.8),
            f"new {number}",
            round(frame.radius * 0.62),
            WHITE,
            INK,
            colour,
        )


def entries(view: GraView, names: Sequence[str], private: bool = False) -> list[legend.Entry]:
    state = view.state
    entries = []
    for seat, standing in enumerate(state.players):
        name = legend.player_name(names, seat, view.viewer if private else None)
        ready = state.ready_soldiers(seat)
        waiting = state.soldiers(seat) - ready
        soldiers = tr("{ready} ready", ready=ready)
        if waiting:
            soldiers = tr("{ready} ready + {spawning} spawning", ready=ready, spawning=waiting)
        nodes = ntr("{n} node", "{n} nodes", len(state.territory(seat)))
        detail = tr("{nodes} · {soldiers} · cap {cap}", nodes=nodes, soldiers=soldiers, cap=state.cap(seat))
        if not standing.playing:
            detail = tr("out ({reason})", reason=legend.departure(standing))
        entries.append(legend.Entry(seat, name, detail, standing.playing))
    return entries


def _spawn_icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    hexboard.pill(canvas, center, "+2", round(size * 0.4), SPAWN, INK, INK)


def _move_icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    hexboard.block_arrow(canvas, center, (1.0, 0.0), "3", round(size * 0.42), MUTED, WHITE, INK, WHITE)


def _fight_icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    _burst(canvas, center, size * 0.4)


KEYS = (
    legend.Key(mark("spawning soldiers"), _spawn_icon),
    legend.Key(mark("moved last turn"), _move_icon),
    legend.Key(mark("fight on an edge"), _fight_icon),
)


def spots(view: GraView) -> dict[str, Point]:
    """Each node's number, as orders name it, and the pixel at its middle (for close-ups)."""
    frame, positions = layout(view), view.state.graph.positions
    return {str(node): frame.at(positions[node - 1]) for node in view.state.graph.nodes}


def touched(view: GraView) -> list[str]:
    """The nodes last move phase's moves and fights touched, by number."""
    return list(dict.fromkeys(str(node) for trace in view.state.last for node in trace.nodes))
