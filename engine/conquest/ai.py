"""Conquest computer players, weakest first. Each plans every round afresh, so it first stops its
own standing auto-moves.

- Easy: greedy (``planner.greedy``): takes what is cheap and productive, feeds the front; blind to
  the enemy's stacks.
- Medium: the careful plan (``planner.plan``): attacks pooled from every cell next to the target
  and sized above its defenders, the rear feeding the enemy's side first.
- Hard: one round of lookahead: the careful plan and its variants meet the careful plans predicted
  for the others, and the one that leaves it best placed against its strongest rival two rounds
  later is played (``search.lookahead``).
- Extreme: thinks a step further (``search.anticipate``): it predicts the others both as careful
  players and as lookahead players, weighs every variant against both, judged two rounds on, and
  improves the best front cell by front cell while its budget lasts.

Nodes of the :class:`Budget` are order sets generated and rounds simulated.
"""

from __future__ import annotations

from engine.budget import Budget
from engine.conquest import planner, search
from engine.conquest.orders import Order
from engine.conquest.sim import Geometry, Position, as_orders
from engine.conquest.state import ConquestState
from engine.rng import Rng, seed_state
from engine.ruleset import BotLevel

# Hard's budget covers its whole lookahead on the largest map (6 seats: 5 + 8 + 8 * (1 + 2 * 7)
# nodes); Extreme's keeps one move under a second there.
LEVELS = (BotLevel("Easy", 1), BotLevel("Medium", 1), BotLevel("Hard", 150), BotLevel("Extreme", 1500))
DEPTH = 2  # careful rounds after the candidate's round


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
        steps = search.lookahead(geometry, position, seat, planner.VARIANTS, DEPTH, rng, budget)
    else:
        steps = search.anticipate(geometry, position, seat, planner.VARIANTS, DEPTH, rng, budget)
    return as_orders(state, seat, geometry, steps)


def evaluation(state: ConquestState, seat: int) -> float:
    """The searches' score of the position (``planner.scores``: strength against the strongest
    rival, 0.5 for even), from -1 to 1."""
    geometry = Geometry.of(state)
    return 2 * planner.scores(geometry, Position.of(state, geometry)).get(seat, 0.0) - 1
