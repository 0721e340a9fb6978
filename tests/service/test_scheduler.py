"""The APScheduler wrapper wakes games at their time; the runtime re-arms from the database at start-up."""

from __future__ import annotations

import asyncio
import time

import pytest

from service import GameMaster
from service.clock import ManualClock
from service.runtime.gameservice import ARM_AHEAD_SECONDS, GameService
from service.runtime.scheduler import WakeScheduler, job_id
from service.storage.store import open_store
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, ListSink


def armed_at(scheduler: WakeScheduler, game_id: int) -> float | None:
    """When the scheduler will wake the game, or None when it holds no job for it."""
    job = scheduler.scheduler.get_job(job_id(game_id))
    return job.next_run_time.timestamp() if job and job.next_run_time else None


async def test_armed_game_is_woken_and_rearming_replaces_the_job():
    woken: list[int] = []
    done = asyncio.Event()

    async def wake(game_id: int) -> None:
        woken.append(game_id)
        done.set()

    async def sweep() -> None:
        return None

    scheduler = WakeScheduler(wake, sweep, sweep_seconds=3600)
    scheduler.start()
    try:
        scheduler.arm(7, time.time() + 3600)
        scheduler.arm(7, time.time() + 0.2)  # replaces, never duplicates
        assert len([j for j in scheduler.scheduler.get_jobs() if j.id == job_id(7)]) == 1
        scheduler.arm(8, time.time() + 0.1)
        scheduler.arm(8, None)  # disarmed: due before 7, it would have woken first
        await asyncio.wait_for(done.wait(), timeout=5)
        assert woken == [7]
    finally:
        await scheduler.shutdown()


async def test_runtime_arms_what_wakes_soon_at_start_and_each_sweep_extends_the_window(places):
    clock = ManualClock(time.time())
    location = places.new()
    db = await open_store(location)
    await db.migrate()
    master = GameMaster(db, clock)
    game = await master.lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={"size": "small"}, seed=1
    )
    await master.lobby.join(game.id, BOB)
    game = await master.lobby.start_game(game.id, ALICE)
    await db.close()  # the process stops before delivering anything
    wake_at = game.row.reminder_at

    sink = ListSink()
    service = await GameService.open(location, sink, clock=clock)
    await service.start()
    try:
        await service.recovery  # the backlog is delivered in the background
        assert wake_at - clock.now() > ARM_AHEAD_SECONDS
        assert armed_at(service.scheduler, game.id) is None  # not yet: the scheduler holds the near future
        assert [a.kind for a in sink.posted] == ["game_started"]  # the backlog was delivered
        clock.advance(wake_at - clock.now() - ARM_AHEAD_SECONDS / 2)
        await service.sweep()
        assert armed_at(service.scheduler, game.id) == pytest.approx(wake_at, abs=1e-3)
    finally:
        await service.close()


async def test_a_commit_arms_its_game_only_inside_the_window_and_a_sweep_arms_it_later(places):
    clock = ManualClock(time.time())
    service = await GameService.open(places.new(), ListSink(), clock=clock)
    await service.start()
    try:
        master = service.master
        game = await master.lobby.create_game(
            guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={"size": "small"}, seed=1
        )
        await master.lobby.join(game.id, BOB)
        game = await master.lobby.start_game(game.id, ALICE)
        wake_at = game.row.reminder_at
        assert wake_at - clock.now() > ARM_AHEAD_SECONDS
        assert armed_at(service.scheduler, game.id) is None  # the scheduler holds only the near future
        clock.advance(wake_at - clock.now() - ARM_AHEAD_SECONDS / 2)
        await service.sweep()
        assert armed_at(service.scheduler, game.id) == pytest.approx(wake_at, abs=1e-3)
        await master.timekeeping.extend(game.id, ALICE, 60)  # a commit waking it inside the window re-arms it at once
        game = await master.games.get_game(game.id)
        assert armed_at(service.scheduler, game.id) == pytest.approx(game.row.reminder_at, abs=1e-3)
    finally:
        await service.close()
