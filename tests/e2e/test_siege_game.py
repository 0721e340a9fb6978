"""A siege game through the bot: chess clocks chosen at create, priced autocomplete, a whole turn
refused for one bad action or a note holding one, the actions taken listed, clocks in /game info,
and a player who lets his clock run out loses."""

from __future__ import annotations

from tests.e2e.conftest import decode_png


async def test_a_blitz_game_with_an_increment_is_lost_on_time(table):
    fake = table.fake
    thread = await table.start_game("siege", clock="blitz-3", increment=2)
    master = table.bot.service.master
    game = (await master.lookup.list_games(table.guild.id))[0]
    first, second = sorted((table.alice, table.bob), key=lambda u: game.player_of(u.id).seat)
    assert game.player_of(first.id).seat == 0 and game.row.time.bank_seconds == 180

    offered = await fake.autocomplete(first, thread, "orders send", focused="text", value="")
    assert offered and all("EP" in c["name"] for c in offered)
    refused = await fake.slash(first, thread, "orders send", text=f"{offered[0]['value']}; wall J10")
    assert refused.ephemeral and "'wall J10' (action 2)" in refused.content
    assert (await master.games.get_game(game.id)).row.turn == 0  # the whole turn was refused

    action = offered[0]["value"].split(" (")[0]  # the autocomplete's note dropped
    slip = await fake.slash(first, thread, "orders send", text=f"{action} (a; wall E1)")
    assert "a note in parentheses cannot hold orders: '(a; wall E1)'" in slip.content

    table.clock.advance(60)
    sent = await fake.slash(first, thread, "orders send", text=offered[0]["value"])
    assert sent.content.startswith(f"Orders taken: `{action}`\n")  # what was read, as the game writes it
    moved = await table.post(lambda m: m.content.startswith("**Turn 1.**"))
    decode_png(moved.attachments[0].data)
    info = str((await fake.slash(second, thread, "game info")).embeds)
    assert "2 minutes 2 seconds left on the clock" in info  # 3 min, 60 s thought, 2 s back
    assert "clock runs out <t:" in info  # the second player's clock is running

    await table.tick(181)  # the second player never moves: his 3 minutes run out
    over = await table.post(lambda m: "is over" in m.content)
    assert f"is over**: 🟦 <@{second.id}> ran out of time, so the last player standing won." in over.content
    assert f"Winner: <@{first.id}>" in over.content
