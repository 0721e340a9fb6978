"""/config language: the language of what everyone in the server reads (round posts, announcements,
boards, the lobby card); server managers (Manage Server) choose it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ThinksFirst, actor_of
from i18n import LANGUAGES, language_name, set_language, tr
from service.runtime.gameservice import GameService


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ConfigCog(
    ThinksFirst, commands.GroupCog, group_name="config", group_description="Server settings (Manage Server)"
):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.languages = bot, service.languages

    @app_commands.command(name="language", description="The language of game posts and boards in this server")
    @app_commands.describe(language="The new language (leave out to see the current one)")
    @app_commands.choices(language=[app_commands.Choice(name=language_name(code), value=code) for code in LANGUAGES])
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        if language is None:
            current = await self.languages.of(interaction.guild_id)
            text = tr("This server's games are posted in {language}.", language=language_name(current))
        else:
            chosen = await self.languages.set(interaction.guild_id, language, actor_of(interaction))
            set_language(chosen)
            text = tr(
                "From now on this server's game posts, announcements and boards are in {language}. "
                "Replies only a player sees are in his own Discord language when the bot speaks it.",
                language=language_name(chosen),
            )
        await interaction.followup.send(text, ephemeral=True)
