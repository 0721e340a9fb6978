"""How long a player will be away, as he types it (``service.until``)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.errors import GameError
from service.until import parse_until

NOW = dt.datetime(2026, 11, 27, 9, 30, tzinfo=dt.UTC).timestamp()  # 11:30 in Kyiv
HOUR, DAY = 3600, 86400


@pytest.mark.parametrize(
    ("text", "later"),
    [
        ("3d", 3 * DAY),
        ("12h", 12 * HOUR),
        ("1w 2d", 9 * DAY),
        ("1d6h", DAY + 6 * HOUR),
        ("90m", 90 * 60),
        ("2 days", 2 * DAY),
        ("1 week", 7 * DAY),
        ("5 hours 30 min", 5 * HOUR + 1800),
        ("3D", 3 * DAY),
    ],
)
def test_a_stretch_of_time_counts_from_now(text, later):
    assert parse_until(text, NOW, "UTC") == NOW + later


def test_a_moment_is_read_in_his_time_zone():
    kyiv = dt.timezone(dt.timedelta(hours=2))  # Europe/Kyiv in winter
    assert parse_until("2026-12-05 18:00", NOW, "Europe/Kyiv") == dt.datetime(2026, 12, 5, 18, tzinfo=kyiv).timestamp()
    assert parse_until("2026-12-05", NOW, "Europe/Kyiv") == dt.datetime(2026, 12, 5, tzinfo=kyiv).timestamp()


def test_a_time_alone_is_the_next_time_the_clock_shows_it():
    kyiv = dt.timezone(dt.timedelta(hours=2))
    assert parse_until("18:00", NOW, "Europe/Kyiv") == dt.datetime(2026, 11, 27, 18, tzinfo=kyiv).timestamp()
    assert parse_until("08:15", NOW, "Europe/Kyiv") == dt.datetime(2026, 11, 28, 8, 15, tzinfo=kyiv).timestamp()


@pytest.mark.parametrize("text", ["2026-11-01", "2026-11-27 11:00"])
def test_a_moment_already_past_is_refused(text):
    with pytest.raises(GameError, match="already past"):
        parse_until(text, NOW, "Europe/Kyiv")


@pytest.mark.parametrize("text", ["soon", "3", "3 months", "25:00", "2026-13-01", "d3", "0d"])
def test_anything_else_is_refused_saying_how_to_write_it(text):
    with pytest.raises(GameError, match="3d, 12h, 1w 2d|already past"):
        parse_until(text, NOW, "UTC")


@given(st.text(max_size=40))
def test_any_text_is_a_moment_to_come_or_a_clear_refusal(text):
    try:
        at = parse_until(text, NOW, "America/New_York")
    except GameError as err:
        assert str(err)
    else:
        assert at > NOW
