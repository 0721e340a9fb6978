"""The conquest searches over order sets, for rounds where everybody moves at once.

An order set is judged by the round it makes against what the others are predicted to order,
then ``depth`` rounds of everybody's careful plan, and our share of the board after them
(``planner.scores``). Every order set generated and every round simulated is a node of the
:class:`Budget`; the first candidate is always made, so a spent budget still gives a turn (the
careful plan).

- ``lookahead``: our candidates (the careful plan and its variants) against the careful plans
  predicted for the others; the best one is played.
- ``anticipate``: the others are predicted twice, as careful players and as ``lookahead`` players
  answering everybody's careful plan; our candidates are judged against both predictions, and the
  best one is then improved one front cell at a time (hold, or send everything to one foreign
  neighbour) while the budget lasts. Thinking one step further than the others pays against both
  kinds of player, and the two predictions keep it from betting on one guess.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.budget import Budget
from engine.conquest.planner import CAREFUL, Knobs, plan, scores
from engine.conquest.sim import Geometry, Position, Step, play
from engine.rng import Rng

Predicted = Mapping[int, list[Step]]  # the other seats' order sets


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


def lookahead(
    geometry: Geometry,
    position: Position,
    seat: int,
    variants: Sequence[Knobs],
    depth: int,
    rng: Rng,
    budget: Budget,
) -> list[Step]:
    careful = _careful(geometry, position, seat, rng, budget)
    judge = _judge(geometry, position, seat, [careful], depth, rng, budget)
    return _best(candidates(geometry, position, seat, variants, rng, budget), judge, budget)[0]


def anticipate(
    geometry: Geometry,
    position: Position,
    seat: int,
    variants: Sequence[Knobs],
    depth: int,
    rng: Rng,
    budget: Budget,
) -> list[Step]:
    careful = _careful(geometry, position, seat, rng, budget)
    sharp = {}
    for other in careful:
        share = Budget(budget.left // (2 * len(careful)))  # half the budget predicts, half answers
        given = share.left
        sharp[other] = lookahead(geometry, position, other, variants, depth, rng, share)
        budget.spend(given - share.left)
    predictions = [careful] if sharp == careful else [careful, sharp]
    judge = _judge(geometry, position, seat, predictions, depth, rng, budget)
    steps, worth = _best(candidates(geometry, position, seat, variants, rng, budget), judge, budget)
    return _refine(geometry, position, seat, steps, worth, judge, rng, budget)


def _careful(geometry: Geometry, position: Position, seat: int, rng: Rng, budget: Budget) -> dict[int, list[Step]]:
    """The careful plans of the other seats."""
    others = {s: plan(geometry, position, s, CAREFUL, rng) for s in sorted(position.alive - {seat})}
    budget.spend(len(others))
    return others


def _judge(
    geometry: Geometry,
    position: Position,
    seat: int,
    predictions: Sequence[Predicted],
    depth: int,
    rng: Rng,
    budget: Budget,
) -> Callable[[list[Step]], float]:
    """Our order set's worth: our share of the board after its round and ``depth`` careful rounds,
    summed over the predictions of the others' orders."""

    def worth(steps: list[Step]) -> float:
        total = 0.0
        for others in predictions:
            after = play(geometry, position, {seat: steps, **others}, stopped=(seat,))
            budget.spend()
            total += scores(geometry, _playout(geometry, after, depth, rng, budget)).get(seat, 0.0)
        return total

    return worth


def _best(options: list[list[Step]], judge: Callable[[list[Step]], float], budget: Budget) -> tuple[list[Step], float]:
    best, best_worth = options[0], float("-inf")
    for steps in options:
        if budget.spent:
            break
        worth = judge(steps)
        if worth > best_worth:
            best, best_worth = steps, worth
    return best, best_worth


def _playout(geometry: Geometry, position: Position, rounds: int, rng: Rng, budget: Budget) -> Position:
    """``rounds`` more rounds of everybody's careful plan."""
    for _ in range(rounds):
        if len(position.alive) <= 1:
            break
        steps = {seat: plan(geometry, position, seat, CAREFUL, rng) for seat in sorted(position.alive)}
        position = play(geometry, position, steps)
        budget.spend(1 + len(steps))
    return position


def _refine(
    geometry: Geometry,
    position: Position,
    seat: int,
    steps: list[Step],
    worth: float,
    judge: Callable[[list[Step]], float],
    rng: Rng,
    budget: Budget,
) -> list[Step]:
    """Hill-climb from ``steps`` while the budget lasts, trying each change at most once on average:
    one front cell holds all its units, or sends all of them to one foreign neighbour; a change is
    kept when it is worth more."""
    owner, units, near = position.owner, position.units, geometry.near
    changes: list[tuple[int, list[Step]]] = []
    for cell in position.cells_of(seat):
        foreign = [t for t in near[cell] if owner[t] != seat]
        if units[cell] and foreign:
            changes += [(cell, []), *((cell, [(cell, t, units[cell])]) for t in foreign)]
    for _ in range(len(changes)):
        if budget.spent:
            break
        cell, replacement = changes[rng.below(len(changes))]
        trial = [step for step in steps if step[0] != cell] + replacement
        trial_worth = judge(trial)
        if trial_worth > worth:
            steps, worth = trial, trial_worth
    return steps
