"""A plain Monte Carlo tree search siege player, the yardstick for the Extreme level.

Plain means: UCT (exploration constant 1.4) over single actions (the bots' candidate actions and
END), the player keeping the move until he ends his turn or his EP run out; random rollouts of two
turns (a random token steps onto a random neighbour, if that is legal and affordable, else the
turn ends); a rollout is worth +1/-1 for a won or lost game, else the territory lead squashed
into (-1, 1). No domain score, no move ordering. Its budget counts the same nodes as the bots': every position it steps into, in the
tree or in a rollout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bench import uct
from engine.budget import Budget
from engine.rng import Rng, seed_state
from engine.siege.ai import options
from engine.siege.orders import END, EP_PER_TURN, Action
from engine.siege.rules import advance, cost, neighbours, perform, why_not
from engine.siege.state import SiegeState

ROLLOUT_TURNS = 2


@dataclass(frozen=True)
class Position:
    state: SiegeState
    left: int  # EP left to the player to move

    def moves(self) -> list[Action]:
        if self.state.over:
            return []
        seat = self.state.to_move
        return [END, *(a for a in options(self.state, seat) if cost(self.state, a) <= self.left)]

    def play(self, action: Action) -> Position:
        if action == END:
            return Position(advance(self.state, ()), EP_PER_TURN)
        after, _ = perform(self.state, self.state.to_move, action)
        left = self.left - cost(self.state, action)
        return Position(after, left) if left > 0 else Position(advance(after, ()), EP_PER_TURN)

    @property
    def mover(self) -> int:
        return self.state.to_move


def worth(state: SiegeState, seat: int) -> float:
    """+1 won, -1 lost, else the territory lead squashed into (-1, 1)."""
    if not state.players[seat].playing:
        return -1.0
    if not state.players[1 - seat].playing:
        return 1.0
    return math.tanh((state.territory(seat) - state.territory(1 - seat)) / 6)


def choose(state: SiegeState, seat: int, seed: int | str, budget: Budget) -> list[Action]:
    """The turn: the most visited action at each step from the root, until END or EP run out."""
    rng = Rng(seed_state(f"mcts:{seed}:{state.turn}"))
    root = uct.search(Position(state, EP_PER_TURN), rng, budget, _rollout, worth)
    turn: list[Action] = []
    node = root
    while node.children:
        action, node = max(node.children.items(), key=lambda item: item[1].visits)
        turn.append(action)
        if action == END or node.position.state.to_move != seat or node.position.state.over:
            break
    return [a for a in turn if a != END]


def _rollout(position: Position, rng: Rng, budget: Budget) -> SiegeState:
    end = position.state.turn + ROLLOUT_TURNS
    while not position.state.over and position.state.turn < end:
        position = position.play(_random_action(position, rng))
        budget.spend()
    return position.state


def _random_action(position: Position, rng: Rng) -> Action:
    """A random token onto a random neighbour (the action that fits the square), else END."""
    state, seat = position.state, position.state.to_move
    tokens = sorted(sq for sq, owner in state.tokens.items() if owner == seat)
    if not tokens:
        return END
    source = rng.choice(tokens)
    target = rng.choice(neighbours(state, source))
    if target in state.rivers:
        action = Action("cross", target, source)
    elif target in state.mountains:
        action = Action("climb", target, source)
    elif state.owners.get(target) == 1 - seat:
        action = Action("attack", target, source)
    else:
        action = Action("expand", target)
    legal = why_not(state, seat, action) is None and cost(state, action) <= position.left
    return action if legal else END
