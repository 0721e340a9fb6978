"""A tournament's standings as a table image: a row a player, his place, name, each round's result and
the columns that rank him. As wide as the boards, so a phone scales both alike; the words come in
ready (translated by the caller), so this module only lays them out."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import png, text
from render.style import BACKGROUND, INK, MUTED, mix, player_colour

WIDTH = 960
MARGIN, TITLE, ROW, SIZE = 24, 64, 40, 20
PLACE_W, NAME_MIN = 56, 220


def standings_png(title: str, header: Sequence[str], rows: Sequence[Sequence[str]], leaders: int = 1) -> bytes:
    """PNG of ``rows`` (each: place, name, then one cell a column of ``header[2:]``) under ``title``;
    the first ``leaders`` rows are marked as the leaders."""
    columns = len(header) - 2
    cell_w = min(110.0, (WIDTH - 2 * MARGIN - PLACE_W - NAME_MIN) / max(1, columns))
    name_w = WIDTH - 2 * MARGIN - PLACE_W - cell_w * columns
    height = TITLE + ROW * (len(rows) + 1) + MARGIN
    image = Image.new("RGB", (WIDTH, round(height)), BACKGROUND)
    canvas = ImageDraw.Draw(image)
    text.draw(canvas, (MARGIN, TITLE / 2), text.fit(title, 28, WIDTH - 2 * MARGIN, bold=True), 28, INK, bold=True)
    stripe, lead = mix(MUTED, BACKGROUND, 0.88), mix(player_colour(3), BACKGROUND, 0.7)

    def row(y: float, cells: Sequence[str], colour, bold: bool = False) -> None:
        middle = y + ROW / 2
        text.draw(canvas, (MARGIN + PLACE_W - 12, middle), cells[0], SIZE, colour, bold=bold, anchor="rm")
        name = text.fit(cells[1], SIZE, name_w - 12, bold=bold)
        text.draw(canvas, (MARGIN + PLACE_W, middle), name, SIZE, colour, bold=bold, anchor="lm")
        for n, cell in enumerate(cells[2:]):
            x = MARGIN + PLACE_W + name_w + cell_w * (n + 0.5)
            text.draw(
                canvas, (x, middle), text.fit(cell, SIZE, cell_w - 6, bold=bold), SIZE, colour, bold=bold, anchor="mm"
            )

    row(TITLE, header, MUTED, bold=True)
    for n, cells in enumerate(rows):
        y = TITLE + ROW * (n + 1)
        if n < leaders or n % 2:
            canvas.rectangle([MARGIN / 2, y, WIDTH - MARGIN / 2, y + ROW - 1], fill=lead if n < leaders else stripe)
        row(y, cells, INK, bold=n < leaders)
    return png.encode(image)


def standings_description(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The table in words (its alt text): a line a player, each cell named by its column."""
    lines = [title]
    for cells in rows:
        named = ", ".join(f"{name} {cell}" for name, cell in zip(header[2:], cells[2:]))
        lines.append(f"{cells[0]}. {cells[1]}: {named}")
    return "\n".join(lines)
