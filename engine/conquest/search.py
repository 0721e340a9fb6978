"""The conquest searches over candidate order sets, for rounds where everybody moves at once.

Every order set generated and every round simulated is a node of the :class:`Budget`. The first
candidate is always made, so a spent budget still gives the careful plan.

- ``lookahead``: our candidates each meet the careful plans the others are predicted to give; a few
  rounds of careful play follow, and the candidate leaving us the largest share of the board wins.
- ``decoupled_uct``: every seat has candidates, and each picks its own by UCB1 on its own share
  after the round and a short careful playout (decoupled UCT at the root: no seat assumes the
  others' picks, so it finds order sets that hold up whatever the others choose).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.budget import Budget
from engine.conquest.planner import CAREFUL, Knobs, plan, scores
from engine.conquest.sim import Geometry, Position, Step, play
from engine.rng import Rng

EXPLORATION = 0.1  # UCB1's constant; shares of the board move by hundredths in a round


def candidates(
    geometry: Geometry, position: Position, seat: int, variants: Sequence[Knobs], rng: Rng, budget: Budget
) -> list[list[Step]]:
    """The distinct order sets the variants give ``seat``, the first variant's first."""
    found: dict[tuple[Step, ...], list[Step]] = {}
    for knobs in variants:
        if found and budget.spent:
            break
        budget.spend()
        steps = plan(geometry, position, seat, knobs, rng)
        found.setdefault(tuple(sorted(steps)), steps)
    return list(found.values())


def playout(geometry: Geometry, position: Position, rounds: int, rng: Rng, budget: Budget) -> Position:
    """``rounds`` more rounds of everybody's careful plan."""
    for _ in range(rounds):
        if len(position.alive) <= 1:
            break
        steps = {seat: plan(geometry, position, seat, CAREFUL, rng) for seat in sorted(position.alive)}
        position = play(geometry, position, steps)
        budget.spend(1 + len(steps))
    return position


def lookahead(
    geometry: Geometry,
    position: Position,
    seat: int,
    variants: Sequence[Knobs],
    depth: int,
    rng: Rng,
    budget: Budget,
) -> list[Step]:
    others = {s: plan(geometry, position, s, CAREFUL, rng) for s in sorted(position.alive - {seat})}
    budget.spend(len(others))
    mine = candidates(geometry, position, seat, variants, rng, budget)
    best, best_share = mine[0], -1.0
    for steps in mine:
        if budget.spent and best_share >= 0:
            break
        after = play(geometry, position, {seat: steps, **others}, stopped=(seat,))
        budget.spend()
        share = scores(geometry, playout(geometry, after, depth, rng, budget)).get(seat, 0.0)
        if share > best_share:
            best, best_share = steps, share
    return best


def decoupled_uct(
    geometry: Geometry,
    position: Position,
    seat: int,
    variants: Sequence[Knobs],
    rivals: int,
    depth: int,
    rng: Rng,
    budget: Budget,
) -> list[Step]:
    """Our order set: the candidate played most often; the others weigh their first ``rivals``
    variants."""
    seats = sorted(position.alive)
    options = {
        s: candidates(geometry, position, s, variants if s == seat else variants[:rivals], rng, budget) for s in seats
    }
    visits = {s: [0] * len(options[s]) for s in seats}
    totals = {s: [0.0] * len(options[s]) for s in seats}
    rounds = 0
    while not budget.spent:
        picks = {s: _ucb(visits[s], totals[s], rounds) for s in seats}
        after = play(geometry, position, {s: options[s][picks[s]] for s in seats}, stopped=(seat,))
        budget.spend()
        shares = scores(geometry, playout(geometry, after, depth, rng, budget))
        for s in seats:
            visits[s][picks[s]] += 1
            totals[s][picks[s]] += shares.get(s, 0.0)
        rounds += 1
    mine = visits[seat]
    best = max(range(len(mine)), key=lambda k: (mine[k], totals[seat][k]))
    return options[seat][best]


def _ucb(visits: list[int], totals: list[float], rounds: int) -> int:
    for k, n in enumerate(visits):
        if not n:
            return k
    log = math.log(rounds)
    return max(range(len(visits)), key=lambda k: totals[k] / visits[k] + EXPLORATION * math.sqrt(log / visits[k]))
