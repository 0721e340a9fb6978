"""The lobby message: a game card with Join / Leave / Start buttons.

The buttons' custom ids hold the game number, so they keep working after a restart (``DynamicItem``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from cogs.common import (
    USER_ERRORS,
    GameChannel,
    actor_of,
    client_cards,
    client_service,
    fetch_game_channel,
    lacking,
    send_error,
    service_of,
)
from cogs.embeds import game_embed
from cogs.translator import RepliesInUsersLanguage, server_language
from i18n import mark, tr, using
from service.errors import GameError, GameNotFound
from service.models import CANCELLED, LOBBY, Actor, Game, Mirror
from service.posts import permission_names

if TYPE_CHECKING:
    from service.runtime.gameservice import GameService

log = logging.getLogger(__name__)

LATE_CARD_SECONDS = 5.0  # a card waits at most this long for the outbox to post what it holds
CARD_LANES = 4  # cards edited side by side


SIGN_UP_LABELS = {"join": mark("Join"), "leave": mark("Leave"), "start": mark("Start")}
SIGN_UP_STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
}


def sign_up_button(action: str, custom_id: str) -> discord.ui.Button:
    """Join, Leave or Start on a card players sign up on (a game's lobby, a tournament's)."""
    return discord.ui.Button(label=tr(SIGN_UP_LABELS[action]), style=SIGN_UP_STYLES[action], custom_id=custom_id)


class LobbyButton(
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lobby:(?P<action>join|leave|start):(?P<game>[0-9]+)",
):
    def __init__(self, action: str, game_id: int):
        super().__init__(sign_up_button(action, f"lobby:{action}:{game_id}"))
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["action"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        lobby, actor = service.master.lobby, actor_of(interaction)
        if self.action == "start":  # a start waits for the computer players' first orders
            await interaction.response.defer()
        try:
            if self.action == "join":
                game = await lobby.join(self.game_id, actor)
            elif self.action == "leave":
                game = await lobby.leave(self.game_id, actor)
            else:
                game = await lobby.start_game(self.game_id, actor)
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        with using(await server_language(interaction.client, interaction.guild_id)):  # everyone here sees the card
            embed, view = game_embed(game, service.presenter), await card_view(service, game)
            if interaction.response.is_done():
                await interaction.edit_original_response(embed=embed, view=view)
            else:
                await interaction.response.edit_message(embed=embed, view=view)
        if await service.master.games.mirrors(game.id):  # its cards in the other servers follow
            client_cards(interaction.client).refresh_later(game.id)


async def post_lobby(
    channel: GameChannel,
    game: Game,
    service: GameService,
    actor: Actor,
    allowed: discord.Permissions | None = None,
    mirror: Mirror | None = None,
) -> tuple[Game, discord.Thread]:
    """A new game's lobby card with its buttons in ``channel``, and the game's thread under it (or its
    ``mirror``'s, in another server, in that server's language). If the bot lacks a permission the
    game needs there, or Discord refuses either, the game is cancelled (nothing half-made is left: a
    card already posted goes too) and the player told why. ``allowed``: the bot's permissions in
    ``channel`` as the interaction asking for the game gives them."""
    if missing := ",".join(lacking(channel, allowed=allowed)):
        await service.master.lobby.cancel(game.id, actor)
        raise GameError(
            tr(
                "I cannot host a game in this channel: I lack {missing} here. A server manager can give the "
                "bot's role those permissions in this channel, or you can open the game in another one.",
                missing=permission_names(missing),
            )
        )
    message: discord.Message | None = None
    try:
        with using(await service.languages.of(mirror.guild_id if mirror else game.row.guild_id)):  # public
            # discord.py's send takes view=None (its default), though its overloads leave None out.
            view = await card_view(service, game)
            message = await channel.send(embed=game_embed(game, service.presenter), view=view)  # type: ignore[arg-type]
            thread = await message.create_thread(name=service.presenter.title(game), auto_archive_duration=10080)
    except discord.HTTPException as err:  # no permission, or a channel without threads
        await service.master.lobby.cancel(game.id, actor)
        if message is not None:  # its buttons would answer for a game that is gone
            await _remove(message)
        raise GameError(
            tr(
                "I could not open the game's lobby and thread here (I need Send Messages and Create Public "
                "Threads in a text channel): {error}",
                error=err.text or err,
            )
        ) from None
    if mirror is not None:
        await service.master.lobby.attach_mirror(
            game.id, mirror.guild_id, thread_id=thread.id, lobby_message_id=message.id
        )
        return game, thread
    game = await service.master.lobby.attach_thread(game.id, thread_id=thread.id, lobby_message_id=message.id)
    return game, thread


def shows_games(client: discord.Client, service: GameService) -> Callable[[Game], Awaitable[Game]]:
    """How a game the bot opens for its players (a tournament's table, a matched queue) is shown: its
    lobby card and thread in its channel, as any game, posted on behalf of its creator, and the same
    in each server it is mirrored in. What a stop left shown is not shown again."""

    async def show(game: Game) -> Game:
        creator = Actor(game.row.creator_id, "")
        if game.row.thread_id is None:
            game, _ = await post_lobby(await fetch_game_channel(client, game.row.channel_id), game, service, creator)
        for mirror in await service.master.games.mirrors(game.id):
            if mirror.thread_id is None:
                channel = await fetch_game_channel(client, mirror.channel_id)
                await post_lobby(channel, game, service, creator, mirror=mirror)
        return game

    return show


async def seen_in(service: GameService, game: Game, guild_id: int | None) -> tuple[int | None, int]:
    """The game's thread (None until it is made) and channel as this server has them: its own, or
    those of its mirror there (a game of players matched across servers)."""
    if guild_id != game.row.guild_id:
        for mirror in await service.master.games.mirrors(game.id):
            if mirror.guild_id == guild_id:
                return mirror.thread_id, mirror.channel_id
    return game.row.thread_id, game.row.channel_id


async def _remove(message: discord.Message) -> None:
    """Delete a card whose game was cancelled before it opened (a card that cannot be deleted is only logged)."""
    try:
        await message.delete()
    except discord.HTTPException as err:
        log.info("lobby card %s of a cancelled game not deleted: %s", message.id, err)


def web_button(url: str) -> discord.ui.Button:
    """The link to the game's page on the web site (PUBLIC_URL), in the server's language."""
    return discord.ui.Button(style=discord.ButtonStyle.link, label=tr("View on the web"), url=url, emoji="🌐")


async def card_view(service: GameService, game: Game) -> discord.ui.View | None:
    """The card's buttons: Join, Leave and Start in the lobby, and the game's page where the site has it."""
    if game.row.status == CANCELLED:
        return None
    url = await service.website.game_url(game.row.guild_id, game.id)
    if game.row.status != LOBBY and url is None:
        return None
    view = discord.ui.View(timeout=None)
    if game.row.status == LOBBY:
        for action in ("join", "leave", "start"):
            view.add_item(LobbyButton(action, game.id))
    if url is not None:
        view.add_item(web_button(url))
    return view


async def refresh_lobby(client: discord.Client, game: Game) -> None:
    """Bring the lobby message up to date after a change made by a command instead of a button (and
    its copy in each server the game is mirrored in). The change itself is done; a lobby card that was
    deleted or cannot be edited is only logged."""
    service = client_service(client)
    cards = [(game.row.guild_id, game.row.channel_id, game.row.lobby_message_id)] + [
        (m.guild_id, m.channel_id, m.lobby_message_id) for m in await service.master.games.mirrors(game.id)
    ]
    for guild_id, channel_id, message_id in cards:
        if not message_id:
            continue
        try:
            message = (await fetch_game_channel(client, channel_id)).get_partial_message(message_id)
            with using(await server_language(client, guild_id)):
                await message.edit(embed=game_embed(game, service.presenter), view=await card_view(service, game))
        except (discord.HTTPException, aiohttp.ClientError) as err:  # the latter: a connection cut, as by a stop
            log.info("lobby card of game #%s not updated in server %s: %r", game.id, guild_id, err)


class LobbyCards:
    """Lobby cards brought up to date after a game's posts, once the outbox has posted everything it
    holds (or after LATE_CARD_SECONDS at most): players wait for the round posts in their threads,
    the card in the channel can follow a moment later. Changes close together make one edit."""

    def __init__(self, client: discord.Client):
        self.client = client
        self._due: dict[int, None] = {}  # game ids, in the order they asked
        self._task: asyncio.Task | None = None
        self._closed = False

    def refresh_later(self, game_id: int) -> None:
        if self._closed:  # the bot is stopping: its database closes next, a card waits for the next change
            return
        self._due[game_id] = None
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._refresh_when_posted())

    async def _refresh_when_posted(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client_service(self.client).outbox.idle(), LATE_CARD_SECONDS)
        await self.refresh_now()

    async def refresh_now(self) -> None:
        """Edit every card waiting for it, a few at a time."""
        lanes = asyncio.Semaphore(CARD_LANES)

        async def refresh(game_id: int) -> None:
            async with lanes:
                service = client_service(self.client)
                try:
                    await refresh_lobby(self.client, await service.master.games.get_game(game_id))
                except GameNotFound:
                    pass
                except Exception:  # one card must not keep the others stale
                    log.exception("lobby card of game #%s not updated", game_id)

        while self._due:
            due = list(self._due)
            self._due.clear()
            await asyncio.gather(*(refresh(game_id) for game_id in due))

    async def close(self) -> None:
        """The cards still waiting are edited now (for a few seconds at most), before the bot stops;
        those asked for later (by the last deadlines finishing) wait for their game's next change."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.refresh_now(), LATE_CARD_SECONDS)
