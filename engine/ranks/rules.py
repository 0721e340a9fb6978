"""Ranks rules: a turn's spawn or moves, the upgrade phase, the NPC step and the capital check.

A turn is played on a :class:`Turn`, a scratch copy of the position that checks each order as it
is applied, so a refused order names itself and says why, in the position the earlier orders made.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace

from engine import notation, standings
from engine.errors import AmbiguousOrderError, IllegalOrderError
from engine.i18n import joined, mark, tr
from engine.ranks.board import reading_order
from engine.ranks.orders import Blast, Move, Order, Spawn, Upgrade, read_line
from engine.ranks.state import ARCHER, KNIGHT, PAWN, RANK_NAMES, TANK, Army, RanksState, Trace, a, exp_for
from engine.ruleset import Event
from engine.squaregrid import Square, SquareGrid

STEPS = {PAWN: Square.orthogonal, ARCHER: Square.diagonal, KNIGHT: Square.knight_jumps, TANK: Square.orthogonal}


def targets(rank: int, exp: int, at: Square, grid: SquareGrid) -> tuple[Square, ...]:
    """The cells an army of ``rank`` on ``at`` may move to (a tank only while its owner can pay)."""
    return () if rank == TANK and exp < 1 else _steps(rank, at, grid)


@functools.lru_cache(maxsize=8192)
def _steps(rank: int, at: Square, grid: SquareGrid) -> tuple[Square, ...]:
    """The cells a move of ``rank`` reaches from ``at`` on the board: asked for every army at every
    position the computer players judge, hence kept (a 16x16 board has 1,024 of them)."""
    return tuple(c for c in STEPS[rank](at) if grid.contains(c))


class Turn:
    """One player's turn in the making: armies, NPCs and exp pools after the orders applied so far."""

    def __init__(self, state: RanksState, seat: int):
        self.state, self.seat = state, seat
        self.armies = dict(state.armies)
        self.npcs = set(state.npcs)
        self.exp = list(state.exp)
        self.events: list[Event] = []
        self.traces: list[Trace] = []
        self.moved: set[Square] = set()  # where armies that already acted stand
        self.action: str | None = None  # "spawn" or "move" once chosen
        self.phase_start: dict[Square, int] | None = None  # ranks when the upgrade phase began

    # --- the action ---------------------------------------------------------------------------

    def controlled(self) -> list[tuple[Square, ...]]:
        """Cities where this player has an army and nobody else has one."""
        owners = [{self.armies[c].seat for c in city if c in self.armies} for city in self.state.board.cities]
        return [city for city, seats in zip(self.state.board.cities, owners) if seats == {self.seat}]

    def spawn(self, order: Spawn) -> None:
        self._begin_action("spawn", order)
        cities = self.controlled()
        chosen: dict[tuple[Square, ...], Square] = {}
        for cell in order.cells:
            city = self.state.board.city_of(cell)
            if city is None:
                raise IllegalOrderError(tr("{order!r}: {cell} is not a city cell", order=str(order), cell=cell.label))
            if city not in cities:
                raise IllegalOrderError(
                    tr("{order!r}: you do not control the city of {cell}", order=str(order), cell=cell.label)
                )
            if city in chosen:
                raise IllegalOrderError(
                    tr(
                        "{order!r}: {first} and {cell} are in the same city",
                        order=str(order),
                        first=chosen[city].label,
                        cell=cell.label,
                    )
                )
            if cell in self.armies:
                raise IllegalOrderError(tr("{order!r}: {cell} is not empty", order=str(order), cell=cell.label))
            chosen[city] = cell
        spawned = []
        for city in cities:
            spot = chosen.get(city) or next((c for c in city if c not in self.armies), None)
            if spot is not None:
                self.armies[spot] = Army(self.seat, PAWN)
                self.traces.append(Trace("spawn", spot))
                spawned.append(spot.label)
        self.events.append(Event("spawned", {"seat": self.seat, "cells": spawned}))

    def move(self, order: Move) -> None:
        self._begin_action("move", order)
        army = self._own_army(order.source, order)
        if not self.state.board.grid.contains(order.target):
            raise IllegalOrderError(
                tr("{order!r}: {cell} is not on the board", order=str(order), cell=order.target.label)
            )
        if army.rank == TANK and self.exp[self.seat] < 1:
            raise IllegalOrderError(tr("{order!r}: moving a tank costs 1 exp and you have none", order=str(order)))
        legal = targets(army.rank, self.exp[self.seat], order.source, self.state.board.grid)
        if order.target not in legal:
            raise IllegalOrderError(
                tr(
                    "{order!r}: {how}; from {cell}: {cells}",
                    order=str(order),
                    how=tr(MOVES[army.rank]),
                    cell=order.source.label,
                    cells=joined(c.label for c in legal),
                )
            )
        paid = 1 if army.rank == TANK else 0
        self.exp[self.seat] -= paid
        del self.armies[order.source]
        captured = self._capture(order.target)
        self.armies[order.target] = army
        self.moved.add(order.target)
        self.traces.append(Trace("move", order.target, order.source))
        self.events.append(
            Event(
                "moved",
                {
                    "seat": self.seat,
                    "source": order.source.label,
                    "target": order.target.label,
                    "rank": army.kind,
                    "captured": captured,
                    "paid": paid,
                },
            )
        )

    def blast(self, order: Blast) -> None:
        self._begin_action("move", order)
        army = self._own_army(order.cell, order)
        if army.rank != TANK:
            raise IllegalOrderError(
                tr(
                    "{order!r}: only a tank blasts; the army on {cell} is {army}",
                    order=str(order),
                    cell=order.cell.label,
                    army=tr(a(army.kind)),
                )
            )
        captured = []
        for cell in sorted(order.cell.surrounding(), key=reading_order):
            if (cell in self.armies and self.armies[cell].seat != self.seat) or cell in self.npcs:
                captured.append(self._capture(cell))
        self.moved.add(order.cell)
        self.traces.append(Trace("blast", order.cell))
        self.events.append(Event("blasted", {"seat": self.seat, "cell": order.cell.label, "captured": captured}))

    def _begin_action(self, kind: str, order: Order) -> None:
        if self.phase_start is not None:
            raise IllegalOrderError(
                tr("{order!r}: the upgrade phase comes after the spawn or moves; put upgrades last", order=str(order))
            )
        if self.action == "spawn" or (self.action == "move" and kind == "spawn"):
            raise IllegalOrderError(tr("{order!r}: a turn is either one spawn or some moves", order=str(order)))
        self.action = kind

    def _own_army(self, cell: Square, order: Order) -> Army:
        army = self.armies.get(cell)
        if army is None or army.seat != self.seat:
            mine = joined(
                c.label
                for c, a in sorted(self.armies.items(), key=lambda i: reading_order(i[0]))
                if a.seat == self.seat
            )
            raise IllegalOrderError(
                tr(
                    "{order!r}: you have no army on {cell}; your armies: {mine}",
                    order=str(order),
                    cell=cell.label,
                    mine=mine or tr("none"),
                )
            )
        if cell in self.moved:
            raise IllegalOrderError(
                tr("{order!r}: the army on {cell} already acted this turn", order=str(order), cell=cell.label)
            )
        return army

    def _capture(self, cell: Square) -> dict | None:
        """Eliminate whatever stands on ``cell`` and pay the mover its exp."""
        if cell in self.npcs:
            self.npcs.discard(cell)
            gained = exp_for(PAWN)
            victim = {"cell": cell.label, "seat": None, "rank": RANK_NAMES[PAWN], "exp": gained}
        elif cell in self.armies:
            army = self.armies.pop(cell)
            gained = exp_for(army.rank)
            victim = {"cell": cell.label, "seat": army.seat, "rank": army.kind, "exp": gained}
        else:
            return None
        self.moved.discard(cell)
        self.exp[self.seat] += gained
        self.traces.append(Trace("capture", cell))
        return victim

    # --- the upgrade phase --------------------------------------------------------------------

    def upgrade(self, order: Upgrade) -> None:
        if self.phase_start is None:
            self.phase_start = {c: a.rank for c, a in self.armies.items()}
        army = self.armies.get(order.cell)
        if army is None or army.seat != self.seat:
            raise IllegalOrderError(
                tr("{order!r}: you have no army on {cell}", order=str(order), cell=order.cell.label)
            )
        if not 1 <= order.levels <= 3:
            raise IllegalOrderError(tr("{order!r}: an upgrade raises an army 1, 2 or 3 ranks", order=str(order)))
        if self.exp[self.seat] < order.levels:
            raise IllegalOrderError(
                tr(
                    "{order!r}: needs {need} exp and you have {have}",
                    order=str(order),
                    need=order.levels,
                    have=self.exp[self.seat],
                )
            )
        rank = army.rank + order.levels
        if rank > TANK or army.rank == TANK:
            raise IllegalOrderError(
                tr(
                    "{order!r}: {army} cannot rise {levels} more rank(s)",
                    order=str(order),
                    army=tr(a(army.kind)),
                    levels=order.levels,
                )
            )
        if rank == TANK and self.phase_start[order.cell] != PAWN:
            was = RANK_NAMES[self.phase_start[order.cell]]
            raise IllegalOrderError(
                tr(
                    "{order!r}: a tank is made only from a pawn by three upgrades in one phase; "
                    "this army was {army} when the phase began",
                    order=str(order),
                    army=tr(a(was)),
                )
            )
        self.exp[self.seat] -= order.levels
        self.armies[order.cell] = Army(self.seat, rank)
        self.traces.append(Trace("upgrade", order.cell))
        self.events.append(
            Event("upgraded", {"seat": self.seat, "cell": order.cell.label, "from": army.kind, "to": RANK_NAMES[rank]})
        )

    def apply(self, order: Order) -> None:
        if isinstance(order, Spawn):
            self.spawn(order)
        elif isinstance(order, Move):
            self.move(order)
        elif isinstance(order, Blast):
            self.blast(order)
        else:
            self.upgrade(order)

    def position(self) -> RanksState:
        return replace(self.state, armies=self.armies, npcs=frozenset(self.npcs), exp=tuple(self.exp))


MOVES = {
    PAWN: mark("a pawn moves one step up, down, left or right"),
    ARCHER: mark("an archer moves one step diagonally"),
    KNIGHT: mark("a knight jumps like a chess knight"),
    TANK: mark("a tank moves one step up, down, left or right"),
}
"""How each rank moves, for the message that refuses a move it cannot make."""


# --- parsing --------------------------------------------------------------------------------


def parse(state: RanksState, seat: int, text: str) -> list[Order]:
    """Orders read from ``text`` and checked as a whole turn; every bad line is reported at once."""
    lines = notation.parse_lines(text, read_line)
    orders = [order for order in lines if order is not None]
    if len(orders) < len(lines) and any(not isinstance(o, Upgrade) for o in orders):
        raise AmbiguousOrderError(tr("'pass' means no spawn and no moves; leave it out or drop the other orders"))
    act(state, seat, orders)
    return orders


def act(state: RanksState, seat: int, orders: Sequence[Order]) -> Turn:
    """The action and the upgrade phase of ``seat``'s turn, every order checked in order."""
    turn = Turn(state, seat)
    for order in orders:
        turn.apply(order)
    if turn.action is None:
        turn.events.insert(0, Event("passed", {"seat": seat}))
    return turn


# --- after the action ----------------------------------------------------------------------


def npc_step(turn: Turn) -> None:
    """NPCs in reading order; each steps onto the first neighbouring track cell (up, down, left,
    right) that holds a player's army, eliminating it; never onto another NPC or off the tracks."""
    tracks = turn.state.board.tracks
    for npc in sorted(turn.npcs, key=reading_order):
        for near in npc.orthogonal():
            if near in tracks and near in turn.armies:
                army = turn.armies.pop(near)
                turn.npcs.discard(npc)
                turn.npcs.add(near)
                turn.traces.append(Trace("npc", near, npc))
                turn.events.append(
                    Event(
                        "npc_captured",
                        {"source": npc.label, "target": near.label, "seat": army.seat, "rank": army.kind},
                    )
                )
                break


def capital_check(turn: Turn, players: standings.Seats) -> standings.Seats:
    """Every player still in who has no army on his capital loses; his armies are removed."""
    capitals = turn.state.board.capitals
    lost = [
        seat
        for seat in standings.still_in(players)
        if (guard := turn.armies.get(capitals[seat])) is None or guard.seat != seat
    ]
    for seat in lost:
        turn.events.append(Event("capital_lost", {"seat": seat, "capital": capitals[seat].label}))
    turn.armies = {c: a for c, a in turn.armies.items() if a.seat not in lost}
    return standings.leave(players, lost, standings.Status.ELIMINATED, "capital lost", turn.state.turn)


def play(state: RanksState, seat: int, orders: Sequence[Order]) -> tuple[RanksState, list[Event]]:
    """The whole turn of ``seat``: action, upgrades, NPC step, capital check, then the next player."""
    turn = act(state, seat, orders)
    npc_step(turn)
    players = capital_check(turn, state.players)
    after = replace(
        turn.position(),
        players=players,
        turn=state.turn + 1,
        to_move=standings.next_to_move(players, seat) or 0,
        last=tuple(turn.traces),
    )
    return after, turn.events


def remove(state: RanksState, seat: int, reason: str) -> RanksState:
    """The seat leaves: his armies vanish; if it was his turn, the next player's begins."""
    players = standings.leave(state.players, [seat], standings.departure(reason), reason, state.turn)
    to_move = state.to_move
    if to_move == seat:
        to_move = standings.next_to_move(players, seat) or 0
    return replace(
        state, players=players, armies={c: a for c, a in state.armies.items() if a.seat != seat}, to_move=to_move
    )
