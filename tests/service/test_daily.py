"""Deadlines at a time of day (``deadline_at``): "turns end at the next such time at least turn_time
away", fixed in a time zone or chosen for the most players awake (``service.daily``)."""

from __future__ import annotations

import datetime as dt

import pytest

from engine import OptionError, find_ruleset
from service.daily import Daily, choose, read
from service.errors import GameError
from service.gameoptions import settle
from service.models import TimeSettings
from service.ops.lobby import rechosen
from service.reminders import ReminderSettings
from service.timing import daily_start, turn_deadline
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD

HOUR, DAY = 3600, 86400
KYIV_WINTER = dt.timezone(dt.timedelta(hours=2))


def at(*when, tz=dt.UTC) -> float:
    return dt.datetime(*when, tzinfo=tz).timestamp()


def test_a_turn_ends_at_the_first_such_time_at_least_its_turn_time_after_it_began():
    def deadline(settings: TimeSettings, started: float) -> float:
        return turn_deadline(settings, daily_start(settings, started), [])

    daily = TimeSettings(round_seconds=DAY, daily="20:00 Europe/Kyiv")
    started = at(2026, 11, 27, 14, tz=KYIV_WINTER)
    assert deadline(daily, started) == at(2026, 11, 28, 20, tz=KYIV_WINTER)  # 30 hours: 24 are too few
    quick = TimeSettings(round_seconds=6 * HOUR, daily="20:00 Europe/Kyiv")
    assert deadline(quick, started) == at(2026, 11, 27, 20, tz=KYIV_WINTER)
    assert deadline(TimeSettings(round_seconds=DAY), started) == started + DAY  # without: turn_time


def test_a_time_the_clocks_skip_comes_just_after_the_gap():
    """Kyiv's clocks go from 03:00 to 04:00 on 2027-03-28: "03:30" that day is 04:30 local."""
    spring = Daily(3, 30, "Europe/Kyiv")
    assert spring.next_after(at(2027, 3, 28, 0)) == at(2027, 3, 28, 1, 30)  # 04:30 at UTC+3


@pytest.mark.parametrize(
    ("typed", "stored"), [("20:00 europe/kyiv", "20:00 Europe/Kyiv"), ("7:05", "07:05 UTC"), ("AUTO", "auto")]
)
def test_deadline_at_is_read_as_players_type_it(typed, stored):
    assert read(typed).text() == stored
    assert Daily.parse(stored).text() == stored


@pytest.mark.parametrize("typed", ["25:00 UTC", "8pm", "20:00 Mars/Olympus", "20:00 UTC extra"])
def test_anything_else_is_refused(typed):
    with pytest.raises(GameError, match="deadline_at is a time of day|not a time zone I know"):
        read(typed)


def test_deadline_at_goes_with_a_deadline_per_turn_only():
    rs = find_ruleset("conquest")
    assert settle(rs, {"deadline_at": "20:00 Europe/Kyiv"}).time.daily == "20:00 Europe/Kyiv"
    with pytest.raises(OptionError, match="deadline_at goes with a deadline per turn"):
        settle(rs, {"deadline_at": "20:00", "clock": "bank"})


def test_auto_picks_the_hour_most_players_are_awake_then_the_one_nearest_their_evenings():
    """New York (no quiet hours: asleep 23-07), Kyiv (22-08) and Tokyo (00-08) are all awake from
    12:00 to 15:00 UTC; 12:00 and 14:00 are as near 20:00 for the three together (07, 14 and 21
    o'clock: 11 + 6 + 1 hours; 09, 16 and 23: 11 + 4 + 3), 13:00 is not (19), and the earlier wins."""
    players = [
        ReminderSettings(time_zone="America/New_York"),
        ReminderSettings(time_zone="Europe/Kyiv", quiet_start=22, quiet_end=8),
        ReminderSettings(time_zone="Asia/Tokyo", quiet_start=0, quiet_end=8),
    ]
    chosen = choose(players, at(2026, 11, 27, 9))
    assert chosen.text() == "auto 12:00 UTC 3/3"
    assert chosen.shown() == "12:00 UTC: awake for 3 of 3 players"
    night_owls = [ReminderSettings(time_zone="UTC", quiet_start=1, quiet_end=23)] * 2 + [ReminderSettings()]
    assert choose(night_owls, at(2026, 11, 27, 9)).text() == "auto 23:00 UTC 2/3"  # the most, if not all


async def test_a_game_on_auto_chooses_its_hour_when_it_starts(env):
    for actor, zone in ((ALICE, "America/New_York"), (BOB, "Europe/Kyiv"), (CAROL, "Asia/Tokyo")):
        await env.master.settings.change_settings(actor.user_id, time_zone=zone, quiet_start=22, quiet_end=8)
    game = await env.master.lobby.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ALICE,
        ruleset="conquest",
        options={"size": "small"},
        time=TimeSettings(round_seconds=6 * HOUR, daily="auto"),
    )
    for actor in (BOB, CAROL):
        await env.master.lobby.join(game.id, actor)
    game = await env.master.lobby.start_game(game.id, ALICE)
    daily = Daily.parse(game.row.time.daily)
    assert (daily.auto, daily.players) == (True, 3) and daily.hour is not None
    deadline = dt.datetime.fromtimestamp(game.row.deadline_at, dt.UTC)
    assert (deadline.hour, deadline.minute) == (daily.hour, 0)
    assert game.row.deadline_at >= env.clock.now() + 6 * HOUR


async def test_more_time_moves_a_time_of_day_deadline_by_just_that_much(env):
    """Not rounded to the time of day again: two hours more are two hours, also after a pass."""
    game = await env.new_game(ALICE, BOB, CAROL, time=TimeSettings(round_seconds=6 * HOUR, daily="20:00 UTC"))
    deadline = game.row.deadline_at
    assert dt.datetime.fromtimestamp(deadline, dt.UTC).hour == 20
    game = await env.master.timekeeping.extend(game.id, ALICE, 2 * HOUR)
    assert game.row.deadline_at == deadline + 2 * HOUR
    game = await env.master.play.submit(game.id, BOB)
    assert game.row.deadline_at == deadline + 2 * HOUR


def test_a_rematch_chooses_its_own_hour_and_a_stored_zone_is_not_looked_up_again():
    assert rechosen(TimeSettings(daily="auto 12:00 UTC 3/3")).daily == "auto"
    assert rechosen(TimeSettings(daily="20:00 Europe/Kyiv")).daily == "20:00 Europe/Kyiv"
    gone = Daily.parse("20:00 Mars/Olympus")  # a zone this machine's database no longer has: UTC
    assert gone.next_after(at(2026, 11, 27, 9)) == at(2026, 11, 27, 20)
