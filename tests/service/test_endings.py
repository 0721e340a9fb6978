"""How games end when people stop playing: removals at one deadline happen together, computers do not
play on once no human is left, and computers accept a draw only when they are not ahead."""

from __future__ import annotations

import pytest

from engine import find_ruleset
from service.errors import GameError
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
    await env.master.timekeeping.sweep()
    game = await env.master.games.get_game(game.id)
    assert game.row.status == "finished"
    assert game.row.result["draw"] and sorted(game.row.result["winners"]) == [0, 1]
    assert game.row.result["ranking"] == [[0, 1]] and "missed" in game.row.result["reason"]


async def test_the_game_ends_when_the_last_human_leaves(env):
    game = await env.new_game(ALICE, ai=2)
    game = await env.master.play.surrender(game.id, ALICE)
    assert game.row.status == "finished" and game.row.result["reason"] == "no human player is left"
    alice = seat_of(game, ALICE)
    assert game.row.result["ranking"][-1] == [alice] and alice not in game.row.result["winners"]
    assert game.row.result["points"][str(alice)] == 0


def pair(gold: str) -> dict:
    """A row of five cells, a start at each end; the start at ``gold`` produces most."""
    layout = "g n n n n" if gold == "A1" else "n n n n g"
    return {"map": {"name": "pair", "layout": [layout], "starts": {"2": ["A1", "E1"]}}}


async def test_computers_decline_a_draw_while_they_are_ahead_and_accept_when_they_are_not(env):
    """By their own evaluation, not the standing: both start with one cell and the same units (tied),
    but the computer on the gold cell is ahead and declines (the offer is refused, saying so, and
    nothing is posted); the one on a plain cell accepts."""
    for gold in ("A1", "E1"):  # the computer sits on the gold cell in one game, on a plain one in the other
        game = await env.new_game(ALICE, ai=1, options=pair(gold))
        computer = 1 - seat_of(game, ALICE)
        assert RS.standing(game.state) == ((0, 1),)
        if ("A1", "E1")[computer] == gold:
            with pytest.raises(GameError, match="is ahead and declines a draw"):
                await env.master.play.propose_draw(game.id, ALICE)
            assert (await env.master.games.get_game(game.id)).row.status == "running"
        else:
            accepted = await env.master.play.propose_draw(game.id, ALICE)
            assert accepted.row.status == "finished" and accepted.row.result["draw"]
    await env.outbox.flush()
    assert not any(a.kind == "draw_proposed" for a in env.sink.posted)
