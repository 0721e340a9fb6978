"""Posting an announcement again after Discord has forgotten its nonce.

Discord drops a repeated post by its nonce only for a few minutes, and does not keep the nonce with
the message. A delivery retried later than that (after a long outage, or a crash between posting
and recording the post) first reads the channel's messages since its first attempt, and posts
only if none of them is the bot's own with the same text.
"""

from __future__ import annotations

import datetime as dt
import logging

import discord

from service.models import Announcement

log = logging.getLogger(__name__)

NONCE_WINDOW_SECONDS = 240.0  # Discord keeps a nonce "a few minutes": stop relying on it a little early
SLACK_SECONDS = 60.0  # clocks differ, and the first attempt may have been slow
MESSAGES_READ = 100


async def posted_before(
    client: discord.Client, channel: discord.abc.Messageable, a: Announcement, now: float, text: str
) -> bool:
    """Whether the bot already posted ``text`` into ``channel`` for ``a``, as far as the nonce cannot tell.

    ``now`` is on the clock of ``a.tried_at``: only the age of the attempt is used, measured back from
    Discord's present."""
    if a.tried_at is None or now - a.tried_at < NONCE_WINDOW_SECONDS:
        return False
    since = discord.utils.utcnow() - dt.timedelta(seconds=now - a.tried_at + SLACK_SECONDS)
    try:
        async for message in channel.history(limit=MESSAGES_READ, after=since):
            if client.user is not None and message.author.id == client.user.id and message.content == text:
                return True
    except discord.Forbidden:
        log.warning("cannot read the history of channel %s; announcement %s may be posted twice", channel, a.id)
    return False
