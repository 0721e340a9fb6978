"""A greedy conquest player: take what is cheap and productive, feed the front from the rear.

Each neighbouring cell it weighs as a target is a node of its :class:`Budget`; once the budget is
spent, the cells it has not looked at yet only feed the front.
"""

from __future__ import annotations

from collections import deque

from engine.budget import Budget
from engine.conquest.orders import Move, Order, StopAuto
from engine.conquest.state import ConquestState
from engine.hexgrid import Hex
from engine.rng import Rng, seed_state


def choose_orders(state: ConquestState, seat: int, seed: int | str, budget: Budget) -> list[Order]:
    rng = Rng(seed_state(f"{seed}:{state.round}:{seat}"))
    mine = state.cells_of(seat)
    to_front = _distance_to_front(state, seat)
    orders: list[Order] = [StopAuto(c) for c in mine if c in state.autos]  # it plans every round itself
    for cell in rng.shuffled(mine):
        available = state.cells[cell].units
        for need, target in _targets(state, seat, cell, rng, budget):
            if available >= need:
                orders.append(Move(cell, target, need))
                available -= need
        if available and to_front.get(cell, 0) > 0:
            closer = [n for n in cell.neighbours() if to_front.get(n, -1) == to_front[cell] - 1]
            if closer:
                orders.append(Move(cell, rng.choice(sorted(closer)), available))
    return orders


def _targets(state: ConquestState, seat: int, cell: Hex, rng: Rng, budget: Budget) -> list[tuple[int, Hex]]:
    """Adjacent foreign cells, best value per unit first, with the units needed to take each."""
    if budget.spent:
        return []
    scored = []
    for target in cell.neighbours():
        other = state.cells.get(target)
        if other is None or other.owner == seat:
            continue
        enemy = other.owner is not None
        need = other.units + (2 if enemy else 1)
        value = state.types[target].production * (3 if enemy else 2) + (2 if enemy else 0)
        scored.append((value / need, rng.below(1000), need, target))
    budget.spend(len(scored))
    scored.sort(reverse=True)
    return [(need, target) for _, _, need, target in scored]


def _distance_to_front(state: ConquestState, seat: int) -> dict[Hex, int]:
    """Steps from each own cell to the nearest foreign cell, walking through own cells."""
    distance: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for cell, content in state.cells.items():
        if content.owner == seat and any(n in state.cells and state.cells[n].owner != seat for n in cell.neighbours()):
            distance[cell] = 0
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        for near in cell.neighbours():
            if near in state.cells and state.cells[near].owner == seat and near not in distance:
                distance[near] = distance[cell] + 1
                queue.append(near)
    return distance
