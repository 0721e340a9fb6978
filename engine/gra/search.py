"""Looking ahead in a gra move phase, where every player orders at once.

Each acting player gets a few candidate order sets from the move generator
(:func:`engine.gra.tactics.plan_moves` in several styles). The search is decoupled UCT at the
root: every iteration each player picks one of its candidates by UCB1 on its own results, the
joint orders are resolved and the position is scored for every player (after a greedy follow-up
of ``follow`` move phases, if asked). The seat plays its most tried candidate. Every candidate
generated and every phase resolved is a node of the :class:`Budget`.

The first play-out of a joint choice follows up with everyone's steady plan; a level with
``playouts`` above one plays a joint choice out again when it is met again, each player following
up with a plan drawn from :data:`VARIED` every move phase, up to ``playouts`` times. One fixed
follow-up judges a choice by luck (a cut that the steady plan happens to miss or make); the mean
of several weighs the cuts each side could make. After that, and always for a level with one
play-out, a joint choice met again is looked up, not resolved again, and costs one node.

A creating phase can be searched the same way (:func:`choose_creates`): the seat's placements of
its new soldiers (:data:`engine.gra.tactics.SPAWNS`) against the others' steady placement.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.budget import Budget
from engine.gra.orders import Order
from engine.gra.rules import acting, resolve_phase
from engine.gra.state import GraState, Phase
from engine.gra.tactics import PLANS, SPAWNS, STEADY, Plan, keep, plan_creates, plan_moves, worth
from engine.rng import Rng

EXPLORE = 0.5
SCALE = 5.0  # a gain of this many nodes scores about 0.76 (tanh)
VARIED = (STEADY, Plan(guard=1.0, margin=0.5, noise=50), *PLANS[1:4])  # follow-ups after the first play-out


@dataclass(frozen=True)
class Lookahead:
    """How far a level looks in a move phase."""

    mine: int  # candidate order sets of its own
    theirs: int  # candidate order sets of each opponent (1: it expects their steady plan)
    follow: int  # greedy move phases played after the searched one before scoring
    playouts: int = 1  # play-outs of a joint choice, each but the first with varied follow-ups
    shielded: int = 0  # of its own plans, how many are also tried shielding the nodes that would cut its land


@dataclass
class Arm:
    visits: int = 0
    total: float = 0.0


def choose_moves(state: GraState, seat: int, rng: Rng, budget: Budget, look: Lookahead) -> list[Order]:
    players = sorted(acting(state))
    options = {
        p: candidates(state, p, rng, budget, own_plans(look) if p == seat else PLANS[: look.theirs]) for p in players
    }
    return _search(state, seat, options, budget, look)


def choose_creates(state: GraState, seat: int, budget: Budget, look: Lookahead) -> list[Order]:
    """The seat's new soldiers placed in each of the :data:`SPAWNS` ways, each placement played on
    as a move phase's choice is, against every other player's steady placement."""
    options = {p: [tuple(plan_creates(state, p))] for p in acting(state) if p != seat}
    budget.spend(len(SPAWNS))
    options[seat] = list(dict.fromkeys(tuple(plan_creates(state, seat, spawn)) for spawn in SPAWNS))
    return _search(state, seat, options, budget, look)


def _search(
    state: GraState, seat: int, options: dict[int, list[tuple]], budget: Budget, look: Lookahead
) -> list[Order]:
    """Decoupled UCT over every player's options (see the module's text): the seat's most tried."""
    players = sorted(options)
    if len(options[seat]) == 1 or budget.spent:
        return list(options[seat][0])
    base = {p: worth(state, p) for p in players}
    arms = {p: [Arm() for _ in options[p]] for p in players}
    seen: dict[tuple[int, ...], list[dict[int, float]]] = {}
    rounds = 0
    while not budget.spent:
        rounds += 1
        pick = tuple(_ucb(arms[p], rounds) for p in players)
        runs = seen.setdefault(pick, [])
        if len(runs) < look.playouts:
            joint = {p: options[p][i] for p, i in zip(players, pick, strict=True)}
            runs.append(_scores(state, joint, players, budget, look.follow, len(runs)))
            scores = runs[-1]
        else:
            scores = {p: sum(run[p] for run in runs) / len(runs) for p in players}
        budget.spend()
        for p, i in zip(players, pick, strict=True):
            arms[p][i].visits += 1
            arms[p][i].total += math.tanh((scores[p] - base[p]) / SCALE)
    mine = arms[seat]
    best = max(range(len(mine)), key=lambda i: (mine[i].visits, mine[i].total / max(1, mine[i].visits), -i))
    return list(options[seat][best])


def own_plans(look: Lookahead) -> tuple[Plan, ...]:
    """The searching seat's plans: the first ``mine``, then the first ``shielded`` in their shielding form."""
    return (*PLANS[: look.mine], *(replace(plan, shield=True) for plan in PLANS[: look.shielded]))


def candidates(state: GraState, seat: int, rng: Rng, budget: Budget, plans: Sequence[Plan]) -> list[tuple]:
    """The different order sets the plans give, the first plan's first (always made, whatever the budget)."""
    found: dict[tuple, None] = {}
    for plan in plans:
        if found and budget.spent:
            break
        budget.spend()
        found.setdefault(tuple(plan_moves(state, seat, plan, rng)), None)
    return list(found)


def _ucb(arms: list[Arm], rounds: int) -> int:
    for i, arm in enumerate(arms):
        if not arm.visits:
            return i
    return max(
        range(len(arms)),
        key=lambda i: arms[i].total / arms[i].visits + EXPLORE * math.sqrt(math.log(rounds) / arms[i].visits),
    )


def _scores(
    state: GraState, joint: Mapping[int, Sequence[Order]], players: list[int], budget: Budget, follow: int, run: int
) -> dict[int, float]:
    """Every player's worth after the joint orders and ``follow`` move phases: on run 0 everyone
    follows up with the steady plan, on later runs with plans drawn from :data:`VARIED`."""
    after, _ = resolve_phase(state, joint)
    budget.spend()
    after = settle(after, budget)
    draw = Rng(run * 7919 + state.turn) if run else None
    for _ in range(follow):
        if after.over or after.phase != Phase.MOVE:
            break
        if draw is None:
            orders = {p: plan_moves(after, p, STEADY, Rng(after.turn)) for p in acting(after)}
        else:
            orders = {p: plan_moves(after, p, draw.choice(VARIED), draw) for p in sorted(acting(after))}
        after, _ = resolve_phase(after, orders)
        budget.spend(1 + len(orders))
        after = settle(after, budget)
    return {p: worth(after, p) for p in players}


def settle(state: GraState, budget: Budget) -> GraState:
    """Play the split and creating phases that follow a move phase as the tactics would."""
    while not state.over and state.phase in (Phase.SPLIT, Phase.CREATE):
        orders: dict[int, list[Order]]
        if state.phase == Phase.SPLIT:
            orders = {p: [keep(state, p)] for p in acting(state)}
        else:
            orders = {p: plan_creates(state, p) for p in acting(state)}
        state, _ = resolve_phase(state, orders)
        budget.spend()
    return state
