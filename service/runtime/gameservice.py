"""Wiring the game master, the outbox and the scheduler together, with start-up recovery."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Mapping

from engine import RULESETS, Ruleset
from service import GameMaster
from service.clock import Clock, SystemClock
from service.ops.languages import ServerLanguages
from service.posts import PostPresenter
from service.presenter import Presenter
from service.runtime.claims import MATCHMAKING, SEASON_END, TOURNAMENT
from service.runtime.meters import Acknowledgements
from service.runtime.outbox import Outbox, Sink, Undeliverable
from service.runtime.scheduler import WakeScheduler, guarded
from service.runtime.workers import CpuPool
from service.storage.errors import StoreError, explain
from service.storage.matchmaking import WAITING
from service.storage.store import BOT, Location, Store, open_store, sqlite_path
from service.website import Website

log = logging.getLogger(__name__)

ARM_AHEAD_SECONDS = 900.0  # how far ahead the scheduler holds wake-ups; many sweeps fit in it


class GameService:
    """What the bot holds: ``master`` for every game operation, ``presenter`` for what players see of
    games, ``posts`` for what they read of its announcements (which go to ``sink``), ``website`` for
    their games' links on the web site (at ``public_url``); renders and computer players run in
    ``pool`` (else in a pool of its own with ``workers`` processes, one per core by default)."""

    def __init__(
        self,
        db: Store,
        sink: Sink,
        *,
        clock: Clock | None = None,
        sweep_seconds: float = 30.0,
        pool: CpuPool | None = None,
        workers: int | None = None,
        rulesets: Mapping[str, Ruleset] = RULESETS,
        public_url: str | None = None,
    ):
        self.db = db
        self.clock = clock or SystemClock()
        self.pool = pool or CpuPool(workers)
        self._owns_pool = pool is None  # a pool handed in is shared, and closed by whoever made it
        self.master = GameMaster(db, self.clock, rulesets=rulesets, pool=self.pool)
        self.presenter = Presenter(self.master.games, self.master.history, self.pool)
        self.posts = PostPresenter(self.master.settings, self.master.history, self.presenter, self.master.lookup)
        self.languages = ServerLanguages(db, self.clock)
        self.website = Website(db, self.clock, public_url)
        self.acknowledgements = Acknowledgements()  # for /metrics
        self.sink = sink
        self.outbox = Outbox(db, self.clock, sink, claims=self.master.games.claims)
        self.scheduler = WakeScheduler(self._wake, self.sweep, sweep_seconds=sweep_seconds)
        self.sweep_seconds = sweep_seconds
        self.swept_at = self.clock.now()  # when a sweep last began or ended, or the process started (/healthz)
        self.master.games.on_commit.append(self._after_commit)
        self._tasks: set[asyncio.Task] = set()
        self._armed_until: float | None = None  # wake-ups up to this time are in the scheduler
        self.recovery: asyncio.Task | None = None
        self._closing: asyncio.Task | None = None
        self._measuring: asyncio.Task | None = None  # maps' fairness, one map after another

    @classmethod
    async def open(cls, location: Location, sink: Sink, **kwargs) -> GameService:
        """Take the database (a SQLite file's path, or a database URL: ``service.storage.store``) for this process
        and bring its schema up to date; raises StoreError (saying what to fix) if it cannot be used,
        leaving nothing open behind."""
        async with contextlib.AsyncExitStack() as undo:
            db = await open_store(location, hold=BOT)
            undo.push_async_callback(db.close)
            try:
                await db.migrate()
            except sqlite3.Error as err:
                raise StoreError(explain(err, sqlite_path(location))) from err
            service = cls(db, sink, **kwargs)
            await service.languages.load()
            undo.pop_all()
        return service

    async def start(self) -> None:
        """Re-arm the coming wake-ups from the database; catching up on anything overdue and delivering
        the backlog go on in the background (``recovery``), so the bot connects and answers meanwhile."""
        self._spawn(asyncio.to_thread(self.pool.start))  # starting worker processes takes a while
        await self._arm_ahead()
        self.scheduler.start()
        self.recovery = self._spawn(guarded("start-up recovery", self.sweep))
        self._spawn(guarded("rating the games an older version left unrated", self.master.ratings.catch_up_ratings))

    async def _arm_ahead(self) -> None:
        """Arm the games that wake within the next ``ARM_AHEAD_SECONDS`` and were not armed yet.

        The scheduler holds only the near future: start-up costs what is due soon, not one job per
        open game, and each sweep extends the window. A commit arms its own game when it wakes inside
        the window, so that the jobs held stay those of the near future, however long the bot runs."""
        until = self.clock.now() + ARM_AHEAD_SECONDS
        for game_id, at in await self.master.timekeeping.open_wakeups(after=self._armed_until, until=until):
            self.scheduler.arm(game_id, at)
        self._armed_until = until

    async def close(self) -> None:
        """Let what is running finish (no new posts are started), then release the database. A second
        call (a second signal) waits for the first."""
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._close())
        await self._closing

    async def end_seasons(self) -> None:
        """Post the final tables of each server's season that ended and was not told yet, one season
        a server each sweep (a bot down for longer catches up one a sweep): by one process among several
        (a ``SEASON_END`` lease), the season noted told once posted, so a failed post is tried again at
        the next sweep; a season without rated games ends without a post."""
        for season in await self.master.seasons.untold():
            number = season.told + 1
            async with self.master.games.claims.holding(SEASON_END, season.guild_id) as held:
                now = await self.master.seasons.of_server(season.guild_id) if held else None
                if now is None or now.told >= number:  # held elsewhere, or posted by another just now
                    continue
                tables = await self.master.ratings.season_tables(season.guild_id, number)
                try:
                    if tables:
                        await self.sink.post_season_end(season, number, tables)
                except Undeliverable as err:  # its channel is gone: the table can never be posted there
                    log.warning("season %s of server %s cannot be posted: %s", number, season.guild_id, err)
                except Exception:  # noqa: BLE001 - tried again at the next sweep; the other servers go on
                    log.warning("season %s of server %s not posted yet", number, season.guild_id, exc_info=True)
                    continue
                await self.master.seasons.told(season.guild_id, number)

    async def tell_tournaments(self) -> None:
        """Make each tournament's posts still to make (a round opened, its end, its cancellation), in
        order: by one process among several (the tournament's ``TOURNAMENT`` lease), each noted made
        once posted, so a failed one is tried again at the next sweep (its nonce keeps it single)."""
        for t in await self.master.tournaments.untold():
            async with self.master.games.claims.holding(TOURNAMENT, t.id) as held:
                now = await self.master.tournaments.get(t.id) if held else None
                for step in range(now.told + 1, now.due + 1) if now is not None else ():
                    async with self.master.tournaments.moving(t.id):  # never while its round is opening
                        news = await self.master.tournaments.news(t.id, step)
                    try:
                        await self.sink.post_tournament(news)
                    except Undeliverable as err:  # its channel is gone: nothing of it can be posted there
                        log.warning("tournament #%s: post %s cannot be made: %s", t.id, step, err)
                    except Exception:  # noqa: BLE001 - tried again at the next sweep; the others go on
                        log.warning("tournament #%s: post %s not made yet", t.id, step, exc_info=True)
                        break
                    await self.master.tournaments.told(t.id, step)

    async def tell_checks(self) -> None:
        """Post each new ready check where its players queued, and show each one's new state on its
        posts (by one process among several: the ``MATCHMAKING`` lease); a failed post is tried again
        at the next sweep (those already made are edited, never made twice)."""
        matchmaking = self.master.matchmaking
        async with self.master.games.claims.holding(MATCHMAKING, 0) as held:
            for untold in await matchmaking.untold() if held else ():
                check, members = await matchmaking.check(untold.id)  # as it is now
                try:
                    for post in await matchmaking.posts(check.id):
                        if post.message_id is None and check.status != WAITING:  # over before it was shown there
                            continue
                        try:
                            message_id = await self.sink.show_ready_check(check, members, post)
                        except Undeliverable as err:  # its channel is gone: it can never be shown there
                            log.warning("ready check #%s cannot be posted in %s: %s", check.id, post.channel_id, err)
                            continue
                        if message_id != post.message_id:
                            await matchmaking.posted(check.id, post.channel_id, message_id)
                except Exception:  # noqa: BLE001 - tried again at the next sweep; the others go on
                    log.warning("ready check #%s not shown yet", check.id, exc_info=True)
                    continue
                await matchmaking.told(check.id, check.status)

    async def show_check(self, check_id: int) -> None:
        """Bring every post of a ready check up to date now (an answer shows on each server's post of it);
        a post that cannot be edited now is left to the check's next change."""
        check, members = await self.master.matchmaking.check(check_id)
        for post in await self.master.matchmaking.posts(check_id):
            if post.message_id is not None:
                try:
                    await self.sink.show_ready_check(check, members, post)
                except Exception:  # noqa: BLE001 - the others are still brought up to date
                    log.warning("ready check #%s not shown in %s", check_id, post.channel_id, exc_info=True)

    def measure_maps(self) -> None:
        """Measure the fairness of every map not measured yet, in the background (a sweep, and a new
        map, start it; a restart picks up what was left, since only a verdict kept counts)."""
        if self._closing is None and (self._measuring is None or self._measuring.done()):
            self._measuring = self._spawn(guarded("measuring maps' fairness", self._measure_all))

    async def _measure_all(self) -> None:
        while await self.master.maps.measure_next() is not None:
            pass

    async def _close(self) -> None:
        self.outbox.stopping = True
        await self.scheduler.shutdown()
        if self._measuring is not None:  # no new one starts once closing (measure_maps)
            self._measuring.cancel()  # its game in hand is stopped with its process (CpuPool.run_long)
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.db.close()
        if self._owns_pool:
            await asyncio.to_thread(self.pool.close)

    def _spawn(self, work) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _after_commit(self, game_id: int, wake_at: float | None) -> None:
        beyond = wake_at is not None and self._armed_until is not None and wake_at > self._armed_until
        self.scheduler.arm(game_id, None if beyond else wake_at)  # beyond: a sweep arms it when the window gets there
        self._spawn(guarded("delivering announcements", self.outbox.flush))

    async def _wake(self, game_id: int) -> None:
        await self.master.timekeeping.wake(game_id, reload=False)
        await self.outbox.flush()

    async def sweep(self) -> None:
        """Resolve whatever is overdue, then deliver pending announcements and forget those delivered
        long ago. Beside other processes, also take over their dead ones' work
        (``service.runtime.claims``) and learn the servers' languages chosen through them."""
        self.swept_at = self.clock.now()
        if self.db.shared:
            await self.languages.load()
        woken = await self.master.timekeeping.sweep()
        if woken:
            log.info("sweep woke %d overdue game(s)", woken)
        await self._arm_ahead()
        await self.outbox.flush()
        await self.outbox.prune()
        await self.end_seasons()
        await self.master.tournaments.start_due()
        await self.master.tournaments.advance_all()
        await self.tell_tournaments()
        await self.master.matchmaking.sweep()
        await self.tell_checks()
        self.measure_maps()
        self.swept_at = self.clock.now()
