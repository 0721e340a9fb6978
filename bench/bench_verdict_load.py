"""Commands while a map's fairness verdict is computed: "the verdict's computation never delays a
command (acknowledgement figures unchanged while a verdict is computed)".

PLAYERS players (two per conquest game, bench_discord's table) send `/orders replace` from their
games' threads at the same moment, through the local fake Discord and the real discord.py client.
Bursts alternate ROUNDS times between quiet (nothing else running) and measuring: a server map (the
largest shipped conquest map, uploaded as a server's) being measured as the sweep measures it,
``ServerMaps.measure_next`` (its lease, then seeded self-play games at the verdict's level, each in a
long worker process of its own below the bots' work), started before the burst and stopped after it.
Which goes first alternates, so that neither gets the quieter machine, after a first burst counted on
neither side (the bot's caches are cold for it). Measured per interaction: the
first response (the deferral Discord's 3-second rule is about) and the finished answer (the orders
confirmed); the p99 of each, measuring against quiet.

Left out: a crowded database (bench_discord measures the crowd's weight; here it would only add the
same to both sides), deadlines firing during a verdict (the scheduler's jobs share the same loop and
workers as these commands), and several maps measured at once (a process measures one at a time).

Usage: python bench/bench_verdict_load.py [--players 200] [--rounds 4]
Ends with ``RESULT verdict_load players=… ack_quiet_p99_ms=… ack_measuring_p99_ms=… ack_ratio=…
ack_median_ratio=… confirm_quiet_p99_ms=… confirm_measuring_p99_ms=… confirm_ratio=… confirm_median_ratio=…
verdict_games_played=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import pathlib
import statistics
import sys
import tempfile
from importlib import resources

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.bench_discord import BotSide, summary  # noqa: E402
from bench.stats import p99  # noqa: E402
from service.models import Actor  # noqa: E402
from tests.fakediscord.harness import FakeDiscord  # noqa: E402

VERDICT_GAMES = 10_000  # more than any burst outlasts: the verdict is still being computed when it ends
WARM_UP_SECONDS = 2.0  # for the verdict's worker process to start and play


async def measuring(bot: BotSide) -> asyncio.Task:
    """The verdict of the server's map being computed, as the sweep computes it, its first game begun."""
    task = asyncio.create_task(bot.bot.service.master.maps.measure_next())
    await asyncio.sleep(WARM_UP_SECONDS)
    return task


def games_played(bot: BotSide) -> int:
    """Self-play games the bot's workers finished (as /metrics counts them)."""
    return sum(
        int(sample.value)
        for metric in bot.bot.service.pool.jobs.collect()
        for sample in metric.samples
        if sample.name.endswith("_count") and sample.labels.get("job") == "self_play"
    )


async def main(players: int, rounds: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    quiet: list[tuple[float, float]] = []
    loaded: list[tuple[float, float]] = []
    async with FakeDiscord(check_bodies=False) as fake:
        bot = BotSide(fake, players, folder / "bench.sqlite3")
        await fake.start_bot(bot.bot)
        await bot.seat_players()
        maps = bot.bot.service.master.maps
        maps.verdict_games = VERDICT_GAMES
        largest = (resources.files("engine.conquest") / "maps" / "crown.json").read_bytes()
        await maps.upload(bot.guild.id, Actor(bot.users[0].id, "p0"), "conquest", largest, "Big crown")
        await bot.orders_burst()  # the first of all meets cold caches: counted on neither side
        for burst in range(rounds):
            for measured in (burst % 2 == 0, burst % 2 == 1):
                if not measured:
                    quiet += await bot.orders_burst()
                    continue
                task = await measuring(bot)
                assert bot.bot.service.pool.jobs.in_hand, "no verdict game is being played"
                loaded += await bot.orders_burst()
                assert not task.done() and bot.bot.service.pool.jobs.in_hand, "the verdict ended before the burst"
                task.cancel()  # its game in hand stops with its process (CpuPool.run_long)
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        played = games_played(bot)
        await fake.stop_bot(bot.bot)
    ratios = {}
    print(f"{players} players at once, {rounds} bursts quiet and {rounds} while a verdict is computed")
    for label, index in (("first response", 0), ("finished answer", 1)):
        calm, busy = [s[index] for s in quiet], [s[index] for s in loaded]
        print(summary(f"  {label}, quiet          ", calm))
        print(summary(f"  {label}, verdict running", busy))
        ratios[index] = (p99(calm), p99(busy), p99(busy) / p99(calm), statistics.median(busy) / statistics.median(calm))
        print(f"  p99 {ratios[index][2]:.2f}x quiet, median {ratios[index][3]:.2f}x (goal: unchanged, about 1x)")
    (ack_q, ack_m, ack_r, ack_median), (conf_q, conf_m, conf_r, conf_median) = ratios[0], ratios[1]
    print(
        f"RESULT verdict_load players={players} ack_quiet_p99_ms={ack_q:.0f} ack_measuring_p99_ms={ack_m:.0f} "
        f"ack_ratio={ack_r:.2f} ack_median_ratio={ack_median:.2f} confirm_quiet_p99_ms={conf_q:.0f} "
        f"confirm_measuring_p99_ms={conf_m:.0f} confirm_ratio={conf_r:.2f} confirm_median_ratio={conf_median:.2f} "
        f"verdict_games_played={played}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(main(args.players, args.rounds))
