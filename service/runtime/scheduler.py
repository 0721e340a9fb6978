"""APScheduler 3 wakes the game master at each game's next deadline or reminder.

Jobs carry no state: one job per game with a deterministic id, replaced whenever the game's wake-up
time changes, plus a periodic sweep. Losing every job (a restart) loses nothing: start-up re-arms
them from the database, and the sweep resolves whatever is overdue.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler

log = logging.getLogger(__name__)

MISFIRE_GRACE_SECONDS = 7 * 86400
SHUTDOWN_GRACE_SECONDS = 20.0


async def guarded(what: str, work: Callable[[], Awaitable[object]]) -> None:
    """Run background work that nobody awaits: log its failure once, and end quietly if shutdown
    interrupts it (everything it did is in the database or undone, and start-up picks it up again)."""
    try:
        await work()
    except asyncio.CancelledError:
        log.info("%s interrupted by shutdown; it runs again after start-up", what)
    except Exception:
        log.exception("%s failed; it is tried again shortly", what)


def job_id(game_id: int) -> str:
    return f"game:{game_id}"


class WakeScheduler:
    def __init__(
        self,
        wake: Callable[[int], Awaitable[object]],
        sweep: Callable[[], Awaitable[object]],
        *,
        sweep_seconds: float = 30.0,
    ):
        self._wake, self._sweep = wake, sweep
        chatter = logging.getLogger("apscheduler")
        if chatter.level == logging.NOTSET:
            # APScheduler logs every job added, run and done at INFO: lines per game per turn that
            # would drown a deployment's log. Its warnings (a missed job) still show.
            chatter.setLevel(logging.WARNING)
        self._running: set[asyncio.Task] = set()
        self.scheduler = AsyncIOScheduler(timezone=dt.UTC)
        self.scheduler.add_job(
            self._run_sweep,
            "interval",
            seconds=sweep_seconds,
            id="sweep",
            replace_existing=True,
            coalesce=True,
            max_instances=1,
            misfire_grace_time=MISFIRE_GRACE_SECONDS,
        )

    def start(self) -> None:
        self.scheduler.start()

    async def shutdown(self, grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
        """Start no more jobs, give the running ones ``grace`` seconds to finish, then interrupt the rest."""
        if not self.scheduler.running:
            return
        self.scheduler.pause()
        if self._running:
            await asyncio.wait(set(self._running), timeout=grace)
        self.scheduler.shutdown(wait=False)  # cancels what is still running
        while self._running:
            await asyncio.wait(set(self._running))

    def arm(self, game_id: int, at: float | None) -> None:
        """Wake the game at ``at`` (Unix seconds), or never if None."""
        if at is None:
            try:
                self.scheduler.remove_job(job_id(game_id))
            except JobLookupError:
                pass
            return
        self.scheduler.add_job(
            self._run_wake,
            "date",
            run_date=dt.datetime.fromtimestamp(at, dt.UTC),
            args=[game_id],
            id=job_id(game_id),
            replace_existing=True,
            coalesce=True,
            max_instances=3,  # a wake re-arms its own game while it still runs
            misfire_grace_time=MISFIRE_GRACE_SECONDS,
        )

    async def _run_wake(self, game_id: int) -> None:
        await self._tracked(guarded(f"waking game {game_id}", lambda: self._wake(game_id)))

    async def _run_sweep(self) -> None:
        await self._tracked(guarded("sweep", self._sweep))

    async def _tracked(self, job: Awaitable[None]) -> None:
        task = asyncio.current_task()
        assert task is not None  # a coroutine the event loop runs is always inside a task
        self._running.add(task)
        try:
            await job
        finally:
            self._running.discard(task)
