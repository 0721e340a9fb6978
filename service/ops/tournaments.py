"""Tournaments that run themselves: players sign up, the creator starts it, and each round's games are
opened, paired by the format (``service.pairing``), and scored as they end; when every game of a
round is over the next round opens (``advance``, from the sweep and at start-up), and after the last
one the tournament is over with its standings.

A round's tables are written (paired, no game yet) in one transaction with the round's number, and
each game is opened afterwards, noted at its table in the transaction that makes it; a process
stopped on the way opens, seats and starts what is missing when it next advances. One process moves a
tournament at a time (a lease, and a lock within the process), and its sign-up, start, withdrawals
and pairings are serialised among processes. The organiser manages every game (no player can cancel
or kick in his own); a cancelled game counts as a draw. Games are rated as any other game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from engine import EngineError
from i18n import joined, tr
from service import pairing
from service.errors import GameError, NotAllowed, WrongPhase
from service.models import CANCELLED as CANCELLED_GAME
from service.models import LOBBY, Actor, Game, GameRow, InTournament, TimeSettings
from service.ops.games import Games, ruleset_named
from service.ops.lobby import Lobby
from service.ops.play import Play
from service.runtime.claims import TOURNAMENT
from service.storage import games as game_rows
from service.storage import tournaments as rows
from service.storage.store import Connection
from service.storage.tournaments import CANCELLED, FINISHED, RUNNING, SIGNUP, Entrant, Table, Tournament

log = logging.getLogger(__name__)

SWISS, ROUND_ROBIN, POOLS = "swiss", "round-robin", "pools"
FORMATS = (SWISS, ROUND_ROBIN, POOLS)
MOST_ROUNDS = 20
MOST_PLAYERS = 64


class Tournaments:
    def __init__(self, games: Games, lobby: Lobby, play: Play):
        self.games, self.lobby, self.play = games, lobby, play
        self._moving: dict[int, asyncio.Lock] = {}  # a tournament moves on one step at a time in a process
        # What shows a tournament's new game before it starts (the bot: its lobby card and thread);
        # each returns the game as it is then.
        self.on_open: list[Callable[[Game], Awaitable[Game]]] = []
        self.db, self.clock, self.rulesets = games.db, games.clock, games.rulesets

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        actor: Actor,
        ruleset: str,
        format: str,
        rounds: int = 0,
        options: Mapping[str, Any] | None = None,
        round_seconds: int = 86400,
        starts_at: float | None = None,
    ) -> Tournament:
        """A tournament open for sign-up, its creator entered. Swiss and pools play ``rounds`` rounds;
        a round robin as many as its players need. At ``starts_at`` it starts by itself (``start_due``);
        without one, when its creator starts it."""
        rs = ruleset_named(self.rulesets, ruleset)
        if format not in FORMATS:
            raise GameError(tr("a tournament is {formats}, not {format!r}", formats=joined(FORMATS), format=format))
        if format == POOLS and rs.max_players < 3:
            raise GameError(tr("pools seat three or more a table; {game} takes two", game=tr(rs.title)))
        if format != ROUND_ROBIN and not 1 <= rounds <= MOST_ROUNDS:
            raise GameError(tr("a tournament plays 1 to {most} rounds", most=MOST_ROUNDS))
        try:
            settled = rs.normalize_options(options or {})
        except EngineError as err:
            raise GameError(str(err)) from err
        made = Tournament(
            0,
            guild_id,
            channel_id,
            actor.user_id,
            ruleset,
            format,
            rounds,
            settled,
            round_seconds,
            SIGNUP,
            0,
            0.0,
            starts_at=starts_at,
        )
        async with self.db.transaction() as conn:
            made = replace(made, created_at=self.clock.now())
            made = replace(made, id=await rows.insert(conn, made))
            await rows.enter(conn, made.id, Entrant(actor.user_id, actor.name, self.clock.now()))
        return made

    async def get(self, tournament_id: int, guild_id: int | None = None) -> Tournament:
        """The tournament (of server ``guild_id`` when given: another server's is none of its business)."""
        async with self.db.reading() as conn:
            found = await rows.by_id(conn, tournament_id)
        if found is None or guild_id not in (None, found.guild_id):
            raise GameError(tr("there is no tournament #{number}", number=tournament_id))
        return found

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        async with self.db.reading() as conn:
            return await rows.entrants(conn, tournament_id)

    async def tables(self, tournament_id: int) -> list[Table]:
        async with self.db.reading() as conn:
            return await rows.tables(conn, tournament_id)

    async def join(self, tournament_id: int, actor: Actor, guild_id: int | None = None) -> None:
        async with self.db.transaction() as conn:
            t = await self._in(conn, tournament_id, guild_id, SIGNUP)
            entered = await rows.entrants(conn, tournament_id)
            if any(e.user_id == actor.user_id for e in entered):
                raise GameError(tr("you are already in tournament #{number}", number=tournament_id))
            if len(entered) >= MOST_PLAYERS:
                raise GameError(tr("tournament #{number} is full ({most} players)", number=t.id, most=MOST_PLAYERS))
            await rows.enter(conn, tournament_id, Entrant(actor.user_id, actor.name, self.clock.now()))

    async def leave(self, tournament_id: int, actor: Actor, guild_id: int | None = None) -> None:
        """Before the start, out of the list; once it runs, withdrawn: paired no more, his games in hand
        surrendered (a loss to whoever he plays)."""
        async with self.db.transaction() as conn:
            t = await self._in(conn, tournament_id, guild_id, SIGNUP, RUNNING)
            entered = {e.user_id: e for e in await rows.entrants(conn, tournament_id)}
            if actor.user_id not in entered or entered[actor.user_id].withdrawn_at is not None:
                raise GameError(tr("you are not in tournament #{number}", number=tournament_id))
            if t.status == SIGNUP:
                await rows.leave(conn, tournament_id, actor.user_id)
                return
            await rows.withdraw(conn, tournament_id, actor.user_id, self.clock.now())
            playing = [
                table.game_id
                for table in await rows.tables(conn, tournament_id)
                if table.points is None and table.game_id is not None and actor.user_id in table.seats
            ]
        for game_id in playing:
            await self._surrender(game_id, actor)

    async def start(self, tournament_id: int, actor: Actor, guild_id: int | None = None) -> None:
        """Its creator (or a server manager) starts it: round 1 opens."""
        async with self.db.transaction() as conn:
            t = await self._in(conn, tournament_id, guild_id, SIGNUP)
            self._require_organiser(t, actor)
            entered = await rows.entrants(conn, tournament_id)
            least = 3 if t.format == POOLS else 2
            if len(entered) < least:
                raise GameError(
                    tr(
                        "tournament #{number} needs {least} players to start; it has {count}",
                        number=t.id,
                        least=least,
                        count=len(entered),
                    )
                )
            if t.format == POOLS and not self._pools(t, [e.user_id for e in entered], {}):
                raise GameError(
                    tr(
                        "{count} players cannot sit at tables of {game}: one more or one fewer, please",
                        count=len(entered),
                        game=tr(self.rulesets[t.ruleset].title),
                    )
                )
            rounds = len(entered) - 1 + len(entered) % 2 if t.format == ROUND_ROBIN else t.rounds
            await rows.set_rounds(conn, t.id, rounds)
            await rows.set_state(conn, t.id, RUNNING, 0)
        async with self.games.claims.holding(TOURNAMENT, tournament_id) as held:
            if held:  # else another process opens round 1 now
                await self.advance(tournament_id)

    async def start_due(self) -> None:
        """Start each tournament whose start time has come (the sweep's part); one that cannot start
        (too few players, or a count no tables fit) is cancelled, and its post says so with the count
        of players signed up."""
        async with self.db.reading() as conn:
            due = await rows.due_to_start(conn, self.clock.now())
        for t in due:
            try:
                await self.start(t.id, self._organiser(t))
            except WrongPhase:
                pass  # started or cancelled meanwhile (by hand, or by another process)
            except GameError as err:
                log.info("tournament #%s cancelled at its start time: %s", t.id, err)
                with contextlib.suppress(WrongPhase):  # started or cancelled meanwhile
                    await self.cancel(t.id, self._organiser(t))

    async def cancel(self, tournament_id: int, actor: Actor, guild_id: int | None = None) -> None:
        """Its creator (or a server manager) calls it off before it starts."""
        async with self.db.transaction() as conn:
            t = await self._in(conn, tournament_id, guild_id, SIGNUP)
            self._require_organiser(t, actor)
            await rows.set_state(conn, t.id, CANCELLED, 0)

    async def set_card(self, tournament_id: int, message_id: int) -> None:
        """Where its sign-up card is (in its channel), to show each change on it."""
        async with self.db.transaction() as conn:
            await rows.set_card(conn, tournament_id, message_id)

    async def untold(self) -> list[Tournament]:
        """Tournaments with a post still to make: a round opened, the end, a cancellation."""
        async with self.db.reading() as conn:
            return await rows.untold(conn)

    async def told(self, tournament_id: int, step: int) -> None:
        async with self.db.transaction() as conn:
            await rows.set_told(conn, tournament_id, step)

    async def news(self, tournament_id: int, step: int) -> News:
        """What its post ``step`` tells (``Tournament.due``): a round's tables with the standings
        after the rounds before it, or the final standings."""
        t, entered, played = await self._whole(tournament_id)
        return News(
            t,
            step,
            entered,
            rows.seated(played, step) if t.status != CANCELLED else [],
            self._placed(t, entered, played, through=step - 1) if t.status != CANCELLED else [],
        )

    def moving(self, tournament_id: int) -> asyncio.Lock:
        """Held while the tournament moves on in this process: what tells a round waits for it."""
        return self._moving.setdefault(tournament_id, asyncio.Lock())

    async def advance(self, tournament_id: int) -> None:
        """Open the next round once every game of this one is over (or the games a stopped process left
        unopened), or end the tournament after its last round. Idempotent: run it as often as wanted."""
        async with self.moving(tournament_id):
            await self._advance(tournament_id)

    async def _advance(self, tournament_id: int) -> None:
        async with self.db.transaction() as conn:
            await self.db.serialize(conn, f"tournament:{tournament_id}")
            t = await rows.by_id(conn, tournament_id)
            if t is None or t.status != RUNNING:
                return
            played = await rows.tables(conn, tournament_id)
            entered = await rows.entrants(conn, tournament_id)
            current = rows.seated(played, t.round)
            if any(table.points is None for table in current):
                unopened = [table for table in current if table.points is None]  # games in hand: each looked at
            else:
                unopened = []
                if t.round == t.rounds:
                    await rows.set_state(conn, t.id, FINISHED, t.round)
                    return
                number = t.round + 1
                sat_out = 0.0 if t.format == POOLS else pairing.BYE_POINTS  # a pool's sit-out is no win
                for board, seats in enumerate(self._pairing(t, entered, played, number), start=1):
                    table = Table(number, board, tuple(seats), None, {seats[0]: sat_out} if len(seats) == 1 else None)
                    await rows.add_table(conn, t.id, table)
                    if table.points is None:
                        unopened.append(table)
                await rows.set_state(conn, t.id, RUNNING, number)
        by_user = {e.user_id: e for e in entered}
        for table in unopened:
            if not await self.games.claims.keep(TOURNAMENT, t.id):
                return  # the lease ran out while Discord was slow: another process goes on
            try:
                await self._open(t, table, by_user)
            except Exception:  # noqa: BLE001 - the round's other games open all the same; this one next time
                log.warning(
                    "tournament #%s: round %s, table %s not opened yet", t.id, table.round, table.board, exc_info=True
                )

    async def advance_all(self) -> None:
        """Every running tournament moved on as far as its games allow (the sweep's part): by one process
        among several (a ``TOURNAMENT`` lease), one tournament's trouble never holding up the others."""
        async with self.db.reading() as conn:
            running = await rows.running(conn)
        for t in running:
            async with self.games.claims.holding(TOURNAMENT, t.id) as held:
                if not held:
                    continue
                try:
                    await self.advance(t.id)
                except Exception:  # noqa: BLE001 - tried again at the next sweep
                    log.warning("tournament #%s could not move on yet", t.id, exc_info=True)

    async def game_ended(self, conn: Connection, game: GameRow, result: dict[str, Any], ended_at: float) -> None:
        """Score a tournament's game in the transaction that ends it (each place beats the ones after
        it: a point for each player below, half for each one level)."""
        if await rows.of_game(conn, game.id) is None:
            return
        seated = await self.games.load(conn, game.id, parse=False)
        by_seat = {p.seat if p.seat is not None else p.left_seat: p.user_id for p in seated.players if p.user_id}
        await rows.score(
            conn, game.id, placed(result, [user for seat, user in sorted(by_seat.items()) if seat is not None])
        )

    async def standings(self, tournament_id: int) -> list[Placing]:
        """Each player, best first, with his points, tiebreaks and each round's result."""
        t, entered, played = await self._whole(tournament_id)
        return self._placed(t, entered, played, through=t.round)

    async def _whole(self, tournament_id: int) -> tuple[Tournament, list[Entrant], list[Table]]:
        """The tournament, its players and every table so far, read together."""
        async with self.db.reading() as conn:
            t = await rows.by_id(conn, tournament_id)
            entered = await rows.entrants(conn, tournament_id)
            played = await rows.tables(conn, tournament_id)
        if t is None:
            raise GameError(tr("there is no tournament #{number}", number=tournament_id))
        return t, entered, played

    @staticmethod
    def _placed(t: Tournament, entered: Sequence[Entrant], played: Sequence[Table], *, through: int) -> list[Placing]:
        """The standings after round ``through``: by points, then Buchholz and Sonneborn–Berger (pools:
        points alone, entry order breaking ties)."""
        played = [table for table in played if table.round <= through]
        by_user = {e.user_id: e for e in entered}
        results = {e.user_id: [Result(None, False, False)] * through for e in entered}
        for table in played:
            for user in table.seats:
                scored = table.points.get(user) if table.points is not None else None
                results[user][table.round - 1] = Result(scored, len(table.seats) == 1, scored is None)
        if t.format == POOLS:
            points = _points(played)
            order = sorted(entered, key=lambda e: -points[e.user_id])  # stable: entry order breaks ties
            return [Placing(e, points[e.user_id], 0.0, 0.0, tuple(results[e.user_id])) for e in order]
        ranked = pairing.standings([e.user_id for e in entered], _games(played))
        return [
            Placing(by_user[s.player], s.points, s.buchholz, s.sonneborn_berger, tuple(results[s.player]))
            for s in ranked
        ]

    async def record(self, user_id: int, guild_id: int | None = None) -> Record:
        """A player's tournaments (in one server, or every one): entered, won, games and points."""
        async with self.db.reading() as conn:
            entered = await rows.entered_by(conn, user_id, guild_id)
            won = 0
            games = 0
            points = 0.0
            for t in entered:
                played = await rows.tables(conn, t.id)
                if t.status == FINISHED:
                    placings = self._placed(t, await rows.entrants(conn, t.id), played, through=t.rounds)
                    won += bool(placings) and placings[0].entrant.user_id == user_id
                for table in played:
                    if user_id in table.seats and table.points is not None:
                        games += table.game_id is not None
                        points += table.points[user_id]
        return Record(len(entered), won, games, points)

    def _pairing(
        self, t: Tournament, entered: Sequence[Entrant], played: Sequence[Table], number: int
    ) -> list[list[int]]:
        active = [e.user_id for e in entered if e.withdrawn_at is None]
        if t.format == SWISS:
            return [
                [g.first] if g.second is None else [g.first, g.second]
                for g in pairing.swiss_round(active, _games(played))
            ]
        if t.format == ROUND_ROBIN:
            everyone = [e.user_id for e in entered]  # the schedule is fixed at the start; a withdrawn player forfeits
            games = pairing.round_robin(everyone)[number - 1]
            return [[g.first] if g.second is None else [g.first, g.second] for g in games]
        points = _points(played)
        ranked = sorted(active, key=lambda user: -points[user])  # stable: entry order breaks ties
        for seated in range(len(ranked), 0, -1):  # the last placed sit out while the rest fit no tables
            if tables := self._pools(t, ranked[:seated], points):
                return tables + [[user] for user in ranked[seated:]]
        return [[user] for user in ranked]

    def _pools(self, t: Tournament, players: Sequence[int], points: Mapping[int, float]) -> list[list[int]]:
        rs = self.rulesets[t.ruleset]
        return pairing.pool_tables(players, points, list(range(max(3, rs.min_players), rs.max_players + 1)))

    async def _open(self, t: Tournament, table: Table, entered: Mapping[int, Entrant]) -> None:
        """The table's game, opened, joined by its members, shown (``on_open``: its card and thread)
        and started in their seats; a game opened before a stop is taken up where it was. A table with
        a withdrawn member is not played: a forfeit."""
        game = await self.games.get_game(table.game_id) if table.game_id is not None else None
        if (game is None or game.row.status == LOBBY) and any(entered[u].withdrawn_at is not None for u in table.seats):
            async with self.db.transaction() as conn:
                await rows.set_table(conn, t.id, replace(table, points=forfeit(table.seats, entered)))
            if game is not None:
                await self.lobby.cancel(game.id, self._organiser(t))
            return
        if game is not None and game.row.status == CANCELLED_GAME:  # a manager cancelled it: a draw
            tie = placed({"ranking": [list(range(len(table.seats)))]}, table.seats)
            async with self.db.transaction() as conn:
                await rows.set_table(conn, t.id, replace(table, points=tie))
            return
        first = Actor(table.seats[0], entered[table.seats[0]].name)
        if game is None:

            async def noted(conn: Connection, game_id: int) -> None:  # run by the organiser: no player manages it
                await self.db.serialize(conn, f"tournament:{t.id}")
                withdrawn = {e.user_id for e in await rows.entrants(conn, t.id) if e.withdrawn_at is not None}
                if withdrawn & set(table.seats):  # a withdrawal since the pairing: a forfeit next time
                    raise WrongPhase(tr("a player of this table has withdrawn"))
                if not await rows.note_game(conn, t.id, table, game_id):  # another process opened it
                    raise WrongPhase(tr("this table's game is open already"))
                await game_rows.run_by(conn, game_id, t.creator_id, InTournament(t.id, table.round))

            game = await self.lobby.create_game(
                guild_id=t.guild_id,
                channel_id=t.channel_id,
                actor=first,
                ruleset=t.ruleset,
                options=t.options,
                time=TimeSettings(round_seconds=t.round_seconds),
                min_players=len(table.seats),
                max_players=len(table.seats),
                noted=noted,
            )
        players = [Actor(user, entered[user].name) for user in table.seats]
        await self.lobby.seat_and_start(game, players, self._organiser(t), self.on_open)

    @staticmethod
    def _require_organiser(t: Tournament, actor: Actor) -> None:
        if actor.user_id != t.creator_id and not actor.is_admin:
            raise NotAllowed(tr("only the tournament's creator or a server manager can do that"))

    @staticmethod
    def _organiser(t: Tournament) -> Actor:
        """Who runs the tournament's games: its creator, as their manager."""
        return Actor(t.creator_id, "", is_admin=True)

    async def _surrender(self, game_id: int, actor: Actor) -> None:
        try:
            await self.play.surrender(game_id, actor)
        except GameError:
            pass  # the game ended meanwhile

    async def _in(self, conn: Connection, tournament_id: int, guild_id: int | None, *statuses: str) -> Tournament:
        """The tournament, in one of ``statuses``, its changes from now to the transaction's end kept
        from crossing another process's (a join and the start, a withdrawal and the next pairing)."""
        await self.db.serialize(conn, f"tournament:{tournament_id}")
        t = await rows.by_id(conn, tournament_id)
        if t is None or guild_id not in (None, t.guild_id):
            raise GameError(tr("there is no tournament #{number}", number=tournament_id))
        if t.status not in statuses:
            said = {
                SIGNUP: tr("tournament #{number} has not started yet", number=t.id),
                RUNNING: tr("tournament #{number} has started: its sign-up is closed", number=t.id),
                FINISHED: tr("tournament #{number} is over", number=t.id),
                CANCELLED: tr("tournament #{number} was cancelled", number=t.id),
            }
            raise WrongPhase(said[t.status])
        return t


class Result(NamedTuple):
    """A player's round: his points (None while his game is on), whether it was a bye, whether it is on."""

    points: float | None
    bye: bool
    playing: bool


class Placing(NamedTuple):
    entrant: Entrant
    points: float
    buchholz: float
    berger: float  # Sonneborn–Berger
    rounds: tuple[Result, ...]  # each round so far; a round he had no table in: points None, not playing


class Record(NamedTuple):
    tournaments: int
    won: int
    games: int
    points: float


@dataclass(frozen=True)
class News:
    """A tournament's post: ``step`` k ≤ its rounds tells round k's tables (``tables``) and the
    standings after the rounds before; its rounds + 1, the final standings; a cancelled one, that."""

    tournament: Tournament
    step: int
    entrants: list[Entrant]
    tables: list[Table]
    standings: list[Placing]

    @property
    def over(self) -> bool:
        return self.tournament.status == FINISHED and self.step > self.tournament.rounds


def placed(result: Mapping[str, Any], seats: Sequence[int]) -> dict[int, float]:
    """Each member's points from a game's ranking (groups of seats, first place first): one for each
    player placed below him, half for each placed level with him."""
    points = dict.fromkeys(seats, 0.0)
    before = 0
    for group in result.get("ranking", []):
        for seat in group:
            if 0 <= int(seat) < len(seats):
                points[seats[int(seat)]] = len(seats) - before - len(group) + (len(group) - 1) / 2
        before += len(group)
    return points


def forfeit(seats: Sequence[int], entered: Mapping[int, Entrant]) -> dict[int, float]:
    """A table with a withdrawn member is not played: each member still in beats each withdrawn one."""
    still = [user for user in seats if entered[user].withdrawn_at is None]
    gone = len(seats) - len(still)
    return {user: (gone + (len(still) - 1) / 2 if user in still else 0.0) for user in seats}


def _games(played: Sequence[Table]) -> list[pairing.Game]:
    """The two-player tables as pairings see them (a bye: a table alone)."""
    return [
        pairing.Game(
            table.seats[0],
            table.seats[1] if len(table.seats) > 1 else None,
            table.points[table.seats[0]] if table.points is not None else None,
        )
        for table in played
        if not (table.points is not None and len(table.seats) == 2 and not sum(table.points.values()))  # both out
    ]


def _points(played: Sequence[Table]) -> defaultdict[int, float]:
    """Each member's points over every table scored."""
    points: defaultdict[int, float] = defaultdict(float)
    for table in played:
        for user, p in (table.points or {}).items():
            points[user] += p
    return points
