"""Discord's rate limits in the fake: buckets whose headers the real discord.py obeys, the global limit
(interaction endpoints exempt), and the count of invalid requests that ends in Cloudflare's ban."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser
from tests.fakediscord.echo import EchoBot
from tests.fakediscord.models import SEND_MESSAGES

POSTS = "POST /channels/{channel_id}/messages"


@dataclass
class Room:
    fake: FakeDiscord
    bot: EchoBot
    guild: FakeGuild
    alice: FakeUser

    def channel(self, index: int = 0) -> discord.TextChannel:
        found = self.bot.get_channel(self.guild.channels[index].id)
        assert isinstance(found, discord.TextChannel)
        return found


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


def later_command(bot: EchoBot) -> None:
    """``/echo later``: deferred, then a followup, so the interaction webhook is used too."""

    @bot.echo.command(name="later", description="Thinks, then answers")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        await interaction.followup.send("done", ephemeral=True)


@pytest.fixture
async def room():
    async with FakeDiscord() as fake:
        guild = fake.add_guild()
        fake.add_text_channel(guild, "second")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        bot = EchoBot()
        later_command(bot)
        await fake.start_bot(bot)
        yield Room(fake, bot, guild, alice)


async def raw(fake: FakeDiscord, method: str, path: str, *, token: str | None = None, **kwargs: Any) -> Answer:
    """One request as a client that ignores the headers would send it."""
    headers = {"Authorization": f"Bot {token or fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.request(method, fake.api_base + path, headers=headers, **kwargs) as response:
            body = await (response.json() if response.content_type == "application/json" else response.text())
            return Answer(response.status, dict(response.headers), body)


async def post(room: Room, index: int = 0, content: str = "hi") -> Answer:
    return await raw(
        room.fake, "POST", f"/channels/{room.guild.channels[index].id}/messages", json={"content": content}
    )


# -- buckets ----------------------------------------------------------------------------------------


async def test_discord_py_waits_on_the_bucket_headers_and_is_never_refused(room):
    room.fake.set_rate_limit(POSTS, 5, 0.5)
    channel = room.channel()
    start = time.monotonic()
    await asyncio.gather(*(channel.send(f"message {i}") for i in range(12)))
    assert time.monotonic() - start >= 1.0  # three windows: 5, 5 and 2 messages
    assert len(room.fake.channel_messages(room.guild.channels[0])) == 12
    assert room.fake.buckets_exceeded() == {}
    assert room.fake.invalid_requests() == 0


async def test_every_answer_tells_its_buckets_state(room):
    room.fake.set_rate_limit(POSTS, 3, 10.0)
    answers = [await post(room) for _ in range(2)]
    other = await raw(room.fake, "GET", f"/channels/{room.guild.channels[0].id}")
    assert [a.status for a in answers] == [200, 200]
    assert [a.headers["X-RateLimit-Limit"] for a in answers] == ["3", "3"]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["2", "1"]
    reset_after = float(answers[1].headers["X-RateLimit-Reset-After"])
    assert 9.0 < reset_after <= 10.0
    assert float(answers[1].headers["X-RateLimit-Reset"]) == pytest.approx(time.time() + reset_after, abs=1.0)
    assert answers[0].headers["X-RateLimit-Bucket"] == answers[1].headers["X-RateLimit-Bucket"]
    assert other.headers["X-RateLimit-Bucket"] != answers[0].headers["X-RateLimit-Bucket"]


async def test_a_request_over_its_bucket_gets_discords_429_and_counts_as_invalid(room):
    room.fake.set_rate_limit(POSTS, 2, 10.0)
    allowed = [await post(room) for _ in range(2)]
    refused = await post(room)
    assert [a.status for a in allowed] == [200, 200] and refused.status == 429
    assert refused.headers["Content-Type"] == "application/json"
    assert refused.headers["Via"] == "1.1 google"
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["X-RateLimit-Bucket"] == allowed[0].headers["X-RateLimit-Bucket"]
    assert refused.body == {
        "message": "You are being rate limited.",
        "retry_after": refused.body["retry_after"],
        "global": False,
    }
    assert 9.0 < refused.body["retry_after"] <= 10.0
    assert (await post(room, index=1)).status == 200  # another channel, another bucket
    channel_id = room.guild.channels[0].id
    assert room.fake.buckets_exceeded() == {f"{POSTS}:{channel_id}": 1}
    assert room.fake.invalid_requests() == 1
    assert len(room.fake.channel_messages(room.guild.channels[0])) == 2


async def test_set_rate_limit_names_a_route_the_fake_has(room):
    with pytest.raises(ValueError, match="no route"):
        room.fake.set_rate_limit("POST /channels/{id}/messages", 5, 5.0)


# -- the global limit -------------------------------------------------------------------------------


async def test_the_global_limit_refuses_across_routes_with_global_true(room):
    room.fake.set_global_rate_limit(3, 10.0)
    allowed = [await post(room, index=i % 2) for i in range(3)]
    refused = await raw(room.fake, "GET", "/users/@me")
    assert [a.status for a in allowed] == [200, 200, 200] and refused.status == 429
    assert refused.headers["Via"] == "1.1 google"
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.body["global"] is True and 9.0 < refused.body["retry_after"] <= 10.0
    assert room.fake.global_rate_limit_hits == 1 and room.fake.buckets_exceeded() == {}
    assert room.fake.invalid_requests() == 1


async def test_discord_py_waits_out_the_global_limit(room):
    room.fake.set_global_rate_limit(3, 0.5)
    channels = [room.channel(0), room.channel(1)]
    await asyncio.gather(*(channels[i % 2].send(f"message {i}") for i in range(8)))
    assert room.fake.global_rate_limit_hits >= 1  # discord.py learns of the global limit only by a 429
    assert sum(len(room.fake.channel_messages(c)) for c in room.guild.channels) == 8


async def test_interaction_callbacks_and_followups_are_exempt_from_the_global_limit(room):
    room.fake.set_global_rate_limit(1, 60.0)
    assert (await raw(room.fake, "GET", "/users/@me")).status == 200  # the only request the limit allows
    for _ in range(3):
        assert (await room.fake.slash(room.alice, room.guild.channels[0], "echo say", text="hi")).content == "hi"
        assert (await room.fake.slash(room.alice, room.guild.channels[0], "echo later")).content == "done"
    assert room.fake.global_rate_limit_hits == 0
    assert (await raw(room.fake, "GET", "/users/@me")).status == 429
    assert room.fake.global_rate_limit_hits == 1


# -- invalid requests -------------------------------------------------------------------------------


async def test_refusals_for_missing_permissions_count_as_invalid_requests(room):
    room.fake.set_overwrite(room.guild.channels[0], room.fake.bot_role(room.guild), deny=SEND_MESSAGES)
    for _ in range(3):
        with pytest.raises(discord.Forbidden):
            await room.channel().send("refused")
    assert [v.code for v in room.fake.take_violations()] == [50013] * 3
    assert room.fake.invalid_requests() == 3 and room.fake.invalid_requests_peak == 3
    await asyncio.sleep(0.3)
    assert room.fake.invalid_requests(window=0.2) == 0 and room.fake.invalid_requests() == 3


@pytest.mark.parametrize(("scope", "counted"), [("user", 1), ("shared", 0)])
async def test_a_shared_resources_429_is_not_an_invalid_request(room, scope, counted):
    channel = room.guild.channels[0]
    room.fake.inject_rate_limit(f"/channels/{channel.id}/messages", retry_after=0.1, method="POST", scope=scope)
    await room.channel().send("after a 429")
    assert [m.content for m in room.fake.channel_messages(channel)] == ["after a 429"]
    assert room.fake.invalid_requests() == counted


async def test_too_many_invalid_requests_get_cloudflares_ban_for_a_while(room):
    room.fake.set_invalid_request_limit(3, window=0.5)
    for _ in range(3):
        assert (await raw(room.fake, "GET", "/users/@me", token="stolen")).status == 401
    banned = await raw(room.fake, "GET", "/users/@me")
    assert banned.status == 429 and "Via" not in banned.headers and "1015" in banned.body
    with pytest.raises(discord.HTTPException) as refusal:
        await room.channel().send("while banned")
    assert refusal.value.status == 429 and not isinstance(refusal.value, discord.RateLimited)
    assert [v.kind for v in room.fake.take_violations()] == ["unauthorized"] * 3
    assert room.fake.invalid_requests_peak == 3  # the ban's own answers are Cloudflare's, not counted
    await asyncio.sleep(0.5)
    assert (await raw(room.fake, "GET", "/users/@me")).status == 200
