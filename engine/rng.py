"""Seeded randomness kept inside the game state.

The engine never touches the global ``random`` module: a state carries the PRNG's integer
state, a rule that needs chance builds an :class:`Rng` from it and stores ``rng.state`` back
into the new state, so replaying a game from its history gives the same dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def seed_state(seed: int | str) -> int:
    """Turn any seed (int or text) into a 64-bit PRNG state, stably across Python runs."""
    if isinstance(seed, str):
        value = 0xCBF29CE484222325
        for byte in seed.encode():
            value = ((value ^ byte) * 0x100000001B3) & _MASK
        return value
    return int(seed) & _MASK


def scramble(value: int) -> int:
    """SplitMix64's output mix: neighbouring integers get unrelated 64-bit values."""
    z = value & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64: tiny, fast, and its whole state is one integer."""

    def __init__(self, state: int):
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return scramble(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``."""
        return low + self.below(high - low + 1)

    def chance(self, numerator: int, denominator: int) -> bool:
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def ranks(self) -> Callable[[int], int]:
        """A random rank for every integer (a seeded tie-break): unlike a fixed order such as
        the integers' own, it favours no end of a range."""
        salt = self.next_u64()
        return lambda value: scramble(value ^ salt)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result
