"""/game: create a game in its own thread, join, start, follow it, surrender or agree a draw."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from cogs.board import board_file
from cogs.common import actor_of, find_game, game_choices, game_title
from cogs.embeds import game_embed
from cogs.lobby import lobby_view, refresh_lobby
from engine import RULESETS
from engine.fortress import MODES
from service import GameMaster
from service.errors import GameError
from service.models import LOBBY, RUNNING, TimeSettings

TURN_TIMES = [
    ("10 minutes", 600),
    ("1 hour", 3600),
    ("6 hours", 21600),
    ("12 hours", 43200),
    ("1 day", 86400),
    ("2 days", 172800),
    ("3 days", 259200),
    ("7 days", 604800),
]
CLOCKS = [
    ("deadline per turn", "round"),
    ("time bank per player", "bank"),
    ("time bank + turn time added per turn", "increment"),
    ("no time limit", "none"),
]
BANKS = [("1 hour", 3600), ("1 day", 86400), ("3 days", 259200), ("7 days", 604800), ("14 days", 1209600)]


@app_commands.guild_only()
class GameCog(commands.GroupCog, group_name="game", group_description="Create, join and follow games"):
    def __init__(self, bot: commands.Bot, master: GameMaster):
        self.bot, self.master = bot, master

    @app_commands.command(name="create", description="Open a new game in this channel; it gets its own thread")
    @app_commands.describe(
        ruleset="Which game to play",
        map="A shipped map (default: a generated symmetric map)",
        size="Size of a generated map",
        max_players="Most players who may join",
        turn_time="Time for each turn (or added per turn with a bank + increment clock)",
        clock="How turns are timed",
        bank="Each player's time bank, for the bank clocks",
        missed_turns="Missed turns in a row that remove a player (default 3)",
        round_limit="End after this many rounds (0: play until one is left)",
        start_units="Conquest: units on each start cell",
        mode="Fortress: 1 plain field, 2 with water and mountains, 3 with generals",
        moves="Fortress: moves each player makes",
    )
    @app_commands.choices(
        ruleset=[app_commands.Choice(name=rs.title, value=name) for name, rs in sorted(RULESETS.items())],
        size=[app_commands.Choice(name=s, value=s) for s in ("small", "medium", "large")],
        mode=[app_commands.Choice(name=f"{n}: {title}", value=n) for n, title in MODES.items()],
        turn_time=[app_commands.Choice(name=n, value=v) for n, v in TURN_TIMES],
        clock=[app_commands.Choice(name=n, value=v) for n, v in CLOCKS],
        bank=[app_commands.Choice(name=n, value=v) for n, v in BANKS],
    )
    async def create(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        map: str | None = None,
        size: str | None = None,
        max_players: app_commands.Range[int, 2, 6] | None = None,
        turn_time: int = 86400,
        clock: str = "round",
        bank: int = 259200,
        missed_turns: app_commands.Range[int, 1, 20] = 3,
        round_limit: app_commands.Range[int, 0, 1000] | None = None,
        start_units: app_commands.Range[int, 1, 100] | None = None,
        mode: int | None = None,
        moves: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        given = {
            "map": map,
            "size": size,
            "round_limit": round_limit,
            "start_units": start_units,
            "mode": mode,
            "moves": moves,
        }
        options = {k: v for k, v in given.items() if v is not None}
        rs = RULESETS[ruleset]
        known = {o.name for o in rs.options_schema()}
        for name in options:
            if name not in known:
                raise GameError(f"{name} does not apply to {rs.title}")
        time = TimeSettings(
            mode=clock,
            round_seconds=turn_time,
            bank_seconds=bank,
            increment_seconds=turn_time,
            reminder_seconds=min(3600, turn_time // 4),
            missed_limit=missed_turns,
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.master.create_game(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            actor=actor_of(interaction),
            ruleset=ruleset,
            options=options,
            time=time,
            max_players=min(max_players or rs.max_players, rs.max_players),
        )
        try:
            message = await interaction.channel.send(
                embed=game_embed(game, game_title(game, self.master)), view=lobby_view(game)
            )
            thread = await message.create_thread(name=game_title(game, self.master), auto_archive_duration=10080)
        except discord.HTTPException as err:  # no permission, or a channel without threads: leave nothing behind
            await self.master.cancel(game.id, actor_of(interaction))
            raise GameError(
                "I could not open the game's lobby and thread here (I need Send Messages and Create Public "
                f"Threads in a text channel): {err.text or err}"
            ) from None
        game = await self.master.attach_thread(game.id, thread_id=thread.id, lobby_message_id=message.id)
        await interaction.followup.send(
            f"Game #{game.id} is open: {thread.mention}. Others join with the "
            f"**Join** button or `/game join game:{game.id}`.",
            ephemeral=True,
        )

    @app_commands.command(name="join", description="Join a game that has not started yet")
    @app_commands.describe(game="Game number")
    async def join(self, interaction: discord.Interaction, game: int) -> None:
        target = await find_game(self.master, interaction, game)
        joined = await self.master.join(target.id, actor_of(interaction))
        await interaction.response.send_message(f"You joined game #{game}.", ephemeral=True)
        await refresh_lobby(self.bot, self.master, joined)

    @app_commands.command(name="leave", description="Leave a game that has not started yet")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        left = await self.master.leave(target.id, actor_of(interaction))
        await interaction.response.send_message(f"You left game #{target.id}.", ephemeral=True)
        await refresh_lobby(self.bot, self.master, left)

    @app_commands.command(name="add-ai", description="Fill a seat with a computer player")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def add_ai(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        updated = await self.master.add_ai(target.id, actor_of(interaction))
        await interaction.response.send_message(f"A computer player joined game #{target.id}.", ephemeral=True)
        await refresh_lobby(self.bot, self.master, updated)

    @app_commands.command(name="remove-ai", description="Take back the computer player added last")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def remove_ai(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        updated = await self.master.remove_ai(target.id, actor_of(interaction))
        await interaction.response.send_message(f"A computer player left game #{target.id}.", ephemeral=True)
        await refresh_lobby(self.bot, self.master, updated)

    @app_commands.command(name="start", description="Start your game (creator or server manager)")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        started = await self.master.start_game(target.id, actor_of(interaction))
        await interaction.response.send_message(f"Game #{target.id} started.", ephemeral=True)
        await refresh_lobby(self.bot, self.master, started)

    @app_commands.command(name="list", description="Open games in this server")
    async def list(self, interaction: discord.Interaction) -> None:
        games = await self.master.list_games(interaction.guild_id or 0)
        if not games:
            await interaction.response.send_message(
                "No open games here. Start one with `/game create`.", ephemeral=True
            )
            return
        lines = []
        for game in games[:25]:
            where = f"<#{game.row.thread_id}>" if game.row.thread_id else f"<#{game.row.channel_id}>"
            state = "lobby" if game.row.status == LOBBY else f"round {game.row.turn + 1}"
            lines.append(
                f"**#{game.id}** {game_title(game, self.master)} — {state}, {len(game.players)} players — {where}"
            )
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="info", description="Players, clock and state of a game")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def info(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        out = self.master.departed_seats(target)
        await interaction.response.send_message(
            embed=game_embed(target, game_title(target, self.master), out_seats=out), ephemeral=True
        )

    @app_commands.command(name="board", description="The current board (only you see the reply)")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        if target.row.status == LOBBY or target.row.state is None:
            raise GameError(f"game #{target.id} has not started yet")
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await asyncio.to_thread(board_file, self.master, target, target.row.state)
        await interaction.followup.send(
            f"{game_title(target, self.master)}, round {target.row.turn + 1}", file=file, ephemeral=True
        )

    @app_commands.command(name="surrender", description="Give up: you leave the game now")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def surrender(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        await self.master.surrender(target.id, actor_of(interaction))
        await interaction.response.send_message(f"You surrendered game #{target.id}.", ephemeral=True)

    @app_commands.command(name="draw", description="Propose or accept a draw; it happens when every player agrees")
    @app_commands.describe(game="Game number (default: the game of this thread)")
    async def draw(self, interaction: discord.Interaction, game: int | None = None) -> None:
        target = await find_game(self.master, interaction, game)
        updated = await self.master.propose_draw(target.id, actor_of(interaction))
        text = (
            "The game ended in a draw."
            if updated.row.status != RUNNING
            else "You agreed to a draw; it happens when every player still in the game agrees."
        )
        await interaction.response.send_message(text, ephemeral=True)

    @leave.autocomplete("game")
    @board.autocomplete("game")
    @surrender.autocomplete("game")
    @draw.autocomplete("game")
    @add_ai.autocomplete("game")
    @remove_ai.autocomplete("game")
    @start.autocomplete("game")
    @info.autocomplete("game")
    async def _my_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await game_choices(self.master, interaction, current)

    @join.autocomplete("game")
    async def _open_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await game_choices(self.master, interaction, current, mine_only=False)

    @create.autocomplete("map")
    async def _maps(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        ruleset = RULESETS.get(getattr(interaction.namespace, "ruleset", None) or "", None)
        names = set()
        for rs in [ruleset] if ruleset else RULESETS.values():
            for option in rs.options_schema():
                if option.kind == "map":
                    names.update(option.choices)
        return [app_commands.Choice(name=n, value=n) for n in sorted(names) if current.lower() in n][:25]
