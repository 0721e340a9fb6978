"""Text with per-character font fallback, from the fonts bundled in ``render/fonts``.

Player names arrive in any script. DejaVu draws Latin and Cyrillic; whatever it lacks (CJK)
comes from Droid Sans Fallback. Each font's character map is read once with fontTools, and a
string is split into runs that each use one font; characters no bundled font has (emoji, control
characters) are left out rather than drawn as empty boxes. Pillow's basic layout engine is used so
the same text gives the same pixels on every machine, with or without libraqm.

A board draws hundreds of strings, most of them drawn the turn before too, so each process keeps
(bounded) the layout of each string and the mask of each word, and stamps masks on whole pixels.
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"
FALLBACK = FONTS / "DroidSansFallbackFull.ttf"

# DejaVu's cap height over its em; used to centre text on a point by its capitals.
CAP_HEIGHT = 0.73

Colour = tuple[int, int, int]

WORD = re.compile(r"\S+\s*|\s+")

# Cache bounds, per process. A busy board draws about a thousand strings; the masks of a few
# boards' worth take a few megabytes.
LINES = 8192
GLYPHS = 8192


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of text drawn with one font file."""

    text: str
    font: Path


@cache
def coverage(path: Path) -> frozenset[int]:
    """The code points a font has glyphs for."""
    with TTFont(path, lazy=True) as face:
        return frozenset(face.getBestCmap())


_loaded = threading.local()


def font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    """A loaded font, cached per thread: a FreeType face must not be used by two threads at once,
    and boards are drawn in worker threads."""
    faces: dict[tuple[Path, int], ImageFont.FreeTypeFont] = _loaded.__dict__.setdefault("faces", {})
    if (path, size) not in faces:
        faces[path, size] = ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
    return faces[path, size]


def read_coverage() -> None:
    """Read every bundled font's character map now (the fallback's, with its CJK glyphs, takes a
    good part of a second), rather than when a name or word first needs it."""
    for path in (REGULAR, BOLD, FALLBACK):
        coverage(path)


@lru_cache(maxsize=GLYPHS)
def font_for(char: str, bold: bool = False) -> Path | None:
    """The first font of the chain that has ``char``, or None when no bundled font has it (kept:
    every character of every new string asks)."""
    for path in (BOLD if bold else REGULAR, FALLBACK):
        if ord(char) in coverage(path):
            return path
    return None


def drawable(text: str) -> str:
    """``text`` without the characters that no bundled font can draw."""
    return "".join(char for char in text if font_for(char) is not None)


def runs(text: str, bold: bool = False) -> list[Run]:
    """Split ``text`` into maximal runs that share a font, leaving out what no font has."""
    result: list[Run] = []
    chars: list[str] = []
    current: Path | None = None
    for char in text:
        path = font_for(char, bold)
        if path is None:
            continue
        if path is not current:
            if current is not None:
                result.append(Run("".join(chars), current))
            chars, current = [], path
        chars.append(char)
    if current is not None:
        result.append(Run("".join(chars), current))
    return result


@dataclass(frozen=True, slots=True)
class Line:
    """A string laid out at one size: its words, each with its font and its offset from the start,
    and the width."""

    parts: tuple[tuple[float, str, Path], ...]
    width: float


@lru_cache(maxsize=LINES)
def line(text: str, size: int, bold: bool = False, spelled: bool = False) -> Line:
    """Laid out word by word, so that a line that changes from turn to turn ("12 cells · 40
    units") reuses the masks of the words it keeps; ``spelled``, character by character (each
    where it stands in the whole run, kerning included), so that the hundreds of cell labels of a
    board ("K12") share the masks of a few dozen characters."""
    parts = []
    x = 0.0
    for run in runs(text, bold):
        if spelled:
            previous = ""
            for char in run.text:
                if previous:
                    x += _kerning(run.font, size, previous + char)
                parts.append((x, char, run.font))
                x += _advance(run.font, size, char)
                previous = char
            continue
        face = font(run.font, size)
        for piece in WORD.findall(run.text):
            parts.append((x, piece, run.font))
            x += face.getlength(piece)
    return Line(tuple(parts), x)


@lru_cache(maxsize=GLYPHS)
def _advance(path: Path, size: int, char: str) -> float:
    """How far one character advances the pen: a board's hundreds of labels are a few dozen
    characters, and the advance of a string is the sum of its characters' and of its pairs'
    kerning (:func:`_kerning`), to the bit, in Pillow's basic layout."""
    return font(path, size).getlength(char)


@lru_cache(maxsize=GLYPHS)
def _kerning(path: Path, size: int, pair: str) -> float:
    """How much closer (negative) or further apart the two characters of ``pair`` stand than their
    advances alone."""
    return font(path, size).getlength(pair) - _advance(path, size, pair[0]) - _advance(path, size, pair[1])


def width(text: str, size: int, bold: bool = False) -> float:
    return line(text, size, bold).width


def fit(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so that it is at most ``max_width`` wide."""
    if width(text, size, bold) <= max_width:
        return text
    while text and width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw(
    canvas: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    *,
    bold: bool = False,
    anchor: str = "lm",
    stroke: int = 0,
    stroke_fill: Colour | None = None,
    spelled: bool = False,
) -> None:
    """Draw ``text`` at ``xy``.

    ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r`` and vertical ``m``
    (middle of the capitals) or ``s`` (baseline). Strokes are all drawn before the fills so one
    run's outline never covers its neighbour's letters. ``spelled`` text (a board's cell labels) is
    stamped character by character (see :func:`line`).
    """
    x, y = xy
    for dx, dy, (left, top), mask, stroked in stamps(text, size, bold, anchor, stroke, spelled):
        corner = (math.floor(x + dx + 0.5) + left, math.floor(y + dy + 0.5) + top)
        canvas.bitmap(corner, mask, fill=stroke_fill if stroked else fill)


Stamp = tuple[float, float, tuple[int, int], Image.Image, bool]
"""Where a run's baseline starts from the anchor point, where its mask sits from there (once that
start is rounded to a whole pixel), the mask, and whether it is a stroke."""


@lru_cache(maxsize=LINES)
def stamps(text: str, size: int, bold: bool, anchor: str, stroke: int, spelled: bool = False) -> tuple[Stamp, ...]:
    """The masks that draw ``text``, in order. Each run starts on a whole pixel, so the same
    string in the same font always has the same mask."""
    laid = line(text, size, bold, spelled)
    horizontal, vertical = anchor[0], anchor[1]
    x = -laid.width / 2 if horizontal == "m" else -laid.width if horizontal == "r" else 0.0
    y = size * CAP_HEIGHT / 2 if vertical == "m" else 0.0
    result = []
    if stroke:
        for offset, part, path in laid.parts:
            mask, corner = glyphs(path, size, part, stroke)
            result.append((x + offset, y, corner, mask, True))
    for offset, part, path in laid.parts:
        # The fallback font has no bold face; a thin stroke of the same colour stands in for one.
        embolden = max(1, round(size / 28)) if bold and path == FALLBACK else 0
        mask, corner = glyphs(path, size, part, embolden)
        result.append((x + offset, y, corner, mask, False))
    return tuple(result)


@lru_cache(maxsize=GLYPHS)
def glyphs(path: Path, size: int, part: str, stroke: int) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage mask of ``part`` and where it sits from the start of its baseline: what
    ``text()`` renders on every call, kept because boards draw the same labels and numbers turn
    after turn."""
    face = font(path, size)
    # Whole pixels for a whole stroke width: Pillow types the box as floats for fractional strokes.
    left, top, right, bottom = (int(edge) for edge in face.getbbox(part, anchor="ls", stroke_width=stroke))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), part, 255, face, "ls", stroke_width=stroke, stroke_fill=255)
    return mask, (left, top)


def clear_caches() -> None:
    """Forget laid-out lines and glyph masks (the images stay the same; only the time changes)."""
    line.cache_clear()
    _advance.cache_clear()
    _kerning.cache_clear()
    stamps.cache_clear()
    glyphs.cache_clear()
    font_for.cache_clear()
