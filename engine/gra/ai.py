"""Gra computer players, weakest first, for every phase (start picks, moves, creating, splits).

- Easy: greedy. It beats an adjacent army when it can (sometimes trading evenly), keeps enough at
  home against the rest, grabs cheap nodes, fills its cap round the front, picks spread-out starts
  and keeps the largest part of a split. Each army it weighs is a node of its budget.
- Medium: plans the whole move phase (:mod:`engine.gra.tactics`): attacks gathered from every army
  next to a target, guards where an enemy can strike, idle soldiers heading for nodes still to
  take (enemy nodes first), captures worth more where they cut the enemy's land apart. It tries a
  few styles of plan (bolder or more careful, raiding or spreading) against each opponent's steady
  plan, played on through the creating phase and one more steady move phase, and plays the best.
  It starts on well-connected nodes, creates soldiers where they are safe and near nodes worth
  taking, and keeps the split part worth most.
- Hard: searches its plans against several plans of every opponent at once (decoupled UCT,
  :mod:`engine.gra.search`), each joint choice played on two move phases before it is scored. It
  searches its creating phases the same way, among several placements of its new soldiers (at the
  front, toward land to take, on the nodes whose loss would cut its land apart, all together):
  where new soldiers stand decides the move phases after next.
- Extreme: more plans on each side, a bigger budget, and four move phases played on; and each
  joint choice is played out up to six times, the follow-ups after the first drawn from several
  plans, so a choice is judged by the mean of what either side could do next rather than by one
  steady follow-up (a fixed follow-up often misses the cut that splits a snaking territory). Its
  own plans come also in a shielding form: a soldier steps into each empty node of its land that an
  enemy could take and whose loss would cut the land apart (a loss the other plans never guard).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.budget import Budget
from engine.gra.orders import Create, Keep, Move, Order, Pick
from engine.gra.rules import default_keep
from engine.gra.search import SCALE, Lookahead, choose_creates, choose_moves
from engine.gra.state import GraState, Phase
from engine.gra.tactics import keep, plan_creates, worth
from engine.rng import Rng, seed_state
from engine.ruleset import BotLevel

# Easy's 50 outnumber the armies anyone can field on the largest generated map (cap 40), so its
# greedy never stops short; the searches' budgets keep a move well under a second there, 6 players.
LEVELS = (BotLevel("Easy", 50), BotLevel("Medium", 150), BotLevel("Hard", 600), BotLevel("Extreme", 2_000))


@dataclass(frozen=True)
class Style:
    look: Lookahead | None  # None: the greedy mover
    planned: bool  # starts, creating and splits by the tactics (else spread, front round-robin, largest part)
    search_creates: bool = False  # new soldiers placed by the search, not by the tactics alone


STYLES = {
    "Easy": Style(None, planned=False),
    "Medium": Style(Lookahead(mine=4, theirs=1, follow=1), planned=True),
    "Hard": Style(Lookahead(mine=6, theirs=3, follow=2), planned=True, search_creates=True),
    "Extreme": Style(Lookahead(mine=8, theirs=4, follow=4, playouts=6, shielded=4), planned=True, search_creates=True),
}


def choose_orders(state: GraState, seat: int, seed: int | str, level: str, budget: Budget) -> list[Order]:
    style = STYLES[level]
    rng = Rng(seed_state(f"{seed}:{state.turn}:{seat}"))
    match state.phase:
        case Phase.NEGOTIATE:
            return [Pick(tuple(good_picks(state, rng) if style.planned else spread(state, rng)))]
        case Phase.MOVE:
            if style.look is None:
                return _moves(state, seat, rng, budget)
            return choose_moves(state, seat, rng, budget, style.look)
        case Phase.CREATE:
            if style.search_creates and style.look is not None:
                return choose_creates(state, seat, budget, style.look)
            return plan_creates(state, seat) if style.planned else _creates(state, seat)
        case Phase.SPLIT:
            return [keep(state, seat) if style.planned else Keep(default_keep(state, seat))]


def evaluation(state: GraState, seat: int) -> float:
    """The searches' worth of the position (``tactics.worth``) against the best of the rivals' own,
    squashed into (-1, 1) as the search squashes its gains; -1 for a seat that is out."""
    playing = state.playing()
    if seat not in playing:
        return -1.0
    rivals = [worth(state, other) for other in playing if other != seat]
    return math.tanh((worth(state, seat) - max(rivals)) / SCALE) if rivals else 1.0


def spread(state: GraState, rng: Rng) -> list[int]:
    """As many nodes as players, far apart: greedy farthest points from a random well-connected node."""
    graph = state.graph
    hubs = [n for n in graph.nodes if len(graph.adjacency[n]) >= 3] or list(graph.nodes)
    chosen = [rng.choice(hubs)]
    while len(chosen) < len(state.players):
        chosen.append(
            max(graph.nodes, key=lambda n: (min(graph.distance[n][c] for c in chosen), len(graph.adjacency[n]), -n))
        )
    return chosen


def good_picks(state: GraState, rng: Rng) -> list[int]:
    """As many nodes as players, far enough apart, each with many nodes close by to take first;
    the best such node starts the list (ties by a seeded shuffle). Spread out if none fit."""
    graph = state.graph
    reach = {n: sum(1 for d in graph.distance[n].values() if d <= 2) + len(graph.adjacency[n]) for n in graph.nodes}
    order = sorted(rng.shuffled(list(graph.nodes)), key=lambda n: -reach[n])
    chosen: list[int] = []
    for node in order:
        if all(graph.distance[node][c] >= state.spacing for c in chosen):
            chosen.append(node)
            if len(chosen) == len(state.players):
                return chosen
    return spread(state, rng)


def _moves(state: GraState, seat: int, rng: Rng, budget: Budget) -> list[Order]:
    """Beat an adjacent enemy army when possible (sometimes trade evenly, to break stand-offs), then
    keep enough at home against the remaining threats, then take cheap nodes with the rest."""
    orders: list[Order] = []
    for node, (owner, count) in sorted(state.ready.items()):
        if owner != seat:
            continue
        if budget.spent:
            break
        near = rng.shuffled(list(state.graph.adjacency[node]))
        budget.spend()
        enemies = [(n, a[1]) for n in near if (a := state.ready.get(n)) and a[0] != seat]
        attacked = set()
        for target, defenders in sorted(enemies, key=lambda e: e[1]):
            need = defenders + 1 if count > defenders or not rng.chance(1, 4) else defenders
            if count >= need:
                orders.append(Move(node, target, need))
                count -= need
                attacked.add(target)
        reserve = max((m for n, m in enemies if n not in attacked), default=0)
        free = max(0, count - reserve)
        cheap = [n for n in near if state.owners.get(n) != seat and n not in attacked and state.ready.get(n) is None]
        for target in sorted(cheap, key=lambda n: (state.owners.get(n) is None, n)):
            if free:
                orders.append(Move(node, target, 1))
                free -= 1
        if free and not enemies and not cheap:  # inside our land: walk toward the nearest border
            step = _toward_border(state, seat, node)
            if step is not None:
                orders.append(Move(node, step, free))
    return orders


def _toward_border(state: GraState, seat: int, node: int) -> int | None:
    """A step toward the nearest enemy node (else the nearest neutral one), to bring soldiers to the front."""
    graph = state.graph
    enemy = [n for n, s in state.owners.items() if s != seat]
    goals = enemy or [n for n in graph.nodes if n not in state.owners]
    if not goals:
        return None
    best = min(goals, key=lambda b: (graph.distance[node][b], b))
    return min(graph.adjacency[node], key=lambda n: (graph.distance[n][best], n))


def _creates(state: GraState, seat: int) -> list[Order]:
    room = state.cap(seat) - state.soldiers(seat)
    mine = state.territory(seat)
    front = sorted(mine, key=lambda n: (-sum(1 for m in state.graph.adjacency[n] if state.owners.get(m) != seat), n))
    nodes = [front[i % len(front)] for i in range(max(0, room))] if front else []
    return [Create(tuple(nodes))] if nodes else []


def suggestions(state: GraState, seat: int, text: str) -> list[str]:
    typed = " ".join(text.lower().split())
    match state.phase:
        case Phase.NEGOTIATE:
            lines = [str(Pick(tuple(spread(state, Rng(seed_state(f"{seat}:{i}")))))) for i in range(25)]
        case Phase.MOVE:
            lines = [
                str(Move(node, near, count))
                for node, (owner, count) in sorted(state.ready.items())
                if owner == seat
                for near in state.graph.adjacency[node]
            ]
        case Phase.CREATE:
            lines = [f"create {n}" for n in state.territory(seat)]
        case Phase.SPLIT:
            lines = [f"keep {min(part)}" for part in state.splits.get(seat, ())]
    return [line for line in dict.fromkeys(lines) if line.startswith(typed)]
