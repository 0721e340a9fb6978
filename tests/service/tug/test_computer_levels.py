"""Computer seats play at the level they were added with (``/game add-ai level:``): the test game's two levels."""

from __future__ import annotations

import pytest

from engine import OptionError
from engine.registry import RULESETS, discover
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
    return GameMaster(env.db, env.clock, rulesets={**RULESETS, **discover("tests.plugin"), "plaintug": PlainTug()})


async def lobby(master, ruleset: str = "tug"):
    return await master.lobby.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ALICE,
        ruleset=ruleset,
        options={},
        time=TimeSettings(round_seconds=HOUR),
        seed=1,
    )


async def computer_pulls(master, game_id: int) -> str:
    async with master.games.db.reading() as conn:
        async with conn.execute("SELECT text FROM orders WHERE game_id = ? AND seat = 1", (game_id,)) as cursor:
            (text,) = await cursor.fetchone()
    return text


@pytest.mark.parametrize(
    ("level", "name", "pull"), [("weak", "Computer 1 (weak)", "pull 1"), (None, "Computer 1 (strong)", "pull 3")]
)
async def test_a_computer_plays_at_its_level(master, level, name, pull):
    game = await lobby(master)
    game = await master.lobby.add_ai(game.id, ALICE, level)
    assert game.players[-1].name == name
    game = await master.lobby.start_game(game.id, ALICE)
    assert await computer_pulls(master, game.id) == pull


async def test_an_unknown_level_is_refused_with_the_known_ones(master):
    game = await lobby(master)
    with pytest.raises(OptionError, match="levels: weak, strong"):
        await master.lobby.add_ai(game.id, ALICE, "grandmaster")
    assert len((await master.games.get_game(game.id)).players) == 1


async def test_a_ruleset_with_one_level_names_computers_plainly(master):
    game = await lobby(master, "plaintug")
    game = await master.lobby.add_ai(game.id, ALICE)
    assert game.players[-1].name == "Computer 1" and game.players[-1].ai_level == "standard"
