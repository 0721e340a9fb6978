""" "Seasons: leaderboards per season as well as all time (/leaderboard season:), a server's admins
set the season length" — ratings within a season start afresh, and games are rated in the season
running when they end."""

from __future__ import annotations

import pytest

from service.clock import ManualClock
from service.errors import GameError, NotAllowed
from service.ops.seasons import LAST, THIS
from service.runtime.gameservice import GameService
from service.storage.seasons import DAY
from tests.service.conftest import ADMIN, ALICE, BOB, CAROL, GUILD, Env, ListSink
from tests.service.test_ratings import finished


def table(standings) -> list[tuple[str, int, int]]:
    return [(s.name, s.games, s.wins) for s in standings]


async def test_each_season_rates_afresh_beside_all_time(env):
    seasons, ratings = env.master.seasons, env.master.ratings
    with pytest.raises(GameError, match="no seasons"):
        await seasons.chosen(GUILD, THIS)
    await finished(env, BOB, ALICE)  # before seasons: all time only
    env.clock.advance(60)
    made = await seasons.set(GUILD, 7, 55, ADMIN)
    assert (made.days, made.first, made.channel_id) == (7, 1, 55)
    await finished(env, ALICE, BOB)
    await finished(env, ALICE, CAROL)
    assert await seasons.chosen(GUILD, THIS) == 1
    with pytest.raises(GameError, match="No season of this server has ended yet"):
        await seasons.chosen(GUILD, LAST)
    first, *others = table(await ratings.leaderboard("conquest", GUILD, season=1))
    assert first == ("Alice", 2, 2) and sorted(others) == [("Bob", 1, 0), ("Carol", 1, 0)]
    env.clock.advance(7 * DAY)  # season 2: everyone starts afresh
    await finished(env, BOB, ALICE)
    assert (await seasons.chosen(GUILD, THIS), await seasons.chosen(GUILD, LAST)) == (2, 1)
    assert table(await ratings.leaderboard("conquest", GUILD, season=2)) == [("Bob", 1, 1), ("Alice", 1, 0)]
    all_time = {s.name: s.games for s in await ratings.leaderboard("conquest", GUILD)}
    assert all_time == {"Alice": 4, "Bob": 3, "Carol": 1}  # all time: every game, before seasons too
    assert await ratings.leaderboard("conquest", GUILD + 1, season=2) == []  # another server's seasons are its own

    env.clock.advance(60)
    await seasons.set(GUILD, 10, 55, ADMIN)  # a new length: season 3 begins now
    await ratings.rebuild_ratings()  # derived data: the seasons come back as they were, changes since or not
    assert table(await ratings.leaderboard("conquest", GUILD, season=1))[0] == ("Alice", 2, 2)
    assert table(await ratings.leaderboard("conquest", GUILD, season=2)) == [("Bob", 1, 1), ("Alice", 1, 0)]
    assert await ratings.leaderboard("conquest", GUILD, season=3) == []


async def test_a_new_length_ends_the_season_now_and_off_keeps_the_last_one(env):
    seasons = env.master.seasons
    await seasons.set(GUILD, 30, 55, ADMIN)
    env.clock.advance(3 * DAY)
    moved = await seasons.set(GUILD, 30, 66, ADMIN)  # the same length: only where tables go
    assert (moved.first, moved.channel_id, await seasons.chosen(GUILD, THIS)) == (1, 66, 1)
    shorter = await seasons.set(GUILD, 10, 66, ADMIN)  # season 1 ends now, season 2 begins
    assert shorter.first == 2 and shorter.started_at == env.clock.now()
    assert (await seasons.chosen(GUILD, THIS), await seasons.chosen(GUILD, LAST)) == (2, 1)
    env.clock.advance(25 * DAY)
    assert await seasons.chosen(GUILD, THIS) == 4
    await seasons.set(GUILD, 0, 66, ADMIN)  # off: season 4 ended now
    with pytest.raises(GameError, match="no seasons"):
        await seasons.chosen(GUILD, THIS)
    assert await seasons.chosen(GUILD, LAST) == 4
    again = await seasons.set(GUILD, 7, 66, ADMIN)
    assert again.first == 5 and await seasons.chosen(GUILD, THIS) == 5


async def test_only_a_server_manager_sets_seasons_within_a_year(env):
    with pytest.raises(NotAllowed, match="server manager"):
        await env.master.seasons.set(GUILD, 30, 55, ALICE)
    with pytest.raises(GameError, match="1 to 365 days"):
        await env.master.seasons.set(GUILD, 366, 55, ADMIN)
    assert await env.master.seasons.of_server(GUILD) is None  # nothing changed


async def test_an_ended_seasons_final_table_is_posted_once_and_retried_until_it_is(places):
    """ "the season's end posts its final table": at the sweep after it ends, in the channel chosen;
    a post that fails is tried again at the next sweep; a season without rated games posts nothing."""
    sink, clock, location = ListSink(), ManualClock(), places.new()
    service = await GameService.open(location, sink, clock=clock, workers=0)
    env = Env(location, clock)  # the service's own database and master, for the test's helpers
    env.db, env.master = service.db, service.master
    try:
        await service.master.seasons.set(GUILD, 7, 55, ADMIN)
        await finished(env, ALICE, BOB)
        await service.sweep()
        assert sink.seasons_told == []  # season 1 runs on
        clock.advance(7 * DAY)
        posted = sink.post_season_end
        failures = []

        async def failing_once(season, number, tables):
            if not failures:
                failures.append(number)
                raise ConnectionError("Discord is unreachable")
            await posted(season, number, tables)

        sink.post_season_end = failing_once
        await service.sweep()
        assert sink.seasons_told == [] and failures == [1]
        await service.sweep()
        [(guild, number, channel, tables)] = sink.seasons_told
        assert (guild, number, channel) == (GUILD, 1, 55)
        [(ruleset, board)] = tables
        assert ruleset == "conquest" and [s.name for s in board] == ["Alice", "Bob"]
        clock.advance(7 * DAY)  # season 2 ended with no rated game: nothing to post
        await service.sweep()
        await service.sweep()
        assert len(sink.seasons_told) == 1
        assert (await service.master.seasons.of_server(GUILD)).told == 2
    finally:
        await service.close()
