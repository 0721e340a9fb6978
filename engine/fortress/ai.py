"""Fortress computer players, weakest first. Each plays the turn its search (``search.py``) rates
best; the candidate turns come from one move generator (the builds that win most; in mode 3 each
general's most promising action, the city's general first).

- Easy: greedy, the turn that leads by most once it is played.
- Medium: also weighs the opponent's best answer (two turns deep), counting territory (and in mode 3
  part of the best build each general can reach).
- Hard: three turns deep over the 12 most promising turns (8 deeper down), and the player to move is
  credited with his best build.
- Extreme: the same score, deepening while its budget lasts over fewer candidates (8, then 4), so it
  sees much further ahead; near the end of the game, to the end.
"""

from __future__ import annotations

import math

from engine.budget import Budget
from engine.completion import after, split_last
from engine.errors import OrderError
from engine.fortress.orders import Order, Pass, Walk
from engine.fortress.position import Position
from engine.fortress.rules import act, claim, general_actions, may_build, parse_lines, play_actions, way_out
from engine.fortress.search import Search, Style, evaluate
from engine.fortress.state import FortressState
from engine.hexgrid import Hex
from engine.notation import words
from engine.rng import Rng, seed_state
from engine.ruleset import BotLevel

LEVELS = (BotLevel("Easy", 100), BotLevel("Medium", 400), BotLevel("Hard", 1_500), BotLevel("Extreme", 8_000))
STYLES = {
    "Easy": Style(depth=1, width=1, root_width=40, tempo=False, prospects=False),
    "Medium": Style(depth=2, width=1, root_width=40, tempo=False, prospects=True),
    "Hard": Style(depth=3, width=8, root_width=12, tempo=True, prospects=True),
    "Extreme": Style(depth=12, width=4, root_width=8, tempo=True, prospects=True),
}


LEAD = 6.0  # a lead of this many cells is worth about 0.76 of a won game (tanh)


def evaluation(state: FortressState, seat: int) -> float:
    """The score the searches give a position (``search.evaluate`` in Extreme's style: the lead,
    the next build of the player to move or what the generals can reach) with the komi that will be
    added to seat 0's count, squashed into (-1, 1)."""
    unsearched = Budget(0)  # evaluate counts its scans as nodes; here nothing is searched
    komi = state.komi_of(seat) - state.komi_of(1 - seat)
    return math.tanh((evaluate(Position.of(state), seat, STYLES["Extreme"], unsearched) + komi) / LEAD)


def gain(state: FortressState, seat: int, cell: Hex) -> int:
    """Cells won by a fortress on ``cell``; cells taken from the opponent count twice (he loses them)."""
    _, taken = claim(state, seat, cell)
    return sum(2 if state.owners.get(c) == 1 - seat else 1 for c in taken)


def choose_orders(state: FortressState, seat: int, seed: int | str, level: str, budget: Budget) -> list[Order]:
    city = state.cities[seat]
    if (
        state.mode == 3
        and state.generals.get(city) == seat
        and next(general_actions(state, seat, city, dict(state.generals)), None) is None
    ):
        return way_out(state, seat)[0] or []  # boxed in by his own generals: they make way first
    position = Position.of(state)
    rng = Rng(seed_state(f"{seed}:{state.turn}:{seat}"))
    noise = [rng.below(1 << 20) for _ in position.field.cells]
    turn = Search(STYLES[level], budget, noise).best_turn(position)
    return [position.order(action) for action in turn]


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
