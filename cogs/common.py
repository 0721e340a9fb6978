"""What every cog shares: who is asking, which game is meant, and how errors reach the player."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from engine import EngineError
from service import GameMaster
from service.errors import GameError
from service.models import Actor, Game

log = logging.getLogger(__name__)

USER_ERRORS = (GameError, EngineError)
COLOUR_EMOJI = ("🟥", "🟦", "🟩", "🟧", "🟪", "🟫")


def actor_of(interaction: discord.Interaction) -> Actor:
    """The user, with Manage Server deciding whether he may administer every game of the server."""
    permissions = interaction.permissions
    return Actor(
        interaction.user.id, interaction.user.display_name, is_admin=bool(permissions and permissions.manage_guild)
    )


def when(timestamp: float | None) -> str:
    """A deadline as Discord renders it for each reader: absolute and relative, in his own time zone."""
    if timestamp is None:
        return "no deadline"
    return f"<t:{int(timestamp)}:f> (<t:{int(timestamp)}:R>)"


def game_title(game: Game, master: GameMaster) -> str:
    return f"{master.rulesets[game.row.ruleset].title} #{game.id}"


async def find_game(master: GameMaster, interaction: discord.Interaction, game_id: int | None) -> Game:
    """The game meant: the one given, else the one of this thread, else the user's only open game here."""
    if game_id is not None:
        game = await master.get_game(game_id)
        if game.row.guild_id != interaction.guild_id:
            raise GameError(f"game #{game_id} is not in this server")
        return game
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        game = await master.game_in_thread(channel.id)
        if game is not None:
            return game
    mine = await master.games_of(interaction.user.id, guild_id=interaction.guild_id)
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise GameError("you have no open game here; give the game number, or use /game list")
    listed = ", ".join(f"#{g.id} ({g.row.ruleset})" for g in mine)
    raise GameError(f"you are in several games ({listed}); say which with the game option")


async def game_choices(
    master: GameMaster, interaction: discord.Interaction, current: str, *, mine_only: bool = True
) -> list[app_commands.Choice[int]]:
    """Autocomplete for a game option: the user's open games here (or all open games here)."""
    if mine_only:
        games = await master.games_of(interaction.user.id, guild_id=interaction.guild_id)
    else:
        games = await master.list_games(interaction.guild_id or 0)
    choices = []
    for game in games:
        label = f"#{game.id} {game_title(game, master)} — {game.row.status}"
        if current.strip("#").lower() in label.lower():
            choices.append(app_commands.Choice(name=label[:100], value=game.id))
    return choices[:25]


async def send_error(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral error, whether or not the interaction was already acknowledged."""
    text = f"⚠️ {message}"[:2000]
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Player mistakes are explained privately; anything else is logged and apologised for."""
    original = getattr(error, "original", error)
    if isinstance(original, USER_ERRORS):
        await send_error(interaction, str(original))
    elif isinstance(error, app_commands.CheckFailure):
        await send_error(interaction, str(error) or "you cannot use this command here")
    else:
        log.error("command failed", exc_info=original)
        await send_error(interaction, "something went wrong on our side; please try again in a moment")
