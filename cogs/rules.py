"""/rules: how each game is played, and the order notation, for players on their phones."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import RULESETS


class RulesCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played and how to write orders")
    @app_commands.describe(ruleset="Which game")
    @app_commands.choices(
        ruleset=[app_commands.Choice(name=rs.title, value=name) for name, rs in sorted(RULESETS.items())]
    )
    async def rules(self, interaction: discord.Interaction, ruleset: str) -> None:
        rs = RULESETS[ruleset]
        embed = discord.Embed(
            title=f"{rs.title} ({rs.min_players}–{rs.max_players} players)",
            description=rs.rules_text[:4096],
            colour=0x3B82F6,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)
