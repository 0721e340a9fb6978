"""A state is parsed once per stored version: orders, passes and the turn they complete reuse the
parsed state, and a new version (a transition) is handed on without being parsed again."""

from __future__ import annotations

from engine import find_ruleset
from engine.conquest import ConquestRuleset
from service import GameMaster
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD


class CountingConquest(ConquestRuleset):
    def __init__(self):
        self.loads = 0

    def from_dict(self, data):
        self.loads += 1
        return super().from_dict(data)


async def test_orders_passes_and_the_resolution_parse_no_state(env):
    counting = CountingConquest()
    master = GameMaster(env.db, env.clock, rulesets={"conquest": counting})
    game = await master.lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={"size": "small"}, seed=3
    )
    await master.lobby.join(game.id, BOB)
    game = await master.lobby.start_game(game.id, ALICE)
    state = find_ruleset("conquest").from_dict(game.row.state)
    home = state.cells_of(game.player_of(ALICE.user_id).seat)[0]
    target = sorted(n for n in home.neighbours() if n in state.cells)[0]
    assert counting.loads == 0  # the state set up is handed on, not read back

    await master.play.add_orders(game.id, ALICE, f"{home.label}>{target.label} 2")
    await master.play.submit(game.id, ALICE)
    await master.games.get_game(game.id)
    resolved = await master.play.submit(game.id, BOB)
    assert resolved.row.turn == 1 and counting.loads == 0

    fresh = GameMaster(env.db, env.clock, rulesets={"conquest": counting})  # a restart: parsed once, then kept
    for _ in range(3):
        await fresh.games.get_game(game.id)
    assert counting.loads == 1
