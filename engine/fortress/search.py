"""How the fortress computer players look ahead: candidate turns from a move generator, a score for
a position, and an alpha-beta search over whole turns, deepened one turn at a time while its
budget lasts.

Every position the search steps into is a node of its :class:`Budget`. A deepening that runs out
of budget is abandoned; its root turns searched to the end still count when the first of them
(the best of the turn before) is among them, and the first candidate is always there to play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.budget import Budget
from engine.fortress.position import BUILD, WALK, Action, Position

Turn = tuple[Action, ...]
SCAN = 16  # build sites weighed for one node of the budget
TEMPO = 1.0  # share of his best build the player to move is credited with: he builds next
READY = 0.5  # share of his best reachable build a general is worth: he builds soon
WAIT = 0.75  # a build next turn against one now


@dataclass(frozen=True)
class Style:
    depth: int  # most turns looked ahead (1: the best position after its own turn)
    width: int  # candidate turns weighed at each node of the search
    root_width: int  # … and at the root
    tempo: bool  # modes 1-2: credit the player to move with his next build
    prospects: bool  # mode 3: credit each general with the build he can reach


class Exhausted(Exception):
    """The budget ran out in the middle of a deepening."""


@dataclass
class Search:
    style: Style
    budget: Budget
    noise: list[int]  # a seeded tie-break per cell, so equal candidates are taken in a seed's own order

    def best_turn(self, position: Position) -> Turn:
        """The turn to play: the best of the deepest search that finished its first candidate."""
        turns = candidates(position, self.style.root_width, self.noise, self.budget)
        best = turns[0][0]
        for depth in range(1, self.style.depth + 1):
            values: list[float] = []
            try:
                alpha = -math.inf
                for number, (turn, child) in enumerate(turns):
                    child = child or played(position, turn)
                    turns[number] = (turn, child)
                    values.append(-self._value(child, depth - 1, -math.inf, -alpha))
                    alpha = max(alpha, values[-1])
            except Exhausted:
                pass
            if values:
                ranked = sorted(range(len(values)), key=lambda n: -values[n])  # stable: ties keep their order
                best = turns[ranked[0]][0]
                turns = [turns[n] for n in ranked] + turns[len(values) :]
            if len(values) < len(turns) or position.turn + depth >= 2 * position.moves:
                break  # out of budget, or the search already reaches the end of the game
        return best

    def _value(self, position: Position, depth: int, alpha: float, beta: float) -> float:
        """The worth of ``position`` to the player to move (negamax)."""
        if self.budget.spent:
            raise Exhausted
        self.budget.spend()
        if depth == 0 or position.over:
            return evaluate(position, position.to_move, self.style, self.budget)
        best = -math.inf
        for turn, child in candidates(position, self.style.width, self.noise, self.budget):
            value = -self._value(child or played(position, turn), depth - 1, -beta, -alpha)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best


def evaluate(position: Position, seat: int, style: Style, budget: Budget) -> float:
    """The lead of ``seat``; with the style's ``prospects`` (mode 3) each general is credited with
    part of the best build he can reach, with its ``tempo`` (modes 1-2) the player to move with his
    best build (he makes it next)."""
    lead: float = position.lead(seat)
    if position.over:
        return lead
    if position.mode == 3 and style.prospects:
        prospects = Prospects(position)
        for at, owner in position.generals.items():
            lead += (READY if owner == seat else -READY) * prospects.reach(owner, at)
        budget.spend(len(position.generals) // 2)
    elif position.mode < 3 and style.tempo:
        mover = position.to_move
        sites = position.build_sites(mover)
        budget.spend(len(sites) // SCAN)
        best = max((position.gain(mover, i) for i in sites), default=0)
        lead += (TEMPO if mover == seat else -TEMPO) * best
    return lead


class Prospects:
    """Mode 3: what a general standing on a cell could build soon, memoised while the owners and
    fortresses stay as they are (walks change neither)."""

    def __init__(self, position: Position):
        self.position = position
        self.site: dict[tuple[int, int], int] = {}
        self.near: dict[tuple[int, int], int] = {}
        self.far: dict[tuple[int, int], float] = {}

    def build(self, seat: int, at: int) -> int:
        """What a general of ``seat`` would win building on ``at`` (0 where he cannot)."""
        key = (seat, at)
        found = self.site.get(key)
        if found is None:
            position = self.position
            found = self.site[key] = (
                position.gain(seat, at) if position.owner[at] != 1 - seat and position.buildable(at) else 0
            )
        return found

    def here(self, seat: int, at: int) -> int:
        """The best build from ``at`` next turn: on it, or a step away."""
        key = (seat, at)
        found = self.near.get(key)
        if found is None:
            found = self.near[key] = max(self.build(seat, c) for c in self.position.field.around[at])
        return found

    def reach(self, seat: int, at: int) -> float:
        """The best build from ``at`` next turn, or (discounted) the turn after."""
        key = (seat, at)
        found = self.far.get(key)
        if found is None:
            further = max((self.here(seat, n) for n in self.position.field.near[at]), default=0)
            found = self.far[key] = max(self.here(seat, at), WAIT * further)
        return found


def candidates(position: Position, width: int, noise: list[int], budget: Budget) -> list[tuple[Turn, Position | None]]:
    """The ``width`` most promising turns of the player to move, with the positions they lead to
    where making the turn made them (mode 3; there each general's choice is a node too)."""
    if position.mode < 3:
        return _build_turns(position, width, noise, budget)
    return _general_turns(position, width, noise, budget)


def _build_turns(
    position: Position, width: int, noise: list[int], budget: Budget
) -> list[tuple[Turn, Position | None]]:
    seat = position.to_move
    sites = position.build_sites(seat)
    budget.spend(len(sites) // SCAN)
    sites.sort(key=lambda i: (-position.gain(seat, i), noise[i]))
    return [(((BUILD, i),), None) for i in sites[:width]] or [((), None)]


def played(position: Position, turn: Turn) -> Position:
    child = position.copy()
    child.play(turn)
    return child


def _general_turns(
    position: Position, width: int, noise: list[int], budget: Budget
) -> list[tuple[Turn, Position | None]]:
    """Each general in turn takes his best action, the city's general first (he must leave); the
    other candidates are the same with one general taking his second or third best instead."""
    seat = position.to_move
    city = position.field.cities[seat]
    order = sorted((at for at, s in position.generals.items() if s == seat), key=lambda at: (at != city, at))
    found: dict[Turn, Position] = {}
    variants = [(None, 0)] + [(g, rank) for rank in (1, 2) for g in order]
    shared = Prospects(position)
    for general, rank in variants:
        if len(found) >= width:
            break
        child = position.copy()
        worth = shared
        turn = []
        for at in order:
            ranked = _ranked_actions(child, seat, at, noise, worth)
            budget.spend(1 + len(ranked) // SCAN)
            pick = rank if at == general else 0
            if pick >= len(ranked):
                break
            action = ranked[pick]
            if action is not None:
                child.act(action)
                turn.append(action)
                if action[0] != WALK:
                    worth = Prospects(child)  # a build changes what the others can win
        else:
            if tuple(turn) not in found:
                child.end_turn()
                found[tuple(turn)] = child
    return list(found.items()) or [((), None)]


def _ranked_actions(position: Position, seat: int, at: int, noise: list[int], worth: Prospects) -> list[Action | None]:
    """The general's actions, most promising first; None (standing still) for one outside the city."""
    last = position.turn + 2 >= 2 * position.moves  # his last turn: only a build is worth anything
    scored: list[tuple[float, int, Action | None]] = []
    if at != position.field.cities[seat]:
        scored.append((0.0 if last else WAIT * worth.reach(seat, at), noise[at], None))
    for action in position.actions(at):
        if action[0] == WALK:
            value = 0.0 if last else WAIT * worth.reach(seat, action[-1]) - 0.01 * len(action)
        else:
            value = float(worth.build(seat, action[-1]))
        scored.append((value, noise[action[-1]], action))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [action for _, _, action in scored]
