"""The same game master workload on the SQLite store and on the PostgreSQL store, in one process.

GAMES two-player conquest games play TURNS turns side by side: in each turn both players pass with
their orders (a computer's choice), and the second pass resolves the turn. Computer players and
images are left out (the planning runs in this process, the same on both stores), so what differs
is the store. PostgreSQL is a throwaway local server on a unix socket (tests/pgcluster.py), made with
durable commits (fsync on), as a real server would be; SQLite uses its usual settings.

Usage: python bench/bench_stores.py [GAMES] [TURNS]      (default: 20 6)
Ends with ``RESULT stores sqlite_turns_per_s=… postgresql_turns_per_s=… sqlite_pass_p99_ms=…
postgresql_pass_p99_ms=…``.
"""

from __future__ import annotations

import asyncio
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import asyncpg  # noqa: E402

from bench.stats import p99  # noqa: E402
from engine import find_ruleset  # noqa: E402
from service import GameMaster  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.models import Actor  # noqa: E402
from service.storage.store import Location, open_store  # noqa: E402
from tests.pgcluster import Cluster, bench_cluster  # noqa: E402

RS = find_ruleset("conquest")
ALICE, BOB = Actor(1, "Alice"), Actor(2, "Bob")


async def play(location: Location, games: int, turns: int) -> tuple[float, list[float]]:
    """Turns resolved per second, and the time of every pass in milliseconds."""
    db = await open_store(location)
    await db.migrate()
    master = GameMaster(db, ManualClock())
    ids = []
    for number in range(games):
        game = await master.lobby.create_game(
            guild_id=1, channel_id=number, actor=ALICE, ruleset="conquest", options={"size": "small"}, seed=number
        )
        await master.lobby.join(game.id, BOB)
        ids.append((await master.lobby.start_game(game.id, ALICE)).id)
    passes: list[float] = []

    async def one_game(game_id: int) -> None:
        for turn in range(turns):
            for actor in (ALICE, BOB):
                game = await master.games.get_game(game_id)
                seat = game.player_of(actor.user_id).seat
                text = RS.format_orders(RS.ai_orders(game.state, seat, f"bench:{turn}:{seat}"))
                start = time.perf_counter()
                await master.play.submit(game_id, actor, text, expected_turn=turn)
                passes.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(one_game(game_id) for game_id in ids))
    elapsed = time.perf_counter() - start
    await db.close()
    return games * turns / elapsed, passes


async def postgresql_database(cluster: Cluster) -> str:
    conn = await asyncpg.connect(cluster.url("postgres"))
    await conn.execute("CREATE DATABASE bench")
    await conn.close()
    return cluster.url("bench")


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    turns = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    with bench_cluster() as cluster, tempfile.TemporaryDirectory() as folder:
        stores = {
            "sqlite": pathlib.Path(folder) / "bench.sqlite3",
            "postgresql": asyncio.run(postgresql_database(cluster)),
        }
        results = {name: asyncio.run(play(location, games, turns)) for name, location in stores.items()}
    print(f"{games} games x {turns} turns, played side by side in one process")
    print(f"{'store':12s} {'turns/s':>8s} {'pass p50 ms':>12s} {'pass p99 ms':>12s}")
    for name, (rate, passes) in results.items():
        print(f"{name:12s} {rate:8.1f} {statistics.median(passes):12.1f} {p99(passes):12.1f}")
    print(
        "RESULT stores "
        + " ".join(f"{name}_turns_per_s={rate:.1f}" for name, (rate, _) in results.items())
        + " "
        + " ".join(f"{name}_pass_p99_ms={p99(passes):.1f}" for name, (_, passes) in results.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
