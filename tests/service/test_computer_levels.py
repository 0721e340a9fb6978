"""Computer seats play at the level they were added with (``/game add-ai level:``)."""

from __future__ import annotations

import pytest

from engine import OptionError
from engine.registry import RULESETS
from engine.ruleset import BotLevel
from service import GameMaster
from service.models import TimeSettings
from tests.plugin.tug import TugRuleset
from tests.service.conftest import ALICE, CHANNEL, GUILD, HOUR


class PlainTug(TugRuleset):
    """Tug with one computer level."""

    name = "plaintug"
    bot_levels = (BotLevel("standard", 1),)


@pytest.fixture
async def master(env):
    return GameMaster(env.db, env.clock, rulesets={**RULESETS, "tug": TugRuleset(), "plaintug": PlainTug()})


async def lobby(master, ruleset: str = "tug"):
    return await master.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ALICE,
        ruleset=ruleset,
        options={},
        time=TimeSettings(round_seconds=HOUR),
        seed=1,
    )


async def computer_pulls(master, game_id: int) -> str:
    async with master.db.reading() as conn:
        async with conn.execute("SELECT text FROM orders WHERE game_id = ? AND seat = 1", (game_id,)) as cursor:
            (text,) = await cursor.fetchone()
    return text


@pytest.mark.parametrize(
    ("level", "name", "pull"), [("weak", "Computer 1 (weak)", "pull 1"), (None, "Computer 1 (strong)", "pull 3")]
)
async def test_a_computer_plays_at_its_level(master, level, name, pull):
    game = await lobby(master)
    game = await master.add_ai(game.id, ALICE, level)
    assert game.players[-1].name == name
    game = await master.start_game(game.id, ALICE)
    assert await computer_pulls(master, game.id) == pull


async def test_an_unknown_level_is_refused_with_the_known_ones(master):
    game = await lobby(master)
    with pytest.raises(OptionError, match="levels: weak, strong"):
        await master.add_ai(game.id, ALICE, "grandmaster")
    assert len((await master.get_game(game.id)).players) == 1


async def test_a_ruleset_with_one_level_names_computers_plainly(master):
    game = await lobby(master, "plaintug")
    game = await master.add_ai(game.id, ALICE)
    assert game.players[-1].name == "Computer 1" and game.players[-1].ai_level == "standard"


@pytest.mark.parametrize("clock", [60, 600])
async def test_on_a_chess_clock_a_computer_searches_as_deep_as_its_clock_allows(master, clock):
    """Siege: "Extreme searches deepest within its budget (nodes, tied to the clock when one is
    set)": with Bullet's minute it searches a tenth of its nodes, with ten minutes all of them."""
    rs = RULESETS["siege"]
    game = await master.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ALICE,
        ruleset="siege",
        options={},
        time=TimeSettings(mode="increment", bank_seconds=clock, increment_seconds=0, reminder_seconds=0),
        seed=3,
    )
    await master.add_ai(game.id, ALICE, "Extreme")
    game = await master.start_game(game.id, ALICE)
    computer = next(p.seat for p in game.players if p.is_ai)
    if computer == 1:
        game = await master.submit(game.id, ALICE, "end")
    before = master.state_of(game.row)
    await master.wake(game.id)  # the computer's turn resolves at its wake-up
    past = await master.past_turn(game.id)
    seed = f"{game.row.seed}:{past.number - 1}"
    nodes = rs.bot_level("Extreme").budget * clock // 600
    played = past.orders[computer]
    assert played == rs.format_orders(rs.ai_orders(before, computer, seed, level="Extreme", budget=nodes))
    if clock < 600:  # a shallower search plays otherwise here, so the budget did change the move
        assert played != rs.format_orders(rs.ai_orders(before, computer, seed, level="Extreme"))
