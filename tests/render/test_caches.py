"""What the render caches keep changes the time a board takes, never its pixels, and stays bounded."""

from __future__ import annotations

import math

import pytest
from PIL import Image, ImageChops, ImageDraw

from bench.positions import BUSY, played
from engine import RULESETS, find_ruleset
from render import board_image, board_png, clear_caches, hexboard, pieces, png, shapes, text
from render.boards import conquest, fortress, ranks, siege
from render.boards.conquest import cell_center
from render.style import BACKGROUND

SIX = ("Алиса", "小明", "Bob", "Zoë", "李小龙", "Дмитрий")


def same_pixels(one: Image.Image, other: Image.Image) -> bool:
    return one.size == other.size and ImageChops.difference(one.convert("RGB"), other.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("name", RULESETS)
def test_a_board_drawn_from_warm_caches_is_the_board_drawn_afresh(name):
    names = SIX[: find_ruleset(name).max_players]
    views = busy_views(name)
    clear_caches()
    fresh = [board_png(view, names=names) for view in views]
    warm = [board_png(view, names=names) for view in reversed(views)]
    assert warm[::-1] == fresh


def busy_views(name: str) -> list:
    rules = find_ruleset(name)
    states = [BUSY[name](rules, variant) for variant in (0, 1)] if name in BUSY else played(rules, 12, 2)
    return [rules.view(state, None) for state in states]


# Gra's board also pastes pieces whose anti-aliased edges differ from strokes (a few hundred pixels
# of a board): for it, warm caches giving the fresh board is what is tested above.
@pytest.mark.parametrize(
    "name, drawer", [("conquest", conquest), ("fortress", fortress), ("siege", siege), ("ranks", ranks)]
)
def test_a_board_of_pasted_pieces_is_the_board_drawn_stroke_by_stroke(name, drawer, monkeypatch):
    """Kept pieces are keyed by all they show: pasted, they give the pixels drawing them gives."""
    names = SIX[: find_ruleset(name).max_players]
    clear_caches()
    pasted = [board_image(view, names=names) for view in busy_views(name)]

    def plain_canvas(frame):
        image = Image.new("RGB", (frame.width, frame.height), BACKGROUND)
        return image, ImageDraw.Draw(image)

    monkeypatch.setattr(drawer, "canvas_for", plain_canvas)
    drawn = [board_image(view, names=names) for view in busy_views(name)]
    assert all(same_pixels(one, other) for one, other in zip(pasted, drawn, strict=True))


def test_private_board_from_warm_caches_is_the_board_drawn_afresh():
    rules = find_ruleset("conquest")
    state = rules.setup(3, {}, seed=2)
    orders = rules.ai_orders(state, 1, 3)
    draw = lambda: board_png(rules.view(state, 1), names=SIX[:3], orders=orders)  # noqa: E731
    clear_caches()
    fresh = draw()
    assert draw() == fresh


@pytest.mark.parametrize("sample", ["Bob", "Алиса 小明", "12"])
def test_text_from_kept_glyphs_is_pillows_text(sample):
    """Placed on a whole pixel, a kept glyph mask inks exactly what Pillow's own text() does."""
    ours, pillows = (Image.new("RGB", (260, 60), (240, 240, 240)) for _ in range(2))
    text.draw(ImageDraw.Draw(ours), (10, 40), sample, 28, (20, 20, 20), anchor="ls")
    canvas = ImageDraw.Draw(pillows)
    for offset, part, path in text.line(sample, 28).parts:
        canvas.text((10 + offset, 40), part, (20, 20, 20), text.font(path, 28), "ls")
    assert same_pixels(ours, pillows)


@pytest.mark.parametrize("standing", [False, True])
@pytest.mark.parametrize("angle", [0, 60, 150, 240])
def test_a_pasted_arrow_is_the_arrow_drawn(angle, standing):
    direction = (math.cos(math.radians(angle)), math.sin(math.radians(angle)))
    drawn, pasted = (Image.new("RGB", (200, 200), (214, 39, 40)) for _ in range(2))
    arrow = (direction, "17", 18, (31, 110, 190), (255, 255, 255), (34, 34, 38), (255, 255, 255), standing)
    hexboard.block_arrow(ImageDraw.Draw(drawn), (100.4, 99.6), *arrow)
    hexboard.block_arrow(pieces.Canvas(pasted), (100.4, 99.6), *arrow)
    assert same_pixels(drawn, pasted)


def test_a_wide_outline_is_pillows_outline():
    star = [
        (
            60.3 + (40 if i % 2 == 0 else 18) * math.cos(i * math.pi / 5),
            60.7 + (40 if i % 2 == 0 else 18) * math.sin(i * math.pi / 5),
        )
        for i in range(10)
    ]
    ours, pillows = (Image.new("RGB", (120, 120), (200, 200, 200)) for _ in range(2))
    shapes.polygon(ImageDraw.Draw(ours), star, (255, 255, 255), (34, 34, 38), 4)
    ImageDraw.Draw(pillows).polygon(star, fill=(255, 255, 255), outline=(34, 34, 38), width=4)
    assert same_pixels(ours, pillows)


def test_glyph_cache_is_bounded():
    canvas = ImageDraw.Draw(Image.new("RGB", (100, 40)))
    for number in range(text.GLYPHS + 20):
        text.draw(canvas, (5, 20), str(number), 11, (0, 0, 0))
    assert text.glyphs.cache_info().currsize == text.GLYPHS
    assert text.line.cache_info().currsize <= text.LINES


def test_kept_pieces_are_bounded():
    canvas = pieces.Canvas(Image.new("RGB", (100, 100)))
    for number in range(pieces.PIECES + 20):
        hexboard.block_arrow(canvas, (50, 50), (1.0, 0.0), str(number), 9, (1, 2, 3), (4, 5, 6), (7, 8, 9), (9, 9, 9))
    assert pieces._piece.cache_info().currsize == pieces.PIECES


def _square(canvas, center, colour):
    x, y = center
    canvas.rectangle((x - 3, y - 3, x + 3, y + 3), fill=colour)


def _square_outline(center):
    x, y = center
    return [(x - 3, y - 3), (x + 3, y - 3), (x + 3, y + 3), (x - 3, y + 3)]


def test_cut_pieces_are_bounded_and_only_whole_ones_kept():
    image = Image.new("RGB", (100, 100))
    for number in range(pieces.KEPT_CUTS + 20):
        canvas = pieces.Canvas(image)  # a board cuts at most CUTS
        pieces.solid(canvas, (50.5, 50.5), _square_outline((50.5, 50.5)), _square, (number % 256, number // 256, 0))
    assert len(pieces._cuts) == pieces.KEPT_CUTS
    clear_caches()
    canvas = pieces.Canvas(image)
    for number in range(pieces.CUTS + 5):
        pieces.solid(canvas, (50.5, 50.5), _square_outline((50.5, 50.5)), _square, (number, 0, 0))
    assert len(pieces._cuts) == pieces.CUTS
    clear_caches()
    pieces.solid(pieces.Canvas(image), (1.5, 50.5), _square_outline((1.5, 50.5)), _square, (9, 9, 9))
    assert not pieces._cuts  # partly off the board


def test_palette_stays_within_a_shade_of_the_drawn_board():
    rules = find_ruleset("conquest")
    view = rules.view(BUSY["conquest"](rules, 0), None)
    drawn = conquest.draw(view, SIX, (), None)
    mapped = png.to_palette(drawn)
    assert mapped.mode == "P"
    difference = ImageChops.difference(drawn, mapped.convert("RGB")).convert("L").histogram()
    assert sum(level * pixels for level, pixels in enumerate(difference)) / (drawn.width * drawn.height) < 0.5
    back = mapped.convert("RGB")
    for cell in view.cells:
        centre = cell_center(view, cell.cell)
        assert all(abs(a - b) <= 2 for a, b in zip(back.getpixel(centre), drawn.getpixel(centre)))
