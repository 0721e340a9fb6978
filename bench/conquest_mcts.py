"""A plain Monte Carlo tree search conquest player, the yardstick for the Extreme level.

Plain means: decoupled UCT (exploration constant 1.4) over randomly generated legal order sets
(every cell with units, by a coin toss, sends a random number of them to a random neighbour or
holds), ``WIDTH`` of them per seat at each tree node, every seat choosing its own by UCB1 on its
own results; random rollouts of ``ROLLOUT_ROUNDS`` rounds; a rollout is worth 1 to the last seat
standing and 0 to those out, else each seat's share of the cells (what the rules rank by at a round
limit). No domain score, no move generator. Its budget counts the same nodes as the bots': every
round it simulates, in the tree or in a rollout, and a finished game reached again in the tree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.budget import Budget
from engine.conquest.orders import Order
from engine.conquest.sim import Geometry, Position, Step, as_orders, play
from engine.conquest.state import ConquestState
from engine.rng import Rng, seed_state

WIDTH = 6
ROLLOUT_ROUNDS = 3
EXPLORATION = 1.4


@dataclass
class Node:
    position: Position
    options: dict[int, list[list[Step]]]  # per seat, its order sets here
    visits: dict[int, list[int]]
    totals: dict[int, list[float]]
    children: dict[tuple[int, ...], Node] = field(default_factory=dict)
    rounds: int = 0


def choose(state: ConquestState, seat: int, seed: int | str, budget: Budget) -> list[Order]:
    """The order set our seat played most often at the root."""
    rng = Rng(seed_state(f"mcts:{seed}:{state.round}:{seat}"))
    geometry = Geometry.of(state)
    root = _node(geometry, Position.of(state, geometry), rng)
    first = True
    while not budget.spent:
        _iterate(geometry, root, rng, budget, stopped=(seat,) if first else ())
        first = False
    visits = root.visits[seat]
    best = max(range(len(visits)), key=lambda k: visits[k])
    return as_orders(state, seat, geometry, root.options[seat][best])


def _node(geometry: Geometry, position: Position, rng: Rng) -> Node:
    seats = sorted(position.alive)
    options = {s: [random_steps(geometry, position, s, rng) for _ in range(WIDTH)] for s in seats}
    return Node(position, options, {s: [0] * WIDTH for s in seats}, {s: [0.0] * WIDTH for s in seats})


def _iterate(geometry: Geometry, root: Node, rng: Rng, budget: Budget, stopped: tuple[int, ...]) -> None:
    path: list[tuple[Node, dict[int, int]]] = []
    node = root
    while len(node.position.alive) > 1:
        picks = {s: _ucb(node.visits[s], node.totals[s], node.rounds) for s in sorted(node.options)}
        path.append((node, picks))
        key = tuple(picks[s] for s in sorted(picks))
        child = node.children.get(key)
        if child is None:
            steps = {s: node.options[s][k] for s, k in picks.items()}
            after = play(geometry, node.position, steps, stopped=stopped if node is root else ())
            budget.spend()
            child = node.children[key] = _node(geometry, after, rng)
            node = child
            break
        node = child
    else:  # a finished game reached again: scoring it is this iteration's node
        budget.spend()
    worth = _rollout(geometry, node.position, rng, budget)
    for visited, picks in path:
        visited.rounds += 1
        for s, k in picks.items():
            visited.visits[s][k] += 1
            visited.totals[s][k] += worth.get(s, 0.0)


def _ucb(visits: list[int], totals: list[float], rounds: int) -> int:
    for k, n in enumerate(visits):
        if not n:
            return k
    log = math.log(rounds)
    return max(range(len(visits)), key=lambda k: totals[k] / visits[k] + EXPLORATION * math.sqrt(log / visits[k]))


def _rollout(geometry: Geometry, position: Position, rng: Rng, budget: Budget) -> dict[int, float]:
    for _ in range(ROLLOUT_ROUNDS):
        if len(position.alive) <= 1:
            break
        steps = {s: random_steps(geometry, position, s, rng) for s in sorted(position.alive)}
        position = play(geometry, position, steps)
        budget.spend()
    cells = {s: 0 for s in position.alive}
    for owner in position.owner:
        if owner in cells:
            cells[owner] += 1
    total = sum(cells.values()) or 1
    return {s: n / total for s, n in cells.items()}


def random_steps(geometry: Geometry, position: Position, seat: int, rng: Rng) -> list[Step]:
    """A random legal order set: each cell with units sends a random number to a random neighbour,
    or holds, by a coin toss."""
    steps = []
    for cell in position.cells_of(seat):
        units = position.units[cell]
        if units and rng.chance(1, 2):
            steps.append((cell, rng.choice(geometry.near[cell]), rng.between(1, units)))
    return steps
