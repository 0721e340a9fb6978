"""/admin: the game's creator and server managers (Manage Server) cancel, kick, pause, resume, extend."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import OpenGame, ThinksFirst, actor_of, game_meant
from cogs.lobby import refresh_lobby
from i18n import tr
from service.markup import when
from service.runtime.gameservice import GameService


@app_commands.guild_only()
class AdminCog(
    ThinksFirst, commands.GroupCog, group_name="admin", group_description="Manage a game (creator or Manage Server)"
):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.presenter = bot, service.presenter
        self.lobby, self.timekeeping = service.master.lobby, service.master.timekeeping

    @app_commands.command(name="cancel", description="Cancel a game for everybody")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def cancel(self, interaction: discord.Interaction, game: OpenGame | None = None) -> None:
        target = await game_meant(interaction, game)
        cancelled = await self.lobby.cancel(target.id, actor_of(interaction))
        await interaction.followup.send(tr("Game #{number} is cancelled.", number=target.id), ephemeral=True)
        await refresh_lobby(self.bot, self.presenter, cancelled)

    @app_commands.command(name="kick", description="Remove a player (or a computer seat) from a game")
    @app_commands.describe(
        player="The player to remove",
        seat="Or a seat number (computer players)",
        game="Game number (default: the game of this thread)",
    )
    async def kick(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        seat: app_commands.Range[int, 0, 5] | None = None,
        game: OpenGame | None = None,
    ) -> None:
        target = await game_meant(interaction, game)
        updated = await self.lobby.kick(target.id, actor_of(interaction), player.id if player else None, seat=seat)
        who = player.mention if player else tr("seat {number}", number=seat)
        await interaction.followup.send(
            tr("Removed {who} from game #{number}.", who=who, number=target.id), ephemeral=True
        )
        await refresh_lobby(self.bot, self.presenter, updated)

    @app_commands.command(name="pause", description="Stop the clock of a game")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def pause(self, interaction: discord.Interaction, game: OpenGame | None = None) -> None:
        target = await game_meant(interaction, game)
        await self.timekeeping.pause(target.id, actor_of(interaction))
        await interaction.followup.send(tr("Game #{number} is paused.", number=target.id), ephemeral=True)

    @app_commands.command(name="resume", description="Restart the clock of a paused game")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def resume(self, interaction: discord.Interaction, game: OpenGame | None = None) -> None:
        target = await game_meant(interaction, game)
        resumed = await self.timekeeping.resume(target.id, actor_of(interaction))
        await interaction.followup.send(
            tr("Game #{number} resumed; deadline {when}.", number=target.id, when=when(resumed.row.deadline_at)),
            ephemeral=True,
        )

    @app_commands.command(name="extend", description="Give the current turn more time")
    @app_commands.describe(hours="Hours to add", game="Game number (default: the game of this thread)")
    async def extend(
        self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 720], game: OpenGame | None = None
    ) -> None:
        target = await game_meant(interaction, game)
        extended = await self.timekeeping.extend(target.id, actor_of(interaction), hours * 3600)
        await interaction.followup.send(
            tr("Game #{number}: deadline moved to {when}.", number=target.id, when=when(extended.row.deadline_at)),
            ephemeral=True,
        )
