"""Seats taken over through the bot: a member who surrenders leaves his seat to a computer, a member
not in the game takes it over with the **Take this seat** button once the creator approves (nobody
else may), and who misses the first round is replaced at once."""

from __future__ import annotations

from tests.e2e.conftest import button
from tests.e2e.test_standing import CONQUEST, DAY


async def surrender(table, user, thread):
    asked = await table.fake.slash(user, thread, "game surrender")
    await table.fake.click(user, asked.message, button(asked.message, "Surrender"))


async def test_a_member_takes_over_the_seat_the_creator_lets_him(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST, replacements="open")
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    seat = game.player_of(table.bob.id).seat

    await surrender(table, table.bob, thread)
    left = await table.post(lambda m: "plays on in that seat" in m.content)
    assert f"<@{table.bob.id}> surrendered; Computer 1 (Extreme) plays on in that seat." in left.content
    assert "the creator decides" in left.content

    asked = await (await fake.click(table.carol, left, button(left, "Take this seat"))).settled()
    assert asked.ephemeral and "the creator of game #1 decides" in asked.content, asked.content
    request = await table.post(lambda m: "asks to take over the seat" in m.content)
    assert request.pinged == {table.alice.id}
    refused = await fake.click(table.bob, request, button(request, "Approve"))
    assert refused.ephemeral and "only the creator of game #1 decides" in refused.content
    again = await (await fake.click(table.alice, left, button(left, "Take this seat"))).settled()  # a player
    assert "you are already playing in game #1" in again.content

    await fake.click(table.alice, request, button(request, "Approve"))
    assert fake.message(request.id).content.startswith(f"✅ <@{table.carol.id}> takes over the seat")
    taken = await table.post(lambda m: "and plays on from here" in m.content)
    assert table.carol.id in taken.pinged
    game = await table.bot.service.master.games.get_game(game.id)
    assert game.player_at(seat).user_id == table.carol.id
    await table.card_showing(f"<@{table.carol.id}>", f"<@{table.bob.id}> — left; another plays on in the seat")
    mine = await fake.slash(table.carol, thread, "orders show")
    assert mine.ephemeral and "(given for you by Computer (Extreme)" in mine.content, mine.content
    late = await (await fake.click(table.mod, left, button(left, "Take this seat"))).settled()
    assert "no computer's to take over" in late.content


async def test_who_misses_the_first_round_is_replaced_by_a_computer_and_the_round_is_played(table):
    thread = await table.start_game(**CONQUEST, replacements="computer")
    await table.fake.slash(table.alice, thread, "orders pass")
    await table.tick(DAY)
    replaced = await table.post(lambda m: "missed the first turn" in m.content)
    assert "Computer 1 (Extreme) plays on in that seat." in replaced.content
    assert not replaced.components  # nobody may take a seat in this game
    await table.post(lambda m: m.content.startswith("**Round 1."))
