"""A fortress player: the most territory now, minus the opponent's best answer (one move of lookahead).

With generals it plans one general at a time: build where the gain is largest, otherwise walk toward
the spot with the best build, and always take the new general out of the city.

Every position whose gain it weighs is a node of its :class:`Budget`; once the budget is spent it
looks at no further candidate (the first is always looked at, so it always has a legal turn).
"""

from __future__ import annotations

from engine.budget import Budget
from engine.completion import after, split_last
from engine.errors import OrderError
from engine.fortress.orders import Build, Order, Pass, Walk, WalkBuild
from engine.fortress.rules import (
    act,
    apply_turn,
    buildable,
    claim,
    general_actions,
    may_build,
    neighbours,
    parse_lines,
    play_actions,
    site,
    way_out,
)
from engine.fortress.state import FortressState
from engine.hexgrid import Hex
from engine.notation import words
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
    standing still is always legal for them. Nobody walks into the city: the turn would be illegal.
    A city general boxed in by his own generals leaves by the first way out found."""
    orders: list[Order] = []
    city = state.cities[seat]
    if (
        state.generals.get(city) == seat
        and next(general_actions(state, seat, city, dict(state.generals)), None) is None
    ):
        return way_out(state, seat)[0] or []  # boxed in by his own generals: they make way first
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
        position = act(position, seat, best)
        orders.append(best)
    return orders


def _score(state: FortressState, seat: int, action: Order, idle: float, budget: Budget) -> float:
    """Territory won now (counted double), minus the opponent's best answer; a walk is worth the
    best build it brings within reach."""
    if isinstance(action, (Build, WalkBuild)):
        walked = 0.5 if isinstance(action, WalkBuild) else 0.0
        budget.spend()
        reply = general_reply(act(state, seat, action), 1 - seat, budget)
        return gain(state, seat, site(action)) * 2.0 - reply - walked
    end = action.path[-1]
    reachable = [c for c in (end, *neighbours(state, end)) if buildable(state, c)]
    budget.spend(len(reachable))
    return max((gain(state, seat, c) for c in reachable), default=0) - 0.1 * len(action.path) + idle


def general_reply(state: FortressState, seat: int, budget: Budget) -> int:
    """The most a player's generals (and the one about to appear in his city) could win with one build."""
    generals = dict(state.generals)
    city = state.cities[seat]
    standing = [at for at, s in generals.items() if s == seat] + ([city] if city not in generals else [])
    sites = [
        site(action)
        for at in standing
        for action in general_actions(state, seat, at, {c: s for c, s in generals.items() if c != at})
        if isinstance(action, (Build, WalkBuild))
    ]
    budget.spend(len(sites))
    return max((gain(state, seat, site) for site in sites), default=0)


def suggestions(state: FortressState, seat: int, text: str) -> list[str]:
    """Legal turns that extend ``text``, best builds first; the earlier lines stay as typed and the
    last one matches in any case. Every suggestion is a whole legal turn: in mode 3 each general
    that has not acted yet is offered, and while a general stands in the city, another general's
    action comes with a way out for him (``D4>E3; C4>D4``)."""
    head, last = split_last(text)
    typed = words(last)
    try:
        done = parse_lines(state, seat, head)
        if state.mode < 3 or any(isinstance(o, Pass) for o in done):
            lines = [] if done else _build_lines(state, seat)
        else:
            position, _, acted = play_actions(state, seat, done)
            lines = _general_lines(position, acted, seat)
    except OrderError:
        return []
    return after(head, (line for line in lines if words(line).startswith(typed) or _site_typed(line, typed)))


def _site_typed(line: str, typed: str) -> bool:
    """``C4`` typed for ``build C4``."""
    return words(line).removeprefix("build ").startswith(typed)


def _build_lines(state: FortressState, seat: int) -> list[str]:
    sites = sorted(
        (c for c in state.terrain if may_build(state, seat, c)), key=lambda c: (-gain(state, seat, c), c.label)
    )
    return [f"build {c.label}" for c in sites]


def _general_lines(position: FortressState, acted: frozenset[Hex], seat: int) -> list[str]:
    city = position.cities[seat]
    ready = [at for at, s in sorted(position.generals.items()) if s == seat and at not in acted]
    boxed = position.generals.get(city) == seat
    lines = []
    for at in sorted(ready, key=lambda c: c != city):
        for action in general_actions(position, seat, at, dict(position.generals)):
            if isinstance(action, Walk) and action.path[-1] == city:
                continue  # nobody may be left in the city
            if not boxed or at == city:
                lines.append(str(action))
                continue
            then = act(position, seat, action)
            out = next(general_actions(then, seat, city, dict(then.generals)), None)
            if out is not None:
                lines.append(f"{action}; {out}")
    return lines
