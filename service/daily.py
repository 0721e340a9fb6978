"""Deadlines at a time of day (``deadline_at``): players of daily games expect "turns end at 20:00",
not "24 hours after the last one ended".

A game's turns then end at the first such time at least its ``turn_time`` after the turn began. The
time is fixed ("20:00 Europe/Kyiv"), or ``auto``: chosen when the game starts as the whole UTC hour
that falls in the most players' waking hours (their ``/settings`` time zone and quiet hours; a player
without quiet hours is taken to sleep from 23:00 to 07:00), the tie going to the hour nearest each
player's evening (20:00 his time). Stored as text in ``games.daily_deadline``: "20:00 Europe/Kyiv",
"auto" (before the start), or "auto 20:00 UTC 4/4" (after it: the time and how many were awake).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Sequence

from i18n import option_name, tr
from service.errors import GameError
from service.reminders import ReminderSettings, is_quiet, time_zone_named, zone

AUTO = "auto"
NIGHT = (23, 7)  # the quiet hours of a player who set none
EVENING = 20  # the local hour a tie goes nearest to
_TIME = re.compile(r"(\d{1,2}):(\d{2})")


@dataclasses.dataclass(frozen=True)
class Daily:
    """A time of day turns end at: ``hour``:``minute`` in ``zone``; for ``auto``, how many of the
    players were awake then (``awake`` of ``players``), None before the game chose it."""

    hour: int | None
    minute: int
    zone: str
    auto: bool = False
    awake: int | None = None
    players: int | None = None

    def text(self) -> str:
        """As stored."""
        if self.hour is None:
            return AUTO
        at = f"{self.hour:02d}:{self.minute:02d} {self.zone}"
        return f"{AUTO} {at} {self.awake}/{self.players}" if self.auto else at

    @classmethod
    def parse(cls, text: str) -> Daily:
        """What ``text()`` wrote ("auto", "20:00 Europe/Kyiv", "auto 20:00 UTC 4/4"); its zone is not
        looked up again (``zone`` reads one this machine no longer knows as UTC, so no game sticks)."""
        if text == AUTO:
            return cls(None, 0, "UTC", auto=True)
        parts = text.split()
        auto = parts[0] == AUTO
        if auto:
            parts = parts[1:]
        found = _TIME.fullmatch(parts[0]) if len(parts) in (2, 3) else None
        if found is None:
            raise GameError(tr("this game's time of day for deadlines is damaged: {text!r}", text=text[:60]))
        awake, players = (int(n) for n in parts[2].split("/")) if auto and len(parts) == 3 else (None, None)
        return cls(int(found[1]), int(found[2]), parts[1], auto, awake, players)

    def next_after(self, at: float) -> float:
        """The first moment of this time of day at or after ``at`` (a day with no such moment, the
        spring-forward hour, takes the moment after the gap)."""
        assert self.hour is not None, "an auto time is chosen when the game starts"
        local = zone(self.zone)
        day = dt.datetime.fromtimestamp(at, local).date()
        for ahead in range(3):
            moment = dt.datetime.combine(day + dt.timedelta(days=ahead), dt.time(self.hour, self.minute), local)
            moment = moment.astimezone(dt.UTC).astimezone(local)  # a time inside a gap moves past it
            if moment.timestamp() >= at:
                return moment.timestamp()
        raise AssertionError("a time of day comes within three days")

    def shown(self) -> str:
        """For the card: "20:00 Europe/Kyiv", or "20:00 UTC: awake for 4 of 4 players"."""
        if self.hour is None:
            return tr("chosen when the game starts, for the most players awake")
        at = f"{self.hour:02d}:{self.minute:02d} {self.zone}"
        if not self.auto:
            return at
        return tr("{at}: awake for {awake} of {players} players", at=at, awake=self.awake, players=self.players)


def read(text: str) -> Daily:
    """ "20:00 Europe/Kyiv", "20:00" (UTC) or "auto" as players type it; a clear refusal otherwise."""
    words = text.split()
    if len(words) == 1 and words[0].lower() == AUTO:
        return Daily(None, 0, "UTC", auto=True)
    found = _TIME.fullmatch(words[0]) if 1 <= len(words) <= 2 else None
    if found is None or int(found[1]) > 23 or int(found[2]) > 59:
        raise GameError(
            tr(
                "{deadline_at} is a time of day and a time zone, such as 20:00 Europe/Kyiv, or auto; not {text!r}",
                deadline_at=option_name("deadline_at"),
                text=text[:60],
            )
        )
    return Daily(int(found[1]), int(found[2]), time_zone_named(words[1]) if len(words) == 2 else "UTC")


def choose(settings: Sequence[ReminderSettings], on: float) -> Daily:
    """The whole UTC hour of the day of ``on`` when the most of these players are awake (a tie to
    the hour nearest their evenings)."""

    def awake(at: float) -> int:
        return sum(not is_quiet(at, _with_night(one)) for one in settings)

    def from_evening(at: float) -> int:
        hours = (dt.datetime.fromtimestamp(at, zone(one.time_zone)).hour for one in settings)
        return sum(min((hour - EVENING) % 24, (EVENING - hour) % 24) for hour in hours)

    midnight = dt.datetime.fromtimestamp(on, dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
    best = min(range(24), key=lambda hour: (-awake(midnight + hour * 3600), from_evening(midnight + hour * 3600), hour))
    return Daily(best, 0, "UTC", auto=True, awake=awake(midnight + best * 3600), players=len(settings))


def _with_night(settings: ReminderSettings) -> ReminderSettings:
    """His quiet hours, or the night's if he set none."""
    if settings.has_quiet_hours:
        return settings
    return dataclasses.replace(settings, quiet_start=NIGHT[0], quiet_end=NIGHT[1])
