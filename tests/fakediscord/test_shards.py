"""The fake's sharded gateway, exercised by discord.py's own sharded client (the echo bot on two shards)."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.echo import ShardedEchoBot
from tests.fakediscord.test_fake import eventually, raw


def sharded_bot(shard_ids: list[int], count: int = 2) -> ShardedEchoBot:
    """An echo bot running ``shard_ids`` of ``count``; ``bot.seen`` lists the interactions it received."""
    bot = ShardedEchoBot(shard_count=count, shard_ids=shard_ids)
    bot.seen = []

    async def note(interaction: discord.Interaction) -> None:
        bot.seen.append(interaction.id)

    bot.add_listener(note, "on_interaction")
    return bot


@pytest.fixture
async def shards():
    """Two guilds, one on each of two shards, and one bot process per shard."""
    async with FakeDiscord(shards=2, max_concurrency=2) as fake:
        guilds = [fake.add_guild(f"shard {k}", shard=(k, 2)) for k in range(2)]
        bots = [sharded_bot([0]), sharded_bot([1])]
        for bot in bots:
            await fake.start_bot(bot)
        yield fake, guilds, bots


async def test_each_shard_gets_only_its_guilds_and_their_interactions(shards):
    fake, guilds, bots = shards
    assert [[g.id for g in bot.guilds] for bot in bots] == [[guilds[0].id], [guilds[1].id]]
    assert fake.gateway_log == ["IDENTIFY 0/2", "READY 0/2", "IDENTIFY 1/2", "READY 1/2"]
    assert fake.connected_shards() == [(0, 2), (1, 2)]
    for guild, bot, other in zip(guilds, bots, reversed(bots), strict=True):
        reply = await fake.slash(guild.owner, guild.channels[0], "echo say", text=guild.name)
        assert reply.content == guild.name
        assert reply.interaction.id in bot.seen and reply.interaction.id not in other.seen
    direct = await fake.slash(guilds[1].owner, fake.dm_channel(guilds[1].owner), "echo say", text="in a DM")
    assert direct.interaction.id in bots[0].seen  # Discord sends DMs to shard 0 only
    assert direct.interaction.id not in bots[1].seen


async def test_a_guild_joined_later_reaches_only_its_shard(shards):
    fake, _, bots = shards
    joined = fake.add_guild("new", shard=(1, 2))
    await eventually(lambda: bots[1].get_guild(joined.id) is not None)
    assert bots[0].get_guild(joined.id) is None


async def test_each_shard_resumes_its_own_session(shards):
    fake, guilds, bots = shards
    start = len(fake.gateway_log)
    await fake.disconnect_gateway(resume=True, shard=1, downtime=0.3, wait=False)
    reply = await fake.slash(guilds[1].owner, guilds[1].channels[0], "echo say", text="during the gap")
    assert reply.content == "during the gap" and reply.interaction.id in bots[1].seen
    assert fake.gateway_log[start:] == ["CLOSE 4000", "RESUME 1/2", "RESUMED 1/2 replayed=1"]
    assert fake.connected_shards() == [(0, 2), (1, 2)]


async def test_a_shard_identified_twice_gets_its_events_on_both_sessions(shards):
    """Discord keeps both sessions: a bot started twice answers twice, and the second answer is refused."""
    fake, guilds, bots = shards
    twin = sharded_bot([0])
    await fake.start_bot(twin)
    assert fake.connected_shards() == [(0, 2), (0, 2), (1, 2)]
    reply = await fake.slash(guilds[0].owner, guilds[0].channels[0], "echo say", text="twice")
    await eventually(lambda: reply.interaction.id in twin.seen and reply.interaction.id in bots[0].seen)
    await eventually(lambda: fake.violations)
    assert [v.code for v in fake.take_violations()] == [40060]  # Interaction has already been acknowledged
    await fake.stop_bot(twin)
    assert fake.connected_shards() == [(0, 2), (1, 2)]  # closing with 1000 ended the twin's session only


async def test_an_invalid_shard_is_refused_with_4010():
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            assert (await ws.receive_json())["op"] == 10
            identify = {"token": fake.token, "intents": 1, "properties": {}, "shard": [2, 2]}
            await ws.send_json({"op": 2, "d": identify})
            await ws.receive()
            assert ws.close_code == 4010
        assert fake.gateway_log == ["IDENTIFY", "CLOSE 4010"] and fake.connected_shards() == []


async def test_gateway_bot_recommends_the_configured_shards(shards):
    fake, _, _ = shards
    status, gateway = await raw(fake, "GET", "/gateway/bot")
    assert status == 200 and gateway["url"] == fake.gateway_url and gateway["shards"] == 2
    limit = gateway["session_start_limit"]
    assert limit["max_concurrency"] == 2 and limit["remaining"] == limit["total"] - 2  # two sessions started
