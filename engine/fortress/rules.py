"""Fortress rules: where fortresses may stand, what generals may do, claiming, and the turn order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from engine import notation, standings
from engine.errors import AmbiguousOrderError, IllegalOrderError, OrderSyntaxError
from engine.fortress.board import LAND, MOUNTAIN, WATER
from engine.fortress.orders import PATTERNS, Build, Order, Pass, Walk, WalkBuild
from engine.fortress.state import FortressState
from engine.hexgrid import Hex
from engine.ruleset import Event


def neighbours(state: FortressState, cell: Hex) -> list[Hex]:
    return sorted((n for n in cell.neighbours() if n in state.terrain), key=lambda h: h.label)


def buildable(state: FortressState, cell: Hex) -> bool:
    """Land that is neither a city nor already fortified."""
    return state.terrain.get(cell) == LAND and cell not in state.cities and cell not in state.fortresses


def may_build(state: FortressState, seat: int, cell: Hex) -> bool:
    """Modes 1-2: buildable, and the player's own cell or next to one of his cells."""
    return buildable(state, cell) and (
        state.owners.get(cell) == seat or any(state.owners.get(n) == seat for n in neighbours(state, cell))
    )


def enterable(state: FortressState, seat: int, cell: Hex, generals: dict[Hex, int]) -> bool:
    """A general never enters a mountain, an opponent's cell, or a cell with another general."""
    owner = state.owners.get(cell)
    return (
        cell in state.terrain
        and state.terrain[cell] != MOUNTAIN
        and cell not in generals
        and (owner is None or owner == seat)
    )


def claim(state: FortressState, seat: int, cell: Hex) -> tuple[dict[Hex, int], list[Hex]]:
    """A fortress on ``cell``: it and its neighbours become the builder's, except cities."""
    owners = dict(state.owners)
    taken = []
    for target in (cell, *neighbours(state, cell)):
        if target in state.cities or owners.get(target) == seat:
            continue
        owners[target] = seat
        taken.append(target)
    return owners, taken


# --- general actions ------------------------------------------------------------------------


def general_actions(state: FortressState, seat: int, at: Hex, generals: dict[Hex, int]) -> Iterator[Order]:
    """Every action (a)-(d) of the general on ``at`` given where the generals stand now."""
    others = {c: s for c, s in generals.items() if c != at}
    if state.terrain[at] == WATER:
        for step in neighbours(state, at):
            if state.terrain[step] == LAND and enterable(state, seat, step, others):
                yield Walk((at, step))
        return
    if buildable(state, at):
        yield Build(at)
    for step in neighbours(state, at):
        if not enterable(state, seat, step, others):
            continue
        yield Walk((at, step))
        if buildable(state, step):
            yield WalkBuild(at, step)
        if state.terrain[step] == WATER:
            continue  # entering water ends the move
        for second in neighbours(state, step):
            if second != at and enterable(state, seat, second, others):
                yield Walk((at, step, second))


def has_legal_turn(state: FortressState, seat: int) -> bool:
    if state.mode < 3:
        return any(may_build(state, seat, cell) for cell in state.terrain)
    generals = dict(state.generals)
    city = state.cities[seat]
    if generals.get(city) == seat:  # he must leave the city; any way out is a legal turn
        return any(isinstance(a, (Walk, WalkBuild)) for a in general_actions(state, seat, city, generals))
    return any(next(general_actions(state, seat, at, generals), None) for at, s in generals.items() if s == seat)


# --- parsing and validation -----------------------------------------------------------------


def parse(state: FortressState, seat: int, text: str) -> list[Order]:
    orders = notation.parse_lines(text, lambda line: _parse_line(state, seat, line))
    apply_turn(state, seat, orders)  # validates the whole turn in order
    return orders


def _parse_line(state: FortressState, seat: int, line: str) -> Order:
    if PATTERNS["pass"].match(line):
        return Pass()
    if match := PATTERNS["build"].match(line):
        return Build(_cell(state, next(g for g in match.groups() if g), line))
    if match := PATTERNS["walk_build"].match(line):
        return WalkBuild(_cell(state, match.group(1), line), _cell(state, match.group(2), line))
    if match := PATTERNS["walk"].match(line):
        cells = [_cell(state, g, line) for g in match.groups() if g]
        return _walk(state, seat, cells, line)
    hint = "build C4 (or just C4)" if state.mode < 3 else "C4>D4, C4>D4>D5, C4>D4 build, or build C4"
    raise OrderSyntaxError(f"{line!r} is not an order; write {hint}, or pass")


def _cell(state: FortressState, text: str, line: str) -> Hex:
    cell = notation.cell(text, line)
    if cell not in state.terrain:
        raise IllegalOrderError(f"{line!r}: {cell.label} is not on the field")
    return cell


def _walk(state: FortressState, seat: int, cells: list[Hex], line: str) -> Walk:
    """Two named cells that are not neighbours mean a two-cell walk: find the open middle cell."""
    if len(cells) == 3 or cells[1] in cells[0].neighbours():
        return Walk(tuple(cells))
    source, target = cells
    middles = [
        m
        for m in neighbours(state, source)
        if target in m.neighbours()
        and state.terrain[m] == LAND
        and enterable(state, seat, m, {c: s for c, s in state.generals.items() if c != source})
    ]
    if len(middles) == 1:
        return Walk((source, middles[0], target))
    if not middles:
        raise IllegalOrderError(f"{line!r}: {target.label} is not within two open steps of {source.label}")
    ways = " or ".join(f"{source.label}>{m.label}>{target.label}" for m in middles)
    raise AmbiguousOrderError(f"{line!r}: there are several ways; write {ways}")


def apply_turn(state: FortressState, seat: int, orders: Sequence[Order]) -> tuple[FortressState, list[Event]]:
    """The position after ``seat`` plays ``orders`` (validated; a bad order raises with its reason).
    A lone ``Pass`` is the empty turn, whether it was typed or built by code."""
    if any(isinstance(o, Pass) for o in orders):
        if len(orders) > 1:
            raise AmbiguousOrderError("'pass' cannot be combined with other orders")
        orders = []
    if state.mode < 3:
        return _apply_build_turn(state, seat, orders)
    return _apply_general_turn(state, seat, orders)


def _apply_build_turn(state: FortressState, seat: int, orders: Sequence[Order]) -> tuple[FortressState, list[Event]]:
    if not orders:
        return state, [Event("passed", {"seat": seat})]
    if len(orders) > 1:
        raise IllegalOrderError(f"one fortress per turn: {'; '.join(str(o) for o in orders)}")
    order = orders[0]
    if not isinstance(order, Build):
        raise IllegalOrderError(f"{str(order)!r}: generals only exist in mode 3; write build C4")
    cell = order.cell
    if not may_build(state, seat, cell):
        raise IllegalOrderError(f"{str(order)!r}: {_why_not(state, seat, cell)}")
    return _build(state, seat, cell)


def _why_not(state: FortressState, seat: int, cell: Hex) -> str:
    if state.terrain[cell] != LAND:
        return f"fortresses cannot stand on {state.terrain[cell]}"
    if cell in state.cities:
        return f"{cell.label} is a city"
    if cell in state.fortresses:
        return f"{cell.label} already has a fortress"
    return f"{cell.label} is neither yours nor next to one of your cells"


def _build(
    state: FortressState, seat: int, cell: Hex, generals: dict[Hex, int] | None = None
) -> tuple[FortressState, list[Event]]:
    owners, taken = claim(state, seat, cell)
    opponent = 1 - seat
    stolen = [c for c in taken if state.owners.get(c) == opponent]
    new = replace(
        state,
        owners=owners,
        fortresses={**state.fortresses, cell: seat},
        generals=state.generals if generals is None else generals,
    )
    return new, [
        Event(
            "built",
            {"seat": seat, "cell": cell.label, "claimed": [c.label for c in taken], "from_opponent": len(stolen)},
        )
    ]


def _apply_general_turn(state: FortressState, seat: int, orders: Sequence[Order]) -> tuple[FortressState, list[Event]]:
    if not orders:
        return state, [Event("passed", {"seat": seat})]
    events: list[Event] = []
    acted: set[Hex] = set()  # where generals that already acted now stand
    for order in orders:
        at = order.cell if isinstance(order, Build) else order.path[0] if isinstance(order, Walk) else order.source
        if state.generals.get(at) != seat:
            mine = ", ".join(c.label for c, s in sorted(state.generals.items()) if s == seat) or "none"
            raise IllegalOrderError(f"{str(order)!r}: you have no general on {at.label}; your generals: {mine}")
        if at in acted:
            raise IllegalOrderError(f"{str(order)!r}: the general on {at.label} already acted this turn")
        generals = dict(state.generals)
        if order not in set(general_actions(state, seat, at, generals)):
            raise IllegalOrderError(f"{str(order)!r}: {_why_not_general(state, seat, at, order)}")
        del generals[at]
        if isinstance(order, Walk):
            generals[order.path[-1]] = seat
            acted.add(order.path[-1])
            state = replace(state, generals=generals)
            events.append(Event("general_moved", {"seat": seat, "path": [c.label for c in order.path]}))
        else:
            cell = order.cell if isinstance(order, Build) else order.target
            state, built = _build(state, seat, cell, generals)
            events += built
    if state.generals.get(state.cities[seat]) == seat:
        raise IllegalOrderError(
            f"a general may not be left in your city {state.cities[seat].label}; move him out this turn"
        )
    return state, events


def _why_not_general(state: FortressState, seat: int, at: Hex, order: Order) -> str:
    if state.terrain[at] == WATER:
        return "from the water a general can only step onto a neighbouring land cell he may enter"
    if isinstance(order, Build):
        return _why_not(state, seat, at)
    path = order.path if isinstance(order, Walk) else (order.source, order.target)
    for step, (here, there) in enumerate(zip(path, path[1:])):
        if there not in here.neighbours():
            return f"{there.label} is not next to {here.label}"
        if state.terrain.get(there) == MOUNTAIN:
            return f"generals cannot climb the mountain on {there.label}"
        if state.owners.get(there) == 1 - seat:
            return f"{there.label} belongs to your opponent"
        if there in state.generals:
            return f"another general stands on {there.label}"
        if step == 0 and len(path) == 3 and state.terrain[there] == WATER:
            return f"entering the water on {there.label} ends the move"
    if isinstance(order, WalkBuild):
        return _why_not(state, seat, order.target)
    return "that is not a legal move"


def advance(state: FortressState, events: list[Event]) -> FortressState:
    """End the turn: count it, let the next player's general appear, and pass for a player who cannot act."""
    played = [
        Hex.from_label(label)
        for e in events
        for label in (
            e.data["path"] if e.kind == "general_moved" else [e.data.get("cell")] if e.kind == "built" else []
        )
    ]
    return begin(replace(state, turn=state.turn + 1, last=tuple(played)), events)


def begin(state: FortressState, events: list[Event]) -> FortressState:
    """Start the turn of the player to move (his general appears), passing for whoever cannot act."""
    while not state.over:
        state = _spawn_general(state)
        if has_legal_turn(state, state.to_move):
            break
        events.append(Event("passed", {"seat": state.to_move, "reason": "no legal action"}))
        state = replace(state, turn=state.turn + 1)
    return state


def _spawn_general(state: FortressState) -> FortressState:
    """Mode 3: a new general appears in the city of the player to move, unless one stands there."""
    city = state.cities[state.to_move]
    if state.mode < 3 or city in state.generals:
        return state
    return replace(state, generals={**state.generals, city: state.to_move})


def remove(state: FortressState, seat: int, reason: str) -> FortressState:
    """The seat leaves: his cells and fortresses turn neutral, his generals vanish; the game ends."""
    return replace(
        state,
        players=standings.leave(state.players, [seat], standings.departure(reason), reason, state.turn),
        owners={c: s for c, s in state.owners.items() if s != seat},
        fortresses={c: s for c, s in state.fortresses.items() if s != seat},
        generals={c: s for c, s in state.generals.items() if s != seat},
    )
