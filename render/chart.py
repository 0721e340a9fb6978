"""A player's rating game by game, one line per ruleset: small enough for a phone, labelled enough
to read without a legend lookup (each line ends with its ruleset's name and current rating)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine.i18n import ntr, tr
from render import png, text
from render.style import BACKGROUND, INK, MUTED, mix, player_colour

WIDTH, HEIGHT = 960, 640  # as wide as the boards, so phones scale both alike
LEFT, RIGHT, TOP, BOTTOM = 90, 210, 70, 56
TITLE, LABEL = 28, 20


def chart_description(title: str, series: Mapping[str, Sequence[float]]) -> str:
    """The chart in words (its alt text): each line's first and last rating and how many games."""
    lines = [title]
    for name, points in series.items():
        if points:
            lines.append(
                ntr(
                    "{name}: {first:.1f} after the first game, {last:.1f} after {n} game",
                    "{name}: {first:.1f} after the first game, {last:.1f} after {n} games",
                    len(points),
                    name=name,
                    first=points[0],
                    last=points[-1],
                )
            )
    return "\n".join(lines if len(lines) > 1 else [title, tr("No rated games yet")])


def rating_chart(title: str, series: Mapping[str, Sequence[float]]) -> bytes:
    """PNG of each series (a rating after each game, oldest first), on shared axes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    canvas = ImageDraw.Draw(image)
    text.draw(canvas, (LEFT, TOP / 2), text.fit(title, TITLE, WIDTH - LEFT - 16, bold=True), TITLE, INK, bold=True)
    values = [v for points in series.values() for v in points]
    if not values:
        text.draw(canvas, (WIDTH / 2, HEIGHT / 2), tr("No rated games yet"), TITLE, MUTED, anchor="mm")
        return png.encode(image)
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    longest = max(len(points) for points in series.values())
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def at(index: int, value: float) -> tuple[float, float]:
        x = LEFT + (plot_w * index / (longest - 1) if longest > 1 else plot_w / 2)
        return x, TOP + plot_h * (high - value) / (high - low)

    grid = mix(MUTED, BACKGROUND, 0.75)
    for value in (low, (low + high) / 2, high):
        y = at(0, value)[1]
        canvas.line([(LEFT, y), (LEFT + plot_w, y)], fill=grid, width=1)
        text.draw(canvas, (LEFT - 8, y), f"{value:.1f}", LABEL, MUTED, anchor="rm")
    if longest > 1:  # the first and the last game under the ends of the lines
        text.draw(canvas, (LEFT, HEIGHT - BOTTOM / 2), tr("game {number}", number=1), LABEL, MUTED)
        text.draw(
            canvas, (LEFT + plot_w, HEIGHT - BOTTOM / 2), tr("game {number}", number=longest), LABEL, MUTED, anchor="rm"
        )
    else:  # one game: one point, in the middle, and one label under it
        text.draw(
            canvas, (at(0, low)[0], HEIGHT - BOTTOM / 2), tr("game {number}", number=1), LABEL, MUTED, anchor="mm"
        )
    for n, (name, points) in enumerate(series.items()):
        colour = player_colour(n)
        line = [at(i, v) for i, v in enumerate(points)]
        if len(line) > 1:
            canvas.line(line, fill=colour, width=4, joint="curve")
        for x, y in line:
            canvas.ellipse([x - 5, y - 5, x + 5, y + 5], fill=colour)
        x, y = line[-1]
        label = text.fit(f"{name} {points[-1]:.1f}", LABEL, RIGHT - 16, bold=True)
        text.draw(canvas, (LEFT + plot_w + 10, y), label, LABEL, colour, bold=True)
    return png.encode(image)
