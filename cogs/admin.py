"""/admin: the game's creator and server managers (Manage Server) cancel, kick, pause, resume, extend."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.buttons import kick, kick_view
from cogs.common import OpenGame, ThinksFirst, actor_of, client_service, game_being_typed, game_meant
from cogs.lobby import refresh_lobby
from i18n import tr
from service.markup import player_name, when
from service.runtime.gameservice import GameService


async def players_of_game(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The game's players and computers, as its card lists them."""
    try:
        game = await game_being_typed(interaction)
    except Exception:  # autocomplete must answer quickly whatever happens; errors show on submit
        return []
    typed = current.casefold()
    return [
        app_commands.Choice(name=label[:100], value=str(player_id))
        for label, player_id in client_service(interaction.client).presenter.player_choices(game)
        if typed in label.casefold()
    ][:25]


@app_commands.guild_only()
class AdminCog(
    ThinksFirst, commands.GroupCog, group_name="admin", group_description="Manage a game (creator or Manage Server)"
):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.presenter = bot, service.presenter
        self.games, self.lobby, self.timekeeping = (
            service.master.games,
            service.master.lobby,
            service.master.timekeeping,
        )

    @app_commands.command(name="cancel", description="Cancel a game for everybody")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def cancel(self, interaction: discord.Interaction, game: OpenGame | None = None) -> None:
        target = await game_meant(interaction, game)
        cancelled = await self.lobby.cancel(target.id, actor_of(interaction))
        await interaction.followup.send(tr("Game #{number} is cancelled.", number=target.id), ephemeral=True)
        await refresh_lobby(self.bot, cancelled)

    @app_commands.command(name="kick", description="Remove a player or a computer from a game")
    @app_commands.describe(
        player="Who to remove, as the game's card names him", game="Game number (default: the game of this thread)"
    )
    @app_commands.autocomplete(player=players_of_game)
    async def kick(self, interaction: discord.Interaction, player: str, game: OpenGame | None = None) -> None:
        target = await game_meant(interaction, game)
        self.games.require_manager(target, actor_of(interaction))
        chosen = self.presenter.player_named(target, player)
        if chosen.is_ai:
            await kick(interaction, target.id, chosen.id)
            return
        await interaction.followup.send(
            tr(
                "Remove {player} from {game}?",
                player=player_name(target, chosen),
                game=self.presenter.title(target),
            ),
            view=kick_view(target, chosen.id, interaction.user.id),
            ephemeral=True,
        )

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
