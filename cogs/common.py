"""What every cog shares: who is asking, which game is meant, and how errors reach the player."""

from __future__ import annotations

import io
import itertools
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol, cast

import discord
from discord import app_commands

from engine import EngineError
from i18n import mark, ntr, tr
from service.errors import GameError
from service.models import Actor, Game
from service.posts import MESSAGE_LIMIT, TO_HOST

if TYPE_CHECKING:
    from service.posts import Upload
    from service.presenter import ReplayPost
    from service.runtime.gameservice import GameService
    from service.runtime.workers import Picture

log = logging.getLogger(__name__)

USER_ERRORS = (GameError, EngineError)
STATUS_WORDS = {
    "lobby": mark("lobby"),
    "running": mark("running"),
    "finished": mark("finished"),
    "cancelled": mark("cancelled"),
}


GameChannel = discord.TextChannel | discord.VoiceChannel | discord.StageChannel | discord.Thread
"""Where a game is played: the server channel its lobby card is posted in, and the card's thread."""


class Cards(Protocol):
    def refresh_later(self, game_id: int) -> None: ...


class Served(Protocol):
    """What the cogs use of the bot beyond discord.py's client: its game service, open while commands,
    buttons and posts run, and its lobby cards (``cogs.client.GameBot``, which the cogs cannot import:
    it imports them)."""

    service: GameService | None
    cards: Cards


def service_of(interaction: discord.Interaction) -> GameService:
    return client_service(interaction.client)


def client_cards(client: discord.Client) -> Cards:
    """The bot's lobby cards, to bring one up to date after its posts (``cogs.lobby.LobbyCards``)."""
    return cast(Served, client).cards


def client_service(client: discord.Client) -> GameService:
    service = cast(Served, client).service  # the cogs are installed in a GameBot only
    if service is None:
        raise RuntimeError("the game service is not open")
    return service


def game_channel(channel: object) -> GameChannel:
    """``channel`` as one a game is played in: no other kind (a category, a forum) takes its posts."""
    if not isinstance(channel, GameChannel):
        raise TypeError(f"a game cannot be played in {channel!r}")
    return channel


async def fetch_game_channel(client: discord.Client, channel_id: int) -> GameChannel:
    """The channel or thread ``channel_id``, from the cache or else from Discord."""
    return game_channel(client.get_channel(channel_id) or await client.fetch_channel(channel_id))


def lacking(
    channel: GameChannel, needed: Iterable[str] = TO_HOST, allowed: discord.Permissions | None = None
) -> list[str]:
    """The ``needed`` permissions (default: all to host games: card, thread, posts, boards) the bot
    lacks in ``channel``, as discord.py names them; none when the client cannot tell. ``allowed``: the
    bot's permissions there as an interaction gives them (fresher than the cache)."""
    if allowed is None:
        if channel.guild.me is None:
            return []
        allowed = channel.permissions_for(channel.guild.me)
    return [name for name in needed if not getattr(allowed, name)]


def actor_of(interaction: discord.Interaction) -> Actor:
    """The user, with Manage Server deciding whether he may administer every game of the server."""
    permissions = interaction.permissions
    return Actor(
        interaction.user.id,
        interaction.user.display_name,
        is_admin=bool(permissions and permissions.manage_guild),
        guild_id=interaction.guild_id,
    )


def plain(name: str) -> str:
    """A user's name as literal text in a message: no markdown, no mentions."""
    return discord.utils.escape_markdown(name).replace("<", "\\<").replace("@", "@\u200b")


ALT_TEXT_LIMIT = 1024  # characters of an attachment's description


def png_file(picture: Picture, filename: str, heading: str = "") -> discord.File:
    """The picture as an attachment, described for a screen reader: ``heading``, then its own words."""
    described = f"{heading}\n{picture.description}" if heading else picture.description
    return discord.File(io.BytesIO(picture.data), filename=filename, description=described[:ALT_TEXT_LIMIT])


def png_files(picture: Picture, filename: str, heading: str = "") -> list[discord.File]:
    """The picture and, for a board too large to read on a phone, its close-up beside it."""
    files = [png_file(picture, filename, heading)]
    if picture.close_up is not None:
        files.append(png_file(picture.close_up, filename.replace(".png", "-close-up.png")))
    return files


def upload_file(upload: ReplayPost | Upload) -> discord.File:
    described = upload.description[:ALT_TEXT_LIMIT]
    return discord.File(io.BytesIO(upload.data), filename=upload.filename, description=described)


class GameTransformer(app_commands.Transformer):
    """The ``game`` option of every command: a game number, offered from the games that matter to the
    user (his own, or with ``open_games`` every open game of the server) and resolved to the game."""

    def __init__(self, *, open_games: bool = False):
        self.open_games = open_games

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    async def transform(self, interaction: discord.Interaction, value: int) -> Game:
        return await game_meant(interaction, value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: int | float | str
    ) -> list[app_commands.Choice[int | float | str]]:
        service = service_of(interaction)
        if self.open_games:
            games = await service.master.lookup.list_games(interaction.guild_id or 0)
        else:
            games = await service.master.lookup.games_of(
                interaction.user.id, guild_id=interaction.guild_id, parse=False
            )
        typed = str(value).strip("#").lower()
        choices: list[app_commands.Choice[int | float | str]] = []
        for game in games:
            label = f"#{game.id} {service.presenter.title(game)} — {tr(STATUS_WORDS[game.row.status])}"
            if typed in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=game.id))
        return choices[:25]


MyGame = app_commands.Transform[Game, GameTransformer]
OpenGame = app_commands.Transform[Game, GameTransformer(open_games=True)]


def named_choices(ids: Iterable[str], title: Callable[[str], str], typed: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices shown by their titles in the reader's language (``title``) with their ids
    as values, matching what was typed in either."""
    typed = typed.strip().lower()
    shown = ((name, title(name)) for name in ids)
    return [
        app_commands.Choice(name=label[:100], value=name)
        for name, label in shown
        if typed in name.lower() or typed in label.lower()
    ][:25]


async def game_meant(interaction: discord.Interaction, game: Game | int | None) -> Game:
    """The game given, else the one of this thread, else the user's only open game in this server."""
    if isinstance(game, Game):
        return game
    return await service_of(interaction).master.lookup.game_meant(
        user_id=interaction.user.id, guild_id=interaction.guild_id, channel_id=interaction.channel_id, game_id=game
    )


async def game_being_typed(interaction: discord.Interaction) -> Game:
    """For autocomplete: the game the command is about, from its ``game`` option if already filled."""
    given = getattr(interaction.namespace, "game", None)
    return await game_meant(interaction, given if isinstance(given, int) else None)


class ThinksFirst:
    """A cog whose commands all touch the database: each is acknowledged at once with a private
    "thinking…" reply, before anything can queue behind other games, and answered by a followup."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type == discord.InteractionType.application_command and not interaction.response.is_done():
            try:
                await interaction.response.defer(ephemeral=True, thinking=True)
            finally:  # a deferral Discord refused as too late counts too: those are the ones to see
                waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
                if (service := cast(Served, interaction.client).service) is not None:
                    service.acknowledgements.seconds.observe(max(waited, 0.0))
        return True


def in_parts(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` in as many messages as it takes, each of whole lines (a single line longer than a
    message is cut)."""
    parts: list[str] = []
    for line in text.split("\n"):
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if parts and len(parts[-1]) + 1 + len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


def fitted(text: str, limit: int = MESSAGE_LIMIT, more: Callable[[int], str] | None = None) -> str:
    """``text`` cut to ``limit`` between lines, not inside one: a long list of problems (or of what
    ``more`` names) shows its first ones whole and says how many more there are (only a single line
    longer than that is cut)."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    ends = list(itertools.accumulate(len(line) + 1 for line in lines))  # where each line's newline falls
    for kept in range(len(lines) - 1, 0, -1):
        rest = len(lines) - kept
        said = more(rest) if more is not None else ntr("…and {n} more problem", "…and {n} more problems", rest)
        if ends[kept - 1] + len(said) <= limit:
            return "\n".join(lines[:kept]) + "\n" + said
    return text[: limit - 1] + "…"


async def send_error(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral error, whether or not the interaction was already acknowledged."""
    text = fitted(f"⚠️ {message}")
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Player mistakes are explained privately; anything else is logged and apologised for."""
    original = getattr(error, "original", None) or error.__cause__ or error  # a transformer's error is its cause
    if isinstance(original, USER_ERRORS):
        await send_error(interaction, str(original))
    elif isinstance(error, app_commands.CheckFailure):
        await send_error(interaction, str(error) or tr("you cannot use this command here"))
    else:
        log.error("command failed", exc_info=original)
        await send_error(interaction, tr("something went wrong on our side; please try again in a moment"))
