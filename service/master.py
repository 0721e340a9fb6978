"""The game master: every change to a game goes through here, and each is one transaction.

Turn transitions (start, pass, deadline, surrender, removal) follow one path: under the game's lock,
read a snapshot, plan the change off the event loop (``service.turns``), then write the plan in one
transaction guarded by the game's version. A crash anywhere before COMMIT leaves the game as it was;
the next wake-up plans the same change again from the same snapshot, to the same result.

The lock is the process's own. Another bot process on the same database (``service.claims``) can
only make the version check fail: the change is then planned again from the new snapshot, and
every write to a game takes the game's row first, so two processes never wait on each other's rows.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal, TypeVar, overload

from engine import RULESETS, EngineError, Ruleset
from i18n import mark, tr
from service.announcements import News
from service.claims import Claims
from service.clock import Clock
from service.errors import Conflict, GameError, GameNotFound, NotAllowed, WrongPhase
from service.models import CANCELLED, FINISHED, LOBBY, RUNNING, Actor, Game, GameRow, OrderRow, PlayerRow
from service.reminders import DEFAULT_TIME_ZONE, ReminderSettings
from service.storage.packing import pack
from service.storage.store import Connection, Store
from service.turns import Plan, Planner
from service.workers import CpuPool, bot_job

log = logging.getLogger(__name__)

T = TypeVar("T")
Fault = Callable[[str], None]
PARSED_STATES_KEPT = 512
ATTEMPTS = 3  # a change that meets another process's at the same moment is made again from the new state


class NothingToDo(Exception):
    """A wake-up found the game already moved on (another path got there first)."""


def _no_fault(point: str) -> None:
    return None


class GameMasterCore:
    """Storage, locking and the transition path shared by the lobby and play operations."""

    def __init__(
        self,
        db: Store,
        clock: Clock,
        *,
        rulesets: Mapping[str, Ruleset] = RULESETS,
        pool: CpuPool | None = None,
        claims: Claims | None = None,
        fault: Fault = _no_fault,
    ):
        self.db, self.clock, self.rulesets, self.fault = db, clock, rulesets, fault
        self.pool = pool or CpuPool(workers=0)
        self.claims = claims or Claims(db, clock, shared=db.shared)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._states: OrderedDict[tuple[int, int], Any] = OrderedDict()
        self.on_commit: list[Callable[[int, float | None], None]] = []  # (game id, next wake) after each write

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
        state = self._states.get(key)
        if state is None:
            state = self.ruleset(game).from_dict(game.state or {})
            self._keep_state(key, state)
        else:
            self._states.move_to_end(key)
        return state

    def _keep_state(self, key: tuple[int, int], state: Any) -> None:
        self._states[key] = state
        if len(self._states) > PARSED_STATES_KEPT:
            self._states.popitem(last=False)

    # --- reading -------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        async with self.db.reading() as conn:
            return await self._load(conn, game_id)

    async def _load(self, conn: Connection, game_id: int) -> Game:
        return (await self._snapshot(conn, game_id))[0]

    async def _snapshot(self, conn: Connection, game_id: int) -> tuple[Game, dict[int, OrderRow]]:
        """The game, and the orders of its current turn (read once: the game's ``passed`` comes from them)."""
        async with conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise GameNotFound(tr("there is no game #{number}", number=game_id))
        game = GameRow.from_row(row)
        async with conn.execute("SELECT * FROM players WHERE game_id = ? ORDER BY joined_at, id", (game_id,)) as cursor:
            players = tuple(
                PlayerRow(
                    r["id"],
                    r["user_id"],
                    r["name"],
                    r["seat"],
                    r["missed"],
                    r["bank_left"],
                    bool(r["draw_agreed"]),
                    r["ai_level"],
                    r["remind_at"],
                    r["reminded_turn"],
                )
                for r in await cursor.fetchall()
            )
        orders = await self._orders(conn, game)
        acting: frozenset[int] = frozenset()
        state, damage = None, None
        if game.status == RUNNING:
            try:
                state = self.state_of(game)
                acting = self.ruleset(game).acting_players(state)
            except Exception as err:  # noqa: BLE001 - one game that cannot load never hides or blocks the others
                log.error(
                    "game #%s has a damaged state: %s",
                    game_id,
                    err,
                    exc_info=not isinstance(err, (EngineError, GameError)),
                )
                damage = tr(
                    "game #{number} has damaged data and cannot continue; a server manager can cancel it (details: {error})",
                    number=game_id,
                    error=err,
                )
        passed = frozenset(seat for seat, row in orders.items() if row.passed)
        return Game(game, players, passed, acting, damage, state), orders

    async def _orders(self, conn: Connection, game: GameRow) -> dict[int, OrderRow]:
        async with conn.execute(
            "SELECT seat, text, passed, updated_at FROM orders WHERE game_id = ? AND turn = ?", (game.id, game.turn)
        ) as cursor:
            return {
                r["seat"]: OrderRow(r["seat"], r["text"], bool(r["passed"]), r["updated_at"])
                for r in await cursor.fetchall()
            }

    # --- the transition path -------------------------------------------------------------

    @overload
    async def _transition(
        self, game_id: int, build: Callable[[Planner, Game], None], *, reload: Literal[True] = True
    ) -> Game: ...

    @overload
    async def _transition(
        self, game_id: int, build: Callable[[Planner, Game], None], *, reload: bool
    ) -> Game | None: ...

    async def _transition(
        self, game_id: int, build: Callable[[Planner, Game], None], *, reload: bool = True
    ) -> Game | None:
        """Plan with ``build`` (which may raise a GameError to refuse, or NothingToDo) and commit atomically;
        returns the game as it is after (unless ``reload`` is false: a deadline has no one to show it to)."""
        async with self._locks[game_id]:
            game, plan = await self._retrying(lambda: self._plan_and_commit(game_id, build))
            if plan is None:
                return game
            self.fault("committed")
            if plan.engine_state is not None:
                self._keep_state((game_id, game.row.version + 1), plan.engine_state)
            self._notify(game_id, self.wake_time(plan.status, plan.paused_at, plan.deadline_at, plan.reminder_at))
        return await self.get_game(game_id) if reload else None

    async def _plan_and_commit(self, game_id: int, build: Callable[[Planner, Game], None]) -> tuple[Game, Plan | None]:
        """One attempt: the snapshot, and the plan committed against it (None: nothing to do)."""
        async with self.db.reading() as conn:
            game, orders = await self._snapshot(conn, game_id)
            members = [p.user_id for p in game.players if p.user_id is not None]  # computers have no user id
            reminders = await self._reminder_settings(conn, members)
        if game.damage:
            raise GameError(game.damage)
        try:
            plan = await asyncio.to_thread(self._plan, game, orders, reminders, build)
        except NothingToDo:
            return game, None
        self.fault("planned")
        await self._commit(game.row, plan)
        return game, plan

    async def _retrying(self, change: Callable[[], Awaitable[T]]) -> T:
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

        def bot_orders(state: dict[str, Any], seat: int, seed: str, level: str | None, nodes: int) -> str:
            return self.pool.call(bot_job, rs, state, seat, seed, level, nodes)

        return Planner(
            rs, game.row, list(game.players), orders, self.clock.now(), game.state, bot_orders, reminders or {}
        )

    @staticmethod
    async def _reminder_settings(conn: Connection, user_ids: list[int]) -> dict[int, ReminderSettings]:
        """The stored reminder settings of these users (those who never chose any are left out)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        async with conn.execute(f"SELECT * FROM user_settings WHERE user_id IN ({marks})", user_ids) as cursor:
            return {
                r["user_id"]: ReminderSettings(
                    lead_seconds=r["lead_seconds"],
                    dm_reminders=bool(r["dm_reminders"]),
                    quiet_start=r["quiet_start"],
                    quiet_end=r["quiet_end"],
                    time_zone=r["time_zone"] or DEFAULT_TIME_ZONE,
                )
                for r in await cursor.fetchall()
            }

    async def _commit(self, before: GameRow, plan: Plan) -> None:
        now = self.clock.now()
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                """UPDATE games SET state = ?, turn = ?, seq = ?, status = ?, result = ?, turn_started_at = ?,
                          deadline_at = ?, reminder_at = ?, paused_at = ?, version = version + 1, updated_at = ?
                   WHERE id = ? AND version = ?""",
                (
                    json.dumps(plan.state),
                    plan.turn,
                    plan.seq,
                    plan.status,
                    json.dumps(plan.result) if plan.result is not None else None,
                    plan.turn_started_at,
                    plan.deadline_at,
                    plan.reminder_at,
                    plan.paused_at,
                    now,
                    before.id,
                    before.version,
                ),
            )
            if cursor.rowcount != 1:
                raise Conflict(tr("game #{number} changed at the same moment; try again", number=before.id))
            first_seq = plan.seq - len(plan.history) + 1
            await conn.executemany(
                "INSERT INTO history (game_id, seq, turn, kind, payload, events, state_after, at) VALUES (?,?,?,?,?,?,?,?)",
                [
                    (
                        before.id,
                        first_seq + i,
                        h.turn,
                        h.kind,
                        pack(h.payload),
                        pack(h.events),
                        pack(h.state_after),
                        now,
                    )
                    for i, h in enumerate(plan.history)
                ],
            )
            await conn.executemany(
                """UPDATE players SET seat = ?, missed = ?, bank_left = ?, draw_agreed = ?, remind_at = ?,
                          reminded_turn = ? WHERE id = ?""",
                [
                    (p.seat, p.missed, p.bank_left, int(p.draw_agreed), p.remind_at, p.reminded_turn, p.id)
                    for p in plan.players.values()
                ],
            )
            await conn.execute("DELETE FROM orders WHERE game_id = ?", (before.id,))
            await conn.executemany(
                "INSERT INTO orders (game_id, turn, seat, text, passed, passed_at, updated_at) VALUES (?,?,?,?,?,?,?)",
                [
                    (before.id, plan.turn, o.seat, o.text, int(o.passed), now if o.passed else None, now)
                    for o in plan.orders.values()
                ],
            )
            await self._announce(conn, before.id, plan.announcements)
            self.fault("in_transaction")

    async def _announce(self, conn: Connection, game_id: int, announcements: list[News]) -> None:
        now = self.clock.now()
        await conn.executemany(
            "INSERT INTO outbox (game_id, kind, payload, created_at, next_attempt) VALUES (?,?,?,?,?)",
            [(game_id, a.kind, json.dumps(a.to_payload()), now, now) for a in announcements],
        )

    def _notify(self, game_id: int, wake_at: float | None) -> None:
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

    async def _update_game(self, conn: Connection, game: GameRow, **columns: Any) -> None:
        """A lobby or admin change: bump the version so a concurrent transition cannot overwrite it."""
        names = "".join(f"{name} = ?, " for name in columns)
        cursor = await conn.execute(
            f"UPDATE games SET {names}version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (*columns.values(), self.clock.now(), game.id, game.version),
        )
        if cursor.rowcount != 1:
            raise Conflict(tr("game #{number} changed at the same moment; try again", number=game.id))

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
        if actor.user_id != game.row.creator_id and not actor.is_admin:
            raise NotAllowed(tr("only the creator of game #{number} or a server manager can do that", number=game.id))

    def require_seat_in_game(self, game: Game, actor: Actor) -> int:
        """The actor's seat in a running game he is still part of."""
        self.require_status(game, RUNNING)
        if game.damage:
            raise GameError(game.damage)
        player = self.require_player(game, actor)
        if player.seat is None or not self._still_playing(game, player.seat):
            raise NotAllowed(tr("you are no longer playing in game #{number}", number=game.id))
        return player.seat

    def _still_playing(self, game: Game, seat: int) -> bool:
        return seat in self.ruleset(game.row).seats_in_game(game.state)

    def departed_seats(self, game: Game) -> frozenset[int]:
        """Seats of a running game that are out (eliminated, surrendered or removed)."""
        if game.state is None:
            return frozenset()
        seated = {p.seat for p in game.players if p.seat is not None}
        return frozenset(seated - self.ruleset(game.row).seats_in_game(game.state))
