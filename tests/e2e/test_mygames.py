"""/mygames lists a player's open games from anywhere, even a DM: the ones waiting for him first,
with their deadline and a link to their thread."""

from __future__ import annotations

from tests.e2e.test_standing import CONQUEST


async def test_my_games_from_a_dm_put_what_waits_for_me_first(table):
    fake = table.fake
    first = await table.start_game(**CONQUEST)
    await fake.slash(table.alice, first, "orders pass")  # game #1 now waits only for Bob
    await table.open_lobby("fortress")  # game #2, a lobby

    mine = await fake.slash(table.bob, fake.dm_channel(table.bob), "mygames")
    lines = mine.content.split("\n")
    assert mine.ephemeral and lines[0] == "**Your games** — 1 waiting for you"
    assert lines[1] == "On time: not counted yet (0 of 10 turns played)"
    assert lines[2].startswith("• ⏳ [Conquest #1](https://discord.com/channels/") and "**your turn**" in lines[2]
    assert f"/{first.id})" in lines[2] and "deadline <t:" in lines[2]
    assert len(lines) == 3  # Bob is not in the fortress lobby

    hers = await fake.slash(table.alice, fake.dm_channel(table.alice), "mygames")
    lines = hers.content.split("\n")
    assert lines[0] == "**Your games** — 0 waiting for you"
    assert "Conquest #1" in lines[2] and "waiting for others" in lines[2]
    assert "Fortress #2" in lines[3] and "lobby, 1/" in lines[3]

    stranger = fake.add_user("carol")
    none = await fake.slash(stranger, fake.dm_channel(stranger), "mygames")
    assert "You are in no open game" in none.content
