"""The web site under many visitors at once, on a SQLite file holding thousands of games.

The database: ``--games`` running games (default 10,000) of every ruleset with ``--turns`` turns of
history each, copied from really played ones (``bench.crowd``). The site runs in a process of its
own, as ``bot.py web`` runs it (its aiohttp routes, its board workers: ``--workers``, default one per
core), and the same server also serves, as static files, each visited game's own page and board as
the site answered them: the floor. ``--visitors`` visitors at once (default 200) each open a random
game's page, then its board, as a browser does, ``--visits`` times in all (default 1,000 games):
- ``cold``: the first visit of each game: its page made and its board drawn for its first visitor;
- ``warm``: the same games again, unchanged: page and board as the site keeps them;
- ``floor``: the same pages and boards as static files, at the same concurrency;
- ``changed``: the same games again after each changed (its version counted up, as a player's order
  does): each page made afresh from the database, the board (which shows no orders) kept.
Figures are the visitor's wall time from request to the last byte (p99), ratios of ``warm`` to the
floor (goal ≤ 3×) and of ``changed`` pages to it, and the web process's peak memory, its own and its
board workers'. Ends with ``RESULT web games=… visitors=… visits=… page_p99_ms=… image_p99_ms=…
page_ratio=… image_ratio=… changed_page_p99_ms=… changed_page_ratio=… cold_page_p99_ms=…
cold_image_p99_ms=… rss_mb=… workers_rss_mb=…``.

What it leaves out: a proxy with TLS in front, visitors' networks and browsers (the style sheet, the
script, the slider's requests for past turns, each a board drawn like the current one), PostgreSQL,
the animated replay (seconds of CPU, once per game and turn), and the visitors' own CPU, which shares
the machine with the site (alike for the floor and the site).

Usage: python bench/bench_web.py [--games N] [--turns N] [--visitors N] [--visits N] [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from bench.crowd import DAY, crowded_database  # noqa: E402
from bench.stats import p99  # noqa: E402
from engine import RULESETS  # noqa: E402
from service.clock import SystemClock  # noqa: E402
from service.runtime.workers import CpuPool  # noqa: E402
from service.storage.store import open_store  # noqa: E402
from service.website import Website, game_path  # noqa: E402
from web.process import READERS  # noqa: E402
from web.site import Site  # noqa: E402

BOARD = re.compile(r'<img src="([^"]+/board\.png[^"]*)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def serve(database: str, port: int, floor: str, workers: int | None) -> None:
    """The site as ``bot.py web`` serves it, with the floor's static files beside it, until SIGTERM."""
    db = await open_store(database, readers=READERS)
    pool = CpuPool(workers)
    pool.start()
    app = Site(db, pool).app()
    app.router.add_static("/floor", floor)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    await stop.wait()
    await runner.cleanup()
    pool.close()
    await db.close()


async def timed(session: aiohttp.ClientSession, url: str) -> tuple[float, bytes]:
    started = time.perf_counter()
    async with session.get(url) as answer:
        body = await answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{url}: {answer.status}")
    return time.perf_counter() - started, body


async def visit_all(
    base: str, pages: list[str], visitors: int, board_of: Callable[[str, bytes], str]
) -> tuple[list[float], list[float]]:
    """Each page, then its board (``board_of(page's path, page)``), ``visitors`` at a time; their wall
    times in seconds."""
    lanes = asyncio.Semaphore(visitors)
    page_times: list[float] = []
    image_times: list[float] = []
    connector = aiohttp.TCPConnector(limit=visitors)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def visit(path: str) -> None:
            async with lanes:
                spent, body = await timed(session, base + path)
                page_times.append(spent)
                board = board_of(path, body)
                spent, _ = await timed(session, base + board)
                image_times.append(spent)

        await asyncio.gather(*(visit(path) for path in pages))
    return page_times, image_times


def board_in(path: str, body: bytes) -> str:
    """The board a page of the site shows."""
    found = BOARD.search(body.decode())
    assert found is not None, f"{path} shows no board"
    return found.group(1).replace("&amp;", "&")


def floor_board(path: str, body: bytes) -> str:
    return path.replace(".html", ".png")


def memory_mb(pid: int) -> tuple[float, float]:
    """Peak resident memory of the process, and the resident memory now of every process under it (its
    board workers are the forkserver's children)."""

    def field(process: int, name: str) -> float:
        for line in pathlib.Path(f"/proc/{process}/status").read_text().splitlines():
            if line.startswith(name):
                return int(line.split()[1]) / 1024
        return 0.0

    def descendants(process: int) -> list[int]:
        children = [int(c) for c in pathlib.Path(f"/proc/{process}/task/{process}/children").read_text().split()]
        return children + [d for child in children for d in descendants(child)]

    return field(pid, "VmHWM"), sum(field(d, "VmRSS") for d in descendants(pid))


def changed(database: pathlib.Path, games: list[int]) -> None:
    """Each of ``games`` changed as an order changes it, written as the bot would (another process)."""
    with sqlite3.connect(database, timeout=30) as conn:
        conn.executemany("UPDATE games SET version = version + 1 WHERE id = ?", [(g,) for g in games])


async def measure(args: argparse.Namespace, folder: pathlib.Path) -> None:
    database = folder / "games.sqlite3"
    started = time.perf_counter()
    await crowded_database(
        database, args.games, wake_from=time.time() + DAY, rulesets=sorted(RULESETS), turns=args.turns
    )
    db = await open_store(database)
    signer = await Website(db, SystemClock()).signer()  # the secret the site will read
    async with db.reading() as conn:
        games = [tuple(row) for row in await (await conn.execute("SELECT guild_id, id FROM games")).fetchall()]
    await db.close()
    print(f"database: {args.games} games, {args.turns} turns each, made in {time.perf_counter() - started:.0f} s")
    chosen = random.Random(7).sample(games, min(args.visits, len(games)))
    pages = [game_path(signer, guild, game) for guild, game in chosen]

    port, floor = free_port(), folder / "floor"
    floor.mkdir()
    command = [sys.executable, __file__, "--serve", str(database), str(port), str(floor)]
    if args.workers:
        command.append(f"--workers={args.workers}")
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        base = f"http://127.0.0.1:{port}"
        rows = {}
        for name, paths, reader in (
            ("cold", pages, board_in),
            ("warm", pages, board_in),
            ("floor", [f"/floor/{n}.html" for n in range(len(pages))], floor_board),
            ("changed", pages, board_in),
        ):
            if name == "floor":  # each game's own page and board, as the site answered them
                async with aiohttp.ClientSession() as session:
                    for n, path in enumerate(pages):
                        _, page = await timed(session, base + path)
                        _, board = await timed(session, base + board_in(path, page))
                        (floor / f"{n}.html").write_bytes(page)
                        (floor / f"{n}.png").write_bytes(board)
            if name == "changed":
                changed(database, [game for _, game in chosen])
            began = time.perf_counter()
            page_times, image_times = await visit_all(base, paths, args.visitors, reader)
            rows[name] = (p99(page_times) * 1000, p99(image_times) * 1000)
            print(
                f"{name:>7}: page p99 {rows[name][0]:8.1f} ms   board p99 {rows[name][1]:8.1f} ms   "
                f"({len(paths)} visits in {time.perf_counter() - began:.1f} s)"
            )
        rss, workers_rss = memory_mb(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    page_ratio, image_ratio = rows["warm"][0] / rows["floor"][0], rows["warm"][1] / rows["floor"][1]
    changed_ratio = rows["changed"][0] / rows["floor"][0]
    print(f"warm / floor: pages {page_ratio:.2f}x, boards {image_ratio:.2f}x (goal <= 3x)")
    print(f"changed / floor: pages {changed_ratio:.2f}x")
    print(f"web process: peak {rss:.0f} MB, its workers {workers_rss:.0f} MB now")
    print(
        f"RESULT web games={args.games} visitors={args.visitors} visits={len(pages)} "
        f"page_p99_ms={rows['warm'][0]:.1f} image_p99_ms={rows['warm'][1]:.1f} "
        f"page_ratio={page_ratio:.2f} image_ratio={image_ratio:.2f} "
        f"changed_page_p99_ms={rows['changed'][0]:.1f} changed_page_ratio={changed_ratio:.2f} "
        f"cold_page_p99_ms={rows['cold'][0]:.1f} cold_image_p99_ms={rows['cold'][1]:.1f} "
        f"rss_mb={rss:.0f} workers_rss_mb={workers_rss:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--visitors", type=int, default=200)
    parser.add_argument("--visits", type=int, default=1_000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--serve", nargs=3, metavar=("DATABASE", "PORT", "FLOOR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        database, port, floor = args.serve
        asyncio.run(serve(database, int(port), floor, args.workers))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(args, pathlib.Path(folder)))


if __name__ == "__main__":
    main()
