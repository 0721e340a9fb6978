"""Conquest computer players, weakest first. Each plans every round afresh, so it first stops its
own standing auto-moves.

- Easy: greedy (``planner.greedy``): takes what is cheap and productive, feeds the front; blind to
  the enemy's stacks.
- Medium: the careful plan (``planner.plan``): holds its front against adjacent enemy stacks, pools
  attacks, reinforces threatened cells, feeds the enemy's side first.
- Hard: one round of lookahead: its candidate order sets meet the careful plans predicted for the
  others, two more careful rounds follow, and the best share of the board wins (``search.lookahead``).
- Extreme: decoupled UCT over every seat's candidate order sets, each judged after the round and a
  short careful playout (``search.decoupled_uct``).

Nodes of the :class:`Budget` are order sets generated and rounds simulated.
"""

from __future__ import annotations

from engine.budget import Budget
from engine.conquest import planner, search
from engine.conquest.orders import Order
from engine.conquest.sim import Geometry, Position, stops
from engine.conquest.state import ConquestState
from engine.rng import Rng, seed_state
from engine.ruleset import BotLevel

LEVELS = (BotLevel("Easy", 1), BotLevel("Medium", 1), BotLevel("Hard", 60), BotLevel("Extreme", 600))
LOOKAHEAD_DEPTH = 2  # careful rounds after the candidate's round (Hard)
PLAYOUT_DEPTH = 1  # careful rounds after the candidate's round (Extreme)
RIVAL_VARIANTS = 4  # candidate order sets weighed for each other seat (Extreme)


def choose_orders(state: ConquestState, seat: int, seed: int | str, level: str, budget: Budget) -> list[Order]:
    rng = Rng(seed_state(f"{seed}:{state.round}:{seat}"))
    geometry = Geometry.of(state)
    position = Position.of(state, geometry)
    if level == "Easy":
        budget.spend()
        steps = planner.greedy(geometry, position, seat, rng)
    elif level == "Medium":
        budget.spend()
        steps = planner.plan(geometry, position, seat, planner.CAREFUL, rng)
    elif level == "Hard":
        steps = search.lookahead(geometry, position, seat, planner.VARIANTS, LOOKAHEAD_DEPTH, rng, budget)
    else:
        steps = search.decoupled_uct(
            geometry, position, seat, planner.VARIANTS, RIVAL_VARIANTS, PLAYOUT_DEPTH, rng, budget
        )
    return [*stops(state, seat), *(geometry.move(step) for step in _merged(steps))]


def _merged(steps):
    """One move per source and target, in board order."""
    total: dict[tuple[int, int], int] = {}
    for source, target, units in steps:
        total[source, target] = total.get((source, target), 0) + units
    return sorted((source, target, units) for (source, target), units in total.items())
