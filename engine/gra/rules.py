"""Gra turn resolution, phase by phase: negotiation, moves with edge and node fights, creating
soldiers, split territory; and the order in which the phases follow each other."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine import standings
from engine.gra.orders import Create, Keep, Move, Order, Pick
from engine.gra.state import DIED, Army, GraState, Phase, Trace
from engine.rng import Rng
from engine.ruleset import Event


def acting(state: GraState) -> frozenset[int]:
    if state.over:
        return frozenset()
    seats = state.playing()
    match state.phase:
        case Phase.NEGOTIATE:
            return frozenset(seats)
        case Phase.MOVE:
            return frozenset(s for s in seats if state.ready_soldiers(s) > 0)
        case Phase.CREATE:
            return frozenset(s for s in seats if state.cap(s) > state.soldiers(s))
        case Phase.SPLIT:
            return frozenset(state.splits)


def resolve_phase(state: GraState, orders: Mapping[int, Sequence[Order]]) -> tuple[GraState, list[Event]]:
    events: list[Event] = []
    state = HANDLERS[state.phase](state, orders, events)
    state = replace(state, turn=state.turn + 1)
    return next_phase(state, events), events


# --- negotiation ------------------------------------------------------------------------------


def _negotiate(state: GraState, orders: Mapping[int, Sequence[Order]], events: list[Event]) -> GraState:
    """Players in a seeded order each get the pick farthest from the starts already given out."""
    rng = Rng(state.rng)
    picks = {
        seat: [n for o in orders.get(seat, ()) if isinstance(o, Pick) for n in o.nodes] for seat in state.playing()
    }
    starts: dict[int, int] = {}
    for seat in rng.shuffled(sorted(picks)):
        free = [n for n in picks[seat] if n not in starts.values()]
        if not starts:
            choice = rng.choice(free)
        else:
            choice = max(free, key=lambda n: min(state.graph.distance[n][s] for s in starts.values()))
        starts[seat] = choice
        events.append(Event("start", {"seat": seat, "node": choice}))
    return replace(
        state, owners={n: s for s, n in starts.items()}, ready={n: (s, 1) for s, n in starts.items()}, rng=rng.state
    )


def default_picks(state: GraState, seat: int) -> list[int]:
    """A legal pick for a player who says nothing: spread out greedily from a seeded node."""
    rng = Rng(state.rng ^ (seat + 1) * 0x9E3779B97F4A7C15)
    graph = state.graph
    chosen = [rng.choice(list(graph.nodes))]
    while len(chosen) < len(state.players):
        far = max(graph.nodes, key=lambda n: (min(graph.distance[n][c] for c in chosen), -n))
        chosen.append(far)
    return chosen


def spacing_for(graph, players: int) -> int:
    """Start near sqrt(nodes / players) and lower it until such a selection exists."""
    spacing = max(1, round((len(graph.positions) / players) ** 0.5))
    while spacing > 1 and not _spread_exists(graph, players, spacing):
        spacing -= 1
    return spacing


def _spread_exists(graph, count: int, spacing: int) -> bool:
    for start in graph.nodes:
        chosen = [start]
        for node in graph.nodes:
            if len(chosen) == count:
                break
            if all(graph.distance[node][c] >= spacing for c in chosen):
                chosen.append(node)
        if len(chosen) == count:
            return True
    return False


# --- move phase -------------------------------------------------------------------------------


def _move(state: GraState, orders: Mapping[int, Sequence[Order]], events: list[Event]) -> GraState:
    traces: list[Trace] = []
    marching: dict[tuple[int, int], Army] = {}
    left: dict[int, int] = defaultdict(int)
    for seat, seat_orders in orders.items():
        for order in seat_orders:
            if isinstance(order, Move):
                soldiers = marching.get((order.source, order.target), (seat, 0))[1] + order.soldiers
                marching[order.source, order.target] = (seat, soldiers)
                left[order.source] += order.soldiers
    for (a, b), (seat, n) in sorted(marching.items()):
        traces.append(Trace("move", seat, (a, b), n))
    marching = _edge_fights(marching, traces, events)
    stayers = {node: (seat, count - left[node]) for node, (seat, count) in state.ready.items() if count > left[node]}
    arrivals: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for (_, target), (seat, n) in marching.items():
        arrivals[target][seat] += n
    owners, ready, spawning = dict(state.owners), {}, dict(state.spawning)
    for node in sorted(set(stayers) | set(arrivals)):
        winner = _node_fight(node, stayers.get(node), dict(arrivals.get(node, {})), traces, events)
        if winner is None:
            continue
        seat, count = winner
        if owners.get(node) != seat:
            events.append(Event("captured", {"node": node, "seat": seat, "from": owners.get(node)}))
            owners[node] = seat
        if count:
            ready[node] = (seat, count)
    for node, (seat, count) in sorted(spawning.items()):
        if owners.get(node) != seat:
            events.append(Event("spawning_killed", {"node": node, "seat": seat, "soldiers": count}))
            del spawning[node]
    for node, (seat, count) in spawning.items():  # after this move phase they are ready
        ready[node] = (seat, ready.get(node, (seat, 0))[1] + count)
    state = replace(
        state, owners=owners, ready=ready, spawning={}, last=tuple(traces), move_phases=state.move_phases + 1
    )
    return _deaths(state, events)


def _edge_fights(
    marching: dict[tuple[int, int], Army], traces: list[Trace], events: list[Event]
) -> dict[tuple[int, int], Army]:
    """Armies of different players meeting on an edge fight there first; survivors go on."""
    result = dict(marching)
    for (a, b), (seat, n) in sorted(marching.items()):
        if a > b or (b, a) not in marching:
            continue
        other, m = marching[b, a]
        if other == seat:
            continue  # one player's armies pass each other
        loss = min(n, m)
        events.append(
            Event(
                "edge_fight",
                {
                    "nodes": [a, b],
                    "armies": [[seat, n], [other, m]],
                    "survivors": [[seat, n - loss], [other, m - loss]],
                },
            )
        )
        traces.append(Trace("edge_fight", None, (a, b), loss))
        for key, (owner, count) in (((a, b), (seat, n)), ((b, a), (other, m))):
            if count - loss:
                result[key] = (owner, count - loss)
            else:
                del result[key]
    return result


def _node_fight(
    node: int, stayer: Army | None, arrivals: dict[int, int], traces: list[Trace], events: list[Event]
) -> Army | None:
    """Every army present loses as many soldiers as the smallest has, until at most one is left.
    The stayers' +0.5 decides only a last-two tie: the defender keeps the node with 0 soldiers."""
    armies: dict[int, int] = dict(arrivals)
    defender = None
    if stayer is not None:
        defender = stayer[0]
        armies[defender] = armies.get(defender, 0) + stayer[1]
    if len(armies) == 1:
        return next(iter(armies.items()))
    before = sorted(armies.items())
    while len(armies) > 1:
        smallest = min(armies.values())
        if len(armies) == 2 and all(v == smallest for v in armies.values()) and defender in armies:
            armies = {defender: 0}
            break
        armies = {seat: n - smallest for seat, n in armies.items() if n > smallest}
    winner = next(iter(armies.items()), None)
    events.append(
        Event(
            "node_fight",
            {
                "node": node,
                "armies": [list(a) for a in before],
                "defender": defender,
                "winner": None if winner is None else winner[0],
                "left": 0 if winner is None else winner[1],
            },
        )
    )
    traces.append(Trace("node_fight", None if winner is None else winner[0], (node,), 0))
    return winner


def _deaths(state: GraState, events: list[Event]) -> GraState:
    alive = set(state.owners.values())
    dead = [seat for seat in state.playing() if seat not in alive]
    for seat in dead:
        events.append(Event("died", {"seat": seat}))
    return replace(state, players=standings.leave(state.players, dead, standings.Status.ELIMINATED, DIED, state.turn))


# --- creating phase ---------------------------------------------------------------------------


def _create(state: GraState, orders: Mapping[int, Sequence[Order]], events: list[Event]) -> GraState:
    spawning = dict(state.spawning)
    for seat, seat_orders in sorted(orders.items()):
        wanted = Counter(n for o in seat_orders if isinstance(o, Create) for n in o.nodes)
        for node, count in sorted(wanted.items()):
            spawning[node] = (seat, spawning.get(node, (seat, 0))[1] + count)
        if wanted:
            events.append(Event("created", {"seat": seat, "nodes": sorted(wanted.elements())}))
    return replace(state, spawning=spawning)


# --- split territory --------------------------------------------------------------------------


def default_keep(state: GraState, seat: int) -> int:
    """Timeout: the largest part, then the one with most soldiers, then the lowest node."""

    def soldiers(part: frozenset[int]) -> int:
        return sum(a[1] for n, a in (*state.ready.items(), *state.spawning.items()) if n in part)

    best = min(state.splits[seat], key=lambda p: (-len(p), -soldiers(p), min(p)))
    return min(best)


def _split(state: GraState, orders: Mapping[int, Sequence[Order]], events: list[Event]) -> GraState:
    owners, ready, spawning = dict(state.owners), dict(state.ready), dict(state.spawning)
    for seat, parts in sorted(state.splits.items()):
        chosen = next((o.node for o in orders.get(seat, ()) if isinstance(o, Keep)), default_keep(state, seat))
        for part in parts:
            if chosen in part:
                continue
            for node in part:
                owners.pop(node, None)
                ready.pop(node, None)
                spawning.pop(node, None)
            events.append(Event("part_dropped", {"seat": seat, "nodes": sorted(part)}))
    return replace(state, owners=owners, ready=ready, spawning=spawning, splits={})


# --- phase order ------------------------------------------------------------------------------


def next_phase(state: GraState, events: list[Event]) -> GraState:
    """Move -> split (if someone's land fell apart) -> create (if someone may) -> move ..., skipping
    a phase nobody plays (a skipped move phase still turns spawning soldiers ready)."""
    while not state.over:
        if state.phase == Phase.MOVE:
            splits = {
                seat: tuple(parts)
                for seat in state.playing()
                if len(parts := state.graph.components(state.territory(seat))) > 1
            }
            state = replace(state, phase=Phase.SPLIT if splits else Phase.CREATE, splits=splits)
        else:
            state = replace(state, phase=Phase.CREATE if state.phase == Phase.SPLIT else Phase.MOVE)
        if acting(state):
            return state
        if state.phase == Phase.MOVE:
            state = _move(state, {}, events)
    return state


HANDLERS = {Phase.NEGOTIATE: _negotiate, Phase.MOVE: _move, Phase.CREATE: _create, Phase.SPLIT: _split}


def remove(state: GraState, seat: int, reason: str) -> GraState:
    """Surrender or removal: the seat's nodes turn neutral and its soldiers vanish."""
    return replace(
        state,
        players=standings.leave(state.players, [seat], standings.departure(reason), reason, state.turn),
        owners={n: s for n, s in state.owners.items() if s != seat},
        ready={n: a for n, a in state.ready.items() if a[0] != seat},
        spawning={n: a for n, a in state.spawning.items() if a[0] != seat},
        splits={s: p for s, p in state.splits.items() if s != seat},
    )
