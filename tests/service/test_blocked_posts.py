"""A post Discord refuses for a permission the bot lacks is never given up (issue: "a post Discord
refuses for a permission stays pending and is delivered when the permission returns (watch
channel/role/member updates, and retry on a backoff)")."""

from __future__ import annotations

import asyncio

import pytest

from service.runtime.outbox import Blocked, backoff
from tests.service.conftest import ALICE, BOB, CAROL, GUILD, HOUR


class Refusing:
    """Discord while the bot lacks Send Messages in Threads in some games' threads."""

    def __init__(self, refused: set[int]):
        self.refused, self.posted, self.refusals = refused, [], 0

    async def deliver(self, announcement):
        if announcement.game_id in self.refused:
            self.refusals += 1
            raise Blocked("Missing Permissions")
        self.posted.append(announcement)


async def test_a_refused_post_waits_for_its_permission_and_goes_out_in_order_when_it_is_back(env):
    held = await env.played_a_round(await env.new_game(ALICE, BOB, seed=1))
    other = await env.played_a_round(await env.new_game(ALICE, CAROL, seed=2))
    sink = env.outbox.sink = Refusing({held.id})
    assert await env.outbox.flush() == 2  # the other game's posts are not held up
    assert await env.outbox.pending_count() == 2  # the held game's start and round, neither given up

    assert sink.refusals == 1  # the round post waits behind the start
    assert await env.outbox.retry_guild(GUILD + 1) == 0  # another server's change retries nothing here
    env.clock.advance(backoff(1) - 1)
    assert await env.outbox.flush() == 0  # not due yet: the retry waits for its backoff
    assert sink.refusals == 1

    sink.refused.clear()  # the permission is back: the server's role or channel changed
    assert await env.outbox.retry_guild(GUILD) == 2
    assert [(a.game_id, a.kind) for a in sink.posted] == [
        (other.id, "game_started"),
        (other.id, "round_resolved"),
        (held.id, "game_started"),
        (held.id, "round_resolved"),
    ]
    assert await env.outbox.pending_count() == 0


async def test_a_held_back_post_is_also_tried_again_on_its_backoff(env):
    held = await env.played_a_round(await env.new_game(ALICE, BOB, seed=1))
    sink = env.outbox.sink = Refusing({held.id})
    await env.outbox.flush()
    sink.refused.clear()  # given back without an event the bot saw (a member update, say)
    env.clock.advance(backoff(1))
    assert await env.outbox.flush() == 2 and await env.outbox.pending_count() == 0


class RefusedAsItIsGivenBack(Refusing):
    """Discord refusing a post whose permission comes back while the bot is still making it (its
    board being drawn): the change's own retry finds it in flight, so the refusal must not wait for
    its backoff."""

    def __init__(self, refused: set[int]):
        super().__init__(refused)
        self.trying, self.answer = asyncio.Event(), asyncio.Event()

    async def deliver(self, announcement):
        if announcement.game_id in self.refused and not self.refusals:  # refused as it was sent
            self.trying.set()
            await self.answer.wait()
            self.refusals += 1
            raise Blocked("Missing Permissions")
        await super().deliver(announcement)


async def test_a_permission_given_back_while_its_post_is_being_refused_brings_the_post_at_once(env):
    held = await env.new_game(ALICE, BOB, seed=1)
    sink = env.outbox.sink = RefusedAsItIsGivenBack({held.id})
    first = asyncio.create_task(env.outbox.flush())
    await sink.trying.wait()
    sink.refused.clear()  # the permission is back and its change event comes, the refusal still on its way
    retried = asyncio.create_task(env.outbox.retry_guild(GUILD))
    await asyncio.sleep(0)
    sink.answer.set()
    assert await first == 0 and sink.refusals == 1
    assert await retried == 1 and [a.game_id for a in sink.posted] == [held.id]  # no clock moved
    assert await env.outbox.pending_count() == 0


async def test_the_clock_stops_while_the_thread_cannot_be_reached_and_runs_again_after(env):
    """Issue: "the game's deadline is held while its thread cannot be reached (nobody misses a turn
    he was never shown)"."""
    game = await env.new_game(ALICE, BOB)
    deadline = game.row.deadline_at
    env.clock.advance(600)
    held = await env.master.timekeeping.hold(game.id, "send_messages_in_threads")
    assert held is not None and held.row.held_told == frozenset()  # nobody knows yet
    await env.master.timekeeping.told(game.id, f"u{ALICE.user_id}")
    again = await env.master.timekeeping.hold(game.id, "send_messages_in_threads")
    assert again is not None and again.row.held_told == {f"u{ALICE.user_id}"}  # told once: not again
    assert again.row.held_at == held.row.held_at  # still the first hold
    env.clock.advance(2 * HOUR)  # far past the deadline
    await env.master.timekeeping.sweep()
    held = await env.master.games.get_game(game.id)
    assert held.row.turn == game.row.turn and held.row.held_for == "send_messages_in_threads"
    assert not any(p.missed for p in held.players)

    await env.master.timekeeping.release(game.id)
    back = await env.master.games.get_game(game.id)
    assert back.row.paused_at is None and back.row.held_for is None and back.row.held_at is None
    assert back.row.held_told == frozenset()  # the next hold is told anew
    assert back.row.deadline_at == pytest.approx(deadline + 2 * HOUR)  # the 2 hours held are given back
    await env.outbox.flush()
    assert env.sink.kinds()[-1] == "back_in_reach"


async def test_a_clock_a_manager_stopped_stays_his_to_restart(env):
    game = await env.new_game(ALICE, BOB)
    await env.master.timekeeping.pause(game.id, ALICE)
    assert await env.master.timekeeping.hold(game.id, "") is not None
    await env.master.timekeeping.release(game.id)
    after = await env.master.games.get_game(game.id)
    assert after.row.paused_at is not None and after.row.held_for is None
    await env.outbox.flush()
    assert "back_in_reach" not in env.sink.kinds()
