"""A backlog of announcements drains in one pass, in each game's order, without holding up start-up."""

from __future__ import annotations

import asyncio

from service.clock import ManualClock
from service.runtime.gameservice import GameService
from service.runtime.outbox import KEEP_DELIVERED
from tests.service.conftest import ALICE, BOB, CAROL, ListSink


async def test_a_backlog_is_read_once_and_each_game_keeps_its_order(env, monkeypatch):
    games = [await env.new_game(ALICE, BOB, seed=seed) for seed in range(3)]
    for game in games:
        for _ in range(4):
            await env.master.timekeeping.pause(game.id, ALICE)
            await env.master.timekeeping.resume(game.id, ALICE)
    pending = await env.outbox.pending_count()
    env.outbox.batch = 5
    reads = []
    original = env.outbox._undelivered

    async def counted(after):
        rows = await original(after)
        reads.append(len(rows))
        return rows

    monkeypatch.setattr(env.outbox, "_undelivered", counted)
    assert await env.outbox.flush() == pending
    assert sum(reads) == pending and reads[-1] == 0  # every row read once, then one empty read
    for game in games:
        posted = [a.id for a in env.sink.posted if a.game_id == game.id]
        assert posted == sorted(posted)


async def test_start_up_returns_before_the_backlog_is_delivered(places):
    """The bot connects to Discord right after start(); delivering a long backlog goes on meanwhile."""
    release = asyncio.Event()

    class SlowSink(ListSink):
        async def deliver(self, announcement):
            await release.wait()
            await super().deliver(announcement)

    sink = SlowSink()
    service = await GameService.open(places.new(), sink, clock=ManualClock())
    game = await service.master.lobby.create_game(guild_id=1, channel_id=2, actor=ALICE, ruleset="conquest", seed=1)
    await service.master.lobby.join(game.id, CAROL)
    await service.master.lobby.start_game(game.id, ALICE)
    try:
        await asyncio.wait_for(service.start(), timeout=2)
        assert not service.recovery.done() and sink.posted == []
        release.set()
        await asyncio.wait_for(service.recovery, timeout=5)
        assert sink.kinds()[:1] == ["game_started"]
    finally:
        release.set()
        await service.close()


async def test_delivered_posts_are_deleted_a_day_later_and_pending_ones_never(env):
    """A round post repeats the turn's events: kept for good, the outbox would grow as fast as the
    history. Delivered rows go a day after delivery; what is still to be posted stays however old."""
    game = await env.played_a_round(await env.new_game(ALICE, BOB))
    await env.outbox.flush()
    delivered = await env.count("SELECT count(*) FROM outbox")
    env.clock.advance(KEEP_DELIVERED - 1)
    await env.master.timekeeping.pause(game.id, ALICE)  # queued now, and not delivered
    assert await env.outbox.prune() == 0
    env.clock.advance(2)
    assert await env.outbox.prune() == delivered
    assert await env.count("SELECT count(*) FROM outbox") == await env.outbox.pending_count() == 1
    env.clock.advance(10 * KEEP_DELIVERED)
    assert await env.outbox.prune() == 0 and await env.outbox.pending_count() == 1
