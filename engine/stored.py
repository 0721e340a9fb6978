"""Checks for values read back from stored state: a damaged field is a StateError naming the game."""

from __future__ import annotations

from typing import Any

from engine.errors import StateError


def whole(value: Any, minimum: int, game: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise StateError(f"{game} state is damaged: {value!r} is not a whole number >= {minimum}")
    return value


def text(value: Any, game: str) -> str:
    if not isinstance(value, str):
        raise StateError(f"{game} state is damaged: {value!r} is not a text")
    return value
