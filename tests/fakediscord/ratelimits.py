"""Discord's rate limits: per-route buckets, the global limit, and the invalid-request ban.

Every answer carries its bucket's state (``X-RateLimit-*``) so that discord.py can wait instead of
being refused; a client that ignores them gets 429s. Discord counts the 401, 403 and 429 answers an
IP gets, and past 10,000 in 10 minutes Cloudflare bans it for a while: a bot retrying refused posts
in a loop can lock itself out. Windows use the monotonic clock; the numbers are configurable so a
test can make them tight.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from aiohttp import web

# (requests, seconds) per bucket. Discord's own are tighter (5 posts per 5 s in a channel), but the
# bot's game rounds burst past them and the e2e suite would spend its time waiting on the headers;
# a test that wants Discord's numbers sets them (FakeDiscord.set_rate_limit).
ROUTE_LIMIT = (10, 1.0)
TOKEN_ROUTE_LIMIT = (5, 2.0)  # a webhook or interaction token, as Discord answers
GLOBAL_LIMIT = (50, 1.0)
INVALID_LIMIT = (10_000, 600.0)
TOKEN_PATHS = ("/webhooks/", "/interactions/")  # authorised by a token in the path, exempt from the global limit

BAN_PAGE = (
    "<!DOCTYPE html><title>Access denied | discord.com used Cloudflare to restrict access</title>error code: 1015"
)


def _ceil_ms(seconds: float) -> float:
    """Rounded up, so that a client sleeping this long never wakes before the window resets."""
    return math.ceil(max(seconds, 0.0) * 1000) / 1000


@dataclass
class Window:
    """``limit`` requests in a fixed window of ``period`` seconds that opens with its first request."""

    limit: int
    period: float
    used: int = 0
    resets: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.resets:
            self.used, self.resets = 0, now + self.period
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def reset_after(self, now: float) -> float:
        return _ceil_ms(self.resets - now)


@dataclass
class Bucket:
    """One route's window for one major parameter (channel, guild, or webhook id and token)."""

    route: str
    major: str
    window: Window

    @property
    def key(self) -> str:
        """As discord.py keys its own buckets: ``route:major``."""
        return f"{self.route}:{self.major}"

    @property
    def hash(self) -> str:
        """Stable per route and, as Discord's, the same whatever the major parameter."""
        return hashlib.md5(self.route.encode()).hexdigest()[:16]

    def headers(self, now: float) -> dict[str, str]:
        reset_after = self.window.reset_after(now)
        return {
            "X-RateLimit-Limit": str(self.window.limit),
            "X-RateLimit-Remaining": str(max(self.window.limit - self.window.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.hash,
        }


def major_parameter(params: Mapping[str, str]) -> str:
    """What Discord splits a route's bucket by, joined as discord.py joins it."""
    keys = ("app_id", "interaction_id", "token") if "token" in params else ("channel_id", "guild_id")
    return "+".join(params[k] for k in keys if k in params)


def too_many(retry_after: float, headers: dict[str, str], *, is_global: bool = False) -> web.Response:
    """Discord's 429: ``Via`` (without it discord.py assumes a Cloudflare ban) and a JSON ``retry_after``."""
    retry_after = _ceil_ms(retry_after)
    headers = headers | {"Via": "1.1 google", "Retry-After": str(max(1, math.ceil(retry_after)))}
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
    return web.Response(
        body=json.dumps(body).encode(), status=429, headers={"Content-Type": "application/json", **headers}
    )


def is_invalid(response: web.StreamResponse) -> bool:
    """What Discord counts towards the ban: 401, 403, and its own 429s except shared-resource ones."""
    if response.status == 429:
        return "Via" in response.headers and response.headers.get("X-RateLimit-Scope") != "shared"
    return response.status in (401, 403)


class RateLimiter:
    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, float]] = {}
        self.global_window = Window(*GLOBAL_LIMIT)
        self.invalid_limit, self.invalid_window = INVALID_LIMIT
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.exceeded: Counter[str] = Counter()
        self.global_exceeded = 0
        self.invalid: list[float] = []  # when each invalid answer went out, in order
        self.invalid_peak = 0

    def set_route(self, route: str, limit: int, per: float) -> None:
        """New windows for ``route`` from now on (its current ones are forgotten)."""
        self.routes[route] = (limit, per)
        self.buckets = {k: b for k, b in self.buckets.items() if b.route != route}

    def set_global(self, limit: int, per: float) -> None:
        self.global_window = Window(limit, per)

    def bucket(self, route: str, params: Mapping[str, str]) -> Bucket:
        major = major_parameter(params)
        found = self.buckets.get((route, major))
        if found is None:
            tokened = route.split(" ", 1)[1].startswith(TOKEN_PATHS)
            limit, per = self.routes.get(route, TOKEN_ROUTE_LIMIT if tokened else ROUTE_LIMIT)
            found = self.buckets[route, major] = Bucket(route, major, Window(limit, per))
        return found

    def refuse(self, path: str, bucket: Bucket | None) -> web.Response | None:
        """The answer to a request over a limit (ban, global, its bucket), or None to let it through."""
        now = time.monotonic()
        if self.banned(now):
            return web.Response(body=BAN_PAGE.encode(), status=429, headers={"Content-Type": "text/html"})
        if not path.startswith(TOKEN_PATHS) and not self.global_window.take(now):
            self.global_exceeded += 1
            headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
            return too_many(self.global_window.reset_after(now), headers, is_global=True)
        if bucket is None or bucket.window.take(now):
            return None
        self.exceeded[bucket.key] += 1
        return too_many(bucket.window.reset_after(now), bucket.headers(now) | {"X-RateLimit-Scope": "user"})

    def count(self, response: web.StreamResponse) -> None:
        if is_invalid(response):
            now = time.monotonic()
            self.invalid.append(now)
            self.invalid_peak = max(self.invalid_peak, self.invalid_count(self.invalid_window, now))

    def invalid_count(self, window: float, now: float | None = None) -> int:
        """Invalid answers in the last ``window`` seconds."""
        since = (time.monotonic() if now is None else now) - window
        return len(self.invalid) - bisect.bisect_right(self.invalid, since)

    def banned(self, now: float) -> bool:
        return self.invalid_count(self.invalid_window, now) >= self.invalid_limit
