"""The Discord client: opens the store, starts the game master, loads the cogs, syncs commands."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.admin import AdminCog
from cogs.announcer import DiscordAnnouncer
from cogs.common import on_app_command_error
from cogs.game import GameCog
from cogs.lobby import LobbyButton
from cogs.orders import OrdersCog
from cogs.rules import RulesCog
from service import GameMaster
from service.clock import Clock
from service.runtime import GameService

if TYPE_CHECKING:
    from bot import Config

log = logging.getLogger(__name__)


class GameBot(commands.Bot):
    def __init__(self, config: Config, *, clock: Clock | None = None, sweep_seconds: float = 30.0, **kwargs: Any):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            **kwargs,
        )
        if config.api_base:
            discord.http.Route.BASE = config.api_base
        self.config, self.clock, self.sweep_seconds = config, clock, sweep_seconds
        self.service: GameService | None = None

    @property
    def master(self) -> GameMaster:
        if self.service is None:
            raise RuntimeError("the game service is not open yet")
        return self.service.master

    async def setup_hook(self) -> None:
        self.config.database.parent.mkdir(parents=True, exist_ok=True)
        self.service = await GameService.open(
            self.config.database, DiscordAnnouncer(self), clock=self.clock, sweep_seconds=self.sweep_seconds
        )
        for cog in (
            GameCog(self, self.master),
            OrdersCog(self, self.master),
            AdminCog(self, self.master),
            RulesCog(self),
        ):
            await self.add_cog(cog)
        self.add_dynamic_items(LobbyButton)
        self.tree.on_error = on_app_command_error
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands; database %s", len(synced), self.config.database)
        await self.service.start()

    async def close(self) -> None:
        if self.service is not None:
            await self.service.close()
            self.service = None
        await super().close()
