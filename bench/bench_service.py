"""Game master figures on a real SQLite file.

1. Opening N running games with deadlines (create, join, start: N = 10,000 by default), then a
   restart: re-arming every deadline from the database into APScheduler.
2. Resolving many games' rounds concurrently: every game's last pass arrives at once.

Usage: python bench/bench_service.py [N] [CONCURRENT]
"""

from __future__ import annotations

import asyncio
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from service.clock import ManualClock  # noqa: E402
from service.models import Actor  # noqa: E402
from service.runtime import GameService  # noqa: E402


class NullSink:
    async def deliver(self, announcement) -> None:
        return None


async def open_games(service: GameService, count: int, first_user: int) -> list[int]:
    ids = []
    for i in range(count):
        a, b = Actor(first_user + 2 * i, "A"), Actor(first_user + 2 * i + 1, "B")
        game = await service.master.create_game(
            guild_id=1, channel_id=i // 20, actor=a, ruleset="conquest", options={"size": "small"}, seed=i
        )
        await service.master.join(game.id, b)
        await service.master.start_game(game.id, a)
        ids.append(game.id)
    return ids


async def main(count: int, concurrent: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    path = folder / "bench.sqlite3"
    clock = ManualClock()
    service = await GameService.open(path, NullSink(), clock=clock)
    start = time.perf_counter()
    ids = await open_games(service, count, 1)
    elapsed = time.perf_counter() - start
    print(f"opened {count} games with deadlines: {elapsed:.1f} s ({elapsed / count * 1000:.2f} ms per game)")
    await service.close()

    service = await GameService.open(path, NullSink(), clock=clock)
    start = time.perf_counter()
    wakeups = await service.master.open_wakeups()
    read = time.perf_counter() - start
    for game_id, at in wakeups:
        service.scheduler.arm(game_id, at)
    armed = time.perf_counter() - start
    print(f"re-armed {len(wakeups)} deadlines at start-up: {armed * 1000:.0f} ms (reading them {read * 1000:.0f} ms)")

    last = {}
    for game_id in ids[:concurrent]:
        first, second = (await service.master.get_game(game_id)).players
        await service.master.submit(game_id, Actor(first.user_id))
        last[game_id] = Actor(second.user_id)
    start = time.perf_counter()
    await asyncio.gather(*(service.master.submit(game_id, actor) for game_id, actor in last.items()))
    elapsed = time.perf_counter() - start
    print(
        f"resolved {len(last)} games' rounds concurrently: {elapsed:.2f} s "
        f"({elapsed / len(last) * 1000:.1f} ms per round)"
    )
    await service.close()


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    c = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    asyncio.run(main(n, c))
