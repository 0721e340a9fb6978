"""A plain Monte Carlo tree search gra player, the yardstick for the Extreme level.

Plain means: decoupled UCT (exploration constant 1.4) over randomly generated legal order sets.
Every position of the tree gives each acting player ``ARMS`` random order sets for its phase (in a
move phase each ready soldier stays or walks to a random neighbour; creating fills the cap on random
own nodes; a split keeps a random part); each iteration every player picks one by UCB1 on its own
results, the joint orders are resolved, and a new position is scored by a random rollout of
``ROLLOUT_MOVES`` move phases: +1/-1 for a won or lost game, else the lead in nodes over the
strongest rival squashed into (-1, 1). No domain score, no move generator. Its budget counts the
same nodes as the bots': every phase it resolves, in the tree or in a rollout, and a finished game
reached again in the tree (else, near the end, the search would go round forever).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from engine.budget import Budget
from engine.gra.ai import spread
from engine.gra.orders import Create, Keep, Move, Order, Pick
from engine.gra.rules import acting, resolve_phase
from engine.gra.state import GraState, Phase
from engine.rng import Rng, seed_state

ARMS = 8
ROLLOUT_MOVES = 2
EXPLORE = 1.4


@dataclass
class Node:
    state: GraState
    players: list[int] = field(default_factory=list)
    options: dict[int, list[list[Order]]] = field(default_factory=dict)  # made on the first visit
    visits: dict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))
    totals: dict[tuple[int, int], float] = field(default_factory=lambda: defaultdict(float))
    rounds: int = 0
    children: dict[tuple[int, ...], Node] = field(default_factory=dict)


def random_orders(state: GraState, seat: int, rng: Rng) -> list[Order]:
    """A uniformly made legal order set for the seat's phase."""
    match state.phase:
        case Phase.NEGOTIATE:
            return [Pick(tuple(spread(state, rng)))]
        case Phase.MOVE:
            moves: dict[tuple[int, int], int] = defaultdict(int)
            for node, (owner, count) in sorted(state.ready.items()):
                if owner == seat:
                    near = state.graph.adjacency[node]
                    for _ in range(count):
                        step = rng.below(len(near) + 1)
                        if step < len(near):
                            moves[node, near[step]] += 1
            return [Move(a, b, n) for (a, b), n in sorted(moves.items())]
        case Phase.CREATE:
            mine = state.territory(seat)
            room = state.cap(seat) - state.soldiers(seat)
            return [Create(tuple(sorted(rng.choice(mine) for _ in range(room))))] if room > 0 else []
        case Phase.SPLIT:
            return [Keep(min(rng.choice(state.splits[seat])))]


def worth(state: GraState, seat: int) -> float:
    """+1 won, -1 out, else the node lead over the strongest rival squashed into (-1, 1)."""
    playing = state.playing()
    if seat not in playing:
        return -1.0
    if len(playing) == 1:
        return 1.0
    best = max(len(state.territory(p)) for p in playing if p != seat)
    return math.tanh((len(state.territory(seat)) - best) / 6)


def choose(state: GraState, seat: int, seed: int | str, budget: Budget) -> list[Order]:
    """The seat's most tried order set at the root."""
    rng = Rng(seed_state(f"mcts:{seed}:{state.turn}:{seat}"))
    if state.phase == Phase.NEGOTIATE:
        return random_orders(state, seat, rng)
    root = Node(state)
    _arms(root, rng)
    while not budget.spent:
        _iterate(root, rng, budget)
    best = max(range(len(root.options[seat])), key=lambda i: (root.visits[seat, i], -i))
    return root.options[seat][best]


def _arms(node: Node, rng: Rng) -> None:
    node.players = sorted(acting(node.state))
    node.options = {p: [random_orders(node.state, p, rng) for _ in range(ARMS)] for p in node.players}


def _iterate(root: Node, rng: Rng, budget: Budget) -> None:
    path: list[tuple[Node, tuple[int, ...]]] = []
    node = root
    while True:
        if node.state.over:  # a finished game reached again: scoring it is this iteration's node
            budget.spend()
            final = node.state
            break
        if not node.players:
            _arms(node, rng)
        pick = tuple(_ucb(node, p) for p in node.players)
        path.append((node, pick))
        child = node.children.get(pick)
        if child is None:
            joint = {p: node.options[p][i] for p, i in zip(node.players, pick, strict=True)}
            after, _ = resolve_phase(node.state, joint)
            budget.spend()
            node.children[pick] = Node(after)
            final = _rollout(after, rng, budget)
            break
        node = child
    for visited, pick in path:
        visited.rounds += 1
        for p, i in zip(visited.players, pick, strict=True):
            visited.visits[p, i] += 1
            visited.totals[p, i] += worth(final, p)


def _ucb(node: Node, seat: int) -> int:
    arms = range(len(node.options[seat]))
    for i in arms:
        if not node.visits[seat, i]:
            return i
    log = math.log(node.rounds + 1)
    return max(
        arms,
        key=lambda i: node.totals[seat, i] / node.visits[seat, i] + EXPLORE * math.sqrt(log / node.visits[seat, i]),
    )


def _rollout(state: GraState, rng: Rng, budget: Budget) -> GraState:
    end = state.move_phases + ROLLOUT_MOVES
    while not state.over and state.move_phases < end:
        state, _ = resolve_phase(state, {p: random_orders(state, p, rng) for p in acting(state)})
        budget.spend()
    return state
