"""Fortress rules: where fortresses may stand, what generals may do, claiming, and the turn order."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from engine import notation, standings
from engine.errors import AmbiguousOrderError, IllegalOrderError, OrderSyntaxError
from engine.fortress.board import LAND, MOUNTAIN, WATER
from engine.fortress.orders import PATTERNS, Action, Build, Order, Pass, Walk, WalkBuild
from engine.fortress.state import FortressState
from engine.hexgrid import Hex
from engine.i18n import joined, mark, tr
from engine.ruleset import Event


class HasTerrain(Protocol):
    """What ``neighbours`` needs of a state: its cells (the search passes its own stand-in)."""

    @property
    def terrain(self) -> Mapping[Hex, str]: ...


def neighbours(state: HasTerrain, cell: Hex) -> list[Hex]:
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


def general_actions(state: FortressState, seat: int, at: Hex, generals: dict[Hex, int]) -> Iterator[Action]:
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
    if generals.get(state.cities[seat]) == seat:  # he must leave the city, perhaps after others make way
        orders, complete = way_out(state, seat)
        return orders is not None or not complete
    return any(next(general_actions(state, seat, at, generals), None) for at, s in generals.items() if s == seat)


WAY_OUT_POSITIONS = 1_000  # positions a search for a way out looks at before giving up


def way_out(state: FortressState, seat: int) -> tuple[list[Order] | None, bool]:
    """A turn that takes the general out of ``seat``'s city: he steps out, or other generals of his
    first make way (``D4>E3; C4>D4``). Returns the orders, or None, and whether the search was
    complete: after ``WAY_OUT_POSITIONS`` positions it stops, and a player it found no way for is
    not passed automatically (he can still pass himself)."""
    city = state.cities[seat]
    exits = [n for n in neighbours(state, city) if state.generals.get(n, seat) == seat]  # enemy generals stay put
    helpers = _helpers(state, seat, city, exits)
    seen: set[tuple[frozenset, frozenset, frozenset]] = set()

    def search(position: FortressState, acted: frozenset[Hex]) -> list[Order] | None:
        out = next(general_actions(position, seat, city, dict(position.generals)), None)
        if out is not None:
            return [out]
        key = (frozenset(position.generals.items()), frozenset(position.fortresses), acted)
        if key in seen or len(seen) >= WAY_OUT_POSITIONS:
            return None
        seen.add(key)
        movers = [c for c, s in position.generals.items() if s == seat and c in helpers and c not in acted]
        for at in sorted(movers, key=lambda c: (c.distance(city), c)):
            for action in general_actions(position, seat, at, dict(position.generals)):
                moved = acted | {action.path[-1]} if isinstance(action, Walk) else acted
                rest = search(act(position, seat, action), moved)
                if rest is not None:
                    return [action, *rest]
        return None

    orders = search(state, frozenset())
    return orders, len(seen) < WAY_OUT_POSITIONS


def _helpers(state: FortressState, seat: int, city: Hex, exits: list[Hex]) -> set[Hex]:
    """The generals that could help the city's general out, by where they stand. An action touches
    cells at most 2 from where its general stood (a walk of two, a claim next to the site), so only
    a general within 2 of the cells that matter (at first the ways out) can matter, and then so do
    the cells round him."""
    area = set(exits)
    helpers: set[Hex] = set()
    while True:
        near = {c for c, s in state.generals.items() if s == seat and c != city and c not in helpers}
        near = {c for c in near if any(c.distance(cell) <= 2 for cell in area)}
        if not near:
            return helpers
        helpers |= near
        area |= {cell for cell in state.terrain if any(cell.distance(c) <= 2 for c in near)}


def act(state: FortressState, seat: int, action: Action) -> FortressState:
    """The position after one general action, unchecked (the city rule holds for a whole turn)."""
    generals = {c: s for c, s in state.generals.items() if c != origin(action)}
    if isinstance(action, (Build, WalkBuild)):
        cell = site(action)
        return replace(
            state, owners=claim(state, seat, cell)[0], fortresses={**state.fortresses, cell: seat}, generals=generals
        )
    return replace(state, generals={**generals, action.path[-1]: seat})


def origin(action: Action) -> Hex:
    """Where the general doing ``action`` stands before it."""
    if isinstance(action, Build):
        return action.cell
    return action.source if isinstance(action, WalkBuild) else action.path[0]


def site(action: Build | WalkBuild) -> Hex:
    """Where ``action`` builds."""
    return action.cell if isinstance(action, Build) else action.target


# --- parsing and validation -----------------------------------------------------------------


def parse(state: FortressState, seat: int, text: str) -> list[Order]:
    orders = parse_lines(state, seat, text)
    apply_turn(state, seat, orders)  # validates the whole turn in order
    return orders


def parse_lines(state: FortressState, seat: int, text: str) -> list[Order]:
    """Each line read as an order, not yet checked as a turn; all bad lines reported at once."""
    orders = notation.parse_lines(text, lambda line: _parse_line(state, seat, line))
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
    if state.mode < 3:
        raise OrderSyntaxError(tr("{line!r} is not an order; write build C4 (or just C4), or pass", line=line))
    raise OrderSyntaxError(
        tr("{line!r} is not an order; write C4>D4, C4>D4>D5, C4>D4 build, or build C4, or pass", line=line)
    )


def _cell(state: FortressState, text: str, line: str) -> Hex:
    cell = notation.cell(text, line)
    if cell not in state.terrain:
        raise IllegalOrderError(tr("{line!r}: {cell} is not on the field", line=line, cell=cell.label))
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
        raise IllegalOrderError(
            tr(
                "{line!r}: {cell} is not within two open steps of {source}",
                line=line,
                cell=target.label,
                source=source.label,
            )
        )
    ways = tr(" or ").join(f"{source.label}>{m.label}>{target.label}" for m in middles)
    raise AmbiguousOrderError(tr("{line!r}: there are several ways; write {ways}", line=line, ways=ways))


def apply_turn(state: FortressState, seat: int, orders: Sequence[Order]) -> tuple[FortressState, list[Event]]:
    """The position after ``seat`` plays ``orders`` (validated; a bad order raises with its reason).
    A lone ``Pass`` is the empty turn, whether it was typed or built by code."""
    if any(isinstance(o, Pass) for o in orders):
        if len(orders) > 1:
            raise AmbiguousOrderError(tr("'pass' cannot be combined with other orders"))
        orders = []
    if state.mode < 3:
        return _apply_build_turn(state, seat, orders)
    return _apply_general_turn(state, seat, orders)


def _apply_build_turn(state: FortressState, seat: int, orders: Sequence[Order]) -> tuple[FortressState, list[Event]]:
    if not orders:
        return state, [Event("passed", {"seat": seat})]
    if len(orders) > 1:
        raise IllegalOrderError(tr("one fortress per turn: {orders}", orders="; ".join(str(o) for o in orders)))
    order = orders[0]
    if not isinstance(order, Build):
        raise IllegalOrderError(tr("{order!r}: generals only exist in mode 3; write build C4", order=str(order)))
    cell = order.cell
    if not may_build(state, seat, cell):
        raise IllegalOrderError(f"{str(order)!r}: {_why_not(state, seat, cell)}")
    return _build(state, seat, cell)


def _why_not(state: FortressState, seat: int, cell: Hex) -> str:
    if state.terrain[cell] != LAND:
        return tr(NO_FORTRESS_ON[state.terrain[cell]])
    if cell in state.cities:
        return tr("{cell} is a city", cell=cell.label)
    if cell in state.fortresses:
        return tr("{cell} already has a fortress", cell=cell.label)
    return tr("{cell} is neither yours nor next to one of your cells", cell=cell.label)


NO_FORTRESS_ON = {
    WATER: mark("fortresses cannot stand on water"),
    MOUNTAIN: mark("fortresses cannot stand on mountain"),
}


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
    state, events, _ = play_actions(state, seat, orders)
    if state.generals.get(state.cities[seat]) == seat:
        raise IllegalOrderError(
            tr("a general may not be left in your city {cell}; move him out this turn", cell=state.cities[seat].label)
        )
    return state, events


def play_actions(
    state: FortressState, seat: int, orders: Sequence[Order]
) -> tuple[FortressState, list[Event], frozenset[Hex]]:
    """Mode 3: generals' actions one after another, each checked; also where the generals that
    acted now stand. Whether the turn may end like this (the city rule) is the caller's question."""
    events: list[Event] = []
    acted: set[Hex] = set()
    for order in orders:
        if isinstance(order, Pass):
            raise AmbiguousOrderError(tr("'pass' cannot be combined with other orders"))
        at = origin(order)
        if state.generals.get(at) != seat:
            mine = joined(c.label for c, s in sorted(state.generals.items()) if s == seat) or tr("none")
            raise IllegalOrderError(
                tr(
                    "{order!r}: you have no general on {cell}; your generals: {mine}",
                    order=str(order),
                    cell=at.label,
                    mine=mine,
                )
            )
        if at in acted:
            raise IllegalOrderError(
                tr("{order!r}: the general on {cell} already acted this turn", order=str(order), cell=at.label)
            )
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
            state, built = _build(state, seat, site(order), generals)
            events += built
    return state, events, frozenset(acted)


def _why_not_general(state: FortressState, seat: int, at: Hex, order: Action) -> str:
    if state.terrain[at] == WATER:
        return tr("from the water a general can only step onto a neighbouring land cell he may enter")
    if isinstance(order, Build):
        return _why_not(state, seat, at)
    path = order.path if isinstance(order, Walk) else (order.source, order.target)
    for step, (here, there) in enumerate(zip(path, path[1:])):
        if there not in here.neighbours():
            return tr("{cell} is not next to {source}", cell=there.label, source=here.label)
        if state.terrain.get(there) == MOUNTAIN:
            return tr("generals cannot climb the mountain on {cell}", cell=there.label)
        if state.owners.get(there) == 1 - seat:
            return tr("{cell} belongs to your opponent", cell=there.label)
        if there in state.generals:
            return tr("another general stands on {cell}", cell=there.label)
        if step == 0 and len(path) == 3 and state.terrain[there] == WATER:
            return tr("entering the water on {cell} ends the move", cell=there.label)
    if isinstance(order, WalkBuild):
        return _why_not(state, seat, order.target)
    return tr("that is not a legal move")


def advance(state: FortressState, events: list[Event]) -> FortressState:
    """End the turn: count it, let the next player's general appear, and pass for a player who cannot act."""
    played = [
        Hex.from_label(label)
        for e in events
        for label in (e.data["path"] if e.kind == "general_moved" else [e.data["cell"]] if e.kind == "built" else [])
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
