"""The conquest move generators: whole order sets for one seat, built from the position alone.

``greedy`` is the plain player: every cell takes the neighbours it can afford, best production per
unit first, and sends what is left one step towards the nearest foreign cell. ``plan`` is the
careful one the stronger levels build on: a front cell keeps enough units home to hold against
the enemy stacks next to it (``Knobs.guard``), attacks are pooled from every cell next to the
target and sized against the enemy's possible reinforcements (``Knobs.margin``), threatened cells
are reinforced by their neighbours, and the rear feeds the front, the enemy's side first. Its
knobs give the searches their candidate order sets.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from engine.conquest.sim import NEUTRAL, Geometry, Position, Step
from engine.rng import Rng

PRODUCTION_WEIGHT = 8  # a cell's production counts as this many units when a position is scored


@dataclass(frozen=True)
class Knobs:
    guard: float = 0.0  # share of the adjacent enemy units a front cell keeps home
    margin: float = 0.25  # share of an enemy cell's neighbouring support added to an attack on it
    hunt: float = 2.0  # an enemy cell's production counts this many times a neutral one's
    reinforce: bool = True  # spare units walk into threatened neighbours short of their guard


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
    """Each playing seat's share of the strength on the board (units, plus production weighted):
    1 for the last one standing, 0 for a seat that is out."""
    strength = dict.fromkeys(position.alive, 0.0)
    production = geometry.production
    for cell, seat in enumerate(position.owner):
        if seat in strength:
            strength[seat] += position.units[cell] + PRODUCTION_WEIGHT * production[cell]
    total = sum(strength.values()) or 1.0
    return {seat: value / total for seat, value in strength.items()}


def greedy(geometry: Geometry, position: Position, seat: int, rng: Rng) -> list[Step]:
    """The plain player: no thought for the enemy's stacks."""
    owner, units, near, production = position.owner, position.units, geometry.near, geometry.production
    to_front = _distance_to_front(geometry, position, seat, enemy_first=False)
    steps: list[Step] = []
    for cell in rng.shuffled(position.cells_of(seat)):
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
    owner, units, near = position.owner, position.units, geometry.near
    mine = position.cells_of(seat)
    threat = {c: sum(units[n] for n in near[c] if owner[n] not in (NEUTRAL, seat)) for c in mine}
    keep = {c: min(units[c], _guard(threat[c], knobs)) for c in mine}
    spare = {c: units[c] - keep[c] for c in mine}
    steps: list[Step] = []
    for need, target in _targets(geometry, position, seat, knobs, rng):
        sources = sorted((c for c in near[target] if owner[c] == seat and spare[c] > 0), key=lambda c: -spare[c])
        if sum(spare[c] for c in sources) < need:
            continue
        for cell in sources:
            sent = min(spare[cell], need)
            steps.append((cell, target, sent))
            spare[cell] -= sent
            need -= sent
            if not need:
                break
    if knobs.reinforce:
        steps += _reinforce(geometry, position, seat, threat, keep, spare, knobs)
    to_front = _distance_to_front(geometry, position, seat, enemy_first=True)
    for cell in mine:
        if spare[cell] and to_front.get(cell, 0) > 0:
            closer = [n for n in near[cell] if to_front.get(n, -1) == to_front[cell] - 1]
            if closer:
                best = max(closer, key=lambda n: (threat.get(n, 0) - units[n], rng.below(1000)))
                steps.append((cell, best, spare[cell]))
    return steps


def _guard(threat: int, knobs: Knobs) -> int:
    return math.ceil(knobs.guard * threat) + 1 if threat and knobs.guard else 0


def _targets(geometry: Geometry, position: Position, seat: int, knobs: Knobs, rng: Rng) -> list[tuple[int, int]]:
    """Foreign cells next to ours with the units it takes to win each, best value per unit first."""
    owner, units, near, production = position.owner, position.units, geometry.near, geometry.production
    ranked = []
    for target in {t for c in position.cells_of(seat) for t in near[c] if owner[t] != seat}:
        holder = owner[target]
        if holder == NEUTRAL:
            need, value = units[target] + 1, float(production[target])
        else:
            support = sum(units[n] for n in near[target] if owner[n] == holder)
            need = units[target] + 1 + math.ceil(knobs.margin * support)
            value = production[target] * knobs.hunt + 1
        ranked.append((-value / need, rng.below(1 << 20), need, target))
    return [(need, target) for _, _, need, target in sorted(ranked)]


def _reinforce(
    geometry: Geometry,
    position: Position,
    seat: int,
    threat: dict[int, int],
    keep: dict[int, int],
    spare: dict[int, int],
    knobs: Knobs,
) -> list[Step]:
    """Spare units of quiet cells walk into threatened neighbours that are short of their guard."""
    steps: list[Step] = []
    units, near = position.units, geometry.near
    for cell in sorted(threat, key=lambda c: -geometry.production[c]):
        short = _guard(threat[cell], knobs) - units[cell]
        if short <= 0:
            continue
        helpers = [n for n in near[cell] if n in spare and spare[n] > 0 and not threat[n]]
        if sum(spare[n] for n in helpers) < short:
            continue
        for helper in helpers:
            sent = min(spare[helper], short)
            steps.append((helper, cell, sent))
            spare[helper] -= sent
            short -= sent
            if not short:
                break
    return steps


def _distance_to_front(geometry: Geometry, position: Position, seat: int, *, enemy_first: bool) -> dict[int, int]:
    """Steps from each own cell to the nearest foreign cell, walking through own cells; with
    ``enemy_first``, to the nearest enemy cell where one can be reached."""
    owner, near = position.owner, geometry.near

    def walk(foreign) -> dict[int, int]:
        distance: dict[int, int] = {}
        queue: deque[int] = deque()
        for cell in position.cells_of(seat):
            if any(foreign(owner[n]) for n in near[cell]):
                distance[cell] = 0
                queue.append(cell)
        while queue:
            cell = queue.popleft()
            for n in near[cell]:
                if owner[n] == seat and n not in distance:
                    distance[n] = distance[cell] + 1
                    queue.append(n)
        return distance

    nearest = walk(lambda o: o != seat)
    if enemy_first:  # own regions touching no enemy keep walking to the nearest foreign cell
        nearest.update(walk(lambda o: o not in (NEUTRAL, seat)))
    return nearest
