"""A plain Monte Carlo tree search ranks player, the yardstick for the Extreme level.

Plain means: UCT (exploration constant 1.4) over single orders (the spawn, a move or blast, an
upgrade, or ending the turn), the player keeping the move until he ends it; random rollouts of two
turns (each a spawn or one random move or blast, as a coin decides); a rollout is worth +1/-1 for a
won or lost game, else the lead in armies' ranks squashed into (-1, 1). No domain score, no move
ordering. Its budget counts the same nodes as the bots': every position it steps into, in the tree
or in a rollout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bench import uct
from engine import standings
from engine.budget import Budget
from engine.ranks.ai import MOST_MOVES, _actions, _legal, _spawn_cells, _upgrades
from engine.ranks.orders import Order, Spawn, Upgrade
from engine.ranks.rules import act, play
from engine.ranks.state import RanksState
from engine.rng import Rng, seed_state

ROLLOUT_TURNS = 2
END = "end"


@dataclass(frozen=True)
class Position:
    state: RanksState
    orders: tuple[Order, ...]  # the mover's turn so far

    @property
    def mover(self) -> int:
        return self.state.to_move

    def moves(self) -> list[Order | str]:
        if self.state.over:
            return []
        seat, orders = self.state.to_move, list(self.orders)
        turn = act(self.state, seat, orders)
        upgrading = any(isinstance(o, Upgrade) for o in orders)
        found: list[Order | str] = [END]
        if turn.action is None and not upgrading and _legal(self.state, seat, [Spawn(_spawn_cells(self.state, seat))]):
            found.append(Spawn(_spawn_cells(self.state, seat)))
        if turn.action != "spawn" and not upgrading and len(turn.moved) < MOST_MOVES:
            found += _actions(turn, seat)
        found += [u for (u,) in _upgrades(turn) if _legal(self.state, seat, [*orders, u])]
        return found

    def play(self, move: Order | str) -> Position:
        if move == END:
            return Position(play(self.state, self.state.to_move, list(self.orders))[0], ())
        return Position(self.state, (*self.orders, move))


def worth(state: RanksState, seat: int) -> float:
    """+1 won, -1 lost, else the lead in armies' ranks over the strongest rival, squashed."""
    if not state.players[seat].playing:
        return -1.0
    rivals = [s for s in standings.still_in(state.players) if s != seat]
    if not rivals:
        return 1.0

    def strength(who: int) -> int:
        return sum(army.rank + 1 for army in state.armies.values() if army.seat == who)

    return math.tanh((strength(seat) - max(strength(r) for r in rivals)) / 6)


def choose(state: RanksState, seat: int, seed: int | str, budget: Budget) -> list[Order]:
    """The turn: the most visited order at each step from the root, until it ends the turn (a turn
    cut short where the tree ends is a legal turn too)."""
    rng = Rng(seed_state(f"mcts:{seed}:{state.turn}"))
    node, orders = uct.search(Position(state, ()), rng, budget, _rollout, worth), []
    while node.children:
        move, node = max(node.children.items(), key=lambda item: item[1].visits)
        if move == END:
            break
        orders.append(move)
    return orders


def _rollout(position: Position, rng: Rng, budget: Budget) -> RanksState:
    state = position.play(END).state if position.orders else position.state
    for _ in range(ROLLOUT_TURNS):
        if state.over:
            break
        seat = state.to_move
        spawn = [Spawn(_spawn_cells(state, seat))]
        moves = _actions(act(state, seat, []), seat)
        orders = spawn if (not moves or rng.chance(1, 2)) and _legal(state, seat, spawn) else []
        if not orders and moves:
            orders = [rng.choice(moves)]
        state = play(state, seat, orders)[0]
        budget.spend()
    return state
