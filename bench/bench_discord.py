"""The bot as players feel it, through the local fake Discord.

1. Acknowledgement latency of order submissions: 200 simulated players (100 two-player conquest
   games) each send `/orders give` at the same moment; p50 and p99 from sending the interaction to
   receiving the bot's answer. Beside it, the floor: an echo bot answering `/echo say` on the same fake.
2. Deadline to image: the time from a round's deadline (the sweep noticing it) to the round's board
   image arriving in the game's thread.

Usage: python bench/bench_discord.py [PLAYERS]
"""

from __future__ import annotations

import asyncio
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cogs.client import GameBot  # noqa: E402
from cogs.config import Config  # noqa: E402
from engine import find_ruleset  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.models import Actor, TimeSettings  # noqa: E402
from tests.fakediscord.echo import make_echo_bot  # noqa: E402
from tests.fakediscord.harness import FakeDiscord  # noqa: E402

RS = find_ruleset("conquest")


async def timed(action) -> float:
    start = time.perf_counter()
    handle = await action
    assert handle.response_type is not None, handle
    return (time.perf_counter() - start) * 1000


def summary(label: str, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{label}: p50 {statistics.median(ordered):.0f} ms, p99 {p99:.0f} ms, max {ordered[-1]:.0f} ms"


def populate(fake: FakeDiscord, players: int):
    """One server with ``players`` members."""
    guild = fake.add_guild()
    users = [fake.add_user(f"p{i}") for i in range(players)]
    for user in users:
        fake.add_member(guild, user)
    return guild, users


async def echo_floor(players: int) -> list[float]:
    async with FakeDiscord() as fake:
        guild, users = populate(fake, players)
        bot = make_echo_bot()
        await fake.start_bot(bot)
        latencies = await asyncio.gather(
            *(timed(fake.slash(u, guild.channels[0], "echo say", text="C4>C5 3")) for u in users)
        )
        await fake.stop_bot(bot)
    return list(latencies)


async def game_bot(players: int) -> tuple[list[float], float, float]:
    folder = pathlib.Path(tempfile.mkdtemp())
    async with FakeDiscord() as fake:
        guild, users = populate(fake, players)
        clock = ManualClock()
        bot = GameBot(
            Config(token=fake.token, database=folder / "bench.sqlite3", api_base=fake.api_base),
            service_options={"clock": clock, "sweep_seconds": 3600},
            guild_ready_timeout=0.1,
        )
        await fake.start_bot(bot)
        channels = [fake.add_text_channel(guild, f"games-{n}") for n in range(players // 40 + 1)]
        orders = {}
        for i in range(0, players, 2):
            channel = channels[i // 40]
            a, b = Actor(users[i].id, users[i].name), Actor(users[i + 1].id, users[i + 1].name)
            game = await bot.service.master.create_game(
                guild_id=guild.id,
                channel_id=channel.id,
                actor=a,
                ruleset="conquest",
                options={"size": "small"},
                time=TimeSettings(round_seconds=3600),
                seed=i,
            )
            await bot.service.master.join(game.id, b)
            game = await bot.service.master.start_game(game.id, a)
            state = RS.from_dict(game.row.state)
            for user, actor in ((users[i], a), (users[i + 1], b)):
                seat = game.player_of(actor.user_id).seat
                orders[user.id] = (channel, game.id, RS.format_orders(RS.ai_orders(state, seat, 1)))
        await bot.service.sweep()
        latencies = await asyncio.gather(
            *(
                timed(fake.slash(u, orders[u.id][0], "orders give", text=orders[u.id][2], game=orders[u.id][1]))
                for u in users
            )
        )
        clock.advance(3600)
        start = time.perf_counter()
        sweep = asyncio.create_task(bot.service.sweep())
        await fake.wait_for_message(lambda m: bool(m.attachments) and m.content.startswith("**Round 1."), timeout=120)
        first_image = (time.perf_counter() - start) * 1000
        await sweep
        all_images = (time.perf_counter() - start) * 1000
        await fake.stop_bot(bot)
    return list(latencies), first_image, all_images


async def main(players: int) -> None:
    floor = await echo_floor(players)
    latencies, first_image, all_images = await game_bot(players)
    print(summary(f"/orders give, {players} players at once", latencies))
    print(summary(f"floor: /echo say, {players} users at once", floor))
    print(
        f"deadline -> first round image posted: {first_image:.0f} ms; "
        f"all {players // 2} games' rounds resolved and posted: {all_images:.0f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
