"""/rules: how each game is played, and the order notation, for players on their phones; /tutorial:
a game taught page by page from real positions, with Back / Next buttons."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import USER_ERRORS, png_file, send_error, service_of
from cogs.translator import RepliesInUsersLanguage
from i18n import tr
from service.presenter import Presenter, RulesetCard, TutorialView


def rules_embed(card: RulesetCard) -> discord.Embed:
    players = f"{card.min_players}–{card.max_players}" if card.min_players != card.max_players else card.min_players
    title = tr("{game} ({players} players)", game=card.title, players=players)
    embed = discord.Embed(title=title, description=card.rules_text[:4096], colour=0x3B82F6)
    embed.add_field(name=tr("Away"), value=away_rules(), inline=False)
    embed.add_field(name=tr("Seats taken over"), value=replacement_rules(), inline=False)
    if card.map_example is not None:
        embed.add_field(
            name=tr("Your own maps"), value=map_rules(card.name, card.map_example, card.map_grid), inline=False
        )
    return embed


def map_rules(ruleset: str, example: str, grid: str | None) -> str:
    """What /map upload takes for the game: a JSON file like ``example``, or a text file like ``grid``."""
    intro = tr(
        "`/map upload game:{game} file:` makes a map this server's: a JSON file like this one (the README "
        "gives the whole format). `/game create {game} map:` then offers it.",
        game=ruleset,
    )
    text = f"{intro}\n```json\n{example}\n```"
    if grid is not None:
        text += "\n" + tr("Or a text file drawing the board, a line a row:") + f"\n{grid}"
    return text[:1024]


def replacement_rules() -> str:
    """What a game's ``replacements`` does with a seat its player leaves, and how that is rated."""
    return tr(
        "With `replacements` on, a seat whose player leaves (surrender, missed turns, time, a kick) or "
        "misses the first turn is not left empty: a computer at the game's strongest level plays on in it, "
        "and with `open` a member not in the game may take it over (the creator approves; `open-auto`: "
        "first come). Ratings: who left is rated last, as if he had surrendered then; who took the seat "
        "over, computer or member, is not rated for it."
    )


def away_rules() -> str:
    """What every game does for a player away (``/away``), and how such a game is rated."""
    return tr(
        "Going away? `/away until:3d` has a computer give your orders, as secret as your own, until then "
        "(each game allows up to its `away_days`, 14 days by default); nothing counts as missed, and you "
        "are back when the time ends, when you give an order, or with `/away until:off`. The seat stays "
        "yours: a game with stand-in turns is rated like any other, its result yours."
    )


def _choices(cards: list[RulesetCard], current: str) -> list[app_commands.Choice[str]]:
    """The games among ``cards`` whose name or title holds what was typed."""
    typed = current.lower()
    return [
        app_commands.Choice(name=card.title, value=card.name)
        for card in cards
        if typed in f"{card.name} {card.title}".lower()
    ][:25]


async def ruleset_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Every game the bot serves, matching what was typed."""
    return _choices(service_of(interaction).presenter.cards(), current)


async def tutorial_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The games that have a tutorial, matching what was typed."""
    return _choices(service_of(interaction).presenter.tutorials(), current)


class TutorialButton(
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tutorial:(?P<ruleset>[a-z0-9_]+):(?P<page>\d+)",
):
    """Back / Next under a tutorial page: the page it leads to is in its id, so it works after a restart."""

    def __init__(self, ruleset: str, page: int, label: str, *, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"tutorial:{ruleset}:{page}",
                disabled=disabled,
            )
        )
        self.ruleset, self.page = ruleset, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TutorialButton:
        label = item.label if isinstance(item, discord.ui.Button) else None  # discord.py hands it the button
        return cls(match["ruleset"], int(match["page"]), label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        try:
            page = await service_of(interaction).presenter.tutorial_page(self.ruleset, self.page)
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        await interaction.edit_original_response(**tutorial_message(page))


def tutorial_message(page: TutorialView) -> dict:
    """A tutorial page as a message: its text, its position, and the way to the pages around it."""
    view = discord.ui.View(timeout=None)
    view.add_item(TutorialButton(page.ruleset, max(page.index - 1, 0), tr("◀ Back"), disabled=page.index == 0))
    view.add_item(TutorialButton(page.ruleset, page.index + 1, tr("Next ▶"), disabled=page.index + 1 == page.count))
    heading = tr("**Page {page} of {pages}**", page=page.index + 1, pages=page.count)
    return {
        "content": f"{heading}\n{page.text}"[:2000],
        "attachments": [png_file(page.image, f"tutorial-{page.ruleset}-{page.index + 1}.png", page.text)],
        "view": view,
    }


class RulesCog(commands.Cog):
    def __init__(self, bot: discord.Client, presenter: Presenter):
        self.bot, self.presenter = bot, presenter

    @app_commands.command(name="rules", description="How a game is played and how to write orders")
    @app_commands.describe(ruleset="Which game")
    @app_commands.autocomplete(ruleset=ruleset_names)
    async def rules(self, interaction: discord.Interaction, ruleset: str) -> None:
        card = self.presenter.card(ruleset.strip().lower())
        await interaction.response.send_message(embed=rules_embed(card), ephemeral=True)

    @app_commands.command(name="tutorial", description="Learn a game page by page, from real positions")
    @app_commands.describe(ruleset="Which game")
    @app_commands.autocomplete(ruleset=tutorial_names)
    async def tutorial(self, interaction: discord.Interaction, ruleset: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        page = await self.presenter.tutorial_page(ruleset.strip().lower(), 0)
        message = tutorial_message(page)
        await interaction.followup.send(
            message["content"], file=message["attachments"][0], view=message["view"], ephemeral=True
        )
