"""Boards in Ukrainian and Chinese: every letter the translations draw is a real glyph of a bundled
font (not the empty box a font draws for what it lacks), and a board drawn in another language
carries its words, at the same width."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from engine import find_ruleset
from i18n import merged, tr, using
from render import board_png, text

LANGUAGES = ("uk", "zh_Hans")
MISSING = "\U000f0000"  # a private-use code point no bundled font has: each font draws its .notdef box


DRAWN = ("render/", "engine/standings.py")  # where the texts that boards and charts draw are written


def translations(language: str, where: tuple[str, ...] = ("",)) -> list[str]:
    """The translations of the messages written in files whose path starts with one of ``where``."""
    messages = [m for m in merged(language) if m.id]
    chosen = [m for m in messages if any(path.startswith(where) for path, _ in m.locations)]
    return [form for m in chosen for form in (m.string if isinstance(m.string, tuple) else (m.string,))]


def glyph(char: str, path) -> bytes:
    face = ImageFont.truetype(str(path), 40, layout_engine=ImageFont.Layout.BASIC)
    image = Image.new("L", (60, 60))
    ImageDraw.Draw(image).text((10, 5), char, 255, face)
    return image.tobytes()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_texts_are_drawn_in_full(language):
    drawn = translations(language, DRAWN)
    assert len(drawn) > 50
    assert [sample for sample in drawn if text.drawable(sample) != sample] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_letter_the_bot_says_has_a_real_glyph(language):
    """Any text may end up in an image (a title, a reason in a legend): its letters, at least, must."""
    letters = {char for sample in translations(language) for char in sample if char.isalnum()}
    assert len(letters) > 100
    tofu = {path: glyph(MISSING, path) for path in (text.REGULAR, text.FALLBACK)}
    boxes = sorted(char for char in letters if glyph(char, text.font_for(char)) == tofu[text.font_for(char)])
    assert boxes == []


def test_the_empty_box_is_what_a_font_draws_for_a_letter_it_lacks():
    """The check above can fail: DejaVu has no Chinese, so it draws the box for it."""
    assert glyph("小", text.REGULAR) == glyph(MISSING, text.REGULAR)
    assert glyph("小", text.FALLBACK) != glyph(MISSING, text.FALLBACK)


@pytest.fixture(scope="module")
def conquest_view():
    rules = find_ruleset("conquest")
    state = rules.setup(2, {"size": "small"}, seed=3)
    return rules.view(state, None)


def board(view, language: str) -> Image.Image:
    with using(language):
        data = board_png(view, names=["Alice", "Bob"], orders=(), title=tr("Start"))
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("L")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_board_in_another_language_draws_its_words(conquest_view, language):
    english, translated = board(conquest_view, "en"), board(conquest_view, language)
    assert translated.width == english.width and abs(translated.height - english.height) <= 100
    assert translated.tobytes() != english.tobytes()
    with using(language):
        heading = tr("Round {number}", number=1)
    assert heading != "Round 1" and text.drawable(heading) == heading
