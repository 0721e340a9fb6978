"""Names in any of the players' scripts come out as letters, not empty boxes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render import text


def ink(sample: str) -> Image.Image:
    image = Image.new("RGB", (200, 60), (255, 255, 255))
    text.draw(ImageDraw.Draw(image), (10, 30), sample, 32, (0, 0, 0))
    return image.convert("L")


def dark_pixels(image: Image.Image) -> int:
    return sum(image.histogram()[:128])


@pytest.mark.parametrize(
    "char, bold, expected",
    [
        ("A", False, text.REGULAR),
        ("Ж", False, text.REGULAR),
        ("é", False, text.REGULAR),
        ("A", True, text.BOLD),
        ("Ж", True, text.BOLD),
        ("小", False, text.FALLBACK),
        ("明", True, text.FALLBACK),
        ("ひ", False, text.FALLBACK),
    ],
)
def test_each_character_gets_a_font_that_has_it(char, bold, expected):
    assert text.font_for(char, bold) == expected
    assert ord(char) in text.coverage(expected)


def test_text_splits_into_runs_by_font():
    assert text.runs("Bob 小明 Ж") == [
        text.Run("Bob ", text.REGULAR),
        text.Run("小明", text.FALLBACK),
        text.Run(" Ж", text.REGULAR),
    ]


def test_characters_no_font_has_are_left_out():
    assert text.font_for("🔥") is None
    assert text.drawable("🔥Bob🔥") == "Bob"
    assert text.runs("🔥Bob") == [text.Run("Bob", text.REGULAR)]


@pytest.mark.parametrize("first, second", [("小", "明"), ("Ж", "Д"), ("A", "B"), ("李", "龙")])
def test_different_letters_leave_different_ink(first, second):
    """An empty box (the .notdef glyph) looks the same for every letter a font lacks."""
    one, other = ink(first), ink(second)
    assert dark_pixels(one) > 20 and dark_pixels(other) > 20
    assert one.tobytes() != other.tobytes()


def test_mixed_name_is_drawn_in_full():
    assert dark_pixels(ink("Алиса 小明")) > dark_pixels(ink("Алиса")) + 40


def test_fit_shortens_long_names_with_an_ellipsis():
    long = "Zoë Ångström-Longname the Magnificent"
    short = text.fit(long, 24, 200)
    assert short.endswith("…") and text.width(short, 24) <= 200
    assert text.fit("Bob", 24, 200) == "Bob"
