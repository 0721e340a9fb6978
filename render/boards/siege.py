"""The siege board: squares with axis labels and a compass, each owner's colour (a full band around
the square, a pale fill on land, his mark in its corner), rivers, mountains with their level, tokens, capitals, walls,
towers, and the last turn's actions (arrows for tokens that moved or attacked, frames elsewhere).

Row 1 is at the bottom, so north is up and player 0 plays upwards. :func:`fill_point` is a pixel of
a square that always shows its owner's colour, or the terrain (or neutral) colour when unowned.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.i18n import map_title, mark, ntr, tr
from engine.labels import column_letters
from engine.siege.board import adjacency
from engine.siege.orders import Action
from engine.siege.state import ENDINGS, SiegeView
from engine.squaregrid import Square
from render import hexboard, legend, pieces, shapes, text
from render.frame import BOARD_BOX, HEADER, MARGIN, MIN_WIDTH, canvas_for, draw_legend, header, own_seat
from render.hexboard import Point
from render.style import INK, MUTED, NEUTRAL, WHITE, ink_on, mix, player_colour
from render.text import Colour

VIEW = SiegeView  # what ``draw`` draws: this ruleset's view

RIVER: Colour = (96, 196, 204)  # teal, well apart from player 1's blue
MOUNTAIN: Colour = (160, 150, 140)
STONE: Colour = (90, 86, 82)
HIGHLIGHT: Colour = (255, 214, 0)
GRID: Colour = (70, 70, 76)
AXIS = 40  # room for the axis labels on each side of the board
BAND = 0.12  # the owner's band, as a share of the square
COMPASS = 84  # the band above the board that holds the compass


@dataclass(frozen=True, slots=True)
class SquareFrame:
    cell: float
    left: float  # x of column A's left edge
    bottom: float  # y of row 1's bottom edge
    width: int
    height: int
    legend_top: int

    def corner(self, sq: Square) -> Point:
        """The top-left corner of ``sq``."""
        return self.left + sq.col * self.cell, self.bottom - (sq.row + 1) * self.cell

    def center(self, sq: Square) -> Point:
        x, y = self.corner(sq)
        return x + self.cell / 2, y + self.cell / 2


def layout(view: SiegeView) -> SquareFrame:
    """Square positions scaled to a phone-friendly width; they depend on the board size alone."""
    size = view.state.size
    cell = min(96.0, (BOARD_BOX - 2 * AXIS) / size)
    board = cell * size + 2 * AXIS
    width = max(MIN_WIDTH, round(board) + 2 * MARGIN)
    top = MARGIN + HEADER + COMPASS
    legend_top = round(top + board + MARGIN)
    height = legend_top + legend.height(2, KEYS, width - 2 * MARGIN) + MARGIN
    return SquareFrame(cell, (width - board) / 2 + AXIS, top + board - AXIS, width, height, legend_top)


def fill_point(view: SiegeView, sq: Square) -> tuple[int, int]:
    x, y = layout(view).corner(sq)
    return round(x + 5), round(y + 5)


def square_fill(view: SiegeView, sq: Square) -> Colour:
    """The colour at :func:`fill_point`: the owner's, else the terrain's (neutral land is grey)."""
    state = view.state
    if sq in state.owners:
        return player_colour(state.owners[sq])
    return RIVER if sq in state.rivers else MOUNTAIN if sq in state.mountains else NEUTRAL


def draw(view: SiegeView, names: Sequence[str], orders: Sequence[object], title: str | None) -> Image.Image:
    """The board as an RGB image; ``orders`` given (the turn its player is composing) means his
    private image, which draws them, numbered in the order they apply, instead of the last turn."""
    if len(names) != 2:
        raise ValueError(f"names has {len(names)} entries; siege has 2 players")
    if orders and view.viewer is None:
        raise ValueError("orders are private: render them with the view of the player who gave them")
    frame = layout(view)
    image, canvas = canvas_for(frame)
    _header(canvas, view, frame, names, title, bool(orders))
    _axes(canvas, view, frame)
    for sq in sorted(adjacency(view.state.size)):
        _square(canvas, view, frame, sq)
    if orders:
        _orders(canvas, view, frame, [o for o in orders if isinstance(o, Action) and o.target is not None])
    else:
        _last_turn(canvas, view, frame)
    board_top = frame.bottom - view.state.size * frame.cell
    _compass(canvas, (frame.left + view.state.size * frame.cell - COMPASS / 2, board_top - AXIS - COMPASS / 2), 36)
    draw_legend(canvas, frame, entries(view, names), KEYS)
    return image


def _header(
    canvas: ImageDraw.ImageDraw,
    view: SiegeView,
    frame: SquareFrame,
    names: Sequence[str],
    title: str | None,
    private: bool = False,
):
    state = view.state
    if view.to_move is None:
        heading = tr("Game over — {result}", result=_result(view, names))
    else:
        heading = tr(
            "Turn {number} of {limit} — {player} to play, 6 EP",
            number=state.turn + 1,
            limit=state.turn_limit,
            player=legend.player_name(names, view.to_move),
        )
    if title:
        heading = f"{heading} — {title}"
    if private:
        header(canvas, frame, heading, tr("Your orders — only you can see this"), player_colour(own_seat(view.viewer)))
        return
    rule = tr("one attack clears all") if state.clear_all else tr("attacks remove one layer")
    subline = tr("Map {map} · {rule} · highlighted: the last turn's actions", map=map_title(state.map_name), rule=rule)
    header(canvas, frame, heading, subline)


def _result(view: SiegeView, names: Sequence[str]) -> str:
    """Who won and why: the player left when the other one left or lost his capital, else territory
    (seat 1's with the komi)."""
    players, (a, b) = view.state.players, (view.state.score(0), view.state.score(1))
    gone = [seat for seat in (0, 1) if not players[seat].playing]
    if gone:
        reason = legend.departure(players[gone[0]])
        return tr("{player} wins ({reason})", player=legend.player_name(names, 1 - gone[0]), reason=reason)
    ending = tr(ENDINGS[view.state.ended])
    if a == b:
        return tr("a draw, {count} squares each ({ending})", count=f"{a:g}", ending=ending)
    winner = legend.player_name(names, 0 if a > b else 1)
    more, fewer = f"{max(a, b):g}", f"{min(a, b):g}"
    return tr("{player} wins {more} to {fewer} ({ending})", player=winner, more=more, fewer=fewer, ending=ending)


def _axes(canvas: ImageDraw.ImageDraw, view: SiegeView, frame: SquareFrame) -> None:
    size, cell = view.state.size, frame.cell
    top = frame.bottom - size * cell
    right = frame.left + size * cell
    for i in range(size):
        x = frame.left + (i + 0.5) * cell
        y = frame.bottom - (i + 0.5) * cell
        for where in (frame.bottom + AXIS / 2, top - AXIS / 2):
            text.draw(canvas, (x, where), column_letters(i), 22, MUTED, bold=True, anchor="mm")
        for where in (frame.left - AXIS / 2, right + AXIS / 2):
            text.draw(canvas, (where, y), str(i + 1), 22, MUTED, bold=True, anchor="mm")


def _square(canvas: ImageDraw.ImageDraw, view: SiegeView, frame: SquareFrame, sq: Square) -> None:
    state, cell = view.state, frame.cell
    x, y = frame.corner(sq)
    owner = state.owners.get(sq)
    terrain = RIVER if sq in state.rivers else MOUNTAIN if sq in state.mountains else None
    inner = terrain or (NEUTRAL if owner is None else mix(player_colour(owner), WHITE, 0.55))
    band = BAND * cell
    canvas.rectangle((x, y, x + cell, y + cell), fill=square_fill(view, sq), outline=GRID, width=2)
    canvas.rectangle((x + band, y + band, x + cell - band, y + cell - band), fill=inner)
    middle = (x + cell / 2, y + cell / 2)
    reach = math.ceil(cell / 2)  # the symbols stay inside their square
    if sq in state.rivers:  # every river square shows the same waves, pasted
        pieces.draw(canvas, middle, reach, _waves, cell * 0.34, WHITE)
    elif sq in state.mountains:
        pieces.draw(canvas, (middle[0], middle[1] - cell * 0.08), reach, _peak, cell * 0.3, state.mountains[sq])
    if owner is not None:  # in the lower right corner, clear of the symbols, the label and the frames
        corner = (x + cell - band - cell * 0.135, y + cell - band - cell * 0.135)
        shapes.draw_mark(canvas, corner, owner, cell * 0.07, WHITE)
    if sq in state.capitals:
        seat = state.capitals.index(sq)
        pieces.draw(canvas, middle, reach, _capital, cell * 0.3, player_colour(seat), seat)
    if sq in state.tokens:
        pieces.draw(canvas, middle, reach, _token, cell * 0.2, player_colour(state.tokens[sq]), state.tokens[sq])
    if state.walls.get(sq):
        _walls(canvas, (x + band + cell * 0.2, y + band + cell * 0.1), cell * 0.12, state.walls[sq])
    if sq in state.towers:
        _tower(canvas, (x + cell - band - cell * 0.15, y + band + cell * 0.2), cell * 0.17)
    text.draw(
        canvas,
        (x + band + 2, y + cell - band - 3),
        sq.label,
        _label_size(cell),
        ink_on(inner),
        anchor="ls",
        spelled=True,
    )


def _label_size(cell: float) -> int:
    return round(cell * 0.15)


def label_size(view: SiegeView) -> int:
    """The text size of the square labels orders name, as this view's board draws them."""
    return _label_size(layout(view).cell)


def _last_turn(canvas: ImageDraw.ImageDraw, view: SiegeView, frame: SquareFrame) -> None:
    cell = frame.cell
    inset = BAND * cell + 1  # inside the owner's band, which stays visible
    for action in view.state.last:
        x, y = frame.corner(action.square)
        box = (x + inset, y + inset, x + cell - inset, y + cell - inset)
        canvas.rectangle(box, outline=HIGHLIGHT, width=max(4, round(cell / 16)))
    for action in view.state.last:
        if action.source is not None:
            (x0, y0), (x1, y1) = frame.center(action.source), frame.center(action.square)
            direction = ((x1 - x0) / cell, (y1 - y0) / cell)
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            hexboard.block_arrow(canvas, centre, direction, "", round(cell * 0.3), HIGHLIGHT, INK, INK, WHITE)


def _orders(canvas: ImageDraw.ImageDraw, view: SiegeView, frame: SquareFrame, actions: Sequence[Action]) -> None:
    """The viewer's actions as given: each target framed in his colour and numbered in the order
    they apply, an arrow from the acting token for those that have one."""
    cell, colour = frame.cell, player_colour(own_seat(view.viewer))
    inset = BAND * cell + 1
    for action in actions:
        x, y = frame.corner(action.square)
        canvas.rectangle(
            (x + inset, y + inset, x + cell - inset, y + cell - inset), outline=colour, width=max(4, round(cell / 16))
        )
    for number, action in enumerate(actions, 1):
        if action.source is not None:
            (x0, y0), (x1, y1) = frame.center(action.source), frame.center(action.square)
            direction = ((x1 - x0) / cell, (y1 - y0) / cell)
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            hexboard.block_arrow(canvas, centre, direction, str(number), round(cell * 0.3), colour, WHITE, INK, WHITE)
        else:
            x, y = frame.corner(action.square)
            corner = (x + cell - inset - cell * 0.14, y + inset + cell * 0.14)
            hexboard.pill(canvas, corner, str(number), max(12, round(cell * 0.2)), colour, WHITE, INK)


def _waves(canvas: ImageDraw.ImageDraw, center: Point, size: float, colour: Colour) -> None:
    x, y = center
    for row in (-0.45, 0.0, 0.45):
        points = [(x - size + i * size * 0.2, y + row * size + math.sin(i * 1.3) * size * 0.12) for i in range(11)]
        canvas.line(points, fill=colour, width=max(2, round(size / 8)))


def _peak(canvas: ImageDraw.ImageDraw, center: Point, size: float, level: int) -> None:
    """A mountain, with its level written on it (1 to 3)."""
    x, y = center
    canvas.polygon(
        [(x - size, y + size * 0.7), (x, y - size * 0.8), (x + size, y + size * 0.7)],
        fill=mix(MOUNTAIN, INK, 0.45),
        outline=WHITE,
        width=max(1, round(size / 10)),
    )
    text.draw(canvas, (x, y + size * 0.25), str(level), round(size * 0.8), WHITE, bold=True, anchor="mm")


def _capital(canvas: ImageDraw.ImageDraw, center: Point, radius: float, colour: Colour, seat: int | None) -> None:
    """The capital ring: a thick ring in its player's colour around his mark; the legend's, nobody's,
    around a star."""
    x, y = center
    canvas.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=WHITE, outline=colour, width=round(radius / 3)
    )
    if seat is not None:
        shapes.mark(canvas, center, seat, radius * 0.6, colour)
        return
    points = []
    for i in range(10):
        r = radius * (0.55 if i % 2 == 0 else 0.24)
        angle = math.radians(-90 + i * 36)
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    canvas.polygon(points, fill=colour)


def _token(canvas: ImageDraw.ImageDraw, center: Point, radius: float, colour: Colour, seat: int | None) -> None:
    """A disc in its player's colour with his mark on it; the legend's, nobody's, is plain."""
    x, y = center
    canvas.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=colour, outline=WHITE, width=max(2, round(radius / 4))
    )
    if seat is not None:
        shapes.mark(canvas, center, seat, radius * 0.5, WHITE)


def _walls(canvas: ImageDraw.ImageDraw, center: Point, size: float, walls: int) -> None:
    """One brick bar per wall, stacked down from ``center``."""
    x, y = center
    for i in range(walls):
        top = y - size * 0.5 + i * size * 1.1
        canvas.rectangle((x - size * 1.2, top, x + size * 1.2, top + size * 0.9), fill=STONE, outline=WHITE, width=2)


def _tower(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    x, y = center
    body = [(x - size * 0.6, y + size), (x - size * 0.6, y - size * 0.5), (x + size * 0.6, y - size * 0.5)]
    body.append((x + size * 0.6, y + size))
    canvas.polygon(body, fill=STONE, outline=WHITE, width=2)
    for dx in (-0.6, -0.1, 0.4):
        left = x + size * dx
        canvas.rectangle((left, y - size, left + size * 0.25, y - size * 0.5), fill=STONE)


def _compass(canvas: ImageDraw.ImageDraw, center: Point, radius: float) -> None:
    """N up (towards the last row), E right, S down, W left."""
    x, y = center
    canvas.polygon([(x, y - radius * 0.7), (x - radius * 0.18, y), (x + radius * 0.18, y)], fill=INK)
    canvas.polygon([(x, y + radius * 0.7), (x - radius * 0.18, y), (x + radius * 0.18, y)], fill=MUTED)
    for word, (dx, dy) in {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}.items():
        text.draw(canvas, (x + dx * radius * 0.95, y + dy * radius * 0.95), word, 16, INK, bold=True, anchor="mm")


def entries(view: SiegeView, names: Sequence[str]) -> list[legend.Entry]:
    entries = []
    for seat in (0, 1):
        standing = view.state.players[seat]
        tokens = sum(1 for owner in view.state.tokens.values() if owner == seat)
        detail = " · ".join(
            (
                legend.with_komi(ntr("{n} square", "{n} squares", view.territory[seat]), view.state.komi_of(seat)),
                ntr("{n} token", "{n} tokens", tokens),
            )
        )
        if not standing.playing:
            detail = tr("out ({reason}) · {detail}", reason=legend.departure(standing), detail=detail)
        elif view.to_move == seat:
            detail = tr("to play · {detail}", detail=detail)
        name = legend.player_name(names, seat, view.viewer)
        entries.append(legend.Entry(seat, name, detail, standing.playing))
    return entries


def _icon(draw_symbol, fill: Colour = NEUTRAL) -> legend.Icon:
    def icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
        x, y = center
        half = size * 0.48
        canvas.rectangle((x - half, y - half, x + half, y + half), fill=fill, outline=GRID, width=2)
        draw_symbol(canvas, center, size)

    return icon


def _last_icon(canvas: ImageDraw.ImageDraw, center: Point, size: float) -> None:
    x, y = center
    half = size * 0.48
    canvas.rectangle((x - half, y - half, x + half, y + half), fill=NEUTRAL, outline=HIGHLIGHT, width=4)


KEYS = (
    legend.Key(mark("token"), _icon(lambda c, p, s: _token(c, p, s * 0.22, (120, 120, 120), None))),
    legend.Key(mark("capital"), _icon(lambda c, p, s: _capital(c, p, s * 0.34, (120, 120, 120), None))),
    legend.Key(mark("wall (+2 EP each)"), _icon(lambda c, p, s: _walls(c, (p[0], p[1] - s * 0.12), s * 0.22, 2))),
    legend.Key(mark("tower (+4 EP)"), _icon(lambda c, p, s: _tower(c, p, s * 0.3))),
    legend.Key(mark("river"), _icon(lambda c, p, s: _waves(c, p, s * 0.34, WHITE), RIVER)),
    legend.Key(mark("mountain, level"), _icon(lambda c, p, s: _peak(c, p, s * 0.32, 2), MOUNTAIN)),
    legend.Key(mark("last turn"), _last_icon),
)


def spots(view: SiegeView) -> dict[str, Point]:
    """Each square's label, as orders name it, and the pixel at its middle (for close-ups)."""
    frame = layout(view)
    return {sq.label: frame.center(sq) for sq in sorted(adjacency(view.state.size))}


def touched(view: SiegeView) -> list[str]:
    """The squares the last turn's actions acted from or on, by label."""
    ends = (end for action in view.state.last for end in (action.source, action.target) if end is not None)
    return list(dict.fromkeys(square.label for square in ends))
