"""Siege computer players, weakest first. A turn is planned one action at a time: the best partial
turns (by :func:`engine.siege.tactics.evaluate`) are grown by every affordable action, and the best
whole turn is played. Every position scored is a node of the :class:`Budget`; once it is spent no
new candidate is weighed (the first always is, so there is always a legal turn).

- Easy: greedy (one partial turn kept), counting territory and tokens only: blind to threats.
- Medium: greedy with the full score (exposed squares, how close each capital is to falling);
  it takes the enemy capital whenever 6 EP reach it.
- Hard: keeps the 3 best partial turns, and answers its 3 best turns with the opponent's greedy
  reply (two turns deep), playing the one that leaves it best off after the reply.
- Extreme: keeps 4, answers its 6 best turns with a fuller reply; the deepest look ahead.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from engine.budget import Budget
from engine.rng import Rng, seed_state
from engine.ruleset import BotLevel
from engine.siege.orders import EP_PER_TURN, Action
from engine.siege.rules import cost, neighbours, perform, why_not
from engine.siege.state import SiegeState
from engine.siege.tactics import evaluate, winning_line
from engine.squaregrid import Square

LEVELS = (BotLevel("Easy", 30), BotLevel("Medium", 150), BotLevel("Hard", 600), BotLevel("Extreme", 2000))
PRIORITY = {"attack": 0, "expand": 1, "climb": 2, "cross": 2, "wall": 3, "tower": 3, "fill": 4, "deploy": 4, "dig": 5}


@dataclass(frozen=True)
class Style:
    threats: bool  # score threats to the capitals and exposed squares
    width: int  # partial turns kept at each step
    replies: int  # best turns answered by the opponent's reply (0: no lookahead)
    reply_looks: int  # candidates the reply weighs at each step
    secure: bool = False  # also count the squares nobody can ever attack


STYLES = {
    "Easy": Style(threats=False, width=1, replies=0, reply_looks=0),
    "Medium": Style(threats=True, width=1, replies=0, reply_looks=0),
    "Hard": Style(threats=True, width=3, replies=3, reply_looks=10),
    "Extreme": Style(threats=True, width=4, replies=6, reply_looks=30, secure=True),
}


@dataclass(frozen=True)
class Plan:
    """A partial turn: its actions, the position they lead to, the EP left, and its score."""

    actions: tuple[Action, ...]
    state: SiegeState
    left: int
    score: float


def choose_actions(state: SiegeState, seat: int, seed: int | str, level: str, budget: Budget) -> list[Action]:
    style = STYLES[level]
    rng = Rng(seed_state(f"{seed}:{state.turn}:{seat}"))
    if style.threats and (line := winning_line(state, seat)) is not None:
        return line
    if not style.replies:
        return list(plan_turn(state, seat, rng, budget, style.width, threats=style.threats)[0].actions)
    share = Budget(budget.left // 2)  # the other half answers the best turns
    plans = plan_turn(state, seat, rng, share, style.width, secure=style.secure)
    budget.spend(budget.left // 2 - share.left)
    best = max(plans[: style.replies], key=lambda plan: _after_reply(plan, seat, rng, budget, style))
    return list(best.actions)


POINTS = 50.0  # a score of this much (five squares of lead) is worth about 0.76 of a won game (tanh)


def evaluation(state: SiegeState, seat: int) -> float:
    """Extreme's score (``tactics.evaluate``) for the player whose turn ended last, squashed into
    (-1, 1): his own, or, on his turn, the opponent's (just ended) turned round."""
    if state.to_move == seat and not state.over:
        score = -evaluate(state, 1 - seat, secure=True)
    else:
        score = evaluate(state, seat, secure=True)
    return math.tanh(score / POINTS)


def _after_reply(plan: Plan, seat: int, rng: Rng, budget: Budget, style: Style) -> float:
    """The plan's worth once the opponent has answered it with his best greedy turn."""
    if plan.state.over:
        return plan.score
    position = replace(plan.state, turn=plan.state.turn + 1)  # the opponent to move
    line = winning_line(position, 1 - seat)
    if line is not None:
        return -evaluate(_replay(position, 1 - seat, line), 1 - seat)
    reply = plan_turn(position, 1 - seat, rng, budget, 1, looks=style.reply_looks)[0]
    return -evaluate(reply.state, 1 - seat, secure=style.secure) if style.secure else -reply.score


def _replay(state: SiegeState, seat: int, actions: list[Action]) -> SiegeState:
    for action in actions:
        state, _ = perform(state, seat, action)
    return state


def options(state: SiegeState, seat: int) -> list[Action]:
    """The legal actions a bot weighs: from each token onto each neighbour (expand, attack, cross or
    climb, whichever fits the square; dig an enemy mountain), walls, towers and mountains on the
    capital and on the squares next to enemy tokens, and deploying. Never Move: an Expand reaches
    the same squares and leaves a token behind."""
    enemy = 1 - seat
    found: list[Action] = []
    front = {state.capitals[seat]}
    for sq, owner in sorted(state.tokens.items()):
        if owner == enemy:
            front.update(n for n in neighbours(state, sq) if state.owners.get(n) == seat)
            continue
        for near in neighbours(state, sq):
            if near in state.rivers:
                found.append(Action("cross", near, sq))
            elif state.owners.get(near) == enemy:
                found.append(Action("dig", near) if near in state.mountains else Action("attack", near, sq))
            elif near in state.mountains:
                found.append(Action("climb", near, sq))
            else:
                found.append(Action("expand", near))
    for sq in sorted(front):
        found += [Action("wall", sq), Action("tower", sq), Action("fill", sq)]
    found += [Action("deploy", Square(col, row)) for row in state.back_rows(seat) for col in range(state.size)]
    return [action for action in dict.fromkeys(found) if why_not(state, seat, action) is None]


def _next_actions(plan: Plan, seat: int, rng: Rng) -> list[Action]:
    """The affordable next actions, likeliest first (attacks, then expansion, …), ties shuffled."""
    if plan.state.over:
        return []
    keyed = [
        (PRIORITY[action.kind], rng.below(1 << 30), action)
        for action in options(plan.state, seat)
        if cost(plan.state, action) <= plan.left
    ]
    return [action for _, _, action in sorted(keyed, key=lambda k: k[:2])]


def plan_turn(
    state: SiegeState,
    seat: int,
    rng: Rng,
    budget: Budget,
    width: int,
    *,
    threats: bool = True,
    secure: bool = False,
    looks: int | None = None,
) -> list[Plan]:
    """Whole or partial turns, best first: the ``width`` best partial turns are grown by every
    affordable action (the first ``looks`` of them, if given) until the EP run out."""
    start = Plan((), state, EP_PER_TURN, evaluate(state, seat, threats=threats, secure=secure))
    budget.spend()
    seen: dict[frozenset[tuple[Action, int]], Plan] = {frozenset(): start}  # by the actions taken, whatever their order
    frontier = [start]
    while frontier:
        grown: list[Plan] = []
        for plan in frontier:
            for looked, action in enumerate(_next_actions(plan, seat, rng)):
                if grown and (budget.spent or looks is not None and looked >= looks):
                    break
                budget.spend()
                after, _ = perform(plan.state, seat, action)
                score = evaluate(after, seat, threats=threats, secure=secure)
                grown.append(Plan((*plan.actions, action), after, plan.left - cost(plan.state, action), score))
        grown.sort(key=lambda p: -p.score)
        for child in grown:
            seen.setdefault(frozenset(Counter(child.actions).items()), child)
        frontier = [] if budget.spent else grown[:width]
    return sorted(seen.values(), key=lambda p: (-p.score, len(p.actions)))
