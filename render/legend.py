"""The legend under a board: one entry per player, then a key of the symbols on the board.

Any board can use it; the ruleset supplies the entries and draws the key icons itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from engine.i18n import tr
from engine.standings import Seat
from render import shapes, text
from render.style import INK, MUTED, WHITE, mix, player_colour

NAME_SIZE, DETAIL_SIZE, KEY_SIZE = 26, 20, 21
ENTRY_HEIGHT = 70
KEY_HEIGHT = 46
ICON = 44
SWATCH = 36
TWO_COLUMNS = 840

Icon = Callable[[ImageDraw.ImageDraw, tuple[float, float], float], None]


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's line: his swatch (his seat's colour and mark), name and holdings."""

    seat: int
    name: str
    detail: str
    active: bool


@dataclass(frozen=True, slots=True)
class Key:
    """A symbol on the board and what it means (``label`` in English, marked for translation and
    translated where drawn); ``icon`` draws it centred on a point at a size."""

    label: str
    icon: Icon
    values: tuple[tuple[str, object], ...] = ()  # what fills the label's placeholders

    @property
    def text(self) -> str:
        return tr(self.label, **dict(self.values))


def player_name(names: Sequence[str], seat: int, viewer: int | None = None) -> str:
    """A player's name as a board draws it (what no bundled font has left out; "Player 2" if nothing
    is left), marked "(you)" on the image of the ``viewer``."""
    name = text.drawable(names[seat]).strip() or tr("Player {number}", number=seat + 1)
    return tr("{player} (you)", player=name) if seat == viewer else name


def departure(standing: Seat) -> str:
    """Why a player who left is out, as players read it (his status, should a stored seat not say why)."""
    return tr(standing.status if standing.reason is None else standing.reason)


def with_komi(count: str, komi: float) -> str:
    """A seat's territory in the legend with the komi it is given beside it ("12 cells + 2.5 komi")."""
    return tr("{cells} + {komi} komi", cells=count, komi=f"{komi:g}") if komi else count


def height(entries: int, keys: Sequence[Key], width: float) -> int:
    columns = 2 if width >= TWO_COLUMNS else 1
    rows = -(-entries // columns)
    return rows * ENTRY_HEIGHT + 12 + len(_key_rows(keys, width)) * KEY_HEIGHT


def draw(
    canvas: ImageDraw.ImageDraw,
    entries: Sequence[Entry],
    keys: Sequence[Key],
    origin: tuple[float, float],
    width: float,
) -> None:
    left, top = origin
    columns = 2 if width >= TWO_COLUMNS else 1
    column_width = width / columns
    rows = -(-len(entries) // columns)
    for index, entry in enumerate(entries):
        row, column = index % rows, index // rows
        _entry(canvas, entry, (left + column * column_width, top + row * ENTRY_HEIGHT), column_width - 16)
    y = top + rows * ENTRY_HEIGHT + 12
    canvas.line((left, y - 6, left + width, y - 6), fill=mix(MUTED, (255, 255, 255), 0.6), width=2)
    for row_keys in _key_rows(keys, width):
        x = left
        for key in row_keys:
            key.icon(canvas, (x + ICON / 2, y + KEY_HEIGHT / 2), ICON)
            text.draw(canvas, (x + ICON + 14, y + KEY_HEIGHT / 2), key.text, KEY_SIZE, INK)
            x += _key_width(key)
        y += KEY_HEIGHT


def _entry(canvas: ImageDraw.ImageDraw, entry: Entry, origin: tuple[float, float], width: float) -> None:
    x, y = origin
    middle = y + ENTRY_HEIGHT / 2
    swatch = (x, middle - SWATCH / 2, x + SWATCH, middle + SWATCH / 2)
    colour = player_colour(entry.seat)
    fill, edge = (colour, INK) if entry.active else (mix(colour, WHITE, 0.6), MUTED)
    canvas.rounded_rectangle(swatch, radius=7, fill=fill, outline=edge, width=2)
    shapes.mark(canvas, (x + SWATCH / 2, middle), entry.seat, SWATCH * 0.3, WHITE)  # as on the board
    if not entry.active:  # struck out
        canvas.line((swatch[0] + 6, swatch[3] - 6, swatch[2] - 6, swatch[1] + 6), fill=INK, width=3)
    room = width - SWATCH - 14
    name_ink = INK if entry.active else MUTED
    text.draw(
        canvas,
        (x + SWATCH + 14, middle - 13),
        text.fit(entry.name, NAME_SIZE, room, bold=True),
        NAME_SIZE,
        name_ink,
        bold=True,
    )
    text.draw(canvas, (x + SWATCH + 14, middle + 17), text.fit(entry.detail, DETAIL_SIZE, room), DETAIL_SIZE, MUTED)


def _key_width(key: Key) -> float:
    return ICON + 14 + text.width(key.text, KEY_SIZE) + 30


def _key_rows(keys: Sequence[Key], width: float) -> list[list[Key]]:
    rows: list[list[Key]] = [[]]
    used = 0.0
    for key in keys:
        if rows[-1] and used + _key_width(key) > width:
            rows.append([])
            used = 0.0
        rows[-1].append(key)
        used += _key_width(key)
    return rows
