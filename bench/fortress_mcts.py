"""A plain Monte Carlo tree search fortress player, the yardstick for the Extreme level.

Plain means: UCT (exploration constant 1.4) over single actions, with no domain score and no move
ordering. In modes 1-2 an action is a build (or a pass when there is none); in mode 3 it is one
general's action, the city's general first and then the others (each may also stand still), the
player keeping the move until each of his generals has chosen. Rollouts play random turns (a random
build; each general a random action or none) for at most ``ROLLOUT_TURNS`` turns and are worth +1/-1
for a won or lost game, else the territory lead squashed into (-1, 1). Its budget counts the same
nodes as the bots': every position it steps into, in the tree or in a rollout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bench import uct
from engine.budget import Budget
from engine.fortress.position import BUILD, Action, Position
from engine.fortress.state import FortressState
from engine.rng import Rng, seed_state

ROLLOUT_TURNS = 6
STAY = None  # a general outside the city may let his turn go by


@dataclass
class Step:
    """A position in the tree: the generals still to choose this turn (mode 3), in order."""

    position: Position
    pending: tuple[int, ...]

    @classmethod
    def turn_of(cls, position: Position) -> Step:
        if position.mode < 3 or position.over:
            return cls(position, ())
        seat, city = position.to_move, position.field.cities[position.to_move]
        mine = sorted((at for at, s in position.generals.items() if s == seat), key=lambda at: (at != city, at))
        return cls(position, tuple(mine))

    def moves(self) -> list[Action | None]:
        position = self.position
        if position.over:
            return []
        if position.mode < 3:
            return [(BUILD, i) for i in position.build_sites(position.to_move)] or [STAY]
        if not self.pending:
            return [STAY]
        at = self.pending[0]
        found: list[Action | None] = list(position.actions(at))
        return found if at == position.field.cities[position.to_move] else [*found, STAY]

    def play(self, move: Action | None) -> Step:
        after = self.position.copy()
        if after.mode < 3:
            after.play(() if move is STAY else (move,))
            return Step.turn_of(after)
        if move is not STAY:
            after.act(move)
        if len(self.pending) > 1:
            return Step(after, self.pending[1:])
        after.end_turn()
        return Step.turn_of(after)

    @property
    def mover(self) -> int:
        return self.position.to_move


def worth(position: Position, seat: int) -> float:
    """+1 won, -1 lost, else the territory lead squashed into (-1, 1)."""
    lead = position.lead(seat)
    if position.over:
        return float((lead > 0) - (lead < 0))
    return math.tanh(lead / 6)


def choose(state: FortressState, seat: int, seed: int | str, budget: Budget) -> list:
    """The turn: the most visited action at each step from the root while the move is still his."""
    rng = Rng(seed_state(f"mcts:{seed}:{state.turn}"))
    root_step = Step.turn_of(Position.of(state))
    root = uct.search(root_step, rng, budget, _rollout, worth)
    turn = []
    node = root
    while node.children:
        move, node = max(node.children.items(), key=lambda item: item[1].visits)
        if move is not STAY:
            turn.append(root_step.position.order(move))
        if node.position.position.turn != state.turn:
            break
    return turn


def _rollout(step: Step, rng: Rng, budget: Budget) -> Position:
    position = step.position.copy()
    end = position.turn + ROLLOUT_TURNS
    while not position.over and position.turn < end:
        _random_turn(position, rng)
        budget.spend()
    return position


def _random_turn(position: Position, rng: Rng) -> None:
    """Modes 1-2: a random build. Mode 3: each general in turn a random action, or none (the city's
    general always acts)."""
    seat = position.to_move
    if position.mode < 3:
        sites = position.build_sites(seat)
        position.play(((BUILD, rng.choice(sites)),) if sites else ())
        return
    city = position.field.cities[seat]
    for at in Step.turn_of(position).pending:
        actions: list[Action | None] = list(position.actions(at))
        if at != city:
            actions.append(STAY)
        action = rng.choice(actions) if actions else STAY
        if action is not STAY:
            position.act(action)
    position.end_turn()
