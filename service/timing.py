"""Deadline arithmetic for the time modes, kept pure so tests can check it without a database.

- ``round``: every turn has the same deadline for everybody; who misses it plays the default orders.
- ``bank``: each player has a total time bank; it runs while the game waits for him. An empty bank
  loses the game (removal for timeout).
- ``increment``: a bank that grows by the increment after each turn the player submits.
- ``none``: no deadline at all.
"""

from __future__ import annotations

from collections.abc import Iterable

from i18n import joined, mark, tr
from service.daily import AUTO, Daily
from service.errors import GameError
from service.gameoptions import DAY, duration
from service.models import TIME_MODES, TimeSettings

BANKED = ("bank", "increment")  # the clocks on which each player's time bank runs down


def turn_deadline(settings: TimeSettings, started_at: float, waiting_banks: Iterable[float]) -> float | None:
    """When the game must next act on its own, given the banks of the humans it is waiting for."""
    if settings.mode == "round":
        return started_at + settings.round_seconds
    if settings.mode in BANKED:
        banks = list(waiting_banks)
        return started_at + max(0.0, min(banks)) if banks else None
    return None


def daily_start(settings: TimeSettings, started_at: float) -> float:
    """When a turn begun at ``started_at`` starts as far as its clock goes: where turns end at a time
    of day, a turn time before the first such time at least a turn time away (so a pause or more time
    moves that deadline as it moves any other, and it is not rounded to the time of day again)."""
    if settings.mode != "round" or settings.daily in (None, AUTO):
        return started_at
    return Daily.parse(settings.daily).next_after(started_at + settings.round_seconds) - settings.round_seconds


def bank_after_pass(settings: TimeSettings, bank: float, started_at: float, now: float) -> float:
    """A player's bank once he submits: time used this turn comes off, the increment goes on."""
    left = max(0.0, bank - (now - started_at))
    return left + settings.increment_seconds if settings.mode == "increment" else left


FULL_SEARCH_CLOCK = 600.0  # ten minutes left on a chess clock or more: a computer searches in full
LEAST_SEARCH_SHARE = 0.05


def clocked_nodes(nodes: int, bank_left: float | None) -> int:
    """A computer player's search on a chess clock: its level's ``nodes`` in proportion to the time
    left on its clock against ten minutes (with Bullet's one minute, a tenth), never below a
    twentieth. Counted in nodes, not seconds, so the same position and clock give the same move."""
    if bank_left is None:
        return nodes
    share = min(1.0, max(LEAST_SEARCH_SHARE, bank_left / FULL_SEARCH_CLOCK))
    return max(1, round(nodes * share))


LIMITS = {
    "round_seconds": (60, 30 * DAY, mark("the time for a turn must be between {low} and {high}, not {value}")),
    "bank_seconds": (60, 90 * DAY, mark("the time bank must be between {low} and {high}, not {value}")),
    "increment_seconds": (0, 7 * DAY, mark("the time added per turn must be between {low} and {high}, not {value}")),
    "reminder_seconds": (0, 7 * DAY, mark("the reminder lead time must be between {low} and {high}, not {value}")),
    "missed_limit": (
        1,
        20,
        mark("the missed turns that remove a player must be between {low} and {high}, not {value}"),
    ),
}
"""Each time setting's range, and what is said when a value is out of it."""


def check_settings(settings: TimeSettings) -> None:
    """Refuse a clock no game could run on, saying which setting is wrong."""
    if settings.mode not in TIME_MODES:
        raise GameError(tr("time mode {mode!r} must be one of: {modes}", mode=settings.mode, modes=joined(TIME_MODES)))
    if settings.daily is not None:
        Daily.parse(settings.daily)  # refuses a time of day it cannot read
    for name, (low, high, refusal) in LIMITS.items():
        value = getattr(settings, name)
        if not low <= value <= high:
            shown = str if name == "missed_limit" else duration
            raise GameError(tr(refusal, low=shown(low), high=shown(high), value=shown(value)))
