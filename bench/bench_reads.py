"""Reads players wait for, beside other players' reads, on a SQLite file holding thousands of open games.

The database: ``--games`` running games (default 10,000) of every ruleset with ``--turns`` turns of
history each, copied from really played ones (``bench.crowd``), a host seated in ``--mine`` of them
(default 200), and ``--finished`` finished rated games (default 1,000) whose ratings a leaderboard shows.
Through the game master's own operations, in one run:
- ``read_quiet``: a game read (``games.get_game`` of a random game: the read every command makes
  first), alone: the floor;
- ``read_wait``: the same reads while ``--storm`` other players keep asking for ``/leaderboard`` and
  ``/mygames`` (the host's open games) without pause;
- ``mygames``: the storm's own ``/mygames`` reads, every game of the host as the command reads them
  (each running game's glance, no state parsed).

Figures are wall times of the awaited call (the event loop included, as the interaction handler
waits). Ends with ``RESULT reads games=… mine=… read_quiet_p99_ms=… read_wait_p99_ms=… ratio=…
mygames_p99_ms=… leaderboard_p99_ms=…``; the goals: ``read_wait_p99_ms`` ≤ 20 and ``mygames_p99_ms``
≤ 100 with 10,000 games.

What it leaves out: Discord (deferral, reply, the text and image built for it: ``bench_discord``),
writes (turns committed meanwhile), PostgreSQL (``bench_stores``), and a cold page cache (the file is
read once while the database is made, so the operating system holds it).

Usage: python bench/bench_reads.py [--games N] [--turns N] [--mine N] [--finished N] [--storm N] [--reads N]
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.crowd import DAY, HOST, crowded_database  # noqa: E402
from bench.stats import p99  # noqa: E402
from engine import RULESETS  # noqa: E402
from service import GameMaster  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.storage.sqlite import Database  # noqa: E402

MEMBER = 7  # the host's seats beyond ``--mine`` go to other members


async def seat_the_host(db: Database, mine: int, finished: int) -> list[int]:
    """The host keeps ``mine`` open games; ``finished`` others end, rated, his among them."""
    async with db.transaction() as conn:
        ids = [row[0] for row in await (await conn.execute("SELECT id FROM games ORDER BY id")).fetchall()]
        kept = ids[:mine]
        await conn.execute(
            f"UPDATE players SET user_id = ? WHERE user_id = ? AND game_id NOT IN ({','.join('?' * len(kept))})",
            (MEMBER, HOST.user_id, *kept),
        )
        ended = ids[mine : mine + finished]
        await conn.execute(
            f"""UPDATE games SET status = 'finished', result = '{{"ranking": [[0], [1]], "winners": [0]}}'
                WHERE id IN ({",".join("?" * len(ended))})""",
            ended,
        )
    return ids


async def timed(call) -> float:
    started = time.perf_counter()
    await call
    return (time.perf_counter() - started) * 1000


async def reads(master: GameMaster, ids: list[int], count: int, rng: random.Random) -> list[float]:
    return [await timed(master.games.get_game(rng.choice(ids))) for _ in range(count)]


async def storm(master: GameMaster, stop: asyncio.Event, mygames: list[float], boards: list[float]) -> None:
    """One player after another asking for the leaderboard and his games, until told to stop."""
    while not stop.is_set():
        boards.append(await timed(master.ratings.leaderboard("conquest")))
        mygames.append(await timed(master.lookup.games_of(HOST.user_id, parse=False)))


async def measure(path: pathlib.Path, args: argparse.Namespace) -> str:
    db = await Database.open(path)
    master = GameMaster(db, ManualClock(time.time()))
    ids = await seat_the_host(db, args.mine, args.finished)
    print(f"rated {await master.ratings.catch_up_ratings()} finished games", flush=True)
    rng = random.Random(1)
    await reads(master, ids, 50, rng)  # warm-up
    quiet = await reads(master, ids, args.reads, rng)
    stop, mygames, boards = asyncio.Event(), [], []
    storms = [asyncio.create_task(storm(master, stop, mygames, boards)) for _ in range(args.storm)]
    await asyncio.sleep(0.2)  # the storm under way
    waited = await reads(master, ids, args.reads, rng)
    stop.set()
    await asyncio.gather(*storms)
    await db.close()
    figures = {
        "read_quiet_p99_ms": p99(quiet),
        "read_wait_p99_ms": p99(waited),
        "mygames_p99_ms": p99(mygames),
        "leaderboard_p99_ms": p99(boards),
    }
    print(
        f"game read alone p50 {statistics.median(quiet):.2f} ms, p99 {figures['read_quiet_p99_ms']:.2f} ms; "
        f"during the storm p50 {statistics.median(waited):.2f} ms, p99 {figures['read_wait_p99_ms']:.2f} ms\n"
        f"/mygames ({args.mine} games) p50 {statistics.median(mygames):.1f} ms, p99 {figures['mygames_p99_ms']:.1f} ms "
        f"over {len(mygames)} calls; /leaderboard p99 {figures['leaderboard_p99_ms']:.1f} ms over {len(boards)} calls"
    )
    ratio = figures["read_wait_p99_ms"] / figures["read_quiet_p99_ms"]
    shown = " ".join(f"{key}={value:.2f}" for key, value in figures.items())
    return f"RESULT reads games={args.games} mine={args.mine} {shown} ratio={ratio:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--mine", type=int, default=200)
    parser.add_argument("--finished", type=int, default=1_000)
    parser.add_argument("--storm", type=int, default=8)
    parser.add_argument("--reads", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "games.sqlite3"
        started = time.perf_counter()
        asyncio.run(
            crowded_database(
                path, args.games, wake_from=time.time() + 2 * DAY, rulesets=tuple(RULESETS), turns=args.turns
            )
        )
        print(
            f"{args.games} games with {args.turns} turns each made in {time.perf_counter() - started:.0f} s", flush=True
        )
        print(asyncio.run(measure(path, args)))


if __name__ == "__main__":
    main()
