"""A computer on a chess clock searches as deep as its clock allows."""

from __future__ import annotations

import pytest

from engine.registry import RULESETS
from service import GameMaster
from service.models import TimeSettings
from tests.service.conftest import ALICE, CHANNEL, GUILD


@pytest.fixture
async def master(env):
    return GameMaster(env.db, env.clock, rulesets=RULESETS)


@pytest.mark.parametrize("clock", [60, 600])
async def test_on_a_chess_clock_a_computer_searches_as_deep_as_its_clock_allows(master, clock):
    """Siege: "Extreme searches deepest within its budget (nodes, tied to the clock when one is
    set)": with Bullet's minute it searches a tenth of its nodes, with ten minutes all of them."""
    rs = RULESETS["siege"]
    game = await master.lobby.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ALICE,
        ruleset="siege",
        options={},
        time=TimeSettings(mode="increment", bank_seconds=clock, increment_seconds=0, reminder_seconds=0),
        seed=3,
    )
    await master.lobby.add_ai(game.id, ALICE, "Extreme")
    game = await master.lobby.start_game(game.id, ALICE)
    computer = next(p.seat for p in game.players if p.is_ai)
    if computer == 1:
        game = await master.play.submit(game.id, ALICE, "end")
    before = master.games.state_of(game.row)
    await master.timekeeping.wake(game.id)  # the computer's turn resolves at its wake-up
    past = await master.history.past_turn(game.id)
    seed = f"{game.row.seed}:{past.number - 1}"
    nodes = rs.bot_level("Extreme").budget * clock // 600
    played = past.orders[computer]
    assert played == rs.format_orders(rs.ai_orders(before, computer, seed, level="Extreme", budget=nodes))
    if clock < 600:  # a shallower search plays otherwise here, so the budget did change the move
        assert played != rs.format_orders(rs.ai_orders(before, computer, seed, level="Extreme"))
