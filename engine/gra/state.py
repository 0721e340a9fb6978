"""The gra state, its serialized form, and the view handed to renderers and cogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine import standings
from engine.errors import StateError
from engine.gra.board import Graph
from engine.standings import Seats
from engine.stored import whole

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
    Phase.NEGOTIATE: "start pick",
    Phase.MOVE: "move phase",
    Phase.CREATE: "creating phase",
    Phase.SPLIT: "split choice",
}

ORDER_HINTS = {
    Phase.NEGOTIATE: "pick your candidate start nodes, as many as there are players: `pick 3 17 …`",
    Phase.MOVE: "move ready soldiers along edges: `3>7 2` (or `3>7` for all of them)",
    Phase.CREATE: "raise new soldiers on your nodes, up to your cap: `create 3 3 7`",
    Phase.SPLIT: "your land fell apart: keep the part that holds a node of it, `keep 17`",
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


def to_dict(state: GraState, name: str, version: int) -> dict[str, Any]:
    return {
        "ruleset": name,
        "version": version,
        "map": state.graph.to_dict(),
        "phase": state.phase,
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


def from_dict(data: Mapping[str, Any]) -> GraState:
    try:
        graph = Graph.from_dict(data["map"])
        nodes = set(graph.nodes)
        seats = len(data["players"])

        def node(value: Any) -> int:
            number = int(value)
            if number not in nodes:
                raise StateError(f"gra state is damaged: node {value!r} is not on the map")
            return number

        def seat(value: Any) -> int:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
                raise StateError(f"gra state is damaged: seat {value!r}")
            return value

        def armies(mapping: Mapping[str, Any]) -> dict[int, Army]:
            result = {}
            for key, (owner, count) in mapping.items():
                if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                    raise StateError(f"gra state is damaged: {count!r} soldiers")
                result[node(key)] = (seat(owner), count)
            return result

        state = GraState(
            graph=graph,
            phase=data["phase"],
            spacing=int(data["spacing"]),
            owners={node(k): seat(v) for k, v in data["owners"].items()},
            ready=armies(data["ready"]),
            spawning=armies(data["spawning"]),
            splits={
                seat(int(k)): tuple(frozenset(node(n) for n in part) for part in parts)
                for k, parts in data["splits"].items()
            },
            players=standings.from_data(data["players"], "gra"),
            turn=int(data["turn"]),
            last=tuple(
                Trace(str(k), None if s is None else seat(s), tuple(node(n) for n in ns), int(c))
                for k, s, ns, c in data["last"]
            ),
            rng=int(data["rng"]),
            move_phases=whole(data["move_phases"], 0, "gra"),
            turn_limit=whole(data["turn_limit"], 1, "gra"),
        )
    except StateError:
        raise
    except Exception as err:  # noqa: BLE001 - any malformed input is a damaged state
        raise StateError(f"gra state is damaged: {type(err).__name__}: {err}") from None
    if not 2 <= seats <= 6:
        raise StateError(f"gra state is damaged: {seats} players")
    return state


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
