"""A permission the bot loses mid-game never costs a post or a fair turn (issue: "a post Discord
refuses for a permission stays pending and is delivered when the permission returns ...; the game's
deadline is held while its thread cannot be reached ...; the game's creator and the server's admins
are told once ...; a post without Attach Files goes out as text with ... the board described in
words")."""

from __future__ import annotations

import asyncio

from tests.e2e.test_standing import CONQUEST, DAY
from tests.fakediscord.models import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES_IN_THREADS


async def bot_sees(table, **permissions: bool) -> None:
    """Wait until the bot's cache has the change event of the table's channel (it comes on its own time)."""
    channel = table.bot.get_channel(table.channel.id)
    for _ in range(200):
        allowed = channel.permissions_for(channel.guild.me)
        if all(getattr(allowed, name) == value for name, value in permissions.items()):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the bot never saw {permissions}")


async def test_a_round_post_waits_for_its_permission_and_the_clock_waits_with_it(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    role = fake.bot_role(table.guild)
    fake.set_overwrite(table.channel, role, deny=SEND_MESSAGES_IN_THREADS)  # an admin's slip, mid-game
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders pass")
    told = await fake.wait_for_message(lambda m: m.channel_id == table.channel.id and "I cannot post in" in m.content)
    assert "**Send Messages in Threads**" in told.content and f"<#{thread.id}>" in told.content
    assert any("I cannot post in" in m.content for m in fake.dm_messages(table.alice))  # the game's creator
    assert not any(m.content.startswith("**Round 1.**") for m in table.posts())

    await table.tick(3 * DAY)  # far past the round's deadline: nobody misses a turn he was not shown
    assert not any("missed" in m.content for m in table.posts())

    fake.clear_overwrite(table.channel, role)  # given back: the change event brings the post at once
    resolved = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    assert resolved.attachments and not any("missed" in m.content for m in table.posts())
    back = await table.post(lambda m: m.content.startswith("▶️ I can post here again"))
    assert "**Send Messages in Threads**" in back.content and "Deadline: <t:" in back.content
    assert sum("I cannot post in" in m.content for m in fake.channel_messages(table.channel)) == 1  # told once


async def test_without_attach_files_a_round_post_gives_its_board_in_words(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    fake.set_overwrite(table.channel, fake.bot_role(table.guild), deny=ATTACH_FILES)
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders pass")
    resolved = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    assert not resolved.attachments
    assert "🖼️ I may not attach images here, so here is the board in words:" in resolved.content
    assert "Conquest #1: Round 1" in resolved.content and "(red):" in resolved.content


async def test_a_game_is_not_opened_where_the_bot_lacks_a_permission_it_needs(table):
    """Issue: "/game create checks every permission it will need, Embed Links included, and a failed
    creation leaves no lobby card with live buttons"."""
    fake = table.fake
    fake.set_overwrite(table.channel, fake.bot_role(table.guild), deny=EMBED_LINKS)
    refused = await fake.slash(table.alice, table.channel, "game create conquest", size="small")
    assert refused.ephemeral and "I cannot host a game in this channel: I lack **Embed Links** here" in refused.content
    assert not fake.channel_messages(table.channel) and not fake.threads(table.channel)
    assert not await table.bot.service.master.lookup.list_games(table.guild.id)  # nothing half-made

    await bot_sees(table, embed_links=False)
    checked = await fake.slash(table.mod, table.channel, "config check")
    assert checked.ephemeral and checked.content == f"<#{table.channel.id}>: I lack **Embed Links**"
    fake.clear_overwrite(table.channel, fake.bot_role(table.guild))
    await bot_sees(table, embed_links=True)
    ok = await fake.slash(table.mod, table.channel, "config check")
    assert ok.content == "I have every permission games need in every channel with games."


async def test_a_notice_discord_failed_is_sent_again_and_nobody_is_told_twice(table):
    """Issue: "the game's creator and the server's admins are told once, by DM and in any channel the
    bot can still write"; a notice that met a Discord failure goes out with the held post's next try."""
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    fake.set_overwrite(table.channel, fake.bot_role(table.guild), deny=SEND_MESSAGES_IN_THREADS)
    creator = fake.dm_channel(table.alice)
    fake.inject_server_error(f"/channels/{creator.id}/messages", status=503, method="POST")
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders pass")
    await fake.wait_for_message(lambda m: m.channel_id == table.channel.id and "I cannot post in" in m.content)
    assert fake.faults_fired and not any("I cannot post in" in m.content for m in fake.dm_messages(table.alice))

    for _ in range(3):  # the held post is tried again on its backoff, past Discord's nonce window
        fake.forget_nonces()
        await table.tick(600)
        await table.bot.service.outbox.idle()
    for user in (table.alice, table.guild.owner):
        assert sum("I cannot post in" in m.content for m in fake.dm_messages(user)) == 1, user.name
    assert sum("I cannot post in" in m.content for m in fake.channel_messages(table.channel)) == 1
