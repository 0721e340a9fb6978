"""Human cell labels shared by the grid boards: column letters then row number, like ``C4``.

Columns past Z continue AA, AB, ... Labels are case-insensitive when typed.
"""

from __future__ import annotations

import functools
import re

_LABEL = re.compile(r"^\s*([A-Za-z]{1,2})\s*([0-9]{1,3})\s*$")  # ASCII digits only: engine/notation.py


def column_letters(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    if col < 0:
        raise ValueError(f"column {col} is negative")
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    value = 0
    for ch in letters.upper():
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


@functools.lru_cache(maxsize=8192)
def format_label(col: int, row: int) -> str:
    """Zero-based column and row to a label: (2, 3) -> ``C4``. Kept once made: every suggestion
    list and every board names the same few hundred cells again and again."""
    return f"{column_letters(col)}{row + 1}"


@functools.lru_cache(maxsize=8192)
def parse_label(text: str) -> tuple[int, int] | None:
    """A label to zero-based (column, row), or None when the text is not shaped like a label. Kept
    once read, like ``format_label``: a stored position names every cell of its board."""
    match = _LABEL.match(text)
    if not match:
        return None
    row = int(match.group(2)) - 1
    if row < 0:
        return None
    return column_index(match.group(1)), row
