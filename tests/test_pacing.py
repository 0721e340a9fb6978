"""The bot keeps under Discord's global rate limit by itself (``cogs.pacing``): a refused request
counts towards the ban of its IP, and discord.py only learns of the global limit from refusals."""

from __future__ import annotations

import asyncio

import pytest

from cogs import pacing
from tests.fakediscord import FakeDiscord
from tests.fakediscord.echo import EchoBot

POSTS = 30


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def slept(monkeypatch) -> list[float]:
    """What ``Pacer.take`` waits, without waiting."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(round(seconds, 6))

    monkeypatch.setattr(pacing.asyncio, "sleep", sleep)
    return waits


async def test_requests_are_spaced_at_the_rate(slept):
    pacer = pacing.Pacer(10.0, Clock())
    for _ in range(3):
        await pacer.take()
    assert slept == [0.1, 0.2]  # the first goes at once, the others a tenth of a second apart


async def test_a_global_refusal_halves_the_pace_which_grows_back(slept):
    clock = Clock()
    pacer = pacing.Pacer(10.0, clock)
    pacer.refused()
    pacer.refused()
    assert pacer.rate == 2.5
    clock.now += 2.0  # a tenth of the full rate back each second
    await pacer.take()
    assert pacer.rate == pytest.approx(4.5)
    clock.now += 60.0
    await pacer.take()
    assert pacer.rate == 10.0  # never past the full rate


def test_each_process_takes_its_share_of_the_bots_rate():
    assert pacing.share(None, None) == pacing.GLOBAL_RATE
    assert pacing.share((0, 1), 4) == pacing.GLOBAL_RATE / 2


def test_only_requests_under_the_global_limit_are_paced():
    assert pacing.paced("http://127.0.0.1:5000/api/v10/channels/1/messages")
    assert not pacing.paced("http://127.0.0.1:5000/api/v10/interactions/1/tok/callback")
    assert not pacing.paced("http://127.0.0.1:5000/api/v10/webhooks/1/tok")
    assert not pacing.paced("ws://127.0.0.1:5000/?v=10&encoding=json")


async def refusals(pacer: pacing.Pacer | None) -> tuple[int, int]:
    """Global 429s while the bot posts POSTS messages at once where Discord takes 10 a second, and
    the posts that failed (discord.py gives up on a request after five refusals)."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild()
        channels = [fake.add_text_channel(guild, f"room{k}") for k in range(3)]
        bot = EchoBot(**({"http_trace": pacing.trace(pacer)} if pacer else {}))
        await fake.start_bot(bot)
        fake.set_global_rate_limit(5, 0.5)
        targets = [bot.get_channel(c.id) for c in channels]
        sent = await asyncio.gather(*(targets[k % 3].send(f"post {k}") for k in range(POSTS)), return_exceptions=True)
        hits = fake.global_rate_limit_hits
        await fake.stop_bot(bot)
    return hits, sum(isinstance(outcome, Exception) for outcome in sent)


async def test_a_burst_of_posts_meets_few_global_refusals():
    paced, failed = await refusals(pacing.Pacer())
    unpaced, _ = await refusals(None)
    assert paced <= 10 and paced * 5 <= unpaced and failed == 0, (paced, unpaced, failed)
