"""/mygames: every open game of the user, in every server, from anywhere (also in DMs): what each
waits on, its deadline, and a link to its thread — the games waiting for him first."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ThinksFirst
from i18n import ntr, tr
from service.markup import when
from service.models import LOBBY, Game, Mirror
from service.runtime.gameservice import GameService


def jump_link(game: Game, mirror: Mirror | None = None) -> str:
    """A link that opens the game's thread (or its channel) from any server or DM: in the server he
    plays it from (``mirror``: another than the game's, matched across servers)."""
    if mirror is not None:
        return f"https://discord.com/channels/{mirror.guild_id}/{mirror.thread_id or mirror.channel_id}"
    return f"https://discord.com/channels/{game.row.guild_id}/{game.row.thread_id or game.row.channel_id}"


class MyGamesCog(ThinksFirst, commands.Cog):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.lookup, self.presenter = bot, service.master.lookup, service.presenter

    @app_commands.command(name="mygames", description="All your open games, in every server (only you see it)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def mygames(self, interaction: discord.Interaction) -> None:
        games = await self.lookup.games_of(interaction.user.id, parse=False)
        if not games:
            await interaction.followup.send(
                tr("You are in no open game. Open one with `/game create` in a server."), ephemeral=True
            )
            return
        waiting = [g for g in games if self._waits_for(g, interaction.user.id)]
        others = [g for g in games if g not in waiting]
        waiting.sort(key=lambda g: g.row.deadline_at or float("inf"))
        lines = [ntr("**Your games** — {n} waiting for you", "**Your games** — {n} waiting for you", len(waiting))]
        lines.append((await self.lookup.reliability(interaction.user.id)).detail())  # before a long list is cut
        homes = await self.lookup.mirrored_homes([g.id for g in games], interaction.user.id)
        lines += [self._line(g, interaction.user.id, homes.get((g.id, interaction.user.id))) for g in waiting + others]
        await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)

    @staticmethod
    def _waits_for(game: Game, user_id: int) -> bool:
        player = game.player_of(user_id)
        return player is not None and player.seat in game.waiting_seats

    def _line(self, game: Game, user_id: int, mirror: Mirror | None) -> str:
        title = f"[{self.presenter.title(game)}]({jump_link(game, mirror)})"
        if game.row.status == LOBBY:
            players = tr("{joined}/{most} players", joined=len(game.players), most=game.row.max_players)
            return tr("• {game} — lobby, {players}", game=title, players=players)
        turn = self.presenter.turn_label(game).lower()
        deadline = (
            tr("no deadline")
            if game.row.deadline_at is None
            else tr("deadline {when}", when=when(game.row.deadline_at))
        )
        if game.row.paused_at is not None:
            return tr("• {game} — {turn}, paused", game=title, turn=turn)
        if self._waits_for(game, user_id):
            return tr("• ⏳ {game} — {turn}: **your turn**, {deadline}", game=title, turn=turn, deadline=deadline)
        return tr("• {game} — {turn}: waiting for others, {deadline}", game=title, turn=turn, deadline=deadline)
