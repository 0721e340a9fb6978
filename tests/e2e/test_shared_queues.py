""" "End to end through the fake Discord: … a cross-server game mirrored in two servers' threads,
played to the end, with each thread seeing every public post exactly once." Two servers share their
queues (`/config matchmaking`); a player of each queues from his own server, answers the ready check
posted there, plays from his own server's thread, and the other's posts reach him there."""

from __future__ import annotations

import discord

from tests.e2e.conftest import button, decode_png


async def test_a_game_across_two_servers_is_mirrored_in_each_thread_to_its_end(table):
    fake, here = table.fake, table.channel
    other = fake.add_guild("Elsewhere")
    there = other.channels[0]
    dave = fake.add_user("dave")
    fake.add_member(other, dave)
    fake.add_member(other, table.mod, permissions=discord.Permissions(manage_guild=True))
    for channel in (here, there):
        said = await fake.slash(table.mod, channel, "config matchmaking", shared=True)
        assert "with the players of every server that shares" in said.content, said.content

    await fake.slash(table.alice, here, "play queue", ruleset="siege", speed="daily")
    await fake.slash(dave, there, "play queue", ruleset="siege", speed="daily")
    checks = {}
    for player, channel in ((table.alice, here), (dave, there)):  # posted where each queued, pinging him
        checks[channel.id] = await fake.wait_for_message(
            lambda m, c=channel: m.channel_id == c.id and "**A game is found**" in m.content and m.components
        )
        assert checks[channel.id].pinged == {player.id}
        assert f"<@{table.alice.id}>" in checks[channel.id].content and f"<@{dave.id}>" in checks[channel.id].content
    await (await fake.click(table.alice, checks[here.id], button(checks[here.id], "Ready"))).settled()
    await fake.wait_for_message(lambda m: m.id == checks[there.id].id and f"✅ <@{table.alice.id}>" in m.content)
    await (await fake.click(dave, checks[there.id], button(checks[there.id], "Ready"))).settled()

    threads = {here.id: fake.threads(here)[-1], there.id: fake.threads(there)[-1]}
    for thread in threads.values():
        await fake.wait_for_message(lambda m, t=thread: m.channel_id == t.id and "has started" in m.content)
    master = table.bot.service.master
    [game] = await master.lookup.list_games(other.id)
    home = {table.alice.id: threads[here.id], dave.id: threads[there.id]}
    by_seat = sorted((table.alice, dave), key=lambda u: game.player_of(u.id).seat)
    for turn, player in enumerate(by_seat, start=1):  # each plays from his own server's thread
        offered = await fake.autocomplete(player, home[player.id], "orders send", focused="text", value="")
        sent = await fake.slash(player, home[player.id], "orders send", text=offered[0]["value"])
        assert sent.content.startswith("Orders taken"), sent.content
        for thread in threads.values():
            moved = await fake.wait_for_message(
                lambda m, t=thread, n=turn: m.channel_id == t.id and m.content.startswith(f"**Turn {n}.**")
            )
            decode_png(moved.attachments[0].data)
    mine = await fake.slash(dave, there, "mygames")  # his link opens his own server's thread
    assert f"channels/{other.id}/{threads[there.id].id})" in mine.content, mine.content
    asked = await fake.slash(dave, home[dave.id], "game surrender")  # a button of a post in his thread
    await fake.click(dave, asked.message, button(asked.message, "Surrender"))
    for thread in threads.values():
        await fake.wait_for_message(lambda m, t=thread: m.channel_id == t.id and "is over" in m.content)
    await table.bot.service.outbox.idle()

    posts = {
        channel: [m for m in fake.channel_messages(thread) if m.author.id == fake.bot_user.id]
        for channel, thread in threads.items()
    }
    nonces = {channel: [str(m.nonce) for m in found] for channel, found in posts.items()}
    assert len(set(nonces[here.id])) == len(nonces[here.id]) > 3  # every public post once in each thread
    assert nonces[there.id] == [f"{nonce}m1" for nonce in nonces[here.id]]
    assert [m.content for m in posts[there.id]] == [m.content for m in posts[here.id]]
    for channel in (here, there):  # each server's card shows the game over
        card = next(m for m in fake.channel_messages(channel) if m.embeds)
        await fake.wait_for_message(lambda m, c=card: m.id == c.id and "Game over" in str(m.embeds))
    board = await fake.slash(dave, there, "leaderboard", ruleset="siege")  # rated on each server's board
    assert f"<@{dave.id}>" in board.content and f"<@{table.alice.id}>" in board.content, board.content

    over = next(m for m in posts[there.id] if "is over" in m.content)  # a rematch from his server's thread
    rematch = await fake.click(dave, over, button(over, "Rematch"))
    await rematch.settled()
    again = fake.threads(there)[-1]
    assert again.id != threads[there.id].id and len(fake.threads(here)) == 2  # mirrored as the game was
    assert f"<#{again.id}>" in " ".join(m.content for m in rematch.messages), rematch.messages
