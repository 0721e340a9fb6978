"""Sends the posts of the game master's announcements into each game's thread (and reminders by DM);
what they say is ``service.posts``'s.

Every post carries the announcement id as its nonce with ``enforce_nonce``: when a delivery is
retried after a crash or a timeout, Discord returns the first message instead of posting twice.
Past Discord's nonce window, a retry looks for its earlier post instead (``cogs.redelivery``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs.buttons import rematch_view
from cogs.common import GameChannel, client_service, fetch_game_channel, plain, upload_file
from cogs.lobby import LobbyCards
from cogs.redelivery import posted_before
from cogs.translator import server_language
from i18n import using
from service.announcements import Reminder
from service.errors import GameNotFound
from service.models import Announcement, Game
from service.posts import DirectMessage, Post
from service.runtime.outbox import Undeliverable

if TYPE_CHECKING:
    from service.runtime.gameservice import GameService

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class DiscordAnnouncer:
    def __init__(self, client: discord.Client, cards: LobbyCards):
        self.client, self.cards = client, cards

    @property
    def service(self) -> GameService:
        return client_service(self.client)

    async def deliver(self, announcement: Announcement) -> None:
        """Post it; a deleted thread or a channel the bot may no longer write to will never work: give up."""
        try:
            game = await self.service.master.games.get_game(announcement.game_id)
            channel = await fetch_game_channel(self.client, game.row.thread_id or game.row.channel_id)
            with using(await server_language(self.client, game.row.guild_id)):
                posts = await self.service.posts.posts(
                    announcement, game, shown=plain, upload_limit=channel.guild.filesize_limit
                )
                for post in posts:
                    if post.dm is None:
                        await self._post(channel, announcement, game, post)
                    else:
                        await self._direct(channel, announcement, game, post, post.dm)
        except (discord.NotFound, discord.Forbidden, GameNotFound) as err:
            raise Undeliverable(str(err)) from err
        if announcement.kind != Reminder.kind:  # the card shows the game as it is now, once the posts are out
            self.cards.refresh_later(game.id)

    async def _post(self, channel: GameChannel, a: Announcement, game: Game, post: Post, nonce: str = "") -> None:
        """Post it once (``nonce``: the announcement's own, unless one announcement posts several);
        only the users it pings are notified (players mentioned elsewhere are not)."""
        if await posted_before(self.client, channel, a, self.service.clock.now(), post.text):
            return
        kwargs: dict[str, Any] = {"files": [upload_file(upload) for upload in post.uploads]} if post.uploads else {}
        if post.rematch:
            kwargs["view"] = rematch_view(game)
        pings = discord.AllowedMentions(users=[discord.Object(u) for u in post.pings]) if post.pings else NO_PINGS
        await channel.send(post.text, nonce=nonce or f"a{a.id}", allowed_mentions=pings, **kwargs)

    async def _direct(self, channel: GameChannel, a: Announcement, game: Game, post: Post, to: DirectMessage) -> None:
        """Send it once to the user; if his DMs are closed, say so in the game's thread, once."""
        dm = await self.client.create_dm(discord.Object(to.user_id))
        if await posted_before(self.client, dm, a, self.service.clock.now(), post.text):
            return
        settings = self.service.master.settings
        try:
            await dm.send(post.text, nonce=f"a{a.id}u{to.index}")
        except discord.Forbidden:
            log.info("user %s does not accept DMs; reminder refused", to.user_id)
            if await settings.dm_refused(to.user_id):
                await self._post(
                    channel, a, game, self.service.posts.dm_refused(to.user_id, post), f"a{a.id}u{to.index}t"
                )
        else:
            await settings.dm_delivered(to.user_id)
