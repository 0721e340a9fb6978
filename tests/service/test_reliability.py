"""Reliability you can see: each member's on-time rate across all his games (turns answered before
the deadline ÷ turns asked of him; away turns excluded), and games that refuse joins below a rate."""

from __future__ import annotations

import pytest

from service.errors import NotAllowed
from service.models import Reliability, TimeSettings
from service.storage import reliability
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, HOUR


async def rates(env, *actors):
    return [await env.master.lookup.reliability(actor.user_id) for actor in actors]


async def test_a_turn_answered_before_the_deadline_counts_on_time_a_missed_one_does_not(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    await env.master.play.submit(game.id, ALICE)
    await env.master.play.submit(game.id, BOB)
    env.clock.advance(HOUR)
    await env.master.timekeeping.sweep()  # Carol missed round 1
    assert await rates(env, ALICE, BOB, CAROL) == [Reliability(1, 1), Reliability(1, 1), Reliability(1, 0)]
    for actor in (ALICE, BOB, CAROL):  # round 2: all on time
        await env.master.play.submit(game.id, actor)
    assert await rates(env, ALICE, BOB, CAROL) == [Reliability(2, 2), Reliability(2, 2), Reliability(2, 1)]
    game = await env.master.games.get_game(game.id)
    assert game.player_of(CAROL.user_id).reliability == Reliability(2, 1)  # read with the game


async def test_turns_a_stand_in_played_are_not_counted(env):
    """ "away turns excluded" """
    game = await env.new_game(ALICE, BOB)
    await env.master.absence.go_away(ALICE, env.clock.now() + 2 * HOUR)
    await env.master.play.submit(game.id, BOB)
    env.clock.advance(HOUR)
    await env.master.play.submit(game.id, BOB)
    assert await rates(env, ALICE, BOB) == [Reliability(0, 0), Reliability(2, 2)]


async def test_a_game_with_min_reliability_refuses_a_join_below_it_saying_both_rates(env):
    async with env.db.transaction() as conn:
        await reliability.add(conn, {CAROL.user_id: Reliability(25, 18), BOB.user_id: Reliability(9, 0)})
    game = await env.master.lobby.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ALICE,
        ruleset="conquest",
        options={"size": "small"},
        time=TimeSettings(min_reliability=80),
    )
    with pytest.raises(NotAllowed, match=r"at least 80% of their turns; you are on time in 72% \(18 of 25\)"):
        await env.master.lobby.join(game.id, CAROL)
    game = await env.master.lobby.join(game.id, BOB)  # nine turns: not counted yet
    assert [p.user_id for p in game.players] == [ALICE.user_id, BOB.user_id]
    assert Reliability(25, 18).shown() == "72% on time" and not Reliability(9, 9).counted
