""" "End to end through the fake Discord: … a cross-server game mirrored in two servers' threads,
played to the end, with each thread seeing every public post exactly once." Two servers share their
queues (`/config matchmaking`); a player of each queues from his own server, answers the ready check
posted there, plays from his own server's thread, and the other's posts reach him there."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from tests.e2e.conftest import button, decode_png
from tests.e2e.test_lost_permissions import bot_sees
from tests.e2e.test_settings import HOUR
from tests.e2e.test_standing import DAY
from tests.fakediscord.models import SEND_MESSAGES_IN_THREADS, FakeChannel, FakeGuild, FakeUser


@dataclass
class Mirrored:
    other: FakeGuild  # the second server
    dave: FakeUser  # its player
    threads: dict[int, FakeChannel]  # the game's thread in each server, by the channel it opened in
    home: dict[int, FakeChannel]  # each player's own thread, by user id


async def mirrored_siege(table) -> Mirrored:
    """Alice of the table's server and Dave of another, both sharing their queues, matched and ready:
    their siege game, opened in both servers."""
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
    return Mirrored(other, dave, threads, {table.alice.id: threads[here.id], dave.id: threads[there.id]})


async def seats(table, game: Mirrored) -> list[FakeUser]:
    """The two players, first seat first."""
    [played] = await table.bot.service.master.lookup.list_games(game.other.id)
    return sorted((table.alice, game.dave), key=lambda u: played.player_of(u.id).seat)


async def test_a_game_across_two_servers_is_mirrored_in_each_thread_to_its_end(table):
    fake, here = table.fake, table.channel
    game = await mirrored_siege(table)
    there, threads, home, dave = game.other.channels[0], game.threads, game.home, game.dave
    for turn, player in enumerate(await seats(table, game), start=1):  # each plays from his own server's thread
        offered = await fake.autocomplete(player, home[player.id], "orders send", focused="text", value="")
        sent = await fake.slash(player, home[player.id], "orders send", text=offered[0]["value"])
        assert sent.content.startswith("Orders taken"), sent.content
        for thread in threads.values():
            moved = await fake.wait_for_message(
                lambda m, t=thread, n=turn: m.channel_id == t.id and m.content.startswith(f"**Turn {n}.**")
            )
            decode_png(moved.attachments[0].data)
    mine = await fake.slash(dave, there, "mygames")  # his link opens his own server's thread
    assert f"channels/{game.other.id}/{threads[there.id].id})" in mine.content, mine.content
    listed = await fake.slash(dave, there, "game list")
    assert f"<#{threads[there.id].id}>" in listed.content, listed.content
    kick = await fake.slash(table.mod, home[dave.id], "admin cancel")  # a manager of the mirror's server only
    assert "opened in another server" in kick.content, kick.content
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
    cards = {channel.id: [m for m in fake.channel_messages(channel) if m.embeds][-1] for channel in (here, there)}
    assert all(f"<@{dave.id}>" in str(card.embeds) for card in cards.values())
    await (await fake.click(dave, cards[there.id], button(cards[there.id], "Leave"))).settled()
    await fake.wait_for_message(lambda m: m.id == cards[here.id].id and f"<@{dave.id}>" not in str(m.embeds))


async def test_a_thread_the_bot_cannot_post_in_holds_the_game_in_every_server_until_it_can(table):
    """The game's own thread refuses the bot (an admin's slip there): the game is held as any game is,
    in the other server too; once the bot can post again, each thread gets each post once."""
    fake = table.fake
    game = await mirrored_siege(table)
    role = fake.bot_role(table.guild)
    fake.set_overwrite(table.channel, role, deny=SEND_MESSAGES_IN_THREADS)
    await bot_sees(table, send_messages_in_threads=False)
    first = (await seats(table, game))[0]
    offered = await fake.autocomplete(first, game.home[first.id], "orders send", focused="text", value="")
    await fake.slash(first, game.home[first.id], "orders send", text=offered[0]["value"])
    await fake.wait_for_message(lambda m: m.channel_id == table.channel.id and "I cannot post in" in m.content)
    threads = list(game.threads.values())
    assert not any(m.content.startswith("**Turn 1.**") for t in threads for m in fake.channel_messages(t))
    fake.clear_overwrite(table.channel, role)
    await bot_sees(table, send_messages_in_threads=True)
    await table.tick(600)  # past the retry's backoff, should the change event come before the post was held
    for thread in threads:
        await fake.wait_for_message(lambda m, t=thread: m.channel_id == t.id and m.content.startswith("**Turn 1.**"))
    await fake.wait_for_message(lambda m: m.content.startswith("▶️ I can post here again"))
    await table.bot.service.outbox.idle()
    back = [m.channel_id for m in fake.world.messages.values() if m.content.startswith("▶️ I can post here again")]
    assert back == [game.threads[table.channel.id].id]  # said where the bot could not post, only
    for thread in threads:
        assert sum(m.content.startswith("**Turn 1.**") for m in fake.channel_messages(thread)) == 1


async def test_when_the_games_own_thread_is_deleted_its_players_still_get_their_reminders(table):
    """The game's own thread is deleted for good: the game goes on in the other server's thread, and
    each reminder still reaches its player by direct message (a reminder is not a thread's post)."""
    fake = table.fake
    game = await mirrored_siege(table)
    first, second = await seats(table, game)
    for player in (first, second):
        await fake.slash(player, fake.dm_channel(player), "settings", lead_time="3h")
    gone = game.threads[table.channel.id]
    fake.delete_thread(gone)

    def reminders(user) -> list[str]:
        return [m.content for m in fake.dm_messages(user) if m.content.startswith("⏰")]

    await table.tick(DAY - 3 * HOUR)
    await table.bot.service.outbox.idle()
    [told] = reminders(first)
    assert "the deadline is <t:" in told, told
    there = game.threads[game.other.channels[0].id]
    turn = 1
    if first is not game.dave:  # the game goes on where it is mirrored: Dave's turn comes there
        await table.tick(3 * HOUR)
        await fake.wait_for_message(lambda m: m.channel_id == there.id and m.content.startswith("**Turn 1.**"))
        turn = 2
    sent = await fake.slash(game.dave, there, "orders pass")
    assert "is resolved" in sent.content, sent.content
    await fake.wait_for_message(lambda m: m.channel_id == there.id and m.content.startswith(f"**Turn {turn}.**"))
    await table.bot.service.outbox.idle()
    missing = fake.take_violations()  # the bot looked for the deleted thread, as it cannot know it is gone
    assert missing and all(f"/channels/{gone.id}" in str(v) and "10003" in str(v) for v in missing), missing
