"""Gra orders: value types, the notation players type, parsing and validation per phase.

Nodes are numbers. Notation (case-insensitive; orders separated by ``;`` or new lines)::

    pick 3 17 25     negotiation: your candidate start nodes (as many as there are players)
    3>7 2            move phase: move 2 ready soldiers from node 3 to the adjacent node 7
    3>7              move phase: move all ready soldiers of node 3
    create 3 3 7     creating phase: new soldiers on your nodes (a node may repeat)
    keep 17          split territory: keep the part that holds node 17
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import AmbiguousOrderError, IllegalOrderError, OrderError, OrderSyntaxError, raise_collected
from engine.gra.state import GraState, Phase
from engine.notation import number, parse_lines
from engine.words import count


@dataclass(frozen=True, slots=True)
class Pick:
    nodes: tuple[int, ...]

    def __str__(self) -> str:
        return "pick " + " ".join(map(str, self.nodes))


@dataclass(frozen=True, slots=True)
class Move:
    source: int
    target: int
    soldiers: int

    def __str__(self) -> str:
        return f"{self.source}>{self.target} {self.soldiers}"


@dataclass(frozen=True, slots=True)
class Create:
    nodes: tuple[int, ...]

    def __str__(self) -> str:
        return "create " + " ".join(map(str, self.nodes))


@dataclass(frozen=True, slots=True)
class Keep:
    node: int

    def __str__(self) -> str:
        return f"keep {self.node}"


Order = Pick | Move | Create | Keep

NODE = f"({number(4)})"
NUMBERS = rf"({number(4)}(?:[\s,]+{number(4)})*)"
PATTERNS = {
    Phase.NEGOTIATE: re.compile(rf"^(?:pick\s+)?{NUMBERS}$"),
    Phase.MOVE: re.compile(rf"^{NODE}\s*(?:->|>|-)\s*{NODE}(?:\s+(?:x\s*)?({number(5)}|all))?$"),
    Phase.CREATE: re.compile(rf"^(?:create\s+)?{NUMBERS}$"),
    Phase.SPLIT: re.compile(rf"^(?:keep\s+)?{NODE}$"),
}
EXAMPLES = {
    Phase.NEGOTIATE: "pick 3 17",
    Phase.MOVE: "3>7 2 (or 3>7 for all)",
    Phase.CREATE: "create 3 3 7",
    Phase.SPLIT: "keep 17",
}
NODE_LISTS = {Phase.NEGOTIATE: Pick, Phase.CREATE: Create}  # phases whose orders list nodes (commas separate nodes)


def parse(state: GraState, seat: int, text: str) -> list[Order]:
    separators = ";\n" if state.phase in NODE_LISTS else ";,\n"
    orders = parse_lines(text, lambda line: _parse_line(state, seat, line), separators)
    validate(state, seat, orders)
    return orders


def _parse_line(state: GraState, seat: int, line: str) -> Order:
    match = PATTERNS[state.phase].match(line)
    if not match:
        raise OrderSyntaxError(
            f"{line!r} is not an order for the {state.phase.turn_unit}; write {EXAMPLES[state.phase]}"
        )
    if state.phase in NODE_LISTS:
        nodes = tuple(int(n) for n in re.split(r"[\s,]+", match.group(1)))
        _check_nodes(state, nodes, line)
        return NODE_LISTS[state.phase](nodes)
    if state.phase == Phase.SPLIT:
        _check_nodes(state, (int(match.group(1)),), line)
        return Keep(int(match.group(1)))
    source, target = int(match.group(1)), int(match.group(2))
    _check_nodes(state, (source, target), line)
    amount = match.group(3)
    if amount is None or amount == "all":
        army = state.ready.get(source)
        if army is None or army[0] != seat:
            raise IllegalOrderError(f"{line!r}: you have no ready soldiers on node {source}")
        return Move(source, target, army[1])
    return Move(source, target, int(amount))


def _check_nodes(state: GraState, nodes: Sequence[int], line: str) -> None:
    bad = [n for n in nodes if n not in state.graph.adjacency]
    if bad:
        raise IllegalOrderError(f"{line!r}: node {bad[0]} is not on the map (nodes 1 to {len(state.graph.positions)})")


def validate(state: GraState, seat: int, orders: Sequence[Order]) -> None:
    raise_collected(CHECKS[state.phase](state, seat, orders))


def _check_picks(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    nodes = [n for o in orders for n in o.nodes]
    need = len(state.players)
    if len(nodes) != need or len(set(nodes)) != need:
        return [IllegalOrderError(f"pick {need} different nodes (one per player); you picked {len(set(nodes))}")]
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            gap = state.graph.distance[a][b]
            if gap < state.spacing:
                return [
                    IllegalOrderError(
                        f"nodes {a} and {b} are {count(gap, 'edge')} apart; picks must be at least {state.spacing} apart"
                    )
                ]
    return []


def _check_moves(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    problems: list[OrderError] = []
    totals: dict[int, int] = defaultdict(int)
    for order in orders:
        army = state.ready.get(order.source)
        if army is None or army[0] != seat:
            spawning = state.spawning.get(order.source)
            why = "are still spawning" if spawning and spawning[0] == seat else "are not there"
            problems.append(IllegalOrderError(f"{str(order)!r}: your ready soldiers on node {order.source} {why}"))
        elif not state.graph.adjacent(order.source, order.target):
            near = ", ".join(map(str, state.graph.adjacency[order.source]))
            problems.append(
                IllegalOrderError(
                    f"{str(order)!r}: node {order.target} is not next to node {order.source}; neighbours: {near}"
                )
            )
        elif order.soldiers < 1:
            problems.append(IllegalOrderError(f"{str(order)!r}: move at least 1 soldier"))
        else:
            totals[order.source] += order.soldiers
    for source, total in totals.items():
        have = state.ready[source][1]
        if total > have:
            problems.append(
                IllegalOrderError(f"node {source} has {count(have, 'ready soldier')}; your orders move {total}")
            )
    return problems


def _check_creates(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    nodes = [n for o in orders for n in o.nodes]
    room = state.cap(seat) - state.soldiers(seat)
    foreign = sorted({n for n in nodes if state.owners.get(n) != seat})
    if foreign:
        return [IllegalOrderError(f"node {foreign[0]} is not yours; create soldiers on your own nodes")]
    if len(nodes) > max(0, room):
        return [
            IllegalOrderError(
                f"you may create {count(max(0, room), 'soldier')} now (cap {state.cap(seat)}, you have "
                f"{state.soldiers(seat)}); you asked for {len(nodes)}"
            )
        ]
    return []


def _check_keep(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    parts = state.splits.get(seat)
    if not parts:
        return [IllegalOrderError("your territory is not split; there is nothing to choose")]
    if len(orders) != 1:
        return [AmbiguousOrderError("choose exactly one part to keep, with one node of it")]
    node = orders[0].node
    if not any(node in part for part in parts):
        listed = "; ".join(f"{min(p)} ({count(len(p), 'node')})" for p in parts)
        return [IllegalOrderError(f"node {node} is not yours; your parts (by their lowest node): {listed}")]
    return []


CHECKS = {
    Phase.NEGOTIATE: _check_picks,
    Phase.MOVE: _check_moves,
    Phase.CREATE: _check_creates,
    Phase.SPLIT: _check_keep,
}
