"""/orders: program secret orders, review them with a private board, clear them, pass.

Every reply here is ephemeral: nobody but the author sees programmed orders before the turn
resolves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.buttons import after_pass, pass_view
from cogs.common import MyGame, ThinksFirst, actor_of, game_being_typed, game_meant, png_files, service_of
from cogs.lobby import refresh_lobby
from i18n import ntr, tr
from service import MyOrders
from service.markup import when
from service.models import Game, computer_title
from service.runtime.gameservice import GameService
from service.runtime.workers import Focus


def _listing(mine: MyOrders, game: Game, turn: str, room: int = 1600) -> str:
    """The player's orders in ``turn`` ("Round 3"), one per line, shortened to fit a Discord message,
    and plainly what happens to them if he does not pass."""
    lines = "\n".join(_shown(mine.lines, room)) or tr("no orders (standing orders still run)")
    again = (
        tr("Already given, kept once: {orders}", orders="; ".join(_shown(mine.already, 400))) + "\n"
        if mine.already
        else ""
    )
    heading = tr("Game #{number}, {turn} — your orders:", number=mine.game_id, turn=turn[:1].lower() + turn[1:])
    if mine.stand_in:
        computer = computer_title(mine.stand_in)
        heading += "\n" + (
            tr("(given for you by {computer})", computer=computer)
            if mine.passed
            else tr("(given for you by {computer}: change them or pass)", computer=computer)
        )
    warned = "".join(
        "\n" + tr("⚠️ **Careful: {warning}.** They are not played until you pass.", warning=warning)
        for warning in mine.warnings
    )
    return f"{back_line(mine.game_id) if mine.back else ''}{again}{heading}\n{lines}{warned}\n{_fate(mine, game)}"


def back_line(game_id: int) -> str:
    """What a player who gave an order while away is told first."""
    return (
        tr("👋 Welcome back: you are no longer away in game #{number}; you give your own orders again.", number=game_id)
        + "\n"
    )


def _shown(lines: Sequence[str], room: int) -> list[str]:
    """``lines`` as code, as many as fit in ``room`` characters, then how many more there are."""
    shown: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 3 > room:
            shown.append(ntr("… and {n} more (all are kept)", "… and {n} more (all are kept)", len(lines) - len(shown)))
            break
        shown.append(f"`{line}`")
        used += len(line) + 3
    return shown


def _taken(lines: Sequence[str], room: int = 1600) -> str:
    """What ``/orders send`` read, as the game writes it, so a slip shows (nothing typed vanishes unseen)."""
    return tr("Orders taken: {orders}", orders="; ".join(_shown(lines, room))) + "\n" if lines else ""


def _fate(mine: MyOrders, game: Game) -> str:
    deadline = game.row.deadline_at
    if mine.passed:
        return tr("✅ Passed — final for this turn.")
    if deadline is None:
        return tr("Not passed yet: the turn waits for you. Press **Pass** (or `/orders pass`) when ready.")
    if game.row.time.orders_stand and mine.lines:
        return tr(
            "Not passed yet: these orders are played at the deadline {deadline} even if you do not pass.",
            deadline=when(deadline),
        )
    return tr(
        "⚠️ **Not passed yet: at the deadline {deadline} these orders are thrown away** and you miss "
        "the turn. Press **Pass** (or `/orders pass`) when they are final.",
        deadline=when(deadline),
    )


async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Legal orders for the player's current position, completing what he typed so far."""
    try:
        target = await game_being_typed(interaction)
        player = target.player_of(interaction.user.id)
        if player is None or player.seat is None:
            return []
        # Off the event loop: on a large board the list takes milliseconds, and a burst of players
        # typing would hold up every other answer behind it.
        lines = await asyncio.to_thread(service_of(interaction).presenter.suggestions, target, player.seat, current)
    except Exception:  # autocomplete must answer quickly whatever happens; errors show on submit
        return []
    return [app_commands.Choice(name=line[-100:], value=line[:1000]) for line in lines[:25]]


@app_commands.guild_only()
class OrdersCog(
    ThinksFirst, commands.GroupCog, group_name="orders", group_description="Your secret orders for the current turn"
):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.play, self.presenter = bot, service.master.play, service.presenter
        self.games = service.master.games

    async def _answer(
        self, interaction: discord.Interaction, game: Game, mine: MyOrders, files: list[discord.File] | None = None
    ) -> None:
        """The player's orders, privately, with a Pass button while they are not final."""
        extras: dict[str, Any] = {"files": files} if files else {}
        if not mine.passed:
            extras["view"] = pass_view(game)
        await interaction.followup.send(_listing(mine, game, self.presenter.turn_label(game)), ephemeral=True, **extras)
        if mine.back:  # the card no longer says he is away
            await refresh_lobby(self.bot, await self.games.get_game(game.id))

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
        mine = await self.play.add_orders(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await self._answer(interaction, target, mine)

    @app_commands.command(name="replace", description="Replace all your orders of this turn")
    @app_commands.describe(text="The complete set of orders", game="Game number (default: this thread's game)")
    @app_commands.autocomplete(text=suggest)
    async def replace(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: MyGame | None = None
    ) -> None:
        target = await game_meant(interaction, game)
        mine = await self.play.replace_orders(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        await self._answer(interaction, target, mine)

    @app_commands.command(name="show", description="Review your orders on a private board")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def show(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        mine = await self.play.my_orders(target.id, actor_of(interaction))
        focus = Focus(tuple(mine.lines), tr("Your orders")) if mine.lines else None
        picture = await self.presenter.board(target, viewer=mine.seat, orders_text="; ".join(mine.lines), focus=focus)
        name = f"game-{target.id}-orders.png" if mine.lines else f"game-{target.id}-board.png"
        heading = f"{self.presenter.title(target)}, {self.presenter.turn_label(target).lower()}"
        await self._answer(interaction, target, mine, png_files(picture, name, heading))

    @app_commands.command(name="clear", description="Delete all your orders of this turn")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def clear(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        mine = await self.play.clear_orders(target.id, actor_of(interaction), expected_turn=target.row.turn)
        await self._answer(interaction, target, mine)

    @app_commands.command(name="pass", description="Make your orders final; the turn resolves when all have passed")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def pass_(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        sent = await self.play.pass_turn(target.id, actor_of(interaction), expected_turn=target.row.turn)
        reply = (back_line(target.id) if sent.back else "") + after_pass(self.presenter, target, sent.game)
        await interaction.followup.send(reply, ephemeral=True)
        await refresh_lobby(self.bot, sent.game)

    @app_commands.command(name="send", description="Give these orders and pass at once (your move, in turn games)")
    @app_commands.describe(
        text="Your orders, e.g. C4>C5 3 or build D4", game="Game number (default: this thread's game)"
    )
    @app_commands.autocomplete(text=suggest)
    async def send(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1000], game: MyGame | None = None
    ) -> None:
        target = await game_meant(interaction, game)
        sent = await self.play.send_orders(target.id, actor_of(interaction), text, expected_turn=target.row.turn)
        if isinstance(sent, MyOrders):  # held back: they would lose the game at once
            await self._answer(interaction, target, sent)
            return
        reply = (
            (back_line(target.id) if sent.back else "")
            + _taken(sent.lines)
            + after_pass(self.presenter, target, sent.game)
        )
        await interaction.followup.send(reply, ephemeral=True)
        await refresh_lobby(self.bot, sent.game)
