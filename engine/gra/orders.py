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
from typing import TypeVar

from engine.errors import AmbiguousOrderError, IllegalOrderError, OrderError, OrderSyntaxError, raise_collected
from engine.gra.state import GraState, Phase
from engine.i18n import joined, ntr, tr
from engine.notation import number, parse_lines


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
KindT = TypeVar("KindT", Pick, Move, Create, Keep)

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
# phases whose orders list nodes (commas separate nodes)
NODE_LISTS: dict[Phase, type[Pick] | type[Create]] = {Phase.NEGOTIATE: Pick, Phase.CREATE: Create}


def parse(state: GraState, seat: int, text: str) -> list[Order]:
    separators = ";\n" if state.phase in NODE_LISTS else ";,\n"
    orders = parse_lines(text, lambda line: _parse_line(state, seat, line), separators)
    validate(state, seat, orders)
    return orders


def _parse_line(state: GraState, seat: int, line: str) -> Order:
    match = PATTERNS[state.phase].match(line)
    if not match:
        raise OrderSyntaxError(
            tr(
                "{line!r} is not an order for the {unit}; write {example}",
                line=line,
                unit=tr(state.phase.turn_unit),
                example=EXAMPLES[state.phase],
            )
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
            raise IllegalOrderError(tr("{line!r}: you have no ready soldiers on node {node}", line=line, node=source))
        return Move(source, target, army[1])
    return Move(source, target, int(amount))


def _check_nodes(state: GraState, nodes: Sequence[int], line: str) -> None:
    bad = [n for n in nodes if n not in state.graph.adjacency]
    if bad:
        raise IllegalOrderError(
            tr(
                "{line!r}: node {node} is not on the map (nodes 1 to {last})",
                line=line,
                node=bad[0],
                last=len(state.graph.positions),
            )
        )


def validate(state: GraState, seat: int, orders: Sequence[Order]) -> None:
    raise_collected(CHECKS[state.phase](state, seat, orders))


def _as(kind: type[KindT], orders: Sequence[Order]) -> list[KindT]:
    """``orders`` as the one kind the phase's notation parses to; another kind is the caller's bug."""
    typed = [o for o in orders if isinstance(o, kind)]
    if len(typed) != len(orders):
        raise TypeError(f"only {kind.__name__} orders belong to this phase")
    return typed


def _check_picks(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    nodes = [n for o in _as(Pick, orders) for n in o.nodes]
    need = len(state.players)
    if len(nodes) != need or len(set(nodes)) != need:
        return [
            IllegalOrderError(
                tr(
                    "pick {need} different nodes (one per player); you picked {picked}",
                    need=need,
                    picked=len(set(nodes)),
                )
            )
        ]
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            gap = state.graph.distance[a][b]
            if gap < state.spacing:
                return [
                    IllegalOrderError(
                        ntr(
                            "nodes {a} and {b} are {n} edge apart; picks must be at least {spacing} apart",
                            "nodes {a} and {b} are {n} edges apart; picks must be at least {spacing} apart",
                            gap,
                            a=a,
                            b=b,
                            spacing=state.spacing,
                        )
                    )
                ]
    return []


def _check_moves(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    problems: list[OrderError] = []
    totals: dict[int, int] = defaultdict(int)
    for order in _as(Move, orders):
        army = state.ready.get(order.source)
        if army is None or army[0] != seat:
            spawning = state.spawning.get(order.source)
            why = (
                tr("{order!r}: your ready soldiers on node {node} are still spawning")
                if spawning and spawning[0] == seat
                else tr("{order!r}: your ready soldiers on node {node} are not there")
            )
            problems.append(IllegalOrderError(why.format(order=str(order), node=order.source)))
        elif not state.graph.adjacent(order.source, order.target):
            near = joined(state.graph.adjacency[order.source])
            problems.append(
                IllegalOrderError(
                    tr(
                        "{order!r}: node {node} is not next to node {source}; neighbours: {near}",
                        order=str(order),
                        node=order.target,
                        source=order.source,
                        near=near,
                    )
                )
            )
        elif order.soldiers < 1:
            problems.append(IllegalOrderError(tr("{order!r}: move at least 1 soldier", order=str(order))))
        else:
            totals[order.source] += order.soldiers
    for source, total in totals.items():
        have = state.ready[source][1]
        if total > have:
            problems.append(
                IllegalOrderError(
                    ntr(
                        "node {node} has {n} ready soldier; your orders move {total}",
                        "node {node} has {n} ready soldiers; your orders move {total}",
                        have,
                        node=source,
                        total=total,
                    )
                )
            )
    return problems


def _check_creates(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    nodes = [n for o in _as(Create, orders) for n in o.nodes]
    room = state.cap(seat) - state.soldiers(seat)
    foreign = sorted({n for n in nodes if state.owners.get(n) != seat})
    if foreign:
        return [IllegalOrderError(tr("node {node} is not yours; create soldiers on your own nodes", node=foreign[0]))]
    if len(nodes) > max(0, room):
        return [
            IllegalOrderError(
                ntr(
                    "you may create {n} soldier now (cap {cap}, you have {have}); you asked for {asked}",
                    "you may create {n} soldiers now (cap {cap}, you have {have}); you asked for {asked}",
                    max(0, room),
                    cap=state.cap(seat),
                    have=state.soldiers(seat),
                    asked=len(nodes),
                )
            )
        ]
    return []


def _check_keep(state: GraState, seat: int, orders: Sequence[Order]) -> list[OrderError]:
    parts = state.splits.get(seat)
    if not parts:
        return [IllegalOrderError(tr("your territory is not split; there is nothing to choose"))]
    if len(orders) != 1:
        return [AmbiguousOrderError(tr("choose exactly one part to keep, with one node of it"))]
    node = _as(Keep, orders)[0].node
    if not any(node in part for part in parts):
        sizes = [ntr("{n} node", "{n} nodes", len(p)) for p in parts]
        listed = joined(f"{min(p)} ({size})" for p, size in zip(parts, sizes))
        return [
            IllegalOrderError(
                tr("node {node} is not yours; your parts (by their lowest node): {parts}", node=node, parts=listed)
            )
        ]
    return []


CHECKS = {
    Phase.NEGOTIATE: _check_picks,
    Phase.MOVE: _check_moves,
    Phase.CREATE: _check_creates,
    Phase.SPLIT: _check_keep,
}
