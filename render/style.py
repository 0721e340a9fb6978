"""Colours shared by every board, so a seat looks the same in every game the bot hosts.

Seat colours follow the names the engine uses (red, blue, green, orange, purple, brown). They
differ in lightness as well as hue, so they stay apart for colour-blind players: every two of them,
and each and the neutral grey, are at least ``bench/bench_palette.py``'s ``THRESHOLD`` apart in
CAM02-UCS under normal vision and simulated protanopia, deuteranopia and tritanopia (the palette
before had red and brown 2 apart for a protanope).
"""

from __future__ import annotations

from functools import lru_cache

from render.text import Colour

PLAYER_COLOURS: tuple[Colour, ...] = (
    (230, 29, 7),  # red
    (63, 105, 151),  # blue
    (37, 179, 132),  # green
    (234, 156, 0),  # orange
    (165, 141, 205),  # purple
    (129, 74, 68),  # brown
)
NEUTRAL: Colour = (214, 214, 210)
BACKGROUND: Colour = (246, 244, 238)
INK: Colour = (34, 34, 38)
MUTED: Colour = (105, 105, 110)
WHITE: Colour = (255, 255, 255)


def player_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


@lru_cache(maxsize=1024)  # boards ask for the same few mixes hundreds of times
def mix(colour: Colour, other: Colour, amount: float) -> Colour:
    """``colour`` moved ``amount`` (0..1) of the way towards ``other``."""
    return tuple(round(a + (b - a) * amount) for a, b in zip(colour, other))  # type: ignore[return-value]


def light(fill: Colour) -> bool:
    """Whether dark ink reads better than light ink on ``fill``."""
    red, green, blue = fill
    return 0.299 * red + 0.587 * green + 0.114 * blue > 150


@lru_cache(maxsize=1024)
def ink_on(fill: Colour) -> Colour:
    """A quiet text colour that stays legible on ``fill``: light on dark fills, dark on light ones."""
    return mix(fill, INK, 0.65) if light(fill) else mix(fill, WHITE, 0.78)


def contrast(fill: Colour) -> Colour:
    """The strongest ink on ``fill``: an edge that stands out on it, such as a seat mark's."""
    return INK if light(fill) else WHITE
