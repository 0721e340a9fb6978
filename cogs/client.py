"""The Discord client: opens the game service when it logs in, installs the commands, syncs them.

It is discord.py's sharded bot: the shards ``SHARD_COUNT``/``SHARD_IDS`` name, or as many as Discord
recommends (one, for a bot in fewer than 2,500 servers), all in this process.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from aiohttp import web
from discord.ext import commands

from cogs import pacing
from cogs.admin import AdminCog
from cogs.announcer import DiscordAnnouncer
from cogs.away import AwayCog
from cogs.buttons import KickButton, PassButton, RematchButton, SeatAnswerButton, SurrenderButton, TakeSeatButton
from cogs.common import on_app_command_error
from cogs.config import Config
from cogs.game import GameCog
from cogs.language import ConfigCog
from cogs.lobby import LobbyButton, LobbyCards
from cogs.maps import MapsCog
from cogs.matchmaking import PlayCog, ReadyButton
from cogs.mygames import MyGamesCog
from cogs.orders import OrdersCog
from cogs.ratings import RatingsCog
from cogs.rules import RulesCog, TutorialButton
from cogs.settings import SettingsCog
from cogs.sharding import IdentifyLimiter, fetch_gateway, syncs_commands
from cogs.tournament_card import TournamentButton
from cogs.tournaments import TournamentsCog
from cogs.translator import CatalogTranslator, LocalisedTree, quote_commands_of
from service.runtime.gameservice import GameService
from service.runtime.health import Health
from service.storage.errors import StoreError, explain
from service.storage.store import described


class GameBot(commands.AutoShardedBot):
    """``service_options`` go to ``GameService.open`` (a clock, a sweep period, a worker pool, rulesets)."""

    def __init__(self, config: Config, *, service_options: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),  # commands and buttons need no intent; messages are not read
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=LocalisedTree,
            shard_count=config.shard_count,
            # discord.py documents shard_ids as optional (None: every shard); its typed options leave None out.
            shard_ids=list(config.shard_ids) if config.shard_ids is not None else None,  # type: ignore[arg-type]
            http_trace=pacing.trace(pacing.Pacer(pacing.share(config.shard_ids, config.shard_count))),
            **kwargs,
        )
        if config.api_base:
            discord.http.Route.BASE = config.api_base
        self.config = config
        self.service_options = {
            "sweep_seconds": config.sweep_seconds,
            "workers": config.workers,
            "public_url": config.public_url,
        }
        self.service_options.update(service_options or {})
        self.service: GameService | None = None
        self.health: web.AppRunner | None = None  # /healthz and /metrics, when HEALTH_PORT is set
        self.cards = LobbyCards(self)
        self.identify_limiter = IdentifyLimiter()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        await self.identify_limiter.wait(shard_id)

    async def open_service(self) -> GameService:
        """Open the database (once); raises StoreError, saying what to fix, when it cannot be used."""
        if self.service is None:
            if self.config.database_url is None:
                try:
                    self.config.database.parent.mkdir(parents=True, exist_ok=True)
                except OSError as err:
                    raise StoreError(explain(err, self.config.database)) from err
            announcer = DiscordAnnouncer(self, self.cards)
            self.service = await GameService.open(self.config.store, announcer, **self.service_options)
        return self.service

    async def setup_hook(self) -> None:
        gateway = await fetch_gateway(self.http)
        self.identify_limiter.max_concurrency = gateway.max_concurrency
        if self.shard_count is None:
            self.shard_count = gateway.recommended_shards
        service = await self.open_service()
        await install_commands(self, service)
        await self.tree.set_translator(CatalogTranslator())
        log = logging.getLogger(__name__)
        shards = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        log.info(
            "shards %s of %d; database %s", ",".join(map(str, shards)), self.shard_count, described(self.config.store)
        )
        if syncs_commands(self.shard_ids):
            await self.sync_commands()
        await service.start()
        if self.config.health_port is not None:
            self.health = await Health(service).serve(self.config.health_host, self.config.health_port)

    async def sync_commands(self) -> None:
        """Install the slash commands at Discord: globally, or only in DEV_GUILD_ID (where they show at once)."""
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        logging.getLogger(__name__).info("synced %d commands", len(synced))

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self._permissions_changed(after.guild.id)

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        await self._permissions_changed(after.guild.id)

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self._permissions_changed(after.guild.id)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.user is not None and after.id == self.user.id:  # the bot's own roles (no intent needed)
            await self._permissions_changed(after.guild.id)

    async def _permissions_changed(self, guild_id: int) -> None:
        """A role, channel or thread of the server changed: posts held back for a permission the bot
        lacked there are tried again at once (a retry that still fails waits for its backoff)."""
        if self.service is not None:
            await self.service.outbox.retry_guild(guild_id)

    async def close(self) -> None:
        if self.health is not None:
            await self.health.cleanup()
            self.health = None
        if self.service is not None:
            await self.cards.close()
            await self.service.close()
            self.service = None
        await super().close()


async def install_commands(bot: commands.AutoShardedBot, service: GameService) -> None:
    """Every cog with the service it serves, the lobby buttons (which survive restarts), error replies."""
    for cog in (
        GameCog(bot, service),
        OrdersCog(bot, service),
        AdminCog(bot, service),
        RulesCog(bot, service.presenter),
        RatingsCog(bot, service),
        MyGamesCog(bot, service),
        ConfigCog(bot, service),
        SettingsCog(bot, service),
        AwayCog(bot, service),
        MapsCog(bot, service),
        TournamentsCog(bot, service),
        PlayCog(bot, service),
    ):
        await bot.add_cog(cog)
    bot.add_dynamic_items(
        LobbyButton,
        PassButton,
        SurrenderButton,
        KickButton,
        RematchButton,
        TutorialButton,
        TakeSeatButton,
        SeatAnswerButton,
        TournamentButton,
        ReadyButton,
    )
    bot.tree.error(on_app_command_error)
    quote_commands_of(bot.tree)
