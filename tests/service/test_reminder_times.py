"""Pure arithmetic of a player's reminder time: his lead before the deadline, moved earlier out of his
quiet hours (across midnight, over DST changes), never after the deadline, never before the turn."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.errors import GameError
from service.ops.usersettings import parse_lead, quiet_hours
from service.reminders import QUIET_MARGIN, ReminderSettings, is_quiet, reminder_time, time_zone_named

HOUR, DAY = 3600, 86400
KYIV = "Europe/Kyiv"


def at(zone: str, *when: int, fold: int = 0) -> float:
    """A local wall time in ``zone`` as Unix seconds."""
    return dt.datetime(*when, tzinfo=ZoneInfo(zone), fold=fold).timestamp()


def quiet(start: int, end: int, zone: str = KYIV) -> ReminderSettings:
    return ReminderSettings(quiet_start=start, quiet_end=end, time_zone=zone)


def test_without_quiet_hours_the_reminder_is_the_lead_before_the_deadline():
    deadline = at(KYIV, 2026, 6, 1, 3, 0)
    assert reminder_time(deadline, 2 * HOUR, deadline - DAY, ReminderSettings()) == deadline - 2 * HOUR


def test_a_reminder_inside_night_quiet_hours_comes_the_evening_before():
    night = quiet(22, 7)
    deadline = at(KYIV, 2026, 6, 2, 8, 0)  # the lead of 2 hours falls at 06:00, still quiet
    assert reminder_time(deadline, 2 * HOUR, deadline - DAY, night) == at(KYIV, 2026, 6, 1, 21, 59)
    assert reminder_time(deadline, 30 * 60, deadline - DAY, night) == deadline - 30 * 60  # 07:30: awake
    assert not is_quiet(at(KYIV, 2026, 6, 1, 21, 59), night) and is_quiet(at(KYIV, 2026, 6, 1, 22, 0), night)
    assert is_quiet(at(KYIV, 2026, 6, 2, 6, 59), night) and not is_quiet(at(KYIV, 2026, 6, 2, 7, 0), night)


def test_daytime_quiet_hours_and_the_time_zone_they_are_read_in():
    lunch = quiet(13, 15, "America/New_York")
    deadline = at("America/New_York", 2026, 6, 1, 15, 30)
    assert reminder_time(deadline, HOUR, deadline - DAY, lunch) == at("America/New_York", 2026, 6, 1, 12, 59)
    in_kyiv = quiet(13, 15)  # the same hours in Kyiv are 06:00-08:00 in New York: 14:30 there is fine
    assert reminder_time(deadline, HOUR, deadline - DAY, in_kyiv) == deadline - HOUR


def test_quiet_hours_across_the_spring_dst_change():
    """Kyiv skips 03:00-04:00 on 29 March 2026: quiet 01-05 is three real hours that night."""
    night = quiet(1, 5)
    deadline = at(KYIV, 2026, 3, 29, 5, 30)
    assert deadline - at(KYIV, 2026, 3, 29, 1, 0) == 3.5 * HOUR
    assert reminder_time(deadline, HOUR, deadline - DAY, night) == at(KYIV, 2026, 3, 29, 0, 59)


def test_quiet_hours_across_the_autumn_dst_change():
    """Kyiv repeats 03:00-04:00 on 25 October 2026: both 03:xx are quiet, the reminder goes before."""
    night = quiet(3, 4)
    deadline = at(KYIV, 2026, 10, 25, 4, 30)
    second_three = at(KYIV, 2026, 10, 25, 3, 45, fold=1)
    assert deadline - second_three == 45 * 60 and is_quiet(second_three, night)
    assert is_quiet(at(KYIV, 2026, 10, 25, 3, 45, fold=0), night)
    assert reminder_time(deadline, 45 * 60, deadline - DAY, night) == at(KYIV, 2026, 10, 25, 2, 59)


def test_no_reminder_when_its_time_is_not_after_the_turn_began():
    night = quiet(22, 7)
    deadline = at(KYIV, 2026, 6, 2, 8, 0)
    started = at(KYIV, 2026, 6, 1, 23, 0)  # the turn began in quiet hours that last until the lead
    assert reminder_time(deadline, 2 * HOUR, started, night) is None
    assert reminder_time(deadline, 2 * HOUR, deadline - HOUR, ReminderSettings()) is None  # lead longer than the turn
    assert reminder_time(None, HOUR, deadline - DAY, ReminderSettings()) is None


def test_a_time_zone_the_tz_database_dropped_reads_as_utc():
    gone = quiet(22, 7, "Europe/Gone")
    assert is_quiet(at("UTC", 2026, 6, 1, 23, 0), gone) and not is_quiet(at("UTC", 2026, 6, 1, 21, 0), gone)


ZONES = st.sampled_from(
    [
        "UTC",
        KYIV,
        "America/New_York",
        "America/St_Johns",  # -03:30, DST
        "Asia/Kathmandu",  # +05:45
        "Australia/Lord_Howe",  # a DST change of half an hour
        "Pacific/Chatham",  # +12:45 / +13:45
        "Africa/Casablanca",  # DST suspended during Ramadan
    ]
)


@given(
    deadline=st.floats(min_value=1_600_000_000, max_value=2_100_000_000),
    lead=st.integers(min_value=5 * 60, max_value=7 * DAY),
    turn=st.integers(min_value=60, max_value=30 * DAY),
    start=st.integers(min_value=0, max_value=23),
    length=st.integers(min_value=1, max_value=23),
    zone=ZONES,
)
def test_the_reminder_is_never_quiet_never_late_and_as_late_as_allowed(deadline, lead, turn, start, length, zone):
    settings = quiet(start, (start + length) % 24, zone)
    started = deadline - turn
    chosen = reminder_time(deadline, lead, started, settings)
    wanted = deadline - lead
    if chosen is None:  # the turn began inside the quiet hours that last until the lead
        assert wanted <= started or (wanted - started < DAY and is_quiet(wanted, settings))
        assert all(is_quiet(t, settings) for t in range(int(started) + 1, int(wanted), 900))
        return
    assert started < chosen <= wanted <= deadline
    assert not is_quiet(chosen, settings)
    if chosen != wanted:  # moved earlier: quiet hours begin right after it, and last until the lead
        assert is_quiet(chosen + QUIET_MARGIN, settings) and is_quiet(wanted, settings)
        assert wanted - chosen <= 24 * HOUR


def test_lead_times_are_read_in_days_hours_and_minutes_within_bounds():
    assert parse_lead("90") == 90 * 60
    assert parse_lead("45m") == 45 * 60
    assert parse_lead(" 1h30m ") == 90 * 60
    assert parse_lead("1d 2h") == 26 * HOUR
    assert parse_lead("GAME") is None
    with pytest.raises(GameError, match="looks like 30m, 2h"):
        parse_lead("soon")
    with pytest.raises(GameError, match="between 5 minutes and 7 days, not 2 minutes"):
        parse_lead("2m")
    with pytest.raises(GameError, match="not 8 days"):
        parse_lead("8d")


def test_quiet_hours_and_time_zones_are_checked():
    none = ReminderSettings()
    assert quiet_hours(none, 22, 7, False) == (22, 7)
    assert quiet_hours(quiet(22, 7), None, 6, False) == (22, 6)
    assert quiet_hours(quiet(22, 7), None, None, True) == (None, None)
    with pytest.raises(GameError, match="quiet_start is an hour of the day, from 0 to 23, not 24"):
        quiet_hours(none, 24, 7, False)
    with pytest.raises(GameError, match="need both"):
        quiet_hours(none, 22, None, False)
    with pytest.raises(GameError, match="no hours at all"):
        quiet_hours(none, 7, 7, False)
    assert time_zone_named("europe/kyiv") == KYIV
    with pytest.raises(GameError, match="not a time zone I know"):
        time_zone_named("Europe/Atlantis")
