"""Close-ups: the part of a large board a player must read, cut out so that it reads on a phone.

A phone shows an image about 400 px wide. On the largest maps the labels orders name (cells,
squares, node numbers) then shrink to 2-3 px, so a round post adds a close-up of what the turn
changed, a private preview one of what the player's orders name, and ``/game board around:`` one
of any place. A close-up is the board's own drawing cut out at its full resolution: it is as wide
as still shows those labels at least ``GOAL`` px tall at ``SHOWN_WIDTH``, and placed to hold as
many of the places it is about as fit. Each board module says where its places are drawn
(``spots``), which places its last turn touched (``touched``) and the size of its labels
(``label_size``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from engine.i18n import tr
from render import text
from render.hexboard import Point
from render.style import BACKGROUND, INK

SHOWN_WIDTH = 400  # px: a board in a phone's Discord client
GOAL = 8.0  # px: the height of a label's capitals and digits, shown that wide
BAND = 64  # px: the close-up's heading above the cut-out board
ASPECT = 1.0  # height over width: a close-up fills a phone's width without scrolling


class Places(NamedTuple):
    """What a board module tells of its places, for close-ups."""

    spots: Callable[[Any], dict[str, Point]]  # every place orders name -> the pixel at its middle
    touched: Callable[[Any], list[str]]  # the places the last turn changed
    label_size: Callable[[Any], int]  # the text size the place labels are drawn at


def glyph_height(size: int) -> int:
    """The height in pixels of capitals and digits ("E10") drawn at text size ``size``."""
    path = text.font_for("E")
    assert path is not None, "the bundled fonts draw Latin capitals"
    _, top, _, bottom = text.font(path, size).getbbox("E10")
    return round(bottom - top)


def shown(height: float, width: int) -> float:
    """How tall something ``height`` px tall in an image ``width`` px wide is on a phone: Discord
    shows an image at its own size up to the screen's width, never larger."""
    return height * min(1.0, SHOWN_WIDTH / width)


def shown_label_height(places: Places, view: object, width: int) -> float:
    """How tall the place labels of the board, drawn ``width`` px wide, are on a phone."""
    return shown(glyph_height(places.label_size(view)), width)


def close_up_label_height(places: Places, view: object, board_width: int, width: int) -> float:
    """How tall the place labels of a close-up ``width`` px wide of the board, drawn ``board_width``
    px wide, are on a phone (a close-up narrower than a phone is enlarged to its width)."""
    window = min(readable_width(places, view), board_width)
    return shown(glyph_height(places.label_size(view)) * width / window, width)


def readable_width(places: Places, view: object) -> int:
    """The widest cut-out of the board whose labels still read ``GOAL`` px tall on a phone."""
    return int(glyph_height(places.label_size(view)) * SHOWN_WIDTH / GOAL)


def needs_close_up(places: Places, view: object, width: int) -> bool:
    """Whether an image ``width`` px wide is too small to read on a phone."""
    return shown_label_height(places, view, width) < GOAL


def named(places: Places, view: object, words: Iterable[str]) -> list[str]:
    """The places among ``words`` (any case, each once, in order): "G4>F4" names G4 and F4."""
    by_key = {label.casefold(): label for label in places.spots(view)}
    found: dict[str, None] = {}
    for word in words:
        for token in re.split(r"[^\w]+", word):
            if (label := by_key.get(token.casefold())) is not None:
                found[label] = None
    return list(found)


def window(places: Places, view: object, board: Image.Image, focus: Sequence[str]) -> tuple[int, int, int, int]:
    """The box of ``board`` (the view's drawing) a close-up of the ``focus`` places shows: as wide
    as still reads on a phone, holding as many of them as fit, within the board's places."""
    spots = places.spots(view)
    points = [spots[label] for label in focus if label in spots] or list(spots.values())
    width = min(readable_width(places, view), board.width)
    height = round(width * ASPECT)
    left, top, right, bottom = _extent(spots.values(), places.label_size(view) * 4, board)
    x, y = _best_centre(points, width, height)
    x0 = _clamp(round(x - width / 2), left, right - width)
    y0 = _clamp(round(y - height / 2), top, bottom - height)
    return x0, y0, x0 + width, y0 + min(height, bottom - top)


def close_up(places: Places, view: object, board: Image.Image, focus: Sequence[str], heading: str) -> Image.Image:
    """The part of ``board`` (the view's drawing) around the ``focus`` places, under ``heading``;
    enlarged to a phone's width where its labels are drawn too small for one at any size."""
    cut = board.crop(window(places, view, board, focus))
    if cut.width < SHOWN_WIDTH:  # labels too small to read even at full size: enlarged
        cut = cut.resize((SHOWN_WIDTH, round(cut.height * SHOWN_WIDTH / cut.width)), Image.Resampling.LANCZOS)
    image = Image.new("RGB", (cut.width, cut.height + BAND), BACKGROUND)
    image.paste(cut, (0, BAND))
    canvas = ImageDraw.Draw(image)
    text.draw(canvas, (16, BAND * 0.7), text.fit(heading, 30, cut.width - 32, bold=True), 30, INK, bold=True)
    return image


def heading(board: str, focus: Sequence[str]) -> str:
    """A close-up's heading: which board, around what ("Round 4 · around G4, F4")."""
    return tr("{board} · around {places}", board=board, places=", ".join(focus[:4]) + ("…" if len(focus) > 4 else ""))


def _extent(spots: Iterable[Point], pad: float, board: Image.Image) -> tuple[int, int, int, int]:
    """The board area a close-up may show: the places' bounds and a margin, inside the image."""
    xs, ys = zip(*spots, strict=True)
    return (
        max(0, round(min(xs) - pad)),
        max(0, round(min(ys) - pad)),
        min(board.width, round(max(xs) + pad)),
        min(board.height, round(max(ys) + pad)),
    )


def _best_centre(points: Sequence[Point], width: int, height: int) -> Point:
    """The middle of the most ``points`` that fit in a window ``width`` by ``height`` with a margin
    round them: those near each point in turn are tried (the first wins a tie)."""
    best: list[Point] = []
    for x, y in points:
        held = [p for p in points if abs(p[0] - x) <= width * 0.4 and abs(p[1] - y) <= height * 0.4]
        if len(held) > len(best):
            best = held
    xs, ys = [p[0] for p in best], [p[1] for p in best]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def _clamp(value: int, low: int, high: int) -> int:
    """``value`` within [low, high]; ``low`` when the range is empty (a board narrower than the window)."""
    return max(low, min(value, high))
