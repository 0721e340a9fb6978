"""Counted nouns for what players read, so no text says "1 points" or "+1 cells"."""

from __future__ import annotations


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``count(1, "cell")`` is "1 cell", ``count(3, "cell")`` "3 cells"; irregular nouns give ``plural``."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
