"""The frame every hex board shares: a heading, the board fitted to a phone-friendly width, and a
legend underneath. Rulesets supply the cells, the words and the legend entries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from engine.hexgrid import Hex
from render import hexboard, legend, text
from render.hexboard import HexLayout
from render.pieces import Canvas
from render.style import BACKGROUND, INK, MUTED, WHITE
from render.text import Colour

MARGIN = 28
HEADER = 104
BOARD_BOX = 1240
MIN_WIDTH = 960
SMALLEST, LARGEST = 26.0, 64.0


class Bounds(Protocol):
    """What the canvas, heading and legend need of a board's frame: hex, graph and square boards alike."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def legend_top(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Frame:
    hexes: HexLayout
    width: int
    height: int
    legend_top: int


def frame_for(cells: Iterable[Hex], entries: int, keys: Sequence[legend.Key]) -> Frame:
    """Image size and cell positions: they depend on the board alone, never on who looks or on orders."""
    hexes, (board_w, board_h) = hexboard.fit(list(cells), BOARD_BOX, BOARD_BOX, SMALLEST, LARGEST)
    width = max(MIN_WIDTH, round(board_w) + 2 * MARGIN)
    hexes = hexes.shifted((width - board_w) / 2, MARGIN + HEADER)
    legend_top = round(MARGIN + HEADER + board_h + MARGIN)
    height = legend_top + legend.height(entries, keys, width - 2 * MARGIN) + MARGIN
    return Frame(hexes, width, height, legend_top)


def own_seat(viewer: int | None) -> int:
    """The seat whose private image is drawn: only a player's own view shows orders (``draw`` checks it first)."""
    if viewer is None:
        raise ValueError("a private image is drawn for one player's view")
    return viewer


def canvas_for(frame: Bounds) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank board and a :class:`~render.pieces.Canvas` to draw on it, which pastes kept pieces."""
    image = Image.new("RGB", (frame.width, frame.height), BACKGROUND)
    return image, Canvas(image)


def header(
    canvas: ImageDraw.ImageDraw, frame: Bounds, heading: str, subline: str, private_colour: Colour | None = None
) -> None:
    """The heading, then a quiet subline; a private image gets a frame and a banner in the viewer's colour."""
    room = frame.width - 2 * MARGIN
    text.draw(canvas, (MARGIN, MARGIN + 18), text.fit(heading, 34, room, bold=True), 34, INK, bold=True)
    line = (MARGIN, MARGIN + 66)
    if private_colour is None:
        text.draw(canvas, line, text.fit(subline, 22, room), 22, MUTED)
        return
    canvas.rectangle((0, 0, frame.width - 1, frame.height - 1), outline=private_colour, width=8)
    canvas.rounded_rectangle(
        (MARGIN - 8, MARGIN + 48, frame.width - MARGIN, MARGIN + 84), radius=8, fill=private_colour
    )
    text.draw(canvas, line, subline, 24, WHITE, bold=True)


def draw_legend(
    canvas: ImageDraw.ImageDraw, frame: Bounds, entries: Sequence[legend.Entry], keys: Sequence[legend.Key]
) -> None:
    legend.draw(canvas, entries, keys, (MARGIN, frame.legend_top), frame.width - 2 * MARGIN)
