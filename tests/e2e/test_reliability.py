"""Reliability through the bot: a member's on-time rate beside his name on the lobby card, in /stats and
/mygames, and a game with min_reliability refusing a join below it, saying both rates."""

from __future__ import annotations

from service.models import Reliability
from service.storage import reliability
from tests.e2e.conftest import button


async def test_rates_are_shown_and_a_game_refuses_a_join_below_its_least(table):
    fake = table.fake
    async with table.bot.service.master.games.db.transaction() as conn:
        await reliability.add(conn, {table.bob.id: Reliability(20, 19), table.carol.id: Reliability(25, 18)})
    lobby = await table.open_lobby("conquest", size="small", min_reliability=80)

    refused = await fake.click(table.carol, lobby, button(lobby, "Join"))
    assert refused.ephemeral and "you are on time in 72% (18 of 25)" in refused.content, refused.content
    assert f"<@{table.carol.id}>" not in str(fake.message(lobby.id).embeds)
    await fake.click(table.bob, lobby, button(lobby, "Join"))
    card = str(fake.message(lobby.id).embeds)
    assert f"<@{table.bob.id}> — 95% on time" in card, card

    stats = await fake.slash(table.alice, table.channel, "stats", player=table.bob)
    assert "On time: 95% (19 of 20 turns)" in stats.content, stats.content
    mine = await fake.slash(table.alice, table.channel, "mygames")
    assert "On time: not counted yet (0 of 10 turns played)" in mine.content, mine.content
