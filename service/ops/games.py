"""What every game operation shares: reading a game, and the one path by which it changes.

Turn transitions (start, pass, deadline, surrender, removal) follow one path: under the game's lock,
read a snapshot, plan the change off the event loop (``service.turns``), then write the plan in one
transaction guarded by the game's version. A crash anywhere before COMMIT leaves the game as it was;
the next wake-up plans the same change again from the same snapshot, to the same result.

The lock is the process's own. Another bot process on the same database (``service.runtime.claims``) can
only make the version check fail: the change is then planned again from the new snapshot, and
every write to a game takes the game's row first, so two processes never wait on each other's rows.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, TypeVar, overload

from engine import RULESETS, EngineError, Ruleset
from i18n import joined, mark, tr
from service.announcements import News
from service.clock import Clock
from service.errors import Conflict, GameError, GameNotFound, NotAllowed, WrongPhase
from service.models import CANCELLED, FINISHED, LOBBY, RUNNING, Actor, Game, GameRow, Mirror, OrderRow, PlayerRow
from service.reminders import ReminderSettings
from service.runtime.claims import Claims
from service.runtime.workers import CpuPool, bot_job
from service.storage import games as rows
from service.storage import history, outbox
from service.storage import settings as chosen
from service.storage.store import Connection, Store
from service.turns import Plan, Planner

log = logging.getLogger(__name__)

T = TypeVar("T")
Fault = Callable[[str], None]
Finish = Callable[[Connection, GameRow, dict[str, Any], float], Awaitable[None]]  # (conn, game, result, ended at)
PARSED_STATES_KEPT = 512
ATTEMPTS = 3  # a change that meets another process's at the same moment is made again from the new state


class NothingToDo(Exception):
    """A wake-up found the game already moved on (another path got there first)."""


def no_fault(point: str) -> None:
    return None


def ruleset_named(rulesets: Mapping[str, Ruleset], name: str) -> Ruleset:
    """The ruleset called ``name``, or a GameError naming those there are."""
    if name not in rulesets:
        raise GameError(tr("unknown game {name!r}; available: {names}", name=name, names=joined(sorted(rulesets))))
    return rulesets[name]


class Games:
    """The games of one store: each read as a snapshot, each changed by one transaction under its lock;
    the operations (lobby, play, time…) are each given this one object."""

    def __init__(
        self,
        db: Store,
        clock: Clock,
        *,
        rulesets: Mapping[str, Ruleset] = RULESETS,
        pool: CpuPool | None = None,
        claims: Claims | None = None,
        fault: Fault = no_fault,
    ):
        self.db, self.clock, self.rulesets, self.fault = db, clock, rulesets, fault
        self.pool = pool or CpuPool(workers=0)
        self.claims = claims or Claims(db, clock, shared=db.shared)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._states: OrderedDict[tuple[int, int], Any] = OrderedDict()
        self._keeping = threading.Lock()  # lists are parsed in a thread, single games on the event loop
        # One thread parses every list: two players' lists of the same games parse them once, and the
        # event loop shares the interpreter with one busy thread, not one per list.
        self._parsing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="parse")
        self.on_commit: list[Callable[[int, float | None], None]] = []  # (game id, next wake) after each write
        self.on_finish: list[Finish] = []  # in the transaction that ends a game
        self.turns_resolved = 0  # by this process, since it started (for /metrics)

    def ruleset(self, game: GameRow) -> Ruleset:
        if game.ruleset not in self.rulesets:
            raise GameError(
                tr(
                    "game #{number} is played with {ruleset!r}, which this bot no longer has",
                    number=game.id,
                    ruleset=game.ruleset,
                )
            )
        return self.rulesets[game.ruleset]

    def state_of(self, game: GameRow) -> Any:
        """The engine state of ``game``, parsed once per stored version: states are frozen values, so
        every reader of one version shares the same object."""
        key = (game.id, game.version)
        with self._keeping:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
                return state
        state = self.ruleset(game).from_dict(game.state or {})
        self.keep_state(key, state)
        return state

    def keep_state(self, key: tuple[int, int], state: Any) -> None:
        """Remember the parsed state of (game id, version): a writer that knows it saves the next reader the parse."""
        with self._keeping:
            self._states[key] = state
            if len(self._states) > PARSED_STATES_KEPT:
                self._states.popitem(last=False)

    # --- reading -------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        """The game as it stands; its state is parsed after the read, the connection already free."""
        async with self.db.reading() as conn:
            stored = await rows.stored_games(conn, [game_id])
        return self._assembled(self._found(stored, game_id))[0]

    async def load(self, conn: Connection, game_id: int, *, parse: bool = True) -> Game:
        """The game as it stands; without ``parse``, a running game's state is left unread where its
        glance says who acts (a reader that needs no position: ``get_game`` reads it all)."""
        return self._assembled(self._found(await rows.stored_games(conn, [game_id]), game_id), parse)[0]

    async def mirrors(self, game_id: int) -> list[Mirror]:
        """The other servers the game is shown in (players matched across servers)."""
        async with self.db.reading() as conn:
            return await rows.mirrors_of(conn, game_id)

    async def listed(self, read: Callable[[Connection], Awaitable[list[int]]], *, parse: bool = True) -> list[Game]:
        """The games whose ids ``read`` finds, read in a few statements for all of them (a list of 200
        games is not 600 trips), then parsed in a thread once the connection is free for the next
        reader: a player's long list never holds up another player's command on the event loop.
        Without ``parse``, a running game's state is left unparsed where its glance tells who acts
        (``Game.state`` is then None): enough for a list, and no parse of two hundred states."""
        async with self.db.reading() as conn:
            stored = await rows.stored_games(conn, await read(conn))
        context = contextvars.copy_context()  # the reader's language, for a damaged game's words
        parsed = functools.partial(context.run, lambda: [self._assembled(one, parse)[0] for one in stored])
        return await asyncio.get_running_loop().run_in_executor(self._parsing, parsed)

    async def snapshot(self, conn: Connection, game_id: int) -> tuple[Game, dict[int, OrderRow]]:
        """The game, and the orders of its current turn (read once: the game's ``passed`` comes from them)."""
        return self._assembled(self._found(await rows.stored_games(conn, [game_id]), game_id))

    @staticmethod
    def _found(stored: list[rows.StoredGame], game_id: int) -> rows.StoredGame:
        if not stored:
            raise GameNotFound(tr("there is no game #{number}", number=game_id))
        return stored[0]

    def _assembled(self, stored: rows.StoredGame, parse: bool = True) -> tuple[Game, dict[int, OrderRow]]:
        """The game its rows make: a running one's state parsed (once per version; unless ``parse`` is
        false and its glance says who acts) and who acts in it; a state that cannot load marks the game
        damaged instead of failing the read."""
        game, players, orders = stored
        acting: frozenset[int] = frozenset()
        state, damage = None, None
        if game.status == RUNNING and not parse and game.glance is not None:
            acting = frozenset(game.glance.acting)
        elif game.status == RUNNING:
            try:
                state = self.state_of(game)
                acting = self.ruleset(game).acting_players(state)
            except Exception as err:  # noqa: BLE001 - one game that cannot load never hides or blocks the others
                log.error(
                    "game #%s has a damaged state: %s",
                    game.id,
                    err,
                    exc_info=not isinstance(err, (EngineError, GameError)),
                )
                damage = tr(
                    "game #{number} has damaged data and cannot continue; a server manager can cancel it (details: {error})",
                    number=game.id,
                    error=err,
                )
        passed = frozenset(seat for seat, row in orders.items() if row.passed)
        return Game(game, players, passed, acting, damage, state), orders

    # --- the transition path -------------------------------------------------------------

    @overload
    async def transition(
        self, game_id: int, build: Callable[[Planner, Game], None], *, reload: Literal[True] = True
    ) -> Game: ...

    @overload
    async def transition(
        self, game_id: int, build: Callable[[Planner, Game], None], *, reload: bool
    ) -> Game | None: ...

    async def transition(
        self, game_id: int, build: Callable[[Planner, Game], None], *, reload: bool = True
    ) -> Game | None:
        """Plan with ``build`` (which may raise a GameError to refuse, or NothingToDo) and commit atomically;
        returns the game as it is after (unless ``reload`` is false: a deadline has no one to show it to)."""
        async with self.lock(game_id):
            game, plan = await self.retrying(lambda: self._plan_and_commit(game_id, build))
            if plan is None:
                return game
            self.fault("committed")
            self.turns_resolved += sum(1 for row in plan.history if row.kind == "resolve")
            if plan.engine_state is not None:
                self.keep_state((game_id, game.row.version + 1), plan.engine_state)
            self.notify(game_id, self.wake_time(plan.status, plan.paused_at, plan.deadline_at, plan.reminder_at))
        return await self.get_game(game_id) if reload else None

    async def change(self, game_id: int, change: Callable[[Connection, Game], Awaitable[None]], **columns: Any) -> Game:
        """A change that is not a turn's (a lobby's, an admin's) in one transaction: ``change`` checks and
        writes; the game's version is bumped first (with ``columns`` set), so the game's row is this
        transaction's before any other, and a transition planned before cannot commit after."""

        async def attempt() -> None:
            async with self.db.transaction() as conn:
                game = await self.load(conn, game_id)
                await self.update_game(conn, game.row, **columns)
                await change(conn, game)

        async with self.lock(game_id):
            await self.retrying(attempt)
        return await self.get_game(game_id)

    def lock(self, game_id: int) -> asyncio.Lock:
        """The process's lock on one game: its changes are made one after another."""
        return self._locks[game_id]

    async def _plan_and_commit(self, game_id: int, build: Callable[[Planner, Game], None]) -> tuple[Game, Plan | None]:
        """One attempt: the snapshot, and the plan committed against it (None: nothing to do)."""
        async with self.db.reading() as conn:
            game, orders = await self.snapshot(conn, game_id)
            members = [p.user_id for p in game.players if p.user_id is not None]  # computers have no user id
            reminders = await chosen.reminder_settings(conn, members)
        if game.damage:
            raise GameError(game.damage)
        try:
            plan = await asyncio.to_thread(self._plan, game, orders, reminders, build)
        except NothingToDo:
            return game, None
        self.fault("planned")
        await self._commit(game.row, plan)
        return game, plan

    async def retrying(self, change: Callable[[], Awaitable[T]]) -> T:
        """Make ``change`` (reading a game, then one transaction writing it against the version read) again
        when another process changed the game at the same moment."""
        for _ in range(ATTEMPTS - 1):
            try:
                return await change()
            except Conflict:
                log.info("another process changed the game at the same moment; trying again")
        return await change()

    def _plan(
        self,
        game: Game,
        orders: dict[int, OrderRow],
        reminders: Mapping[int, ReminderSettings],
        build: Callable[[Planner, Game], None],
    ) -> Plan:
        planner = self.planner(game, orders, reminders)
        build(planner, game)
        return planner.finish()

    def planner(
        self, game: Game, orders: dict[int, OrderRow], reminders: Mapping[int, ReminderSettings] | None = None
    ) -> Planner:
        """A planner starting from this snapshot (``reminders``: the players' settings by user id);
        computer players search in the worker pool."""
        rs = self.ruleset(game.row)

        def bot_orders(state: dict[str, Any], computers: list[tuple[int, str, str | None, int]]) -> list[str]:
            return self.pool.call_each(bot_job, [(rs, state, *computer) for computer in computers])

        return Planner(
            rs, game.row, list(game.players), orders, self.clock.now(), game.state, bot_orders, reminders or {}
        )

    async def _commit(self, before: GameRow, plan: Plan) -> None:
        now = self.clock.now()
        async with self.db.transaction() as conn:
            first_seq = plan.seq - len(plan.history) + 1
            await rows.commit_plan(conn, before, plan, now)
            await history.append(conn, before.id, first_seq, plan.history, now)
            if plan.status == FINISHED and before.status != FINISHED and plan.result is not None:
                for finished in self.on_finish:
                    await finished(conn, before, plan.result, now)
            await self.announce(conn, before.id, plan.announcements)
            self.fault("in_transaction")

    async def announce(self, conn: Connection, game_id: int, announcements: list[News]) -> None:
        """Queue these announcements in the transaction of the change they announce."""
        queued = [(a.kind, json.dumps(a.to_payload())) for a in announcements]
        await outbox.enqueue(conn, game_id, queued, self.clock.now())

    def notify(self, game_id: int, wake_at: float | None) -> None:
        """Tell the runtime a game changed, and when it next wakes on its own."""
        for callback in self.on_commit:
            callback(game_id, wake_at)

    @staticmethod
    def wake_time(
        status: str, paused_at: float | None, deadline_at: float | None, reminder_at: float | None
    ) -> float | None:
        """When the game next needs the game master on its own: a reminder or a deadline."""
        if status != RUNNING or paused_at is not None:
            return None
        times = [t for t in (deadline_at, reminder_at) if t is not None]
        return min(times) if times else None

    async def update_game(self, conn: Connection, game: GameRow, **columns: Any) -> None:
        """A change outside the transition path: bump the version so a concurrent transition cannot overwrite it."""
        await rows.update_game(conn, game, self.clock.now(), **columns)

    # --- shared checks -------------------------------------------------------------------

    @staticmethod
    def require_status(game: Game, *allowed: str) -> None:
        if game.row.status in allowed:
            return
        words = {
            LOBBY: mark("game #{number} has not started yet"),
            RUNNING: mark("game #{number} is already running"),
            FINISHED: mark("game #{number} is over"),
            CANCELLED: mark("game #{number} was cancelled"),
        }
        raise WrongPhase(tr(words[game.row.status], number=game.id))

    @staticmethod
    def require_player(game: Game, actor: Actor) -> PlayerRow:
        player = game.player_of(actor.user_id)
        if player is None:
            raise NotAllowed(tr("you are not playing in game #{number}", number=game.id))
        return player

    @staticmethod
    def require_manager(game: Game, actor: Actor) -> None:
        """Its creator, or a manager of the server it was opened in (not of one it is mirrored in)."""
        if actor.user_id == game.row.creator_id or (actor.is_admin and actor.guild_id in (None, game.row.guild_id)):
            return
        if actor.is_admin:
            raise NotAllowed(
                tr(
                    "game #{number} was opened in another server: only its creator or that server's managers can do that",
                    number=game.id,
                )
            )
        raise NotAllowed(tr("only the creator of game #{number} or a server manager can do that", number=game.id))

    def require_seat_in_game(self, game: Game, actor: Actor) -> int:
        """The actor's seat in a running game he is still part of."""
        self.require_status(game, RUNNING)
        if game.damage:
            raise GameError(game.damage)
        player = self.require_player(game, actor)
        if player.seat is None or not self.still_playing(game, player.seat):
            raise NotAllowed(tr("you are no longer playing in game #{number}", number=game.id))
        return player.seat

    def still_playing(self, game: Game, seat: int) -> bool:
        return seat in self.ruleset(game.row).seats_in_game(game.state)

    def departed_seats(self, game: Game) -> frozenset[int]:
        """Seats of a running game that are out (eliminated, surrendered or removed)."""
        if game.state is None:
            return frozenset()
        seated = {p.seat for p in game.players if p.seat is not None}
        return frozenset(seated - self.ruleset(game.row).seats_in_game(game.state))
