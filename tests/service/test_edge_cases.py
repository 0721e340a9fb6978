"""Edge cases found in review: a departure that moves the engine on, clocks across a pause, a pass
arriving after its turn ended, and one undeliverable game among many."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import find_ruleset
from service.errors import GameError
from service.models import TimeSettings
from service.runtime.outbox import Undeliverable
from tests.service.conftest import ADMIN, ALICE, BOB, CAROL, HOUR

GRA = find_ruleset("gra")


async def set_state(env, game_id, state, rs):
    async with env.db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE id = ?", (json.dumps(rs.to_dict(state)), game_id)
        )


async def test_departure_of_the_only_acting_player_starts_the_next_turn(env):
    game = await env.master.lobby.create_game(
        guild_id=1,
        channel_id=2,
        actor=ALICE,
        ruleset="gra",
        options={"size": "small"},
        seed=2,
        time=TimeSettings(mode="bank"),
    )
    await env.master.lobby.join(game.id, BOB)
    await env.master.lobby.add_ai(game.id, ALICE)
    game = await env.master.lobby.start_game(game.id, ALICE)
    seats = {p.user_id: p.seat for p in game.players}
    ai = next(p.seat for p in game.players if p.is_ai)
    start = GRA.from_dict(game.row.state)
    nodes = list(start.graph.nodes)
    # Only Bob may create soldiers: everyone else is at his cap.
    crafted = replace(
        start,
        phase="create",
        owners={nodes[0]: seats[ALICE.user_id], nodes[5]: seats[BOB.user_id], nodes[10]: ai},
        ready={nodes[0]: (seats[ALICE.user_id], 1), nodes[10]: (ai, 1)},
    )
    assert GRA.acting_players(crafted) == {seats[BOB.user_id]}
    await set_state(env, game.id, crafted, GRA)
    game = await env.master.play.surrender(game.id, BOB)
    assert game.row.turn == 1 and game.acting_seats  # a new turn began, with its players asked
    assert game.waiting_seats == {seats[ALICE.user_id]} and ai in game.passed_seats
    assert game.row.deadline_at is not None


async def test_a_pass_during_a_pause_is_charged_until_the_pause(env):
    time = TimeSettings(mode="bank", bank_seconds=2 * HOUR, reminder_seconds=0)
    game = await env.new_game(ALICE, BOB, time=time)
    env.clock.advance(600)
    await env.master.timekeeping.pause(game.id, ALICE)
    env.clock.advance(10 * HOUR)
    game = await env.master.play.submit(game.id, ALICE)
    assert game.player_of(ALICE.user_id).bank_left == pytest.approx(2 * HOUR - 600)
    env.clock.advance(HOUR)
    game = await env.master.timekeeping.resume(game.id, ALICE)
    assert game.row.deadline_at == pytest.approx(env.clock.now() + 2 * HOUR - 600)  # Bob's bank, minus 10 minutes
    before = game.row.version
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()
    assert (await env.master.games.get_game(game.id)).row.version == before  # nothing due, nothing written


async def test_a_departure_during_a_pause_waits_for_resume(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    await env.master.timekeeping.pause(game.id, ADMIN)
    env.clock.advance(5 * 86400)
    game = await env.master.play.surrender(game.id, CAROL)
    assert game.row.turn == 0  # complete, but paused
    env.clock.advance(HOUR)
    game = await env.master.timekeeping.resume(game.id, ADMIN)
    assert game.row.turn == 1
    assert game.row.deadline_at == pytest.approx(env.clock.now() + HOUR)


async def test_a_pass_for_a_turn_that_just_ended_changes_nothing(env):
    game = await env.new_game(ALICE, BOB)
    seen = game.row.turn
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()  # the deadline resolved the turn Alice was looking at
    with pytest.raises(GameError, match="has just ended; nothing was changed"):
        await env.master.play.submit(game.id, ALICE, "", expected_turn=seen)
    assert (await env.master.games.get_game(game.id)).passed_seats == frozenset()


async def test_one_undeliverable_game_does_not_hold_back_the_others(env):
    broken = await env.played_a_round(await env.new_game(ALICE, BOB, seed=1))
    healthy = await env.played_a_round(await env.new_game(ALICE, CAROL, seed=2))

    class Picky:
        def __init__(self):
            self.posted = []

        async def deliver(self, announcement):
            if announcement.game_id == broken.id and announcement.kind == "game_started":
                raise Undeliverable("thread deleted")
            if announcement.game_id == broken.id:
                raise ConnectionError("try later")
            self.posted.append(announcement)

    env.outbox.sink = Picky()
    assert await env.outbox.flush() == 2
    assert {a.game_id for a in env.outbox.sink.posted} == {healthy.id}
    assert await env.outbox.pending_count() == 1  # the broken game's round post waits for a retry
