"""/game: create a game in its own thread, join, start, follow it, surrender or agree a draw."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.buttons import surrender_view, take_computer_seat
from cogs.common import (
    MyGame,
    OpenGame,
    ThinksFirst,
    actor_of,
    game_being_typed,
    game_channel,
    game_meant,
    named_choices,
    plain,
    png_file,
    service_of,
    upload_file,
)
from cogs.create import creation_group
from cogs.embeds import game_embed
from cogs.lobby import post_lobby, refresh_lobby, seen_in
from i18n import level_title, ntr, tr, using
from service.errors import GameError
from service.models import LOBBY, RUNNING, Game
from service.ops.history import PastTurn
from service.presenter import Presenter
from service.runtime.gameservice import GameService

Turn = app_commands.Range[int, 1]
PAST_TURN_OPTIONS = {
    "turn": "Which turn (default: the last resolved one)",
    "game": "Game number (default: the game of this thread)",
}


async def _of_game_typed(interaction: discord.Interaction, read: Callable[[Presenter, Game], list[str]]) -> list[str]:
    """What ``read`` gives of the game meant, for autocomplete; nothing when that fails (autocomplete
    must answer quickly whatever happens; errors show on submit)."""
    try:
        return read(service_of(interaction).presenter, await game_being_typed(interaction))
    except Exception:
        return []


async def computer_levels(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The levels of the game meant, weakest first, matching what was typed."""
    return named_choices(await _of_game_typed(interaction, Presenter.bot_levels), level_title, current)


async def computer_seats(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The computers of the game meant, as its card names them, matching what was typed."""
    choices = await _of_game_typed(interaction, Presenter.computer_choices)
    typed = current.casefold()
    return [app_commands.Choice(name=label[:100], value=label[:100]) for label in choices if typed in label.casefold()][
        :25
    ]


async def board_places(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The places of the game meant whose names start like what was typed."""
    typed = current.strip().casefold()
    places = await _of_game_typed(interaction, Presenter.places)
    return [app_commands.Choice(name=p, value=p) for p in places if p.casefold().startswith(typed)][:25]


@app_commands.guild_only()
class GameCog(ThinksFirst, commands.GroupCog, group_name="game", group_description="Create, join and follow games"):
    def __init__(self, bot: discord.Client, service: GameService):
        self.bot, self.service = bot, service
        self.presenter = service.presenter
        self.games, self.lookup, self.lobby = service.master.games, service.master.lookup, service.master.lobby
        self.play, self.game_history = service.master.play, service.master.history
        assert self.app_command is not None  # a GroupCog's commands are a group
        self.app_command.add_command(creation_group(self.presenter.cards(), self.open))

    async def open(self, interaction: discord.Interaction, ruleset: str, chosen: dict[str, Any]) -> None:
        """/game create <ruleset>: a lobby card with buttons in the channel, and the game's thread."""
        await self.interaction_check(interaction)  # the create menus are made per ruleset, outside the cog
        channel = game_channel(interaction.channel)  # a server's channel: the cog is guild-only
        game, new = await self.lobby.open_game(
            guild_id=channel.guild.id,
            channel_id=channel.id,
            actor=actor_of(interaction),
            ruleset=ruleset,
            chosen=chosen,
        )
        if not new:
            where = f"<#{game.row.thread_id}>" if game.row.thread_id else tr("its thread is being opened")
            text = tr("You opened game #{number} a moment ago: {where}.", number=game.id, where=where)
            await interaction.followup.send(text, ephemeral=True)
            return
        game, thread = await post_lobby(channel, game, self.service, actor_of(interaction), interaction.app_permissions)
        with using(await self.service.languages.of(game.row.guild_id)):  # the thread is public
            map_name = self.presenter.chosen_map(game)  # its name too, not in the creator's language
            if map_name is not None:
                preview = await self.presenter.map_preview(game)
                await thread.send(
                    tr("Map: **{map}** — the board this game starts on.", map=plain(map_name)),
                    file=png_file(preview, f"game-{game.id}-map.png"),
                )
        await interaction.followup.send(
            tr(
                "Game #{number} is open: {thread}. Others join with the **Join** button or `/game join game:{number}`.",
                number=game.id,
                thread=thread.mention,
            ),
            ephemeral=True,
        )

    @app_commands.command(name="join", description="Join a game that has not started yet")
    @app_commands.describe(game="Game number")
    async def join(self, interaction: discord.Interaction, game: OpenGame) -> None:
        joined = await self.lobby.join(game.id, actor_of(interaction))
        await interaction.followup.send(tr("You joined game #{number}.", number=game.id), ephemeral=True)
        await refresh_lobby(self.bot, joined)

    @app_commands.command(name="leave", description="Leave a game that has not started yet")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def leave(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        left = await self.lobby.leave(target.id, actor_of(interaction))
        await interaction.followup.send(tr("You left game #{number}.", number=target.id), ephemeral=True)
        await refresh_lobby(self.bot, left)

    @app_commands.command(name="add-ai", description="Fill a seat with a computer player")
    @app_commands.describe(
        level="How strong it plays (default: the strongest)", game="Game number (default: the game of this thread)"
    )
    @app_commands.autocomplete(level=computer_levels)
    async def add_ai(
        self, interaction: discord.Interaction, level: str | None = None, game: MyGame | None = None
    ) -> None:
        target = await game_meant(interaction, game)
        updated = await self.lobby.add_ai(target.id, actor_of(interaction), level)
        seated = updated.players[-1].shown_name
        text = tr("{player} joined game #{number}.", player=plain(seated), number=target.id)
        await interaction.followup.send(text, ephemeral=True)
        await refresh_lobby(self.bot, updated)

    @app_commands.command(name="remove-ai", description="Take back the computer player added last")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def remove_ai(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        updated = await self.lobby.remove_ai(target.id, actor_of(interaction))
        await interaction.followup.send(tr("A computer player left game #{number}.", number=target.id), ephemeral=True)
        await refresh_lobby(self.bot, updated)

    @app_commands.command(name="start", description="Start your game (creator or server manager)")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def start(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        started = await self.lobby.start_game(target.id, actor_of(interaction))
        await interaction.followup.send(tr("Game #{number} started.", number=target.id), ephemeral=True)
        await refresh_lobby(self.bot, started)

    @app_commands.command(name="list", description="Open games in this server")
    async def list(self, interaction: discord.Interaction) -> None:
        games = await self.lookup.list_games(interaction.guild_id or 0)
        if not games:
            await interaction.followup.send(tr("No open games here. Start one with `/game create`."), ephemeral=True)
            return
        lines = []
        for game in games[:25]:
            thread, channel = await seen_in(self.service, game, interaction.guild_id)  # its own thread here
            where = f"<#{thread or channel}>"
            state = tr("lobby") if game.row.status == LOBBY else self.presenter.turn_label(game).lower()
            players = ntr("{n} player", "{n} players", len(game.players))
            lines.append(f"**#{game.id}** {self.presenter.title(game)} — {state}, {players} — {where}")
        await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="info", description="Players, clock and state of a game")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def info(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        await interaction.followup.send(embed=game_embed(target, self.presenter), ephemeral=True)

    @app_commands.command(name="board", description="The current board (only you see the reply)")
    @app_commands.describe(
        game="Game number (default: the game of this thread)",
        text="True: the board in words instead of an image (as a screen reader reads it)",
        around="A place (as orders name it, e.g. G4): that part of the board, large enough to read on a phone",
    )
    @app_commands.autocomplete(around=board_places)
    async def board(
        self,
        interaction: discord.Interaction,
        game: MyGame | None = None,
        text: bool = False,
        around: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        target = await game_meant(interaction, game)
        heading = f"{self.presenter.title(target)}, {self.presenter.turn_label(target).lower()}"
        if around is not None and not text:  # in words, the whole board is said
            near = await self.presenter.close_up(target, around)
            file = png_file(near, f"game-{target.id}-close-up.png", heading)
            await interaction.followup.send(heading, file=file, ephemeral=True)
            return
        picture = await self.presenter.board(target)
        if text:
            await interaction.followup.send(f"{heading}\n{picture.description}"[:2000], ephemeral=True)
            return
        await interaction.followup.send(
            heading, file=png_file(picture, f"game-{target.id}-board.png", heading), ephemeral=True
        )

    async def _past_turn(
        self, interaction: discord.Interaction, turn: int | None, game: Game | None
    ) -> tuple[Game, PastTurn]:
        target = await game_meant(interaction, game)
        return target, await self.game_history.past_turn(target.id, turn)

    @app_commands.command(name="history", description="A past turn: its board and what happened")
    @app_commands.describe(**PAST_TURN_OPTIONS)
    async def history(
        self, interaction: discord.Interaction, turn: Turn | None = None, game: MyGame | None = None
    ) -> None:
        target, past = await self._past_turn(interaction, turn, game)
        picture = await self.presenter.board(target, seq=past.seq)
        heading, *changes = self.presenter.past_turn_lines(target, past)
        described = "\n".join([heading.strip("*"), *([tr("What changed:"), *changes] if changes else [])])
        await interaction.followup.send(
            "\n".join(self.presenter.past_turn_lines(target, past, shown=plain))[:2000],
            file=png_file(picture, f"game-{target.id}-{past.unit.replace(' ', '-')}-{past.number}.png", described),
            ephemeral=True,
        )

    @app_commands.command(name="orders", description="Everyone's orders of a resolved turn")
    @app_commands.describe(**PAST_TURN_OPTIONS)
    async def orders(
        self, interaction: discord.Interaction, turn: Turn | None = None, game: MyGame | None = None
    ) -> None:
        target, past = await self._past_turn(interaction, turn, game)
        lines = self.presenter.past_orders_lines(target, past, shown=plain)
        await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="replay", description="The game so far as an animation (only you see the reply)")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def replay(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        replay = await self.presenter.replay(target, interaction.filesize_limit)
        await interaction.followup.send(replay.text, file=upload_file(replay), ephemeral=True)

    @app_commands.command(name="take-seat", description="Play on in a computer's seat (if the game lets members)")
    @app_commands.describe(player="The computer whose seat you take", game="Game number (default: this thread's game)")
    @app_commands.autocomplete(player=computer_seats)
    async def take_seat(self, interaction: discord.Interaction, player: str, game: OpenGame | None = None) -> None:
        target = await game_meant(interaction, game)
        chosen = self.presenter.player_named(target, player)
        if chosen.seat is None or not chosen.is_ai:
            raise GameError(tr("that seat of game #{number} is no computer's to take over", number=target.id))
        await take_computer_seat(interaction, target.id, chosen.seat)

    @app_commands.command(name="surrender", description="Give up: you leave the game now")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def surrender(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        self.games.require_seat_in_game(target, actor_of(interaction))
        await interaction.followup.send(
            tr("Surrender {game}? You leave the game for good.", game=self.presenter.title(target)),
            view=surrender_view(target, interaction.user.id),
            ephemeral=True,
        )

    @app_commands.command(name="draw", description="Propose or accept a draw; it happens when every player agrees")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def draw(self, interaction: discord.Interaction, game: MyGame | None = None) -> None:
        target = await game_meant(interaction, game)
        updated = await self.play.propose_draw(target.id, actor_of(interaction))
        text = (
            tr("The game ended in a draw.")
            if updated.row.status != RUNNING
            else tr("You agreed to a draw; it happens when every player still in the game agrees.")
        )
        await interaction.followup.send(text, ephemeral=True)
