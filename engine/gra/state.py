"""The gra state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine import standings, stored
from engine.errors import MapError
from engine.gra.board import Graph
from engine.i18n import mark
from engine.standings import Seats

GAME = "gra"
DIED = "no nodes left"  # why a dead seat left
TURN_LIMIT = 300  # move phases, by default (rules/gra.md, End)


class Phase(StrEnum):
    """What the players of a gra turn do. The values are the stored names, so saved games keep loading."""

    NEGOTIATE = "negotiate"
    MOVE = "move"
    CREATE = "create"
    SPLIT = "split"

    @property
    def turn_unit(self) -> str:
        """The turn's name for players."""
        return TURN_UNITS[self]


TURN_UNITS = {
    Phase.NEGOTIATE: mark("start pick"),
    Phase.MOVE: mark("move phase"),
    Phase.CREATE: mark("creating phase"),
    Phase.SPLIT: mark("split choice"),
}

ORDER_HINTS = {
    Phase.NEGOTIATE: mark("pick your candidate start nodes, as many as there are players: `pick 3 17 …`"),
    Phase.MOVE: mark("move ready soldiers along edges: `3>7 2` (or `3>7` for all of them)"),
    Phase.CREATE: mark("raise new soldiers on your nodes, up to your cap: `create 3 3 7`"),
    Phase.SPLIT: mark("your land fell apart: keep the part that holds a node of it, `keep 17`"),
}

Army = tuple[int, int]  # (seat, soldiers)


@dataclass(frozen=True)
class Trace:
    """What last turn's move phase did, for the picture: a move, or a fight on an edge or a node."""

    kind: str  # "move", "edge_fight", "node_fight"
    seat: int | None
    nodes: tuple[int, ...]
    soldiers: int


@dataclass(frozen=True)
class GraState:
    graph: Graph
    phase: Phase
    spacing: int  # picks of one player must be at least this many edges apart
    owners: Mapping[int, int]
    ready: Mapping[int, Army]
    spawning: Mapping[int, Army]
    splits: Mapping[int, tuple[frozenset[int], ...]]  # seat -> parts to choose from (split phase)
    players: Seats  # a seat leaves in the turn being played then
    turn: int
    last: tuple[Trace, ...]
    rng: int
    move_phases: int  # move phases played, against the turn limit
    turn_limit: int  # move phases after which the game ends on nodes, then soldiers

    def __post_init__(self) -> None:
        # a phase given by its stored name (``replace(state, phase="move")``) becomes the Phase itself
        object.__setattr__(self, "phase", Phase(self.phase))

    def playing(self) -> list[int]:
        return standings.still_in(self.players)

    @property
    def over(self) -> bool:
        return len(self.playing()) <= 1 or self.move_phases >= self.turn_limit

    def territory(self, seat: int) -> list[int]:
        return sorted(n for n, s in self.owners.items() if s == seat)

    def soldiers(self, seat: int) -> int:
        return sum(n for s, n in (*self.ready.values(), *self.spawning.values()) if s == seat)

    def ready_soldiers(self, seat: int) -> int:
        return sum(n for s, n in self.ready.values() if s == seat)

    def cap(self, seat: int) -> int:
        """Army cap: floor(territory / 3) + 1, counting ready and spawning soldiers."""
        return len(self.territory(seat)) // 3 + 1


def to_data(state: GraState) -> dict[str, Any]:
    """The state's fields as stored (the ruleset adds the envelope)."""
    return {
        "map": state.graph.to_dict(),
        "phase": state.phase.value,
        "spacing": state.spacing,
        "owners": {str(n): s for n, s in sorted(state.owners.items())},
        "ready": {str(n): list(a) for n, a in sorted(state.ready.items())},
        "spawning": {str(n): list(a) for n, a in sorted(state.spawning.items())},
        "splits": {str(s): [sorted(p) for p in parts] for s, parts in sorted(state.splits.items())},
        "players": standings.to_data(state.players),
        "turn": state.turn,
        "last": [[t.kind, t.seat, list(t.nodes), t.soldiers] for t in state.last],
        "rng": state.rng,
        "move_phases": state.move_phases,
        "turn_limit": state.turn_limit,
    }


def from_data(data: Mapping[str, Any]) -> GraState:
    """Rebuild and validate a state; anything inconsistent is a StateError naming the field."""
    read = stored.Fields(data, GAME, known=("ruleset", "version"))
    try:
        graph = Graph.from_dict(read["map"])
    except MapError as err:
        raise stored.damaged(GAME, "map", str(err)) from None
    if graph.to_dict() != read["map"]:  # a stored map is as to_dict wrote it: edges sorted, each once
        raise stored.damaged(GAME, "map", "is not in the form the game stores it in")
    size = len(graph.positions)
    players = standings.from_data(read.listed("players", 2, 6), GAME)
    last_seat = len(players) - 1

    def node(value: Any, where: str) -> int:
        return stored.whole(value, 1, size, where, GAME)

    def by_node(key: str) -> dict[int, Any]:
        return {
            stored.number_key(k, 1, size, f"{key}.{k}", GAME): (f"{key}.{k}", v)
            for k, v in read.keyed(key, size).items()
        }

    def armies(key: str) -> dict[int, Army]:
        result = {}
        for number, (where, army) in by_node(key).items():
            owner, count = stored.listed(army, 2, 2, where, GAME)
            result[number] = (
                stored.whole(owner, 0, last_seat, where, GAME),
                stored.whole(count, 1, stored.MOST, where, GAME),
            )
        return result

    splits = {}
    for key, parts in read.keyed("splits", len(players)).items():
        where = f"splits.{key}"
        splits[stored.number_key(key, 0, last_seat, where, GAME)] = tuple(
            frozenset(node(n, where) for n in stored.listed(part, 1, size, where, GAME))
            for part in stored.listed(parts, 1, size, where, GAME)
        )
    state = GraState(
        graph=graph,
        phase=Phase(read.one_of("phase", [p.value for p in Phase])),
        spacing=read.whole("spacing", 1, size),
        owners={n: stored.whole(v, 0, last_seat, where, GAME) for n, (where, v) in by_node("owners").items()},
        ready=armies("ready"),
        spawning=armies("spawning"),
        splits=splits,
        players=players,
        turn=read.whole("turn", 0, stored.MOST),
        last=tuple(
            _trace(entry, f"last[{i}]", last_seat, size) for i, entry in enumerate(read.listed("last", 0, 4 * size))
        ),
        rng=read.whole("rng", 0, stored.RNG_MOST),
        move_phases=read.whole("move_phases", 0, stored.MOST),
        turn_limit=read.whole("turn_limit", 1, stored.MOST),
    )
    read.done()
    return state


TRACE_NODES = {"move": 2, "edge_fight": 2, "node_fight": 1}  # how many nodes each kind of trace is drawn between


def _trace(entry: Any, where: str, last_seat: int, size: int) -> Trace:
    kind, seat, nodes, soldiers = stored.listed(entry, 4, 4, where, GAME)
    kind = stored.one_of(kind, TRACE_NODES, where, GAME)
    if seat is not None or kind == "move":
        seat = stored.whole(seat, 0, last_seat, where, GAME)
    nodes = stored.listed(nodes, TRACE_NODES[kind], TRACE_NODES[kind], where, GAME)
    return Trace(
        kind,
        seat,
        tuple(stored.whole(n, 1, size, where, GAME) for n in nodes),
        stored.whole(soldiers, 0, stored.MOST, where, GAME),
    )


def upgrade_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 1 kept one word per seat ("playing", "dead" or why it left) and the order of
    departures, not their turns: that order stands in for the turns, so past places stay apart."""
    order = {seat: number for number, seat in enumerate(data["departures"])}
    players = [standings.from_word(word, order.get(seat), DIED) for seat, word in enumerate(data["players"])]
    return {**{k: v for k, v in data.items() if k != "departures"}, "players": players}


def upgrade_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version 2 had no turn limit: its games get the default one, counted from when they load."""
    return {**data, "move_phases": 0, "turn_limit": TURN_LIMIT}


@dataclass(frozen=True)
class GraView:
    """Everything a viewer may see: the whole board (secrets are orders, which never enter the state)."""

    viewer: int | None
    state: GraState
    acting: frozenset[int]


def make_view(state: GraState, viewer: int | None, acting: frozenset[int]) -> GraView:
    return GraView(viewer, state, acting)
