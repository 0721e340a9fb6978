"""Komi: cells of territory added at the end to the seat a two-player territory game disfavours.

Where self-play between the strongest computers shows one seat winning more than 55% of the decisive
games, the other seat's count gets a measured compensation (rules/fortress.md, Balance; the same
check for every two-player ruleset): a default per setting, kept as a table in the ruleset and
re-measured by ``bench/bench_balance.py``, and the option ``komi`` to set it by hand (0 turns it
off). The rulesets that count territory share its steps, its option and its stored form here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine import stored
from engine.ruleset import Option

STEPS = tuple(f"{half / 2:g}" for half in range(25))  # "0", "0.5", ... "12": the komis one may set


class Compensated:
    """A state (with ``territory(seat)``) whose ``komi`` is added to the count of seat ``KOMI_SEAT``
    at the end: the one place that says which seat it goes to, for the result, the computers and the
    board alike."""

    KOMI_SEAT: ClassVar[int]
    komi: float

    def territory(self, seat: int) -> int:
        """The cells ``seat`` holds: each state counts its own."""
        raise NotImplementedError

    def komi_of(self, seat: int) -> float:
        """The komi in ``seat``'s count: all of it for the compensated seat, none for the other."""
        return self.komi if seat == self.KOMI_SEAT else 0.0

    def score(self, seat: int) -> float:
        """What decides the game on the board: the territory, with the komi where it is given."""
        return self.territory(seat) + self.komi_of(seat)


def option(description: str) -> Option:
    """The ``komi`` option: unset takes the ruleset's measured default."""
    return Option("komi", "choice", None, description, choices=STEPS)


def chosen(opts: dict[str, Any], default: float) -> float:
    """The komi a new game is given: the option's, or the measured default when it is unset."""
    return default if opts["komi"] is None else float(opts["komi"])


def read(value: Any, game: str) -> float:
    """A stored komi: a number of cells in halves, 0 to 12 (stored as 2.5 or 2.0, read from 2 as well)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or f"{value:g}" not in STEPS:
        raise stored.damaged(game, "komi", f"is {stored.shown(value)}, not a number of cells from 0 to 12 in halves")
    return float(value)
