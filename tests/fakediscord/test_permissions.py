"""Permissions the bot can lose mid-game: channel overwrites, role changes and their gateway events.

A real discord.py client is connected throughout, so each change is checked twice: REST refuses (or,
for embeds, quietly strips) what the bot may no longer do, and ``channel.permissions_for(guild.me)`` on
the client agrees with the fake once the change's event has arrived.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord
import pytest

from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser, SimulationError
from tests.fakediscord.echo import EchoBot
from tests.fakediscord.models import (
    ATTACH_FILES,
    BOT_DEFAULT,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_THREADS,
    MENTION_EVERYONE,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SEND_TTS_MESSAGES,
    VIEW_CHANNEL,
    FakeChannel,
)
from tests.fakediscord.test_fake import eventually, png

# The bits a text-channel bot cares about; discord.py also strips voice bits, which the fake does not model.
TEXT_BITS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_TTS_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | MENTION_EVERYONE
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | MANAGE_THREADS
    | SEND_MESSAGES_IN_THREADS
)


@dataclass
class Room:
    fake: FakeDiscord
    bot: EchoBot
    guild: FakeGuild

    @property
    def general(self) -> FakeChannel:
        return self.guild.channels[0]

    def client_channel(self, channel: FakeChannel) -> discord.TextChannel | discord.Thread:
        found = self.bot.get_channel(channel.id)
        assert isinstance(found, discord.TextChannel | discord.Thread), f"the client has no channel {channel.id}"
        return found

    def client_permissions(self, channel: FakeChannel) -> int:
        found = self.client_channel(channel)
        return found.permissions_for(found.guild.me).value & TEXT_BITS

    async def agreed(self, channel: FakeChannel) -> int:
        """The bot's permissions in ``channel`` once the client's view has caught up with the fake's."""
        expected = self.fake.permissions_in(self.fake.bot_user, channel) & TEXT_BITS
        await eventually(lambda: self.client_permissions(channel) == expected)
        return expected

    async def refused(self, attempt, code: int) -> None:
        """``attempt`` fails with discord.Forbidden ``code``; the fake's record of the refusal is taken."""
        with pytest.raises(discord.Forbidden) as refusal:
            await attempt
        assert refusal.value.code == code
        assert [v.code for v in self.fake.take_violations()] == [code]


@pytest.fixture
async def room():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Test Server")
        bot = EchoBot()
        await fake.start_bot(bot)
        yield Room(fake, bot, guild)


def member(room: Room, name: str) -> FakeUser:
    user = room.fake.add_user(name)
    room.fake.add_member(room.guild, user)
    return user


async def public_thread(room: Room) -> FakeChannel:
    root = await room.client_channel(room.general).send("root")
    thread = await root.create_thread(name="game")
    await eventually(lambda: room.bot.get_channel(thread.id) is not None)
    return room.fake.channel(thread.id)


# -- the computation, as discord.py computes it ------------------------------------------------------


async def test_overwrites_in_guild_create_reach_the_client():
    async with FakeDiscord() as fake:
        guild = fake.add_guild()
        fake.set_overwrite(guild.channels[0], guild.everyone, deny=SEND_MESSAGES)
        fake.set_overwrite(guild.channels[0], fake.bot_user, deny=READ_MESSAGE_HISTORY)
        bot = EchoBot()
        await fake.start_bot(bot)
        assert await Room(fake, bot, guild).agreed(
            guild.channels[0]
        ) == VIEW_CHANNEL | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | (MANAGE_THREADS | SEND_MESSAGES_IN_THREADS)


async def test_each_change_event_carries_what_discord_py_needs(room):
    fake, general, me = room.fake, room.general, room.fake.bot_user
    thread = await public_thread(room)
    bot_role = fake.bot_role(room.guild)
    start = await room.agreed(general)
    assert start == BOT_DEFAULT & TEXT_BITS

    fake.set_overwrite(general, room.guild.everyone, deny=SEND_MESSAGES)  # CHANNEL_UPDATE
    assert await room.agreed(general) == start & ~(SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES)
    assert await room.agreed(thread) == start & ~SEND_MESSAGES, "in a thread SEND_MESSAGES_IN_THREADS counts"

    fake.set_overwrite(general, bot_role, allow=SEND_MESSAGES)  # a role's overwrite beats @everyone's
    assert await room.agreed(general) == start

    muted = EMBED_LINKS | SEND_MESSAGES_IN_THREADS
    fake.set_overwrite(thread, me, deny=muted)  # lands on the parent
    assert await room.agreed(general) == start & ~muted
    assert await room.agreed(thread) == start & ~(muted | ATTACH_FILES)

    fake.set_bot_permissions(room.guild, BOT_DEFAULT & ~MANAGE_THREADS)  # GUILD_ROLE_UPDATE
    assert await room.agreed(general) == start & ~(muted | MANAGE_THREADS)

    quiet, loud = fake.add_role(room.guild, "quiet", 0), fake.add_role(room.guild, "loud", 0)
    fake.set_overwrite(general, quiet, deny=ATTACH_FILES | READ_MESSAGE_HISTORY)
    fake.set_overwrite(general, loud, allow=READ_MESSAGE_HISTORY)
    fake.set_member_roles(room.guild, me, [bot_role, quiet, loud])  # GUILD_MEMBER_UPDATE; allows win among roles
    assert await room.agreed(general) == start & ~(muted | MANAGE_THREADS | ATTACH_FILES)

    fake.set_overwrite(general, me, allow=ATTACH_FILES)  # replaces the member's overwrite, which comes last
    assert await room.agreed(general) == start & ~MANAGE_THREADS

    fake.set_overwrite(general, bot_role, deny=VIEW_CHANNEL)
    assert await room.agreed(general) == 0
    assert await room.agreed(thread) == 0

    for target in (room.guild.everyone, bot_role, me, quiet, loud):
        fake.clear_overwrite(general, target)
    fake.set_member_roles(room.guild, me, [bot_role])
    fake.set_bot_permissions(room.guild, BOT_DEFAULT)
    assert await room.agreed(general) == start
    assert await room.agreed(thread) == start


async def test_administrators_and_the_owner_ignore_overwrites(room):
    fake, general = room.fake, room.general
    alice = member(room, "alice")
    fake.set_overwrite(general, room.guild.everyone, deny=VIEW_CHANNEL)
    fake.set_overwrite(general, room.guild.owner, deny=VIEW_CHANNEL)
    fake.set_bot_permissions(room.guild, discord.Permissions(administrator=True))
    assert await room.agreed(general) == TEXT_BITS
    assert fake.permissions_in(room.guild.owner, general) & TEXT_BITS == TEXT_BITS
    assert fake.permissions_in(alice, general) == 0


async def test_people_lose_sight_of_a_channel_through_overwrites(room):
    alice = member(room, "alice")
    room.fake.set_overwrite(room.general, alice, deny=VIEW_CHANNEL)
    with pytest.raises(SimulationError, match="cannot see channel"):
        await room.fake.slash(alice, room.general, "echo say", text="hi")
    room.fake.clear_overwrite(room.general, alice)
    assert (await room.fake.slash(alice, room.general, "echo say", text="hi")).content == "hi"


# -- what REST refuses, and what it works again once restored --------------------------------------


async def test_without_send_messages_in_threads_a_thread_post_is_forbidden(room):
    fake = room.fake
    thread = await public_thread(room)
    fake.set_overwrite(room.general, fake.bot_role(room.guild), deny=SEND_MESSAGES_IN_THREADS)
    await room.agreed(thread)
    await room.refused(room.client_channel(thread).send("move"), 50013)
    await room.client_channel(room.general).send("the channel itself is fine")
    fake.clear_overwrite(room.general, fake.bot_role(room.guild))
    await room.agreed(thread)
    await room.client_channel(thread).send("move")
    assert [m.content for m in fake.channel_messages(thread)] == ["move"]


async def test_without_attach_files_the_whole_message_is_refused(room):
    fake, general = room.fake, room.general
    everyone_but_files = discord.Permissions(BOT_DEFAULT & ~ATTACH_FILES)
    fake.set_role_permissions(room.guild, room.guild.everyone, everyone_but_files)
    fake.set_bot_permissions(room.guild, everyone_but_files)
    await room.agreed(general)
    board = discord.File(io.BytesIO(png()), "board.png")
    await room.refused(room.client_channel(general).send("your move", file=board), 50013)
    assert fake.channel_messages(general) == []
    sent = await room.client_channel(general).send("text alone")
    await room.refused(sent.edit(attachments=[discord.File(io.BytesIO(png()), "board.png")]), 50013)
    fake.set_bot_permissions(room.guild, BOT_DEFAULT)
    await room.agreed(general)
    await room.client_channel(general).send("your move", file=discord.File(io.BytesIO(png()), "board.png"))
    assert [m.attachments[0].filename for m in fake.channel_messages(general) if m.attachments] == ["board.png"]


async def test_without_embed_links_embeds_are_dropped(room):
    fake, general = room.fake, room.general
    fake.set_overwrite(general, fake.bot_user, deny=EMBED_LINKS)
    await room.agreed(general)
    sent = await room.client_channel(general).send("score", embed=discord.Embed(title="3 - 1"))
    assert sent.embeds == [] and fake.message(sent.id).embeds == []
    assert fake.message(sent.id).content == "score"
    await room.refused(room.client_channel(general).send(embed=discord.Embed(title="alone")), 50013)
    edited = await sent.edit(content="final score", embed=discord.Embed(title="3 - 2"))
    assert edited.embeds == [] and fake.message(sent.id).content == "final score"
    fake.clear_overwrite(general, fake.bot_user)
    await room.agreed(general)
    shown = await sent.edit(embed=discord.Embed(title="3 - 2"))
    assert [e.title for e in shown.embeds] == ["3 - 2"]
    assert [e["title"] for e in fake.message(sent.id).embeds] == ["3 - 2"]


async def test_without_view_channel_posting_is_missing_access(room):
    fake, general = room.fake, room.general
    fake.set_overwrite(general, fake.bot_user, deny=VIEW_CHANNEL)
    await room.agreed(general)
    await room.refused(room.client_channel(general).send("anyone?"), 50001)
    fake.clear_overwrite(general, fake.bot_user)
    await room.agreed(general)
    await room.client_channel(general).send("back")


async def test_without_create_public_threads_no_thread_is_made(room):
    fake, general = room.fake, room.general
    root = await room.client_channel(general).send("root")
    fake.set_overwrite(general, fake.bot_user, deny=CREATE_PUBLIC_THREADS)
    await room.agreed(general)
    await room.refused(root.create_thread(name="game"), 50013)
    assert fake.threads(general) == []
    fake.clear_overwrite(general, fake.bot_user)
    await room.agreed(general)
    await root.create_thread(name="game")
    assert [t.name for t in fake.threads(general)] == ["game"]
