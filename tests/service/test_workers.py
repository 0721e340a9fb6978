"""Worker processes warm up when they start, so a worker's first board is not its slowest, and end
with the bot however it ends; a long job runs in a process of its own; a worker that dies is replaced
and its job run once more."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import os
import pathlib
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from render import text
from service.runtime.workers import LONG_JOB_NICENESS, PRELOADED, CpuPool

ROOT = pathlib.Path(__file__).resolve().parents[2]


def glyphs_drawn() -> int:
    return text.glyphs.cache_info().currsize


def fonts_read() -> int:
    return text.coverage.cache_info().currsize


def test_every_module_the_forkserver_preloads_imports():
    """multiprocessing skips a preloaded module that fails to import without a word: each worker
    would then import it again itself, and start slower."""
    for name in PRELOADED:
        assert importlib.util.find_spec(name) is not None, name
        importlib.import_module(name)


def test_a_started_worker_has_drawn_the_opening_boards_before_its_first_job():
    pool = CpuPool(workers=1)
    try:
        pool.start()
        assert pool.call(glyphs_drawn) > 100
        assert pool.call(fonts_read) == 3  # the fallback font's map too, which no opening board needs
    finally:
        pool.close()


def meet(folder: str, expected: int) -> int:
    """Check in, then wait (up to 20 s) for ``expected`` jobs to have checked in: how many did."""
    pathlib.Path(folder, str(os.getpid())).touch()
    deadline = time.monotonic() + 20
    while len(list(pathlib.Path(folder).iterdir())) < expected and time.monotonic() < deadline:
        time.sleep(0.01)
    return len(list(pathlib.Path(folder).iterdir()))


def test_jobs_called_together_run_at_once_in_separate_workers(tmp_path):
    """The computer players of one turn think side by side: one after another, the first of these
    jobs would wait for the second in vain."""
    pool = CpuPool(workers=2)
    try:
        assert pool.call_each(meet, [(str(tmp_path), 2), (str(tmp_path), 2)]) == [2, 2]
    finally:
        pool.close()


BOT = """
import time
from multiprocessing import resource_tracker
from service.runtime.workers import CpuPool
from tests.service.test_workers import pids

if __name__ == "__main__":
    pool = CpuPool(workers=1)
    worker, forkserver = pool.call(pids)
    print(worker, forkserver, resource_tracker._resource_tracker._pid, flush=True)
    time.sleep(60)
"""


def pids() -> tuple[int, int]:
    return os.getpid(), os.getppid()


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone before, or while, its file is read
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def still_running(pids: list[int], within: float = 30) -> list[int]:
    """Those of ``pids`` still running once they have all ended, or ``within`` seconds have passed."""
    deadline = time.monotonic() + within
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [pid for pid in pids if running(pid)]


def test_a_killed_bot_leaves_no_worker_forkserver_or_resource_tracker_running(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text(BOT)
    bot = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        helpers = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(helpers) == 3 and all(running(pid) for pid in helpers)
    finally:
        bot.kill()
        bot.wait()
    left = still_running(helpers)
    for pid in left:  # not to leave them to the next test run
        os.kill(pid, signal.SIGKILL)
    assert not left


def long_job(seconds: float, started: pathlib.Path) -> tuple[int, int, float]:
    """Its process's niceness and pid, and when it ended; ``started`` is written once it runs."""
    started.touch()
    time.sleep(seconds)
    return os.nice(0), os.getpid(), time.time()


async def test_a_long_job_runs_in_a_process_of_its_own_at_a_lower_priority_and_ends_with_it(tmp_path):
    pool = CpuPool(workers=1)
    started = tmp_path / "started"
    try:
        pool.start()
        long = asyncio.ensure_future(pool.run_long(long_job, 3.0, started))
        for _ in range(1000):  # until the long job is under way
            if started.exists():
                break
            await asyncio.sleep(0.01)
        assert started.exists(), "the long job never started"
        assert await pool.run(glyphs_drawn) > 0
        board_done = time.time()
        niceness, pid, long_done = await long
        assert board_done < long_done  # a board's job does not queue behind it
        assert niceness == os.nice(0) + LONG_JOB_NICENESS
        assert not still_running([pid])  # no idle process is kept for long jobs
    finally:
        pool.close()


def dies_the_first_time(mark: pathlib.Path) -> int:
    """Killed while it runs the first time (it waits to be); its pid the second time."""
    if not mark.exists():
        mark.write_text(str(os.getpid()))
        time.sleep(60)
    return os.getpid()


def always_dies() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def wait_for_file(path: pathlib.Path) -> None:
    for _ in range(3000):
        if path.exists() and path.read_text():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{path} was never written")


async def test_a_worker_killed_mid_job_is_replaced_and_its_job_run_again(tmp_path):
    pool = CpuPool(workers=1)
    mark = tmp_path / "first"
    try:
        job = asyncio.ensure_future(pool.run(dies_the_first_time, mark))
        await wait_for_file(mark)
        killed = int(mark.read_text())
        os.kill(killed, signal.SIGKILL)
        assert await job not in (killed, os.getpid())  # done again, by a new worker
        assert await pool.run(glyphs_drawn) > 0  # and the next jobs find workers too
        assert await asyncio.to_thread(pool.call, glyphs_drawn) > 0
    finally:
        pool.close()


async def test_a_job_that_kills_its_worker_each_time_fails_after_one_retry_and_the_pool_lives_on():
    pool = CpuPool(workers=1)
    try:
        with pytest.raises(BrokenProcessPool):
            await pool.run(always_dies)
        with pytest.raises(BrokenProcessPool):
            await asyncio.to_thread(pool.call, always_dies)
        assert await pool.run(glyphs_drawn) > 0
    finally:
        pool.close()
