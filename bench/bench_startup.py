"""Start-up with many open games: the time from opening the database to the bot being ready to
connect (every open game's wake-up re-armed in the started scheduler, the start-up sweep done), and
the bot's peak memory once connected.

The database holds GAMES running games of every ruleset (copies of games played a few turns, with
their players, orders and history; their reminders fall evenly over the coming day, none overdue).
Each time is taken in a fresh process that logs at INFO to a file, as a deployment does. The floor
is the least start-up must do, measured the same fresh-process way: open the file and read the
wake-ups of the coming window (the scheduler holds only those; see service/runtime.py).

Memory is that of ``python bot.py`` itself, connected to the local fake Discord, whose servers hold
the games: GAMES_PER_SERVER games in each server, each game in its own active thread (which
Discord sends the bot, and discord.py keeps, with every server). Its peak RSS is taken once it
has answered ``/game info`` in the last game's thread (events arrive in order, so every server is
in discord.py's cache by then). Before that, right when it has connected, a member asks for
``/game board`` there: the seconds from connecting to that first image are
``first_image_after_restart_s`` (the render workers start and warm up while the bot connects). The render workers are processes of their own, counted apart: their proportional set size
(forked from one forkserver, they share most of their pages).

Usage: python bench/bench_startup.py [GAMES]        (default 50000)
Ends with ``RESULT startup games=… armed=… start_s=… floor_s=… ratio=… rss_mb=… workers_pss_mb=… …``.
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

from bench.crowd import DAY, crowded_database  # noqa: E402
from engine import RULESETS  # noqa: E402
from service.ops.lobby import MAX_OPEN_GAMES_PER_CHANNEL  # noqa: E402
from service.runtime.gameservice import ARM_AHEAD_SECONDS, GameService  # noqa: E402
from service.storage.sqlite import Database  # noqa: E402
from tests.fakediscord.harness import FakeDiscord  # noqa: E402

GAMES_PER_SERVER = 2 * MAX_OPEN_GAMES_PER_CHANNEL  # two full games channels


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


async def seat_in_servers(fake: FakeDiscord, path: pathlib.Path) -> tuple:
    """Servers for the database's games, GAMES_PER_SERVER each, every game in a thread of its own under a
    games channel of its server, the games' rows moved there (and their wake-ups a day on: none is due
    while the bot is measured, and the reminders the timed start-ups made are taken as posted); a
    member of the last server and the last game's thread."""
    db = await Database.open(path)
    async with db.reading() as conn:
        games = [row[0] for row in await (await conn.execute("SELECT id FROM games ORDER BY id")).fetchall()]
    member = fake.add_user("member")
    places = []
    for n, game_id in enumerate(games):
        if n % GAMES_PER_SERVER == 0:
            guild = fake.add_guild(f"server {n // GAMES_PER_SERVER}", channel=None)
        if n % MAX_OPEN_GAMES_PER_CHANNEL == 0:
            channel = fake.add_text_channel(guild, "games")
        thread = fake.world.add_thread(channel, f"game {game_id}", kind=11, owner=fake.bot_user)
        places.append((guild.id, channel.id, thread.id, game_id))
    fake.add_member(guild, member)
    async with db.transaction() as conn:
        await conn.executemany("UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ? WHERE id = ?", places)
        await conn.execute("UPDATE games SET deadline_at = deadline_at + ?, reminder_at = reminder_at + ?", (DAY, DAY))
        await conn.execute("UPDATE players SET remind_at = remind_at + ?", (DAY,))
        await conn.execute("UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", (time.time(),))
    await db.close()
    return member, thread, len({p[0] for p in places})


def memory_mb(pid: int, field: str, table: str = "status") -> float:
    """A field of the process's /proc table (kB), in MB."""
    lines = pathlib.Path(f"/proc/{pid}/{table}").read_text().splitlines()
    return int(next(line for line in lines if line.startswith(field + ":")).split()[1]) / 1024


def descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (its forkserver, the workers forked from that, the resource tracker)."""
    parents = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        frontier = [child for child, parent in parents.items() if parent in frontier]
        found += frontier
    return found


async def connected(path: pathlib.Path, log_file: pathlib.Path) -> dict:
    """``python bot.py`` on the database, connected to servers holding its games: its peak RSS (and its
    workers') once every server is in its cache, and the seconds from its start to that answer."""
    async with FakeDiscord(check_bodies=False) as fake:
        member, thread, servers = await seat_in_servers(fake, path)
        started = time.perf_counter()
        bot = await fake.bot_process({"DATABASE_PATH": str(path)}, log_file)
        try:
            await fake.wait_for_shards((0, 1), timeout=120)
            connected_at = time.perf_counter()
            board = await fake.slash(member, thread, "game board")
            assert board.message is not None and board.message.attachments, "the bot did not show the board"
            first_image = time.perf_counter() - connected_at
            answer = await fake.slash(member, thread, "game info")
            assert answer.content or answer.embeds, "the bot did not answer /game info"
            seconds = time.perf_counter() - started
            # forked from one preloaded forkserver, the workers share most pages: their proportional share
            workers = sum(memory_mb(pid, "Pss", "smaps_rollup") for pid in descendants(bot.pid))
            peak = memory_mb(bot.pid, "VmHWM")
        finally:
            bot.terminate()
            await bot.wait()
    return {
        "seconds": seconds,
        "rss_mb": peak,
        "workers_pss_mb": workers,
        "servers": servers,
        "first_image": first_image,
    }


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
        bot = asyncio.run(connected(path, pathlib.Path(folder) / "connected.log"))
    floor_s = min(f["seconds"] for f, _ in runs)
    start_s = min(s["seconds"] for _, s in runs)
    service_mb = max(s["rss_mb"] for _, s in runs)
    print(f"{games} open games; best of {len(runs)} fresh processes each")
    armed = runs[0][1]["armed"]
    print(f"  floor (open + read the window's {runs[0][0]['armed']} wake-ups) {floor_s:7.3f} s")
    print(f"  start-up (arm {armed} jobs, start, sweep)   {start_s:7.3f} s  ({start_s / floor_s:.1f}x floor)")
    print(f"  peak RSS of the service alone {service_mb:.0f} MB; about {log_lines} log lines per start")
    print(
        f"  bot.py connected to {bot['servers']} servers holding the {games} games, each in its thread: "
        f"peak RSS {bot['rss_mb']:.0f} MB (its render workers' proportional set {bot['workers_pss_mb']:.0f} MB more, "
        f"{bot['rss_mb'] + bot['workers_pss_mb']:.0f} MB together), "
        f"answering {bot['seconds']:.1f} s after it was started; the first board "
        f"{bot['first_image']:.1f} s after it connected (goal: at most 3 s)"
    )
    print(
        f"RESULT startup games={games} armed={armed} start_s={start_s:.3f} floor_s={floor_s:.3f} "
        f"ratio={start_s / floor_s:.2f} rss_mb={bot['rss_mb']:.0f} workers_pss_mb={bot['workers_pss_mb']:.0f} "
        f"total_mb={bot['rss_mb'] + bot['workers_pss_mb']:.0f} "
        f"service_rss_mb={service_mb:.0f} servers={bot['servers']} connected_s={bot['seconds']:.1f} "
        f"first_image_after_restart_s={bot['first_image']:.2f} "
        f"log_lines={log_lines}"
    )


if __name__ == "__main__":
    main()
