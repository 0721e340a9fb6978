"""/rules: how each game is played, and the order notation, for players on their phones."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import service_of
from service.presenter import Presenter, RulesetCard


def rules_embed(card: RulesetCard) -> discord.Embed:
    players = f"{card.min_players}–{card.max_players}" if card.min_players != card.max_players else card.min_players
    return discord.Embed(title=f"{card.title} ({players} players)", description=card.rules_text[:4096], colour=0x3B82F6)


async def ruleset_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Every game the bot serves whose name or title holds what was typed."""
    return [
        app_commands.Choice(name=card.title, value=card.name)
        for card in service_of(interaction).presenter.cards()
        if current.lower() in f"{card.name} {card.title}".lower()
    ][:25]


class RulesCog(commands.Cog):
    def __init__(self, bot: commands.Bot, presenter: Presenter):
        self.bot, self.presenter = bot, presenter

    @app_commands.command(name="rules", description="How a game is played and how to write orders")
    @app_commands.describe(ruleset="Which game")
    @app_commands.autocomplete(ruleset=ruleset_names)
    async def rules(self, interaction: discord.Interaction, ruleset: str) -> None:
        card = self.presenter.card(ruleset.strip().lower())
        await interaction.response.send_message(embed=rules_embed(card), ephemeral=True)
