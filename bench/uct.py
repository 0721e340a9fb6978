"""Plain UCT (exploration constant 1.4), the search the yardsticks of the alternating games share.

A tree position is anything with ``moves()`` (none once the game is over), ``play(move)`` (a new
position) and ``mover`` (the seat choosing among its moves). Each iteration walks down by UCT,
adds one untried move, rolls out from there with the game's ``rollout`` and credits every step
with ``worth(final, mover)`` for the seat that chose it. Every position stepped into counts one
node of the budget, as in the bots' own searches; an iteration that ends on a finished game already
in the tree counts one too (it scores that ending), or near the end, once every ending is in the
tree, the search would go round forever.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.budget import Budget
from engine.rng import Rng


@dataclass
class Node:
    position: Any
    untried: list[Any]
    visits: int = 0
    value: float = 0.0  # summed for the player who chose the move leading here
    children: dict[Any, Node] = field(default_factory=dict)


Rollout = Callable[[Any, Rng, Budget], Any]
Worth = Callable[[Any, int], float]


def search(position: Any, rng: Rng, budget: Budget, rollout: Rollout, worth: Worth) -> Node:
    """The tree grown from ``position`` until ``budget`` is spent."""
    root = Node(position, rng.shuffled(position.moves()))
    while not budget.spent:
        _iterate(root, rng, budget, rollout, worth)
    return root


def _iterate(root: Node, rng: Rng, budget: Budget, rollout: Rollout, worth: Worth) -> None:
    path = [root]
    node = root
    while not node.untried and node.children:
        node = max(node.children.values(), key=lambda child: _uct(node, child))
        path.append(node)
    if node.untried:
        move = node.untried.pop()
        position = node.position.play(move)
        budget.spend()
        child = Node(position, rng.shuffled(position.moves()))
        node.children[move] = child
        node = child
        path.append(node)
    else:
        budget.spend()  # a finished game reached again: scoring it is this iteration's node
    final = rollout(node.position, rng, budget)
    for parent, child in zip(path, path[1:], strict=False):
        child.visits += 1
        child.value += worth(final, parent.position.mover)
    root.visits += 1


def _uct(parent: Node, child: Node) -> float:
    return child.value / child.visits + 1.4 * math.sqrt(math.log(parent.visits + 1) / child.visits)
