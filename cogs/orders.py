"""/orders: program secret orders, review them with a private board, clear them, pass.

Every reply here is ephemeral: nobody but the author sees programmed orders before the turn
resolves.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from cogs.board import board_file
from cogs.common import actor_of, find_game, game_choices, when
from service import GameMaster, MyOrders
from service.models import RUNNING, Game


def _listing(mine: MyOrders, room: int = 1700) -> str:
    """The player's orders, one per line, shortened to fit a Discord message."""
    shown, used = [], 0
    for line in mine.lines:
        if used + len(line) + 3 > room:
            shown.append(f"… and {len(mine.lines) - len(shown)} more (all are kept)")
            break
        shown.append(f"`{line}`")
        used += len(line) + 3
    lines = "\n".join(shown) or "no orders (standing orders still run)"
    state = "✅ passed — final for this round" if mine.passed else "not passed yet: use `/orders pass` when ready"
    return f"Game #{mine.game_id}, round {mine.turn} — your orders:\n{lines}\n{state}"


def _after_pass(before: Game, after: Game) -> str:
    if after.row.turn != before.row.turn or after.row.status != RUNNING:
        return f"Done. Turn {before.row.turn + 1} of game #{before.id} is resolved — see the thread."
    waiting = len(after.waiting_seats)
    return (
        f"You passed. Waiting for {waiting} more player{'s' if waiting != 1 else ''}; "
        f"deadline {when(after.row.deadline_at)}."
    )


async def suggest(master: GameMaster, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Legal orders for the player's current position, completing what he typed so far."""
    try:
        target = await find_game(master, interaction, getattr(interaction.namespace, "game", None))
        player = target.player_of(interaction.user.id)
        if target.row.status != RUNNING or player is None or player.seat is None or target.damage:
            return []
        rs = master.ruleset(target.row)
        lines = rs.suggest_orders(rs.from_dict(target.row.state), player.seat, current)
    except Exception:  # autocomplete must answer quickly whatever happens; errors show on submit
        return []
    return [app_commands.Choice(name=line[-100:], value=line[:1000]) for line in lines[:25]]


@app_commands.guild_only()
class OrdersCog(commands.GroupCog, group_name="orders", group_description="Your secret orders for the current round"):
    def __init__(self, bot: commands.Bot, master: GameMaster):
        self.bot, self.master = bot, master

    @app_commands.command(name="give", description="Add orders, e.g. C4>C5 3; auto D2>D3 (only you see them)")
    @app_commands.describe(
        text="Orders separated by ; — pick from the suggestions or type them",
        game="Game number (default: the game of this thread)",
    )
    async def give(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: int | None = None
    ) -> None:
        target = await find_game(self.master, interaction, game)
        mine = await self.master.add_orders(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await interaction.response.send_message(_listing(mine), ephemeral=True)

    @app_commands.command(name="replace", description="Replace all your orders of this round")
    @app_commands.describe(text="The complete set of orders", game="Game number (default: this thread's game)")
    async def replace(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: int | None = None
    ) -> None:
        target = await find_game(self.master, interaction, game)
        mine = await self.master.replace_orders(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await interaction.response.send_message(_listing(mine), ephemeral=True)

    @app_commands.command(name="show", description="Review your orders on a private board")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def show(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        mine = await self.master.my_orders(target.id, actor_of(interaction))
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await asyncio.to_thread(
            board_file, self.master, target, target.row.state, viewer=mine.seat, orders_text="; ".join(mine.lines)
        )
        await interaction.followup.send(_listing(mine), file=file, ephemeral=True)

    @app_commands.command(name="clear", description="Delete all your orders of this round")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def clear(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        mine = await self.master.clear_orders(target.id, actor_of(interaction), expected_turn=target.row.turn)
        await interaction.response.send_message(_listing(mine), ephemeral=True)

    @app_commands.command(name="pass", description="Make your orders final; the round resolves when all have passed")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def pass_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        updated = await self.master.submit(target.id, actor_of(interaction), expected_turn=target.row.turn)
        await interaction.response.send_message(_after_pass(target, updated), ephemeral=True)

    @app_commands.command(name="send", description="Give these orders and pass at once (your move, in turn games)")
    @app_commands.describe(
        text="Your orders, e.g. C4>C5 3 or build D4", game="Game number (default: this thread's game)"
    )
    async def send(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: int | None = None
    ) -> None:
        target = await find_game(self.master, interaction, game)
        updated = await self.master.submit(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await interaction.response.send_message(_after_pass(target, updated), ephemeral=True)

    @give.autocomplete("text")
    @replace.autocomplete("text")
    @send.autocomplete("text")
    async def _suggest(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.master, interaction, current)

    @give.autocomplete("game")
    @send.autocomplete("game")
    @replace.autocomplete("game")
    @show.autocomplete("game")
    @clear.autocomplete("game")
    @pass_.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await game_choices(self.master, interaction, current)
