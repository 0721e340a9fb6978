"""When each player's reminder goes: his own lead time before the deadline, moved earlier out of his
quiet hours. Pure arithmetic on Unix seconds, so tests check it without a database or a clock.

Quiet hours are whole local hours in the player's time zone, from ``quiet_start`` up to (not
including) ``quiet_end``, across midnight when the start is the later hour. A moment is quiet when
its local hour is one of them, whatever the date: a DST change that skips or repeats an hour just
makes that night's quiet period an hour shorter or longer. A reminder that would fall inside quiet
hours comes at the end of the non-quiet period before them instead: ``QUIET_MARGIN`` seconds before
they begin.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from dataclasses import dataclass
from functools import cache, lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from i18n import tr
from service.errors import GameError

log = logging.getLogger(__name__)

QUIET_MARGIN = 60.0
DEFAULT_TIME_ZONE = "UTC"


@dataclass(frozen=True)
class ReminderSettings:
    """One user's choices; the defaults are what a user who never ran /settings gets."""

    lead_seconds: int | None = None  # None: each game's own reminder time
    dm_reminders: bool = True
    quiet_start: int | None = None  # both hours set, or neither
    quiet_end: int | None = None
    time_zone: str = DEFAULT_TIME_ZONE

    @property
    def has_quiet_hours(self) -> bool:
        return self.quiet_start is not None and self.quiet_end is not None


DEFAULT_SETTINGS = ReminderSettings()


@lru_cache(maxsize=256)
def zone(name: str) -> ZoneInfo:
    """The time zone of that name; UTC if this machine's tz database no longer has it (names are
    checked when chosen, so only a newer database can drop one), so a game's turns never fail on it."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        log.warning("time zone %r is unknown here; reminders use UTC for it", name)
        return ZoneInfo(DEFAULT_TIME_ZONE)


def is_quiet(at: float, settings: ReminderSettings) -> bool:
    """Whether the moment ``at`` falls inside the user's quiet hours, in his time zone."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None:  # no quiet hours
        return False
    hour = dt.datetime.fromtimestamp(at, zone(settings.time_zone)).hour
    return start <= hour < end if start < end else hour >= start or hour < end


def outside_quiet_hours(at: float, settings: ReminderSettings) -> float:
    """``at`` itself if it is not quiet, else the end of the non-quiet period before it.

    Steps back one local hour at a time to the start of the quiet period (at most 23 hours, a few
    steps more around a DST change), so it never depends on how a wall-clock time maps to an instant
    on the day the clocks change."""
    local_zone = zone(settings.time_zone)
    for _ in range(48):
        if not is_quiet(at, settings):
            return at
        hour_began = dt.datetime.fromtimestamp(at, local_zone).replace(minute=0, second=0, microsecond=0).timestamp()
        at = min(hour_began, at) - QUIET_MARGIN
    raise ValueError(f"no moment outside the quiet hours {settings.quiet_start}-{settings.quiet_end}")


def reminder_time(
    deadline: float | None, lead_seconds: int, turn_started: float, settings: ReminderSettings
) -> float | None:
    """When a player's reminder goes: ``lead_seconds`` before the deadline, or earlier to stay out of
    his quiet hours; None when there is no deadline, no lead, or that moment is not after the turn began
    (the turn's own post told him then)."""
    if deadline is None or lead_seconds <= 0:
        return None
    at = outside_quiet_hours(deadline - lead_seconds, settings)
    return at if at > turn_started else None


@cache
def time_zone_names() -> dict[str, str]:
    """Every IANA time zone this machine knows, by its lower-case name."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def time_zone_named(text: str) -> str:
    """The IANA name meant by ``text`` (any letter case), or a clear refusal."""
    name = time_zone_names().get(text.strip().lower())
    if name is None:
        raise GameError(
            tr(
                "{name!r} is not a time zone I know: give an IANA name such as Europe/Kyiv, "
                "America/New_York or Asia/Shanghai (the list offers them as you type)",
                name=text.strip()[:60],
            )
        )
    return name
