"""Each player's reminder at his own time, from his own settings, once per turn, across restarts."""

from __future__ import annotations

import pytest

from service.errors import GameError
from service.models import TimeSettings
from service.reminders import QUIET_MARGIN
from tests.service.conftest import ALICE, BOB, HOUR
from tests.service.test_exactly_once import Crash, crash_at

DAY = 86400
A_DAY_WITH_AN_HOURS_REMINDER = TimeSettings(round_seconds=DAY, reminder_seconds=HOUR)


async def reminded(env) -> list[tuple[int, list[int]]]:
    """(turn, users in id order) of every reminder delivered so far."""
    await env.outbox.flush()
    return [(a.payload["turn"], sorted(a.payload["user_ids"])) for a in env.sink.posted if a.kind == "reminder"]


async def wait_until(env, at: float) -> None:
    env.clock.advance(at - env.clock.now())
    await env.master.timekeeping.sweep()


async def test_two_players_are_reminded_at_their_own_times_once_each_across_restarts(env):
    await env.master.settings.change_settings(ALICE.user_id, lead="3h")  # Bob keeps the game's hour
    game = await env.new_game(ALICE, BOB, time=A_DAY_WITH_AN_HOURS_REMINDER)
    deadline = game.row.deadline_at
    assert game.row.reminder_at == deadline - 3 * HOUR  # the game wakes at the earliest reminder

    await wait_until(env, deadline - 3 * HOUR - 1)
    assert await reminded(env) == []
    await wait_until(env, deadline - 3 * HOUR)
    assert await reminded(env) == [(1, [ALICE.user_id])]
    assert (await env.master.games.get_game(game.id)).row.reminder_at == deadline - HOUR

    await env.restart()
    await wait_until(env, deadline - 2 * HOUR)
    await env.restart()
    await wait_until(env, deadline - HOUR)
    await env.restart()
    await wait_until(env, deadline - 10)
    assert await reminded(env) == [(1, [ALICE.user_id]), (1, [BOB.user_id])]
    assert await env.count("SELECT COUNT(*) FROM outbox WHERE kind = 'reminder'") == 2

    await wait_until(env, deadline)  # the round resolves; the next one reminds both again
    await wait_until(env, deadline + DAY - 3 * HOUR)
    await wait_until(env, deadline + DAY - HOUR)
    assert await reminded(env) == [(1, [ALICE.user_id]), (1, [BOB.user_id]), (2, [ALICE.user_id]), (2, [BOB.user_id])]


async def test_a_reminder_missed_while_the_bot_was_down_comes_after_the_restart_if_the_deadline_is_ahead(env):
    game = await env.new_game(ALICE, BOB, time=A_DAY_WITH_AN_HOURS_REMINDER)
    deadline = game.row.deadline_at
    await env.restart()
    env.clock.advance(deadline - HOUR / 2 - env.clock.now())  # down past the reminder time
    await env.restart()
    assert await env.master.timekeeping.sweep() == 1
    assert await reminded(env) == [(1, [ALICE.user_id, BOB.user_id])]

    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    game = await env.master.games.get_game(game.id)
    env.clock.advance(game.row.deadline_at + 60 - env.clock.now())  # down past the next deadline itself
    await env.restart()
    await env.master.timekeeping.sweep()
    assert await reminded(env) == [(1, [ALICE.user_id, BOB.user_id])]  # too late to remind: it resolved
    assert (await env.master.games.get_game(game.id)).row.turn == 2


@pytest.mark.parametrize("point", ["planned", "in_transaction", "committed", "delivered"])
async def test_a_crash_around_a_reminder_neither_loses_nor_doubles_it(env, point):
    game = await env.new_game(ALICE, BOB, time=A_DAY_WITH_AN_HOURS_REMINDER)
    await env.outbox.flush()
    env.clock.advance(game.row.deadline_at - HOUR - env.clock.now())
    await env.restart(fault=crash_at(point))
    with pytest.raises(Crash):
        await env.master.timekeeping.sweep()
        await env.outbox.flush()
    await env.restart()
    await env.master.timekeeping.sweep()
    await env.master.timekeeping.sweep()
    assert await reminded(env) == [(1, [ALICE.user_id, BOB.user_id])]


async def test_dms_off_and_quiet_hours_shape_each_players_reminder(env):
    """The game starts at 1_800_000_000 (15 January 2027, 08:00 UTC); its deadline is 08:00 the next day."""
    await env.master.settings.change_settings(ALICE.user_id, dm_reminders=False)
    await env.master.settings.change_settings(BOB.user_id, quiet_start=6, quiet_end=9, time_zone="UTC")
    game = await env.new_game(ALICE, BOB, time=A_DAY_WITH_AN_HOURS_REMINDER)
    deadline = game.row.deadline_at
    quiet_begins = deadline - 2 * HOUR  # 06:00 UTC
    assert game.row.reminder_at == quiet_begins - QUIET_MARGIN

    await wait_until(env, deadline - 10)
    assert await reminded(env) == [(1, [BOB.user_id])]
    assert env.sink.posted[-1].payload["user_ids"] == [BOB.user_id]


async def test_a_change_of_settings_replans_the_reminders_of_running_games(env):
    game = await env.new_game(ALICE, BOB, time=A_DAY_WITH_AN_HOURS_REMINDER)
    deadline = game.row.deadline_at
    await env.master.settings.change_settings(BOB.user_id, lead="5h")
    assert (await env.master.games.get_game(game.id)).row.reminder_at == deadline - 5 * HOUR
    await env.master.settings.change_settings(BOB.user_id, dm_reminders=False)
    await env.master.settings.change_settings(ALICE.user_id, dm_reminders=False)
    assert (await env.master.games.get_game(game.id)).row.reminder_at is None
    await env.master.settings.change_settings(ALICE.user_id, dm_reminders=True)
    await wait_until(env, deadline - 10)
    assert await reminded(env) == [(1, [ALICE.user_id])]
    bob = await env.master.settings.settings_of(BOB.user_id)
    assert bob.lead_seconds == 5 * HOUR and not bob.dm_reminders


async def test_a_refused_change_changes_nothing(env):
    await env.master.settings.change_settings(ALICE.user_id, lead="2h", time_zone="Europe/Kyiv")
    before = await env.master.settings.settings_of(ALICE.user_id)
    with pytest.raises(GameError, match="not a time zone I know"):
        await env.master.settings.change_settings(ALICE.user_id, lead="30m", time_zone="Mars/Olympus")
    assert await env.master.settings.settings_of(ALICE.user_id) == before
    assert before.lead_seconds == 2 * HOUR and before.time_zone == "Europe/Kyiv"


async def test_a_time_bank_warns_its_player_under_a_quarter_and_again_under_a_tenth(env):
    """Issue: "Time-bank games: a reminder when a player's bank falls under a quarter and again under
    10% (today a player with `clock:bank bank:3600` lost on time having had no reminder at all)"."""
    game = await env.new_game(ALICE, BOB, time=TimeSettings(mode="bank", bank_seconds=HOUR, reminder_seconds=600))
    start = game.row.turn_started_at
    await env.master.play.submit(game.id, ALICE)  # Alice passes at once; Bob's bank runs
    await wait_until(env, start + 0.75 * HOUR - 1)
    assert await reminded(env) == []
    await wait_until(env, start + 0.75 * HOUR)
    assert await reminded(env) == [(1, [BOB.user_id])]
    await env.restart()
    await wait_until(env, start + 0.90 * HOUR)
    await wait_until(env, start + HOUR - 1)
    assert await reminded(env) == [(1, [BOB.user_id]), (1, [BOB.user_id])]  # two warnings, no more
    left = [a.payload["bank_left"] for a in env.sink.posted if a.kind == "reminder"]
    assert left == [[pytest.approx(0.25 * HOUR)], [pytest.approx(0.10 * HOUR)]]


async def test_a_bank_grown_back_over_a_quarter_warns_again(env):
    time = TimeSettings(mode="increment", bank_seconds=HOUR, increment_seconds=HOUR // 2, reminder_seconds=600)
    game = await env.new_game(ALICE, BOB, time=time)
    start = game.row.turn_started_at
    await env.master.play.submit(game.id, ALICE)
    await wait_until(env, start + 0.8 * HOUR)  # Bob warned once (a quarter), then passes: 12 + 30 minutes
    await env.master.play.submit(game.id, BOB)
    game = await env.master.games.get_game(game.id)
    assert game.player_of(BOB.user_id).bank_warned == 0 and game.player_of(BOB.user_id).bank_left == 0.7 * HOUR
    await env.master.play.submit(game.id, ALICE)
    await wait_until(env, game.row.turn_started_at + 0.45 * HOUR)  # 42 minutes on: under a quarter again
    assert await reminded(env) == [(1, [BOB.user_id]), (2, [BOB.user_id])]
