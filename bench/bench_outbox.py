"""Draining an outbox backlog, as after a long Discord outage or a crash, on a real SQLite file.

For each backlog size N: N pending announcements spread over 40 games, behind 4·N delivered ones
(the table keeps every delivered row), drained through ``GameService`` to a sink that answers at
once, so the time measured is the outbox's own. Linear draining means the same time per post at
every size (the ratio of the largest to the smallest size near 1). Meanwhile a player's command
(reading a game) runs in a loop: its worst wait shows whether draining blocks commands. Start-up
returns before the backlog is drained (the bot connects meanwhile): its time is printed too.

The floor is the old head query (the oldest pending post of every game, one correlated subquery
per row) timed once on the same rows: the old drain ran it once per round of posts.

Usage: python bench/bench_outbox.py [SIZES...]      (default: 500 4000)
Ends with ``RESULT outbox n<size>_ms_per_post=… ratio=… max_command_wait_ms=… start_ms=…``.
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from service.clock import ManualClock  # noqa: E402
from service.models import Actor, Announcement  # noqa: E402
from service.runtime.gameservice import GameService  # noqa: E402

GAMES = 40
OLD_HEADS = """SELECT * FROM outbox AS o WHERE delivered_at IS NULL AND next_attempt <= ?
               AND id = (SELECT MIN(id) FROM outbox WHERE game_id = o.game_id AND delivered_at IS NULL)
               ORDER BY id LIMIT 200"""


class CountingSink:
    def __init__(self):
        self.posted = 0

    async def deliver(self, announcement: Announcement) -> None:
        await asyncio.sleep(0)  # a post is I/O: other work runs meanwhile
        self.posted += 1


async def backlog(service: GameService, pending: int) -> list[int]:
    clock = service.clock
    games = [
        (
            await service.master.lobby.create_game(
                guild_id=1, channel_id=i, actor=Actor(i + 1), ruleset="conquest", seed=i
            )
        ).id
        for i in range(GAMES)
    ]
    payload = json.dumps({"by": 1, "deadline_at": clock.now(), "note": "x" * 200})
    rows = [(games[i % GAMES], "extended", payload, clock.now(), clock.now()) for i in range(5 * pending)]
    async with service.db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO outbox (game_id, kind, payload, created_at, next_attempt) VALUES (?,?,?,?,?)", rows
        )
        await conn.execute(
            "UPDATE outbox SET delivered_at = created_at WHERE id <= (SELECT MAX(id) - ? FROM outbox)", (pending,)
        )
    return games


async def measure(size: int, folder: pathlib.Path) -> dict[str, float]:
    sink = CountingSink()
    service = await GameService.open(folder / f"outbox-{size}.sqlite3", sink, clock=ManualClock())
    try:
        games = await backlog(service, size)
        async with service.db.reading() as conn:
            start = time.perf_counter()
            await (await conn.execute(OLD_HEADS, (service.clock.now(),))).fetchall()
            old_query = time.perf_counter() - start
    finally:
        await service.close()

    service = await GameService.open(folder / f"outbox-{size}.sqlite3", sink, clock=ManualClock())
    waits: list[float] = []
    try:
        start = time.perf_counter()
        await service.start()
        started = time.perf_counter() - start
        while not service.recovery.done():
            asked = time.perf_counter()
            await service.master.games.get_game(games[len(waits) % GAMES])
            waits.append(time.perf_counter() - asked)
            await asyncio.sleep(0.001)
        drained = time.perf_counter() - start
        left = await service.outbox.pending_count()
    finally:
        await service.close()
    assert sink.posted == size and left == 0, (sink.posted, left)
    return {
        "ms_per_post": drained / size * 1000,
        "old_query_ms": old_query * 1000,
        "max_wait_ms": max(waits, default=0.0) * 1000,
        "median_wait_ms": statistics.median(waits or [0.0]) * 1000,
        "start_ms": started * 1000,
    }


async def main(sizes: list[int]) -> None:
    folder = pathlib.Path(tempfile.mkdtemp())
    figures = {size: await measure(size, folder) for size in sizes}
    print(f"backlog of pending posts over {GAMES} games, 4 delivered rows behind each pending one")
    print("  pending   drain ms/post   old head query ms   command wait ms (median / max)   start-up returns in ms")
    for size, f in figures.items():
        print(
            f"  {size:7d}   {f['ms_per_post']:13.3f}   {f['old_query_ms']:17.1f}   "
            f"{f['median_wait_ms']:10.2f} / {f['max_wait_ms']:6.2f}               {f['start_ms']:8.1f}"
        )
    smallest, largest = figures[min(sizes)], figures[max(sizes)]
    ratio = largest["ms_per_post"] / smallest["ms_per_post"]
    print(f"  per-post time at {max(sizes)} / at {min(sizes)}: {ratio:.2f} (1.0 is linear)")
    result = " ".join(f"n{size}_ms_per_post={f['ms_per_post']:.3f}" for size, f in figures.items())
    old = " ".join(f"n{size}_old_head_query_ms={f['old_query_ms']:.1f}" for size, f in figures.items())
    worst = max(f["max_wait_ms"] for f in figures.values())
    start = max(f["start_ms"] for f in figures.values())
    print(f"RESULT outbox {result} ratio={ratio:.2f} {old} max_command_wait_ms={worst:.1f} start_ms={start:.1f}")


if __name__ == "__main__":
    asyncio.run(main([int(arg) for arg in sys.argv[1:]] or [500, 4000]))
