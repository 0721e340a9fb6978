"""A three-player ranks game through the bot: a shipped map chosen and previewed, turns taken in seat
order with autocomplete and a refused order, players surrendering one after another until one is
left; and the ranks tutorial paged with its buttons."""

from __future__ import annotations

from tests.e2e.conftest import button, decode_png


async def surrender(fake, user, thread) -> None:
    asked = await fake.slash(user, thread, "game surrender")
    confirmed = await fake.click(user, asked.message, button(asked.message, "Surrender"))
    await confirmed.wait_for(lambda h: h.response_type is not None)


async def test_three_players_on_a_shipped_map_until_one_is_left(table):
    fake = table.fake
    carol = fake.add_user("carol")
    fake.add_member(table.guild, carol)
    lobby = await table.open_lobby("ranks", map="three-realms")
    preview = await table.post(lambda m: m.content.startswith("Map: **three-realms**"))
    decode_png(preview.attachments[0].data)
    for user in (table.bob, carol):
        await fake.click(user, lobby, button(lobby, "Join"))
    await fake.click(table.alice, lobby, button(lobby, "Start"))
    thread = table.thread()
    await table.post(lambda m: "has started" in m.content)

    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    first, second, third = sorted((table.alice, table.bob, carol), key=lambda u: game.player_of(u.id).seat)
    await fake.slash(first, thread, "orders send", text="spawn")
    turn = await table.post(lambda m: m.content.startswith("**Turn 1.**"))
    decode_png(turn.attachments[0].data)

    offered = await fake.autocomplete(second, thread, "orders send", focused="text", value="sp")
    assert offered and all(c["value"].startswith("spawn") for c in offered)
    early = await fake.slash(third, thread, "orders send", text="pass")
    assert early.ephemeral and "not your turn" in early.content
    refused = await fake.slash(second, thread, "orders send", text="A1>A3")
    assert refused.ephemeral and "A1>A3" in refused.content
    await fake.slash(second, thread, "orders send", text="pass")
    await table.post(lambda m: m.content.startswith("**Turn 2.**"))

    await surrender(fake, third, thread)
    left = await table.post(lambda m: f"<@{third.id}> surrendered" in m.content)
    assert "left the game" not in left.content  # said once
    await surrender(fake, second, thread)
    over = await table.post(lambda m: "is over" in m.content)
    assert f"<@{second.id}> surrendered, so" in over.content and f"Winner: <@{first.id}>" in over.content
    assert button(over, "Rematch")


async def test_the_ranks_tutorial_turns_its_pages(table):
    fake = table.fake
    page = await (await fake.slash(table.alice, table.channel, "tutorial", ruleset="ranks")).settled()
    assert page.ephemeral and page.content.startswith("**Page 1 of 5**\n**The board.**")
    decode_png(page.message.attachments[0].data)
    for number in range(2, 6):
        shown = fake.message(page.message.id)
        turned = await fake.click(table.alice, shown, button(shown, "Next ▶"))
        await turned.wait_for(lambda h, n=number: f"Page {n} of 5" in fake.message(page.message.id).content)
    last = fake.message(page.message.id)
    assert "**Then the NPCs**" in last.content
    decode_png(last.attachments[0].data)


async def test_an_order_that_loses_at_once_is_offered_last_and_held_back_with_a_warning(table):
    """Orders that lose the game at once are never suggested first, and the reply to /orders send
    warns before they are final ("leaves your capital empty: you would be out")."""
    fake = table.fake
    thread = await table.start_game(ruleset="ranks")
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    mover = table.alice if game.player_of(table.alice.id).seat == 0 else table.bob
    rs = table.bot.service.master.games.ruleset(game.row)
    capital = rs.from_dict(game.row.state).board.capitals[0].label

    offered = [c["value"] for c in await fake.autocomplete(mover, thread, "orders send", focused="text", value="")]
    leaving = [line for line in offered if line.startswith(f"{capital}>")]
    assert leaving and not offered[0].startswith(f"{capital}>")
    assert offered[-len(leaving) :] == leaving  # every order that empties the capital comes last

    held = await fake.slash(mover, thread, "orders send", text=leaving[0])
    assert held.ephemeral and f"leave your capital {capital} empty: you would be out" in held.content
    assert "⚠️" in held.content
    shown = await (await fake.slash(mover, thread, "orders show")).settled()
    assert shown.ephemeral and f"capital {capital} empty" in shown.content
    assert not any(m.channel_id == thread.id and m.content.startswith("**Turn 1.**") for m in fake.visible_to(mover))

    await fake.click(mover, held.message, button(held.message, "Pass: make my orders final"))  # knowingly
    over = await table.post(lambda m: "is over" in m.content)
    assert f"<@{mover.id}>" not in over.content.split("Winner:")[1].split("\n")[0]
