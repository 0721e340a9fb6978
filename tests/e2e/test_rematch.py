"""Rematch: the button under a finished game opens one new lobby with the same players and options."""

from __future__ import annotations

from tests.e2e.conftest import button
from tests.e2e.test_ratings import surrendered_by
from tests.e2e.test_standing import CONQUEST


async def test_rematch_opens_one_lobby_with_the_same_players_and_options(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST, rated=False)
    await surrendered_by(table, thread, table.bob)
    over = await table.post(lambda m: "is over" in m.content)

    stranger = fake.add_user("carol")
    fake.add_member(table.guild, stranger)
    refused = await (await fake.click(stranger, over, button(over, "Rematch"))).settled()
    assert "only the players of game #1" in refused.content

    pressed = await (await fake.click(table.bob, over, button(over, "Rematch"))).settled()
    assert pressed.ephemeral and "Rematch: game #2 is open" in pressed.content
    again = await (await fake.click(table.alice, over, button(over, "Rematch"))).settled()
    assert "Rematch: game #2 was opened already" in again.content

    rematch = await table.bot.service.master.games.get_game(2)
    assert [p.user_id for p in rematch.players] == [table.bob.id, table.alice.id]  # Bob opened it
    assert (
        rematch.row.options == (await table.bot.service.master.games.get_game(1)).row.options and not rematch.row.rated
    )
    cards = [m for m in fake.channel_messages(table.channel) if m.components and "#2" in str(m.embeds)]
    assert len(cards) == 1 and button(cards[0], "Start")
