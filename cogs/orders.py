"""/orders: program secret orders, review them with a private board, clear them, pass.

Every reply here is ephemeral: nobody but the author sees programmed orders before the turn
resolves.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import MyGame, actor_of, game_meant, png_file, service_of, when
from service import MyOrders
from service.models import RUNNING, Game
from service.runtime import GameService


def _listing(mine: MyOrders, turn: str, room: int = 1700) -> str:
    """The player's orders in ``turn`` ("Round 3"), one per line, shortened to fit a Discord message."""
    shown, used = [], 0
    for line in mine.lines:
        if used + len(line) + 3 > room:
            shown.append(f"… and {len(mine.lines) - len(shown)} more (all are kept)")
            break
        shown.append(f"`{line}`")
        used += len(line) + 3
    lines = "\n".join(shown) or "no orders (standing orders still run)"
    state = "✅ passed — final for this turn" if mine.passed else "not passed yet: use `/orders pass` when ready"
    return f"Game #{mine.game_id}, {turn.lower()} — your orders:\n{lines}\n{state}"


def _after_pass(before: Game, after: Game) -> str:
    if after.row.turn != before.row.turn or after.row.status != RUNNING:
        return f"Done. Turn {before.row.turn + 1} of game #{before.id} is resolved — see the thread."
    waiting = len(after.waiting_seats)
    return (
        f"You passed. Waiting for {waiting} more player{'s' if waiting != 1 else ''}; "
        f"deadline {when(after.row.deadline_at)}."
    )


async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Legal orders for the player's current position, completing what he typed so far."""
    try:
        given = getattr(interaction.namespace, "game", None)
        target = await game_meant(interaction, given if isinstance(given, int) else None)
        player = target.player_of(interaction.user.id)
        if player is None or player.seat is None:
            return []
        lines = service_of(interaction).presenter.suggestions(target, player.seat, current)
    except Exception:  # autocomplete must answer quickly whatever happens; errors show on submit
        return []
    return [app_commands.Choice(name=line[-100:], value=line[:1000]) for line in lines[:25]]


@app_commands.guild_only()
class OrdersCog(commands.GroupCog, group_name="orders", group_description="Your secret orders for the current turn"):
    def __init__(self, bot: commands.Bot, service: GameService):
        self.bot, self.master, self.presenter = bot, service.master, service.presenter

    @app_commands.command(name="give", description="Add orders, e.g. C4>C5 3; auto D2>D3 (only you see them)")
    @app_commands.describe(
        text="Orders separated by ; — pick from the suggestions or type them",
        game="Game number (default: the game of this thread)",
    )
    @app_commands.autocomplete(text=suggest)
    async def give(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: MyGame | None = None
    ) -> None:
        target = await game_meant(interaction, game)
        mine = await self.master.add_orders(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await interaction.response.send_message(_listing(mine, self.presenter.turn_label(target)), ephemeral=True)

    @app_commands.command(name="replace", description="Replace all your orders of this turn")
    @app_commands.describe(text="The complete set of orders", game="Game number (default: this thread's game)")
    @app_commands.autocomplete(text=suggest)
    async def replace(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: MyGame | None = None
    ) -> None:
        target = await game_meant(interaction, game)
        mine = await self.master.replace_orders(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await interaction.response.send_message(_listing(mine, self.presenter.turn_label(target)), ephemeral=True)

    @app_commands.command(name="show", description="Review your orders on a private board")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def show(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        mine = await self.master.my_orders(target.id, actor_of(interaction))
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.presenter.board(target, viewer=mine.seat, orders_text="; ".join(mine.lines))
        name = f"game-{target.id}-orders.png" if mine.lines else f"game-{target.id}-board.png"
        await interaction.followup.send(
            _listing(mine, self.presenter.turn_label(target)), file=png_file(data, name), ephemeral=True
        )

    @app_commands.command(name="clear", description="Delete all your orders of this turn")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def clear(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        mine = await self.master.clear_orders(target.id, actor_of(interaction), expected_turn=target.row.turn)
        await interaction.response.send_message(_listing(mine, self.presenter.turn_label(target)), ephemeral=True)

    @app_commands.command(name="pass", description="Make your orders final; the turn resolves when all have passed")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def pass_(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        updated = await self.master.submit(target.id, actor_of(interaction), expected_turn=target.row.turn)
        await interaction.followup.send(_after_pass(target, updated), ephemeral=True)

    @app_commands.command(name="send", description="Give these orders and pass at once (your move, in turn games)")
    @app_commands.describe(
        text="Your orders, e.g. C4>C5 3 or build D4", game="Game number (default: this thread's game)"
    )
    @app_commands.autocomplete(text=suggest)
    async def send(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: MyGame | None = None
    ) -> None:
        target = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        updated = await self.master.submit(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await interaction.followup.send(_after_pass(target, updated), ephemeral=True)
