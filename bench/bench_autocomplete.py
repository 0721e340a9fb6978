"""Order suggestions as a player waits for them: autocomplete of `/orders give text:` on the busiest
board, many players typing at once, through the local fake Discord and the real discord.py client.

Board: conquest's large map with six players (one human, five computers at the weakest level, which
thinks least), played ``--rounds`` rounds so every player holds many cells. PLAYERS players, each in
his own such game, ask for suggestions at the same moment, each having typed a cell's first letter
(what a phone player does first); measured: from sending the request to the choices coming back.
The floor: the same bot answering an autocomplete of a command whose suggestions are a fixed list
(added to its tree for the bench: same process, discord.py client, fake and wire), for as many
players at once. Bursts alternate ``--bursts`` times, the floor first in every other one, and the
pooled samples are compared.

Leaves out: Discord's own round trip to the player's phone, and a database crowded with other games
(the suggestions read the game from the state cache the bot keeps; ``bench_discord`` and
``bench_reads`` measure reads on a crowded database).

Usage: python bench/bench_autocomplete.py [--players 50] [--rounds 20] [--bursts 4]
Ends with ``RESULT autocomplete players=… autocomplete_p99_ms=… floor_p99_ms=… ratio=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import statistics
import sys
import tempfile
import time

import discord
from discord import app_commands

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.stats import p99  # noqa: E402
from cogs.client import GameBot  # noqa: E402
from cogs.config import Config  # noqa: E402
from engine import find_ruleset  # noqa: E402
from service.models import Actor  # noqa: E402
from tests.fakediscord.harness import FakeDiscord  # noqa: E402

RS = find_ruleset("conquest")
GOAL_MS = 30


def fixed_suggestions() -> app_commands.Group:
    """The floor: an autocomplete that answers a fixed list at once."""
    group = app_commands.Group(name="typing", description="Suggests fixed words")

    async def words(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"{current}{n}", value=f"{current}{n}") for n in range(25)]

    @group.command(name="say", description="Says a word")
    @app_commands.autocomplete(text=words)
    async def say(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    return group


async def busy_games(bot: GameBot, channels, users, rounds: int) -> dict[int, tuple[int, str]]:
    """A six-player game on the large map for each user, ``rounds`` rounds in; per user: his game and
    the first letter of one of his cells."""
    master, level = bot.service.master, RS.bot_levels[0].name
    typed = {}
    for n, user in enumerate(users):
        actor, channel = Actor(user.id, user.name), channels[n // 25]
        game = await master.lobby.create_game(
            guild_id=channel.guild_id,
            channel_id=channel.id,
            actor=actor,
            ruleset="conquest",
            options={"size": "large"},
            seed=user.id,
        )
        for _ in range(5):
            await master.lobby.add_ai(game.id, actor, level)
        game = await master.lobby.start_game(game.id, actor)
        for _ in range(rounds):
            seat = game.player_of(user.id).seat
            if game.row.status != "running" or seat not in game.acting_seats:
                break
            orders = RS.format_orders(RS.ai_orders(game.state, seat, f"bench:{game.row.turn}", level=level))
            game = await master.play.submit(game.id, actor, orders)
        cells = RS.from_dict(game.row.state).cells_of(game.player_of(user.id).seat)
        typed[user.id] = (game.id, cells[0].label[0] if cells else "")
    return typed


async def burst(fake: FakeDiscord, channel, users, ask) -> list[float]:
    async def timed(user) -> float:
        start = time.perf_counter()
        choices = await ask(user)
        if not choices:
            raise RuntimeError("an autocomplete offered nothing: the bench would time an empty answer")
        return (time.perf_counter() - start) * 1000

    return list(await asyncio.gather(*(timed(user) for user in users)))


async def main(players: int, rounds: int, bursts: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    async with FakeDiscord(check_bodies=False) as fake:
        guild = fake.add_guild()
        channel = fake.add_text_channel(guild, "games")
        other = fake.add_text_channel(guild, "more-games")  # a channel holds at most 25 open games
        users = [fake.add_user(f"p{i}") for i in range(players)]
        for user in users:
            fake.add_member(guild, user)
        bot = GameBot(
            Config(token=fake.token, database=folder / "bench.sqlite3", api_base=fake.api_base),
            guild_ready_timeout=0.1,
        )
        bot.tree.add_command(fixed_suggestions())
        await fake.start_bot(bot)
        typed = await busy_games(bot, (channel, other), users, rounds)

        async def suggestions(user):
            game_id, letter = typed[user.id]
            return await fake.autocomplete(user, channel, "orders give", focused="text", value=letter, game=game_id)

        async def fixed(user):
            return await fake.autocomplete(user, channel, "typing say", focused="text", value="a")

        samples: list[float] = []
        floor: list[float] = []
        for k in range(bursts):
            if k % 2 == 0:
                floor += await burst(fake, channel, users, fixed)
            samples += await burst(fake, channel, users, suggestions)
            if k % 2 == 1:
                floor += await burst(fake, channel, users, fixed)
        await fake.stop_bot(bot)
    ratio = p99(samples) / p99(floor)
    print(f"{players} players at once, each on a six-player large conquest board {rounds} rounds in, {bursts} bursts")
    print(f"  /orders give suggestions: p50 {statistics.median(samples):.1f} ms, p99 {p99(samples):.1f} ms")
    print(f"  floor, fixed suggestions: p50 {statistics.median(floor):.1f} ms, p99 {p99(floor):.1f} ms")
    print(f"  ratio {ratio:.2f}; goal: p99 at most {GOAL_MS} ms")
    print(
        f"RESULT autocomplete players={players} autocomplete_p99_ms={p99(samples):.1f} "
        f"floor_p99_ms={p99(floor):.1f} ratio={ratio:.2f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50, help="at most 50")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--bursts", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(main(args.players, args.rounds, args.bursts))
