"""/admin kick names a player as the card does (never a bare seat number), asks before removing a
human, and the post says who removed him."""

from __future__ import annotations

from tests.e2e.conftest import button
from tests.e2e.test_standing import CONQUEST


async def test_kick_offers_the_players_by_name_asks_first_and_says_who_did_it(table):
    fake = table.fake
    lobby = await table.open_lobby(**CONQUEST | {"max_players": 3})
    thread = table.thread()
    await fake.click(table.bob, lobby, button(lobby, "Join"))
    await fake.slash(table.alice, thread, "game add-ai")

    offered = await fake.autocomplete(table.alice, thread, "admin kick", focused="player", value="")
    names = [c["name"] for c in offered]
    assert names == ["alice", "bob", "Computer 1 (Extreme)"], names
    computer = next(c["value"] for c in offered if c["name"].startswith("Computer"))
    gone = await fake.slash(table.alice, thread, "admin kick", player=computer)  # a computer goes at once
    assert gone.ephemeral and "Removed Computer 1 (Extreme) from game #1." in gone.content
    await fake.wait_for_message(lambda m: m.id == lobby.id and "Computer 1" not in str(m.embeds))

    await fake.click(table.alice, lobby, button(lobby, "Start"))
    await table.post(lambda m: "has started" in m.content)
    offered = await fake.autocomplete(table.alice, thread, "admin kick", focused="player", value="bo")
    [bob] = offered
    assert bob["name"].endswith(" bob") and bob["name"][0] in "🟥🟦"  # his colour, as on the card
    outsider = await fake.slash(table.carol, thread, "admin kick", player=bob["value"])
    assert outsider.ephemeral and "only the creator" in outsider.content

    asked = await fake.slash(table.alice, thread, "admin kick", player=bob["value"])
    assert asked.ephemeral and asked.content == "Remove bob from Conquest #1?"
    await fake.click(table.alice, asked.message, button(asked.message, "Keep"))
    await fake.wait_for_message(lambda m: m.id == asked.message.id and m.content == "Nobody was removed.")
    typed = await fake.slash(table.alice, thread, "admin kick", player="Bob")  # a name typed in full works too
    await fake.click(table.alice, typed.message, button(typed.message, "Remove"))
    await fake.wait_for_message(lambda m: m.id == typed.message.id and m.content == "Removed bob from game #1.")
    over = await table.post(lambda m: "is over" in m.content)
    assert f"<@{table.bob.id}> was removed by <@{table.alice.id}>" in over.content
    assert over.pinged == {table.alice.id, table.bob.id}  # the end concerns every player, not the kick
