"""Exactly-once rounds: races, crashes between every step of a resolution, restarts, the outbox."""

from __future__ import annotations

import asyncio

import pytest

from service.runtime.outbox import Outbox, backoff
from tests.service.conftest import ALICE, BOB, CAROL, HOUR


class Crash(BaseException):
    """A process dying at a given point (BaseException: no handler may swallow it)."""


def crash_at(point: str):
    def fault(reached: str) -> None:
        if reached == point:
            raise Crash(point)

    return fault


async def resolution_count(env, game_id):
    return await env.count("SELECT COUNT(*) FROM history WHERE game_id = ? AND kind = 'resolve'", game_id)


async def test_deadline_firing_while_the_last_player_submits_resolves_once(env):
    game = await env.new_game(ALICE, BOB)
    await env.master.play.submit(game.id, ALICE)
    env.clock.advance(HOUR)  # the deadline is now due
    await asyncio.gather(
        env.master.play.submit(game.id, BOB), env.master.timekeeping.wake(game.id), env.master.timekeeping.sweep()
    )
    game = await env.master.games.get_game(game.id)
    assert await resolution_count(env, game.id) == 1
    assert game.row.turn == 1


async def test_stale_writer_is_refused_by_the_version_check(env):
    """Two processes on one database: the second commit of the same turn fails instead of doubling it."""
    game = await env.new_game(ALICE, BOB)
    await env.master.play.submit(game.id, ALICE)
    other = await type(env)(env.location, env.clock).open()
    stale = await other.master.games.get_game(game.id)
    await env.master.play.submit(game.id, BOB)
    from service.errors import Conflict

    planner = other.master.games.planner(stale, {})
    planner.resolve(timed_out=True)
    with pytest.raises(Conflict):
        await other.master.games._commit(stale.row, planner.finish())
    assert await resolution_count(env, game.id) == 1
    await other.db.close()


async def reference_run(env):
    """The same game without any crash: the result every crashed run must reach."""
    try:
        game = await env.new_game(ALICE, BOB, CAROL, ai=1)
        await env.master.play.submit(game.id, ALICE)
        await env.master.play.submit(game.id, BOB)
        env.clock.advance(HOUR)
        await env.master.timekeeping.sweep()
        await env.outbox.flush()
        game = await env.master.games.get_game(game.id)
        return game.row.state, [(a.kind, a.payload) for a in env.sink.posted]
    finally:
        await env.db.close()  # an open connection's thread would keep the test process from ending


@pytest.mark.parametrize("point", ["planned", "in_transaction", "committed", "delivered"])
async def test_crash_at_each_step_of_a_resolution_then_restart(places, point):
    from service.clock import ManualClock
    from tests.service.conftest import Env

    expected_state, expected_posts = await reference_run(await Env(places.new("ref"), ManualClock()).open())

    env = await Env(places.new("crash"), ManualClock()).open()
    game = await env.new_game(ALICE, BOB, CAROL, ai=1)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    env.clock.advance(HOUR)
    await env.restart(fault=crash_at(point))
    with pytest.raises(Crash):
        await env.master.timekeeping.sweep()
        await env.outbox.flush()
    await env.restart()  # a new process: recover from the database alone
    await env.master.timekeeping.sweep()
    await env.outbox.flush()
    game = await env.master.games.get_game(game.id)
    assert game.row.state == expected_state
    assert await resolution_count(env, game.id) == 1
    assert [(a.kind, a.payload) for a in env.sink.posted] == expected_posts
    assert await env.outbox.pending_count() == 0
    await env.db.close()


async def test_restart_with_deadlines_pending_rearms_and_resolves_overdue(env):
    games = [await env.new_game(ALICE, BOB, seed=s) for s in range(3)]
    await env.restart()
    wakeups = dict(await env.master.timekeeping.open_wakeups())
    assert set(wakeups) == {g.id for g in games}
    assert all(at == pytest.approx(env.clock.now() + HOUR - 600) for at in wakeups.values())
    env.clock.advance(2 * HOUR)  # the bot was down past every deadline
    await env.restart()
    assert await env.master.timekeeping.sweep() == 3
    for g in games:
        assert (await env.master.games.get_game(g.id)).row.turn == 1


async def test_failed_deliveries_are_retried_in_order(env):
    game = await env.played_a_round(await env.new_game(ALICE, BOB))
    env.sink.fail_next = 1
    assert await env.outbox.flush() == 0
    assert env.sink.posted == []
    assert await env.outbox.pending_count() == 2
    assert await env.outbox.flush() == 0  # backing off: nothing is due yet
    env.clock.advance(backoff(1))
    assert await env.outbox.flush() == 2
    assert env.sink.kinds() == ["game_started", "round_resolved"]
    assert all(a.game_id == game.id for a in env.sink.posted)


async def test_a_post_that_hangs_is_given_up_for_now_and_retried(env):
    """Discord took the request and never answered: the wait ends after the outbox's timeout, the
    game's later posts wait behind it, and the post is tried again after the backoff."""
    await env.played_a_round(await env.new_game(ALICE, BOB))
    hanging = asyncio.Event()

    class HangingOnce(type(env.sink)):
        async def deliver(self, announcement) -> None:
            if not hanging.is_set():
                hanging.set()
                await asyncio.Event().wait()  # never answered
            await super().deliver(announcement)

    sink = HangingOnce()
    outbox = Outbox(env.db, env.clock, sink, timeout=0.05)
    assert await asyncio.wait_for(outbox.flush(), 5) == 0
    assert hanging.is_set() and sink.posted == [] and await outbox.pending_count() == 2
    env.clock.advance(backoff(1))
    assert await outbox.flush() == 2
    assert sink.kinds() == ["game_started", "round_resolved"]


async def test_games_posts_go_out_side_by_side_and_each_games_in_order(env):
    """Delivering one game's image never waits for another game's; one game's posts keep their order."""
    games = [await env.played_a_round(await env.new_game(ALICE, BOB, seed=s)) for s in range(3)]
    in_flight, most = 0, 0
    order: dict[int, list[int]] = {}

    class SlowSink:
        async def deliver(self, announcement) -> None:
            nonlocal in_flight, most
            in_flight += 1
            most = max(most, in_flight)
            await asyncio.sleep(0.02)  # a post on the wire
            order.setdefault(announcement.game_id, []).append(announcement.id)
            in_flight -= 1

    outbox = Outbox(env.db, env.clock, SlowSink())
    assert await outbox.flush() == 6  # each game: its start, its first round
    assert most == 3
    assert set(order) == {g.id for g in games} and all(ids == sorted(ids) and len(ids) == 2 for ids in order.values())
