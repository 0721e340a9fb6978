"""/leaderboard and /stats: ratings from finished rated games, in this server or in every server;
/leaderboard also within the server's season running now or the last one ended (/config season)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ThinksFirst, plain, png_file
from cogs.rules import ruleset_names
from i18n import ntr, tr
from service.errors import GameError
from service.ops.ratings import GLOBAL, Standing
from service.presenter import halves
from service.runtime.gameservice import GameService


def _record(standing: Standing) -> str:
    return " · ".join(
        (
            tr("rating **{rating}**", rating=f"{standing.rating:.1f}"),
            ntr("{n} game", "{n} games", standing.games),
            ntr("{n} win", "{n} wins", standing.wins),
            ntr("{n} point", "{n} points", standing.points),
        )
    )


def leaderboard_lines(board: list[Standing]) -> list[str]:
    """A leaderboard, a line a player: members by mention (pinging no one where it is sent)."""
    return [
        f"{place}. {f'<@{s.user_id}>' if s.user_id is not None else s.shown_name} — {_record(s)}"
        for place, s in enumerate(board, start=1)
    ]


class RatingsCog(ThinksFirst, commands.Cog):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.ratings, self.presenter = bot, service.master.ratings, service.presenter
        self.lookup = service.master.lookup
        self.seasons = service.master.seasons
        self.tournaments = service.master.tournaments

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.describe(
        ruleset="Which game",
        scope="This server's games only, or every server's",
        period="All time, or this server's season running now or the last one ended",
    )
    @app_commands.autocomplete(ruleset=ruleset_names)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        scope: Literal["server", "global"] = "server",
        period: Literal["all time", "this season", "last season"] = "all time",
    ) -> None:
        name = ruleset.strip().lower()
        where = GLOBAL if scope == "global" or interaction.guild_id is None else interaction.guild_id
        season = None
        if period != "all time":
            if where == GLOBAL:
                raise GameError(tr("Seasons are a server's own: ask for scope:server."))
            season = await self.seasons.chosen(where, period)
        board = await self.ratings.leaderboard(name, where, season=season)
        scope_name = tr("every server") if where == GLOBAL else tr("this server")
        if season is not None:
            scope_name = tr("this server, season {number}", number=season)
        heading = tr("**{game} leaderboard — {scope}**", game=self.presenter.ruleset_title(name), scope=scope_name)
        if not board:
            await interaction.followup.send(f"{heading}\n" + tr("No rated games finished yet."), ephemeral=True)
            return
        lines = [heading, *leaderboard_lines(board)]
        await interaction.followup.send(
            "\n".join(lines)[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="stats", description="Games, wins, points and rating of a player")
    @app_commands.describe(player="Whose (default: yours)", scope="This server's games only, or every server's")
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        scope: Literal["server", "global"] = "global",
    ) -> None:
        who = player or interaction.user
        where = GLOBAL if scope == "global" or interaction.guild_id is None else interaction.guild_id
        stats = await self.ratings.player_stats(who.id, where)
        turns = (await self.lookup.reliability(who.id)).detail()  # in every game, wherever asked
        if not stats:
            text = tr("{player} has no rated games yet.", player=plain(who.display_name))
            await interaction.followup.send(f"{text}\n{turns}", ephemeral=True)
            return
        lines = [f"**{plain(who.display_name)}** — " + (tr("every server") if where == GLOBAL else tr("this server"))]
        lines.append(turns)
        record = await self.tournaments.record(who.id, None if where == GLOBAL else where)
        if record.tournaments:
            lines.append(
                tr(
                    "🏆 Tournaments: {entered} entered, {won} won · {games}, {points} points",
                    entered=record.tournaments,
                    won=record.won,
                    games=ntr("{n} game", "{n} games", record.games),
                    points=halves(record.points),
                )
            )
        for name, (standing, _) in stats.items():
            lines.append(f"{self.presenter.ruleset_title(name)}: {_record(standing)}")
        chart = await self.presenter.rating_chart(who.display_name, stats)
        await interaction.followup.send("\n".join(lines)[:2000], file=png_file(chart, "rating.png"), ephemeral=True)
