"""/tournament: competitions that run themselves. ``create`` opens one for sign-up in the channel with
its card (``cogs.tournament_card``), players ``join`` (or ``leave``: before the start out of the list,
later withdrawn), by command or on the card; its creator ``start``s it (or it starts at its start time),
and each round's games then open by themselves, each with its lobby card and thread, paired by the
format (``service.ops.tournaments``), each round and the end told in the channel with the standings
(``cogs.announcer``); ``standings`` shows the table."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ThinksFirst, actor_of, fitted, plain
from cogs.lobby import shows_games
from cogs.rules import ruleset_names
from cogs.tournament_card import post_card, refresh_card
from i18n import mark, tr
from service.ops.tournaments import POOLS
from service.presenter import halves
from service.runtime.gameservice import GameService
from service.storage.tournaments import CANCELLED, FINISHED, RUNNING, SIGNUP

NO_PINGS = discord.AllowedMentions.none()
STATES = {
    SIGNUP: mark("open for sign-up"),
    RUNNING: mark("running"),
    FINISHED: mark("over"),
    CANCELLED: mark("cancelled"),
}


@app_commands.guild_only()
class TournamentsCog(
    ThinksFirst, commands.GroupCog, group_name="tournament", group_description="Tournaments that run themselves"
):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.service, self.tournaments = bot, service, service.master.tournaments
        self.tournaments.on_open.append(shows_games(bot, service))  # in the tournament's channel

    @app_commands.command(name="create", description="Open a tournament in this channel for players to join")
    @app_commands.describe(
        ruleset="Which game",
        format="swiss: paired by points; round-robin: everyone meets everyone; pools: tables of three or more",
        rounds="Rounds of a Swiss or pools tournament (a round robin plays as many as it needs)",
        turn_hours="Hours each turn of its games may take",
        starts_in_hours="Start it by itself this many hours from now (default: when you start it)",
    )
    @app_commands.autocomplete(ruleset=ruleset_names)
    async def create(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        format: Literal["swiss", "round-robin", "pools"],
        rounds: app_commands.Range[int, 1, 20] = 3,
        turn_hours: app_commands.Range[int, 1, 336] = 24,
        starts_in_hours: app_commands.Range[int, 1, 720] | None = None,
    ) -> None:
        made = await self.tournaments.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            actor=actor_of(interaction),
            ruleset=ruleset.strip().lower(),
            format=format,
            rounds=rounds,
            round_seconds=turn_hours * 3600,
            starts_at=None if starts_in_hours is None else self.service.clock.now() + starts_in_hours * 3600,
        )
        if isinstance(interaction.channel, discord.abc.Messageable):
            await post_card(interaction.channel, self.service, made)
        await interaction.followup.send(
            tr(
                "Tournament #{number} is open: players join with the card's button or "
                "`/tournament join number:{number}`.",
                number=made.id,
            ),
            ephemeral=True,
        )

    @app_commands.command(name="join", description="Enter a tournament before it starts")
    @app_commands.describe(number="The tournament's number")
    async def join(self, interaction: discord.Interaction, number: int) -> None:
        await self.tournaments.join(number, actor_of(interaction), interaction.guild_id)
        count = len(await self.tournaments.entrants(number))
        await refresh_card(self.bot, self.service, number)
        await interaction.followup.send(
            tr("You are in tournament #{number} ({count} players so far).", number=number, count=count), ephemeral=True
        )

    @app_commands.command(
        name="leave", description="Leave a tournament (once it runs: withdraw, your game in hand lost)"
    )
    @app_commands.describe(number="The tournament's number")
    async def leave(self, interaction: discord.Interaction, number: int) -> None:
        await self.tournaments.leave(number, actor_of(interaction), interaction.guild_id)
        await refresh_card(self.bot, self.service, number)
        await interaction.followup.send(tr("You have left tournament #{number}.", number=number), ephemeral=True)

    @app_commands.command(name="start", description="Start a tournament you created: its first round opens")
    @app_commands.describe(number="The tournament's number")
    async def start(self, interaction: discord.Interaction, number: int) -> None:
        await self.tournaments.start(number, actor_of(interaction), interaction.guild_id)
        await refresh_card(self.bot, self.service, number)
        await self.service.tell_tournaments()  # round 1's tables, at once rather than at the next sweep
        await interaction.followup.send(tr("Tournament #{number} has started.", number=number), ephemeral=True)

    @app_commands.command(name="cancel", description="Call off a tournament you created before it starts")
    @app_commands.describe(number="The tournament's number")
    async def cancel(self, interaction: discord.Interaction, number: int) -> None:
        await self.tournaments.cancel(number, actor_of(interaction), interaction.guild_id)
        await refresh_card(self.bot, self.service, number)
        await self.service.tell_tournaments()
        await interaction.followup.send(tr("Tournament #{number} is cancelled.", number=number), ephemeral=True)

    @app_commands.command(name="standings", description="A tournament's table: points and tiebreaks")
    @app_commands.describe(number="The tournament's number")
    async def standings(self, interaction: discord.Interaction, number: int) -> None:
        t = await self.tournaments.get(number, interaction.guild_id)
        game = self.service.presenter.ruleset_title(t.ruleset)
        if t.status == SIGNUP:
            heading = tr(
                "**Tournament #{number}** — {game}, {format}, open for sign-up", number=t.id, game=game, format=t.format
            )
        else:
            heading = tr(
                "**Tournament #{number}** — {game}, round {round} of {rounds} ({status})",
                number=t.id,
                game=game,
                round=t.round,
                rounds=t.rounds,
                status=tr(STATES[t.status]),
            )
        lines = [heading]
        for place, p in enumerate(await self.tournaments.standings(number), 1):
            who = plain(p.entrant.name) + (tr(" (withdrawn)") if p.entrant.withdrawn_at is not None else "")
            line = tr("{place}. {name} — points {points}", place=place, name=who, points=halves(p.points))
            if t.format != POOLS:  # tables of several: points alone rank them
                line += " · " + tr(
                    "Buchholz {buchholz} · SB {berger}", buchholz=halves(p.buchholz), berger=halves(p.berger)
                )
            lines.append(line)
        await interaction.followup.send(fitted("\n".join(lines)), ephemeral=True, allowed_mentions=NO_PINGS)
