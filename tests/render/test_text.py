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


def label(sample: str, spelled: bool) -> Image.Image:
    image = Image.new("L", (120, 40), 255)
    text.draw(ImageDraw.Draw(image), (60, 30), sample, 14, 0, anchor="ms", spelled=spelled)
    return image


def test_a_boards_labels_are_stamped_from_the_masks_of_their_characters():
    """400 cell labels ("A1" to "T20") need the masks of 30 characters, not 400 words: a new game's
    first board renders a few dozen."""
    text.clear_caches()
    for column in "ABCDEFGHIJKLMNOPQRST":
        for row in range(1, 21):
            label(f"{column}{row}", spelled=True)
    assert text.glyphs.cache_info().currsize == 20 + 10


@pytest.mark.parametrize("sample", ["AV7", "TA1", "LT4", "Yo", "K12"])
@pytest.mark.parametrize("bold", [False, True])
def test_spelled_characters_stand_where_the_word_puts_them(sample, bold):
    """Each character of a spelled label starts where the word's own layout places it, the kerning
    with the character before it included, and the label is as wide as the word."""
    laid = text.line(sample, 20, bold, spelled=True)
    face = text.font(text.BOLD if bold else text.REGULAR, 20)
    for index, (offset, char, _) in enumerate(laid.parts):
        assert offset + face.getlength(char) == face.getlength(sample[: index + 1])
    assert laid.width == face.getlength(sample)


@pytest.mark.parametrize("sample", ["A1", "K12", "T20", "AV7", "Ж9"])
def test_a_spelled_label_looks_like_the_word(sample):
    spelled, word = label(sample, spelled=True), label(sample, spelled=False)
    inverted = [Image.eval(image, lambda v: 255 - v).getbbox() for image in (spelled, word)]
    assert all(abs(a - b) <= 1 for a, b in zip(*inverted, strict=True))  # the same place, to a pixel
    assert abs(dark_pixels(spelled) - dark_pixels(word)) <= 3
