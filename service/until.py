"""When a player will be back, as he types it on his phone: a stretch of time ("3d", "1w 2d", "12h",
"1d 6h") from now, or a moment in his own time zone ("2026-12-05 18:00", "2026-12-05", "18:00").

A date alone means the start of that day (he is back on it); a time alone, the next time the clock
shows it. Pure arithmetic on Unix seconds, so tests check it without a clock.
"""

from __future__ import annotations

import datetime as dt
import re

from i18n import tr
from service.errors import GameError
from service.reminders import zone

_UNIT_SECONDS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60}
_STRETCH = re.compile(r"(\d{1,4})\s*(w(?:ee)?k?s?|d(?:ays?)?|h(?:ours?|rs?)?|m(?:in(?:ute)?s?)?)", re.IGNORECASE)
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")


def parse_until(text: str, now: float, time_zone: str) -> float:
    """The moment ``text`` means, as Unix seconds; a clear refusal for anything else (a moment not
    after ``now`` included)."""
    words = " ".join(text.strip().split())
    at = _stretch(words, now)
    if at is None:
        at = _moment(words, now, time_zone)
    if at is None:
        raise GameError(
            tr(
                "say how long you will be away (3d, 12h, 1w 2d) or until when, in your time zone "
                "(2026-12-05 18:00, 2026-12-05 or 18:00), not {text!r}",
                text=text.strip()[:40],
            )
        )
    if at <= now:
        raise GameError(tr("{text} is already past: say until when you will be away", text=words[:40]))
    return at


def _stretch(words: str, now: float) -> float | None:
    """``now`` plus "3d 12h", or None if ``words`` is not a stretch of time."""
    parts = list(_STRETCH.finditer(words))
    if not parts or _STRETCH.sub("", words).strip():
        return None
    return now + sum(int(part[1]) * _UNIT_SECONDS[part[2][0].lower()] for part in parts)


def _moment(words: str, now: float, time_zone: str) -> float | None:
    """The moment "2026-12-05 18:00", "2026-12-05" or "18:00" in ``time_zone``, or None."""
    local = zone(time_zone)
    if clock := _CLOCK.fullmatch(words):
        hour, minute = int(clock[1]), int(clock[2])
        if hour > 23 or minute > 59:
            return None
        today = dt.datetime.fromtimestamp(now, local)
        at = dt.datetime.combine(today.date(), dt.time(hour, minute), local)
        if at.timestamp() <= now:
            at = dt.datetime.combine(today.date() + dt.timedelta(days=1), dt.time(hour, minute), local)
        return at.timestamp()
    try:
        moment = dt.datetime.fromisoformat(words)
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=local)).timestamp()
