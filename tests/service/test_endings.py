"""How games end when people stop playing: removals at one deadline happen together, computers do not
play on once no human is left, and computers accept a draw only when they are not ahead."""

from __future__ import annotations

from engine import find_ruleset
from service.models import TimeSettings
from tests.service.conftest import ALICE, BOB, HOUR

RS = find_ruleset("conquest")


def seat_of(game, actor) -> int:
    return game.player_of(actor.user_id).seat


async def test_players_who_all_miss_their_last_turn_at_one_deadline_share_a_draw(env):
    """rules/README.md: removals at one deadline happen together; if nobody is left, the game ends in a
    draw among them."""
    game = await env.new_game(ALICE, BOB, time=TimeSettings(round_seconds=HOUR, reminder_seconds=0, missed_limit=1))
    env.clock.advance(HOUR)
    await env.master.sweep()
    game = await env.master.get_game(game.id)
    assert game.row.status == "finished"
    assert game.row.result["draw"] and sorted(game.row.result["winners"]) == [0, 1]
    assert game.row.result["ranking"] == [[0, 1]] and "missed" in game.row.result["reason"]


async def test_the_game_ends_when_the_last_human_leaves(env):
    game = await env.new_game(ALICE, ai=2)
    game = await env.master.surrender(game.id, ALICE)
    assert game.row.status == "finished" and game.row.result["reason"] == "no human player is left"
    alice = seat_of(game, ALICE)
    assert game.row.result["ranking"][-1] == [alice] and alice not in game.row.result["winners"]
    assert game.row.result["points"][str(alice)] == 0


async def test_computers_decline_a_draw_while_they_are_ahead_and_accept_when_they_are_not(env):
    game = await env.new_game(ALICE, ai=1)
    for _ in range(3):  # Alice lets the computer grow while she waits
        game = await env.master.submit(game.id, ALICE)
    computer = 1 - seat_of(game, ALICE)
    assert RS.standing(game.state)[0] == (computer,)
    offered = await env.master.propose_draw(game.id, ALICE)
    assert offered.row.status == "running"
    await env.outbox.flush()
    proposal = next(a for a in env.sink.posted if a.kind == "draw_proposed")
    assert proposal.payload["declined"] == [computer]

    even = await env.new_game(ALICE, ai=1, seed=9)  # at the start nobody is ahead
    assert len(RS.standing(even.state)[0]) == 2
    drawn = await env.master.propose_draw(even.id, ALICE)
    assert drawn.row.status == "finished" and drawn.row.result["draw"]
