"""PNG encoding. Boards are flat colours plus anti-aliased text, so a 256-colour palette loses
nothing visible and halves the file (the largest map is about 150 KB instead of 400 KB).

The palette comes from the image's own colours, counted on every third pixel each way: the few
that cover nearly every pixel (fills, outlines, ink) go in as they are, and the anti-aliased edges
share the rest. Counting and then mapping pixels to a given palette take a third of the time of
building an octree of every pixel, and stray less from the drawn colours."""

from __future__ import annotations

import heapq
import io
from typing import Any, cast

import numpy
from PIL import Image

from render.text import Colour

SAVE_OPTIONS: dict[str, Any] = {"format": "PNG", "compress_level": 6}

SAMPLE = 3
"""Colours are counted on every SAMPLE-th pixel each way."""
EXACT = 32
"""The most frequent colours (but for shades of them), put in the palette as they are."""
NEAR = 8
"""How close (in every channel) to one of those no other palette colour is kept."""
COUNTED = 65536
"""Beyond this many colours (not a drawn board) the octree quantizer builds the palette instead."""


def encode(image: Image.Image, like: Image.Image | None = None) -> bytes:
    """``image`` (RGB) as PNG; ``like``, an image already mapped (:func:`to_palette`) whose colours
    ``image`` shares, such as the board a close-up is cut from: its palette is used as it is, rather
    than counting the colours again."""
    return save(to_palette(image) if like is None else image.quantize(palette=like, dither=Image.Dither.NONE))


def save(paletted: Image.Image) -> bytes:
    """A palette image (:func:`to_palette`) as PNG."""
    out = io.BytesIO()
    paletted.save(out, **SAVE_OPTIONS)
    return out.getvalue()


def to_palette(image: Image.Image) -> Image.Image:
    """``image`` (RGB) with at most 256 colours, mapped to the nearest without dithering."""
    sample = image.resize((max(1, image.width // SAMPLE), max(1, image.height // SAMPLE)), Image.Resampling.NEAREST)
    counted = _counted(sample)
    if counted is None:
        return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    colours = [colour for _, colour in counted]
    if len(colours) > 256:
        exact = _apart([colour for _, colour in heapq.nlargest(2 * EXACT, counted)])
        kept = set(exact)
        colours = exact + _shared(exact, [colour for colour in colours if colour not in kept])
    holder = Image.new("P", (1, 1))
    holder.putpalette([value for colour in colours for value in colour])
    return image.quantize(palette=holder, dither=Image.Dither.NONE)


def _counted(image: Image.Image) -> list[tuple[int, Colour]] | None:
    """How often each colour of the RGB ``image`` occurs, or None beyond ``COUNTED`` colours (Pillow
    types the colours of every mode at once; an RGB image's are triples)."""
    return cast("list[tuple[int, Colour]] | None", image.getcolors(COUNTED))


def _apart(frequent: list[Colour]) -> list[Colour]:
    """The first EXACT of ``frequent`` that are not near an earlier one: a shade next to a fill is
    an anti-aliased edge of it, and would share the fill's box (see :func:`_shared`)."""
    chosen: list[Colour] = []
    for colour in frequent:
        if len(chosen) < EXACT and not any(_near(colour, other) for other in chosen):
            chosen.append(colour)
    return chosen


def _shared(exact: list[Colour], rest: list[Colour]) -> list[Colour]:
    """Up to ``256 - len(exact)`` colours standing for ``rest``, none of them near an exact one:
    Pillow maps pixels through a table of 4x4x4 boxes, and a palette colour close to an exact one
    could take its box and shift a whole fill by a shade."""
    edges = Image.new("RGB", (len(rest), 1))
    edges.putdata(rest)
    octree = edges.quantize(colors=256 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    candidates = sorted(_used(octree))
    if not candidates or not exact:
        return candidates
    # Every candidate against every exact colour at once: a few hundred by a few dozen, per image.
    apart = (abs(numpy.array(candidates)[:, None, :] - numpy.array(exact)[None, :, :]) >= NEAR).any(axis=2).all(axis=1)
    return [colour for colour, kept in zip(candidates, apart.tolist(), strict=True) if kept]


def _used(image: Image.Image) -> set[Colour]:
    """The palette colours the palette ``image`` uses (Pillow types its palette as possibly absent and
    its colours as those of any mode; a quantized image has a palette and at most 256 indexes)."""
    values = cast("list[int]", image.getpalette())
    indexes = cast("list[tuple[int, int]]", image.getcolors(256))
    return {(values[i * 3], values[i * 3 + 1], values[i * 3 + 2]) for _, i in indexes}


def _near(colour: Colour, other: Colour) -> bool:
    return abs(colour[0] - other[0]) < NEAR and abs(colour[1] - other[1]) < NEAR and abs(colour[2] - other[2]) < NEAR
