"""/config language: the language of what everyone in the server reads (round posts, announcements,
boards, the lobby card); server managers (Manage Server) choose it. /config web: whether the server's
games have pages on the web site, listed or only by their links. /config season: how long the server's
seasons last, and where their final tables go. /config matchmaking: whether the server's players queue
with other servers' players. /config check: what the bot lacks in each channel with games (and the one
it is asked in)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ThinksFirst, actor_of, client_cards, fetch_game_channel, fitted, lacking
from cogs.lobby import seen_in
from i18n import LANGUAGES, language_name, set_language, tr
from service.ops.seasons import LONGEST_DAYS
from service.posts import permission_names
from service.runtime.gameservice import GameService
from service.storage.seasons import Season
from service.website import MODES, OFF, PUBLIC


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ConfigCog(
    ThinksFirst, commands.GroupCog, group_name="config", group_description="Server settings (Manage Server)"
):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.languages, self.lookup = bot, service.languages, service.master.lookup
        self.website = service.website
        self.seasons, self.clock = service.master.seasons, service.clock
        self.service, self.queues = service, service.master.matchmaking

    @app_commands.command(name="check", description="What the bot lacks in each channel with games here")
    async def check(self, interaction: discord.Interaction) -> None:
        games = await self.lookup.list_games(interaction.guild_id or 0)
        places = sorted(
            {
                thread or channel
                for thread, channel in [await seen_in(self.service, g, interaction.guild_id) for g in games]
            }
        )
        if interaction.channel_id is not None and interaction.channel_id not in places:
            places.insert(0, interaction.channel_id)  # where games would be opened next
        lines = [await self._lacks(place) for place in places]
        problems = [line for line in lines if line]
        text = (
            "\n".join(problems) if problems else tr("I have every permission games need in every channel with games.")
        )
        await interaction.followup.send(fitted(text), ephemeral=True)

    async def _lacks(self, place: int) -> str:
        """ "<#1>: I lack **Attach Files**" for a channel or thread with games, or nothing if all is well."""
        try:
            missing = ",".join(lacking(await fetch_game_channel(self.bot, place)))
        except discord.HTTPException:  # a channel the bot cannot even see
            missing = "view_channel"
        if not missing:
            return ""
        return tr("<#{channel}>: I lack {missing}", channel=place, missing=permission_names(missing))

    @app_commands.command(name="web", description="Whether this server's games have pages on the web site")
    @app_commands.describe(mode="public: listed on the server's page; unlisted: only by their links; off: no pages")
    @app_commands.choices(mode=[app_commands.Choice(name=mode, value=mode) for mode in MODES])
    async def web(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        guild = interaction.guild_id or 0
        if mode is not None:
            await self.website.set_mode(interaction.guild_id, mode, actor_of(interaction))
            for game in await self.lookup.list_games(guild, include_ended=True, parse=False):  # links come or go
                client_cards(self.bot).refresh_later(game.id)
        await interaction.followup.send(self._web_text(await self.website.mode(guild), guild), ephemeral=True)

    def _web_text(self, mode: str, guild: int) -> str:
        if mode == OFF:
            text = tr("This server's games have no pages on the web site; their posts carry no link to it.")
        elif mode == PUBLIC and (url := self.website.server_url(guild)):
            text = tr("This server's games are listed on its page of the web site: {url}", url=url)
        elif mode == PUBLIC:
            text = tr("This server's games are listed on its page of the web site.")
        else:
            text = tr(
                "Each of this server's games has a page on the web site, found only by the link its posts carry; "
                "no page lists them."
            )
        if self.website.public_url is None:
            text += "\n" + tr("This bot has no web site yet: its operator sets PUBLIC_URL and runs `bot.py web`.")
        return text

    @app_commands.command(name="season", description="How long this server's seasons last (leaderboards per season)")
    @app_commands.describe(
        days="Days a season lasts (0: no seasons; leave out to see the current season)",
        channel="Where each season's final table is posted (default: here)",
    )
    async def season(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 0, LONGEST_DAYS] | None = None,
        channel: discord.TextChannel | None = None,
    ) -> None:
        guild = interaction.guild_id or 0
        if days is None:
            season = await self.seasons.of_server(guild)
        else:
            place = channel.id if channel is not None else interaction.channel_id or 0
            season = await self.seasons.set(guild, days, place, actor_of(interaction))
        await interaction.followup.send(season_text(season, self.clock.now()), ephemeral=True)

    @app_commands.command(
        name="matchmaking", description="Whether this server's players queue with other servers' players"
    )
    @app_commands.describe(
        shared="On: queue with the players of every server that opts in; off: only this server's (leave out to see)"
    )
    async def matchmaking(self, interaction: discord.Interaction, shared: bool | None = None) -> None:
        guild = interaction.guild_id or 0
        if shared is not None:
            await self.queues.share(guild, shared, actor_of(interaction))
            await self.service.tell_checks()  # those waiting may be matched at once
        if await self.queues.shared(guild):
            text = tr(
                "This server's players queue (`/play queue`) with the players of every server that shares its "
                "queues: a game of players from several servers gets its own thread in each of them, every "
                "post going to each thread, and its players give their orders from their own server's thread."
            )
        else:
            text = tr(
                "This server's players queue (`/play queue`) only with each other; `/config matchmaking "
                "shared:True` shares its queues with every server that does."
            )
        await interaction.followup.send(text, ephemeral=True)

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


def season_text(season: Season | None, now: float) -> str:
    """What the server's seasons are now, for its managers."""
    running = season.number_at(now) if season is not None else None
    if season is None or running is None:
        return tr("This server has no seasons: `/config season days:30` starts them (leaderboards per season).")
    return tr(
        "Season {number} runs until <t:{end}:f>; seasons last {days} days, each ending with its final table in "
        "<#{channel}>. `/leaderboard period:this season` shows it.",
        number=running,
        end=int(season.ends_at(running)),
        days=season.days,
        channel=season.channel_id,
    )
