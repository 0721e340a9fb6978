"""A fortress player: the most territory now, minus the opponent's best answer (one move of lookahead).

With generals it plans one general at a time: build where the gain is largest, otherwise walk toward
the spot with the best build, and always take the new general out of the city.

Every position whose gain it weighs is a node of its :class:`Budget`; once the budget is spent it
looks at no further candidate (the first is always looked at, so it always has a legal turn).
"""

from __future__ import annotations

from dataclasses import replace

from engine.budget import Budget
from engine.errors import OrderError
from engine.fortress.orders import Build, Order, Walk, WalkBuild
from engine.fortress.rules import apply_turn, buildable, claim, general_actions, may_build, neighbours, parse
from engine.fortress.state import FortressState
from engine.hexgrid import Hex
from engine.notation import split
from engine.rng import Rng, seed_state


def gain(state: FortressState, seat: int, cell: Hex) -> int:
    """Cells won by a fortress on ``cell``; cells taken from the opponent count twice (he loses them)."""
    _, taken = claim(state, seat, cell)
    return sum(2 if state.owners.get(c) == 1 - seat else 1 for c in taken)


def best_reply(state: FortressState, seat: int, budget: Budget) -> int:
    sites = [c for c in state.terrain if may_build(state, seat, c)]
    budget.spend(len(sites))
    return max((gain(state, seat, c) for c in sites), default=0)


def choose_orders(state: FortressState, seat: int, seed: int | str, budget: Budget) -> list[Order]:
    rng = Rng(seed_state(f"{seed}:{state.turn}:{seat}"))
    if state.mode < 3:
        return _choose_build(state, seat, rng, budget)
    return _choose_general_actions(state, seat, rng, budget)


def _choose_build(state: FortressState, seat: int, rng: Rng, budget: Budget) -> list[Order]:
    """The most promising builds (by what they win now) are looked ahead first, so a small budget
    still weighs the likely best ones."""
    sites = [c for c in sorted(state.terrain) if may_build(state, seat, c)]
    ties = {cell: rng.below(1000) for cell in sites}
    now = {cell: gain(state, seat, cell) for cell in sites}
    budget.spend(len(sites))
    scored = []
    for cell in sorted(sites, key=lambda c: -now[c]):
        if scored and budget.spent:
            break
        after, _ = apply_turn(state, seat, [Build(cell)])
        scored.append((now[cell] - best_reply(after, 1 - seat, budget), ties[cell], cell))
    return [Build(max(scored)[2])] if scored else []


def _choose_general_actions(state: FortressState, seat: int, rng: Rng, budget: Budget) -> list[Order]:
    """The city's general first (he must leave); the others only while the budget lasts, since
    standing still is always legal for them. Nobody walks into the city: the turn would be illegal."""
    orders: list[Order] = []
    city = state.cities[seat]
    position = state
    mine = sorted((c for c, s in state.generals.items() if s == seat), key=lambda c: (c != city, c))
    for at in mine:
        actions = [
            a
            for a in general_actions(position, seat, at, dict(position.generals))
            if not (at == city and isinstance(a, Build)) and not (isinstance(a, Walk) and a.path[-1] == city)
        ]
        if not actions or (at != city and budget.spent):
            continue
        idle = -general_reply(position, 1 - seat, budget)  # what standing still is worth
        scores: dict[Order, float] = {}
        for action in actions:
            if scores and budget.spent:
                break
            scores[action] = _score(position, seat, action, idle, budget)
        best = max(scores, key=lambda a: (scores[a], rng.below(1000)))
        if at != city and scores[best] <= idle:
            continue  # nothing worth doing; stay put
        position = _after(position, seat, best)
        orders.append(best)
    return orders


def _after(state: FortressState, seat: int, action: Order) -> FortressState:
    """The position after one general action (the turn's city rule is checked when the turn ends)."""
    generals = {c: s for c, s in state.generals.items() if c != _start(action)}
    if isinstance(action, (Build, WalkBuild)):
        cell = _site(action)
        return replace(
            state, owners=claim(state, seat, cell)[0], fortresses={**state.fortresses, cell: seat}, generals=generals
        )
    return replace(state, generals={**generals, action.path[-1]: seat})


def _score(state: FortressState, seat: int, action: Order, idle: float, budget: Budget) -> float:
    """Territory won now (counted double), minus the opponent's best answer; a walk is worth the
    best build it brings within reach."""
    if isinstance(action, (Build, WalkBuild)):
        walked = 0.5 if isinstance(action, WalkBuild) else 0.0
        budget.spend()
        reply = general_reply(_after(state, seat, action), 1 - seat, budget)
        return gain(state, seat, _site(action)) * 2.0 - reply - walked
    end = action.path[-1]
    reachable = [c for c in (end, *neighbours(state, end)) if buildable(state, c)]
    budget.spend(len(reachable))
    return max((gain(state, seat, c) for c in reachable), default=0) - 0.1 * len(action.path) + idle


def _start(action: Order) -> Hex:
    return (
        action.cell if isinstance(action, Build) else action.source if isinstance(action, WalkBuild) else action.path[0]
    )


def _site(action: Order) -> Hex:
    return action.cell if isinstance(action, Build) else action.target


def general_reply(state: FortressState, seat: int, budget: Budget) -> int:
    """The most a player's generals (and the one about to appear in his city) could win with one build."""
    generals = dict(state.generals)
    city = state.cities[seat]
    standing = [at for at, s in generals.items() if s == seat] + ([city] if city not in generals else [])
    sites = [
        _site(action)
        for at in standing
        for action in general_actions(state, seat, at, {c: s for c, s in generals.items() if c != at})
        if isinstance(action, (Build, WalkBuild))
    ]
    budget.spend(len(sites))
    return max((gain(state, seat, site) for site in sites), default=0)


def suggestions(state: FortressState, seat: int, text: str) -> list[str]:
    """Legal actions as typed, best first, that extend the last line of ``text``. While a general
    stands in the city only his ways out are offered, so every suggestion is a legal turn."""
    done = split(text)
    typed = done.pop() if done and not text.rstrip().endswith((";", ",")) else ""
    try:
        position, _ = apply_turn(state, seat, parse(state, seat, "; ".join(done)))
    except OrderError:
        return []
    if state.mode < 3:
        options = sorted(
            (c for c in state.terrain if may_build(position, seat, c)),
            key=lambda c: (-gain(position, seat, c), c.label),
        )
        lines = [f"build {c.label}" for c in options]
    else:
        city = state.cities[seat]
        movers = (
            [city]
            if position.generals.get(city) == seat
            else [at for at, s in sorted(position.generals.items()) if s == seat]
        )
        lines = [str(a) for at in movers for a in general_actions(position, seat, at, dict(position.generals))]
    head = "; ".join(done)
    return [
        f"{head}; {line}" if head else line
        for line in lines
        if line.startswith(typed) or line.replace("build ", "").startswith(typed)
    ]
