"""Siege computer players, weakest first. Each builds its turn one action at a time; every position
it scores is a node of its :class:`Budget`, and once the budget is spent it stops weighing new
candidates (the first is always weighed, so it always has a legal turn).

- Easy: greedy, counting territory and tokens only; blind to threats on the capitals.
- Medium: greedy with the full score (how close each capital is to falling); takes a capital
  whenever 6 EP reach it.
- Hard: a beam search over whole turns with the full score.
- Extreme: Hard's best turns, each answered by the opponent's best greedy reply; it keeps the turn
  whose position after that reply is best (two turns deep).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.budget import Budget
from engine.rng import Rng, seed_state
from engine.ruleset import BotLevel
from engine.siege.orders import EP_PER_TURN, Action
from engine.siege.rules import cost, legal_actions, perform
from engine.siege.state import SiegeState
from engine.siege.tactics import evaluate, winning_line

LEVELS = (BotLevel("Easy", 30), BotLevel("Medium", 150), BotLevel("Hard", 500), BotLevel("Extreme", 1200))
BEAM = 3  # partial turns Hard and Extreme keep at each step
REPLIES = 4  # Extreme's candidate turns that get an opponent's reply
PRIORITY = {"attack": 0, "expand": 1, "climb": 2, "cross": 2, "wall": 3, "tower": 3, "deploy": 4, "dig": 5}


@dataclass(frozen=True)
class Plan:
    """A partial turn: its actions, the position they lead to, the EP left, and its score."""

    actions: tuple[Action, ...]
    state: SiegeState
    left: int
    score: float


def choose_actions(state: SiegeState, seat: int, seed: int | str, level: str, budget: Budget) -> list[Action]:
    rng = Rng(seed_state(f"{seed}:{state.turn}:{seat}"))
    if level == "Easy":
        return list(greedy(state, seat, rng, budget, threats=False).actions)
    line = winning_line(state, seat)
    if line is not None:
        return line
    if level == "Medium":
        return list(greedy(state, seat, rng, budget).actions)
    if level == "Hard":
        return list(beam(state, seat, rng, budget)[0].actions)
    share = Budget(budget.left * 3 // 5)  # the rest answers the best turns
    plans = beam(state, seat, rng, share)
    budget.spend(budget.left * 3 // 5 - share.left)
    return list(max(plans[:REPLIES], key=lambda plan: _after_reply(plan, seat, rng, budget)).actions)


def _after_reply(plan: Plan, seat: int, rng: Rng, budget: Budget) -> float:
    """The plan's worth once the opponent has answered it with his best greedy turn."""
    if plan.state.over:
        return plan.score
    position = _handover(plan.state)
    line = winning_line(position, 1 - seat)
    if line is not None:
        return -evaluate(_replay(position, 1 - seat, line), 1 - seat)
    reply = greedy(position, 1 - seat, rng, budget, reserve=True)
    return -reply.score


def _handover(state: SiegeState) -> SiegeState:
    """The same position with the opponent to move (what ``advance`` does, without its bookkeeping)."""
    return replace(state, turn=state.turn + 1)


def _replay(state: SiegeState, seat: int, actions: list[Action]) -> SiegeState:
    for action in actions:
        state, _ = perform(state, seat, action)
    return state


def _children(plan: Plan, seat: int, rng: Rng) -> list[tuple[float, Action]]:
    """The affordable next actions, likeliest first (attacks, then expansion, …), ties shuffled."""
    if plan.state.over:
        return []
    actions = [a for a in legal_actions(plan.state, seat) if a.kind in PRIORITY]
    keyed = [(PRIORITY[a.kind], rng.below(1 << 30), a) for a in actions if cost(plan.state, a) <= plan.left]
    return [(key, action) for key, _, action in sorted(keyed, key=lambda k: k[:2])]


def _grow(plan: Plan, seat: int, action: Action, score: Callable[[SiegeState], float]) -> Plan:
    price = cost(plan.state, action)
    after, _ = perform(plan.state, seat, action)
    return Plan((*plan.actions, action), after, plan.left - price, score(after))


def greedy(
    state: SiegeState, seat: int, rng: Rng, budget: Budget, *, threats: bool = True, reserve: bool = False
) -> Plan:
    """One action at a time, the best-scoring next one, until nothing improves the position.
    With ``reserve`` (a reply inside a deeper search) it weighs at most a few candidates a step."""

    def score(position: SiegeState) -> float:
        return evaluate(position, seat, threats=threats)

    plan = Plan((), state, EP_PER_TURN, score(state))
    budget.spend()
    while True:
        best = None
        for looked, (_, action) in enumerate(_children(plan, seat, rng)):
            if best is not None and (budget.spent or reserve and looked >= 12):
                break
            budget.spend()
            child = _grow(plan, seat, action, score)
            if best is None or child.score > best.score:
                best = child
        if best is None or best.score <= plan.score:
            return plan
        plan = best


def beam(state: SiegeState, seat: int, rng: Rng, budget: Budget) -> list[Plan]:
    """Whole turns, best first: the BEAM best partial turns are grown one action at a time."""

    def score(position: SiegeState) -> float:
        return evaluate(position, seat)

    start = Plan((), state, EP_PER_TURN, score(state))
    budget.spend()
    seen = {(): start}  # by the set of actions, whatever their order
    frontier = [start]
    while frontier:
        grown = []
        for plan in frontier:
            for _, action in _children(plan, seat, rng):
                if grown and budget.spent:
                    break
                budget.spend()
                child = _grow(plan, seat, action, score)
                grown.append(child)
        grown.sort(key=lambda p: -p.score)
        for child in grown:
            seen.setdefault(tuple(sorted(map(str, child.actions))), child)
        frontier = grown[:BEAM]
        if budget.spent:
            break
    return sorted(seen.values(), key=lambda p: (-p.score, len(p.actions)))
