"""A gra player for every phase: spread out, grab neutral nodes, attack what it can beat, fill its
army cap on the front line, and keep the largest part when split.

In a move phase each neighbour it weighs for an army is a node of its :class:`Budget`; once the
budget is spent, the armies it has not looked at yet stay where they are.
"""

from __future__ import annotations

from engine.budget import Budget
from engine.gra.orders import Create, Keep, Move, Order, Pick
from engine.gra.rules import default_keep
from engine.gra.state import GraState, Phase
from engine.rng import Rng, seed_state


def choose_orders(state: GraState, seat: int, seed: int | str, budget: Budget) -> list[Order]:
    rng = Rng(seed_state(f"{seed}:{state.turn}:{seat}"))
    match state.phase:
        case Phase.NEGOTIATE:
            return [Pick(tuple(spread(state, rng)))]
        case Phase.MOVE:
            return _moves(state, seat, rng, budget)
        case Phase.CREATE:
            return _creates(state, seat)
        case Phase.SPLIT:
            return [Keep(default_keep(state, seat))]


def spread(state: GraState, rng: Rng) -> list[int]:
    """As many nodes as players, far apart: greedy farthest points from a random well-connected node."""
    graph = state.graph
    hubs = [n for n in graph.nodes if len(graph.adjacency[n]) >= 3] or list(graph.nodes)
    chosen = [rng.choice(hubs)]
    while len(chosen) < len(state.players):
        chosen.append(
            max(graph.nodes, key=lambda n: (min(graph.distance[n][c] for c in chosen), len(graph.adjacency[n]), -n))
        )
    return chosen


def _moves(state: GraState, seat: int, rng: Rng, budget: Budget) -> list[Order]:
    """Beat an adjacent enemy army when possible (sometimes trade evenly, to break stand-offs), then
    keep enough at home against the remaining threats, then take cheap nodes with the rest."""
    orders: list[Order] = []
    for node, (owner, count) in sorted(state.ready.items()):
        if owner != seat:
            continue
        if budget.spent:
            break
        near = rng.shuffled(list(state.graph.adjacency[node]))
        budget.spend(len(near))
        enemies = [(n, a[1]) for n in near if (a := state.ready.get(n)) and a[0] != seat]
        attacked = set()
        for target, defenders in sorted(enemies, key=lambda e: e[1]):
            need = defenders + 1 if count > defenders or not rng.chance(1, 4) else defenders
            if count >= need:
                orders.append(Move(node, target, need))
                count -= need
                attacked.add(target)
        reserve = max((m for n, m in enemies if n not in attacked), default=0)
        free = max(0, count - reserve)
        cheap = [n for n in near if state.owners.get(n) != seat and n not in attacked and state.ready.get(n) is None]
        for target in sorted(cheap, key=lambda n: (state.owners.get(n) is None, n)):
            if free:
                orders.append(Move(node, target, 1))
                free -= 1
        if free and not enemies and not cheap:  # inside our land: walk toward the nearest border
            step = _toward_border(state, seat, node)
            if step is not None:
                orders.append(Move(node, step, free))
    return orders


def _toward_border(state: GraState, seat: int, node: int) -> int | None:
    """A step toward the nearest enemy node (else the nearest neutral one), to bring soldiers to the front."""
    graph = state.graph
    enemy = [n for n, s in state.owners.items() if s != seat]
    goals = enemy or [n for n in graph.nodes if n not in state.owners]
    if not goals:
        return None
    best = min(goals, key=lambda b: (graph.distance[node][b], b))
    return min(graph.adjacency[node], key=lambda n: (graph.distance[n][best], n))


def _creates(state: GraState, seat: int) -> list[Order]:
    room = state.cap(seat) - state.soldiers(seat)
    mine = state.territory(seat)
    front = sorted(mine, key=lambda n: (-sum(1 for m in state.graph.adjacency[n] if state.owners.get(m) != seat), n))
    nodes = [front[i % len(front)] for i in range(max(0, room))] if front else []
    return [Create(tuple(nodes))] if nodes else []


def suggestions(state: GraState, seat: int, text: str) -> list[str]:
    typed = " ".join(text.lower().split())
    match state.phase:
        case Phase.NEGOTIATE:
            lines = [str(Pick(tuple(spread(state, Rng(seed_state(f"{seat}:{i}")))))) for i in range(25)]
        case Phase.MOVE:
            lines = [
                str(Move(node, near, count))
                for node, (owner, count) in sorted(state.ready.items())
                if owner == seat
                for near in state.graph.adjacency[node]
            ]
        case Phase.CREATE:
            lines = [f"create {n}" for n in state.territory(seat)]
        case Phase.SPLIT:
            lines = [f"keep {min(part)}" for part in state.splits.get(seat, ())]
    return [line for line in dict.fromkeys(lines) if line.startswith(typed)]
