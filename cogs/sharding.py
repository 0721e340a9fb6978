"""Running as some of Discord's shards: where the gateway is, which process syncs commands, when to IDENTIFY.

Discord splits a bot's guilds into shards (guild ``g`` belongs to shard ``(g >> 22) % count``); each
process runs the shards its ``SHARD_IDS`` name, and a guild's interactions reach only the process
holding its shard. Posting needs no shard: channels of any guild are reached by REST.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient

IDENTIFY_WINDOW_SECONDS = 5.0


@dataclass(frozen=True)
class GatewayInfo:
    """What ``GET /gateway/bot`` says besides the gateway's address: the recommended shard count, and how
    many sessions may start together."""

    recommended_shards: int
    max_concurrency: int


async def fetch_gateway(http: HTTPClient) -> GatewayInfo:
    """Ask Discord (or the REST base the bot is pointed at) where its gateway is, and point discord.py there:
    it otherwise connects to Discord's own address, also after a session is invalidated."""
    shards, url, limits = await http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    return GatewayInfo(int(shards), max(1, int(limits.get("max_concurrency", 1))))


def syncs_commands(shard_ids: Sequence[int] | None) -> bool:
    """Only the process holding shard 0 syncs the command tree: every process runs the same commands,
    and one sync is enough (a sync from each would only spend the rate limit)."""
    return shard_ids is None or 0 in shard_ids


class IdentifyLimiter:
    """Discord starts at most ``max_concurrency`` sessions per 5 s, one per bucket ``shard_id %
    max_concurrency``. discord.py's default waits 5 s before every IDENTIFY but the first; this waits only
    when the same bucket identified less than 5 s ago, so a bot allowed to start several shards together
    does. It knows this process's identifies only: processes sharing a bucket that start at the same
    moment get an INVALID_SESSION from Discord, after which discord.py identifies again."""

    def __init__(self, max_concurrency: int = 1) -> None:
        self.max_concurrency = max_concurrency
        self._next: dict[int, float] = {}

    async def wait(self, shard_id: int | None) -> None:
        delay = self.reserve(shard_id, asyncio.get_running_loop().time())
        if delay > 0:
            await asyncio.sleep(delay)

    def reserve(self, shard_id: int | None, now: float) -> float:
        """Book the next IDENTIFY slot of the shard's bucket; returns how long to wait for it."""
        bucket = (shard_id or 0) % self.max_concurrency
        start = max(now, self._next.get(bucket, now))
        self._next[bucket] = start + IDENTIFY_WINDOW_SECONDS
        return start - now
