"""Start-up with many open games: the time from opening the database to the bot being ready to
connect (every open game's wake-up re-armed in the started scheduler, the start-up sweep done), and
the process's peak memory.

The database holds GAMES running games of every ruleset (copies of games played a few turns, with
their players, orders and history; their reminders fall evenly over the coming day, none overdue).
Each figure is taken in a fresh process that logs at INFO to a file, as a deployment does. The floor
is the least start-up must do, measured the same fresh-process way: open the file and read the
wake-ups of the coming window (the scheduler holds only those; see service/runtime.py). Not measured
here: discord.py's own caches (the gateway is not connected).

Usage: python bench/bench_startup.py [GAMES]        (default 50000)
Ends with ``RESULT startup games=… armed=… start_s=… floor_s=… ratio=… rss_mb=…``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.crowd import crowded_database  # noqa: E402
from engine import RULESETS  # noqa: E402
from service.db import Database  # noqa: E402
from service.runtime import ARM_AHEAD_SECONDS, GameService  # noqa: E402


class NoDiscord:
    """Start-up delivers nothing here: the outbox is empty."""

    async def deliver(self, announcement) -> None:
        raise AssertionError(f"nothing should be posted at start-up: {announcement}")


async def start_up(path: str) -> tuple[float, int]:
    started = time.perf_counter()
    service = await GameService.open(path, NoDiscord())
    await service.start()
    elapsed = time.perf_counter() - started
    armed = len(service.scheduler.scheduler.get_jobs()) - 1  # the sweep is a job too
    await service.close()
    assert armed > 0, "no game was re-armed"
    return elapsed, armed


async def floor(path: str) -> tuple[float, int]:
    started = time.perf_counter()
    db = await Database.open(path)
    async with db.reading() as conn:
        until = time.time() + ARM_AHEAD_SECONDS
        async with conn.execute(
            """SELECT id, deadline_at, reminder_at FROM games WHERE status = 'running' AND paused_at IS NULL
               AND (deadline_at <= ? OR reminder_at <= ?)""",
            (until, until),
        ) as cursor:
            rows = await cursor.fetchall()
    elapsed = time.perf_counter() - started
    await db.close()
    assert rows
    return elapsed, len(rows)


def measure(kind: str, path: str, log_file: str) -> None:
    """In a fresh process: one figure, printed as JSON."""
    logging.basicConfig(level=logging.INFO, filename=log_file, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    seconds, armed = asyncio.run(start_up(path) if kind == "start" else floor(path))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "armed": armed, "rss_mb": rss_mb}))


def fresh(kind: str, path: pathlib.Path, log_file: pathlib.Path) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--measure", kind, str(path), str(log_file)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    if sys.argv[1:2] == ["--measure"]:
        measure(*sys.argv[2:5])
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    with tempfile.TemporaryDirectory() as folder:
        path, log_file = pathlib.Path(folder) / "games.sqlite3", pathlib.Path(folder) / "bot.log"
        asyncio.run(crowded_database(path, games, wake_from=time.time(), rulesets=RULESETS, turns=5))
        runs = [(fresh("floor", path, log_file), fresh("start", path, log_file)) for _ in range(3)]
        log_lines = len(log_file.read_text().splitlines()) // len(runs)
    floor_s = min(f["seconds"] for f, _ in runs)
    start_s = min(s["seconds"] for _, s in runs)
    rss_mb = max(s["rss_mb"] for _, s in runs)
    print(f"{games} open games; best of {len(runs)} fresh processes each")
    armed = runs[0][1]["armed"]
    print(f"  floor (open + read the window's {runs[0][0]['armed']} wake-ups) {floor_s:7.3f} s")
    print(f"  start-up (arm {armed} jobs, start, sweep)   {start_s:7.3f} s  ({start_s / floor_s:.1f}x floor)")
    print(f"  peak RSS {rss_mb:.0f} MB; about {log_lines} log lines per start")
    print(
        f"RESULT startup games={games} armed={armed} start_s={start_s:.3f} floor_s={floor_s:.3f} "
        f"ratio={start_s / floor_s:.2f} rss_mb={rss_mb:.0f} log_lines={log_lines}"
    )


if __name__ == "__main__":
    main()
