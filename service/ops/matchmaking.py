"""Matchmaking: players wait in a queue for a kind of game (a ruleset, a speed, a seat count, in one
server, or shared among the servers that opt in); when enough of similar rating wait, they are matched
in a ready check (posted where each queued), each to answer within an hour; once all have, their game
opens (its card and thread; mirrored in each other server of its players) and starts. Those who did
not answer in time go to the queue's end (at a second lapse in a row, out of it); those who did keep
their places, as everyone does when one says not now or the game cannot open. Entries lapse after a
day.

How near in rating: the player waiting longest is matched first, with the players nearest his rating
within ``BASE_SPREAD``, a window that widens by ``SPREAD_PER_HOUR`` for each hour he has waited, so
that a quiet queue still makes games. Ratings are the conservative estimate players see (0 for a new
player, about 25 for a strong one).

Restart-safe: every step is stored, and the sweep picks up what a stop left (checks that lapsed, a
game to open or start). Among several processes, one matches at a time and one opens a check's game
(leases); a check's last two answers given at once in two processes are noticed at the next sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from i18n import joined, tr
from service.errors import GameError, NotAllowed, WrongPhase
from service.models import LOBBY, RUNNING, Actor, Game, Mirror, TimeSettings
from service.ops.games import Games, ruleset_named
from service.ops.lobby import MAX_OPEN_GAMES_PER_CHANNEL, Lobby
from service.ops.ratings import GLOBAL, Ratings
from service.runtime.claims import MATCHMAKING, READY_CHECK
from service.storage import games as game_rows
from service.storage import matchmaking as rows
from service.storage.errors import StorageFailure
from service.storage.matchmaking import (
    DECLINED,
    FAILED,
    LAPSED,
    OPENED,
    READY,
    SHARED,
    WAITING,
    Check,
    CheckPost,
    Entry,
    Member,
    Queue,
)
from service.storage.store import Connection

log = logging.getLogger(__name__)

SPEEDS = {"fast": 3600, "daily": 86400, "relaxed": 3 * 86400}  # each turn's time
ENTRY_SECONDS = 86400.0  # an entry lapses after a day in the queue (joining again renews it)
READY_SECONDS = 3600.0  # the time a ready check gives
MOST_ENGAGED = 3  # queue places a player may hold at once: entries, checks and the games they opened
BASE_SPREAD, SPREAD_PER_HOUR = 5.0, 5.0


@dataclass(frozen=True)
class Queued:
    """What joining a queue did: whether he was new there, how many wait in it, the check he is in now."""

    new: bool
    waiting: int
    check: Check | None


class Matchmaking:
    def __init__(self, games: Games, lobby: Lobby, ratings: Ratings):
        self.games, self.lobby, self.ratings = games, lobby, ratings
        self.db, self.clock, self.rulesets = games.db, games.clock, games.rulesets
        # The leases are the process's: its own tasks match, and open a check's game, one at a time.
        self._matching, self._opening = asyncio.Lock(), asyncio.Lock()
        # What shows a matched game before it starts (the bot: its lobby card and thread).
        self.on_open: list[Callable[[Game], Awaitable[Game]]] = []

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[Connection]:
        """A transaction on the queues, one at a time among processes: a check's last answer, its lapse
        and a player's leaving never cross."""
        async with self.db.transaction() as conn:
            await self.db.serialize(conn, "matchmaking")
            yield conn

    async def join(
        self, actor: Actor, *, guild_id: int, channel_id: int, ruleset: str, speed: str, seats: int
    ) -> Queued:
        """Wait for a game of ``ruleset`` at ``speed`` for ``seats`` players; matched at once if the
        queue has his match."""
        rs = ruleset_named(self.rulesets, ruleset)
        if speed not in SPEEDS:
            raise GameError(tr("a speed is {speeds}, not {speed!r}", speeds=joined(SPEEDS), speed=speed))
        if not rs.min_players <= seats <= rs.max_players:
            raise GameError(
                tr(
                    "{game} seats {least} to {most} players",
                    game=tr(rs.title),
                    least=rs.min_players,
                    most=rs.max_players,
                )
            )
        stats = await self.ratings.player_stats(actor.user_id, GLOBAL)
        rating = stats[rs.name][0].rating if rs.name in stats else 0.0
        now = self.clock.now()
        async with self._writing() as conn:
            shared = guild_id in await rows.shared_servers(conn, [guild_id])
            queue = Queue(rs.name, speed, seats, SHARED if shared else guild_id)
            entry = Entry(actor.user_id, actor.name, queue, guild_id, channel_id, rating, now, now + ENTRY_SECONDS)
            for pending in await rows.checks(conn, WAITING, READY):
                if pending.queue == queue and any(
                    m.user_id == actor.user_id for m in await rows.members(conn, pending.id)
                ):
                    raise WrongPhase(tr("a game is found for you already: press **Ready** on its post"))
            already = any(e.queue == queue for e in await rows.entries_of(conn, actor.user_id))
            if not already and await rows.engaged(conn, actor.user_id, (LOBBY, RUNNING)) >= MOST_ENGAGED:
                raise GameError(
                    tr(
                        "you already wait in or play {most} games from queues: finish one, or leave a queue "
                        "with `/play cancel`",
                        most=MOST_ENGAGED,
                    )
                )
            if await game_rows.open_in_channel(conn, channel_id) >= MAX_OPEN_GAMES_PER_CHANNEL:
                raise GameError(
                    tr(
                        "this channel already has {count} open games: queue from another one",
                        count=MAX_OPEN_GAMES_PER_CHANNEL,
                    )
                )
            new = await rows.enqueue(conn, entry)
        await self.match()
        async with self.db.reading() as conn:
            count = len(await rows.waiting(conn, queue, now))
        found = [c for c in await self.pending_checks(actor.user_id, guild_id) if c[0].queue == queue]
        return Queued(new, count, found[0][0] if found else None)

    async def cancel(self, actor: Actor, guild_id: int) -> int:
        """Leave every queue he joined from the server and every ready check still waiting that matched
        him there, answered or not (the others matched keep their places). How many places he gave up."""
        given_up = 0
        async with self._writing() as conn:
            for entry in await rows.entries_of(conn, actor.user_id):
                if entry.guild_id == guild_id:
                    await rows.remove(conn, actor.user_id, entry.queue)
                    given_up += 1
            for check in await rows.checks(conn, WAITING):
                mine = [m for m in await rows.members(conn, check.id) if m.user_id == actor.user_id]
                if mine and mine[0].guild_id == guild_id:
                    await self._end(conn, check, DECLINED, leaving=actor.user_id)
                    given_up += 1
        return given_up

    async def entries(self, user_id: int, guild_id: int) -> list[Entry]:
        """The queues he joined from the server."""
        async with self.db.reading() as conn:
            return [e for e in await rows.entries_of(conn, user_id) if e.guild_id == guild_id]

    async def shared(self, guild_id: int) -> bool:
        """Whether the server's players wait in the queues shared among servers."""
        async with self.db.reading() as conn:
            return guild_id in await rows.shared_servers(conn, [guild_id])

    async def share(self, guild_id: int, shared: bool, actor: Actor) -> None:
        """A server's managers choose whether its players wait in the shared queues (their games then
        mirrored in each of their players' servers) or in its own; those waiting move, keeping their places."""
        if not actor.is_admin:
            raise NotAllowed(tr("only server managers (Manage Server) can choose where the server's players queue"))
        async with self._writing() as conn:
            await rows.set_shared(conn, guild_id, shared, actor.user_id, self.clock.now())
        await self.match()

    async def pending_checks(self, user_id: int, guild_id: int) -> list[tuple[Check, bool]]:
        """The ready checks that matched him from the server and wait for answers, each with whether he
        has answered."""
        found = []
        async with self.db.reading() as conn:
            for check in await rows.checks(conn, WAITING):
                mine = [m for m in await rows.members(conn, check.id) if m.user_id == user_id]
                if mine and mine[0].guild_id == guild_id:
                    found.append((check, mine[0].ready_at is not None))
        return found

    async def check(self, check_id: int) -> tuple[Check, list[Member]]:
        async with self.db.reading() as conn:
            found = await rows.check_by_id(conn, check_id)
            if found is None:
                raise GameError(tr("there is no ready check #{number}", number=check_id))
            return found, await rows.members(conn, check_id)

    async def ready(self, check_id: int, actor: Actor) -> Check:
        """He answers the check; when everyone has, its game opens and starts (one that cannot open
        ends the check, everyone keeping his place; one that fails for now opens at the next sweep)."""
        async with self._writing() as conn:
            check, matched = await self._waiting_for(conn, check_id, actor)
            await rows.set_ready(conn, check_id, actor.user_id, self.clock.now())
            everyone = all(m.ready_at is not None or m.user_id == actor.user_id for m in matched)
            if everyone and await rows.set_status(conn, check_id, READY, WAITING):
                check = replace(check, status=READY)
        if check.status == READY:
            try:
                await self._open(check_id)
            except Exception:  # noqa: BLE001 - a passing failure: the sweep tries again
                log.warning("ready check #%s: its game not opened yet", check_id, exc_info=True)
        return (await self.check(check_id))[0]

    async def decline(self, check_id: int, actor: Actor) -> None:
        """He says not now: the check is over and he leaves that queue; the others keep their places."""
        async with self._writing() as conn:
            check, _ = await self._waiting_for(conn, check_id, actor)
            await self._end(conn, check, DECLINED, leaving=actor.user_id)

    async def _waiting_for(self, conn: Connection, check_id: int, actor: Actor) -> tuple[Check, list[Member]]:
        """The check, if it matched him and still waits for answers."""
        check = await rows.check_by_id(conn, check_id)
        matched = await rows.members(conn, check_id) if check is not None else []
        if check is None or all(m.user_id != actor.user_id for m in matched):
            raise NotAllowed(tr("this ready check is not yours: `/play queue` to find a game"))
        if check.status != WAITING:
            said = {
                READY: tr("everyone is ready: the game is opening"),
                OPENED: tr("its game has started: game #{number}", number=check.game_id),
            }
            raise WrongPhase(said.get(check.status, tr("this ready check is over")))
        return check, matched

    async def sweep(self) -> None:
        """The queues' part of the sweep: entries that lapsed go, checks past their hour lapse, checks
        everyone answered (at once, in two processes) open, games a stop left unopened open (a check
        whose game cannot open ends, everyone keeping his place), and the queues are matched."""
        async with self._matching, self.games.claims.holding(MATCHMAKING, 0) as held:
            if not held:
                return
            now = self.clock.now()
            async with self._writing() as conn:
                await rows.expire(conn, now)
                for check in await rows.checks(conn, WAITING):
                    matched = await rows.members(conn, check.id)
                    if all(m.ready_at is not None for m in matched):
                        await rows.set_status(conn, check.id, READY, WAITING)
                    elif check.expires_at <= now:
                        await self._end(conn, check, LAPSED)
                ready = await rows.checks(conn, READY)
            await self._match_all()
        for check in ready:  # each on its own: one's trouble never holds up the others
            try:
                await self._open(check.id, give_up=now >= check.expires_at + READY_SECONDS)
            except Exception:  # noqa: BLE001 - a passing failure: tried again at the next sweep, for an hour
                log.warning("ready check #%s: its game not opened yet", check.id, exc_info=True)

    async def match(self) -> None:
        """Match every queue with players enough (by one process at a time)."""
        async with self._matching, self.games.claims.holding(MATCHMAKING, 0) as held:
            if held:
                await self._match_all()

    async def untold(self) -> list[Check]:
        async with self.db.reading() as conn:
            return await rows.untold(conn)

    async def posts(self, check_id: int) -> list[CheckPost]:
        async with self.db.reading() as conn:
            return await rows.posts(conn, check_id)

    async def posted(self, check_id: int, channel_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await rows.set_posted(conn, check_id, channel_id, message_id)

    async def told(self, check_id: int, status: str) -> None:
        async with self.db.transaction() as conn:
            await rows.set_told(conn, check_id, status)

    async def _match_all(self) -> None:
        now = self.clock.now()
        async with self._writing() as conn:
            for queue in await rows.full_queues(conn, now):
                for table in matched(await rows.waiting(conn, queue, now), now):
                    # The game opens where the first of them queued (the table is made around another).
                    group = sorted(table, key=lambda e: (e.queued_at, e.user_id))
                    check = Check(0, queue, group[0].channel_id, now, now + READY_SECONDS, WAITING, None, "")
                    members = [
                        Member(
                            e.user_id, e.name, e.guild_id, e.channel_id, e.rating, e.queued_at, e.expires_at, e.missed
                        )
                        for e in group
                    ]
                    await rows.add_check(conn, check, members)

    async def _end(self, conn: Connection, check: Check, how: str, leaving: int | None = None) -> None:
        """The check is over without a game (``how``): whoever answered, or was not to blame, goes back
        to his place; one who let it lapse goes to the queue's end, or out of the queue at his second
        lapse in a row; ``leaving`` leaves the queue. Each entry lapses when it would have, in the queue
        his server has him wait in now (its own, or the shared one)."""
        if not await rows.set_status(conn, check.id, how, check.status):
            return  # ended meanwhile
        now = self.clock.now()
        matched = await rows.members(conn, check.id)
        shared = await rows.shared_servers(conn, [m.guild_id for m in matched])
        for m in matched:
            if m.user_id == leaving or m.expires_at <= now:
                continue
            place, missed = m.queued_at, (0 if m.ready_at is not None else m.missed)
            if how == LAPSED and m.ready_at is None:
                if m.missed >= 1:
                    continue
                place, missed = now, m.missed + 1
            queue = replace(check.queue, guild_id=SHARED if m.guild_id in shared else m.guild_id)
            entry = Entry(m.user_id, m.name, queue, m.guild_id, m.channel_id, m.rating, place, m.expires_at, missed)
            await rows.enqueue(conn, entry)

    async def _open(self, check_id: int, *, give_up: bool = False) -> None:
        """The check's game, opened for its players (the first to queue creates it; its seats drawn as
        any game's), shown and started; a game opened before a stop is taken up where it was. One
        refused for good where it was asked (a full channel, a lobby cancelled on its way), or with
        ``give_up`` after failing for an hour, ends the check (``_fail``). A passing failure (the
        database, Discord) is raised: the next sweep tries again."""
        async with self._opening, self.games.claims.holding(READY_CHECK, check_id) as held:
            if not held:
                return  # another process opens it (or the next sweep, should it fail)
            async with self.db.reading() as conn:
                check = await rows.check_by_id(conn, check_id)
                matched = await rows.members(conn, check_id)
            if check is None or check.status != READY:
                return
            if give_up:
                await self._fail(check)
                return
            players = [Actor(m.user_id, m.name) for m in matched]
            game = await self.games.get_game(check.game_id) if check.game_id is not None else None
            try:
                if game is None:

                    async def noted(conn: Connection, game_id: int) -> None:
                        if not await rows.note_game(conn, check_id, game_id):  # the check moved on meanwhile
                            raise WrongPhase(tr("this ready check is over"))

                    game = await self.lobby.create_game(
                        guild_id=matched[0].guild_id,
                        channel_id=check.channel_id,
                        actor=players[0],
                        ruleset=check.queue.ruleset,
                        options={},
                        time=TimeSettings(round_seconds=SPEEDS[check.queue.speed]),
                        min_players=check.queue.seats,
                        max_players=check.queue.seats,
                        noted=noted,
                        mirrors=mirrors(matched),
                    )
                    check = replace(check, game_id=game.id)
                if not await self.games.claims.keep(READY_CHECK, check_id):
                    return  # the lease ran out while Discord was slow: another process goes on
                game = await self.lobby.seat_and_start(game, players, players[0], self.on_open, seated=False)
            except StorageFailure:
                raise
            except GameError as err:
                log.info("ready check #%s: its game cannot open: %s", check_id, err)
                await self._fail(check)
                return
            if game.row.status != RUNNING:  # cancelled on its way, before a stop
                await self._fail(check)
                return
            async with self._writing() as conn:
                await rows.set_status(conn, check_id, OPENED, READY, game.id)

    async def _fail(self, check: Check) -> None:
        """Its game cannot open (under the check's lock and lease): a lobby made for it is cancelled
        first, then the check ends with everyone back in his place; a game that did start after all
        makes it opened instead."""
        game = await self.games.get_game(check.game_id) if check.game_id is not None else None
        if game is not None and game.row.status == LOBBY:
            with contextlib.suppress(GameError):  # cancelled meanwhile
                game = await self.lobby.cancel(game.id, Actor(game.row.creator_id, "", is_admin=True))
        async with self._writing() as conn:
            if game is not None and game.row.status == RUNNING:
                await rows.set_status(conn, check.id, OPENED, READY, game.id)
            else:
                await self._end(conn, check, FAILED)


def mirrors(matched: Sequence[Member]) -> dict[Mirror, list[int]]:
    """Where a game of players from several servers is mirrored: each server but the first player's
    (where it opens), in the channel its first player queued from, with the players from there."""
    found: dict[int, Mirror] = {}
    players: dict[Mirror, list[int]] = {}
    for m in matched[1:]:
        if m.guild_id != matched[0].guild_id:
            mirror = found.setdefault(m.guild_id, Mirror(m.guild_id, m.channel_id))
            players.setdefault(mirror, []).append(m.user_id)
    return players


def matched(entries: Sequence[Entry], now: float) -> list[list[Entry]]:
    """The tables a queue makes now: the player waiting longest first, with the players nearest his
    rating within his window (``BASE_SPREAD`` widened by ``SPREAD_PER_HOUR`` an hour waited); one whose
    window holds too few waits, and the next is tried."""
    left = list(entries)
    tables = []
    seats = entries[0].queue.seats if entries else 0
    for anchor in list(left):
        if anchor not in left:
            continue
        spread = BASE_SPREAD + SPREAD_PER_HOUR * max(0.0, now - anchor.queued_at) / 3600
        near = sorted(
            (e for e in left if e is not anchor and abs(e.rating - anchor.rating) <= spread),
            key=lambda e: (abs(e.rating - anchor.rating), e.queued_at),
        )
        if len(near) >= seats - 1:
            table = [anchor, *sorted(near[: seats - 1], key=lambda e: e.queued_at)]
            tables.append(table)
            left = [e for e in left if e not in table]
    return tables
