"""The board of the test-only game: one bar (or row of dots) per player toward the goal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

if TYPE_CHECKING:
    from tests.plugin.tug import Pull, TugState


def draw(view: TugState, names: Sequence[str], orders: Sequence[Pull], title: str | None) -> Image.Image:
    """One bar (or row of dots) per player toward the goal; a private view adds the pull being composed."""
    image = Image.new("RGB", (1000, 640), "white")
    canvas = ImageDraw.Draw(image)
    canvas.text((40, 20), title or f"Tug to {view.goal}", fill="black")
    for seat, score in enumerate(view.scores):
        top = 80 + seat * 160
        width = int(900 * min(score, view.goal) / view.goal)
        colour = ("#dc2626", "#2563eb", "#16a34a")[seat]
        canvas.text((40, top), names[seat], fill="black")
        if view.style == "bars":
            canvas.rectangle((40, top + 30, 40 + max(width, 2), top + 110), fill=colour)
        else:
            for point in range(score):
                canvas.ellipse((40 + point * 40, top + 50, 70 + point * 40, top + 80), fill=colour)
    for order in orders:
        canvas.text((40, 600), f"your pull: {order.strength}", fill="black")
    return image
