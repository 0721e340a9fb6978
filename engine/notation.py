"""Order text as every parser reads it: ASCII only.

Python's ``\\d``, ``str.isdigit``, ``int()`` and ``str.lower()`` accept look-alikes from other scripts
(``2߃`` reads as 23, ``B３`` as B3, the Kelvin sign lowers to ``k``), so a player could be held to
an order he never typed. Patterns here spell digits ``[0-9]`` and only ASCII letters are folded;
anything else is left to fail the patterns and be reported.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import TypeVar

from engine.errors import OrderError, OrderSyntaxError, raise_collected
from engine.hexgrid import Hex
from engine.i18n import tr
from engine.labels import parse_label
from engine.squaregrid import Square

T = TypeVar("T")

CELL = r"[a-z]{1,2}\s*[0-9]{1,3}"  # a typed cell label, after ``words``

_FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def number(digits: int) -> str:
    """A pattern for a whole number of 1 to ``digits`` ASCII digits."""
    return f"[0-9]{{1,{digits}}}"


def words(line: str) -> str:
    """``line`` with its spaces collapsed and ASCII letters in lower case (other letters kept, so
    they fail the patterns instead of passing for ASCII ones)."""
    return " ".join(line.split()).translate(_FOLD)


def split(text: str, separators: str = ";,\n") -> list[str]:
    """The non-empty lines of ``text`` split at ``separators``, each through ``words``."""
    return [words(piece) for piece in re.split(f"[{re.escape(separators)}]", text) if piece.strip()]


def parse_lines(text: str, read_line: Callable[[str], T], separators: str = ";,\n") -> list[T]:
    """Every line of ``text`` read by ``read_line``; the problems of all lines are reported together."""
    if not isinstance(text, str):
        raise OrderSyntaxError(tr("orders must be text, not {kind}", kind=type(text).__name__))
    orders, problems = [], []
    for line in split(text, separators):
        try:
            orders.append(read_line(_ascii(line)))
        except OrderError as err:
            problems.append(err)
    raise_collected(problems)
    return orders


def _ascii(line: str) -> str:
    foreign = next((ch for ch in line if not ch.isascii()), None)
    if foreign is not None:
        raise OrderSyntaxError(
            tr(
                "{line!r}: {foreign!r} is not a plain letter, digit or sign; type orders with A-Z and 0-9",
                line=line,
                foreign=foreign,
            )
        )
    return line


def cell(text: str, line: str) -> Hex:
    """The cell a label typed in ``line`` names; a label that names none (row 0) is an OrderSyntaxError."""
    return Hex.from_offset(*_label(text, line))


def square(text: str, line: str) -> Square:
    """The square a label typed in ``line`` names, like :func:`cell` for square boards."""
    return Square(*_label(text, line))


def _label(text: str, line: str) -> tuple[int, int]:
    typed = text.replace(" ", "").upper()
    parsed = parse_label(typed)
    if parsed is None:
        raise OrderSyntaxError(
            tr(
                "{line!r}: {typed} is not a cell; labels are a column letter and a row from 1, like C4",
                line=line,
                typed=typed,
            )
        )
    return parsed
