"""Deadlines, reminders and admin control of the clock. The database holds every time; the
scheduler only wakes the game master up, and a sweep catches anything a wake-up missed."""

from __future__ import annotations

import logging

from i18n import tr
from service.announcements import BackInReach, Extended, Paused, Resumed
from service.errors import GameError
from service.models import RUNNING, Actor, Game
from service.ops.games import Games, NothingToDo
from service.runtime.claims import WAKE
from service.storage import games as rows
from service.storage.store import Connection
from service.turns import Planner

log = logging.getLogger(__name__)

MAX_EXTENSION = 30 * 86400


class Timekeeping:
    def __init__(self, games: Games):
        self.games = games

    async def wake(self, game_id: int, *, reload: bool = True) -> Game | None:
        """Called at a game's wake-up time (and by the sweep): remind, resolve, or act on the deadline.
        Another process holding the game's wake-up (``service.runtime.claims``) does it instead: the game is
        returned as it stands (``reload`` false: nothing is returned, and the game is not read again)."""

        def build(planner: Planner, game: Game) -> None:
            row = game.row
            if row.status != RUNNING or row.paused_at is not None:
                raise NothingToDo
            if planner.wake():
                return
            if row.reminder_at is not None and planner.now >= row.reminder_at:
                planner.remind()
                return
            raise NothingToDo

        async with self.games.claims.holding(WAKE, game_id) as held:
            if held:
                return await self.games.transition(game_id, build, reload=reload)
            return await self.games.get_game(game_id) if reload else None

    async def sweep(self) -> int:
        """Wake every running game whose deadline or reminder time has passed; returns how many."""
        async with self.games.db.reading() as conn:
            due = await rows.overdue(conn, self.games.clock.now())
        for game_id in due:
            try:
                await self.wake(game_id, reload=False)
            except Exception:  # one broken game must not hold up every other game's deadline
                log.exception("waking game #%s failed", game_id)
        return len(due)

    async def open_wakeups(self, after: float | None = None, until: float | None = None) -> list[tuple[int, float]]:
        """Running games' next wake-up times, those in (``after``, ``until``] when given, to arm the
        scheduler."""
        async with self.games.db.reading() as conn:
            times = await rows.clock_times(conn, until)
        wakeups = [(r["id"], self.games.wake_time(RUNNING, None, r["deadline_at"], r["reminder_at"])) for r in times]
        return [
            (game_id, at)
            for game_id, at in wakeups
            if at is not None and (after is None or at > after) and (until is None or at <= until)
        ]

    async def pause(self, game_id: int, actor: Actor) -> Game:
        def build(planner: Planner, game: Game) -> None:
            self.games.require_manager(game, actor)
            self.games.require_status(game, RUNNING)
            if game.row.paused_at is not None:
                raise GameError(tr("game #{number} is already paused", number=game.id))
            planner.pause()
            planner.plan.announcements.append(Paused(actor.user_id))

        return await self.games.transition(game_id, build)

    async def resume(self, game_id: int, actor: Actor) -> Game:
        def build(planner: Planner, game: Game) -> None:
            self.games.require_manager(game, actor)
            self.games.require_status(game, RUNNING)
            if game.row.paused_at is None:
                raise GameError(tr("game #{number} is not paused", number=game.id))
            planner.plan.announcements.append(Resumed(actor.user_id))
            planner.resume()

        return await self.games.transition(game_id, build)

    async def hold(self, game_id: int, missing: str) -> Game | None:
        """Stop the game's clock while the bot lacks ``missing`` to post in its thread (nobody misses a
        turn he was never shown); the held game, whose ``held_told`` says who knows already (None: the
        game is not running)."""
        game = await self.games.get_game(game_id)
        if game.row.status != RUNNING:
            return None
        if game.row.held_for is not None:
            return game
        now = self.games.clock.now()
        stopped = game.row.paused_at is None  # a manager may have stopped it already: his to restart

        async def hold_it(conn: Connection, game: Game) -> None:
            log.info("game #%s held: the bot lacks %s in its thread", game.id, missing)

        clock = {"paused_at": now, "held_at": now} if stopped else {"held_at": None}
        return await self.games.change(game_id, hold_it, held_for=missing, held_told=None, **clock)

    async def told(self, game_id: int, whom: str) -> None:
        """``whom`` ("u<user id>", "c<channel id>") has been told of the game's hold: never again for it."""

        async def note(conn: Connection, game: Game) -> None:
            if game.row.held_for is not None:
                await rows.set_held_told(conn, game.id, game.row.held_told | {whom})

        await self.games.change(game_id, note)

    async def release(self, game_id: int) -> None:
        """A post got through again: the clock the bot stopped runs again (shifted by the time it was
        stopped, as after a pause), said in the thread; then the hold is forgotten. Each step may be
        made again after a crash between them."""
        game = await self.games.get_game(game_id)
        held_for, held_at = game.row.held_for, game.row.held_at
        if held_for is None:
            return
        if held_at is not None:

            def build(planner: Planner, game: Game) -> None:
                if game.row.status != RUNNING or game.row.paused_at is None:
                    raise NothingToDo  # a manager restarted the clock meanwhile, or the game ended
                planner.resume()
                planner.plan.announcements.append(BackInReach(held_for, held_at, planner.plan.deadline_at))

            await self.games.transition(game_id, build, reload=False)

        async def forget(conn: Connection, game: Game) -> None:
            log.info("game #%s released: the bot can post in its thread again", game.id)

        await self.games.change(game_id, forget, held_for=None, held_at=None, held_told=None)

    async def extend(self, game_id: int, actor: Actor, seconds: int) -> Game:
        def build(planner: Planner, game: Game) -> None:
            self.games.require_manager(game, actor)
            self.games.require_status(game, RUNNING)
            if not 60 <= seconds <= MAX_EXTENSION:
                raise GameError(
                    tr("an extension must be between 1 minute and 30 days, not {seconds} seconds", seconds=seconds)
                )
            if game.row.time.mode == "none":
                raise GameError(tr("game #{number} has no deadline to extend", number=game.id))
            planner.extend(seconds)
            planner.plan.announcements.append(Extended(actor.user_id, seconds, planner.plan.deadline_at))

        return await self.games.transition(game_id, build)
