"""Reading stored state strictly, one field at a time.

Every value must have its exact JSON type and lie within its bounds, and an object may hold only
the fields its reader asks for; anything else is a StateError naming the game and the field. A
damaged row is refused at once rather than coerced ("False" read as true, "7" as 7) or loaded into
a game that hangs (a field a million cells high) or crashes later (a trace the board cannot draw).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from engine.errors import StateError
from engine.hexgrid import Hex
from engine.labels import parse_label

MOST = 10**9  # above any count a game reaches; sums of such numbers stay small and print short
RNG_MOST = 2**64 - 1  # the PRNG state is 64 bits (engine/rng.py)
_NUMBER = re.compile(r"[0-9]{1,9}")


def damaged(game: str, field: str, problem: str) -> StateError:
    said = f"{field} {problem}"
    return StateError(f"{game} state is damaged: {said if len(said) <= 300 else said[:299] + '…'}")


def shown(value: Any) -> str:
    """A short description of a stored value for an error message (never the whole of a huge one)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MOST:
        return f"a {value.bit_length()}-bit number"
    if isinstance(value, (list, dict, str)) and len(value) > 20:
        return f"a {type(value).__name__} of {len(value)}"
    return repr(value)


def whole(value: Any, low: int, high: int, field: str, game: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise damaged(game, field, f"is {shown(value)}, not a whole number from {low} to {high}")
    return value


def text(value: Any, field: str, game: str, longest: int = 200) -> str:
    if not isinstance(value, str) or len(value) > longest:
        raise damaged(game, field, f"is {shown(value)}, not a text of up to {longest} characters")
    return value


def flag(value: Any, field: str, game: str) -> bool:
    if not isinstance(value, bool):
        raise damaged(game, field, f"is {shown(value)}, not true or false")
    return value


def one_of(value: Any, choices: Iterable[Any], field: str, game: str) -> Any:
    """``value`` if it is one of ``choices`` with the same type (so ``true`` is not taken for 1)."""
    choices = tuple(choices)
    if not any(type(value) is type(choice) and value == choice for choice in choices):
        raise damaged(game, field, f"is {shown(value)}, not one of {', '.join(map(repr, choices))}")
    return value


def listed(value: Any, shortest: int, longest: int, field: str, game: str) -> list[Any]:
    if not isinstance(value, list) or not shortest <= len(value) <= longest:
        raise damaged(game, field, f"is {shown(value)}, not a list of {shortest} to {longest} entries")
    return value


def keyed(value: Any, longest: int, field: str, game: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or len(value) > longest:
        raise damaged(game, field, f"is {shown(value)}, not an object of up to {longest} entries")
    return value


def number_key(value: Any, low: int, high: int, field: str, game: str) -> int:
    """An object key holding a whole number, written in ASCII digits as ``str(n)`` writes it."""
    if not isinstance(value, str) or not _NUMBER.fullmatch(value) or str(int(value)) != value:
        raise damaged(game, field, f"key {shown(value)} is not a whole number")
    return whole(int(value), low, high, field, game)


def cell(value: Any, field: str, game: str) -> Hex:
    """A cell label such as ``C4`` (checking it lies on the board is the caller's part)."""
    parsed = parse_label(value) if isinstance(value, str) else None
    if parsed is None or value != value.strip().upper():
        raise damaged(game, field, f"{shown(value)} is not a cell label like C4")
    return Hex.from_offset(*parsed)


class Fields:
    """One stored object, read by field name; ``done`` refuses any field nobody asked for, so a new
    field is one more read and a stray one is damage. Games saved before a field existed get it from
    an upgrade (``Ruleset.check_envelope``, with a new ``state_version``)."""

    def __init__(self, data: Any, game: str, where: str = "", known: Iterable[str] = ()):
        if not isinstance(data, Mapping):
            raise damaged(game, where or "the state", f"is {shown(data)}, not an object")
        self.data, self.game, self.where, self.read = data, game, where, set(known)

    def name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        if key not in self.data:
            raise damaged(self.game, self.name(key), "is missing")
        return self.data[key]

    def whole(self, key: str, low: int, high: int) -> int:
        return whole(self[key], low, high, self.name(key), self.game)

    def text(self, key: str, longest: int = 200) -> str:
        return text(self[key], self.name(key), self.game, longest)

    def flag(self, key: str) -> bool:
        return flag(self[key], self.name(key), self.game)

    def one_of(self, key: str, choices: Iterable[Any]) -> Any:
        return one_of(self[key], choices, self.name(key), self.game)

    def listed(self, key: str, shortest: int, longest: int) -> list[Any]:
        return listed(self[key], shortest, longest, self.name(key), self.game)

    def keyed(self, key: str, longest: int) -> Mapping[str, Any]:
        return keyed(self[key], longest, self.name(key), self.game)

    def done(self) -> None:
        extra = sorted(map(str, set(self.data) - self.read))
        if extra:
            raise damaged(self.game, self.where or "the state", f"has unknown fields: {shown(', '.join(extra))}")
