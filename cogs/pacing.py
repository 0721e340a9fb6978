"""Keeping the bot under Discord's global rate limit, rather than learning it from refusals.

Discord lets a bot make 50 requests a second over all routes (those authorised by an interaction
or webhook token aside) and answers more with a global 429, which counts towards the ban of an IP
that gets 10,000 refusals in 10 minutes. discord.py learns of the global limit only from such a
429, and when it lifts lets every request that waited go at once, into the next one. So every
HTTP attempt the bot makes (discord.py's retries included) first waits here for its turn: at most
``rate`` a second, this process's share of the bot's limit where several processes share it. A
global 429 all the same (Discord holding the bot to less) halves the rate, which then grows back
by a tenth of the full rate each second without another.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

GLOBAL_RATE = 45.0
"""Requests a second the whole bot makes: Discord allows 50; the rest is margin."""
SLOWEST = 1.0
RECOVERY = 0.1
"""The share of the full rate regained each second without a global 429."""
TOKEN_PATHS = ("/interactions/", "/webhooks/")


class Pacer:
    """Spaces requests ``1 / rate`` seconds apart, and slows down when Discord says so."""

    def __init__(self, rate: float = GLOBAL_RATE, clock: Callable[[], float] = time.monotonic):
        self.full = self.rate = max(SLOWEST, rate)
        self.clock = clock
        self._last = float("-inf")  # when the last request went
        self._updated = clock()
        self._turn = asyncio.Lock()  # one request waits at a time, at the pace of the moment

    async def take(self) -> None:
        """Wait for this request's turn."""
        async with self._turn:
            now = self.clock()
            self._recover(now)
            wait = self._last + 1 / self.rate - now
            if wait > 0:
                await asyncio.sleep(wait)
            self._last = max(now, self._last + 1 / self.rate)

    def refused(self) -> None:
        """Discord answered a global 429: go at half the pace."""
        self._recover(self.clock())
        self.rate = max(SLOWEST, self.rate / 2)

    def _recover(self, now: float) -> None:
        self.rate = min(self.full, self.rate + RECOVERY * self.full * (now - self._updated))
        self._updated = now


def share(shard_ids: tuple[int, ...] | None, shard_count: int | None) -> float:
    """This process's part of the bot's global rate: its share of the shards (all of it alone)."""
    if shard_ids is None or not shard_count:
        return GLOBAL_RATE
    return GLOBAL_RATE * len(shard_ids) / shard_count


def paced(url: str) -> bool:
    """Whether a request to ``url`` counts towards the global limit (the gateway's socket does not)."""
    return "/api/" in url and not any(path in url for path in TOKEN_PATHS)


def trace(pacer: Pacer) -> aiohttp.TraceConfig:
    """The hooks of discord.py's HTTP session (``http_trace``) that make every attempt wait its turn."""
    config = aiohttp.TraceConfig()

    async def start(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        if paced(str(params.url)):
            await pacer.take()

    async def end(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.response.status == 429 and params.response.headers.get("X-RateLimit-Global"):
            pacer.refused()

    config.on_request_start.append(start)
    config.on_request_end.append(end)
    return config
