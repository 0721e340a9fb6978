"""A fortress player: the most territory now, minus the opponent's best answer (one move of lookahead).

With generals it plans one general at a time: build where the gain is largest, otherwise walk toward
the spot with the best build, and always take the new general out of the city.
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import OrderError
from engine.fortress.orders import Build, Order, WalkBuild, split_lines
from engine.fortress.rules import apply_turn, buildable, claim, general_actions, may_build, neighbours, parse
from engine.fortress.state import FortressState
from engine.hexgrid import Hex
from engine.rng import Rng, seed_state


def gain(state: FortressState, seat: int, cell: Hex) -> int:
    """Cells won by a fortress on ``cell``; cells taken from the opponent count twice (he loses them)."""
    _, taken = claim(state, seat, cell)
    return sum(2 if state.owners.get(c) == 1 - seat else 1 for c in taken)


def best_reply(state: FortressState, seat: int) -> int:
    return max((gain(state, seat, c) for c in state.terrain if may_build(state, seat, c)), default=0)


def choose_orders(state: FortressState, seat: int, seed: int | str) -> list[Order]:
    rng = Rng(seed_state(f"{seed}:{state.turn}:{seat}"))
    if state.mode < 3:
        return _choose_build(state, seat, rng)
    return _choose_general_actions(state, seat, rng)


def _choose_build(state: FortressState, seat: int, rng: Rng) -> list[Order]:
    scored = []
    for cell in sorted(state.terrain):
        if may_build(state, seat, cell):
            after, _ = apply_turn(state, seat, [Build(cell)])
            scored.append((gain(state, seat, cell) - best_reply(after, 1 - seat), rng.below(1000), cell))
    return [Build(max(scored)[2])] if scored else []


def _choose_general_actions(state: FortressState, seat: int, rng: Rng) -> list[Order]:
    orders: list[Order] = []
    city = state.cities[seat]
    position = state
    mine = sorted((c for c, s in state.generals.items() if s == seat), key=lambda c: (c != city, c))
    for at in mine:
        actions = [
            a
            for a in general_actions(position, seat, at, dict(position.generals))
            if not (at == city and isinstance(a, Build))
        ]
        if not actions:
            continue
        idle = -general_reply(position, 1 - seat)  # what standing still is worth
        scores = {a: _score(position, seat, a, idle) for a in actions}
        best = max(actions, key=lambda a: (scores[a], rng.below(1000)))
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


def _score(state: FortressState, seat: int, action: Order, idle: float) -> float:
    """Territory won now (counted double), minus the opponent's best answer; a walk is worth the
    best build it brings within reach."""
    if isinstance(action, (Build, WalkBuild)):
        walked = 0.5 if isinstance(action, WalkBuild) else 0.0
        return gain(state, seat, _site(action)) * 2.0 - general_reply(_after(state, seat, action), 1 - seat) - walked
    end = action.path[-1]
    reachable = [c for c in (end, *neighbours(state, end)) if buildable(state, c)]
    return max((gain(state, seat, c) for c in reachable), default=0) - 0.1 * len(action.path) + idle


def _start(action: Order) -> Hex:
    return (
        action.cell if isinstance(action, Build) else action.source if isinstance(action, WalkBuild) else action.path[0]
    )


def _site(action: Order) -> Hex:
    return action.cell if isinstance(action, Build) else action.target


def general_reply(state: FortressState, seat: int) -> int:
    """The most a player's generals (and the one about to appear in his city) could win with one build."""
    generals = dict(state.generals)
    city = state.cities[seat]
    standing = [at for at, s in generals.items() if s == seat] + ([city] if city not in generals else [])
    best = 0
    for at in standing:
        for action in general_actions(state, seat, at, {c: s for c, s in generals.items() if c != at}):
            if isinstance(action, (Build, WalkBuild)):
                best = max(best, gain(state, seat, _site(action)))
    return best


def suggestions(state: FortressState, seat: int, text: str) -> list[str]:
    """Legal actions as typed, best first, that extend the last line of ``text``. While a general
    stands in the city only his ways out are offered, so every suggestion is a legal turn."""
    done = split_lines(text)
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
