"""The smallest useful bot: ``/echo say text:`` answers ephemerally at once.

It is the latency floor a benchmark compares the real bot against (same fake, same discord.py), and
a ready-made bot for tests of the fake itself, which add their own subcommands to ``bot.echo``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


def echo_group() -> app_commands.Group:
    group = app_commands.Group(name="echo", description="Repeat things back")

    @group.command(name="say", description="Repeat text, visible only to you")
    @app_commands.describe(text="What to repeat")
    async def say(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    return group


class EchoBot(commands.Bot):
    """Syncs its command tree globally in ``setup_hook``, as a real bot does."""

    def __init__(self, *, guild_ready_timeout: float = 0.1, **kwargs: Any):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=guild_ready_timeout,
            **kwargs,
        )
        self.echo = echo_group()
        self.tree.add_command(self.echo)

    async def setup_hook(self) -> None:
        await self.tree.sync()


class ShardedEchoBot(EchoBot, commands.AutoShardedBot):
    """The echo bot on discord.py's sharded client: ``shard_count`` and ``shard_ids`` say which shards it runs."""


def make_echo_bot(**kwargs: Any) -> EchoBot:
    """An :class:`EchoBot`; keyword arguments go to ``commands.Bot``."""
    return EchoBot(**kwargs)
