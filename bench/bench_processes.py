"""The bot as one, two and four sharded processes on one PostgreSQL database, and as one process on SQLite.

Every layout runs ``python bot.py`` processes against the local fake Discord (in this process), the
same SHARD_COUNT=4 shards split among them (one process: all four), on a fresh database each: a
throwaway local PostgreSQL server with durable commits (tests/pgcluster.py), or a SQLite file. GAMES
two-player conquest games (small board), each in its own server, servers spread evenly over the
shards, are opened through the bot (create, join, start). Then for TURNS turns every player passes at
the same moment, and the second pass of a game resolves its turn and posts its round image.

Measured, like with like in one run:
- acknowledgement: from a player's `/orders pass` to the bot's first response, p99 over every pass;
- turns per second: GAMES x TURNS over the time from the first pass of the first turn to the last
  round image of the last turn.

The workers drawing images are two in all, as the machine's cores: one process gets WORKERS=2, the
others one each (a process cannot have fewer), so the sharded layouts have as many or more. On a
machine of two cores, processes only add work (each its own event loop, client and sweep) for the
same cores: what sharding buys here is Discord's limit of servers per shard and a process that can
die without stopping the others; more turns per second needs more machines.

Usage: python bench/bench_processes.py [--games 32] [--turns 3] [--quick]
Ends with ``RESULT processes sqlite_1_turns_per_s=… postgresql_1_turns_per_s=… postgresql_2_… …``.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import asyncpg  # noqa: E402

from bench.bench_discord import p99  # noqa: E402
from tests.e2e.conftest import button  # noqa: E402
from tests.fakediscord.harness import FakeDiscord  # noqa: E402
from tests.pgcluster import Cluster, bench_cluster  # noqa: E402

SHARDS = 4
GAME = {"size": "small", "max_players": 2, "turn_time": 86400}
WAIT_SECONDS = 300.0
LAYOUTS = (("sqlite", 1), ("postgresql", 1), ("postgresql", 2), ("postgresql", 4))


def shard_ids(processes: int) -> list[str]:
    """Each process's SHARD_IDS: the four shards split evenly (``0-1``, ``2-3``)."""
    per = SHARDS // processes
    return [f"{k * per}-{(k + 1) * per - 1}" if per > 1 else str(k) for k in range(processes)]


class Table:
    """One server, its two players and their game's thread."""

    def __init__(self, fake: FakeDiscord, number: int):
        self.guild = fake.add_guild(f"server {number}", shard=(number % SHARDS, SHARDS))
        self.alice, self.bob = fake.add_user(f"a{number}"), fake.add_user(f"b{number}")
        for user in (self.alice, self.bob):
            fake.add_member(self.guild, user)
        self.thread = None

    async def open(self, fake: FakeDiscord) -> None:
        channel = self.guild.channels[0]
        await fake.slash(self.alice, channel, "game create conquest", **GAME)
        lobby = next(m for m in fake.channel_messages(channel) if m.components)
        await fake.click(self.bob, lobby, button(lobby, "Join"))
        await fake.click(self.alice, lobby, button(lobby, "Start"))
        threads = {t.id for t in fake.threads(channel)}
        started = await fake.wait_for_message(
            lambda m: m.channel_id in threads and "has started" in m.content, WAIT_SECONDS
        )
        self.thread = fake.channel(started.channel_id)


async def passed(fake: FakeDiscord, user, thread) -> float:
    """Milliseconds from sending `/orders pass` to the bot's first response."""
    start = time.perf_counter()
    handle = await fake.slash(user, thread, "orders pass", settle=False)
    return (time.perf_counter() - start) * 1000 if handle.response_type is not None else float("inf")


async def all_posted(fake: FakeDiscord, threads: set[int], prefix: str) -> None:
    """Until every thread has its post starting with ``prefix``."""

    def count() -> int:
        return sum(m.channel_id in threads and m.content.startswith(prefix) for m in fake.world.messages.values())

    await fake.world.wait_until(lambda: count() == len(threads), WAIT_SECONDS, f"{prefix!r} posted in every game")


async def layout(store: str, processes: int, games: int, turns: int, cluster: Cluster, folder: pathlib.Path):
    """Turns per second and every pass's acknowledgement time, for one layout."""
    if store == "postgresql":
        name = f"bench_{processes}"
        conn = await asyncpg.connect(cluster.url("postgres"))
        await conn.execute(f"DROP DATABASE IF EXISTS {name}")
        await conn.execute(f"CREATE DATABASE {name}")
        await conn.close()
        database = {"DATABASE_URL": cluster.url(name)}
    else:
        database = {"DATABASE_PATH": str(folder / f"{store}_{processes}.sqlite3")}
    async with FakeDiscord(shards=SHARDS, max_concurrency=SHARDS, check_bodies=False) as fake:
        tables = [Table(fake, number) for number in range(games)]
        bots = [
            await fake.bot_process(
                database | {"SHARD_COUNT": str(SHARDS), "SHARD_IDS": ids, "WORKERS": "2" if processes == 1 else "1"},
                folder / f"{store}_{processes}_{k}.log",
            )
            for k, ids in enumerate(shard_ids(processes))
        ]
        try:
            await fake.wait_for_shards(*((k, SHARDS) for k in range(SHARDS)), timeout=WAIT_SECONDS)
            opening = asyncio.Semaphore(8)

            async def open_table(table: Table) -> None:
                async with opening:
                    await table.open(fake)

            await asyncio.gather(*(open_table(table) for table in tables))
            acks: list[float] = []
            start = time.perf_counter()
            for turn in range(1, turns + 1):
                sent = [passed(fake, user, t.thread) for t in tables for user in (t.alice, t.bob)]
                acks += await asyncio.gather(*sent)
                await all_posted(fake, {t.thread.id for t in tables}, f"**Round {turn}.")
            elapsed = time.perf_counter() - start
        finally:
            for bot in bots:
                bot.send_signal(signal.SIGTERM)
            await asyncio.gather(*(bot.wait() for bot in bots))
    return games * turns / elapsed, acks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="8 games, 2 turns")
    args = parser.parse_args()
    games, turns = (8, 2) if args.quick else (args.games, args.turns)
    results = {}
    with bench_cluster() as cluster, tempfile.TemporaryDirectory() as folder:
        for store, processes in LAYOUTS:
            results[store, processes] = asyncio.run(
                layout(store, processes, games, turns, cluster, pathlib.Path(folder))
            )
    print(f"{games} games (one per server, {SHARDS} shards) x {turns} turns; every player passes at once")
    print(f"{'layout':18s} {'turns/s':>8s} {'ack p50 ms':>11s} {'ack p99 ms':>11s} {'turns/s vs pg x1':>17s}")
    base = results["postgresql", 1][0]
    for (store, processes), (rate, acks) in results.items():
        label = f"{store} x{processes}"
        print(f"{label:18s} {rate:8.2f} {statistics.median(acks):11.0f} {p99(acks):11.0f} {rate / base:17.2f}")
    print(
        "RESULT processes "
        + " ".join(
            f"{store}_{processes}_turns_per_s={rate:.2f} {store}_{processes}_ack_p99_ms={p99(acks):.0f}"
            for (store, processes), (rate, acks) in results.items()
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
