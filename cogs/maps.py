"""/map: a server's own maps. ``upload`` a file in a game's map format (JSON, or a text grid for the
games on a grid; ``/rules`` shows each game's), ``list`` them, ``show`` one's board and facts,
``delete`` one (its author or a server manager); each is offered at ``/game create <game> map:``
beside the shipped maps. ``publish`` lets every server ``find`` and ``copy`` one."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ThinksFirst, actor_of, fitted, named_choices, plain, png_file, service_of
from cogs.rules import ruleset_names
from i18n import ntr, tr
from service.errors import GameError
from service.fairness import verdict_text
from service.ops.lobby import counts_text
from service.ops.maps import refuse_large
from service.runtime.gameservice import GameService
from service.storage.maps import ServerMap


async def server_map_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's maps, matching what was typed."""
    return named_choices(await service_of(interaction).master.maps.names(interaction.guild_id or 0), str, current)


def more_maps(count: int) -> str:
    return ntr("…and {n} more map", "…and {n} more maps", count)


async def published_map_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Published maps matching what was typed, each by its number."""
    typed = current.strip().lstrip("#")
    maps = service_of(interaction).master.maps
    found = [await maps.published_map(int(typed))] if typed.isdigit() and len(typed) < 19 else []
    found += await maps.published(typed="" if typed.isdigit() else typed)
    return [
        app_commands.Choice(name=f"#{m.id} {m.name} ({m.ruleset})"[:100], value=str(m.id))
        for m in found
        if m is not None
    ][:25]


@app_commands.guild_only()
class MapsCog(ThinksFirst, commands.GroupCog, group_name="map", group_description="This server's own maps"):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.service, self.maps, self.presenter = bot, service, service.master.maps, service.presenter

    @app_commands.command(name="upload", description="Add a map to this server: a file in a game's map format")
    @app_commands.describe(
        game="The game the map is for",
        file="A JSON file in that game's map format, or its text grid (/rules shows both)",
        name="The map's name (default: the one in the file, else the file's)",
    )
    @app_commands.autocomplete(game=ruleset_names)
    async def upload(
        self,
        interaction: discord.Interaction,
        game: str,
        file: discord.Attachment,
        name: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        refuse_large(file.size)  # before it is fetched
        content = await file.read()
        made = await self.maps.upload(
            interaction.guild_id or 0,
            actor_of(interaction),
            game.strip().lower(),
            content,
            name,
            file_name=file.filename,
        )
        await self._made(interaction, made)

    @app_commands.command(name="list", description="This server's own maps")
    @app_commands.describe(game="Only the maps of this game")
    @app_commands.autocomplete(game=ruleset_names)
    async def list_(self, interaction: discord.Interaction, game: str | None = None) -> None:
        maps = await self.maps.of_server(interaction.guild_id or 0, game.strip().lower() if game else None)
        lines = [f"**{plain(m.name)}** — {self._facts(m)}" for m in maps]
        text = "\n".join(lines) if lines else tr("This server has no maps of its own yet: `/map upload` adds one.")
        await interaction.followup.send(fitted(text, more=more_maps), ephemeral=True)

    @app_commands.command(name="show", description="A map of this server: its board and facts")
    @app_commands.describe(name="The map's name")
    @app_commands.autocomplete(name=server_map_names)
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        found = await self.maps.named(interaction.guild_id or 0, name)
        picture = await self.presenter.server_map_preview(found)
        text = f"**{plain(found.name)}** — {self._facts(found)}"
        await interaction.followup.send(text, file=png_file(picture, "map.png"), ephemeral=True)

    @app_commands.command(name="delete", description="Delete a map of this server (its author or a server manager)")
    @app_commands.describe(name="The map's name")
    @app_commands.autocomplete(name=server_map_names)
    async def delete(self, interaction: discord.Interaction, name: str) -> None:
        gone = await self.maps.delete(interaction.guild_id or 0, name, actor_of(interaction))
        text = tr("Map **{map}** is deleted; games already on it play on.", map=plain(gone.name))
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="publish", description="Let every server find and copy a map of this server, or stop")
    @app_commands.describe(
        name="The map's name", shared="true: every server may copy it (the default); false: no longer"
    )
    @app_commands.autocomplete(name=server_map_names)
    async def publish(self, interaction: discord.Interaction, name: str, shared: bool = True) -> None:
        made = await self.maps.publish(interaction.guild_id or 0, name, actor_of(interaction), shared)
        if made.published_at is not None:
            text = tr(
                "Map **{map}** is published: every server finds it with `/map find` and copies it with `/map copy`.",
                map=plain(made.name),
            )
        else:
            text = tr(
                "Map **{map}** is no longer published; copies made of it stay where they are.", map=plain(made.name)
            )
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="find", description="Maps every server published, to copy with /map copy")
    @app_commands.describe(game="Only the maps of this game")
    @app_commands.autocomplete(game=ruleset_names)
    async def find(self, interaction: discord.Interaction, game: str | None = None) -> None:
        found = await self.maps.published(game.strip().lower() if game else None)
        lines = [f"#{m.id} **{plain(m.name)}** — {self._facts(m)}" for m in found]
        text = "\n".join(lines) if lines else tr("No server has published a map of this game yet.")
        await interaction.followup.send(fitted(text, more=more_maps), ephemeral=True)

    @app_commands.command(name="copy", description="Copy a map another server published into this server")
    @app_commands.describe(map="The published map (its number in /map find)", name="Its name here (default: its own)")
    @app_commands.autocomplete(map=published_map_names)
    async def copy(
        self,
        interaction: discord.Interaction,
        map: app_commands.Range[str, 1, 60],
        name: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        number = map.strip().lstrip("#")
        if not number.isdigit() or len(number) > 18:
            raise GameError(tr("There is no published map #{number}; /map find lists them.", number=map[:20]))
        made = await self.maps.copy(interaction.guild_id or 0, int(number), actor_of(interaction), name)
        await self._made(interaction, made)

    async def _made(self, interaction: discord.Interaction, made: ServerMap) -> None:
        """The reply to a map made the server's (uploaded or copied): its board and facts; its fairness
        is measured from now on, in the background."""
        self.service.measure_maps()
        text = tr(
            "Map **{map}** is this server's now: `/game create {game} map:{map}` starts a game on it.",
            map=plain(made.name),
            game=made.ruleset,
        )
        picture = await self.presenter.server_map_preview(made)
        await interaction.followup.send(
            f"{text}\n{self._facts(made)}", file=png_file(picture, "map.png"), ephemeral=True
        )

    def _facts(self, map_: ServerMap) -> str:
        """ "Conquest, for 2 or 4 players, by <@1>; fairness: fair (p = 0.62: …)" """
        return tr(
            "{game}, for {counts} players, by <@{author}>; {fairness}",
            game=self.presenter.ruleset_title(map_.ruleset),
            counts=counts_text(map_.seats),
            author=map_.author_id,
            fairness=verdict_text(map_.verdict),
        )
