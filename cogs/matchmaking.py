"""/play: matchmaking. ``queue`` waits for a game of a ruleset at a speed; when enough players of
similar rating wait, a ready check is posted in each channel they queued from, pinging those who queued
there, with **Ready** and **Not now** buttons (custom ids hold the check: they work after a restart);
once everyone is ready the game opens with its card and thread (and the same in each other server of
its players: ``/config matchmaking``) and starts (``service.ops.matchmaking``).
``cancel`` leaves the queues; ``status`` shows them."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import USER_ERRORS, ThinksFirst, actor_of, lacking, send_error, service_of
from cogs.lobby import shows_games
from cogs.rules import ruleset_names
from cogs.translator import RepliesInUsersLanguage
from i18n import mark, ntr, tr
from service.errors import GameError
from service.markup import when
from service.posts import permission_names
from service.storage.matchmaking import DECLINED, FAILED, LAPSED, OPENED, READY, WAITING, Check, Entry, Member

if TYPE_CHECKING:
    from service.runtime.gameservice import GameService

log = logging.getLogger(__name__)

SPEED_NAMES = {
    "fast": mark("fast (an hour a turn)"),
    "daily": mark("daily"),
    "relaxed": mark("relaxed (3 days a turn)"),
}


class ReadyButton(
    RepliesInUsersLanguage,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"match:(?P<action>ready|decline):(?P<check>[0-9]+)",
):
    def __init__(self, action: str, check_id: int):
        label, style = (
            (tr("Ready"), discord.ButtonStyle.success)
            if action == "ready"
            else (tr("Not now"), discord.ButtonStyle.secondary)
        )
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"match:{action}:{check_id}"))
        self.action, self.check_id = action, check_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReadyButton:
        return cls(match["action"], int(match["check"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        matchmaking, actor = service.master.matchmaking, actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the last answer opens the game
        try:
            if self.action == "ready":
                check = await matchmaking.ready(self.check_id, actor)
            else:
                await matchmaking.decline(self.check_id, actor)
        except USER_ERRORS as err:
            await send_error(interaction, str(err))
            return
        await service.show_check(self.check_id)  # his answer, on the check's post in each server
        await service.tell_checks()
        check, matched = await matchmaking.check(self.check_id)
        if self.action == "decline":
            said = tr("Not now, then: you are out of that queue.")
        elif check.status == OPENED:
            said = tr("Everyone is ready: game #{number} has started.", number=check.game_id)
        elif check.status == FAILED:
            said = tr("This game could not be opened: you keep your place in the queue.")
        elif check.status == READY:
            said = tr("Everyone is ready: the game is opening.")
        elif check.status != WAITING:
            said = tr("This ready check is over: see its post.")
        else:
            waiting = sum(m.ready_at is None for m in matched)
            said = ntr(
                "You are ready. Waiting for {n} more player.", "You are ready. Waiting for {n} more players.", waiting
            )
        await interaction.followup.send(said, ephemeral=True)


def check_post(service: GameService, check: Check, matched: list[Member]) -> tuple[str, discord.ui.View | None]:
    """A ready check's post as it stands: who is matched and who has answered, the Ready and Not now
    buttons while it waits."""
    game = tr(
        "{game}, {speed}, {seats} players",
        game=service.presenter.ruleset_title(check.queue.ruleset),
        speed=tr(SPEED_NAMES.get(check.queue.speed, check.queue.speed)),
        seats=check.queue.seats,
    )
    who = "\n".join(f"{'✅' if m.ready_at is not None else '⏳'} <@{m.user_id}>" for m in matched)
    if check.status == OPENED:
        lines = [
            tr(
                "⚔️ **A game is found** ({game}): everyone was ready; game #{number} has started.",
                game=game,
                number=check.game_id,
            )
        ]
    elif check.status == READY:
        lines = [tr("⚔️ **A game is found** ({game}): everyone is ready; the game is opening…", game=game)]
    elif check.status == LAPSED:
        lines = [
            tr(
                "⌛ **A game was found** ({game}), but not everyone answered in time: who did keeps his place "
                "in the queue, who did not waits at its end (or, missing twice in a row, leaves it).",
                game=game,
            )
        ]
    elif check.status == DECLINED:
        lines = [
            tr(
                "⌛ **A game was found** ({game}), but someone cannot play now: the others keep their places in the queue.",
                game=game,
            )
        ]
    elif check.status == FAILED:
        lines = [
            tr(
                "⚠️ **A game was found** ({game}), but it could not be opened here: everyone keeps his place in the queue.",
                game=game,
            )
        ]
    else:
        lines = [
            tr(
                "⚔️ **A game is found** ({game}). Press **Ready** by {when}; whoever has not answered by then "
                "goes to the end of the queue.",
                game=game,
                when=when(check.expires_at),
            )
        ]
    content = "\n".join([*lines, who])
    if check.status != WAITING:
        return content, None
    view = discord.ui.View(timeout=None)
    view.add_item(ReadyButton("ready", check.id))
    view.add_item(ReadyButton("decline", check.id))
    return content, view


@app_commands.guild_only()
class PlayCog(ThinksFirst, commands.GroupCog, group_name="play", group_description="Find a game: matchmaking"):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.service, self.matchmaking = bot, service, service.master.matchmaking
        self.matchmaking.on_open.append(shows_games(bot, service))  # where its players queued

    @app_commands.command(name="queue", description="Wait for a game with players of your level")
    @app_commands.describe(
        ruleset="Which game",
        speed="fast: an hour a turn; daily: a day; relaxed: three days",
        players="How many players the game seats",
    )
    @app_commands.autocomplete(ruleset=ruleset_names)
    async def queue(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        speed: Literal["fast", "daily", "relaxed"] = "daily",
        players: app_commands.Range[int, 2, 6] = 2,
    ) -> None:
        if isinstance(interaction.channel, discord.Thread):  # the game opens a thread of its own
            raise GameError(tr("Queue from a text channel, not a thread: the game opens its own thread there."))
        if isinstance(interaction.channel, discord.TextChannel) and (
            missing := ",".join(lacking(interaction.channel, allowed=interaction.app_permissions))
        ):  # found, its game could not open here: said now rather than after everyone pressed Ready
            raise GameError(
                tr(
                    "I cannot host a game in this channel: I lack {missing} here. Queue from another channel, "
                    "or ask a server manager for those permissions.",
                    missing=permission_names(missing),
                )
            )
        queued = await self.matchmaking.join(
            actor_of(interaction),
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            ruleset=ruleset.strip().lower(),
            speed=speed,
            seats=players,
        )
        await self.service.tell_checks()
        if queued.check is not None:
            said = tr("A game is found: press **Ready** on the post that names you.")
        else:
            said = ntr(
                "You are in the queue ({n} waiting). You will be pinged when a game is found; your place lasts a day.",
                "You are in the queue ({n} waiting). You will be pinged when a game is found; your place lasts a day.",
                queued.waiting,
            )
            if not queued.new:
                said = tr("You were already in this queue: your place is kept, and lasts a day from now.")
        await interaction.followup.send(said, ephemeral=True)

    @app_commands.command(name="cancel", description="Leave this server's queues and its ready checks you are in")
    async def cancel(self, interaction: discord.Interaction) -> None:
        given_up = await self.matchmaking.cancel(actor_of(interaction), interaction.guild_id or 0)
        await self.service.tell_checks()
        said = tr("You were in no queue here.") if not given_up else tr("You are out of this server's queues.")
        await interaction.followup.send(said, ephemeral=True)

    @app_commands.command(name="status", description="The queues you wait in")
    async def status(self, interaction: discord.Interaction) -> None:
        entries = await self.matchmaking.entries(interaction.user.id, interaction.guild_id or 0)
        pending = [
            tr("You are ready for a game found; waiting for the others, until {when}.", when=when(check.expires_at))
            if answered
            else tr("A game is found for you: press **Ready** on its post, by {when}.", when=when(check.expires_at))
            for check, answered in await self.matchmaking.pending_checks(interaction.user.id, interaction.guild_id or 0)
        ]
        if pending:
            await interaction.followup.send("\n".join([*pending, *self._entry_lines(entries)]), ephemeral=True)
            return
        if not entries:
            await interaction.followup.send(
                tr("You are in no queue here: `/play queue` to find a game."), ephemeral=True
            )
            return
        await interaction.followup.send("\n".join(self._entry_lines(entries)), ephemeral=True)

    def _entry_lines(self, entries: list[Entry]) -> list[str]:
        return [
            tr(
                "{game}, {speed}, {seats} players — until {until}",
                game=self.service.presenter.ruleset_title(e.queue.ruleset),
                speed=tr(SPEED_NAMES.get(e.queue.speed, e.queue.speed)),
                seats=e.queue.seats,
                until=when(e.expires_at),
            )
            for e in entries
        ]
