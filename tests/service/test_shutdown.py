"""Shutting down cleanly: running deadline jobs finish or end quietly, and closing twice is closing once."""

from __future__ import annotations

import asyncio
import time
from importlib import resources

import pytest

from service.clock import ManualClock
from service.models import Actor
from service.runtime.gameservice import GameService
from service.runtime.scheduler import WakeScheduler
from tests.service.conftest import ListSink


def slow_wake(started: asyncio.Event, finished: list[int], seconds: float):
    async def wake(game_id: int) -> None:
        started.set()
        await asyncio.sleep(seconds)
        finished.append(game_id)

    return wake


async def idle() -> None:
    return None


@pytest.mark.parametrize("grace", [5.0, 0.0])
async def test_shutdown_with_a_wake_in_flight_logs_no_traceback(caplog, grace):
    """A clean shutdown lets a running wake finish within the grace period, or interrupts it quietly:
    either way no CancelledError traceback reaches the log."""
    started, finished = asyncio.Event(), []
    scheduler = WakeScheduler(slow_wake(started, finished, 0.3), idle, sweep_seconds=3600)
    scheduler.start()
    scheduler.arm(7, time.time())
    await asyncio.wait_for(started.wait(), timeout=5)
    await scheduler.shutdown(grace=grace)
    assert finished == ([7] if grace else [])
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info], caplog.text


async def test_closing_twice_at_once_closes_once(places):
    """Two signals in a row: both closes wait for the one shutdown, neither fails."""
    service = await GameService.open(places.new(), ListSink(), clock=ManualClock())
    await service.start()
    await asyncio.wait_for(asyncio.gather(service.close(), service.close()), timeout=10)
    await service.close()


async def test_closing_stops_measuring_maps_and_starts_none_anew(places):
    """A map's fairness is measured in the background: closing cancels it at once (its game in hand
    stops with its process), and nothing closing does starts it again."""
    service = await GameService.open(places.new(), ListSink(), clock=ManualClock(), workers=1)
    await service.start()
    duel = (resources.files("engine.conquest") / "maps" / "duel.json").read_bytes()
    await service.master.maps.upload(1, Actor(5, "Alice"), "conquest", duel, "Arena")
    service.measure_maps()
    measuring = service._measuring
    assert measuring is not None and not measuring.done()
    began = time.monotonic()
    await asyncio.wait_for(service.close(), timeout=30)
    assert measuring.cancelled() or measuring.done()
    assert time.monotonic() - began < 20  # not the 40 games of a verdict
    service.measure_maps()
    assert service._measuring is measuring  # none started once closing
