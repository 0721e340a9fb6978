"""What the stronger gra players know: how much a position is worth to a player, and a move
generator that plans a whole move phase at once (attacks gathered from every army next to a
target, guards left where an enemy could strike, the rest heading for nodes still to take).

The generator takes a :class:`Plan` style, so the searches can weigh several sensible order sets
of every player: bolder or more careful, raiding the enemy or spreading over neutral land, the
targets in a different order.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from engine.gra.orders import Create, Keep, Move, Order
from engine.gra.state import GraState
from engine.rng import Rng

SOLDIER = 2.0  # a soldier is worth this many nodes: it holds ground and takes more
DEAD = -1000.0
WON = 1000.0
LAGGARD = 0.05  # per soldier and edge between it and the nearest node it does not own


@dataclass(frozen=True)
class Plan:
    """How a move phase is planned."""

    guard: float  # share of the adjacent enemy soldiers kept home as guards (1: hold every node)
    margin: float  # share of the target's enemy neighbours added to an attack, against reinforcements
    noise: int  # 0: targets strictly by worth per soldier; else the worth is jittered up to noise %
    pull: float = 1.5  # idle soldiers treat an enemy node as this many edges closer than a neutral one
    shield: bool = False  # soldiers step into the seat's empty nodes an enemy could take that would cut its land


STEADY = Plan(guard=1.0, margin=0.5, noise=0)
PLANS = (
    STEADY,
    Plan(guard=0.5, margin=0.0, noise=0, pull=3.0),
    Plan(guard=1.0, margin=1.0, noise=0, pull=0.0),
    Plan(guard=0.0, margin=0.0, noise=0),
    Plan(guard=1.0, margin=0.5, noise=40, pull=3.0),
    Plan(guard=0.5, margin=0.5, noise=60, pull=0.0),
    Plan(guard=1.5, margin=0.0, noise=30),
    Plan(guard=0.0, margin=1.0, noise=60, pull=3.0),
)


# --- worth of a position --------------------------------------------------------------------


def holdings(state: GraState, seat: int) -> tuple[set[int], int]:
    """The seat's nodes and soldiers once a pending split is settled as it would choose."""
    nodes = set(state.territory(seat))
    parts = state.splits.get(seat)
    if parts:
        nodes = set(best_part(state, seat, parts))
    soldiers = sum(a[1] for n, a in (*state.ready.items(), *state.spawning.items()) if a[0] == seat and n in nodes)
    return nodes, soldiers


def strength(state: GraState, seat: int) -> float:
    nodes, soldiers = holdings(state, seat)
    return len(nodes) + SOLDIER * soldiers


def worth(state: GraState, seat: int, *, laggards: bool = True) -> float:
    """The seat's strength against its strongest rival (dead: very low; last one standing: very high).
    With ``laggards``, soldiers far from any node worth taking count a little less."""
    playing = state.playing()
    if seat not in playing:
        return DEAD
    rivals = [strength(state, other) for other in playing if other != seat]
    if not rivals:
        return WON
    score = strength(state, seat) - max(rivals) - 0.25 * sum(rivals) / len(rivals)
    if laggards:
        far = front_distance(state, seat)
        score -= LAGGARD * sum(n * far.get(node, 0) for node, (s, n) in state.ready.items() if s == seat)
    return score


def front_distance(state: GraState, seat: int) -> dict[int, int]:
    """Edges from each node to the nearest node the seat does not own."""
    return state.graph.distances_from(*(n for n in state.graph.nodes if state.owners.get(n) != seat))


def best_part(state: GraState, seat: int, parts) -> frozenset[int]:
    """The part of a split territory worth most: its nodes and soldiers, less what enemies next to
    it could take at once."""

    def value(part: frozenset[int]) -> tuple[float, int]:
        soldiers = sum(a[1] for n, a in (*state.ready.items(), *state.spawning.items()) if n in part and a[0] == seat)
        return len(part) + SOLDIER * soldiers - 0.5 * _pressure(state, seat, part), -min(part)

    return max(parts, key=value)


def _pressure(state: GraState, seat: int, part: frozenset[int]) -> int:
    """Enemy ready soldiers next to the part."""
    near = {m for n in part for m in state.graph.adjacency[n]} - part
    return sum(a[1] for n in near if (a := state.ready.get(n)) and a[0] != seat)


def keep(state: GraState, seat: int) -> Keep:
    return Keep(min(best_part(state, seat, state.splits[seat])))


def cut_table(state: GraState, seat: int) -> dict[int, int]:
    """:func:`cut_off` of every node of the seat (0 where nothing is cut off), all at once. The last
    state's tables are kept: every player's plans are made on the same state, one after another
    (per thread: computer players may search side by side in threads of one process)."""
    if getattr(_TABLES, "state", None) is not state:
        _TABLES.state, _TABLES.by_seat = state, {}
    tables = _TABLES.by_seat
    if seat not in tables:
        land = set(state.territory(seat))
        table = _articulations(state, land)
        tables[seat] = table if table is not None else {n: cut_off(state, seat, n) for n in land}
    return tables[seat]


_TABLES = threading.local()  # this thread's last state (``state``) and its tables by seat (``by_seat``)


def _articulations(state: GraState, land: set[int]) -> dict[int, int] | None:
    """For each node whose loss splits ``land``: the nodes cut off (all but the largest part), by one
    depth-first search (Tarjan's low points). None when ``land`` is not connected."""
    adjacency = state.graph.adjacency
    total = len(land)
    if total < 3:
        return None if total == 2 and not state.graph.adjacent(*land) else {}
    root = min(land)
    order, low, size = {root: 0}, {root: 0}, {root: 1}
    parts: dict[int, list[int]] = defaultdict(list)  # node -> sizes of the subtrees its loss cuts away
    stack: list[tuple[int, Iterator[int], int | None]] = [(root, iter(adjacency[root]), None)]
    while stack:
        node, nears, parent = stack[-1]
        for near in nears:
            if near not in land:
                continue
            if near not in order:
                order[near] = low[near] = len(order)
                size[near] = 1
                stack.append((near, iter(adjacency[near]), node))
                break
            if near != parent:
                low[node] = min(low[node], order[near])
        else:
            stack.pop()
            if parent is not None:
                low[parent] = min(low[parent], low[node])
                size[parent] += size[node]
                if low[node] >= order[parent]:
                    parts[parent].append(size[node])
    if len(order) < total:
        return None
    table = {}
    for node, cut in parts.items():
        pieces = cut if node == root else [*cut, total - 1 - sum(cut)]
        if len(pieces) > 1:
            table[node] = total - 1 - max(pieces)
    return table


def cut_off(state: GraState, seat: int, node: int) -> int:
    """Nodes the seat would lose beside ``node`` if ``node`` were taken (it keeps its largest part)."""
    land = [n for n in state.territory(seat) if n != node]
    parts = state.graph.components(land)
    return len(land) - len(parts[0]) if parts else 0


# --- threats ---------------------------------------------------------------------------------


def threats(state: GraState, seat: int, spared: frozenset[int] | set[int] = frozenset()) -> dict[int, int]:
    """For each node: the most ready soldiers one enemy could send into it at once (armies on
    ``spared`` nodes left out: they are being dealt with)."""
    by_enemy: dict[tuple[int, int], int] = defaultdict(int)
    for node, (owner, count) in state.ready.items():
        if owner != seat and node not in spared:
            for near in state.graph.adjacency[node]:
                by_enemy[near, owner] += count
    worst: dict[int, int] = defaultdict(int)
    for (node, _), count in by_enemy.items():
        worst[node] = max(worst[node], count)
    return worst


# --- move generator --------------------------------------------------------------------------


def plan_moves(state: GraState, seat: int, plan: Plan, rng: Rng) -> list[Order]:
    """A whole move phase: first the enemy armies it can beat, each attacked by soldiers gathered
    from every army next to it; then guards where an enemy could still strike; then the empty
    nodes best worth taking; the idle soldiers step toward nodes still to take."""
    free = {node: count for node, (owner, count) in state.ready.items() if owner == seat}
    moves: dict[tuple[int, int], int] = defaultdict(int)
    targets = _targets(state, seat, plan, rng, free)
    beaten = _send(state, [t for t in targets if t[0] in state.ready], free, moves)
    danger = threats(state, seat, beaten)
    for node, count in free.items():
        if danger[node] and count:
            weight = 1 + cut_table(state, seat).get(node, 0)
            free[node] -= min(count, round(danger[node] * plan.guard * min(weight, 2)))
    if plan.shield:
        _send(state, _shields(state, seat, danger), free, moves)
    _send(state, [t for t in targets if t[0] not in state.ready], free, moves)
    _walk(state, seat, plan.pull, free, {b for (_, b) in moves}, moves)
    return [Move(a, b, n) for (a, b), n in sorted(moves.items())]


def _shields(state: GraState, seat: int, danger: dict[int, int]) -> list[tuple[int, int]]:
    """The seat's empty nodes an enemy could take whose loss would cut its land, the biggest cut
    first, each with the soldiers that hold it (arrivals that wipe each other out leave the owner)."""
    cuts = cut_table(state, seat)
    exposed = [node for node, cut in cuts.items() if cut and danger[node] and node not in state.ready]
    return [(node, danger[node]) for node in sorted(exposed, key=lambda n: (-cuts[n], n))]


def _send(
    state: GraState, targets: list[tuple[int, int]], free: dict[int, int], moves: dict[tuple[int, int], int]
) -> set[int]:
    """Each target that the free soldiers next to it can muster gets what it needs, the biggest
    armies sending first; returns the targets attacked."""
    attacked = set()
    for target, need in targets:
        sources = sorted((n for n in state.graph.adjacency[target] if free.get(n)), key=lambda n: (-free[n], n))
        if sum(free[n] for n in sources) < need:
            continue
        attacked.add(target)
        for source in sources:
            sent = min(free[source], need)
            if sent:
                moves[source, target] += sent
                free[source] -= sent
                need -= sent
    return attacked


def _walk(
    state: GraState,
    seat: int,
    pull: float,
    free: dict[int, int],
    claimed: set[int],
    moves: dict[tuple[int, int], int],
) -> None:
    """Each idle soldier heads for the nearest node it does not own that no other soldier is
    heading for and no enemy army holds (enemy nodes ``pull`` edges nearer), one step along a
    shortest path; with none left, it stays."""
    graph = state.graph
    for node, count in sorted(free.items()):
        for _ in range(count):
            goal = _nearest(state, seat, node, claimed, pull)
            if goal is None:
                break
            claimed.add(goal)
            step = min(graph.adjacency[node], key=lambda n: (graph.distance[n][goal], n))
            if step != node:
                moves[node, step] += 1


def _nearest(state: GraState, seat: int, start: int, claimed: set[int], pull: float) -> int | None:
    """The closest free node to take, an enemy's counting ``pull`` edges closer than a neutral one.
    The distances come nearest first, so the scan stops where nothing closer can follow."""
    best = None
    for n, d in state.graph.distance[start].items():
        if best is not None and d - max(pull, 0.0) > best[0]:
            break
        owner = state.owners.get(n)
        if n in claimed or owner == seat or n in state.ready:
            continue
        key = (d - pull * (owner is not None), n)
        if best is None or key < best:
            best = key
    return best[1] if best else None


def _targets(state: GraState, seat: int, plan: Plan, rng: Rng, free: dict[int, int]) -> list[tuple[int, int]]:
    """Nodes next to the seat's armies it does not own, with the soldiers each needs, best first."""
    graph = state.graph
    reach = {n for node in free for n in graph.adjacency[node] if state.owners.get(n) != seat}
    found = []
    for target in reach:
        owner = state.owners.get(target)
        army = state.ready.get(target)
        defenders = army[1] if army and army[0] != seat else 0
        helpers = sum(a[1] for n in graph.adjacency[target] if (a := state.ready.get(n)) and a[0] not in (seat,))
        need = defenders + 1 + round(plan.margin * helpers)
        value = 1.0 + 0.1 * sum(1 for n in graph.adjacency[target] if n not in state.owners) + defenders
        if owner is not None:
            value += 1.0 + cut_table(state, owner).get(target, 0)
            spawn = state.spawning.get(target)
            value += SOLDIER * (spawn[1] if spawn else 0)
        score = value / need
        if plan.noise:
            score *= 1 + rng.below(plan.noise + 1) / 100
        found.append((-score, target, need))
    return [(target, need) for _, target, need in sorted(found)]


# --- creating phase --------------------------------------------------------------------------


@dataclass(frozen=True)
class Spawn:
    """How a creating phase places new soldiers: each safe node of the seat scores its neighbours
    still to take and the enemy army next to it; each soldier placed lowers its node's score by
    ``spread`` (0: all on the best node)."""

    open: float = 1.0  # per neutral neighbour
    enemy: float = 1.5  # per enemy neighbour
    exposed: float = 0.5  # if an enemy army is next to it
    cut: float = 0.0  # per node its loss would cut off
    spread: float = 1.0


STEADY_SPAWN = Spawn()
SPAWNS = (
    STEADY_SPAWN,
    Spawn(open=0.0, enemy=3.0, exposed=1.0),  # at the front
    Spawn(open=2.0, enemy=0.5, exposed=0.0),  # where there is land to take
    Spawn(exposed=2.0, cut=0.5),  # where a loss would cut the land apart
    Spawn(open=0.5, enemy=2.0, exposed=1.0, spread=0.0),  # all together, to strike
)


def plan_creates(state: GraState, seat: int, spawn: Spawn = STEADY_SPAWN) -> list[Order]:
    """New soldiers where they are safe from the next move phase's attacks, scored by ``spawn``;
    each one placed makes its node a little less wanted for the next."""
    room = state.cap(seat) - state.soldiers(seat)
    if room <= 0:
        return []
    graph = state.graph
    danger = threats(state, seat)
    cuts = cut_table(state, seat) if spawn.cut else {}
    scores = {}
    for node in state.territory(seat):
        held = state.ready.get(node, (seat, 0))[1]
        if danger[node] > held:
            continue  # an enemy could take it, and spawning soldiers die with their node
        open_near = sum(1 for n in graph.adjacency[node] if n not in state.owners)
        enemy_near = sum(1 for n in graph.adjacency[node] if state.owners.get(n) not in (None, seat))
        scores[node] = (
            spawn.open * open_near
            + spawn.enemy * enemy_near
            + spawn.exposed * bool(danger[node])
            + spawn.cut * cuts.get(node, 0)
        )
    if not scores:
        return []
    chosen = []
    for _ in range(room):
        node = max(sorted(scores), key=lambda n: scores[n])
        chosen.append(node)
        scores[node] -= spawn.spread
    return [Create(tuple(sorted(chosen)))]
