"""The conquest round update: movement, battles, production, elimination; removal and outcome."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from engine import standings
from engine.conquest.orders import Auto, Move, Order, StopAuto, validate
from engine.conquest.state import Cell, ConquestState, Trace
from engine.errors import EngineError, NotActingError
from engine.hexgrid import Hex
from engine.i18n import mark, tr
from engine.ruleset import Event, Outcome, Resolution

Party = int | None  # a seat, or None for the neutral garrison


def resolve_round(state: ConquestState, orders: Mapping[int, Sequence[Order]]) -> Resolution[ConquestState]:
    if state.over:
        raise EngineError(tr("the game is over; no more rounds"))
    for seat, seat_orders in orders.items():
        if not state.is_playing(seat):
            raise NotActingError(tr("seat {seat} is not playing in this game", seat=seat))
        validate(state, seat, seat_orders)
    autos = _standing_orders(state, orders)
    flows = _flows(state, orders, autos)
    events: list[Event] = []
    cells = _battles(state, flows, events)
    kept = {s: t for s, t in autos.items() if cells[s].owner == state.cells[s].owner}
    for source in sorted(set(autos) - set(kept)):
        events.append(Event("auto_cancelled", {"cell": source.label, "seat": state.cells[source].owner}))
    cells = _produce(state, cells, events)
    next_state = replace(
        state,
        cells=cells,
        autos=kept,
        round=state.round + 1,
        last_moves=tuple(Trace(seat, s, t, n, auto) for (seat, s, t, auto), n in sorted(flows.items(), key=_trace_key)),
    )
    next_state = _eliminate(next_state, events, state.round)
    events.insert(0, Event("round_resolved", {"round": state.round}))
    if (ended := outcome(next_state)) is not None:
        events.append(Event("game_over", {"winners": list(ended.winners)}))
    return Resolution(next_state, tuple(events))


def _trace_key(item: tuple[tuple[int, Hex, Hex, bool], int]) -> tuple:
    (seat, source, target, auto), _ = item
    return seat, source, target, auto


def _standing_orders(state: ConquestState, orders: Mapping[int, Sequence[Order]]) -> dict[Hex, Hex]:
    autos = dict(state.autos)
    for seat_orders in orders.values():
        for order in seat_orders:
            if isinstance(order, Auto):
                autos[order.source] = order.target
            elif isinstance(order, StopAuto):
                autos.pop(order.source, None)
    return autos


def _flows(
    state: ConquestState, orders: Mapping[int, Sequence[Order]], autos: Mapping[Hex, Hex]
) -> dict[tuple[int, Hex, Hex, bool], int]:
    """Units leaving each cell: fixed moves first (start-of-round counts), then auto-moves take the rest."""
    flows: dict[tuple[int, Hex, Hex, bool], int] = defaultdict(int)
    fixed_out: dict[Hex, int] = defaultdict(int)
    for seat, seat_orders in orders.items():
        for order in seat_orders:
            if isinstance(order, Move):
                flows[seat, order.source, order.target, False] += order.units
                fixed_out[order.source] += order.units
    for source, target in autos.items():
        owner = state.cells[source].owner
        remaining = state.cells[source].units - fixed_out[source]
        if owner is not None and state.is_playing(owner) and remaining > 0:
            flows[owner, source, target, True] += remaining
    return dict(flows)


def _battles(
    state: ConquestState, flows: Mapping[tuple[int, Hex, Hex, bool], int], events: list[Event]
) -> dict[Hex, Cell]:
    out: dict[Hex, int] = defaultdict(int)
    arrivals: dict[Hex, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for (seat, source, target, _), units in flows.items():
        out[source] += units
        arrivals[target][seat] += units
    cells: dict[Hex, Cell] = {}
    for hex_, cell in sorted(state.cells.items()):
        parties: dict[Party, int] = defaultdict(int)
        stayed = cell.units - out[hex_]
        if stayed > 0:
            parties[cell.owner] += stayed
        for seat, units in arrivals[hex_].items():
            parties[seat] += units
        cells[hex_] = _battle(hex_, cell, dict(parties), events)
    return cells


def _battle(hex_: Hex, before: Cell, parties: dict[Party, int], events: list[Event]) -> Cell:
    """One cell's battle: only the two largest parties count; a tie leaves the cell neutral and empty."""
    if not parties:
        return Cell(before.owner, 0)
    ranked = sorted(parties.items(), key=lambda item: -item[1])
    if len(ranked) == 1:
        party, units = ranked[0]
        after = Cell(before.owner if party is None else party, units)
    else:
        (first, first_units), (_, second_units) = ranked[0], ranked[1]
        if first_units == second_units:
            after = Cell(None, 0)
        else:
            after = Cell(before.owner if first is None else first, first_units - second_units)
        events.append(
            Event(
                "battle",
                {
                    "cell": hex_.label,
                    "parties": [[party, units] for party, units in sorted(parties.items(), key=_party_key)],
                    "winner": None if first_units == second_units else first,
                    "tie": first_units == second_units,
                    "units_left": after.units,
                },
            )
        )
    if after.owner != before.owner:
        kind = "neutralized" if after.owner is None else "captured"
        events.append(Event(kind, {"cell": hex_.label, "seat": after.owner, "from": before.owner}))
    return after


def _party_key(item: tuple[Party, int]) -> int:
    party, _ = item
    return -1 if party is None else party


def _produce(state: ConquestState, cells: dict[Hex, Cell], events: list[Event]) -> dict[Hex, Cell]:
    gained: dict[int, int] = defaultdict(int)
    produced = {}
    for hex_, cell in cells.items():
        if cell.owner is None:
            produced[hex_] = cell
            continue
        bonus = state.types[hex_].production
        gained[cell.owner] += bonus
        produced[hex_] = Cell(cell.owner, cell.units + bonus)
    if gained:
        events.append(Event("production", {"by_seat": {str(seat): n for seat, n in sorted(gained.items())}}))
    return produced


def _eliminate(state: ConquestState, events: list[Event], round_played: int) -> ConquestState:
    owners = {c.owner for c in state.cells.values()}
    gone = [seat for seat in state.playing() if seat not in owners]
    for seat in gone:
        events.append(Event("eliminated", {"seat": seat}))
    players = standings.leave(state.players, gone, standings.Status.ELIMINATED, "no cells left", round_played)
    return replace(state, players=players)


def remove(state: ConquestState, seat: int, reason: str) -> ConquestState:
    """Surrender or removal: the seat leaves now; its cells turn neutral and keep their units."""
    cells = {h: Cell(None, c.units) if c.owner == seat else c for h, c in state.cells.items()}
    autos = {s: t for s, t in state.autos.items() if state.cells[s].owner != seat}
    players = standings.leave(state.players, [seat], standings.departure(reason), reason, state.round)
    return replace(state, cells=cells, autos=autos, players=players)


def outcome(state: ConquestState) -> Outcome | None:
    """Players still in rank by cells, then units; points: position points plus one per round
    survived (a seat that left in round r survived r - 1)."""
    if not state.over:
        return None

    def survived(seat: int) -> int:
        left = state.players[seat].left  # None while playing
        return (state.round if left is None else left) - 1

    return standings.outcome(state.players, score(state), survived, limit=mark("the round limit was reached"))


def score(state: ConquestState) -> Callable[[int], tuple[int, int]]:
    """Players still in are ranked by cells, then units."""
    return lambda seat: (len(state.cells_of(seat)), state.units_of(seat))
