"""Colours shared by every board, so a seat looks the same in every game the bot hosts.

Seat colours follow the names the engine uses (red, blue, green, orange, purple, brown). They
differ in lightness as well as hue, so they stay apart for most colour-blind players.
"""

from __future__ import annotations

from functools import lru_cache

from render.text import Colour

PLAYER_COLOURS: tuple[Colour, ...] = (
    (214, 39, 40),  # red
    (31, 110, 190),  # blue
    (0, 150, 110),  # green
    (245, 150, 20),  # orange
    (140, 80, 185),  # purple
    (125, 80, 45),  # brown
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


@lru_cache(maxsize=1024)
def ink_on(fill: Colour) -> Colour:
    """A quiet text colour that stays legible on ``fill``: light on dark fills, dark on light ones."""
    red, green, blue = fill
    light = 0.299 * red + 0.587 * green + 0.114 * blue > 150
    return mix(fill, INK, 0.65) if light else mix(fill, WHITE, 0.78)
