"""The conquest move generators: whole order sets for one seat, built from the position alone.

``greedy`` is the plain player: every cell takes the neighbours it can afford, best production per
unit first, and sends what is left one step towards the nearest foreign cell. ``plan`` is the
careful one the stronger levels build on: attacks are pooled from every cell next to the target
and sized against the enemy's possible reinforcements (``Knobs.margin``), enemy cells are worth
more than neutral ones (``Knobs.hunt``), the rear feeds the front, the enemy's side first; in its
warier variants a front cell keeps units home against the enemy stacks next to it and its quiet
neighbours reinforce it (``Knobs.guard``). The knobs give the searches their candidate order sets.

A seat that holds most of the board, or is twice as strong as every rival, presses on: each attack
is sent at the size that beats the target and every enemy unit around it when the cells next to the
target can afford that, at the usual size otherwise, and neutral cells wait behind the enemy's.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from engine.conquest.sim import NEUTRAL, Geometry, Position, Step
from engine.rng import Rng

Ranks = Callable[[int], int]  # a cell's seeded random rank, to break ties (``Rng.ranks``)

PRODUCTION_WEIGHT = 8  # a cell's production counts as this many units when a position is scored
# A seat holding most of the board, or twice the strength of every rival, presses on to the end
# (rules/conquest.md): it attacks wherever it can beat the target's units and every enemy unit next
# to the target at once, however big the stacks have grown. Units trade one for one, so the seat
# with the larger production wins the war of attrition; waiting only lets both sides' stacks grow
# (two computers once faced each other with 10,000 units apiece for a hundred rounds). Where the
# cells next to a target cannot afford that, it still attacks at the usual size: a two-player leader
# that only made sure attacks sat still while the other took its thin cells, and lost the majority
# (and often the game) within a round or two.
PRESS_SCORE = 2 / 3  # ``scores`` of a seat twice as strong as its strongest rival
# A pressing seat's neutral targets count this share of their value: it grows from the enemy's cells
# (in self-play, always pressing beat the careful plan in 82 of 100 two-player games).
PRESS_NEUTRAL = 0.25


@dataclass(frozen=True)
class Knobs:
    guard: float = 0.0  # share of the adjacent enemy units a front cell keeps home
    margin: float = 0.25  # share of an enemy cell's neighbouring support added to an attack on it
    hunt: float = 2.0  # an enemy cell's production counts this many times a neutral one's


# Measured in self-play: keeping units home against every adjacent enemy stack loses to plain
# aggression; attacks sized a little above the defenders win most.
CAREFUL = Knobs()
# The candidate order sets of the searches: the careful plan and its bolder and warier variants.
VARIANTS = (
    CAREFUL,
    Knobs(margin=0.0),
    Knobs(margin=0.5, hunt=4.0),
    Knobs(guard=0.5),
    Knobs(margin=1.0, hunt=1.0),
    Knobs(guard=1.0, margin=0.5),
    Knobs(hunt=8.0),
    Knobs(guard=0.25, margin=0.0, hunt=1.0),
)


def scores(geometry: Geometry, position: Position) -> dict[int, float]:
    """How well each playing seat stands: its strength (units, plus production weighted) against its
    strongest rival's, from 0 to 1; 1 for the last one standing, 0 for a seat that is out. Against
    the strongest rival, not the whole board: with three or more players, a war of attrition with
    anybody raises one's share of the board and hands the game to those standing by."""
    strength = dict.fromkeys(position.alive, 0.0)
    production = geometry.production
    for cell, seat in enumerate(position.owner):
        if seat in strength:
            strength[seat] += position.units[cell] + PRODUCTION_WEIGHT * production[cell]
    ranked = sorted(strength.values(), reverse=True)
    result = {}
    for seat, mine in strength.items():
        rival = ranked[1] if len(ranked) > 1 and mine == ranked[0] else ranked[0] if len(ranked) > 1 else 0.0
        result[seat] = mine / (mine + rival) if mine + rival else 0.0
    return result


def greedy(geometry: Geometry, position: Position, seat: int, rng: Rng) -> list[Step]:
    """The plain player: no thought for the enemy's stacks."""
    owner, units, near, production = position.owner, position.units, geometry.near, geometry.production
    survey = Survey.of(geometry, position, seat)
    to_front = survey.distances(geometry, position, survey.front)
    steps: list[Step] = []
    for cell in rng.shuffled(survey.mine):
        available = units[cell]
        ranked = []
        for target in near[cell]:
            if owner[target] == seat:
                continue
            enemy = owner[target] != NEUTRAL
            need = units[target] + (2 if enemy else 1)
            value = production[target] * (3 if enemy else 2) + (2 if enemy else 0)
            ranked.append((-value / need, rng.below(1000), need, target))
        for _, _, need, target in sorted(ranked):
            if available >= need:
                steps.append((cell, target, need))
                available -= need
        if available and to_front.get(cell, 0) > 0:
            closer = [n for n in near[cell] if to_front.get(n, -1) == to_front[cell] - 1]
            if closer:
                steps.append((cell, rng.choice(closer), available))
    return steps


def plan(geometry: Geometry, position: Position, seat: int, knobs: Knobs, rng: Rng) -> list[Step]:
    """The careful player's orders, shaped by ``knobs``."""
    units, near = position.units, geometry.near
    survey = Survey.of(geometry, position, seat)
    threat = survey.threat
    spare = {c: units[c] - min(units[c], _guard(threat[c], knobs)) for c in survey.mine}
    rank = rng.ranks()  # breaks ties between cells: by index, one seat of a symmetric map would be favoured
    steps = _attacks(geometry, position, survey, spare, knobs, rank)
    if knobs.guard:
        steps += _reinforce(geometry, position, threat, spare, knobs, rank)
    to_front = survey.distances(geometry, position, survey.front)
    if survey.enemy_front:  # own regions touching an enemy feed it; the others the nearest foreign cell
        to_front.update(survey.distances(geometry, position, survey.enemy_front))
    for cell in survey.mine:
        if spare[cell] and to_front.get(cell, 0) > 0:
            closer = [n for n in near[cell] if to_front.get(n, -1) == to_front[cell] - 1]
            if closer:
                best = max(closer, key=lambda n: (threat.get(n, 0) - units[n], rank(n)))
                steps.append((cell, best, spare[cell]))
    return steps


@dataclass(frozen=True)
class Survey:
    """A seat's cells as one pass over them finds them: the enemy units next to each, the cells
    touching a foreign cell (``front``) or an enemy one (``enemy_front``), and the foreign cells
    next to them."""

    seat: int
    mine: list[int]
    threat: dict[int, int]
    front: list[int]
    enemy_front: list[int]
    foreign: list[int]

    @classmethod
    def of(cls, geometry: Geometry, position: Position, seat: int) -> Survey:
        owner, units, near = position.owner, position.units, geometry.near
        mine = [c for c, o in enumerate(owner) if o == seat]
        threat, front, enemy_front, foreign = {}, [], [], set()
        for cell in mine:
            enemies = 0
            touches = False
            for n in near[cell]:
                holder = owner[n]
                if holder != seat:
                    touches = True
                    foreign.add(n)
                    if holder != NEUTRAL:
                        enemies += units[n]
            threat[cell] = enemies
            if touches:
                front.append(cell)
                if enemies:
                    enemy_front.append(cell)
        return cls(seat, mine, threat, front, enemy_front, sorted(foreign))

    def distances(self, geometry: Geometry, position: Position, starts: list[int]) -> dict[int, int]:
        """Steps from each own cell to the nearest of ``starts``, walking through own cells."""
        owner, near, seat = position.owner, geometry.near, self.seat
        distance = dict.fromkeys(starts, 0)
        queue = deque(starts)
        while queue:
            cell = queue.popleft()
            for n in near[cell]:
                if owner[n] == seat and n not in distance:
                    distance[n] = distance[cell] + 1
                    queue.append(n)
        return distance


def _guard(threat: int, knobs: Knobs) -> int:
    return math.ceil(knobs.guard * threat) + 1 if threat and knobs.guard else 0


def _attacks(
    geometry: Geometry, position: Position, survey: Survey, spare: dict[int, int], knobs: Knobs, rank: Ranks
) -> list[Step]:
    """Attacks pooled from the own cells next to each target, best target first, at its sure size
    when they can afford it and at its usual size otherwise; ``spare`` loses what they send."""
    owner, near = position.owner, geometry.near
    steps: list[Step] = []
    for sure, need, target in _targets(geometry, position, survey, knobs, rank):
        sources = [c for c in near[target] if owner[c] == survey.seat and spare[c] > 0]
        sources.sort(key=lambda c: (-spare[c], rank(c)))
        afford = sum(spare[c] for c in sources)
        if afford < need:
            continue
        steps += _send(sources, target, sure if afford >= sure else need, spare)
    return steps


def _send(sources: list[int], target: int, need: int, spare: dict[int, int]) -> list[Step]:
    """``need`` units from ``sources`` to ``target``, the first sources first; ``spare`` loses them."""
    steps: list[Step] = []
    for cell in sources:
        sent = min(spare[cell], need)
        steps.append((cell, target, sent))
        spare[cell] -= sent
        need -= sent
        if not need:
            break
    return steps


def _targets(
    geometry: Geometry, position: Position, survey: Survey, knobs: Knobs, rank: Ranks
) -> list[tuple[int, int, int]]:
    """Foreign cells next to ours, best value per unit first, each with the units that win it against
    every enemy unit around it (for a seat pressing on; else the usual size) and the usual size."""
    owner, units, near, production = position.owner, position.units, geometry.near, geometry.production
    pressing = 2 * len(survey.mine) > len(owner) or scores(geometry, position)[survey.seat] >= PRESS_SCORE
    ranked = []
    for target in survey.foreign:
        holder = owner[target]
        if holder == NEUTRAL:
            need, value = units[target] + 1, float(production[target])
        else:
            support = sum(units[n] for n in near[target] if owner[n] == holder)
            need = units[target] + 1 + math.ceil(knobs.margin * support)
            value = production[target] * knobs.hunt + 1
        sure = need
        if pressing:
            enemies = sum(units[n] for n in near[target] if owner[n] not in (NEUTRAL, survey.seat))
            sure = max(need, units[target] + 1 + enemies)
            value *= PRESS_NEUTRAL if holder == NEUTRAL else 1
        ranked.append((-value / need, rank(target), sure, need, target))
    return [(sure, need, target) for _, _, sure, need, target in sorted(ranked)]


def _reinforce(
    geometry: Geometry, position: Position, threat: dict[int, int], spare: dict[int, int], knobs: Knobs, rank: Ranks
) -> list[Step]:
    """Spare units of quiet cells walk into threatened neighbours that are short of their guard."""
    steps: list[Step] = []
    units, near = position.units, geometry.near
    for cell in sorted(threat, key=lambda c: (-geometry.production[c], rank(c))):
        short = _guard(threat[cell], knobs) - units[cell]
        if short <= 0:
            continue
        helpers = sorted((n for n in near[cell] if n in spare and spare[n] > 0 and not threat[n]), key=rank)
        if sum(spare[n] for n in helpers) < short:
            continue
        steps += _send(helpers, cell, short, spare)
    return steps
